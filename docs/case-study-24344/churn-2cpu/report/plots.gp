# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
1 0.686052424 0.525938112 0.846166736 1.5879066 1.33618745 1.83962575
2 0.876828934 0.734887928 1.01876994 2.4094518 2.0496982 2.76920539
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
1 0.675185681 0.611729939 0.738641424 1.51209576 1.36264768 1.66154384
2 1.02569889 0.894632463 1.15676532 2.01554774 1.78343818 2.2476573
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
1 0.681247483 0.583712714 0.778782252 1.53589534 1.32076501 1.75102568
2 1.00637067 0.820443232 1.19229812 2.14956369 1.74439971 2.55472767
EOD
dir = 'docs/case-study-24344/churn-2cpu/report'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    pngterm = 'pngcairo size 900,600 noenhanced font ",10"'
} else {
    pngterm = 'png truecolor size 900,600 noenhanced'
}
set logscale x 2
set xrange [0.8:2.5]
set xtics (1, 2)
set xlabel 'threads'
set grid
set key top left
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
