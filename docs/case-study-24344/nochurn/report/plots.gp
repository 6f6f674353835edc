# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads ns_per_op lo hi mops lo hi
1 182.955957 122.596668 273.03256 5.95030569 4.03951824 8.99632938
2 309.035383 174.257811 548.055021 7.59273852 4.41408711 13.8826638
4 562.471794 346.255979 913.701243 8.0275382 5.03748633 13.292933
8 1314.92606 736.569927 2347.40855 7.18029624 4.13872775 13.1899017
16 2333.8223 1721.32078 3164.27165 7.2177817 5.35842482 9.85029166
32 8743.96878 4892.62746 15626.9797 4.39668294 2.48845892 7.94810096
64 26209.9227 12052.0123 56999.6138 3.28840001 1.55454262 7.3521605
EOD
$d1 << EOD
# threads ns_per_op lo hi mops lo hi
1 180.325848 124.648738 260.87237 5.96959521 4.1693288 8.7258219
2 205.265451 164.609876 255.962196 10.0101356 8.05967187 12.5324881
4 524.045002 338.077229 812.308968 8.4712452 5.53084483 13.2891377
8 1082.75896 753.262868 1556.38492 7.93735265 5.57530443 11.5196435
16 2682.36893 1506.97504 4774.53367 7.11204782 4.06241836 12.8709187
32 7946.29487 3585.93528 17608.6843 5.48862887 2.55033043 12.5233614
64 22819.2036 10305.3608 50528.658 3.76317659 1.77656065 8.71073099
EOD
$d2 << EOD
# threads ns_per_op lo hi mops lo hi
1 159.633643 126.523199 201.408913 6.46087877 5.13834442 8.17959372
2 256.389762 164.543568 399.503372 8.65166572 5.63758323 13.6877639
4 513.677041 316.927396 832.569559 8.78532273 5.52175858 14.5056823
8 1097.91057 675.547262 1784.34241 8.24743793 5.16037398 13.6302442
16 2709.15204 1585.11278 4630.27291 6.88209121 4.0900012 11.9473024
32 7010.20131 4031.87215 12188.6113 5.42198508 3.13856242 9.48807798
64 17773.2286 9319.64791 33894.8058 4.52149637 2.38987728 8.6917904
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
    set ylabel 'wall time per op (ns/op): log-normal mean, 95% interval as error bar'
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
