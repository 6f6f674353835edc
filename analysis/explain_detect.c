/*
 * rcuprof explain, detection: dips and knees over a sweep's thread counts,
 * each with its intervals, a rank test and a confidence.  The scaling
 * arithmetic is the statistics core's (rcuprof_stats_dips, _knees).
 */
#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcuprof_stats.h"
#include "rcuprof_util.h"

struct count_runs {
    unsigned threads;
    double *x;
    size_t n, cap;
};

/* The interval of the median: distribution-free from 6 runs, else the
 * t interval of the mean on the logs widened to hold the median. */
void rcuprof_explain_count_interval(const double *x, size_t n, double level,
                                    rcuprof_explain_count *c)
{
    rcuprof_stats_summary s;
    double lo, hi;

    c->n = n;
    c->cost = c->lo = c->hi = c->coverage = NAN;
    c->interval = "none";
    if (n == 0 || rcuprof_stats_describe(x, n, level, &s) != RCUPROF_STATS_OK)
        return;
    c->cost = s.median;
    if (isfinite(s.median_lo) && isfinite(s.median_hi)) {
        c->lo = s.median_lo;
        c->hi = s.median_hi;
        c->coverage = s.median_coverage;
        c->interval = "median";
    } else if (n >= 2 && rcuprof_stats_mean_ci_log(x, n, level, &lo, &hi)
                         == RCUPROF_STATS_OK) {
        /* Student's t on the logs (the Cox interval of the mean): a cost
         * interval never goes below 0, however few and spread the runs */
        c->lo = fmin(lo, s.median);
        c->hi = fmax(hi, s.median);
        c->coverage = level;
        c->interval = "mean-t";
    }
}

static const char *confidence(const rcuprof_explain_finding *f)
{
    if (!f->separated)
        return "low";
    if (isfinite(f->p_holm) && f->p_holm < 0.05)
        return "high";
    return "medium";
}

static void rank_test(const struct count_runs *a, const struct count_runs *b,
                      rcuprof_explain_finding *f)
{
    rcuprof_stats_rank_test mw;

    f->p = f->effect = NAN;
    if (a->n >= 1 && b->n >= 1
        && rcuprof_stats_mann_whitney(a->x, a->n, b->x, b->n, &mw)
           == RCUPROF_STATS_OK) {
        f->p = mw.p;
        f->effect = mw.effect;
    }
}

static int add_finding(rcuprof_explain_detection *det,
                       const rcuprof_explain_finding *f)
{
    rcuprof_explain_finding *nf;

    nf = realloc(det->findings, (det->nfindings + 1) * sizeof(*nf));
    if (nf == NULL)
        return -1;
    det->findings = nf;
    det->findings[det->nfindings++] = *f;
    return 0;
}

static void fill_pair(rcuprof_explain_finding *f,
                      const rcuprof_explain_count *slow,
                      const rcuprof_explain_count *vs,
                      const struct count_runs *sr,
                      const struct count_runs *vr, double level)
{
    rcuprof_explain_iv iv;

    f->threads = slow->threads;
    f->vs = vs->threads;
    f->cost = slow->cost;
    f->lo = slow->lo;
    f->hi = slow->hi;
    f->vs_cost = vs->cost;
    f->vs_lo = vs->lo;
    f->vs_hi = vs->hi;
    /* The ratio every part of explain prints (issue 28): geometric means,
     * Welch's t on the logs; the medians above only find the step. */
    rcuprof_explain_gm_ratio(sr->x, sr->n, vr->x, vr->n, level, &iv);
    f->ratio = iv.ratio;
    f->ratio_lo = iv.lo;
    f->ratio_hi = iv.hi;
    f->separated = isfinite(slow->lo) && isfinite(vs->hi)
                   && (slow->lo > vs->hi || slow->hi < vs->lo);
}

/* Scratch of one detection: the runs per count and the arrays the scaling
 * helpers take (nu entries each). */
struct scratch {
    struct count_runs *cr;
    size_t nu;
    double *th, *c, *lo, *hi, *se;
    int *dv, *knee;
    size_t *idx;
};

static void scratch_free(struct scratch *w)
{
    size_t i;

    for (i = 0; w->cr != NULL && i < w->nu; i++)
        free(w->cr[i].x);
    free(w->cr);
    free(w->th);
    free(w->c);
    free(w->lo);
    free(w->hi);
    free(w->se);
    free(w->dv);
    free(w->knee);
    free(w->idx);
}

/* The counts, each with its runs and its interval.  0 or -1 (memory). */
static int detect_counts(const unsigned *threads, const double *cost,
                         size_t n, double level, struct scratch *w,
                         rcuprof_explain_detection *det)
{
    unsigned *uniq = malloc(n * sizeof(*uniq));
    size_t i, j, nu;

    if (uniq == NULL)
        return -1;
    memcpy(uniq, threads, n * sizeof(*uniq));
    nu = w->nu = rcuprof_sort_uniq_uint(uniq, n);
    w->cr = calloc(nu, sizeof(*w->cr));
    det->counts = calloc(nu, sizeof(*det->counts));
    w->th = calloc(nu, sizeof(*w->th));
    w->c = calloc(nu, sizeof(*w->c));
    w->lo = calloc(nu, sizeof(*w->lo));
    w->hi = calloc(nu, sizeof(*w->hi));
    w->se = calloc(nu, sizeof(*w->se));
    w->dv = calloc(nu, sizeof(*w->dv));
    w->knee = calloc(nu, sizeof(*w->knee));
    w->idx = calloc(nu, sizeof(*w->idx));
    if (w->cr == NULL || det->counts == NULL || w->th == NULL
        || w->c == NULL || w->lo == NULL || w->hi == NULL || w->se == NULL
        || w->dv == NULL || w->knee == NULL || w->idx == NULL) {
        free(uniq);
        return -1;
    }
    det->ncounts = nu;
    for (i = 0; i < nu; i++) {
        w->cr[i].threads = uniq[i];
        if ((w->cr[i].x = malloc(n * sizeof(double))) == NULL) {
            free(uniq);
            return -1;
        }
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < nu && w->cr[j].threads != threads[i]; j++)
            ;
        w->cr[j].x[w->cr[j].n++] = cost[i];
    }
    for (i = 0; i < nu; i++) {
        det->counts[i].threads = uniq[i];
        rcuprof_explain_count_interval(w->cr[i].x, w->cr[i].n, level,
                                       &det->counts[i]);
    }
    free(uniq);
    return 0;
}

/* Dips, over the counts that have an interval. */
static int detect_dips(struct scratch *w, rcuprof_explain_detection *det)
{
    size_t i, k, m = 0;

    for (i = 0; i < w->nu; i++) {
        if (!isfinite(det->counts[i].lo))
            continue;
        w->th[m] = det->counts[i].threads;
        w->c[m] = det->counts[i].cost;
        w->lo[m] = det->counts[i].lo;
        w->hi[m] = det->counts[i].hi;
        w->idx[m++] = i;
    }
    if (m < 2 || rcuprof_stats_dips(w->th, w->c, w->lo, w->hi, m, w->dv,
                                    NULL) != RCUPROF_STATS_OK)
        return 0;
    for (k = 0; k < m; k++) {
        rcuprof_explain_finding f;

        if (w->dv[k] < 0)
            continue;
        memset(&f, 0, sizeof(f));
        f.kind = RCUPROF_EXPLAIN_DIP;
        fill_pair(&f, &det->counts[w->idx[k]],
                  &det->counts[w->idx[w->dv[k]]], &w->cr[w->idx[k]],
                  &w->cr[w->idx[w->dv[k]]], det->level);
        f.step_eff = NAN;
        rank_test(&w->cr[w->idx[k]], &w->cr[w->idx[w->dv[k]]], &f);
        if (add_finding(det, &f) != 0)
            return -1;
    }
    return 0;
}

/* Knees, over every count (medians); the worst step marked. */
static int detect_knees(struct scratch *w, double min_step_eff,
                        rcuprof_explain_detection *det)
{
    double worst = INFINITY;
    size_t i, wi = 0, first = det->nfindings;

    for (i = 0; i < w->nu; i++) {
        w->th[i] = det->counts[i].threads;
        w->c[i] = det->counts[i].cost;
    }
    if (w->nu < 2 || rcuprof_stats_knees(w->th, w->c, w->nu, min_step_eff,
                                         NULL, w->se, w->knee, NULL)
                     != RCUPROF_STATS_OK)
        return 0;
    for (i = 1; i < w->nu; i++) {
        rcuprof_explain_finding f;

        if (!w->knee[i])
            continue;
        memset(&f, 0, sizeof(f));
        f.kind = RCUPROF_EXPLAIN_KNEE;
        fill_pair(&f, &det->counts[i], &det->counts[i - 1], &w->cr[i],
                  &w->cr[i - 1], det->level);
        f.step_eff = w->se[i];
        rank_test(&w->cr[i], &w->cr[i - 1], &f);
        if (w->se[i] < worst) {
            worst = w->se[i];
            wi = det->nfindings;
        }
        if (add_finding(det, &f) != 0)
            return -1;
    }
    if (det->nfindings > first)
        det->findings[wi].worst = 1;
    return 0;
}

/* Holm over the variant's findings, then each one's confidence. */
static int detect_confidence(rcuprof_explain_detection *det)
{
    double *pv;
    size_t i;

    if (det->nfindings == 0)
        return 0;
    if ((pv = malloc(det->nfindings * sizeof(*pv))) == NULL)
        return -1;
    for (i = 0; i < det->nfindings; i++)
        pv[i] = det->findings[i].p;
    if (rcuprof_stats_holm(pv, det->nfindings, pv) != RCUPROF_STATS_OK)
        for (i = 0; i < det->nfindings; i++)
            pv[i] = NAN;
    for (i = 0; i < det->nfindings; i++) {
        det->findings[i].p_holm = pv[i];
        det->findings[i].confidence = confidence(&det->findings[i]);
    }
    free(pv);
    return 0;
}

int rcuprof_explain_detect(const unsigned *threads, const double *cost,
                           size_t n, double level, double min_step_eff,
                           rcuprof_explain_detection *det)
{
    struct scratch w;
    size_t i;
    int rc = -1;

    memset(det, 0, sizeof(*det));
    memset(&w, 0, sizeof(w));
    det->level = level;
    det->min_step_eff = min_step_eff;
    if (threads == NULL || cost == NULL || !(level > 0 && level < 1)
        || !(min_step_eff > 0 && min_step_eff <= 1))
        return -1;
    for (i = 0; i < n; i++)
        if (!(cost[i] > 0) || !isfinite(cost[i]) || threads[i] == 0)
            return -1;
    if (n == 0)
        return 0;
    if (detect_counts(threads, cost, n, level, &w, det) == 0
        && detect_dips(&w, det) == 0
        && detect_knees(&w, min_step_eff, det) == 0
        && detect_confidence(det) == 0)
        rc = 0;
    scratch_free(&w);
    if (rc != 0)
        rcuprof_explain_detection_free(det);
    return rc;
}

void rcuprof_explain_detection_free(rcuprof_explain_detection *det)
{
    free(det->counts);
    free(det->findings);
    det->counts = NULL;
    det->findings = NULL;
    det->ncounts = det->nfindings = 0;
}

int rcuprof_explain_finding_flagged(const rcuprof_explain_finding *f)
{
    return f->kind == RCUPROF_EXPLAIN_DIP || f->separated;
}

int rcuprof_explain_detect_results(const rcuprof_results *rs, size_t vi,
                                   int metric, rcuprof_explain_detection *det)
{
    unsigned *th;
    double *x;
    size_t i, n = 0;
    int rc;

    th = malloc((rs->npoints + 1) * sizeof(*th));
    x = malloc((rs->npoints + 1) * sizeof(*x));
    if (th == NULL || x == NULL) {
        free(th);
        free(x);
        return -1;
    }
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];
        double v = metric == RCUPROF_METRIC_CPU ? p->result.cpu_ns_per_op
                                                : p->result.wall_ns_per_op;

        if (p->variant != vi || p->status != RCUPROF_POINT_OK
            || !(v > 0) || !isfinite(v))
            continue;
        th[n] = p->threads;
        x[n++] = v;
    }
    rc = rcuprof_explain_detect(th, x, n, RCUPROF_EXPLAIN_LEVEL,
                                RCUPROF_EXPLAIN_MIN_STEP_EFF, det);
    free(th);
    free(x);
    return rc;
}
