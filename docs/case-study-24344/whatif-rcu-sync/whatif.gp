# rcuprof whatif: wall ns/op against the delay put on each op, per thread count (dotted: unarmed)
$w0 << EOD
# x_ns_per_op mean lo hi
4.1755439 198.687764 185.369938 213.072376
41.3700264 234.72606 224.065143 245.981962
90.0524765 283.939473 276.433753 291.683775
190.958745 384.31907 378.234857 390.517992
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
4.56335433 225.852866 214.632969 237.752699
41.6754098 258.356709 249.150795 267.966411
90.7363366 308.181269 296.873436 319.99341
191.226683 404.96776 398.905577 411.138816
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync/whatif.png.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:200.788]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.00 [0.95, 1.04] adds', \
    (x >= 4.1755439 && x <= 190.958745 ? 194.120609811 + 0.995371964125 * x : NaN) lc 1 dt 2 notitle, \
    116.910808681 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.97 [0.91, 1.02] adds', \
    (x >= 4.56335433 && x <= 191.226683 ? 220.028829711 + 0.966779146884 * x : NaN) lc 2 dt 2 notitle, \
    155.302250107 lc 2 dt 3 title '2 threads unarmed'
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync/whatif.svg.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:200.788]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.00 [0.95, 1.04] adds', \
    (x >= 4.1755439 && x <= 190.958745 ? 194.120609811 + 0.995371964125 * x : NaN) lc 1 dt 2 notitle, \
    116.910808681 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.97 [0.91, 1.02] adds', \
    (x >= 4.56335433 && x <= 191.226683 ? 220.028829711 + 0.966779146884 * x : NaN) lc 2 dt 2 notitle, \
    155.302250107 lc 2 dt 3 title '2 threads unarmed'
unset output
