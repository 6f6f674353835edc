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
2 0.715129582 0.715129582
4 0.38678327 0.540857601
8 0.141453468 0.365717648
16 0.0783546159 0.553925027
32 0.0170221914 0.217245547
64 0.00551531082 0.324007097
EOD
$e1 << EOD
# threads eff_first eff_step
1 1 nan
2 0.878201787 0.878201787
4 0.321895666 0.366539525
8 0.162879666 0.506001426
16 0.051057566 0.313468017
32 0.0234596721 0.45947494
64 0.00878536801 0.374488099
EOD
$e2 << EOD
# threads eff_first eff_step
1 1 nan
2 0.781707327 0.781707327
4 0.380989675 0.487381482
8 0.180412019 0.473535192
16 0.051809481 0.287173112
32 0.0211005536 0.407272052
64 0.00861625472 0.40834259
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
    set ylabel 'wall time per op (ns/op): geometric mean, 95% interval as error bar'
    set yrange [0:costmax]
    set title 'wall time per op against threads (intervals beyond the top are cut off there)'
    plot $d0 using ($1*0.959264):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 1 notitle, $d0 using ($1*0.959264):2 with lines lw 2 lc 1 title 'stock', \
        $d1 using ($1*1.000000):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 2 notitle, $d1 using ($1*1.000000):2 with lines lw 2 lc 2 title 'rcu-sync', \
        $d2 using ($1*1.042466):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc 3 notitle, $d2 using ($1*1.042466):2 with lines lw 2 lc 3 title 'rcu-nosync'
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95% interval'
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
