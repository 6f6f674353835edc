# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
4 1576.38475 1091.48933 2324.43634 2.72121048 1.87884291 4.001185
8 2724.96096 2198.80372 3402.03838 3.00781906 2.42391195 3.75033088
16 6965.73305 5660.65021 8632.7335 2.34969056 1.90675838 2.90788802
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
4 2170.2732 1188.46524 4177.38995 2.1988089 1.19875327 4.21355182
8 3273.04807 2298.95717 4742.07089 2.60611073 1.82919936 3.77309902
16 8119.65382 4635.88843 14905.6263 2.30152427 1.30707458 4.2025958
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
4 1604.98438 1208.03281 2158.89267 2.59980481 1.95347833 3.491089
8 3202.05316 2702.53163 3807.61279 2.53625742 2.1410023 3.0164708
16 18446.6398 6530.09494 61547.9562 1.3642523 0.471270567 4.44185583
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
4 30.6362866 -35.0190943 162.628524 0
8 17.7064086 -5.75237877 47.0042261 0
16 9.30272157 -30.2427717 71.2666234 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
4 3.17406781 -25.3611151 42.618533 0
8 17.9619694 -5.92237732 47.9100538 0
16 116.042533 -22.4278301 501.689707 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 nan 0.00709767705
8 nan 0
16 nan 0
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 32.412068 0.00726016059
8 2.75307277 0
16 3.45544591 0
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 3.0761706 0.00866418128
8 3.90749653 0.00149599149
16 3.22163651 0.00739725217
EOD
$e0 << EOD
# threads eff_first eff_step
4 1 nan
8 0.497254543 0.497254543
16 0.206003667 0.414282121
EOD
$e1 << EOD
# threads eff_first eff_step
4 1 nan
8 0.651783703 0.651783703
16 0.258117083 0.396016473
EOD
$e2 << EOD
# threads eff_first eff_step
4 1 nan
8 0.514047238 0.514047238
16 0.0860934032 0.167481502
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
    set multiplot layout 1,2 title 'probe layer, median over blocks'
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    plot $p0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    set ylabel 'fetches that missed the cache, per 1k fetches'
    set title 'slow-path fetches'
    plot $p0 using 1:3 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:3 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:3 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
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
