# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 84.2385738 43.2516613 164.066237 11.8710462 6.09509926 23.1204992
2 107.541023 82.4289089 140.303586 18.5975542 14.2548031 24.2633322
4 150.266488 146.267784 154.374509 26.6193751 25.9110136 27.3471019
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 79.4051646 50.1865731 125.634802 12.5936393 7.95957798 19.9256482
2 114.61978 89.3926761 146.966111 17.4489953 13.6085795 22.3731975
4 164.505666 145.073397 186.540845 24.3152719 21.443025 27.5722501
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 69.5093427 52.8958799 91.3407382 14.3865553 10.9480175 18.9050641
2 102.790624 81.5389268 129.581206 19.4570274 15.434337 24.5281619
4 162.406075 147.069972 179.341391 24.6296205 22.3038306 27.1979381
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 -5.73776245 -38.9705559 45.5915184 0
2 6.58237875 -20.6434336 43.1488782 0
4 9.4759506 -3.86927874 24.673815 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 -17.4851383 -54.2439173 48.8043118 0
2 -4.4172894 -24.553318 21.0928609 0
4 8.07870579 -0.74503911 17.6868797 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 47902.3799 nan
2 12399.3955 nan
4 1968.85868 nan
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 55303.4442 nan
2 13230.7964 nan
4 1343.74618 nan
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 60914.8124 nan
2 14520.0379 nan
4 1564.30708 nan
EOD
$e0 << EOD
# threads eff_first eff_step
1 1 nan
2 0.783315722 0.783315722
4 0.560594548 0.715668704
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.69277017 0.69277017
4 0.482689542 0.696752779
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.676222594 0.676222594
4 0.427997182 0.632923517
EOD
$k0 << EOD
# threads eff_step finding
2 0.783315722 "knee, low"
EOD
$k1 << EOD
# threads eff_step finding
2 0.69277017 "knee, low"
EOD
$k2 << EOD
# threads eff_step finding
2 0.676222594 "knee, low"
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
set key outside below center horizontal height 1.5
# oversubscribed: more threads than the run's 2 CPUs
set object 1 rect from 2.82843, graph 0 to graph 1, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 offset 0.5, 0
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ytics (50, 70, 100, 150, 200)
    set logscale y
    set ylabel 'wall time per op (ns/op, log scale): geometric mean, 95% interval'
    set yrange [34.6013291:298.465352]
    set title 'wall time per op against threads (CPU time: report --metric cpu_ns_per_op)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($4 > 298.465352 ? 298.465352 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d0 using ($1*0.959264):($3 < 34.6013291 ? 34.6013291 : NaN) with points pt 11 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($4 > 298.465352 ? 298.465352 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d1 using ($1*1.000000):($3 < 34.6013291 ? 34.6013291 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($4 > 298.465352 ? 298.465352 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $d2 using ($1*1.042466):($3 < 34.6013291 ? 34.6013291 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set ytics auto
    unset logscale y
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
    set yrange [0:37.2671251]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($7 > 37.2671251 ? 37.2671251 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($7 > 37.2671251 ? 37.2671251 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($7 > 37.2671251 ? 37.2671251 : NaN) with points pt 9 ps 1.4 lc 3 notitle
    set output dir.'/change.'.fmt.'.tmp'
    set ylabel 'change of wall time per op against stock (%; negative = faster)'
    set yrange [-50:50]
    set title 'change against stock, 95% interval: filled = resolved; open = not resolved (may be noise)'
    plot 0 with lines lc 'black' lw 1 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 2 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 2 notitle, \
        NaN with points pt 7 ps 1.4 lc 2 title 'rcu-sync', \
        $c1 using ($1*1.000000):($4 > 50 ? 50 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $c1 using ($1*1.000000):($3 < -50 ? -50 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 3 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 3 notitle, \
        NaN with points pt 7 ps 1.4 lc 3 title 'rcu-nosync', \
        $c2 using ($1*1.042466):($4 > 50 ? 50 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $c2 using ($1*1.042466):($3 < -50 ? -50 : NaN) with points pt 11 ps 1.4 lc 3 notitle, \
        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: interval cut off at the edge'
    set yrange [0:*]
    set output dir.'/probes.'.fmt.'.tmp'
    set key outside below center vertical height 1.5
    set offsets 0, 0, graph 0.08, 0
    set multiplot layout 1,1 title 'probe layer, median over blocks'
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.97 left offset 0.5, 0
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    plot $p0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset multiplot
    set offsets 0, 0, 0, 0
    set key outside below center horizontal height 1.5
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 offset 0.5, 0
    set label 1 "oversubscribed: threads > 2 CPUs:\nknees and dips not testable" at graph 1, graph 0.96 right offset -0.5, 0 front boxed
    set style textbox opaque fc rgb '#e4e4e4' noborder
    set output dir.'/efficiency.'.fmt.'.tmp'
    set ylabel 'scaling efficiency (1 = ideal)'
    set yrange [0:1.25]
    set key outside below center horizontal maxrows 4 height 1.5
    set title 'scaling efficiency: vs the first count (lines), per step (points); knees and dips ringed, with their confidence in the key'
    plot 1 with lines dt 2 lc 'gray' title 'ideal', 0.8 with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below 80%', \
        $e0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock vs first', \
        $e0 using 1:3 with points pt 6 ps 1.5 lc 1 title 'stock per step: knee at 2 (low)', \
        $e0 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $e0 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $k0 using 1:2 with points pt 6 ps 3 lw 2 lc 1 notitle, \
        $e1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync vs first', \
        $e1 using 1:3 with points pt 6 ps 1.5 lc 2 title 'rcu-sync per step: knee at 2 (low)', \
        $e1 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $e1 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $k1 using 1:2 with points pt 6 ps 3 lw 2 lc 2 notitle, \
        $e2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync vs first', \
        $e2 using 1:3 with points pt 6 ps 1.5 lc 3 title 'rcu-nosync per step: knee at 2 (low)', \
        $e2 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $e2 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $k2 using 1:2 with points pt 6 ps 3 lw 2 lc 3 notitle
    set key outside below center horizontal noopaque height 1.5
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 left offset 0.5, 0
    unset output
}
