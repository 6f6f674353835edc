/*
 * The markdown writer: the comparison table in the shape OpenSSL engineers
 * post on pull requests (threads, usecs and std dev per build, change, p,
 * MDE), with its notes.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void fmt_p(struct rcuprof_sb *b, double p)
{
    if (!isfinite(p))
        rcuprof_sb_printf(b, "n/a");
    else if (p < 0.001)
        rcuprof_sb_printf(b, "<0.001");
    else
        rcuprof_sb_printf(b, "%.3f", p);
}

/* The state mix of each cell, a small table beside the comparison. */
static void md_state_mix(struct rcuprof_sb *b, const rcuprof_table *t)
{
    size_t ti, v, k;

    rcuprof_sb_printf(b, "\nMachine state of the runs, from the cache-line "
                      "round trip sampled inside each window (f fast, "
                      "s slow, m mixed, ? unknown; the notes give the "
                      "split):\n\n| threads |");
    for (k = 0; k < t->nvariants; k++) {
        v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
        rcuprof_sb_printf(b, " %s |", t->variants[v]);
    }
    rcuprof_sb_printf(b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(b, "--:|");
    rcuprof_sb_printf(b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        rcuprof_sb_printf(b, "| %u |", t->threads[ti]);
        for (k = 0; k < t->nvariants; k++) {
            char mix[64];

            v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
            rcuprof_cell_state_mix(&t->cells[ti * t->nvariants + v], mix,
                                   sizeof(mix));
            rcuprof_sb_printf(b, " %s |", mix);
        }
        rcuprof_sb_printf(b, "\n");
    }
}

char *rcuprof_table_markdown(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    const char *bl = t->variants[t->baseline];
    size_t ti, v, k, nmin = t->runs_min, nmax = t->runs_max, os = 0;
    int mixes = t->have_states && !t->by_state;

    rcuprof_sb_printf(&b, "%s per op in usecs (%s / 1000): mean and std dev over ",
              t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "Wall time",
              rcuprof_metric_name(t->metric));
    if (nmin == nmax)
        rcuprof_sb_printf(&b, "%zu runs", nmin);
    else
        rcuprof_sb_printf(&b, "%zu to %zu runs", nmin, nmax);
    rcuprof_sb_printf(&b, " per cell; baseline %s.\n\n| threads |", bl);
    /* Columns: the baseline first, then every other variant in order. */
    for (k = 0; k < t->nvariants; k++) {
        v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
        rcuprof_sb_printf(&b, " %s usecs | %s std dev |", t->variants[v],
                  t->variants[v]);
    }
    for (k = 1; k < t->nvariants; k++) {
        v = k <= t->baseline ? k - 1 : k;
        if (t->nvariants > 2)
            rcuprof_sb_printf(&b, " %s change %% [95%% CI] | %s p (Holm) | %s MDE |",
                      t->variants[v], t->variants[v], t->variants[v]);
        else
            rcuprof_sb_printf(&b, " change %% [95%% CI] | p (Holm) | MDE |");
    }
    rcuprof_sb_printf(&b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, "--:|--:|");
    for (k = 1; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, "--:|--:|--:|");
    rcuprof_sb_printf(&b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        int over = rcuprof_table_oversubscribed(t, ti);
        char label[48];

        os += over;
        rcuprof_table_row_label(t, ti, label, sizeof(label));
        rcuprof_sb_printf(&b, "| %s%s |", label, over ? " [^os]" : "");
        for (k = 0; k < t->nvariants; k++) {
            const rcuprof_cell *c;

            v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
            c = &t->cells[ti * t->nvariants + v];
            if (c->n == 0)
                rcuprof_sb_printf(&b, " n/a | n/a |");
            else if (!isfinite(c->s.sd))
                rcuprof_sb_printf(&b, " %.4f | n/a |", c->s.mean / 1000);
            else
                rcuprof_sb_printf(&b, " %.4f | %.4f |", c->s.mean / 1000,
                          c->s.sd / 1000);
        }
        for (k = 1; k < t->nvariants; k++) {
            const rcuprof_change *ch;

            v = k <= t->baseline ? k - 1 : k;
            ch = &t->changes[ti * t->nvariants + v];
            if (!ch->have) {
                rcuprof_sb_printf(&b, " n/a | n/a | n/a |");
                continue;
            }
            rcuprof_sb_printf(&b, " %+.1f", ch->change_pct);
            if (isfinite(ch->lo_pct) && isfinite(ch->hi_pct))
                rcuprof_sb_printf(&b, " [%+.1f, %+.1f]", ch->lo_pct, ch->hi_pct);
            rcuprof_sb_printf(&b, "%s | ", ch->paired ? "" : " (unpaired)");
            fmt_p(&b, ch->p_holm);
            if (isfinite(ch->mde_pct))
                rcuprof_sb_printf(&b, " | %.1f%% |", ch->mde_pct);
            else
                rcuprof_sb_printf(&b, " | n/a |");
        }
        rcuprof_sb_printf(&b, "\n");
    }
    rcuprof_sb_printf(&b, "\nchange %%: the variant's per-op cost relative to %s "
              "(negative = faster), the geometric mean of per-block ratios "
              "with its 95%% t interval.  p: Wilcoxon signed-rank test on "
              "those ratios, Holm-corrected over the table's %zu tests.  "
              "MDE: the smallest change this noise and n detect "
              "(alpha 0.05, power 0.8); a change below it is not resolved.\n",
              bl, t->ntests);
    if (mixes)
        md_state_mix(&b, t);
    else if (t->by_state)
        rcuprof_sb_printf(&b, "\nRows by machine state (--by-state): each "
                          "compares only the runs of that state, from the "
                          "cache-line round trip sampled inside the window "
                          "(the notes give the split).\n");
    if (os > 0)
        rcuprof_sb_printf(&b, "\n[^os]: More threads than the %u CPUs allowed: "
                  "threads wait for a CPU, so the per-op wall time "
                  "includes the wait.\n", t->cpus_allowed);
    if (json_array_size(t->notes) > 0) {
        json_t *n;

        rcuprof_sb_printf(&b, "\nNotes:\n");
        json_array_foreach(t->notes, k, n)
            rcuprof_sb_printf(&b, "- %s\n", json_string_value(n));
    }
    return rcuprof_sb_done(&b);
}

/* ---- the scaling report (analysis/scaling.h) --------------------------- */

static void md_iv(struct rcuprof_sb *b, double x, double lo, double hi,
                  double scale, const char *fmt)
{
    if (!isfinite(x)) {
        rcuprof_sb_printf(b, "n/a");
        return;
    }
    rcuprof_sb_printf(b, fmt, x / scale);
    if (isfinite(lo) && isfinite(hi)) {
        rcuprof_sb_printf(b, " [");
        rcuprof_sb_printf(b, fmt, lo / scale);
        rcuprof_sb_printf(b, ", ");
        rcuprof_sb_printf(b, fmt, hi / scale);
        rcuprof_sb_printf(b, "]");
    }
}

static void md_num(struct rcuprof_sb *b, double x, const char *fmt)
{
    if (isfinite(x))
        rcuprof_sb_printf(b, fmt, x);
    else
        rcuprof_sb_printf(b, "-");
}

/* "knee (worst step, high; explain flags it)" */
static void md_finding(struct rcuprof_sb *b, const rcuprof_scaling_row *r)
{
    if (!r->dip && !r->knee)
        return;
    if (r->dip)
        rcuprof_sb_printf(b, "dip (costs more than at %u)", r->dip_vs);
    if (r->dip && r->knee)
        rcuprof_sb_printf(b, ", ");
    if (r->knee)
        rcuprof_sb_printf(b, "knee%s", r->worst ? " (worst step)" : "");
    rcuprof_sb_printf(b, "; %s confidence%s", r->confidence,
                      r->flagged ? ", explain flags it" : "");
}

static void md_usl(struct rcuprof_sb *b, const rcuprof_scaling *s)
{
    const rcuprof_stats_usl *m = &s->usl.m;

    rcuprof_sb_printf(b, "USL fit of the throughput (runs at or below the CPU count): ");
    if (!s->usl.fitted) {
        rcuprof_sb_printf(b, "%s.\n", s->usl.reason);
        return;
    }
    rcuprof_sb_printf(b, "%zu runs; lambda %.4g ops/s at 1 thread, sigma %.3g "
                      "[%.3g, %.3g] (contention), kappa %.3g [%.3g, %.3g] "
                      "(coherency delay), R^2 %.3f", m->n_points, m->lambda,
                      m->sigma, m->sigma_lo, m->sigma_hi, m->kappa,
                      m->kappa_lo, m->kappa_hi, m->r2);
    if (isfinite(m->n_peak))
        rcuprof_sb_printf(b, "; the model peaks at %.1f threads (%.4g ops/s)",
                          m->n_peak, m->x_peak);
    rcuprof_sb_printf(b, ".\n");
}

static void md_scaling_one(struct rcuprof_sb *b, const rcuprof_scaling *s,
                           int *os)
{
    size_t k, nmin = (size_t)-1, nmax = 0;
    unsigned first = 0;

    for (k = 0; k < s->nrows; k++) {
        if (s->rows[k].n < nmin)
            nmin = s->rows[k].n;
        if (s->rows[k].n > nmax)
            nmax = s->rows[k].n;
        if (first == 0 && isfinite(s->rows[k].cost))
            first = s->rows[k].threads;
    }
    rcuprof_sb_printf(b, "Scaling of %s: %s per op in usecs (%s / 1000), "
                      "median over ", s->variant,
                      s->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
                      rcuprof_metric_name(s->metric));
    if (nmin == nmax)
        rcuprof_sb_printf(b, "%zu runs", nmin);
    else
        rcuprof_sb_printf(b, "%zu to %zu runs", nmin, nmax);
    rcuprof_sb_printf(b, " per count, with its %.0f%% interval.\n\n",
                      100 * s->level);
    rcuprof_sb_printf(b, "| threads | runs | usecs [interval] | M ops/s [interval] "
                      "| efficiency vs %u | step efficiency | dip or knee |\n"
                      "|--:|--:|--:|--:|--:|--:|---|\n", first);
    for (k = 0; k < s->nrows; k++) {
        const rcuprof_scaling_row *r = &s->rows[k];

        *os |= r->oversubscribed;
        rcuprof_sb_printf(b, "| %u%s | %zu", r->threads,
                          r->oversubscribed ? " [^os]" : "", r->n);
        if (r->failed > 0)
            rcuprof_sb_printf(b, " (+%zu failed)", r->failed);
        rcuprof_sb_printf(b, " | ");
        md_iv(b, r->cost, r->lo, r->hi, 1000, "%.4f");
        rcuprof_sb_printf(b, " | ");
        md_iv(b, r->tput, r->tput_lo, r->tput_hi, 1e6, "%.3f");
        rcuprof_sb_printf(b, " | ");
        md_num(b, r->eff_first, "%.2f");
        rcuprof_sb_printf(b, " | ");
        md_num(b, r->eff_step, "%.2f");
        rcuprof_sb_printf(b, " | ");
        md_finding(b, r);
        rcuprof_sb_printf(b, " |\n");
    }
    rcuprof_sb_printf(b, "\n");
    md_usl(b, s);
}

char *rcuprof_scaling_markdown(const rcuprof_scaling *s, size_t n,
                               const rcuprof_table *t, int sections)
{
    struct rcuprof_sb b = { 0 };
    size_t i;
    int os = 0;

    if (sections)
        rcuprof_sb_printf(&b, "\n## Scaling of each variant\n");
    for (i = 0; i < n; i++) {
        if (sections)
            rcuprof_sb_printf(&b, "\n### %s\n\n", s[i].variant);
        else if (i > 0)
            rcuprof_sb_printf(&b, "\n");
        md_scaling_one(&b, &s[i], &os);
    }
    if (n > 0)
        rcuprof_sb_printf(&b, "\nefficiency vs N: the cost per op at the "
                          "first count N over the cost here (1 = the ideal "
                          "speed-up: each thread's per-op cost stays the "
                          "same); step efficiency: the same for the step from "
                          "the count before.  A knee is a step below %.0f%% "
                          "efficiency, a dip a count whose interval lies "
                          "wholly above a higher count's; explain flags every "
                          "dip and the knees whose intervals are separated "
                          "(rcuprof explain RESULTS runs the experiments).  "
                          "Intervals: the median's distribution-free one from "
                          "6 runs, else (2-5 runs) Student's t interval of the "
                          "mean widened to hold the median.\n",
                          100 * s[0].min_step_eff);
    if (os)
        rcuprof_sb_printf(&b, "\n[^os]: More threads than the %u CPUs allowed: "
                          "threads wait for a CPU, so the per-op wall time "
                          "includes the wait.\n", t->cpus_allowed);
    if (!sections && json_array_size(t->notes) > 0) {
        json_t *note;

        rcuprof_sb_printf(&b, "\nNotes:\n");
        json_array_foreach(t->notes, i, note)
            rcuprof_sb_printf(&b, "- %s\n", json_string_value(note));
    }
    return rcuprof_sb_done(&b);
}
