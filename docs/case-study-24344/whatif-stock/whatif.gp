# rcuprof whatif: wall ns/op against the delay put on each op, per thread count
$w0 << EOD
# x_ns_per_op mean lo hi
15.4808587 197.666148 194.547369 200.844247
52.4405586 232.944183 229.927091 236.007732
104.122959 286.554827 282.710755 290.460197
204.787031 386.964064 382.396073 391.596368
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
18.0368949 249.671443 243.70979 255.807814
54.8432499 286.51872 268.490696 305.907607
103.509426 318.382982 314.08049 322.754845
203.645957 419.910108 408.699279 431.483618
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock/whatif.png.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.01 [0.98, 1.03]', \
    180.707542796 + 1.00749272415 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.92 [0.88, 0.96]', \
    228.876447564 + 0.919282177528 * x lc 2 dt 2 notitle
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock/whatif.svg.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.01 [0.98, 1.03]', \
    180.707542796 + 1.00749272415 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.92 [0.88, 0.96]', \
    228.876447564 + 0.919282177528 * x lc 2 dt 2 notitle
unset output
