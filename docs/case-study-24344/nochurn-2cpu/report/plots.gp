# rcuprof report: plots of wall_ns_per_op (gnuplot 5)
$d0 << EOD
# threads usecs lo hi mops lo hi
1 0.268228144 0.232222185 0.304234102 3.85304041 3.42723239 4.27884844
2 0.528030079 0.442938701 0.613121456 4.03234717 3.34688792 4.71780642
EOD
$d1 << EOD
# threads usecs lo hi mops lo hi
1 0.268555445 0.215656244 0.321454646 4.01257786 3.34845265 4.67670306
2 0.540049557 0.45731609 0.622783024 3.902003 3.31019986 4.49380614
EOD
$d2 << EOD
# threads usecs lo hi mops lo hi
1 0.262882812 0.224635194 0.301130429 3.98112073 3.42262233 4.53961913
2 0.608410242 0.47046245 0.746358034 3.6393224 2.88950945 4.38913535
EOD
dir = 'docs/case-study-24344/nochurn-2cpu/report'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    pngterm = 'pngcairo size 900,600 noenhanced font ",10"'
} else {
    pngterm = 'png truecolor size 900,600 noenhanced'
}
set logscale x 2
set xrange [0.8:2.5]
set xtics (1, 2)
set xlabel 'threads'
set grid
set key top left
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
