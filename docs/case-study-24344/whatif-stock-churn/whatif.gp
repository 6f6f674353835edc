# rcuprof whatif: wall ns/op against the delay put on each op, per thread count
$w0 << EOD
# x_ns_per_op mean lo hi
28.8310824 8683.95628 5650.20301 13710.4322
92.031575 9154.04457 6077.83064 14344.1332
170.223803 9190.15359 3530.80523 40266.0025
403.91456 18193.1482 10667.1646 33968.0595
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
17.8374042 297.078777 279.257442 316.256287
55.1883719 320.838281 306.626918 335.822876
106.131229 418.829255 379.471601 463.01792
206.968509 529.97218 470.508655 598.322419
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock-churn/whatif.png.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 23.08 [3.43, 42.72]', \
    6861.30434449 + 23.0754094279 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 1.16 [0.79, 1.53]', \
    271.131291798 + 1.15756623726 * x lc 2 dt 2 notitle
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-stock-churn/whatif.svg.tmp'
set title 'whatif: store_read_lock at stock'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 23.08 [3.43, 42.72]', \
    6861.30434449 + 23.0754094279 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 1.16 [0.79, 1.53]', \
    271.131291798 + 1.15756623726 * x lc 2 dt 2 notitle
unset output
