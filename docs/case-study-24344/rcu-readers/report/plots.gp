# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
1 0.0774204121 0.0473929745 0.10744785 13.9771063 10.2715326 17.68268
2 0.116577875 0.0845240771 0.148631673 18.0172722 13.8171349 22.2174095
4 0.27409351 0.235589557 0.312597464 14.7993861 12.8608734 16.7378988
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
1 0.0659727456 0.0544999844 0.0774455067 15.566172 12.417153 18.7151911
2 0.14292864 0.0952683703 0.190588909 15.2310252 10.2476037 20.2144466
4 0.239068061 0.203351396 0.274784725 17.0049944 14.5799334 19.4300555
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
1 0.0551081415 0.0438256182 0.0663906648 18.7247811 14.9735769 22.4759852
2 0.130743215 0.0989781432 0.162508286 15.8593991 12.7559675 18.9628308
4 0.246780906 0.201996959 0.291564853 16.7268309 12.9062863 20.5473756
EOD
dir = 'docs/case-study-24344/rcu-readers/report'
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
