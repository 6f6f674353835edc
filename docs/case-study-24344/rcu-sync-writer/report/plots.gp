# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
1 0.145410418 0.0839468476 0.206873989 8.11460114 3.93605177 12.2931505
2 0.210358983 0.155114517 0.265603449 10.0150633 7.36131374 12.6688128
4 0.363303522 0.311738901 0.414868143 11.1845267 9.5551036 12.8139497
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
1 0.138814417 0.116217488 0.161411346 7.34232861 6.21234511 8.47231211
2 0.207223417 0.137916432 0.276530401 10.5138576 6.90952482 14.1181903
4 0.307964833 0.269620886 0.34630878 13.1505316 11.4229948 14.8780684
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
1 0.174844274 0.10997479 0.239713758 6.25288806 4.33406824 8.17170788
2 0.178590676 0.153752594 0.203428757 11.3602959 9.81653177 12.9040601
4 0.422411591 0.352574421 0.492248761 9.7224494 7.68581642 11.7590824
EOD
dir = 'docs/case-study-24344/rcu-sync-writer/report'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    pngterm = 'pngcairo size 900,600 noenhanced font ",10"'
} else {
    pngterm = 'png truecolor size 900,600 noenhanced'
}
set logscale x 2
set xrange [0.8:5]
set xtics (1, 2, 4)
set xlabel 'threads'
set grid
set key top left
set arrow 1 from 2, graph 0 to 2, graph 1 nohead dt 2
set label 1 '2 CPUs' at 2, graph 0.95 offset 0.5, 0
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ylabel 'wall time per op (usecs), mean and 95% interval'
    set yrange [0:*]
    set title 'per-op cost against threads (wall_ns_per_op)'
    plot $d0 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 1 notitle, $d0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $d1 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 2 notitle, $d1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $d2 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 3 notitle, $d2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads)'
    set title 'throughput against threads'
    plot $d0 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 1 notitle, $d0 using 1:5 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $d1 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 2 notitle, $d1 using 1:5 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $d2 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 3 notitle, $d2 using 1:5 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset output
}
