/*
 * rcuprof explain, whatif at both counts of a step (issue 17 item 4;
 * docs/explain.md): the runs of one delay site, kept per cell in block
 * order by src/cli/explain.c, as whatif's observations, fitted at the
 * slow count and its reference, and the ratio of the two slopes paired by
 * block, which the rule `serialised_site` (explain_rules.c) reads.
 */
#define _GNU_SOURCE
#include "explain.h"
#include "whatif.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void rcuprof_explain_whatif_obs(const rcuprof_record *rec, unsigned block,
                                unsigned threads, double delay_ns,
                                rcuprof_whatif_obs *o)
{
    memset(o, 0, sizeof(*o));
    o->block = block;
    o->threads = threads;
    o->delay_ns = delay_ns;
    o->wall_ns_per_op = o->calls_per_op = o->delay_ns_per_call = NAN;
    o->own_ns_per_call = NAN;
    if (rec == NULL || !rec->ok)
        return;
    o->ok = 1;
    o->wall_ns_per_op = rec->wall_ns_per_op;
    o->oversubscribed = rec->oversubscribed;
    if (!rec->have_delay)
        return;
    o->calls_per_op = rec->delay_calls_per_op;
    o->delay_ns_per_call = rec->delay_ns_per_call;
    o->own_ns_per_call = rec->delay_own_ns_per_call;
    o->fixed_ns = rec->delay_fixed_ns > 0 ? rec->delay_fixed_ns : 0;
}

static void slope_from(const rcuprof_whatif_fit *f, rcuprof_explain_slope *s)
{
    s->threads = f->threads;
    s->blocks = f->nblocks;
    s->slope = f->slope;
    s->lo = f->lo;
    s->hi = f->hi;
}

int rcuprof_explain_whatif_fit(const char *site, const rcuprof_whatif_obs *obs,
                               size_t n, unsigned T, unsigned R,
                               int has_reference, const double *delays,
                               size_t nd, rcuprof_explain_whatif *out)
{
    rcuprof_whatif_fit ft, fr;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    memset(&ft, 0, sizeof(ft));
    memset(&fr, 0, sizeof(fr));
    snprintf(out->site, sizeof(out->site), "%s", site);
    snprintf(out->label, sizeof(out->label), "%s", site);
    out->has_reference = has_reference;
    out->t.threads = T;
    out->r.threads = R;
    out->t.slope = out->t.lo = out->t.hi = NAN;
    out->r.slope = out->r.lo = out->r.hi = NAN;
    out->ratio = out->lo = out->hi = NAN;
    out->paired_t = out->paired_r = NAN;
    out->ratio_rc = -1;
    if (rcuprof_whatif_fit_threads(obs, n, T, delays, nd,
                                   RCUPROF_EXPLAIN_LEVEL, &ft) != 0)
        goto done;
    slope_from(&ft, &out->t);
    if (has_reference) {
        if (rcuprof_whatif_fit_threads(obs, n, R, delays, nd,
                                       RCUPROF_EXPLAIN_LEVEL, &fr) != 0)
            goto done;
        slope_from(&fr, &out->r);
        out->ratio_rc = rcuprof_whatif_slope_ratio(&fr, &ft,
                                                   RCUPROF_EXPLAIN_LEVEL,
                                                   &out->ratio, &out->lo,
                                                   &out->hi, &out->paired,
                                                   &out->paired_r,
                                                   &out->paired_t);
    }
    rc = 0;
 done:
    rcuprof_whatif_fit_free(&ft);
    rcuprof_whatif_fit_free(&fr);
    return rc;
}
