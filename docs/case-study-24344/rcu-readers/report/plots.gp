# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 25.7483592 22.7697001 29.1166768 38.8374262 34.3445788 43.9180136
2 63.5715471 59.6301026 67.7735141 31.4606155 29.5100531 33.5401066
4 130.644 112.752173 151.374952 30.6175562 26.4244511 35.4760348
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 27.4559367 23.5029208 32.0738204 36.4219954 31.1780757 42.5479033
2 62.8219545 55.5055124 71.1028111 31.8360041 28.1282831 36.0324572
4 134.730977 118.684193 152.947377 29.6887925 26.1527858 33.7028874
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 25.9768666 22.9414002 29.4139675 38.4957899 33.9974538 43.5893184
2 65.7280035 57.1859017 75.5460755 30.4284307 26.47391 34.9736551
4 126.263819 117.984569 135.124044 31.6797007 29.6024297 33.9027386
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 6.63179168 -7.48390505 22.901199 0
2 -1.17913224 -14.562832 14.301119 0
4 3.12833099 -7.77773886 15.3241367 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 0.887464199 -12.6894885 16.5756592 0
2 3.39217228 -10.8671824 19.9327204 0
4 -3.35276068 -11.828927 5.93824652 0
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
2 0.405029614 0.405029614
4 0.197087958 0.486601353
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.437043657 0.437043657
4 0.203783402 0.466276992
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.395217643 0.395217643
4 0.20573484 0.520560869
EOD
$k0 << EOD
# threads eff_step finding
2 0.405029614 "knee, high"
EOD
$k1 << EOD
# threads eff_step finding
2 0.437043657 "knee, high"
EOD
$k2 << EOD
# threads eff_step finding
2 0.395217643 "knee, high"
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
set key outside below center horizontal height 1.5
# oversubscribed: more threads than the run's 2 CPUs
set object 1 rect from 2.82843, graph 0 to graph 1, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 offset 0.5, 0
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ytics (20, 50, 100, 200)
    set logscale y
    set ylabel 'wall time per op (ns/op, log scale): geometric mean, 95% interval'
    set yrange [18.2157601:244.715803]
    set title 'wall time per op against threads (CPU time: report --metric cpu_ns_per_op)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($4 > 244.715803 ? 244.715803 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d0 using ($1*0.959264):($3 < 18.2157601 ? 18.2157601 : NaN) with points pt 11 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($4 > 244.715803 ? 244.715803 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d1 using ($1*1.000000):($3 < 18.2157601 ? 18.2157601 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($4 > 244.715803 ? 244.715803 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $d2 using ($1*1.042466):($3 < 18.2157601 ? 18.2157601 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set ytics auto
    unset logscale y
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
    set yrange [0:54.3723967]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($7 > 54.3723967 ? 54.3723967 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($7 > 54.3723967 ? 54.3723967 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($7 > 54.3723967 ? 54.3723967 : NaN) with points pt 9 ps 1.4 lc 3 notitle
    set output dir.'/change.'.fmt.'.tmp'
    set ylabel 'change of wall time per op against stock (%; negative = faster)'
    set yrange [-24.7332949:24.7332949]
    set title 'change against stock, 95% interval: filled = resolved; open = not resolved (may be noise)'
    plot 0 with lines lc 'black' lw 1 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 2 notitle, \
        $c1 using ($1*1.000000):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 2 notitle, \
        NaN with points pt 7 ps 1.4 lc 2 title 'rcu-sync', \
        $c1 using ($1*1.000000):($4 > 24.7332949 ? 24.7332949 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $c1 using ($1*1.000000):($3 < -24.7332949 ? -24.7332949 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc 3 notitle, \
        $c2 using ($1*1.042466):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc 3 notitle, \
        NaN with points pt 7 ps 1.4 lc 3 title 'rcu-nosync', \
        $c2 using ($1*1.042466):($4 > 24.7332949 ? 24.7332949 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $c2 using ($1*1.042466):($3 < -24.7332949 ? -24.7332949 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set yrange [0:*]
    set output dir.'/probes.'.fmt.'.tmp'
    set key outside below center vertical height 1.5
    set offsets 0, 0, graph 0.08, 0
    set multiplot layout 1,1 title 'probe layer, median over blocks'
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.97 left offset 0.5, 0
    set ylabel 'read-side retries per million acquisitions'
    set title 'RCU retries'
    set label 2 "0 at every count in every run:\nno read side retried" at graph 0.5, graph 0.5 center
    set yrange [0:1]
    plot $p0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $p1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $p2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset label 2
    set yrange [0:*]
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
        $e2 using 1:3 with points pt 6 ps 1.5 lc 3 title 'rcu-nosync per step: knee at 2 (high)', \
        $e2 using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $e2 using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $k2 using 1:2 with points pt 6 ps 3 lw 2 lc 3 notitle
    set key outside below center horizontal noopaque height 1.5
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 left offset 0.5, 0
    unset output
}
