# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 122.759943 117.598505 128.147917 8.14597968 7.80348226 8.50350943
2 204.398563 172.575303 242.090102 9.78480459 8.26138692 11.5891438
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 122.088914 119.748912 124.474641 8.19075189 8.03376491 8.35080654
2 172.980395 145.983183 204.970302 11.5620039 9.75751111 13.7002082
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 122.8389 119.121101 126.672732 8.14074368 7.8943588 8.39481828
2 151.723915 144.221361 159.61676 13.1818376 12.5300125 13.8675712
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 -0.546619006 -5.17473458 4.30737998 0
2 -15.3710318 -30.5806645 3.17099987 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 0.0643185489 -5.01875805 5.41942431 0
2 -25.7705571 -36.9194439 -12.6512108 1
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 nan 0
2 nan 0
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 0
2 0 0
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
1 0 0
2 0 0
EOD
$e0 << EOD
# threads eff_first eff_step
1 1 nan
2 0.600591026 0.600591026
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.705796247 0.705796247
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.809621214 0.809621214
EOD
$k0 << EOD
# threads eff_step finding
2 0.600591026 "knee, high"
EOD
$k1 << EOD
# threads eff_step finding
2 0.705796247 "knee, high"
EOD
$k2 << EOD
# threads eff_step finding
EOD
dir = 'docs/case-study-24344/nochurn-2cpu/report'
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
set key outside below center horizontal height 1.5
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ytics (100, 150, 200, 300)
    set logscale y
    set ylabel 'wall time per op (ns/op, log scale): geometric mean, 95% interval'
    set yrange [94.0788043:387.344163]
    set title 'wall time per op against threads (CPU time: report --metric cpu_ns_per_op)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($4 > 387.344163 ? 387.344163 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d0 using ($1*0.959264):($3 < 94.0788043 ? 94.0788043 : NaN) with points pt 11 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($4 > 387.344163 ? 387.344163 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d1 using ($1*1.000000):($3 < 94.0788043 ? 94.0788043 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($4 > 387.344163 ? 387.344163 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $d2 using ($1*1.042466):($3 < 94.0788043 ? 94.0788043 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set ytics auto
    unset logscale y
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
    set yrange [0:18.4545726]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($7 > 18.4545726 ? 18.4545726 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($7 > 18.4545726 ? 18.4545726 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($7 > 18.4545726 ? 18.4545726 : NaN) with points pt 9 ps 1.4 lc 3 notitle
    set output dir.'/change.'.fmt.'.tmp'
    set ylabel 'change of wall time per op against stock (%; negative = faster)'
    set yrange [-43.2328913:43.2328913]
    set title 'change against stock, 95% interval: filled = resolved; open = not resolved (may be noise)'
    plot 0 with lines lc 'black' lw 1 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 2 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 2 notitle, \
        NaN with points pt 7 ps 1.4 lc 2 title 'rcu-sync', \
        $c1 using ($1*1.000000):($4 > 43.2328913 ? 43.2328913 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $c1 using ($1*1.000000):($3 < -43.2328913 ? -43.2328913 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 3 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 3 notitle, \
        NaN with points pt 7 ps 1.4 lc 3 title 'rcu-nosync', \
        $c2 using ($1*1.042466):($4 > 43.2328913 ? 43.2328913 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $c2 using ($1*1.042466):($3 < -43.2328913 ? -43.2328913 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set yrange [0:*]
    set output dir.'/probes.'.fmt.'.tmp'
    set key outside below center vertical height 1.5
    set offsets 0, 0, graph 0.08, 0
    set multiplot layout 1,2 title 'probe layer, median over blocks'
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    set label 2 "0 at every count in every run:\nno read side retried" at graph 0.5, graph 0.5 center
    set yrange [0:1]
    plot NaN with points pt 7 lc 1 title 'stock: no figure (no RCU read lock)', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset label 2
    set yrange [0:*]
    set ylabel 'fetches that missed the cache, per 1k fetches'
    set title 'slow-path fetches'
    set label 2 "0 at every count in every run:\nevery fetch hit the cache" at graph 0.5, graph 0.5 center
    set yrange [0:1]
    plot $p0 using 1:3 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:3 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:3 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset label 2
    set yrange [0:*]
    unset multiplot
    set offsets 0, 0, 0, 0
    set key outside below center horizontal height 1.5
    set output dir.'/efficiency.'.fmt.'.tmp'
    set ylabel 'scaling efficiency (1 = ideal)'
    set yrange [0:1.25]
    set key outside below center horizontal maxrows 4 height 1.5
    set title 'scaling efficiency: vs the first count (lines), per step (points); knees and dips ringed, with their confidence in the key'
    plot 1 with lines dt 2 lc 'gray' title 'ideal', 0.8 with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below 80%', \
        $e0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock vs first', \
        $e0 using 1:3 with points pt 6 ps 1.5 lc 1 title 'stock per step: knee at 2 (high)', \
        $e0 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $e0 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $k0 using 1:2 with points pt 6 ps 3 lw 2 lc 1 notitle, \
        $e1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync vs first', \
        $e1 using 1:3 with points pt 6 ps 1.5 lc 2 title 'rcu-sync per step: knee at 2 (high)', \
        $e1 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $e1 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $k1 using 1:2 with points pt 6 ps 3 lw 2 lc 2 notitle, \
        $e2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync vs first', \
        $e2 using 1:3 with points pt 6 ps 1.5 lc 3 title 'rcu-nosync per step', \
        $e2 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $e2 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $k2 using 1:2 with points pt 6 ps 3 lw 2 lc 3 notitle
    set key outside below center horizontal noopaque height 1.5
    unset output
}
