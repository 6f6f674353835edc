# rcuprof whatif: wall ns/op against the delay put on each op, per thread count
$w0 << EOD
# x_ns_per_op mean lo hi
20.6340514 380.885151 292.977853 499.694373
65.7383743 454.611886 350.693825 595.742028
135.167212 514.044023 401.401597 663.789249
292.506297 702.387743 581.94516 853.230561
EOD
$w1 << EOD
# x_ns_per_op mean lo hi
17.0446083 522.691624 398.418925 691.075375
56.5314935 576.379842 420.594596 800.000567
112.260995 666.081261 553.066271 809.699806
222.734403 801.089368 686.071758 940.202124
EOD

set terminal pngcairo size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync-churn/whatif.png.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.20 [0.90, 1.50]', \
    362.341956301 + 1.19838834119 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.65 [0.06, 1.23]', \
    537.176408962 + 0.645327076481 * x lc 2 dt 2 notitle
unset output

set terminal svg size 900,600 noenhanced
set output 'docs/case-study-24344/whatif-rcu-sync-churn/whatif.svg.tmp'
set title 'whatif: rcu_read_lock at rcu-sync'
set xlabel 'delay put on each op (ns/op)'
set ylabel 'wall time per op (ns/op)'
set key top left
set grid
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot  $w0 using 1:2:3:4 with yerrorbars lc 1 pt 7 title '1 thread: slope 1.20 [0.90, 1.50]', \
    362.341956301 + 1.19838834119 * x lc 1 dt 2 notitle, \
     $w1 using 1:2:3:4 with yerrorbars lc 2 pt 7 title '2 threads: slope 0.65 [0.06, 1.23]', \
    537.176408962 + 0.645327076481 * x lc 2 dt 2 notitle
unset output
