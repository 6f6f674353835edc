/*
 * The scaling report of one variant (scaling.h): geometric means and
 * intervals per thread count (the table's, as compare prints them), the
 * efficiencies, the knees and dips with explain's confidence, the USL fit.
 */
#include "scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcuprof_stats.h"

/* explain's finding of kind at threads, or NULL. */
static const rcuprof_explain_finding *explain_finding(const rcuprof_scaling *s,
                                                      int kind,
                                                      unsigned threads)
{
    size_t f;

    for (f = 0; f < s->det.nfindings; f++)
        if (s->det.findings[f].kind == kind
            && s->det.findings[f].threads == threads)
            return &s->det.findings[f];
    return NULL;
}

/* The stronger of two confidences ("high" > "medium" > "low"). */
static const char *stronger(const char *a, const char *b)
{
    static const char *const order[] = { "low", "medium", "high" };
    int ia = 0, ib = 0, i;

    if (a == NULL)
        return b;
    for (i = 0; i < 3; i++) {
        if (strcmp(a, order[i]) == 0)
            ia = i;
        if (strcmp(b, order[i]) == 0)
            ib = i;
    }
    return ia >= ib ? a : b;
}

/*
 * The knees and dips, from the rows' geometric means (what the table
 * shows): a knee where the step efficiency is below min_step_eff (the
 * worst: the lowest such step), a dip where a count's interval lies wholly
 * above a higher count's (against the one that costs least).  Each takes
 * the confidence of explain's finding of the same kind at the count
 * (explain tests on the runs; "low" when explain does not find it) and
 * whether explain flags it; a finding that involves a count above the
 * CPUs is "not testable": the wait for a CPU is in the cost.
 */
static void findings(rcuprof_scaling *s)
{
    size_t k, j, worst = s->nrows;

    for (k = 0; k < s->nrows; k++) {
        rcuprof_scaling_row *r = &s->rows[k];
        const rcuprof_explain_finding *x;
        int over = r->oversubscribed;
        size_t best = s->nrows;

        if (isfinite(r->eff_step) && r->eff_step < s->min_step_eff) {
            r->knee = 1;
            if (worst == s->nrows || r->eff_step < s->rows[worst].eff_step)
                worst = k;
            x = explain_finding(s, RCUPROF_EXPLAIN_KNEE, r->threads);
            r->confidence = stronger(r->confidence, x ? x->confidence : "low");
            r->flagged |= x != NULL && rcuprof_explain_finding_flagged(x);
        }
        for (j = k + 1; isfinite(r->lo) && j < s->nrows; j++)
            if (isfinite(s->rows[j].hi) && r->lo > s->rows[j].hi
                && (best == s->nrows || s->rows[j].hi < s->rows[best].hi))
                best = j;
        if (best < s->nrows) {
            r->dip = 1;
            r->dip_vs = s->rows[best].threads;
        }
        if (r->dip) {
            x = explain_finding(s, RCUPROF_EXPLAIN_DIP, r->threads);
            r->confidence = stronger(r->confidence, x ? x->confidence : "low");
            r->flagged |= x != NULL && rcuprof_explain_finding_flagged(x);
            over |= s->cpus_allowed > 0 && r->dip_vs > s->cpus_allowed;
        }
        if ((r->knee || r->dip) && over)
            r->confidence = "not testable";
    }
    if (worst < s->nrows)
        s->rows[worst].worst = 1;
}

int rcuprof_scaling_build(const rcuprof_results *rs, const rcuprof_table *t,
                          size_t v, rcuprof_scaling *s)
{
    const rcuprof_scaling_row *first = NULL, *prev = NULL;
    size_t ti;

    memset(s, 0, sizeof(*s));
    s->variant = t->variants[v];
    s->metric = t->metric;
    s->level = RCUPROF_EXPLAIN_LEVEL;
    s->min_step_eff = RCUPROF_EXPLAIN_MIN_STEP_EFF;
    s->cpus_allowed = t->cpus_allowed;
    s->rows = calloc(t->nthreads + 1, sizeof(*s->rows));
    if (s->rows == NULL
        || rcuprof_explain_detect_results(rs, v, t->metric, &s->det) != 0
        || rcuprof_table_usl(rs, t, v, &s->usl) != 0) {
        rcuprof_scaling_free(s);
        return -1;
    }
    /* Every count of the table, its cell's geometric mean and interval
     * (what compare prints); efficiencies against the first count with a
     * run and the count before. */
    for (ti = 0; ti < t->nthreads; ti++) {
        rcuprof_scaling_row *r = &s->rows[s->nrows++];
        const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];

        r->threads = t->threads[ti];
        r->failed = c->failed;
        r->oversubscribed = rcuprof_table_oversubscribed(t, ti);
        r->cost = r->lo = r->hi = r->eff_first = r->eff_step = NAN;
        r->tput = r->tput_lo = r->tput_hi = NAN;
        r->interval = "none";
        if (c->n == 0 || !(c->geomean > 0))
            continue;
        r->n = c->n;
        r->cost = c->geomean;
        r->lo = c->geomean_lo;
        r->hi = c->geomean_hi;
        r->interval = c->n_nonpos > 0 ? "none"
                      : isfinite(r->lo) && isfinite(r->hi) ? "geomean-t"
                                                           : "none";
        if (strcmp(r->interval, "none") == 0)
            r->lo = r->hi = NAN;
        r->tput = c->tput;
        r->tput_lo = c->tput_lo;
        r->tput_hi = c->tput_hi;
        if (first == NULL)
            first = r;
        r->eff_first = first->cost / r->cost;
        if (prev != NULL)
            r->eff_step = prev->cost / r->cost;
        prev = r;
    }
    findings(s);
    return 0;
}

void rcuprof_scaling_free(rcuprof_scaling *s)
{
    free(s->rows);
    rcuprof_explain_detection_free(&s->det);
    memset(s, 0, sizeof(*s));
}
