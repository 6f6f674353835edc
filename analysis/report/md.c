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

char *rcuprof_table_markdown(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    const char *bl = t->variants[t->baseline];
    size_t ti, v, k, nmin = t->runs_min, nmax = t->runs_max, os = 0;

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

        os += over;
        rcuprof_sb_printf(&b, "| %u%s |", t->threads[ti], over ? " [^os]" : "");
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
