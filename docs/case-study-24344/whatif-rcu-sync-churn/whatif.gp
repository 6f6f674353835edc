# rcuprof whatif: wall ns/op against the delay put on each op, per thread count (dotted: unarmed)
$w0 << EOD
# x_ns_per_op mean lo hi
5.63831446 479.921785 393.433694 592.865337
50.7058804 541.019854 454.936885 650.462432
111.766929 631.431835 548.255026 731.872554
242.114679 769.662372 683.398121 870.49615
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
4.54330245 656.577563 514.442152 854.038247
43.4453193 692.852771 529.687368 929.143376
96.0946844 736.895491 604.451585 908.414147
197.671768 899.695645 784.633328 1037.35712
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync-churn/whatif.png.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:254.22]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.20 [1.03, 1.38] amplified', \
    (x >= 5.63831446 && x <= 242.114679 ? 480.66410339 + 1.2035662493 * x : NaN) lc 1 dt 2 notitle, \
    280.756831285 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 1.27 [0.57, 1.98] undetermined', \
    (x >= 4.54330245 && x <= 197.671768 ? 637.347259961 + 1.27227590054 * x : NaN) lc 2 dt 2 notitle, \
    430.315884268 lc 2 dt 3 title '2 threads unarmed'
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync-churn/whatif.svg.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key outside below center vertical
set grid
set yrange [0:*]
set xrange [0:254.22]
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.20 [1.03, 1.38] amplified', \
    (x >= 5.63831446 && x <= 242.114679 ? 480.66410339 + 1.2035662493 * x : NaN) lc 1 dt 2 notitle, \
    280.756831285 lc 1 dt 3 title '1 thread unarmed', \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 1.27 [0.57, 1.98] undetermined', \
    (x >= 4.54330245 && x <= 197.671768 ? 637.347259961 + 1.27227590054 * x : NaN) lc 2 dt 2 notitle, \
    430.315884268 lc 2 dt 3 title '2 threads unarmed'
unset output
