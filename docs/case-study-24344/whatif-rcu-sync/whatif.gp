# rcuprof whatif: wall ns/op against the delay put on each op, per thread count
$w0 << EOD
# x_ns_per_op mean lo hi
15.3503637 201.573116 195.576869 207.784636
52.6244727 243.251799 237.042448 249.654758
103.539983 292.631241 282.638538 303.041838
201.957629 394.455098 383.103164 406.200253
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
16.0232892 347.515625 231.109452 532.954935
53.6744646 339.687967 261.455679 443.441191
104.545267 359.016815 300.461272 430.305328
204.940499 446.664943 406.168947 491.825863
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync/whatif.png.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.02 [0.98, 1.07]', \
    187.144112545 + 1.02182084855 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.58 [0.09, 1.07]', \
    317.368469333 + 0.577283795583 * x lc 2 dt 2 notitle
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync/whatif.svg.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.02 [0.98, 1.07]', \
    187.144112545 + 1.02182084855 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.58 [0.09, 1.07]', \
    317.368469333 + 0.577283795583 * x lc 2 dt 2 notitle
unset output
