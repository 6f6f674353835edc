/*
 * The markdown writer: the comparison table, compact (what compare
 * prints by default and a reviewer pastes: one column per variant, its
 * ns/op and, beside the baseline, its change with the interval and a
 * mark when resolved, the row's MDE, a legend of one line and one line on
 * the rows not to be trusted; the notes only when asked) or wide (ns/op
 * with its interval and the geometric SD per variant, change, p, MDE, in
 * the shape OpenSSL engineers post, with every note); and the scaling
 * report.  Every cost is in ns/op, as the run summary prints it.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_p(struct rcuprof_sb *b, double p)
{
    if (!isfinite(p))
        rcuprof_sb_printf(b, "n/a");
    else if (p < 0.001)
        rcuprof_sb_printf(b, "<0.001");
    else
        rcuprof_sb_printf(b, "%.3f", p);
}

/* The variant in column k: the baseline first, then the others in
 * order. */
static size_t col_variant(const rcuprof_table *t, size_t k)
{
    return k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
}

/* "Wall time per op in ns/op (wall_ns_per_op): WHAT over N runs per
 * cell; baseline B." */
static void md_head(struct rcuprof_sb *b, const rcuprof_table *t,
                    const char *what)
{
    rcuprof_sb_printf(b, "%s per op in ns/op (%s): %s over ",
                      t->metric == RCUPROF_METRIC_CPU ? "CPU time"
                                                      : "Wall time",
                      rcuprof_metric_name(t->metric), what);
    if (t->runs_min == t->runs_max)
        rcuprof_sb_printf(b, "%zu runs", t->runs_min);
    else
        rcuprof_sb_printf(b, "%zu to %zu runs", t->runs_min, t->runs_max);
    rcuprof_sb_printf(b, " per cell; baseline %s.\n\n",
                      t->variants[t->baseline]);
}

/* The footnote on oversubscribed counts and the notes. */
static void md_tail(struct rcuprof_sb *b, const rcuprof_table *t, size_t os)
{
    size_t k;

    if (os > 0)
        rcuprof_sb_printf(b, "\n[^os]: More threads than the %u CPUs allowed: "
                          "threads wait for a CPU, so the per-op wall time "
                          "includes the wait.\n", t->cpus_allowed);
    if (json_array_size(t->notes) > 0) {
        json_t *n;

        rcuprof_sb_printf(b, "\nNotes:\n\n");
        json_array_foreach(t->notes, k, n)
            rcuprof_sb_printf(b, "- %s\n", json_string_value(n));
    }
}

/* The state mix of each cell, a small table beside the comparison. */
static void md_state_mix(struct rcuprof_sb *b, const rcuprof_table *t)
{
    size_t ti, k;

    rcuprof_sb_printf(b, "\nMachine state of the runs, from the cache-line "
                      "round trip sampled inside each window (f fast, "
                      "s slow, m mixed, ? unknown; the notes give the "
                      "split):\n\n| threads |");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(b, " %s |", t->variants[col_variant(t, k)]);
    rcuprof_sb_printf(b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(b, "--:|");
    rcuprof_sb_printf(b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        rcuprof_sb_printf(b, "| %u |", t->threads[ti]);
        for (k = 0; k < t->nvariants; k++) {
            char mix[64];

            rcuprof_cell_state_mix(&t->cells[ti * t->nvariants
                                             + col_variant(t, k)],
                                   mix, sizeof(mix));
            rcuprof_sb_printf(b, " %s |", mix);
        }
        rcuprof_sb_printf(b, "\n");
    }
}

/* Under a comparison: the state mix of its cells, or what --by-state
 * rows are. */
static void md_states(struct rcuprof_sb *b, const rcuprof_table *t)
{
    if (t->have_states && !t->by_state)
        md_state_mix(b, t);
    else if (t->by_state)
        rcuprof_sb_printf(b, "\nRows by machine state (--by-state): each "
                          "compares only the runs of that state, from the "
                          "cache-line round trip sampled inside the window "
                          "(the notes give the split).\n");
}

/* A row's first cell: its thread count (and state, --by-state), marked
 * when oversubscribed; 1 if it is. */
static int md_row_start(struct rcuprof_sb *b, const rcuprof_table *t,
                        size_t ti)
{
    int over = rcuprof_table_oversubscribed(t, ti);
    char label[48];

    rcuprof_table_row_label(t, ti, label, sizeof(label));
    rcuprof_sb_printf(b, "| %s%s |", label, over ? " [^os]" : "");
    return over;
}

/* What the compact table's legend must explain. */
struct md_marks {
    int unpaired, too_few, partial, nodecision, zero;
};

/* The footnote of a change from fewer common blocks than its cells'
 * runs (rcuprof_change.partial), in md-wide. */
static void md_partial_footnote(struct rcuprof_sb *b)
{
    rcuprof_sb_printf(b, "\n[^b]: From the common blocks only: the change "
                      "is the ratio of the two variants' geometric means "
                      "over the blocks where both have a run, while the "
                      "printed cells are the geometric means of all their "
                      "runs, so the two can differ, even in sign; the note "
                      "\"changes from the common blocks only\" gives the "
                      "means the change is computed from.\n");
}

/* Too few blocks for any interval (not an adaptive first stage, whose
 * interval over all blocks stands): md prints "-" for interval and MDE. */
static int few_blocks(const rcuprof_change *ch)
{
    return ch->too_few && !ch->two_stage && !ch->two_stage_na;
}

/* A change as the compact table prints it: "+4.7% [+2.1, +7.3] ✓", with
 * a word where the row cannot decide; the A/A cell (aa) has no mark. */
static void md_compact_change(struct rcuprof_sb *b, const rcuprof_table *t,
                              const rcuprof_change *ch, size_t n,
                              struct md_marks *m, int aa)
{
    if (!ch->have) {
        rcuprof_sb_printf(b, " (change n/a)");
        return;
    }
    rcuprof_sb_printf(b, " %+.1f%%", ch->change_pct);
    if (few_blocks(ch))         /* its interval decides nothing: none */
        rcuprof_sb_printf(b, " [-]");
    else if (isfinite(ch->lo_pct) && isfinite(ch->hi_pct))
        rcuprof_sb_printf(b, " [%+.1f, %+.1f]", ch->lo_pct, ch->hi_pct);
    if (!ch->paired) {
        rcuprof_sb_printf(b, " (unpaired)");
        m->unpaired = 1;
    }
    if (ch->partial) {
        rcuprof_sb_printf(b, " (common blocks)");
        m->partial = 1;
    }
    if (ch->two_stage_na && ch->n_stage1 >= 2) {
        rcuprof_sb_printf(b, " no decision");
        m->nodecision = 1;
    } else if (ch->too_few && (ch->two_stage || ch->two_stage_na)) {
        rcuprof_sb_printf(b, " too few (first stage n=%zu)", ch->n_stage1);
        m->too_few = 1;
    } else if (ch->too_few) {
        rcuprof_sb_printf(b, " too few (n=%zu)", ch->paired ? ch->n_pairs : n);
        m->too_few = 1;
    } else if (!aa && rcuprof_change_resolved(t, ch)) {
        rcuprof_sb_printf(b, " \u2713");
    }
}

/* The row's MDE: the largest over its changes against the baseline (the
 * smallest true change every column of the row detects), too few blocks
 * left out (their MDE is no figure), NAN if none. */
static double md_row_mde(const rcuprof_table *t, size_t ti)
{
    double worst = NAN;
    size_t v;

    for (v = 0; v < t->nvariants; v++) {
        const rcuprof_change *c = &t->changes[ti * t->nvariants + v];

        if (v != t->baseline && c->have && !few_blocks(c)
            && isfinite(c->mde_pct) && !(worst >= c->mde_pct))
            worst = c->mde_pct;
    }
    return worst;
}

/* 1 if a change of the row against the baseline has too few blocks. */
static int md_row_too_few(const rcuprof_table *t, size_t ti)
{
    size_t v;

    for (v = 0; v < t->nvariants; v++)
        if (v != t->baseline && t->changes[ti * t->nvariants + v].have
            && few_blocks(&t->changes[ti * t->nvariants + v]))
            return 1;
    return 0;
}

/* "2, 4 threads" (by state "2t fast, 4t slow"): the labels of the rows whose doubt has bit. */
static void md_rows_with(struct rcuprof_sb *b, const rcuprof_table *t,
                         int bit)
{
    size_t ti, k = 0;
    unsigned one = 0;
    char label[48];

    for (ti = 0; ti < t->nthreads; ti++)
        if (rcuprof_table_row_doubt(t, ti) & bit) {
            if (t->by_state)    /* "16t mixed" */
                snprintf(label, sizeof(label), "%ut %s", t->threads[ti],
                         rcuprof_table_row_state_name(t, ti));
            else
                rcuprof_table_row_label(t, ti, label, sizeof(label));
            rcuprof_sb_printf(b, "%s%s", k++ ? ", " : "", label);
            one = t->threads[ti];
        }
    if (!t->by_state)
        rcuprof_sb_printf(b, " thread%s", k == 1 && one == 1 ? "" : "s");
}

/* The one line under the table on the rows marked \u26a0: why each is
 * not to be trusted. */
static void md_doubt_line(struct rcuprof_sb *b, const rcuprof_table *t)
{
    int all = 0, n = 0;
    size_t ti;

    for (ti = 0; ti < t->nthreads; ti++)
        all |= rcuprof_table_row_doubt(t, ti);
    if (all == 0)
        return;
    rcuprof_sb_printf(b, "\n\u26a0 ");
    if (all & RCUPROF_ROW_OVERSUBSCRIBED) {
        rcuprof_sb_printf(b, "%sat ", n++ ? "; " : "");
        md_rows_with(b, t, RCUPROF_ROW_OVERSUBSCRIBED);
        rcuprof_sb_printf(b, ": more threads than the %u CPUs, so each op "
                          "also waits for a CPU: no finding there",
                          t->cpus_allowed);
    }
    if (all & RCUPROF_ROW_MIX) {
        rcuprof_sb_printf(b, "%sat ", n++ ? "; " : "");
        md_rows_with(b, t, RCUPROF_ROW_MIX);
        rcuprof_sb_printf(b, ": the columns ran in different machine-state "
                          "mixes (below; --by-state compares like with "
                          "like)");
    }
    if (all & RCUPROF_ROW_AA) {
        rcuprof_sb_printf(b, "%sat ", n++ ? "; " : "");
        md_rows_with(b, t, RCUPROF_ROW_AA);
        rcuprof_sb_printf(b, ": the A/A pair's interval excludes 0, so "
                          "this machine moved the same code; the row's "
                          "changes may be the machine's");
    }
    if (all & RCUPROF_ROW_AA_FLOOR) {
        rcuprof_sb_printf(b, "%sat ", n++ ? "; " : "");
        md_rows_with(b, t, RCUPROF_ROW_AA_FLOOR);
        rcuprof_sb_printf(b, ": a \u2713 change is smaller than the A/A "
                          "pair's interval reaches, so it is not "
                          "established here");
    }
    rcuprof_sb_printf(b, ".\n");
}

/* The state mix of the rows whose columns' mixes differ. */
static void md_mix_rows(struct rcuprof_sb *b, const rcuprof_table *t)
{
    size_t ti, k;
    int any = 0;

    for (ti = 0; ti < t->nthreads; ti++)
        any |= t->row_mix != NULL && t->row_mix[ti];
    if (!any)
        return;
    rcuprof_sb_printf(b, "\nMachine state of the runs where the mixes "
                      "differ (f fast, s slow, m mixed, ? unknown):\n\n"
                      "| threads |");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(b, " %s |", t->variants[col_variant(t, k)]);
    rcuprof_sb_printf(b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(b, "--:|");
    rcuprof_sb_printf(b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        if (!t->row_mix[ti])
            continue;
        rcuprof_sb_printf(b, "| %u |", t->threads[ti]);
        for (k = 0; k < t->nvariants; k++) {
            char mix[64];

            rcuprof_cell_state_mix(&t->cells[ti * t->nvariants
                                             + col_variant(t, k)],
                                   mix, sizeof(mix));
            rcuprof_sb_printf(b, " %s |", mix);
        }
        rcuprof_sb_printf(b, "\n");
    }
}

/* The compact table's legend, one line: the unit and what the cells are,
 * the sign, what \u2713 means, the MDE, and the words that appear. */
static void md_legend(struct rcuprof_sb *b, const rcuprof_table *t,
                      const struct md_marks *m)
{
    rcuprof_sb_printf(b, "\n%s ns/op (%s), geometric mean of ",
                      t->metric == RCUPROF_METRIC_CPU ? "CPU" : "Wall",
                      rcuprof_metric_name(t->metric));
    if (t->runs_min == t->runs_max)
        rcuprof_sb_printf(b, "%zu runs", t->runs_min);
    else
        rcuprof_sb_printf(b, "%zu to %zu runs", t->runs_min, t->runs_max);
    rcuprof_sb_printf(b, " a cell%s; change against %s in %% (negative = "
                      "faster), %.0f%% interval; \u2713 resolved (p "
                      "Holm-adjusted over %zu tests below %g); MDE: the "
                      "smallest true change every column of the row "
                      "detects (power %.0f%%)",
                      t->by_state ? ", rows by machine state (--by-state)"
                                  : "",
                      t->variants[t->baseline], 100 * t->level, t->ntests,
                      t->alpha, 100 * t->power);
    if (t->aa != NULL)
        rcuprof_sb_printf(b, "; A/A: %s against %s, the same code, so "
                          "its change is noise",
                          t->variants[t->aa_b], t->variants[t->aa_a]);
    if (t->lines != NULL)
        rcuprof_sb_printf(b, "; OpenSSL of each variant: %s", t->lines);
    if (m->too_few)
        rcuprof_sb_printf(b, "; too few: under %d blocks, decides nothing",
                          RCUPROF_CHANGE_MIN_N);
    if (m->nodecision)
        rcuprof_sb_printf(b, "; no decision: an adaptive first stage "
                          "without spread");
    if (m->unpaired)
        rcuprof_sb_printf(b, "; unpaired: no common blocks, Welch's t on "
                          "the logs");
    if (m->partial)
        rcuprof_sb_printf(b, "; common blocks: the change is over the "
                          "blocks both have, the cells over all runs");
    if (m->zero)
        rcuprof_sb_printf(b, "; has 0: a run of 0 ns/op, so the arithmetic "
                          "mean and no change");
    rcuprof_sb_printf(b, ". More: --notes, --format md-wide.\n");
}

static void md_notes(struct rcuprof_sb *b, const rcuprof_table *t)
{
    size_t k;
    json_t *n;

    if (json_array_size(t->notes) == 0)
        return;
    rcuprof_sb_printf(b, "\nNotes:\n\n");
    json_array_foreach(t->notes, k, n)
        rcuprof_sb_printf(b, "- %s\n", json_string_value(n));
}

char *rcuprof_table_markdown_notes(const rcuprof_table *t, int notes)
{
    struct rcuprof_sb b = { 0 };
    size_t ti, v, k;
    struct md_marks marks = { 0 };

    rcuprof_sb_printf(&b, "| threads |");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, " %s%s |", t->variants[col_variant(t, k)],
                          k == 0 ? " (baseline)" : "");
    if (t->aa != NULL)
        rcuprof_sb_printf(&b, " A/A %s vs %s |", t->variants[t->aa_b],
                          t->variants[t->aa_a]);
    rcuprof_sb_printf(&b, " MDE |\n|--:|");
    for (k = 0; k < t->nvariants + (t->aa != NULL) + 1; k++)
        rcuprof_sb_printf(&b, "--:|");
    rcuprof_sb_printf(&b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        char label[48];
        double mde = md_row_mde(t, ti);

        rcuprof_table_row_label(t, ti, label, sizeof(label));
        rcuprof_sb_printf(&b, "| %s%s |", label,
                          rcuprof_table_row_doubt(t, ti) ? " \u26a0" : "");
        for (k = 0; k < t->nvariants; k++) {
            const rcuprof_cell *c;

            v = col_variant(t, k);
            c = &t->cells[ti * t->nvariants + v];
            if (c->n == 0)
                rcuprof_sb_printf(&b, " n/a");
            else
                rcuprof_sb_printf(&b, " %.1f%s", c->geomean,
                                  c->n_nonpos > 0 ? " (has 0)" : "");
            marks.zero |= c->n > 0 && c->n_nonpos > 0;
            if (k > 0)
                md_compact_change(&b, t, &t->changes[ti * t->nvariants + v],
                                  c->n, &marks, 0);
            rcuprof_sb_printf(&b, " |");
        }
        if (t->aa != NULL) {
            md_compact_change(&b, t, &t->aa[ti],
                              t->cells[ti * t->nvariants + t->aa_b].n,
                              &marks, 1);
            rcuprof_sb_printf(&b, " |");
        }
        if (isfinite(mde))
            rcuprof_sb_printf(&b, " %.1f%% |\n", mde);
        else
            rcuprof_sb_printf(&b, " %s |\n",
                              md_row_too_few(t, ti) ? "-" : "n/a");
    }
    md_legend(&b, t, &marks);
    md_doubt_line(&b, t);
    if (!t->by_state)
        md_mix_rows(&b, t);
    if (notes)
        md_notes(&b, t);
    return rcuprof_sb_done(&b);
}

char *rcuprof_table_markdown(const rcuprof_table *t)
{
    return rcuprof_table_markdown_notes(t, 0);
}

/* One change's three wide columns: change with its interval, p (Holm's,
 * or the raw one of the A/A pair, aa), MDE; 1 if partial. */
static int md_wide_change(struct rcuprof_sb *b, const rcuprof_table *t,
                          const rcuprof_change *ch, size_t n, int aa)
{
    if (!ch->have) {
        rcuprof_sb_printf(b, " n/a | n/a | n/a |");
        return 0;
    }
    rcuprof_sb_printf(b, " %+.1f", ch->change_pct);
    if (few_blocks(ch))
        rcuprof_sb_printf(b, " [-]");
    else if (isfinite(ch->lo_pct) && isfinite(ch->hi_pct))
        rcuprof_sb_printf(b, " [%+.1f, %+.1f]", ch->lo_pct, ch->hi_pct);
    rcuprof_sb_printf(b, "%s%s | ", ch->paired ? "" : " (unpaired)",
                      ch->partial ? " [^b]" : "");
    if (ch->two_stage_na && ch->n_stage1 >= 2) {
        rcuprof_sb_printf(b, "no decision (first stage without spread)");
    } else if (ch->too_few && (ch->two_stage || ch->two_stage_na)) {
        rcuprof_sb_printf(b, "too few (first stage n=%zu)", ch->n_stage1);
    } else if (ch->too_few) {
        rcuprof_sb_printf(b, "too few (n=%zu)", ch->paired ? ch->n_pairs : n);
    } else {
        fmt_p(b, ch->p_holm);
        if (!aa && ch->p < t->alpha && !ch->resolved) {
            rcuprof_sb_printf(b, " (raw ");
            fmt_p(b, ch->p);
            rcuprof_sb_printf(b, ")");
        }
    }
    if (few_blocks(ch))
        rcuprof_sb_printf(b, " | - |");
    else if (isfinite(ch->mde_pct))
        rcuprof_sb_printf(b, " | %.1f%% |", ch->mde_pct);
    else
        rcuprof_sb_printf(b, " | n/a |");
    return ch->partial;
}

char *rcuprof_table_markdown_wide(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    const char *bl = t->variants[t->baseline];
    size_t ti, v, k, os = 0;
    int partial = 0;

    md_head(&b, t, "geometric mean with its interval, and geometric SD");
    rcuprof_sb_printf(&b, "| threads |");
    /* Columns: the baseline first, then every other variant in order. */
    for (k = 0; k < t->nvariants; k++) {
        v = col_variant(t, k);
        rcuprof_sb_printf(&b, " %s ns/op [95%% CI] | %s geo SD |",
                          t->variants[v], t->variants[v]);
    }
    for (k = 1; k < t->nvariants; k++) {
        v = k <= t->baseline ? k - 1 : k;
        if (t->nvariants > 2)
            rcuprof_sb_printf(&b, " %s change %% [95%% CI] | %s p (Holm) | %s MDE |",
                      t->variants[v], t->variants[v], t->variants[v]);
        else
            rcuprof_sb_printf(&b, " change %% [95%% CI] | p (Holm) | MDE |");
    }
    if (t->aa != NULL)
        rcuprof_sb_printf(&b, " A/A %s vs %s change %% [95%% CI] | A/A p "
                          "(raw) | A/A MDE |", t->variants[t->aa_b],
                          t->variants[t->aa_a]);
    rcuprof_sb_printf(&b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, "--:|--:|");
    for (k = 1; k < t->nvariants + (t->aa != NULL); k++)
        rcuprof_sb_printf(&b, "--:|--:|--:|");
    rcuprof_sb_printf(&b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        os += md_row_start(&b, t, ti);
        for (k = 0; k < t->nvariants; k++) {
            const rcuprof_cell *c;

            v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
            c = &t->cells[ti * t->nvariants + v];
            if (c->n == 0) {
                rcuprof_sb_printf(&b, " n/a | n/a |");
                continue;
            }
            rcuprof_sb_printf(&b, " %.1f%s", c->geomean,
                              c->n_nonpos > 0 ? " (has 0)" : "");
            if (isfinite(c->geomean_lo) && isfinite(c->geomean_hi))
                rcuprof_sb_printf(&b, " [%.1f, %.1f]", c->geomean_lo,
                                  c->geomean_hi);
            if (isfinite(c->gsd))
                rcuprof_sb_printf(&b, " | \u00d7%.2f |", c->gsd);
            else
                rcuprof_sb_printf(&b, " | n/a |");
        }
        for (k = 1; k < t->nvariants; k++) {
            v = k <= t->baseline ? k - 1 : k;
            partial |= md_wide_change(&b, t, &t->changes[ti * t->nvariants
                                                          + v],
                                      t->cells[ti * t->nvariants + v].n, 0);
        }
        if (t->aa != NULL)
            partial |= md_wide_change(&b, t, &t->aa[ti],
                                      t->cells[ti * t->nvariants
                                               + t->aa_b].n, 1);
        rcuprof_sb_printf(&b, "\n");
    }
    rcuprof_sb_printf(&b, "\nns/op: the geometric mean exp(m) of the runs "
                      "(m and s the mean and SD of their ln ns/op), the "
                      "scale of the change (a ratio of geometric means: "
                      "of these cells' when every block of both is "
                      "paired, else of the common blocks', [^b]), "
                      "with its 95%% interval exp(m \u00b1 t s/\u221an), "
                      "Student's t on the logs (CSV and JSON: geomean_ns, "
                      "geomean_lo_ns, geomean_hi_ns; also the arithmetic "
                      "mean, mean_ns, and the log-normal mean exp(m + "
                      "s\u00b2/2), centre_ns); geo SD: exp(s), the runs' "
                      "spread as a factor (one SD of ln ns/op either side "
                      "of the geometric mean is it divided or multiplied "
                      "by this; CSV gsd).  ");
    rcuprof_sb_printf(&b, "change %%: the variant's per-op cost relative to %s "
              "(negative = faster), the geometric mean of per-block ratios "
              "with its 95%% t interval (per row, unadjusted).  p: the "
              "paired t test on the same log ratios (the interval excludes "
              "zero exactly when its raw p is below 0.05), Holm-corrected "
              "over the table's %zu tests; \"(raw p)\" marks an interval "
              "that excludes zero while Holm does not reject; \"too few\": "
              "fewer than %d blocks, the row decides nothing.  "
              "MDE: the smallest change this noise and n detect "
              "(alpha 0.05, power 0.8, t quantiles): a true change "
              "smaller than it is often missed.\n",
              bl, t->ntests, RCUPROF_CHANGE_MIN_N);
    if (partial)
        md_partial_footnote(&b);
    md_states(&b, t);
    md_tail(&b, t, os);
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
    if (strcmp(r->confidence, "not testable") == 0)
        rcuprof_sb_printf(b, "; not testable: threads exceed the CPUs");
    else
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
    rcuprof_sb_printf(b, "Scaling of %s: %s per op in ns/op (%s), "
                      "geometric mean over ", s->variant,
                      s->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
                      rcuprof_metric_name(s->metric));
    if (nmin == nmax)
        rcuprof_sb_printf(b, "%zu runs", nmin);
    else
        rcuprof_sb_printf(b, "%zu to %zu runs", nmin, nmax);
    rcuprof_sb_printf(b, " per count, with its %.0f%% interval.\n\n",
                      100 * s->level);
    rcuprof_sb_printf(b, "| threads | runs | ns/op [interval] | M ops/s [interval] "
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
        md_iv(b, r->cost, r->lo, r->hi, 1, "%.1f");
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
                          "wholly above a higher count's; the confidence is "
                          "explain's test on the runs, and explain flags every "
                          "dip and the knees whose intervals are separated "
                          "(rcuprof explain RESULTS runs the experiments); "
                          "where threads exceed the CPUs none is testable.  "
                          "Intervals: Student's t on the logs, as compare.\n",
                          100 * s[0].min_step_eff);
    if (os)
        rcuprof_sb_printf(&b, "\n[^os]: More threads than the %u CPUs allowed: "
                          "threads wait for a CPU, so the per-op wall time "
                          "includes the wait.\n", t->cpus_allowed);
    if (!sections && json_array_size(t->notes) > 0) {
        json_t *note;

        rcuprof_sb_printf(&b, "\nNotes:\n\n");
        json_array_foreach(t->notes, i, note)
            rcuprof_sb_printf(&b, "- %s\n", json_string_value(note));
    }
    return rcuprof_sb_done(&b);
}
