# rcuprof whatif: wall ns/op against the delay put on each op, per thread count (dotted: unarmed)
$w0 << EOD
# x_ns_per_op mean lo hi
4.04868071 192.365955 184.729917 200.368801
40.6166075 227.752194 221.553234 234.152967
89.948152 275.315604 270.535476 280.195212
190.88713 381.989424 373.657783 390.539201
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
5.41848111 433.270914 282.368811 691.281136
42.3629552 491.546942 356.215247 700.429181
90.2187043 433.355761 347.075751 547.613744
191.274263 474.701609 424.84353 531.776731
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock/whatif.png.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:200.838]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.02 [0.97, 1.06] adds', \
    (x >= 4.04868071 && x <= 190.88713 ? 186.395752345 + 1.01618551721 * x : NaN) lc 1 dt 2 notitle, \
    117.542547998 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: no fit (scatter 143 > line 9 ns/op)', \
    331.137598501 lc 2 dt 3 title '2 threads unarmed'
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock/whatif.svg.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:200.838]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.02 [0.97, 1.06] adds', \
    (x >= 4.04868071 && x <= 190.88713 ? 186.395752345 + 1.01618551721 * x : NaN) lc 1 dt 2 notitle, \
    117.542547998 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: no fit (scatter 143 > line 9 ns/op)', \
    331.137598501 lc 2 dt 3 title '2 threads unarmed'
unset output
