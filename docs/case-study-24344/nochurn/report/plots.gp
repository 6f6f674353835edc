# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 224.722925 168.004166 304.174067 4.64972856 3.47428242 6.29024054
2 511.350893 425.365693 617.298522 3.9810592 3.31259101 4.80729304
4 1198.17984 1021.19415 1410.5663 3.3833416 2.88362259 3.98312197
8 2184.70041 1721.00455 2795.49749 3.77242397 2.97047372 4.82506094
16 4735.18843 3707.17583 6102.38861 3.48651788 2.7270593 4.48901706
32 12378.7727 9594.11502 16125.039 2.674201 2.07082133 3.48047472
64 42749.4739 26353.4912 71237.058 1.68039612 1.04053726 2.81271323
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 283.571928 204.475751 400.281079 3.7288672 2.67964099 5.24565665
2 535.120262 420.299165 686.504127 3.85276533 3.02653331 4.94344928
4 1149.49742 1038.5854 1273.90739 3.49856828 3.16116486 3.87741951
8 2183.63185 1421.57649 3428.5346 4.01911796 2.62325325 6.32671868
16 5152.61078 4370.45764 6094.70159 3.14954923 2.67220837 3.72645474
32 13645.6097 9303.90522 20359.2394 2.52600989 1.72655559 3.77812948
64 43815.5746 30869.601 63554.2731 1.55766277 1.09143761 2.24704958
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 236.090263 187.066447 300.22423 4.35734254 3.45121701 5.53888196
2 589.595437 484.29574 721.753621 3.46170251 2.84234341 4.23598947
4 1225.97968 925.791466 1635.98038 3.39828787 2.57279836 4.54643166
8 2031.05736 1493.11817 2795.56491 4.13635027 3.04296203 5.6973373
16 5064.77733 4368.91239 5888.84356 3.19542629 2.75620207 3.71507629
32 13925.2153 9509.79419 20836.0451 2.47664174 1.68752974 3.69739292
64 35289.9424 21230.2695 60539.6267 2.06025904 1.24270866 3.54367232
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 25.618943 -10.9195132 77.144506 0
2 3.99422304 -5.92626906 14.960875 0
4 -3.68086267 -21.0449067 17.5019346 0
8 -3.28655473 -28.6976436 31.1806646 0
16 9.68670627 -8.03510121 30.8235391 0
32 7.84778006 -32.1764337 71.4911838 0
64 5.67585979 -37.7981481 79.5346441 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 5.87278781 -5.39555166 18.4832996 0
2 15.1913133 -2.49219687 36.0818133 0
4 0.801910287 -32.104006 49.6557385 0
8 -7.97185407 -15.7792585 0.559309843 0
16 7.98336036 -17.7136502 41.7052299 0
32 10.2881104 -37.2299945 93.7783373 0
64 -17.8698094 -51.964491 40.4246223 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 nan 0
2 nan 0
4 nan 0
8 nan 0
16 nan 0
32 nan 0
64 nan 0
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 0
2 0 0
4 0 0
8 0 0
16 0 0
32 0 0
64 0 0
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 0
2 0 0
4 0 0
8 0 0
16 0 0
32 0 0
64 0 0
EOD
$e0 << EOD
# threads eff_first eff_step
1 1 nan
2 0.507598641 0.507598641
4 0.202324881 0.398592244
8 0.111091498 0.549074822
16 0.0463799734 0.417493456
32 0.0170476763 0.36756546
64 0.00723345585 0.424307438
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.638867694 0.638867694
4 0.285869938 0.447463443
8 0.173612159 0.607311704
16 0.06204255 0.357362931
32 0.0281206848 0.453248373
64 0.00717111047 0.255011943
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.421523096 0.421523096
4 0.207958308 0.493349736
8 0.13122454 0.631013693
16 0.0460485215 0.350913948
32 0.0172984101 0.375656146
64 0.00709537528 0.410174995
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
dir = 'docs/case-study-24344/nochurn/report'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    pngterm = 'pngcairo size 900,600 noenhanced font ",10"'
} else {
    pngterm = 'png truecolor size 900,600 noenhanced'
}
set logscale x 2
set xrange [0.8:80]
set xtics (1, 2, 4, 8, 16, 32, 64)
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
