/*
 * The gnuplot writer: the script that draws a report's plots from the
 * comparison table: per-op cost against threads with interval bands on a
 * log2 axis, throughput with each variant's USL fit, and the probe layer's
 * figures where the results carry them.  The data sit in the script, so a
 * plot can be restyled by hand and redrawn.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *const *rcuprof_report_plots(const rcuprof_table *t)
{
    static const char *const outs[] = {
        "cost.png", "cost.svg", "throughput.png", "throughput.svg",
        "efficiency.png", "efficiency.svg", "probes.png", "probes.svg", NULL
    };
    static const char *const no_probes[] = {
        "cost.png", "cost.svg", "throughput.png", "throughput.svg",
        "efficiency.png", "efficiency.svg", NULL
    };

    return t->have_probes ? outs : no_probes;
}

/* A gnuplot single-quoted string: ' doubles. */
static void gp_quote(FILE *f, const char *s)
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
        fprintf(f, "$d%zu << EOD\n# threads usecs lo hi mops lo hi\n", v);
        for (ti = 0; ti < t->nthreads; ti++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            double lo = isfinite(c->s.mean_lo) ? c->s.mean_lo : c->s.mean;
            double hi = isfinite(c->s.mean_hi) ? c->s.mean_hi : c->s.mean;
            double tl = isfinite(c->tput_lo) ? c->tput_lo : c->tput_mean;
            double th = isfinite(c->tput_hi) ? c->tput_hi : c->tput_mean;

            if (c->n == 0)
                continue;
            fprintf(f, "%u %.9g %.9g %.9g %.9g %.9g %.9g\n", t->threads[ti],
                    c->s.mean / 1000, lo / 1000, hi / 1000,
                    c->tput_mean / 1e6, tl / 1e6, th / 1e6);
        }
        fprintf(f, "EOD\n");
        if (sc[v].usl.fitted)
            fprintf(f, "usl%zu(x) = %.12g * x / (1 + %.12g * (x - 1) + %.12g * x * (x - 1)) / 1e6\n",
                    v, sc[v].usl.m.lambda, sc[v].usl.m.sigma,
                    sc[v].usl.m.kappa);
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
    gp_quote(f, dir);
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

/* Per-op cost and throughput (with the USL fits) against threads. */
static void gp_cost_throughput(FILE *f, const rcuprof_table *t,
                               const rcuprof_scaling *sc)
{
    size_t v;

    fprintf(f, "    set output dir.'/cost.'.fmt.'.tmp'\n"
            "    set ylabel '%s per op (usecs), mean and 95%% interval'\n"
            "    set yrange [0:*]\n"
            "    set title 'per-op cost against threads (%s)'\n    plot ",
            t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
            rcuprof_metric_name(t->metric));
    for (v = 0; v < t->nvariants; v++)
        fprintf(f, "%s$d%zu using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc %zu notitle, "
                "$d%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s'",
                v ? ", \\\n        " : "", v, v + 1, v, v + 1,
                t->variants[v]);
    fprintf(f, "\n    set output dir.'/throughput.'.fmt.'.tmp'\n"
            "    set ylabel 'throughput (M ops/s, all threads)'\n"
            "    set title 'throughput against threads'\n    plot ");
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "%s$d%zu using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc %zu notitle, "
                "$d%zu using 1:5 with linespoints lw 2 pt 7 lc %zu title '%s'",
                v ? ", \\\n        " : "", v, v + 1, v, v + 1,
                t->variants[v]);
        if (sc[v].usl.fitted)
            fprintf(f, ", \\\n        usl%zu(x) with lines dt 3 lc %zu title '%s USL fit'",
                    v, v + 1, t->variants[v]);
    }
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
    gp_axes(f, t, dir);
    fprintf(f, "do for [fmt in 'png svg'] {\n"
            "    if (fmt eq 'png') { eval('set terminal '.pngterm) } "
            "else { set terminal svg size 900,600 dynamic noenhanced }\n");
    gp_cost_throughput(f, t, sc);
    gp_probes(f, t);
    gp_efficiency(f, t, sc);
    fprintf(f, "\n    unset output\n}\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
