# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
4 1.57638475 1.03234623 2.12042327 2.72121048 1.66211796 3.78030299
8 2.72496096 2.18318645 3.26673547 3.00781906 2.30631734 3.70932079
16 6.96573305 5.64342429 8.28804181 2.34969056 1.81215297 2.88722815
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
4 2.1702732 0.964738883 3.37580752 2.1988089 0.885816556 3.51180125
8 3.27304807 2.15413847 4.39195766 2.60611073 1.68552322 3.52669824
16 8.11965382 3.9260102 12.3132974 2.30152427 0.989002628 3.61404592
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
4 1.60498438 1.17285528 2.03711349 2.59980481 1.81102306 3.38858656
8 3.20205316 2.64778943 3.7563169 2.53625742 2.1133609 2.95915395
16 18.4466398 3.10106638 33.7922133 1.3642523 0.0487718103 2.67973278
EOD
dir = 'docs/case-study-24344/churn/report'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    pngterm = 'pngcairo size 900,600 noenhanced font ",10"'
} else {
    pngterm = 'png truecolor size 900,600 noenhanced'
}
set logscale x 2
set xrange [3.2:20]
set xtics (4, 8, 16)
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
