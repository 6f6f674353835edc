# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
4 616.499114 301.233004 1261.71818 6.48824938 3.17028007 13.2787575
8 1388.78259 671.104219 2873.94571 5.76044087 2.78362948 11.9206522
16 2999.88254 1702.15187 5287.01077 5.33354215 3.02628474 9.3998663
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
4 796.882125 561.949238 1130.03289 5.01956296 3.53971998 7.11808065
8 1072.66722 813.486213 1414.42465 7.45804466 5.65601001 9.83421707
16 2487.48874 1600.41534 3866.24651 6.43218993 4.13838072 9.9974048
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
4 527.068225 350.863324 791.7639 7.58915034 5.05201109 11.4004506
8 1393.39655 701.482279 2767.78759 5.7413663 2.89039521 11.4044221
16 8261.95488 653.816636 104402.205 1.93658768 0.153253468 24.471693
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
4 29.2592489 -26.1903545 126.365448 0
8 -22.7620492 -56.8538435 38.2672647 0
16 -17.0804623 -30.5583287 -0.986689884 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
4 -14.5062479 -50.8973716 48.8552017 0
8 0.33223041 -24.2763544 32.9380854 0
16 175.409279 -80.8428429 3859.36987 0
EOD
$p0 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 nan 0.000320775713
8 nan 0
16 nan 0
EOD
$p1 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 447.15577 0.00588524363
8 29.3699341 0.000725163425
16 9.45012666 0
EOD
$p2 << EOD
# threads retries_per_million_acq slow_per_kfetch
4 7.63321043 0.0159936491
8 890.110673 0.00283206893
16 17.9889871 0.00179890195
EOD
$e0 << EOD
# threads eff_first eff_step
4 1 nan
8 0.443913337 0.443913337
16 0.205507751 0.462945656
EOD
$e1 << EOD
# threads eff_first eff_step
4 1 nan
8 0.742897809 0.742897809
16 0.320356074 0.431224954
EOD
$e2 << EOD
# threads eff_first eff_step
4 1 nan
8 0.378261468 0.378261468
16 0.0637946143 0.168652162
EOD
$k0 << EOD
# threads eff_step finding
EOD
$k1 << EOD
# threads eff_step finding
EOD
$k2 << EOD
# threads eff_step finding
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
set key outside below center horizontal height 1.5
# oversubscribed: more threads than the run's 2 CPUs
set object 1 rect from 3.2, graph 0 to graph 1, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed: threads > 2 CPUs' at 3.2, graph 0.04 offset 0.5, 0
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ytics (500, 1000, 2000, 5000, 10000, 20000)
    set logscale y
    set ylabel 'wall time per op (ns/op, log scale): geometric mean, 95% interval'
    set yrange [240.986403:24785.8646]
    set title 'wall time per op against threads (CPU time: report --metric cpu_ns_per_op)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($4 > 24785.8646 ? 24785.8646 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d0 using ($1*0.959264):($3 < 240.986403 ? 240.986403 : NaN) with points pt 11 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($4 > 24785.8646 ? 24785.8646 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d1 using ($1*1.000000):($3 < 240.986403 ? 240.986403 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($4 > 24785.8646 ? 24785.8646 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $d2 using ($1*1.042466):($3 < 240.986403 ? 240.986403 : NaN) with points pt 11 ps 1.4 lc 3 notitle, \
        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: interval cut off at the edge'
    set ytics auto
    unset logscale y
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
    set yrange [0:10.6248105]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($7 > 10.6248105 ? 10.6248105 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($7 > 10.6248105 ? 10.6248105 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($7 > 10.6248105 ? 10.6248105 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: interval cut off at the edge'
    set output dir.'/change.'.fmt.'.tmp'
    set ylabel 'change of wall time per op against stock (%; negative = faster)'
    set yrange [-105:282.654846]
    set title 'change against stock, 95% interval: filled = resolved; open = not resolved (may be noise)'
    plot 0 with lines lc 'black' lw 1 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 2 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 2 notitle, \
        NaN with points pt 7 ps 1.4 lc 2 title 'rcu-sync', \
        $c1 using ($1*1.000000):($4 > 282.654846 ? 282.654846 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $c1 using ($1*1.000000):($3 < -105 ? -105 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 3 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 3 notitle, \
        NaN with points pt 7 ps 1.4 lc 3 title 'rcu-nosync', \
        $c2 using ($1*1.042466):($4 > 282.654846 ? 282.654846 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $c2 using ($1*1.042466):($3 < -105 ? -105 : NaN) with points pt 11 ps 1.4 lc 3 notitle, \
        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: interval cut off at the edge'
    set yrange [0:*]
    set output dir.'/probes.'.fmt.'.tmp'
    set key outside below center vertical height 1.5
    set offsets 0, 0, graph 0.08, 0
    set multiplot layout 1,2 title 'probe layer, median over blocks'
    set label 1 'oversubscribed: threads > 2 CPUs' at 3.2, graph 0.97 left offset 0.5, 0
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    plot NaN with points pt 7 lc 1 title 'stock: no figure (no RCU read lock)', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    set ylabel 'fetches that missed the cache, per 1k fetches'
    set title 'slow-path fetches'
    plot $p0 using 1:3 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:3 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:3 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset multiplot
    set offsets 0, 0, 0, 0
    set key outside below center horizontal height 1.5
    set label 1 'oversubscribed: threads > 2 CPUs' at 3.2, graph 0.04 offset 0.5, 0
    set label 1 "oversubscribed: threads > 2 CPUs:\nknees and dips not testable" at graph 1, graph 0.96 right offset -0.5, 0 front boxed
    set style textbox opaque fc rgb '#e4e4e4' noborder
    set output dir.'/efficiency.'.fmt.'.tmp'
    set ylabel 'scaling efficiency (1 = ideal)'
    set yrange [0:1.25]
    set key outside below center horizontal maxrows 4 height 1.5
    set title 'scaling efficiency: vs the first count (lines), per step (points); knees and dips ringed, with their confidence in the key'
    plot 1 with lines dt 2 lc 'gray' title 'ideal', 0.8 with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below 80%', \
        $e0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock vs first', \
        $e0 using 1:3 with points pt 6 ps 1.5 lc 1 title 'stock per step', \
        $e0 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $e0 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $k0 using 1:2 with points pt 6 ps 3 lw 2 lc 1 notitle, \
        $e1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync vs first', \
        $e1 using 1:3 with points pt 6 ps 1.5 lc 2 title 'rcu-sync per step', \
        $e1 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $e1 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $k1 using 1:2 with points pt 6 ps 3 lw 2 lc 2 notitle, \
        $e2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync vs first', \
        $e2 using 1:3 with points pt 6 ps 1.5 lc 3 title 'rcu-nosync per step', \
        $e2 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $e2 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $k2 using 1:2 with points pt 6 ps 3 lw 2 lc 3 notitle
    set key outside below center horizontal noopaque height 1.5
    set label 1 'oversubscribed: threads > 2 CPUs' at 3.2, graph 0.04 left offset 0.5, 0
    unset output
}
