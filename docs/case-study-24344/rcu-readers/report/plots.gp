# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 77.4204121 55.7312765 108.125141 13.9771063 10.1637767 19.7189058
2 116.577875 90.2743751 151.64781 18.0172722 13.9898239 23.5008677
4 274.09351 239.335889 314.685526 14.7993861 12.9269147 16.9966692
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 65.9727456 54.7806539 79.982962 15.566172 12.9080034 18.8464407
2 142.92864 101.926197 203.981124 15.2310252 10.8675704 21.7488662
4 239.068061 206.626645 277.441994 17.0049944 14.7011296 19.7395197
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 55.1081415 44.9688162 67.9548991 18.7247811 15.2831056 23.0951576
2 130.743215 105.040357 163.483212 15.8593991 12.7749816 19.8827868
4 246.780906 201.694941 304.574229 16.7268309 13.6377735 20.5940433
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 -12.0244212 -41.1649559 31.549191 0
2 20.5592554 -21.6033446 85.3973745 0
4 -12.8712797 -24.7067454 0.824621664 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 -26.7465669 -54.4539816 17.816346 0
2 12.8812554 -25.9681718 72.1175626 0
4 -10.6243335 -24.7476475 6.14963505 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 nan
2 0 nan
4 0 nan
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 nan
2 0 nan
4 0 nan
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 nan
2 0 nan
4 0 nan
EOD
$e0 << EOD
# threads eff_first eff_step
1 1 nan
2 0.647243816 0.647243816
4 0.264768128 0.409070155
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.490878853 0.490878853
4 0.289293827 0.589338542
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.427835399 0.427835399
4 0.209089445 0.488714692
EOD
top = 0
span = 0
stats $d0 using 2 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
stats $d1 using 2 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
stats $d2 using 2 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
costmax = top > 0 ? top * 1.4 : 1
top = 0
span = 0
stats $d0 using 5 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
stats $d1 using 5 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
stats $d2 using 5 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
tputmax = top > 0 ? top * 1.4 : 1
top = 0
span = 0
stats $c1 using 2 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
stats $c2 using 2 nooutput
top = STATS_max > top ? STATS_max : top
span = abs(STATS_max) > span ? abs(STATS_max) : span
span = abs(STATS_min) > span ? abs(STATS_min) : span
changemax = span * 1.6 + 2
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
    set ylabel 'wall time per op (ns/op): mean, 95% interval as error bar'
    set yrange [0:costmax]
    set title 'wall time per op against threads (intervals beyond the top are cut off there)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync'
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): mean, 95% interval'
    set yrange [0:tputmax]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync'
    set output dir.'/change.'.fmt.'.tmp'
    set ylabel 'change of wall time per op against stock (%; negative = faster)'
    set yrange [-changemax:changemax]
    set title 'change against stock, 95% interval (filled: resolved; open: not)'
    plot 0 with lines lc 'black' lw 1 notitle, \
        $c1 using ($1*1.000000):2:3:4 with yerrorbars pt 6 ps 1.2 lw 1.5 lc 2 notitle, $c1 using ($1*1.000000):($5 > 0 ? $2 : NaN) with points pt 7 ps 1.2 lc 2 notitle, $c1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $c2 using ($1*1.042466):2:3:4 with yerrorbars pt 6 ps 1.2 lw 1.5 lc 3 notitle, $c2 using ($1*1.042466):($5 > 0 ? $2 : NaN) with points pt 7 ps 1.2 lc 3 notitle, $c2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync'
    set yrange [0:*]
    set output dir.'/probes.'.fmt.'.tmp'
    set multiplot layout 1,1 title 'probe layer, median over blocks'
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    plot $p0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset multiplot
    set output dir.'/efficiency.'.fmt.'.tmp'
    set ylabel 'scaling efficiency (1 = ideal)'
    set yrange [0:1.25]
    set key top right
    set title 'scaling efficiency: vs the first count (lines), per step (points)'
    plot 1 with lines dt 2 lc 'gray' title 'ideal', 0.8 with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below 80%', \
        $e0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock vs first', $e0 using 1:3 with points pt 6 ps 1.5 lc 1 title 'stock per step', \
        $e1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync vs first', $e1 using 1:3 with points pt 6 ps 1.5 lc 2 title 'rcu-sync per step', \
        $e2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync vs first', $e2 using 1:3 with points pt 6 ps 1.5 lc 3 title 'rcu-nosync per step'
    set key top left
    unset output
}
