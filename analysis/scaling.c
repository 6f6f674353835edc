/*
 * The scaling report of one variant (scaling.h): medians and intervals
 * per thread count, the efficiencies, explain's findings, the USL fit.
 */
#include "scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcuprof_stats.h"

/* Throughput of the ok runs of (v, threads), as explain's counts. */
static void tput_at(const rcuprof_results *rs, size_t v, unsigned threads,
                    double level, double *buf, rcuprof_scaling_row *r)
{
    rcuprof_explain_count c;
    size_t i, n = 0;

    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant == v && p->threads == threads
            && p->status == RCUPROF_POINT_OK && p->result.ops_per_s > 0)
            buf[n++] = p->result.ops_per_s;
    }
    rcuprof_explain_count_interval(buf, n, level, &c);
    r->tput = c.cost;
    r->tput_lo = c.lo;
    r->tput_hi = c.hi;
}

/* The findings of the detection, onto their rows. */
static void mark_findings(rcuprof_scaling *s)
{
    size_t f, k;

    for (f = 0; f < s->det.nfindings; f++) {
        const rcuprof_explain_finding *x = &s->det.findings[f];

        for (k = 0; k < s->nrows && s->rows[k].threads != x->threads; k++)
            ;
        if (k == s->nrows)
            continue;
        if (x->kind == RCUPROF_EXPLAIN_DIP) {
            s->rows[k].dip = 1;
            s->rows[k].dip_vs = x->vs;
        } else {
            s->rows[k].knee = 1;
            s->rows[k].worst = x->worst;
        }
        s->rows[k].flagged |= rcuprof_explain_finding_flagged(x);
        /* The row shows the strongest of its findings' confidences. */
        if (s->rows[k].confidence == NULL
            || strcmp(x->confidence, "high") == 0
            || (strcmp(x->confidence, "medium") == 0
                && strcmp(s->rows[k].confidence, "low") == 0))
            s->rows[k].confidence = x->confidence;
    }
}

int rcuprof_scaling_build(const rcuprof_results *rs, const rcuprof_table *t,
                          size_t v, rcuprof_scaling *s)
{
    double *buf = malloc((rs->npoints + 1) * sizeof(*buf));
    const rcuprof_scaling_row *first = NULL, *prev = NULL;
    size_t ti, k;

    memset(s, 0, sizeof(*s));
    s->variant = t->variants[v];
    s->metric = t->metric;
    s->level = RCUPROF_EXPLAIN_LEVEL;
    s->min_step_eff = RCUPROF_EXPLAIN_MIN_STEP_EFF;
    s->cpus_allowed = t->cpus_allowed;
    s->rows = calloc(t->nthreads + 1, sizeof(*s->rows));
    if (buf == NULL || s->rows == NULL
        || rcuprof_explain_detect_results(rs, v, t->metric, &s->det) != 0
        || rcuprof_table_usl(rs, t, v, &s->usl) != 0) {
        free(buf);
        rcuprof_scaling_free(s);
        return -1;
    }
    /* Every count of the table; the detection has the ones with an ok
     * run.  Efficiencies against the first and the last count with one. */
    for (ti = 0; ti < t->nthreads; ti++) {
        rcuprof_scaling_row *r = &s->rows[s->nrows++];
        const rcuprof_explain_count *c = NULL;

        r->threads = t->threads[ti];
        r->failed = t->cells[ti * t->nvariants + v].failed;
        r->oversubscribed = rcuprof_table_oversubscribed(t, ti);
        r->cost = r->lo = r->hi = r->eff_first = r->eff_step = NAN;
        r->tput = r->tput_lo = r->tput_hi = NAN;
        r->interval = "none";
        for (k = 0; k < s->det.ncounts; k++)
            if (s->det.counts[k].threads == r->threads)
                c = &s->det.counts[k];
        if (c == NULL)
            continue;
        r->n = c->n;
        r->cost = c->cost;
        r->lo = c->lo;
        r->hi = c->hi;
        r->interval = c->interval;
        tput_at(rs, v, r->threads, s->level, buf, r);
        if (first == NULL)
            first = r;
        r->eff_first = first->cost / r->cost;
        if (prev != NULL)
            r->eff_step = prev->cost / r->cost;
        prev = r;
    }
    mark_findings(s);
    free(buf);
    return 0;
}

void rcuprof_scaling_free(rcuprof_scaling *s)
{
    free(s->rows);
    rcuprof_explain_detection_free(&s->det);
    memset(s, 0, sizeof(*s));
}
