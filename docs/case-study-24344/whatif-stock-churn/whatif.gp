# rcuprof whatif: wall ns/op against the delay put on each op, per thread count (dotted: unarmed)
$w0 << EOD
# x_ns_per_op mean lo hi
8.75094795 13134.1759 7080.21132 28807.5719
71.1694043 11612.6491 6588.00058 21278.7269
199.801223 20061.8498 12863.9637 32184.9125
435.161972 22342.0557 14355.3966 36181.6141
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
4.49772483 333.905978 271.817117 410.236271
41.2941935 383.040235 309.833532 475.965039
89.8504225 413.895243 349.313337 492.620341
192.071427 489.697635 444.818933 539.857697
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock-churn/whatif.png.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:456.92]
set multiplot layout 1,2 title 'whatif: store_read_lock at stock'
unset title
set xrange [0:456.92]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: no fit (scatter 7220 > line 5173 ns/op)', \
    7843.081374 lc 1 dt 3 title '1 thread unarmed'
set xrange [0:201.675]
plot  $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.79 [0.57, 1.02] undetermined', \
    (x >= 4.49772483 && x <= 192.071427 ? 339.920534034 + 0.794709892252 * x : NaN) lc 2 dt 2 notitle, \
    229.470178105 lc 2 dt 3 title '2 threads unarmed'
unset multiplot
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock-churn/whatif.svg.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:456.92]
set multiplot layout 1,2 title 'whatif: store_read_lock at stock'
unset title
set xrange [0:456.92]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: no fit (scatter 7220 > line 5173 ns/op)', \
    7843.081374 lc 1 dt 3 title '1 thread unarmed'
set xrange [0:201.675]
plot  $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.79 [0.57, 1.02] undetermined', \
    (x >= 4.49772483 && x <= 192.071427 ? 339.920534034 + 0.794709892252 * x : NaN) lc 2 dt 2 notitle, \
    229.470178105 lc 2 dt 3 title '2 threads unarmed'
unset multiplot
unset output
