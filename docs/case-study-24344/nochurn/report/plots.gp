# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
1 0.224722925 0.160993165 0.288452685 4.64972856 3.28217657 6.01728055
2 0.511350893 0.414902504 0.607799281 3.9810592 3.26604658 4.69607182
4 1.19817984 1.00583877 1.3905209 3.3833416 2.84195379 3.92472941
8 2.18470041 1.67303164 2.69636918 3.77242397 2.85027254 4.69457541
16 4.73518843 3.62780893 5.84256793 3.48651788 2.59555097 4.37748478
32 12.3787727 9.3581305 15.3994149 2.674201 1.96944939 3.37895261
64 42.7494739 21.9363457 63.5626022 1.68039612 0.950451268 2.41034098
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
1 0.283571928 0.199388923 0.367754933 3.7288672 2.40039069 5.05734371
2 0.535120262 0.405271206 0.664969318 3.85276533 2.93143613 4.77409454
4 1.14949742 1.03081312 1.26818171 3.49856828 3.14765374 3.84948281
8 2.18363185 1.23512667 3.13213704 4.01911796 2.41055354 5.62768238
16 5.15261078 4.27573517 6.02948638 3.14954923 2.64452063 3.65457783
32 13.6456097 8.30944191 18.9817775 2.52600989 1.63124461 3.42077517
64 43.8155746 30.2994646 57.3316846 1.55766277 0.939025825 2.17629972
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
1 0.236090263 0.182137793 0.290042734 4.35734254 3.32034966 5.39433542
2 0.589595437 0.476389796 0.702801077 3.46170251 2.75758264 4.16582238
4 1.22597968 0.849371806 1.60258755 3.39828787 2.53279169 4.26378405
8 2.03105736 1.39464827 2.66746646 4.13635027 2.89448036 5.37822018
16 5.06477733 4.32099353 5.80856113 3.19542629 2.71741231 3.67344027
32 13.9252153 8.88487159 18.965559 2.47664174 1.49628874 3.45699474
64 35.2899424 17.4468235 53.1330612 2.06025904 1.08181484 3.03870324
EOD
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
    set ylabel 'wall time per op (usecs), mean and 95% interval'
    set yrange [0:*]
    set title 'per-op cost against threads (wall_ns_per_op)'
    plot $d0 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 1 notitle, $d0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $d1 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 2 notitle, $d1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $d2 using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc 3 notitle, $d2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    set output dir.'/throughput.'.fmt.'.tmp'
    set ylabel 'throughput (M ops/s, all threads)'
    set title 'throughput against threads'
    plot $d0 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 1 notitle, $d0 using 1:5 with linespoints lw 2 pt 7 lc 1 title 'stock', \
        $d1 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 2 notitle, $d1 using 1:5 with linespoints lw 2 pt 7 lc 2 title 'rcu-sync', \
        $d2 using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc 3 notitle, $d2 using 1:5 with linespoints lw 2 pt 7 lc 3 title 'rcu-nosync'
    unset output
}
