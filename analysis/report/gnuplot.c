/*
 * The gnuplot writer: the script that draws a report's plots from the
 * comparison table: per-op cost (ns/op) against threads on a log2 axis,
 * throughput with each variant's USL fit, each variant's change against
 * the baseline, and the probe layer's figures where the results carry
 * them.  Intervals are error bars, each variant's shifted a little along
 * the threads axis so none hides another, clipped to a y range set from
 * the cells' centres (the geometric means, analysis/results.h; gnuplot's
 * stats), so one wide interval cannot flatten the
 * rest.  The data sit in the script, so a plot can be restyled by hand
 * and redrawn.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *const *rcuprof_report_plots(const rcuprof_table *t)
{
    static const char *const outs[] = {
        "cost.png", "cost.svg", "change.png", "change.svg",
        "throughput.png", "throughput.svg", "efficiency.png",
        "efficiency.svg", "probes.png", "probes.svg", NULL
    };
    static const char *const no_probes[] = {
        "cost.png", "cost.svg", "change.png", "change.svg",
        "throughput.png", "throughput.svg", "efficiency.png",
        "efficiency.svg", NULL
    };

    return t->have_probes ? outs : no_probes;
}

/* A gnuplot single-quoted string: ' doubles. */
void rcuprof_report_gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* The data blocks: per variant cost and throughput ($d), its USL model,
 * the probe figures ($p) and the scaling efficiencies ($e). */
static void gp_data(FILE *f, const rcuprof_table *t, const rcuprof_scaling *sc)
{
    size_t ti, v, k;

    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$d%zu << EOD\n# threads ns_per_op lo hi mops lo hi\n", v);
        for (ti = 0; ti < t->nthreads; ti++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            double lo = isfinite(c->geomean_lo) ? c->geomean_lo : c->geomean;
            double hi = isfinite(c->geomean_hi) ? c->geomean_hi : c->geomean;
            double tl = isfinite(c->tput_lo) ? c->tput_lo : c->tput;
            double th = isfinite(c->tput_hi) ? c->tput_hi : c->tput;

            if (c->n == 0)
                continue;
            fprintf(f, "%u %.9g %.9g %.9g %.9g %.9g %.9g\n", t->threads[ti],
                    c->geomean, lo, hi, c->tput / 1e6, tl / 1e6,
                    th / 1e6);
        }
        fprintf(f, "EOD\n");
        if (sc[v].usl.fitted)
            fprintf(f, "usl%zu(x) = %.12g * x / (1 + %.12g * (x - 1) + %.12g * x * (x - 1)) / 1e6\n",
                    v, sc[v].usl.m.lambda, sc[v].usl.m.sigma,
                    sc[v].usl.m.kappa);
    }
    /* Each variant's change against the baseline (none for the
     * baseline), and whether it is resolved (analysis' rule). */
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$c%zu << EOD\n# threads change_pct lo hi resolved\n", v);
        for (ti = 0; v != t->baseline && ti < t->nthreads; ti++) {
            const rcuprof_change *ch = &t->changes[ti * t->nvariants + v];

            if (ch->have)
                fprintf(f, "%u %.9g %.9g %.9g %d\n", t->threads[ti],
                        ch->change_pct,
                        isfinite(ch->lo_pct) ? ch->lo_pct : ch->change_pct,
                        isfinite(ch->hi_pct) ? ch->hi_pct : ch->change_pct,
                        rcuprof_change_resolved(t, ch));
        }
        fprintf(f, "EOD\n");
    }
    /* Probe-layer figures, where the results carry them. */
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$p%zu << EOD\n# threads retries_per_million_acq slow_per_kfetch\n", v);
        for (ti = 0; ti < t->nthreads; ti++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            double r = c->probe_retries, s = c->probe_slow;

            if (isfinite(r) || isfinite(s))
                fprintf(f, "%u %.9g %.9g\n", t->threads[ti],
                        isfinite(r) ? r * 1e6 : NAN, isfinite(s) ? s : NAN);
        }
        fprintf(f, "EOD\n");
    }
    /* Scaling efficiency (the scaling report of each variant). */
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$e%zu << EOD\n# threads eff_first eff_step\n", v);
        for (k = 0; k < sc[v].nrows; k++)
            if (isfinite(sc[v].rows[k].eff_first))
                fprintf(f, "%u %.9g %.9g\n", sc[v].rows[k].threads,
                        sc[v].rows[k].eff_first,
                        isfinite(sc[v].rows[k].eff_step)
                        ? sc[v].rows[k].eff_step : NAN);
        fprintf(f, "EOD\n");
    }
}

/* The terminals, the log2 threads axis and the CPU count's mark. */
static void gp_axes(FILE *f, const rcuprof_table *t, const char *dir)
{
    unsigned maxt = t->threads[t->nthreads - 1];
    size_t ti;

    fprintf(f, "dir = ");
    rcuprof_report_gp_quote(f, dir);
    fprintf(f, "\n"
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "    pngterm = 'pngcairo size 900,600 noenhanced font \",10\"'\n"
            "} else {\n"
            "    pngterm = 'png truecolor size 900,600 noenhanced'\n"
            "}\n"
            "set logscale x 2\nset xrange [%g:%g]\nset xtics (",
            t->threads[0] / 1.25, maxt * 1.25);
    for (ti = 0; ti < t->nthreads; ti++)
        fprintf(f, "%s%u", ti ? ", " : "", t->threads[ti]);
    fprintf(f, ")\nset xlabel 'threads'\nset grid\nset key top left\n");
    if (t->cpus_allowed > 0 && t->cpus_allowed < maxt)
        fprintf(f, "set arrow 1 from %u, graph 0 to %u, graph 1 nohead dt 2\n"
                "set label 1 '%u CPUs' at %u, graph 0.95 offset 0.5, 0\n",
                t->cpus_allowed, t->cpus_allowed, t->cpus_allowed,
                t->cpus_allowed);
}

/* The x of variant v's points: its threads shifted by a small factor
 * (log2 axis: the same gap at every count), so no variant's error bars
 * hide another's. */
static double gp_shift(const rcuprof_table *t, size_t v)
{
    return pow(2, 0.06 * ((double)v - (t->nvariants - 1) / 2.0));
}

/* Whether variant v has a point in the cost plot ($d), or a change ($c). */
static int gp_has(const rcuprof_table *t, size_t v, int change)
{
    size_t ti;

    for (ti = 0; ti < t->nthreads; ti++)
        if (change ? v != t->baseline && t->changes[ti * t->nvariants + v].have
                   : t->cells[ti * t->nvariants + v].n > 0)
            return 1;
    return 0;
}

/*
 * gnuplot's stats over column col of every block $NAME<v> that has data:
 * "top" = the largest value, "span" = the largest magnitude.  The y range
 * is then set from the means, so an interval beyond it is clipped at the
 * border instead of stretching the axis.
 */
static void gp_ymax(FILE *f, const rcuprof_table *t, const char *name,
                    int col, int change)
{
    size_t v;

    fprintf(f, "top = 0\nspan = 0\n");
    for (v = 0; v < t->nvariants; v++)
        if (gp_has(t, v, change))
            fprintf(f, "stats $%s%zu using %d nooutput\n"
                    "top = STATS_max > top ? STATS_max : top\n"
                    "span = abs(STATS_max) > span ? abs(STATS_max) : span\n"
                    "span = abs(STATS_min) > span ? abs(STATS_min) : span\n",
                    name, v, col);
}

/* Per-op cost and throughput (with the USL fits) against threads: means
 * joined by lines, 95% intervals as error bars. */
static void gp_cost_throughput(FILE *f, const rcuprof_table *t,
                               const rcuprof_scaling *sc)
{
    const char *what = t->metric == RCUPROF_METRIC_CPU ? "CPU time"
                                                       : "wall time";
    size_t v, k = 0;

    fprintf(f, "    set output dir.'/cost.'.fmt.'.tmp'\n"
            "    set ylabel '%s per op (ns/op): geometric mean, 95%% interval as error bar'\n"
            "    set yrange [0:costmax]\n"
            "    set title '%s per op against threads (intervals beyond the top are cut off there)'\n"
            "    plot ", what, what);
    for (v = 0; v < t->nvariants; v++)
        if (gp_has(t, v, 0))
            fprintf(f, "%s$d%zu using ($1*%.6f):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc %zu notitle, "
                    "$d%zu using ($1*%.6f):2 with lines lw 2 lc %zu title '%s'",
                    k++ ? ", \\\n        " : "", v, gp_shift(t, v), v + 1,
                    v, gp_shift(t, v), v + 1, t->variants[v]);
    k = 0;
    fprintf(f, "\n    set output dir.'/throughput.'.fmt.'.tmp'\n"
            "    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95%% interval'\n"
            "    set yrange [0:tputmax]\n"
            "    set title 'throughput against threads'\n    plot ");
    for (v = 0; v < t->nvariants; v++) {
        if (!gp_has(t, v, 0))
            continue;
        fprintf(f, "%s$d%zu using ($1*%.6f):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc %zu notitle, "
                "$d%zu using ($1*%.6f):5 with lines lw 2 lc %zu title '%s'",
                k++ ? ", \\\n        " : "", v, gp_shift(t, v), v + 1, v,
                gp_shift(t, v), v + 1, t->variants[v]);
        if (sc[v].usl.fitted)
            fprintf(f, ", \\\n        usl%zu(x) with lines dt 3 lc %zu title '%s USL fit'",
                    v, v + 1, t->variants[v]);
    }
}

/* Each variant's change against the baseline with its interval: filled
 * points are resolved (analysis' rule), open ones are not. */
static void gp_change(FILE *f, const rcuprof_table *t)
{
    size_t v, k = 0;

    fprintf(f, "\n    set output dir.'/change.'.fmt.'.tmp'\n"
            "    set ylabel 'change of %s per op against %s (%%; negative = faster)'\n"
            "    set yrange [-changemax:changemax]\n"
            "    set title 'change against %s, 95%% interval (filled: resolved; open: not)'\n"
            "    plot 0 with lines lc 'black' lw 1 notitle",
            t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
            t->variants[t->baseline], t->variants[t->baseline]);
    for (v = 0; v < t->nvariants; v++) {
        if (!gp_has(t, v, 1))
            continue;
        fprintf(f, ", \\\n        $c%zu using ($1*%.6f):2:3:4 with yerrorbars pt 6 ps 1.2 lw 1.5 lc %zu notitle, "
                "$c%zu using ($1*%.6f):($5 > 0 ? $2 : NaN) with points pt 7 ps 1.2 lc %zu notitle, "
                "$c%zu using ($1*%.6f):2 with lines lw 2 lc %zu title '%s'",
                v, gp_shift(t, v), v + 1, v, gp_shift(t, v), v + 1, v,
                gp_shift(t, v), v + 1, t->variants[v]);
        k++;
    }
    if (k == 0)
        fprintf(f, ", \\\n        NaN title 'no variant beside the baseline'");
}

/* The probe layer's figures: a panel per figure some variant has (gnuplot
 * refuses a plot whose every point is undefined). */
static void gp_probes(FILE *f, const rcuprof_table *t)
{
    size_t v;

    if (!t->have_probes)
        return;
    fprintf(f, "\n    set output dir.'/probes.'.fmt.'.tmp'\n"
            "    set multiplot layout 1,%d title 'probe layer, median over blocks'",
            t->have_retries + t->have_slow);
    if (t->have_retries) {
        fprintf(f, "\n    set ylabel 'read-side retries per million acquisitions'\n"
                "    set title 'RCU retries'\n    plot ");
        for (v = 0; v < t->nvariants; v++)
            fprintf(f, "%s$p%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s'",
                    v ? ", \\\n        " : "", v, v + 1, t->variants[v]);
    }
    if (t->have_slow) {
        fprintf(f, "\n    set ylabel 'fetches that missed the cache, per 1k fetches'\n"
                "    set title 'slow-path fetches'\n    plot ");
        for (v = 0; v < t->nvariants; v++)
            fprintf(f, "%s$p%zu using 1:3 with linespoints lw 2 pt 7 lc %zu title '%s'",
                    v ? ", \\\n        " : "", v, v + 1, t->variants[v]);
    }
    fprintf(f, "\n    unset multiplot");
}

/* Scaling efficiency against the first count and per step, with the
 * ideal and the knee threshold. */
static void gp_efficiency(FILE *f, const rcuprof_table *t,
                          const rcuprof_scaling *sc)
{
    size_t v;

    fprintf(f, "\n    set output dir.'/efficiency.'.fmt.'.tmp'\n"
            "    set ylabel 'scaling efficiency (1 = ideal)'\n"
            "    set yrange [0:1.25]\n"
            "    set key top right\n"
            "    set title 'scaling efficiency: vs the first count (lines), per step (points)'\n"
            "    plot 1 with lines dt 2 lc 'gray' title 'ideal', "
            "%g with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below %.0f%%'",
            sc[0].min_step_eff, 100 * sc[0].min_step_eff);
    for (v = 0; v < t->nvariants; v++)
        fprintf(f, ", \\\n        $e%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s vs first', "
                "$e%zu using 1:3 with points pt 6 ps 1.5 lc %zu title '%s per step'",
                v, v + 1, t->variants[v], v, v + 1, t->variants[v]);
    fprintf(f, "\n    set key top left");
}

char *rcuprof_report_gnuplot(const rcuprof_table *t, const rcuprof_scaling *sc,
                             const char *dir)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (f == NULL)
        return NULL;
    fprintf(f, "# rcuprof report: plots of %s (gnuplot %s)\n",
            rcuprof_metric_name(t->metric), "5");
    gp_data(f, t, sc);
    /* The y ranges, from the means (gnuplot's stats on the data above). */
    gp_ymax(f, t, "d", 2, 0);
    fprintf(f, "costmax = top > 0 ? top * 1.4 : 1\n");
    gp_ymax(f, t, "d", 5, 0);
    fprintf(f, "tputmax = top > 0 ? top * 1.4 : 1\n");
    gp_ymax(f, t, "c", 2, 1);
    fprintf(f, "changemax = span * 1.6 + 2\n");
    gp_axes(f, t, dir);
    fprintf(f, "do for [fmt in 'png svg'] {\n"
            "    if (fmt eq 'png') { eval('set terminal '.pngterm) } "
            "else { set terminal svg size 900,600 dynamic noenhanced }\n");
    gp_cost_throughput(f, t, sc);
    gp_change(f, t);
    fprintf(f, "\n    set yrange [0:*]");
    gp_probes(f, t);
    gp_efficiency(f, t, sc);
    fprintf(f, "\n    unset output\n}\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
