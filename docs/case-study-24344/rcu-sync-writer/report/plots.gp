# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 145.410418 90.4692238 244.796339 8.11460114 4.99318837 13.5108292
2 210.358983 161.877792 276.29923 10.0150633 7.70568201 13.1523538
4 363.303522 314.756053 420.73318 11.1845267 9.68863617 12.9507619
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 138.814417 118.51216 163.164439 7.34232861 6.270712 8.63335212
2 207.223417 147.759498 296.000503 10.5138576 7.49120058 15.0068129
4 307.964833 271.1574 350.720428 13.1505316 11.5762339 14.9729335
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 174.844274 123.277383 251.285148 6.25288806 4.43390107 9.03793913
2 178.590676 155.729752 205.377023 11.3602959 9.90718719 13.0656383
4 422.411591 351.194725 511.7992 9.7224494 8.06643754 11.7552913
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 2.13193783 -39.7264383 73.0598364 0
2 -3.10220473 -40.5097021 57.8271259 0
4 -15.087552 -26.6317563 -1.72691271 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 23.8760211 -26.4508237 108.639571 0
2 -13.4987235 -34.4727226 14.1886422 0
4 15.7650284 1.04135254 32.6342282 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 3658.02258 nan
2 1193.56998 nan
4 218.731312 nan
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 3543.11351 nan
2 1276.3179 nan
4 2.32463691 nan
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 5501.41526 nan
2 532.702005 nan
4 125.369376 nan
EOD
$e0 << EOD
# threads eff_first eff_step
1 1 nan
2 0.666348441 0.666348441
4 0.372332855 0.558766003
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.629233067 0.629233067
4 0.429883532 0.683186492
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.812110097 0.812110097
4 0.333648714 0.410841726
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
