# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 174.210588 118.112724 256.952241 5.74017923 3.8917738 8.46648837
2 280.989877 163.481423 482.961978 7.11769413 4.14111274 12.2338059
4 524.350512 329.301346 834.929655 7.62848498 4.79082277 12.1469288
8 1193.21459 690.313098 2062.48594 6.70457775 3.87881432 11.5889442
16 2267.10861 1681.12308 3057.34988 7.0574475 5.23329048 9.51744709
32 7931.96567 4584.58741 13723.3896 4.03430894 2.33178543 6.97990835
64 22275.038 10970.788 45227.1359 2.8731713 1.41507966 5.83367395
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 172.906321 120.640493 247.815597 5.78347857 4.03525853 8.2890908
2 202.108352 162.420057 251.494715 9.8956821 7.95245339 12.3137502
4 494.472585 323.85093 754.986677 8.08942724 5.29810674 12.3513618
8 1039.64239 729.717385 1481.19851 7.69495363 5.40103162 10.9631484
16 2436.24353 1412.97753 4200.54983 6.56748795 3.80902517 11.3236054
32 6707.76727 3255.84593 13819.4935 4.77058889 2.31556967 9.8284749
64 19267.7751 9357.69187 39672.9409 3.32160821 1.61319021 6.83929337
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 156.918258 124.676505 197.497832 6.37274474 5.06334671 8.02075738
2 241.606698 157.493917 370.641592 8.27791622 5.39604848 12.6989031
4 479.149655 301.513517 761.439798 8.34812247 5.25320585 13.2664036
8 1023.36904 642.421047 1630.21463 7.81731681 4.90732927 12.4528921
16 2490.16633 1495.63748 4146.01028 6.4252736 3.85913178 10.6977795
32 6411.54921 3794.15435 10834.5522 4.99099343 2.95351385 8.43402695
64 15797.9938 8646.62948 28864.0341 4.0511473 2.21729228 7.40172805
EOD
$c0 << EOD
# threads change_pct lo hi resolved
EOD
$c1 << EOD
# threads change_pct lo hi resolved
1 -0.748672863 -25.3337372 31.9314182 0
2 -28.0727285 -58.2959457 24.0534636 0
4 -5.69808278 -26.110202 20.3529017 0
8 -12.8704593 -30.1806818 8.73146659 0
16 7.46037993 -24.7485645 53.4553219 0
32 -15.4337329 -40.8299317 20.8626884 0
64 -13.5005961 -47.917009 43.6581642 0
EOD
$c2 << EOD
# threads change_pct lo hi resolved
1 -9.92610772 -35.9138531 26.599998 0
2 -14.0158714 -29.0540455 4.20989375 0
4 -8.62035145 -13.4394166 -3.53299574 0
8 -14.2342838 -35.1859872 13.4902433 0
16 9.83886364 -28.8661578 69.6038846 0
32 -19.1682178 -38.5872851 6.39127467 0
64 -29.0775899 -50.3675177 1.34468452 0
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
2 0.61998884 0.61998884
4 0.332240714 0.535881764
8 0.146001054 0.439443597
16 0.07684263 0.526315584
32 0.0219631042 0.285819267
64 0.00782088848 0.356092127
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.855512991 0.855512991
4 0.349678275 0.408735202
8 0.166313265 0.475617952
16 0.0709725111 0.426739931
32 0.0257770304 0.363197384
64 0.00897386024 0.348133982
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.649478094 0.649478094
4 0.327493208 0.504240575
8 0.153334967 0.468208081
16 0.0630151711 0.410964129
32 0.0244743123 0.388387619
64 0.00993279649 0.405845786
EOD
$k0 << EOD
# threads eff_step finding
2 0.61998884 "knee, low"
EOD
$k1 << EOD
# threads eff_step finding
EOD
$k2 << EOD
# threads eff_step finding
2 0.649478094 "knee, low"
EOD
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
set key outside below center horizontal height 1.5
# oversubscribed: more threads than the run's 2 CPUs
set object 1 rect from 2.82843, graph 0 to graph 1, graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.04 offset 0.5, 0
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { eval('set terminal '.pngterm) } else { set terminal svg size 900,600 dynamic noenhanced }
    set output dir.'/cost.'.fmt.'.tmp'
    set ytics (100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000)
    set logscale y
    set ylabel 'wall time per op (ns/op, log scale): geometric mean, 95% interval'
    set yrange [94.4901788:66825.114]
    set title 'wall time per op against threads (CPU time: report --metric cpu_ns_per_op)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($4 > 66825.114 ? 66825.114 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d0 using ($1*0.959264):($3 < 94.4901788 ? 94.4901788 : NaN) with points pt 11 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($4 > 66825.114 ? 66825.114 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d1 using ($1*1.000000):($3 < 94.4901788 ? 94.4901788 : NaN) with points pt 11 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($4 > 66825.114 ? 66825.114 : NaN) with points pt 9 ps 1.4 lc 3 notitle, \
        $d2 using ($1*1.042466):($3 < 94.4901788 ? 94.4901788 : NaN) with points pt 11 ps 1.4 lc 3 notitle
    set ytics auto
    unset logscale y
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
    set yrange [0:13.8539549]
    set title 'throughput against threads'
    plot $d0 using ($1*0.959264):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):5 with lines lw 2 lc 1 title 'stock', \
        $d0 using ($1*0.959264):($7 > 13.8539549 ? 13.8539549 : NaN) with points pt 9 ps 1.4 lc 1 notitle, \
        $d1 using ($1*1.000000):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):5 with lines lw 2 lc 2 title 'rcu-sync', \
        $d1 using ($1*1.000000):($7 > 13.8539549 ? 13.8539549 : NaN) with points pt 9 ps 1.4 lc 2 notitle, \
        $d2 using ($1*1.042466):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):5 with lines lw 2 lc 3 title 'rcu-nosync', \
        $d2 using ($1*1.042466):($7 > 13.8539549 ? 13.8539549 : NaN) with points pt 9 ps 1.4 lc 3 notitle
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
    set multiplot layout 1,2 title 'probe layer, median over blocks'
    set label 1 'oversubscribed: threads > 2 CPUs' at 2.82843, graph 0.97 left offset 0.5, 0
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
        $e1 using 1:3 with points pt 6 ps 1.5 lc 2 title 'rcu-sync per step', \
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
