/*
 * The gnuplot writer: the script that draws a report's plots from the
 * comparison table: per-op cost (ns/op) against threads on log axes (CPU
 * time with report --metric cpu_ns_per_op), throughput with each
 * variant's USL fit, each variant's change against the baseline (filled
 * with thick bars: resolved; open with thin ones: not; never joined, so no
 * trend is drawn through noise), scaling efficiency with the knees and
 * dips of the scaling report (labelled with their confidence only where
 * threads do not exceed the CPUs), and the probe layer's figures where the
 * results carry them (a panel whose every figure is 0 says why).  Thread
 * counts above the run's CPUs are shaded.  Intervals are error bars, each
 * variant's shifted a little along the threads axis so none hides
 * another, within y ranges set here from the cells' centres (the
 * geometric means, analysis/results.h), so one wide interval cannot
 * flatten the rest; an interval cut off at an edge gets a triangle there
 * and the key says so.  The data sit in the script, so a plot can be
 * restyled by hand and redrawn.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The y ranges of the plots, from the centres, and whether some interval
 * reaches beyond them (then cut off there, with a mark). */
struct gp_ranges {
    double cost_lo, cost_hi, tput_hi, change;
    double change_lo;           /* the bottom: -change, never below -105
                                 * (a cost cannot fall by more than 100%) */
    int cost_clip, tput_clip, change_clip;
};

static void gp_ranges(const rcuprof_table *t, struct gp_ranges *g)
{
    double cmin = INFINITY, cmax = 0, tmax = 0, span = 0;
    size_t i, n = t->nthreads * t->nvariants;

    memset(g, 0, sizeof(*g));
    for (i = 0; i < n; i++) {
        const rcuprof_cell *c = &t->cells[i];
        const rcuprof_change *ch = t->changes != NULL ? &t->changes[i] : NULL;

        if (c->n > 0 && c->geomean > 0) {
            cmin = fmin(cmin, c->geomean);
            cmax = fmax(cmax, c->geomean);
        }
        if (c->n > 0 && c->tput > tmax)
            tmax = c->tput;
        if (ch != NULL && i % t->nvariants != t->baseline && ch->have
            && fabs(ch->change_pct) > span)
            span = fabs(ch->change_pct);
    }
    /* cost on a log axis: the intervals with a margin (more at the top,
     * for the key), never beyond a factor 3 either side of the centres
     * (an interval reaching further is cut off there, with a mark) */
    g->cost_lo = isfinite(cmin) ? cmin / 3 : 1;
    g->cost_hi = cmax > 0 ? cmax * 3 : 10;
    if (isfinite(cmin) && cmax > 0) {
        double lo = cmin, hi = cmax;

        for (i = 0; i < n; i++) {
            const rcuprof_cell *c = &t->cells[i];

            if (c->n > 0 && c->geomean_lo > 0)
                lo = fmin(lo, c->geomean_lo);
            if (c->n > 0 && isfinite(c->geomean_hi))
                hi = fmax(hi, c->geomean_hi);
        }
        g->cost_lo = fmax(g->cost_lo, lo / 1.25);
        g->cost_hi = fmin(g->cost_hi, hi * 1.6);
    }
    g->tput_hi = tmax > 0 ? tmax * 1.4 / 1e6 : 1;
    /* the change axis holds the intervals, up to +-50% (or 1.6 times the
     * largest change when that is more): from the centres alone, small
     * changes had every interval cut off */
    g->change = span * 1.6 + 2;
    {
        double reach = 0, cap = fmax(g->change, 50);

        for (i = 0; t->changes != NULL && i < n; i++) {
            const rcuprof_change *ch = &t->changes[i];

            if (i % t->nvariants == t->baseline || !ch->have)
                continue;
            if (isfinite(ch->lo_pct))
                reach = fmax(reach, fabs(ch->lo_pct));
            if (isfinite(ch->hi_pct))
                reach = fmax(reach, fabs(ch->hi_pct));
        }
        g->change = fmax(g->change, fmin(reach * 1.08, cap));
    }
    g->change_lo = fmax(-g->change, -105);
    for (i = 0; i < n; i++) {
        const rcuprof_cell *c = &t->cells[i];
        const rcuprof_change *ch = t->changes != NULL ? &t->changes[i] : NULL;

        if (c->n > 0) {
            g->cost_clip |= (isfinite(c->geomean_lo)
                             && c->geomean_lo < g->cost_lo)
                            || (isfinite(c->geomean_hi)
                                && c->geomean_hi > g->cost_hi);
            g->tput_clip |= isfinite(c->tput_hi)
                            && c->tput_hi / 1e6 > g->tput_hi;
        }
        if (ch != NULL && i % t->nvariants != t->baseline && ch->have)
            g->change_clip |= (isfinite(ch->lo_pct) && ch->lo_pct < g->change_lo)
                              || (isfinite(ch->hi_pct)
                                  && ch->hi_pct > g->change);
    }
}

/* The first thread count above the run's CPUs, or t->nthreads when none
 * is (or the CPUs are unknown). */
static size_t gp_first_over(const rcuprof_table *t)
{
    size_t ti;

    for (ti = 0; ti < t->nthreads; ti++)
        if (rcuprof_table_oversubscribed(t, ti))
            return ti;
    return t->nthreads;
}

/* Where the shade of the oversubscribed counts starts. */
static double gp_shade_x(const rcuprof_table *t)
{
    size_t os = gp_first_over(t);

    return os > 0 ? sqrt((double)t->threads[os - 1] * t->threads[os])
                  : t->threads[0] / 1.25;
}

/* The terminals, the log2 threads axis and the oversubscribed counts
 * shaded: from halfway (on the log axis) between the last count within
 * the CPUs and the first above them, to the right edge. */
static void gp_axes(FILE *f, const rcuprof_table *t, const char *dir)
{
    unsigned maxt = t->threads[t->nthreads - 1];
    size_t ti, os = gp_first_over(t);

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
    /* the key below the plot: inside, it sat on points and triangles;
     * height 1.5 leaves the x label room above it (without, gnuplot
     * 5.4 drew 'threads' inside the key) */
    fprintf(f, ")\nset xlabel 'threads'\nset grid\n"
            "set key outside below center horizontal height 1.5\n");
    if (os < t->nthreads) {
        double x0 = gp_shade_x(t);

        fprintf(f, "# oversubscribed: more threads than the run's %u CPUs\n"
                "set object 1 rect from %.6g, graph 0 to graph 1, graph 1 "
                "behind fc rgb '#e4e4e4' fs solid 1.0 noborder\n"
                "set label 1 'oversubscribed: threads > %u CPUs' at %.6g, graph 0.04 offset 0.5, 0\n",
                t->cpus_allowed, x0, t->cpus_allowed, x0);
    }
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

/* The marks of intervals cut off at the edges: a triangle at the edge
 * where block blk's columns lo or hi reach past bottom or top (bottom
 * NAN: no bottom edge to mark). */
static void gp_clips(FILE *f, const char *blk, size_t v, double shift,
                     int lo, int hi, double bottom, double top)
{
    fprintf(f, ", \\\n        %s%zu using ($1*%.6f):($%d > %.9g ? %.9g : NaN) with points pt 9 ps 1.4 lc %zu notitle",
            blk, v, shift, hi, top, top, v + 1);
    if (isfinite(bottom))
        fprintf(f, ", \\\n        %s%zu using ($1*%.6f):($%d < %.9g ? %.9g : NaN) with points pt 11 ps 1.4 lc %zu notitle",
                blk, v, shift, lo, bottom, bottom, v + 1);
}

/* The key's word on those marks, when some interval is cut off. */
static void gp_clip_key(FILE *f, int clipped)
{
    if (clipped)
        fprintf(f, ", \\\n        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: interval cut off at the edge'");
}

/* Labelled ticks of a log y axis from lo to hi: each decade's 1, 2, 5
 * (and 1.5, 3, 7 when the range is under a decade), so a narrow range
 * still reads (one label, 100, on a range of 60 to 400 did not). */
static void gp_log_tics(FILE *f, double lo, double hi)
{
    static const double fine[] = { 1, 1.5, 2, 3, 5, 7 }, coarse[] = { 1, 2, 5 };
    const double *m = hi / lo < 10 ? fine : coarse;
    size_t nm = hi / lo < 10 ? 6 : 3, k, nt = 0;
    double d;

    if (!(lo > 0) || !(hi > lo) || hi / lo > 1e4)
        return;
    fprintf(f, "    set ytics (");
    for (d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
        for (k = 0; k < nm; k++)
            if (m[k] * d >= lo && m[k] * d <= hi)
                fprintf(f, "%s%.6g", nt++ ? ", " : "", m[k] * d);
    fprintf(f, ")\n");
}

/* Per-op cost on a log y axis and throughput (with the USL fits) against
 * threads: means joined by lines, 95% intervals as error bars. */
static void gp_cost_throughput(FILE *f, const rcuprof_table *t,
                               const rcuprof_scaling *sc,
                               const struct gp_ranges *g)
{
    const char *what = t->metric == RCUPROF_METRIC_CPU ? "CPU time"
                                                       : "wall time";
    size_t v, k = 0;

    fprintf(f, "    set output dir.'/cost.'.fmt.'.tmp'\n");
    gp_log_tics(f, g->cost_lo, g->cost_hi);
    fprintf(f, "    set logscale y\n"
            "    set ylabel '%s per op (ns/op, log scale): geometric mean, 95%% interval'\n"
            "    set yrange [%.9g:%.9g]\n"
            "    set title '%s per op against threads%s'\n"
            "    plot ", what, g->cost_lo, g->cost_hi, what,
            t->metric == RCUPROF_METRIC_CPU
            ? "" : " (CPU time: report --metric cpu_ns_per_op)");
    for (v = 0; v < t->nvariants; v++)
        if (gp_has(t, v, 0)) {
            fprintf(f, "%s$d%zu using ($1*%.6f):2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc %zu notitle, "
                    "$d%zu using ($1*%.6f):2 with lines lw 2 lc %zu title '%s'",
                    k++ ? ", \\\n        " : "", v, gp_shift(t, v), v + 1,
                    v, gp_shift(t, v), v + 1, t->variants[v]);
            gp_clips(f, "$d", v, gp_shift(t, v), 3, 4, g->cost_lo,
                     g->cost_hi);
        }
    if (k == 0)
        fprintf(f, "NaN title 'no run'");
    gp_clip_key(f, g->cost_clip);
    k = 0;
    fprintf(f, "\n    set ytics auto\n    unset logscale y\n"
            "    set output dir.'/throughput.'.fmt.'.tmp'\n"
            "    set ylabel 'throughput (M ops/s, all threads): geometric mean, 95%% interval'\n"
            "    set yrange [0:%.9g]\n"
            "    set title 'throughput against threads'\n    plot ",
            g->tput_hi);
    for (v = 0; v < t->nvariants; v++) {
        if (!gp_has(t, v, 0))
            continue;
        fprintf(f, "%s$d%zu using ($1*%.6f):5:6:7 with yerrorbars pt 7 ps 0.8 lw 1.5 lc %zu notitle, "
                "$d%zu using ($1*%.6f):5 with lines lw 2 lc %zu title '%s'",
                k++ ? ", \\\n        " : "", v, gp_shift(t, v), v + 1, v,
                gp_shift(t, v), v + 1, t->variants[v]);
        gp_clips(f, "$d", v, gp_shift(t, v), 6, 7, NAN, g->tput_hi);
        if (sc[v].usl.fitted)
            fprintf(f, ", \\\n        usl%zu(x) with lines dt 3 lc %zu title '%s USL fit'",
                    v, v + 1, t->variants[v]);
    }
    if (k == 0)
        fprintf(f, "NaN title 'no run'");
    gp_clip_key(f, g->tput_clip);
}

/* Each variant's change against the baseline with its interval: resolved
 * changes (analysis' rule) filled with thick bars, the others open with
 * thin ones; no line joins them. */
static void gp_change(FILE *f, const rcuprof_table *t,
                      const struct gp_ranges *g)
{
    size_t v, k = 0;

    fprintf(f, "\n    set output dir.'/change.'.fmt.'.tmp'\n"
            "    set ylabel 'change of %s per op against %s (%%; negative = faster)'\n"
            "    set yrange [%.9g:%.9g]\n"
            "    set title 'change against %s, 95%% interval: filled = resolved; open = not resolved (may be noise)'\n"
            "    plot 0 with lines lc 'black' lw 1 notitle",
            t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
            t->variants[t->baseline], g->change_lo, g->change,
            t->variants[t->baseline]);
    for (v = 0; v < t->nvariants; v++) {
        if (!gp_has(t, v, 1))
            continue;
        fprintf(f, ", \\\n        $c%zu using ($1*%.6f):($5 > 0 ? NaN : $2):3:4 with yerrorbars pt 6 ps 1.2 lw 1 lc %zu notitle, "
                "\\\n        $c%zu using ($1*%.6f):($5 > 0 ? $2 : NaN):3:4 with yerrorbars pt 7 ps 1.6 lw 2.5 lc %zu notitle, "
                "\\\n        NaN with points pt 7 ps 1.4 lc %zu title '%s'",
                v, gp_shift(t, v), v + 1, v, gp_shift(t, v), v + 1, v + 1,
                t->variants[v]);
        gp_clips(f, "$c", v, gp_shift(t, v), 3, 4, g->change_lo, g->change);
        k++;
    }
    if (k == 0)
        fprintf(f, ", \\\n        NaN title 'no variant beside the baseline'");
    gp_clip_key(f, g->change_clip);
}

/* What a probe panel says when it has no line to draw: every variant's
 * figure missing or 0 at every count (col 0: retries, 1: slow path);
 * NULL when some figure is not 0. */
static const char *gp_probe_empty(const rcuprof_table *t, int col)
{
    size_t i, n = t->nthreads * t->nvariants;
    int finite = 0;

    for (i = 0; i < n; i++) {
        double x = col == 0 ? t->cells[i].probe_retries
                            : t->cells[i].probe_slow;

        if (isfinite(x) && x != 0)
            return NULL;
        finite |= isfinite(x);
    }
    if (!finite)
        return "no figure in any run";
    return col == 0
           ? "0 at every count in every run:\\nno read side retried"
           : "0 at every count in every run:\\nevery fetch hit the cache";
}

/* One probe panel: each variant's line, or "no figure" in the key for a
 * variant without it (a build without an RCU read lock has no retries);
 * a panel of zeros says why in the plot. */
static void gp_probe_panel(FILE *f, const rcuprof_table *t, int col)
{
    const char *empty = gp_probe_empty(t, col);
    size_t v, ti;

    if (empty != NULL)
        fprintf(f, "\n    set label 2 \"%s\" at graph 0.5, graph 0.5 center"
                "\n    set yrange [0:1]", empty);
    fprintf(f, "\n    plot ");
    for (v = 0; v < t->nvariants; v++) {
        int has = 0;

        for (ti = 0; ti < t->nthreads; ti++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];

            has |= isfinite(col == 0 ? c->probe_retries : c->probe_slow);
        }
        if (has)
            fprintf(f, "%s$p%zu using 1:%d with linespoints lw 2 pt 7 lc %zu title '%s'",
                    v ? ", \\\n        " : "", v, col + 2, v + 1,
                    t->variants[v]);
        else
            fprintf(f, "%sNaN with points pt 7 lc %zu title '%s: no figure%s'",
                    v ? ", \\\n        " : "", v + 1, t->variants[v],
                    col == 0 ? " (no RCU read lock)" : "");
    }
    if (empty != NULL)
        fprintf(f, "\n    unset label 2\n    set yrange [0:*]");
}

/* The probe layer's figures: a panel per figure some variant has. */
static void gp_probes(FILE *f, const rcuprof_table *t)
{
    if (!t->have_probes)
        return;
    fprintf(f, "\n    set output dir.'/probes.'.fmt.'.tmp'\n"
            "    set key outside below center vertical height 1.5\n"
            "    set offsets 0, 0, graph 0.08, 0\n"
            "    set multiplot layout 1,%d title 'probe layer, median over blocks'",
            t->have_retries + t->have_slow);
    if (gp_first_over(t) < t->nthreads)
        fprintf(f, "\n    set label 1 'oversubscribed: threads > %u CPUs' at %.6g, graph 0.97 left offset 0.5, 0",
                t->cpus_allowed, gp_shade_x(t));
    if (t->have_retries) {
        fprintf(f, "\n    set ylabel 'read-side retries per million acquisitions'\n"
                "    set title 'RCU retries'");
        gp_probe_panel(f, t, 0);
    }
    if (t->have_slow) {
        fprintf(f, "\n    set ylabel 'fetches that missed the cache, per 1k fetches'\n"
                "    set title 'slow-path fetches'");
        gp_probe_panel(f, t, 1);
    }
    fprintf(f, "\n    unset multiplot\n    set offsets 0, 0, 0, 0\n"
            "    set key outside below center horizontal height 1.5");
    if (gp_first_over(t) < t->nthreads)
        fprintf(f, "\n    set label 1 'oversubscribed: threads > %u CPUs' at %.6g, graph 0.04 offset 0.5, 0",
                t->cpus_allowed, gp_shade_x(t));
}

/* The knees and dips of the scaling report at counts within the CPUs,
 * with their confidence ($k<v>: threads, step efficiency, words); above
 * the CPUs the shade's label says they are not testable. */
static void gp_findings(FILE *f, const rcuprof_table *t,
                        const rcuprof_scaling *sc)
{
    size_t v, k;

    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$k%zu << EOD\n# threads eff_step finding\n", v);
        for (k = 0; k < sc[v].nrows; k++) {
            const rcuprof_scaling_row *r = &sc[v].rows[k];

            if ((!r->knee && !r->dip) || r->oversubscribed
                || !isfinite(r->eff_step))
                continue;
            fprintf(f, "%u %.9g \"%s%s%s, %s\"\n", r->threads, r->eff_step,
                    r->knee ? "knee" : "", r->knee && r->dip ? "+" : "",
                    r->dip ? "dip" : "",
                    r->confidence != NULL ? r->confidence : "?");
        }
        fprintf(f, "EOD\n");
    }
}

/* ": knee at 2 (high), dip at 4 (low)", the findings of one variant at
 * counts within the CPUs (ringed in the plot), or "". */
static void gp_findings_text(const rcuprof_scaling *sc, char *buf, size_t n)
{
    size_t k, len = 0;

    buf[0] = '\0';
    for (k = 0; k < sc->nrows && len < n; k++) {
        const rcuprof_scaling_row *r = &sc->rows[k];
        int w;

        if ((!r->knee && !r->dip) || r->oversubscribed
            || !isfinite(r->eff_step))
            continue;
        w = snprintf(buf + len, n - len, "%s%s%s%s at %u (%s)",
                     len ? ", " : ": ", r->knee ? "knee" : "",
                     r->knee && r->dip ? "+" : "", r->dip ? "dip" : "",
                     r->threads,
                     r->confidence != NULL ? r->confidence : "?");
        if (w < 0)
            break;
        len += (size_t)w;
    }
    if (len >= n)
        buf[n - 1] = '\0';
}

/* Scaling efficiency against the first count and per step, with the
 * ideal, the knee threshold and the findings within the CPUs. */
static void gp_efficiency(FILE *f, const rcuprof_table *t,
                          const rcuprof_scaling *sc)
{
    size_t v, k;
    int os = gp_first_over(t) < t->nthreads, clipped = 0;

    if (os)
        fprintf(f, "\n    set label 1 \"oversubscribed: threads > %u CPUs:\\nknees and dips not testable\" at graph 1, graph 0.96 right offset -0.5, 0 front boxed\n    set style textbox opaque fc rgb '#e4e4e4' noborder",
                t->cpus_allowed);
    fprintf(f, "\n    set output dir.'/efficiency.'.fmt.'.tmp'\n"
            "    set ylabel 'scaling efficiency (1 = ideal)'\n"
            "    set yrange [0:1.25]\n"
            "    set key outside below center horizontal maxrows 4 height 1.5\n"
            "    set title 'scaling efficiency: vs the first count (lines), per step (points); knees and dips ringed, with their confidence in the key'\n"
            "    plot 1 with lines dt 2 lc 'gray' title 'ideal', "
            "%g with lines dt 4 lw 1.5 lc rgb '#cc4444' title 'knee: a step below %.0f%%'",
            sc[0].min_step_eff, 100 * sc[0].min_step_eff);
    for (v = 0; v < t->nvariants; v++) {
        char fs[160];

        /* The findings in the key, beside their variant (floating labels
         * stacked above the points landed on another variant's point),
         * and a ring around each step they mark. */
        gp_findings_text(&sc[v], fs, sizeof(fs));
        fprintf(f, ", \\\n        $e%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s vs first', "
                "\\\n        $e%zu using 1:3 with points pt 6 ps 1.5 lc %zu title '%s per step%s', "
                "\\\n        $e%zu using 1:($3 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc %zu notitle, "
                "\\\n        $e%zu using 1:($2 > 1.25 ? 1.25 : NaN) with points pt 9 ps 1.4 lc %zu notitle, "
                "\\\n        $k%zu using 1:2 with points pt 6 ps 3 lw 2 lc %zu notitle",
                v, v + 1, t->variants[v], v, v + 1, t->variants[v], fs,
                v, v + 1, v, v + 1, v, v + 1);
        for (k = 0; k < sc[v].nrows; k++)
            clipped |= sc[v].rows[k].eff_first > 1.25
                       || sc[v].rows[k].eff_step > 1.25;
    }
    if (clipped)
        fprintf(f, ", \\\n        NaN with points pt 9 ps 1.4 lc 'black' title 'triangle: above 1.25 (superlinear), cut off at the edge'");
    fprintf(f, "\n    set key outside below center horizontal noopaque height 1.5");
    if (os)
        fprintf(f, "\n    set label 1 'oversubscribed: threads > %u CPUs' at %.6g, graph 0.04 left offset 0.5, 0",
                t->cpus_allowed, gp_shade_x(t));
}

char *rcuprof_report_gnuplot(const rcuprof_table *t, const rcuprof_scaling *sc,
                             const char *dir)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    struct gp_ranges g;

    if (f == NULL)
        return NULL;
    fprintf(f, "# rcuprof report: plots of %s (gnuplot %s)\n",
            rcuprof_metric_name(t->metric), "5");
    gp_data(f, t, sc);
    gp_findings(f, t, sc);
    gp_ranges(t, &g);
    gp_axes(f, t, dir);
    fprintf(f, "do for [fmt in 'png svg'] {\n"
            "    if (fmt eq 'png') { eval('set terminal '.pngterm) } "
            "else { set terminal svg size 900,600 dynamic noenhanced }\n");
    gp_cost_throughput(f, t, sc, &g);
    gp_change(f, t, &g);
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
