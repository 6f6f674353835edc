/*
 * The comparison table of rcuprof compare and rcuprof report: per variant
 * and thread count the descriptives; per variant against the baseline the
 * change from paired blocks (per-block log ratios: the t interval and the
 * paired t test, one method; Wilcoxon signed-rank beside it), or unpaired
 * (Welch's t on the logs; Mann-Whitney beside it), Holm's correction over
 * the table
 * and the minimum detectable effect; the medians of the probe figures and
 * each variant's Universal Scalability Law fit.  The statistics are
 * rcuprof_stats's; this file pairs and tabulates.  The writers
 * (analysis/report/) format what it computed.
 */
#define _GNU_SOURCE
#include "rcuprof_util.h"
#include "results.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A cell in a note is VARIANT/Nt (rcu-sync/16t, stock@4.0/2t): '@' names
 * an OpenSSL line only.  Blocks are numbered from 1 in notes, as sweep's
 * progress counts them (JSON keeps the file's 0-based index).
 */

#define LEVEL 0.95
#define ALPHA 0.05
#define POWER 0.8
#define OUTLIER_Z 3.5
/* Outliers are flagged from this many runs of a cell: the modified
 * z-score divides by the median absolute deviation, which a few runs
 * estimate too roughly (normal spread alone flags some run in 28% of
 * cells of 3 runs, 21% of 5, 13% of 10, 10% of 20: tests/unit/analysis/
 * test_results.c test_outlier_rate prints it). */
#define OUTLIER_MIN_RUNS 10
#define USL_MIN_COUNTS 5
/* Two cells' state mixes differ when the shares of fast, slow and mixed
 * runs (of those with a known state) are this far apart in total
 * variation distance, half the sum of the absolute differences. */
#define STATE_MIX_DIFF 0.25
/* The t test and the rank test disagree when one p is below alpha and
 * the other above this many times alpha. */
#define DISAGREE_GAP 2.0
/* The heavy-tail check, the geometric mean against the median's
 * distribution-free 95% interval, can fire from 9 runs: at 6 to 8 that
 * interval is the runs' whole range, which always holds the geometric
 * mean, and under 6 there is none.  Cells of TAIL_SMALL_MIN runs up to
 * below that get the weaker sign instead: the geometric mean above every
 * run but the slowest. */
#define TAIL_CHECK_MIN 9
#define TAIL_SMALL_MIN 5

const char *rcuprof_metric_name(int metric)
{
    return metric == RCUPROF_METRIC_CPU ? "cpu_ns_per_op" : "wall_ns_per_op";
}

int rcuprof_metric_parse(const char *s)
{
    if (s != NULL && strcmp(s, "wall_ns_per_op") == 0)
        return RCUPROF_METRIC_WALL;
    if (s != NULL && strcmp(s, "cpu_ns_per_op") == 0)
        return RCUPROF_METRIC_CPU;
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Building                                                                */

static double metric_of(const rcuprof_point *p, int metric)
{
    return metric == RCUPROF_METRIC_CPU ? p->result.cpu_ns_per_op
                                     : p->result.wall_ns_per_op;
}

int rcuprof_table_oversubscribed(const rcuprof_table *t, size_t ti)
{
    return t->cpus_allowed > 0 && t->threads[ti] > t->cpus_allowed;
}

void rcuprof_change_resolved_rule(const rcuprof_table *t, char *buf, size_t n)
{
    snprintf(buf, n, "its p (the paired t test on the per-block log "
             "ratios, the test its %.0f%% interval comes from), "
             "Holm-adjusted over the table's %zu tests, is below %g",
             100 * t->level, t->ntests, t->alpha);
}

static void note(rcuprof_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A cell's name in notes: "variant/Nt" (and its state, --by-state:
 * "rcu-sync/16t mixed"). */
static const char *cell_name(const rcuprof_table *t, size_t v, size_t ti,
                             char *buf, size_t n)
{
    if (t->row_state != NULL && t->row_state[ti] >= 0)
        snprintf(buf, n, "%s/%ut %s", t->variants[v], t->threads[ti],
                 rcuprof_state_name(t->row_state[ti]));
    else
        snprintf(buf, n, "%s/%ut", t->variants[v], t->threads[ti]);
    return buf;
}

static void note(rcuprof_table *t, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) >= 0) {
        json_array_append_new(t->notes, json_string(s));
        free(s);
    }
    va_end(ap);
}

/* Points of (variant, row) that are ok, as indices into rs->points; a
 * row of one state takes that state's points only (a failed run's state
 * is unknown). */
static size_t gather(const rcuprof_results *rs, const rcuprof_table *t,
                     size_t v, size_t ti, size_t *idx, size_t *failed)
{
    size_t i, n = 0;

    *failed = 0;
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant != v || p->threads != t->threads[ti]
            || (t->row_state[ti] >= 0 && p->result.state != t->row_state[ti]))
            continue;
        if (p->status == RCUPROF_POINT_OK)
            idx[n++] = i;
        else
            (*failed)++;
    }
    return n;
}

/* Holm over one p column; with decide set, rows too few to decide are
 * left out of the family (their adjusted p is NAN). */
double rcuprof_results_target_mde(const rcuprof_results *rs, size_t file)
{
    const json_t *spec, *tg;

    if (rs == NULL || file >= rs->nfiles)
        return NAN;
    spec = json_object_get(rs->files[file].header, "spec");
    tg = json_object_get(spec, "target_mde_pct");
    return json_is_number(tg) ? json_number_value(tg) : NAN;
}

/* 1 when point p is in its sweep's first stage: every point of a sweep
 * that is not adaptive, the blocks below spec.reps of one that is. */
static int first_stage(const rcuprof_results *rs, const rcuprof_point *p)
{
    const json_t *spec;

    if (!isfinite(rcuprof_results_target_mde(rs, p->file)))
        return 1;
    spec = json_object_get(rs->files[p->file].header, "spec");
    return p->block < (unsigned)json_integer_value(json_object_get(spec,
                                                                   "reps"));
}

static void holm_column(rcuprof_table *t, size_t off_raw, size_t off_adj,
                        int decide, double *buf)
{
    size_t ti, v, m = 0;

    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++)
            if (v != t->baseline) {
                const rcuprof_change *c = &t->changes[ti * t->nvariants + v];

                buf[m++] = decide && c->too_few
                           ? NAN : *(const double *)((const char *)c + off_raw);
            }
    if (m == 0 || rcuprof_stats_holm(buf, m, buf) != RCUPROF_STATS_OK) {
        for (ti = 0; ti < m; ti++)
            buf[ti] = NAN;
    }
    m = 0;
    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++)
            if (v != t->baseline)
                *(double *)((char *)&t->changes[ti * t->nvariants + v]
                            + off_adj) = buf[m++];
}

/*
 * Median over the points idx[0..n) of a probe figure (0: retries per
 * acquisition, 1: slow-path fetches per 1k); NAN if none carries it.
 */
static double probe_median(const rcuprof_results *rs, const size_t *idx,
                           size_t n, int which, double *buf)
{
    size_t i, m = 0;
    double q;

    for (i = 0; i < n; i++) {
        const rcuprof_record *r = &rs->points[idx[i]].result;
        double x = which == 0 ? r->probe_retries : r->probe_slow;

        if (isfinite(x))
            buf[m++] = x;
    }
    if (m == 0 || rcuprof_stats_quantile(buf, m, 0.5, &q) != RCUPROF_STATS_OK)
        return NAN;
    return q;
}

/* The cell's first-stage spread of ln cost and its MDE against a like
 * cell (two-stage, unpaired on logs: sqrt 2 sd0). */
static void cell_stage1(const rcuprof_table *t, const rcuprof_results *rs,
                        rcuprof_cell *c, const size_t *idx, size_t n,
                        double *y)
{
    double m, v;
    size_t i, k = 0;

    c->n0 = 0;
    c->sd0_log = c->mde_pct = NAN;
    for (i = 0; i < n; i++) {
        double x = metric_of(&rs->points[idx[i]], t->metric);

        if (first_stage(rs, &rs->points[idx[i]]) && x > 0)
            y[k++] = log(x);
    }
    c->n0 = k;
    if (k < 2)
        return;
    for (i = 0, m = 0; i < k; i++)
        m += y[i] / (double)k;
    for (i = 0, v = 0; i < k; i++)
        v += (y[i] - m) * (y[i] - m) / (double)(k - 1);
    c->sd0_log = sqrt(v);
    if (rcuprof_stats_mde_two_stage(sqrt(2.0) * c->sd0_log, k, n, ALPHA,
                                    POWER, &c->mde_pct) != RCUPROF_STATS_OK)
        c->mde_pct = NAN;
}

/*
 * The log-normal mean of x[0..n): exp(m + v/2), m and v the mean and
 * variance (n - 1) of ln x, which is where the Cox interval of
 * rcuprof_stats_mean_ci_log is centred on the log scale; x[0] when n is
 * 1; the arithmetic mean when some x is not above 0.
 */
static double cell_lognormal_mean(const double *x, size_t n, double mean)
{
    double m = 0, v = 0;
    size_t i;

    if (n == 1)
        return x[0];
    for (i = 0; i < n; i++)
        if (!(x[i] > 0))
            return mean;
    for (i = 0; i < n; i++)
        m += log(x[i]) / (double)n;
    for (i = 0; i < n; i++)
        v += (log(x[i]) - m) * (log(x[i]) - m) / (double)(n - 1);
    return exp(m + v / 2);
}

/* Runs of x[0..n) above RCUPROF_STALL_FACTOR times the fast reference,
 * the ceil(n/4)-th fastest run; none when that is not above 0. */
static void cell_stalls(rcuprof_cell *c, const double *x, size_t n)
{
    if (rcuprof_stats_stalls(x, n, RCUPROF_STALL_FACTOR, &c->n_stalls,
                             &c->stall_ref) != RCUPROF_STATS_OK)
        c->n_stalls = 0;
}

static void cell_stats(rcuprof_table *t, const rcuprof_results *rs,
                       size_t ti, size_t v, const size_t *idx, size_t n,
                       double *x, double *y, struct rcuprof_sb *noisy,
                       struct rcuprof_sb *outl)
{
    rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
    rcuprof_stats_geo g;
    size_t i, k = 0;

    c->n = n;
    c->probe_retries = c->probe_slow = NAN;
    for (i = 0; i < n; i++) {
        int st = rs->points[idx[i]].result.state;

        c->states[st >= 0 && st < RCUPROF_STATE_COUNT ? st : 0]++;
        t->have_states |= st != RCUPROF_STATE_UNKNOWN;
    }
    if (n == 0)
        return;
    c->n_nonpos = 0;
    for (i = 0; i < n; i++) {
        x[i] = metric_of(&rs->points[idx[i]], t->metric);
        c->n_nonpos += !(x[i] > 0);
        if (rs->points[idx[i]].result.ops_per_s > 0
            && isfinite(rs->points[idx[i]].result.ops_per_s))
            y[k++] = rs->points[idx[i]].result.ops_per_s;
    }
    rcuprof_stats_describe(x, n, LEVEL, &c->s);
    /* The interval of a positive mean stays positive: on the logs (Cox);
     * NAN when some value is not above 0 or n < 2. */
    rcuprof_stats_mean_ci_log(x, n, LEVEL, &c->s.mean_lo, &c->s.mean_hi);
    c->lognormal_mean = cell_lognormal_mean(x, n, c->s.mean);
    c->geomean_lo = c->geomean_hi = c->gsd = NAN;
    if (rcuprof_stats_geomean(x, n, LEVEL, &g) == RCUPROF_STATS_OK) {
        c->geomean = g.gm;
        c->geomean_lo = g.lo;
        c->geomean_hi = g.hi;
        c->gsd = g.gsd;
    } else {
        c->geomean = c->s.mean;     /* some value not above 0 */
    }
    cell_stalls(c, x, n);
    /* Under TAIL_CHECK_MIN runs: is the geometric mean above every run
     * but the slowest (what one run far above the rest does)? */
    c->gm_above_rest = 0;
    if (n >= TAIL_SMALL_MIN && n < TAIL_CHECK_MIN && c->n_nonpos == 0) {
        double m1 = -INFINITY, m2 = -INFINITY;

        for (i = 0; i < n; i++) {
            if (x[i] > m1) {
                m2 = m1;
                m1 = x[i];
            } else if (x[i] > m2) {
                m2 = x[i];
            }
        }
        c->gm_above_rest = c->geomean > m2 * (1 + 1e-9);
    }
    /* Throughput as the cost: the geometric mean, its t interval on the
     * logs. */
    c->tput = c->tput_lo = c->tput_hi = NAN;
    if (k > 0 && rcuprof_stats_geomean(y, k, LEVEL, &g) == RCUPROF_STATS_OK) {
        c->tput = g.gm;
        c->tput_lo = g.lo;
        c->tput_hi = g.hi;
    }
    cell_stage1(t, rs, c, idx, n, y);
    c->probe_retries = probe_median(rs, idx, n, 0, y);
    c->probe_slow = probe_median(rs, idx, n, 1, y);
    t->have_retries |= isfinite(c->probe_retries);
    t->have_slow |= isfinite(c->probe_slow);
    t->have_probes = t->have_retries || t->have_slow;
    if (n >= 2) {
        c->noisy = rcuprof_stats_noisy(&c->s, RCUPROF_STATS_NOISY_CV) == 1;
        if (c->noisy) {
            char nm[96];

            rcuprof_sb_printf(noisy, "%s%s %.1f%%", noisy->len ? ", " : "",
                              cell_name(t, v, ti, nm, sizeof(nm)),
                              100 * c->s.cv);
        }
    }
    if (n >= OUTLIER_MIN_RUNS) {
        int *flags = calloc(n, sizeof(*flags));
        double *z = calloc(n, sizeof(*z));
        char nm[96];

        if (flags != NULL && z != NULL
            && rcuprof_stats_modified_z(x, n, OUTLIER_Z, flags, z,
                                        &c->n_outliers) == RCUPROF_STATS_OK) {
            for (i = 0; i < n; i++)
                if (flags[i] != 0)
                    rcuprof_sb_printf(outl, "%s%s block %u%s%.0zu (z %+.1f)",
                              outl->len ? ", " : "",
                              cell_name(t, v, ti, nm, sizeof(nm)),
                              rs->points[idx[i]].block + 1,
                              rs->nfiles > 1 ? " of file " : "",
                              rs->nfiles > 1 ? rs->points[idx[i]].file + 1
                                             : 0, z[i]);
        } else {
            c->n_outliers = 0;
        }
        free(flags);
        free(z);
    }
}

/* ln of every x into y; 0, or -1 when some x is not above 0. */
static int logs_of(const double *x, size_t n, double *y)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (!(x[i] > 0))
            return -1;
        y[i] = log(x[i]);
    }
    return 0;
}

/* Paired over common blocks: the t test on the log ratios (primary), the
 * signed-rank test on them (robustness); a and b hold the pairs. */
static void change_paired(rcuprof_table *t, rcuprof_change *ch,
                          const double *a, const double *b, size_t n)
{
    rcuprof_stats_paired pc;

    if (n < 2 || rcuprof_stats_paired_compare(a, b, n, LEVEL, NULL, &pc)
                 != RCUPROF_STATS_OK)
        return;
    ch->paired = 1;
    ch->have = 1;
    ch->change_pct = pc.change_pct;
    ch->lo_pct = pc.change_lo_pct;
    ch->hi_pct = pc.change_hi_pct;
    ch->sd_log = pc.sd_log;
    ch->p_wilcoxon = pc.wilcoxon.p;
    /* Every log ratio equal: no spread, the change is exact. */
    ch->p = isfinite(pc.t_p) ? pc.t_p : pc.mean_log != 0 ? 0.0 : 1.0;
    ch->too_few = n < RCUPROF_CHANGE_MIN_N;
    ch->p_min_attainable = rcuprof_stats_signrank_min_p(
        pc.wilcoxon.n_used > 0 ? pc.wilcoxon.n_used : n);
    if (rcuprof_stats_mde_paired_t(pc.sd_log, n, t->alpha, t->power,
                                   &ch->mde_pct) != RCUPROF_STATS_OK)
        ch->mde_pct = NAN;
}

/* An adaptive sweep's row: Stein's two-stage t on the log ratios, the
 * first n0 pairs the first stage (the sweep chose n from their spread). */
static void change_two_stage(rcuprof_table *t, rcuprof_change *ch,
                             const double *a, const double *b, size_t n,
                             size_t n0)
{
    rcuprof_stats_two_stage ts;
    double *lr;
    size_t i;

    /*
     * Blocks were added after the first stage, so the ordinary paired t
     * on all of them is the naive optional-stopping test (about 8% false
     * positives at a nominal 5%: docs/methodology.md section 3).  Stein's interval
     * needs a first stage of 2 or more pairs with a spread above zero;
     * without one the row decides nothing.
     */
    ch->two_stage_na = 1;
    ch->too_few = 1;
    if (n0 < 2 || (lr = malloc(n * sizeof(*lr))) == NULL)
        return;
    for (i = 0; i < n; i++)
        lr[i] = log(b[i] / a[i]);
    if (rcuprof_stats_two_stage_t(lr, n, n0, LEVEL, &ts) == RCUPROF_STATS_OK
        && ts.sd0 > 0) {
        ch->two_stage = 1;
        ch->two_stage_na = 0;
        ch->change_pct = 100 * expm1(ts.mean);
        ch->lo_pct = 100 * expm1(ts.lo);
        ch->hi_pct = 100 * expm1(ts.hi);
        ch->sd_log = ts.sd0;
        ch->p = isfinite(ts.p) ? ts.p : ts.mean != 0 ? 0.0 : 1.0;
        ch->too_few = n0 < RCUPROF_CHANGE_MIN_N;
        if (rcuprof_stats_mde_two_stage(ts.sd0, n0, n, t->alpha, t->power,
                                        &ch->mde_pct) != RCUPROF_STATS_OK)
            ch->mde_pct = NAN;
    }
    free(lr);
}

/* Unpaired: Welch's t on the logs (primary: ratio of geometric means),
 * Mann-Whitney (robustness) and Welch on the raw values; a = the
 * baseline's runs, b = v's; la, lb scratch of na, nb. */
static void change_unpaired(rcuprof_table *t, rcuprof_change *ch,
                            const double *a, size_t na, const double *b,
                            size_t nb, double *la, double *lb)
{
    rcuprof_stats_welch w;
    rcuprof_stats_rank_test mw;
    rcuprof_stats_summary sa, sb;

    if (na >= 1 && nb >= 1
        && rcuprof_stats_mann_whitney(b, nb, a, na, &mw) == RCUPROF_STATS_OK)
        ch->p_mw = mw.p;
    if (na >= 2 && nb >= 2
        && rcuprof_stats_welch_test(b, nb, a, na, LEVEL, &w)
           == RCUPROF_STATS_OK)
        ch->p_welch = w.p;
    if (ch->paired || na < 2 || nb < 2 || logs_of(a, na, la) != 0
        || logs_of(b, nb, lb) != 0)
        return;
    ch->have = 1;
    ch->too_few = na < RCUPROF_CHANGE_MIN_N || nb < RCUPROF_CHANGE_MIN_N;
    ch->p_min_attainable = rcuprof_stats_mw_min_p(na, nb);
    if (rcuprof_stats_welch_test(lb, nb, la, na, LEVEL, &w)
        == RCUPROF_STATS_OK) {
        ch->change_pct = 100 * expm1(w.diff);
        ch->lo_pct = 100 * expm1(w.lo);
        ch->hi_pct = 100 * expm1(w.hi);
        ch->p = w.p;
        if (rcuprof_stats_describe(la, na, LEVEL, &sa) != RCUPROF_STATS_OK
            || rcuprof_stats_describe(lb, nb, LEVEL, &sb) != RCUPROF_STATS_OK
            || rcuprof_stats_mde_unpaired_log(sa.sd, na, sb.sd, nb, t->alpha,
                                              t->power, &ch->mde_pct)
               != RCUPROF_STATS_OK)
            ch->mde_pct = NAN;
    } else {
        /* No spread on either side: the ratio is exact. */
        double ma, mb;
        size_t i;

        for (i = 0, ma = 0; i < na; i++)
            ma += la[i] / (double)na;
        for (i = 0, mb = 0; i < nb; i++)
            mb += lb[i] / (double)nb;
        ch->change_pct = ch->lo_pct = ch->hi_pct = 100 * expm1(mb - ma);
        ch->p = mb != ma ? 0.0 : 1.0;
        ch->mde_pct = 0.0;
    }
}

static void change_stats(rcuprof_table *t, const rcuprof_results *rs,
                         rcuprof_change *ch, const size_t *ia, size_t na,
                         const size_t *ib, size_t nb, double *a, double *b)
{
    size_t i, j, n = 0, n0 = 0;
    int pass;

    ch->change_pct = ch->lo_pct = ch->hi_pct = ch->sd_log = NAN;
    ch->p_wilcoxon = ch->p_welch = ch->p_mw = ch->p = ch->mde_pct = NAN;
    ch->p_min_attainable = NAN;
    /* Pairs: the baseline's and v's runs of the same block of a file,
     * the first stage's first (pass 0), then the adaptive blocks. */
    for (pass = 0; pass < 2; pass++) {
        for (j = 0; j < nb; j++) {
            const rcuprof_point *q = &rs->points[ib[j]];

            if (first_stage(rs, q) != (pass == 0))
                continue;
            for (i = 0; i < na; i++) {
                const rcuprof_point *p = &rs->points[ia[i]];

                if (p->file == q->file && p->block == q->block) {
                    a[n] = metric_of(p, t->metric);
                    b[n] = metric_of(q, t->metric);
                    n++;
                    break;
                }
            }
        }
        if (pass == 0)
            n0 = n;
    }
    ch->n_pairs = n;
    ch->n_stage1 = n0;
    change_paired(t, ch, a, b, n);
    if (ch->paired && n0 < n)
        change_two_stage(t, ch, a, b, n, n0);
    /* A paired change is the ratio of the two geometric means over the
     * common blocks only; when a cell has runs outside them (a block
     * where the other variant failed, was dropped as corrupt, or, by
     * state, ran in another state) those means differ from the printed
     * cells, and the change can even disagree with them in sign: kept
     * so that the writers print them and mark the change. */
    ch->pairs_base_gm = ch->pairs_gm = NAN;
    ch->partial = ch->paired && (n < na || n < nb);
    if (ch->paired) {
        rcuprof_stats_geo ga, gb;

        if (rcuprof_stats_geomean(a, n, LEVEL, &ga) == RCUPROF_STATS_OK
            && rcuprof_stats_geomean(b, n, LEVEL, &gb) == RCUPROF_STATS_OK) {
            ch->pairs_base_gm = ga.gm;
            ch->pairs_gm = gb.gm;
        }
    }
    for (i = 0; i < na; i++)
        a[i] = metric_of(&rs->points[ia[i]], t->metric);
    for (i = 0; i < nb; i++)
        b[i] = metric_of(&rs->points[ib[i]], t->metric);
    change_unpaired(t, ch, a, na, b, nb, a + na, b + nb);
}

int rcuprof_change_resolved(const rcuprof_table *t, const rcuprof_change *c)
{
    /* One method per row puts the interval clear of 0 whenever the raw
     * (so also the Holm) p is below alpha; it is checked all the same, so
     * that a mark can never contradict the interval printed beside it. */
    return t != NULL && c != NULL && c->have && !c->too_few
           && isfinite(c->p_holm) && c->p_holm < t->alpha
           && isfinite(c->lo_pct) && isfinite(c->hi_pct)
           && (c->lo_pct > 0 || c->hi_pct < 0);
}

static size_t n_tests(const rcuprof_table *t)
{
    size_t i, m = 0;

    for (i = 0; i < t->nthreads * t->nvariants; i++)
        if (i % t->nvariants != t->baseline && isfinite(t->changes[i].p)
            && !t->changes[i].too_few)
            m++;
    return m;
}

/* The scratch space of one build. */
struct build {
    size_t *ia, *ib;
    double *x, *y, *buf;
    struct rcuprof_sb noisy, outl, failed;
    size_t unpaired;
};

/* The variants and the baseline; -1 with err on bad input. */
static int table_start(rcuprof_table *t, const rcuprof_results *rs,
                       const char *baseline, int compare, char *err,
                       size_t errlen)
{
    size_t v;

    if (compare && rs->nvariants < 2) {
        snprintf(err, errlen, "the results hold %zu variant(s): a comparison needs two",
                 rs->nvariants);
        return -1;
    }
    t->nvariants = rs->nvariants;
    t->variants = (const char **)rs->variants;
    t->baseline = 0;
    if (baseline != NULL) {
        for (v = 0; v < rs->nvariants; v++)
            if (strcmp(rs->variants[v], baseline) == 0)
                break;
        if (v == rs->nvariants) {
            snprintf(err, errlen, "--baseline '%s' is not in the results: give one of their variants",
                     baseline);
            return -1;
        }
        t->baseline = v;
    }
    return 0;
}

/* The rows (thread counts, by_state: with each state that has runs) and
 * the CPUs (the fewest any ok run had). */
static int table_counts(rcuprof_table *t, const rcuprof_results *rs,
                        char *err, size_t errlen)
{
    size_t i, nok = 0;

    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];
        unsigned st = t->by_state ? (unsigned)p->result.state : 0;

        /* The sort key: thread count, then state. */
        t->threads[t->nthreads++] = p->threads * RCUPROF_STATE_COUNT + st;
        if (p->status == RCUPROF_POINT_OK) {
            nok++;
            if (p->result.cpus_allowed > 0
                && (t->cpus_allowed == 0
                    || p->result.cpus_allowed < t->cpus_allowed))
                t->cpus_allowed = p->result.cpus_allowed;
        }
    }
    if (nok == 0) {
        snprintf(err, errlen, "the results hold no successful run: run (or resume) the sweep");
        return -1;
    }
    t->nthreads = rcuprof_sort_uniq_uint(t->threads, t->nthreads);
    for (i = 0; i < t->nthreads; i++) {
        t->row_state[i] = t->by_state
                          ? (int)(t->threads[i] % RCUPROF_STATE_COUNT) : -1;
        t->threads[i] /= RCUPROF_STATE_COUNT;
    }
    return 0;
}

/* Every cell, and (compare) every change against the baseline. */
static void table_cells(rcuprof_table *t, const rcuprof_results *rs,
                        int compare, struct build *b)
{
    size_t ti, v;

    for (ti = 0; ti < t->nthreads; ti++) {
        size_t na, nb, fa;

        for (v = 0; v < t->nvariants; v++) {
            size_t nf, n = gather(rs, t, v, ti, b->ia, &nf);
            char nm[96];

            t->cells[ti * t->nvariants + v].failed = nf;
            if (nf > 0)
                rcuprof_sb_printf(&b->failed, "%s%s x%zu",
                                  b->failed.len ? ", " : "",
                                  cell_name(t, v, ti, nm, sizeof(nm)), nf);
            cell_stats(t, rs, ti, v, b->ia, n, b->x, b->y, &b->noisy,
                       &b->outl);
        }
        if (!compare)
            continue;
        na = gather(rs, t, t->baseline, ti, b->ia, &fa);
        for (v = 0; v < t->nvariants; v++) {
            if (v == t->baseline)
                continue;
            nb = gather(rs, t, v, ti, b->ib, &fa);
            change_stats(t, rs, &t->changes[ti * t->nvariants + v], b->ia,
                         na, b->ib, nb, b->x, b->y);
            if (t->changes[ti * t->nvariants + v].have
                && !t->changes[ti * t->nvariants + v].paired)
                b->unpaired++;
        }
    }
}

/* Holm over the table's tests, per test; the counts the writers show. */
static void table_tests(rcuprof_table *t, struct build *b)
{
    size_t i;

    holm_column(t, offsetof(rcuprof_change, p_wilcoxon),
                offsetof(rcuprof_change, p_wilcoxon_holm), 0, b->buf);
    holm_column(t, offsetof(rcuprof_change, p_welch),
                offsetof(rcuprof_change, p_welch_holm), 0, b->buf);
    holm_column(t, offsetof(rcuprof_change, p_mw),
                offsetof(rcuprof_change, p_mw_holm), 0, b->buf);
    holm_column(t, offsetof(rcuprof_change, p),
                offsetof(rcuprof_change, p_holm), 1, b->buf);
    t->ntests = n_tests(t);
    for (i = 0; i < t->nthreads * t->nvariants; i++)
        t->n_two_stage += t->changes[i].two_stage;
    for (i = 0; i < t->nthreads * t->nvariants; i++)
        t->changes[i].resolved = rcuprof_change_resolved(t, &t->changes[i]);
    t->runs_min = (size_t)-1;
    for (i = 0; i < t->nthreads * t->nvariants; i++) {
        if (t->cells[i].n < t->runs_min)
            t->runs_min = t->cells[i].n;
        if (t->cells[i].n > t->runs_max)
            t->runs_max = t->cells[i].n;
    }
}

/*
 * 1 when the row's t test and the rank test on the same data (Wilcoxon
 * signed-rank on the per-block log ratios when paired, Mann-Whitney on
 * the runs unpaired) clearly disagree, raw p against raw p: one below
 * alpha and the other above DISAGREE_GAP times alpha (0.048 against
 * 0.052 is one answer on either side of a line, not a disagreement), at
 * an n where the rank test can reject at all (its smallest attainable p
 * below alpha: from 6 blocks for Wilcoxon).  An adaptive row is never
 * compared: its p is Stein's two-stage t, whose spread is the first
 * stage's alone, and no rank test matches it (Wilcoxon over every block
 * tests other data with another spread).
 */
static int tests_disagree(const rcuprof_table *t, const rcuprof_change *c)
{
    double rank = c->paired ? c->p_wilcoxon : c->p_mw;

    if (!c->have || c->two_stage || c->two_stage_na || !isfinite(c->p)
        || !isfinite(rank) || !(c->p_min_attainable < t->alpha))
        return 0;
    return (c->p < t->alpha && rank > DISAGREE_GAP * t->alpha)
           || (rank < t->alpha && c->p > DISAGREE_GAP * t->alpha);
}

/* Rows a reader could misread: too few runs to decide, intervals that
 * exclude zero while Holm's p does not reject, and rows whose t test and
 * rank test disagree. */
static void table_notes_rows(rcuprof_table *t)
{
    struct rcuprof_sb few = { 0 }, holm = { 0 }, stage = { 0 },
                      disagree = { 0 }, part = { 0 };
    size_t ti, v;

    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_change *c = &t->changes[ti * t->nvariants + v];
            char nm[96];

            if (v == t->baseline || !c->have)
                continue;
            cell_name(t, v, ti, nm, sizeof(nm));
            if (c->partial)
                rcuprof_sb_printf(&part, "%s%s %zu blocks (cells of %zu and "
                                  "%zu runs): %s %.1f, %s %.1f, %+.1f%%",
                                  part.len ? "; " : "", nm, c->n_pairs,
                                  t->cells[ti * t->nvariants + t->baseline].n,
                                  t->cells[ti * t->nvariants + v].n,
                                  t->variants[t->baseline], c->pairs_base_gm,
                                  t->variants[v], c->pairs_gm,
                                  c->change_pct);
            if (c->two_stage_na)
                rcuprof_sb_printf(&stage, "%s%s (first stage %zu pairs of "
                                  "%zu)", stage.len ? ", " : "", nm,
                                  c->n_stage1, c->n_pairs);
            else if (c->too_few && c->two_stage)
                rcuprof_sb_printf(&few, "%s%s (first stage n = %zu)",
                                  few.len ? ", " : "", nm, c->n_stage1);
            else if (c->too_few)
                rcuprof_sb_printf(&few, "%s%s (n = %zu)",
                                  few.len ? ", " : "", nm, c->paired ? c->n_pairs
                                  : t->cells[ti * t->nvariants + v].n);
            else if (c->p < t->alpha && !c->resolved)
                rcuprof_sb_printf(&holm, "%s%s (p %.3g, Holm %.3g)",
                                  holm.len ? ", " : "", nm, c->p, c->p_holm);
            if (!c->too_few && tests_disagree(t, c))
                rcuprof_sb_printf(&disagree, "%s%s (%s p %.3g, %s p %.3g)",
                                  disagree.len ? ", " : "", nm,
                                  c->paired ? "paired t" : "Welch t",
                                  c->p, c->paired ? "Wilcoxon signed-rank"
                                                  : "Mann-Whitney",
                                  c->paired ? c->p_wilcoxon : c->p_mw);
        }
    if (few.len > 0)
        note(t, "too few runs to decide (fewer than %d blocks, or runs a side unpaired; rerun with more --reps or --target-mde): %s",
             RCUPROF_CHANGE_MIN_N, few.p);
    if (holm.len > 0)
        note(t, "interval excludes zero but not significant after Holm's correction over %zu tests (the intervals are per row, unadjusted; the decision uses Holm): %s",
             t->ntests, holm.p);
    if (stage.len > 0)
        note(t, "adaptive rows that decide nothing: their first stage has under 2 pairs or no spread (every ratio equal), so Stein's two-stage interval does not apply, and the paired t over the added blocks would be the naive optional-stopping test (the figures shown are that test's, for reading only): %s",
             stage.p);
    if (disagree.len > 0)
        note(t, "tests disagree (one p below %g, the other above %g): the row's t test on the logs (which decides; paired t on the per-block log ratios, Welch t on the runs' logs when unpaired) against the rank test on the same data (Wilcoxon signed-rank on the same log ratios; Mann-Whitney on the same runs), at an n where the rank test can reject (adaptive rows, whose p is Stein's two-stage t, are not compared); such a row may have a few blocks far out, or a skew the t test's normal logs do not fit: read its per-block ratios before trusting it: %s",
             t->alpha, DISAGREE_GAP * t->alpha, disagree.p);
    if (part.len > 0)
        note(t, "changes from the common blocks only ([^b] in md): a paired change is the ratio of the two variants' geometric means over the blocks where both have a run, and these rows' cells also hold runs outside those blocks (a failed or corrupt run, or with --by-state a run of another state), so the printed cells, each the geometric mean of all its runs, can give another ratio, even of the other sign; over the common blocks: %s",
             part.p);
    free(few.p);
    free(holm.p);
    free(stage.p);
    free(disagree.p);
    free(part.p);
}

/*
 * Cells whose printed centre, the geometric mean, lies outside the
 * distribution-free 95% interval of their median (from TAIL_CHECK_MIN,
 * 9, runs: below, that interval is the whole range or none, and holds
 * the geometric mean whatever the runs): a few runs far from the rest
 * pull the geometric mean away from the typical run (log-normal runs
 * alone do it in under 0.1% of cells: the two estimate the same point;
 * test_stats_desc test_heavy_tail_rate); cells of 5 to 8 runs whose
 * geometric mean lies above every run but the slowest, the sign one far
 * run leaves where the check cannot run (plain log-normal spread does it
 * too: test_results test_heavy_tail_small prints how often); and cells with stalls, runs above
 * RCUPROF_STALL_FACTOR times the cell's fast reference (the ceil(n/4)-th
 * fastest run), so that a reader sees a tail and not only a wide
 * interval.
 */
static void table_notes_tails(rcuprof_table *t)
{
    struct rcuprof_sb out = { 0 }, st = { 0 }, small = { 0 }, zero = { 0 };
    size_t ti, v;

    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            char nm[96];

            cell_name(t, v, ti, nm, sizeof(nm));
            if (c->n_stalls > 0)
                rcuprof_sb_printf(&st, "%s%s %zu of %zu (reference %.1f)",
                                  st.len ? ", " : "", nm, c->n_stalls, c->n,
                                  c->stall_ref);
            if (c->n_nonpos > 0)
                rcuprof_sb_printf(&zero, "%s%s (%zu of %zu runs)",
                                  zero.len ? ", " : "", nm, c->n_nonpos,
                                  c->n);
            if (c->gm_above_rest)
                rcuprof_sb_printf(&small, "%s%s (geometric mean %.1f, "
                                  "median %.1f, %zu runs)",
                                  small.len ? ", " : "", nm, c->geomean,
                                  c->s.median, c->n);
            /* exp(mean ln x) of equal values can differ from them in the
             * last bit: a relative 1e-9 is inside. */
            if (c->n == 0 || c->n_nonpos > 0 || !isfinite(c->s.median_lo)
                || !isfinite(c->s.median_hi)
                || (c->geomean >= c->s.median_lo * (1 - 1e-9)
                    && c->geomean <= c->s.median_hi * (1 + 1e-9)))
                continue;
            rcuprof_sb_printf(&out, "%s%s (geometric mean %.1f, median "
                              "%.1f [%.1f, %.1f])", out.len ? ", " : "", nm,
                              c->geomean, c->s.median, c->s.median_lo,
                              c->s.median_hi);
        }
    if (st.len > 0)
        note(t, "stalls (runs above %.0fx their cell's reference, its ceil(n/4)-th fastest run, so a cell where most runs stall still counts them; the rule ignores the cell's spread: log-normal spread of log SD 0.8 alone gives such a run in under 2.5%% of cells of 2 to 40 runs, more in larger or wider cells, and at 4 runs or fewer the reference is the fastest run, so one abnormally fast run makes the others stalls; kept in the figures): %s",
             RCUPROF_STALL_FACTOR, st.p);
    if (out.len > 0)
        note(t, "heavy tail: the printed figure, the geometric mean, lies outside the %.0f%% interval of the cell's median (distribution-free, checked from %d runs), so a few runs far from the rest pull it away from the typical run; the median is the figure to read for the cell (CSV median_ns; the scaling report, scaling.md, prints medians, while these tables print geometric means), but the row's change is still a ratio of geometric means, not of medians: %s",
             100 * t->level, TAIL_CHECK_MIN, out.p);
    if (small.len > 0)
        note(t, "heavy tail not checked: the check needs %d runs (below that the median's distribution-free interval is the whole range, or none, and holds the geometric mean whatever the runs); in these cells of %d to %d runs the geometric mean lies above every run but the slowest, as one run far above the rest puts it, though plain spread does it too at these sizes; compare it with the median (and the change, a ratio of geometric means, with the runs): %s",
             TAIL_CHECK_MIN, TAIL_SMALL_MIN, TAIL_CHECK_MIN - 1, small.p);
    if (zero.len > 0)
        note(t, "cells with a run of 0 ns/op (has 0: a run whose %s per op was recorded as 0): a geometric mean needs every run above 0, so the figure printed for them is the arithmetic mean of their runs, without interval or spread, and a change against them is n/a (the CSV and JSON keep the median): %s",
             t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "time",
             zero.p);
    free(out.p);
    free(st.p);
    free(small.p);
    free(zero.p);
}

/*
 * Variants of more than one OpenSSL (lines, or versions of a line): each
 * variant's version and line, from its first ok run, so a cross-line table
 * names what every column measured.
 */
static void table_note_lines(rcuprof_table *t, const rcuprof_results *rs)
{
    struct rcuprof_sb s = { 0 };
    const char *first = NULL;
    int differ = 0;
    size_t v, i;

    for (v = 0; v < rs->nvariants; v++) {
        const rcuprof_record *r = NULL;

        for (i = 0; i < rs->npoints && r == NULL; i++)
            if (rs->points[i].variant == v && rs->points[i].result.ok
                && rs->points[i].result.openssl_version[0] != '\0')
                r = &rs->points[i].result;
        if (r == NULL)
            continue;
        if (first == NULL)
            first = r->openssl_version;
        else if (strcmp(first, r->openssl_version) != 0)
            differ = 1;
        rcuprof_sb_printf(&s, "%s%s %s (line %s)", s.len > 0 ? ", " : "",
                          rs->variants[v], r->openssl_version,
                          r->line[0] != '\0' ? r->line : "unknown");
    }
    if (differ && s.p != NULL) {
        note(t, "OpenSSL of each variant: %s", s.p);
        t->lines = s.p;
    } else {
        free(s.p);
    }
}

/* Notes: what a reader must know before trusting a row. */
static void table_notes(rcuprof_table *t, const rcuprof_results *rs,
                        struct build *b)
{
    size_t i;

    for (i = 0; i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i];

        if (f->n_corrupt > 0)
            note(t, "%s: %zu corrupt line(s) skipped, the first at line %zu",
                 f->path, f->n_corrupt, f->first_corrupt);
        if (f->torn)
            note(t, "%s: torn last line ignored (an interrupted sweep: --resume completes it)",
                 f->path);
    }
    for (i = 1; i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i], *f0 = &rs->files[0];
        json_t *o0 = json_object_get(json_object_get(f0->header, "spec"),
                                     "options");
        json_t *o = json_object_get(json_object_get(f->header, "spec"),
                                    "options");

        if (f->host != NULL && f0->host != NULL
            && (strcmp(f->host, f0->host) != 0
                || strcmp(f->kernel, f0->kernel) != 0))
            note(t, "different environments: %s ran on %s (kernel %s), %s on %s (kernel %s)",
                 f0->path, f0->host, f0->kernel, f->path, f->host, f->kernel);
        if (!json_equal(o0, o))
            note(t, "different driver options: %s and %s were swept with other run options",
                 f0->path, f->path);
    }
    table_note_lines(t, rs);
    if (b->failed.len > 0)
        note(t, "failed runs, left out: %s", b->failed.p);
    if (b->noisy.len > 0)
        note(t, "noisy (CV above %.0f%%; true changes below the MDE are often missed): %s",
             100 * RCUPROF_STATS_NOISY_CV, b->noisy.p);
    if (b->outl.len > 0)
        note(t, "outliers (modified z-score beyond %.1f, flagged in cells of %d runs or more; kept in the figures): %s",
             OUTLIER_Z, OUTLIER_MIN_RUNS, b->outl.p);
    table_notes_rows(t);
    table_notes_tails(t);
    for (i = 0; i < rs->nfiles && !isfinite(t->target_mde_pct); i++)
        t->target_mde_pct = rcuprof_results_target_mde(rs, i);
    if (isfinite(t->target_mde_pct))
        note(t, "adaptive sweep (target MDE %.3g%%): blocks were added after the first stage until every MDE reached the target or the time ran out; %zu row(s) use Stein's two-stage t (the spread of the first-stage blocks only), which stays valid whatever number of blocks that spread chose (docs/methodology.md); no rank test matches that p (the Wilcoxon column ranks every block), so these rows get no \"tests disagree\" check",
             t->target_mde_pct, t->n_two_stage);
    if (b->unpaired > 0)
        note(t, "%zu row(s) have no common blocks: change from the geometric means with Welch's t on the logs (interval and p)",
             b->unpaired);
}

void rcuprof_table_row_label(const rcuprof_table *t, size_t ti, char *buf,
                             size_t n)
{
    if (t->row_state != NULL && t->row_state[ti] >= 0)
        snprintf(buf, n, "%u %s", t->threads[ti],
                 rcuprof_state_name(t->row_state[ti]));
    else
        snprintf(buf, n, "%u", t->threads[ti]);
}

const char *rcuprof_table_row_state_name(const rcuprof_table *t, size_t ti)
{
    return t->row_state != NULL && t->row_state[ti] >= 0
           ? rcuprof_state_name(t->row_state[ti]) : "all";
}

void rcuprof_cell_state_mix(const rcuprof_cell *c, char *buf, size_t n)
{
    static const int order[] = { RCUPROF_STATE_FAST, RCUPROF_STATE_SLOW,
                                 RCUPROF_STATE_MIXED, RCUPROF_STATE_UNKNOWN };
    static const char letter[RCUPROF_STATE_COUNT] = { '?', 'f', 's', 'm' };
    size_t k, len = 0;

    buf[0] = '\0';
    for (k = 0; k < 4 && len < n; k++)
        if (c->states[order[k]] > 0)
            len += (size_t)snprintf(buf + len, n - len, "%s%zu%c",
                                    len ? " " : "", c->states[order[k]],
                                    letter[order[k]]);
    if (buf[0] == '\0')
        snprintf(buf, n, "-");
}

/* Total variation distance between two cells' known-state mixes; NAN
 * when either has no run of a known state. */
static double mix_distance(const rcuprof_cell *a, const rcuprof_cell *b)
{
    double na = 0, nb = 0, d = 0;
    int s;

    for (s = 1; s < RCUPROF_STATE_COUNT; s++) {
        na += a->states[s];
        nb += b->states[s];
    }
    if (na == 0 || nb == 0)
        return NAN;
    for (s = 1; s < RCUPROF_STATE_COUNT; s++)
        d += fabs(a->states[s] / na - b->states[s] / nb);
    return d / 2;
}

/* Notes on the machine state: each file's split and the sampler's cost;
 * rows where a variant's runs ran in another mix than the baseline's. */
static void table_state_notes(rcuprof_table *t, const rcuprof_results *rs,
                              int compare)
{
    struct rcuprof_sb mix = { 0 };
    size_t i, ti, v, sampled = 0;

    /* Results that all predate the sampler get no note (their CSV and
     * JSON say unknown), unless the rows are by state. */
    for (i = 0; i < rs->nfiles; i++)
        sampled += rs->files[i].state.n + rs->files[i].state.n_stalled > 0;
    for (i = 0; i < rs->nfiles && (sampled > 0 || t->by_state); i++) {
        const rcuprof_state_split *sp = &rs->files[i].state;
        double cost = 0;
        char costs[96];
        size_t k, nc = 0;

        for (k = 0; k < rs->npoints; k++)
            if (rs->points[k].file == i
                && isfinite(rs->points[k].result.rtt_cost_share)) {
                cost += rs->points[k].result.rtt_cost_share;
                nc++;
            }
        if (nc > 0)
            snprintf(costs, sizeof(costs), "the sampler took %.2f%% of the "
                     "window's time on its two CPUs on average", 100 * cost / nc);
        else
            snprintf(costs, sizeof(costs), "the sampler's cost was not "
                     "recorded");
        if (sp->n == 0 && sp->n_stalled == 0)
            note(t, "machine state unknown%s%s: no round trip sampled inside the window (results written before the sampler, or --rtt off)",
                 rs->nfiles > 1 ? " in " : "",
                 rs->nfiles > 1 ? rs->files[i].path : "");
        else if (sp->too_few && sp->n_stalled == 0)
            note(t, "machine state unknown%s%s: only %zu round-trip samples inside the windows, under the %d a split into fast and slow needs (Otsu's cut splits a few samples of one state by chance: docs/methodology.md); %s",
                 rs->nfiles > 1 ? " in " : "",
                 rs->nfiles > 1 ? rs->files[i].path : "", sp->n,
                 RCUPROF_STATE_MIN_SAMPLES, costs);
        else if (sp->too_few)
            note(t, "machine state%s%s: only %zu round-trip samples inside the windows, under the %d a split into fast and slow needs (docs/methodology.md), and %zu that stalled (null samples, the slow state itself): a run whose every sample stalled is slow, every other run unknown; %s",
                 rs->nfiles > 1 ? " in " : "",
                 rs->nfiles > 1 ? rs->files[i].path : "", sp->n,
                 RCUPROF_STATE_MIN_SAMPLES, sp->n_stalled, costs);
        else if (!sp->two)
            note(t, "machine state%s%s: one cluster over %zu round-trip samples (median %.0f ns): every run fast unless a burst stalled (a null sample counts as slow); %s",
                 rs->nfiles > 1 ? " in " : "",
                 rs->nfiles > 1 ? rs->files[i].path : "", sp->n, sp->fast_ns,
                 costs);
        else
            note(t, "machine state%s%s: the round trip inside the window has two clusters over %zu samples, fast (median %.0f ns, %zu samples) and slow (median %.0f ns, %zu), split at %.0f ns; a run is fast or slow when all its samples are (a null sample, a stalled burst, counts as slow), else mixed; %s",
                 rs->nfiles > 1 ? " in " : "",
                 rs->nfiles > 1 ? rs->files[i].path : "", sp->n, sp->fast_ns,
                 sp->n_fast, sp->slow_ns, sp->n_slow, sp->threshold_ns,
                 costs);
    }
    if (!compare)
        return;
    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_cell *a = &t->cells[ti * t->nvariants + t->baseline];
            const rcuprof_cell *b = &t->cells[ti * t->nvariants + v];
            char ma[64], mb[64], label[48];

            if (v == t->baseline || !(mix_distance(a, b) >= STATE_MIX_DIFF))
                continue;
            if (t->row_mix != NULL)
                t->row_mix[ti] = 1;
            rcuprof_cell_state_mix(a, ma, sizeof(ma));
            rcuprof_cell_state_mix(b, mb, sizeof(mb));
            rcuprof_table_row_label(t, ti, label, sizeof(label));
            rcuprof_sb_printf(&mix, "%s%s %s against %s %s at %s",
                              mix.len ? ", " : "", t->variants[v], mb,
                              t->variants[t->baseline], ma, label);
        }
    if (mix.len > 0)
        note(t, "different machine-state mixes (f fast, s slow, m mixed runs): %s; the change mixes states: --by-state compares like with like",
             mix.p);
    free(mix.p);
}

/* The table: cells always, changes when compare is set. */
static int table_make(const rcuprof_results *rs, const char *baseline,
                      int metric, int compare, int by_state,
                      rcuprof_table *t, char *err, size_t errlen)
{
    size_t cap = rs->npoints + 1;
    struct build b;
    int rc = -1;

    memset(t, 0, sizeof(*t));
    memset(&b, 0, sizeof(b));
    t->metric = metric;
    t->target_mde_pct = NAN;
    t->level = LEVEL;
    t->alpha = ALPHA;
    t->power = POWER;
    t->notes = json_array();
    t->by_state = by_state;
    if (table_start(t, rs, baseline, compare, err, errlen) != 0)
        goto out;
    t->threads = malloc(cap * sizeof(*t->threads));
    t->row_state = malloc(cap * sizeof(*t->row_state));
    b.ia = malloc(cap * sizeof(*b.ia));
    b.ib = malloc(cap * sizeof(*b.ib));
    b.x = malloc(2 * cap * sizeof(*b.x));     /* values, then logs */
    b.y = malloc(2 * cap * sizeof(*b.y));
    b.buf = malloc(cap * rs->nvariants * sizeof(*b.buf));
    if (t->threads == NULL || t->row_state == NULL || b.ia == NULL || b.ib == NULL || b.x == NULL
        || b.y == NULL || b.buf == NULL || t->notes == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (table_counts(t, rs, err, errlen) != 0)
        goto out;
    t->cells = calloc(t->nthreads * t->nvariants, sizeof(*t->cells));
    t->changes = calloc(t->nthreads * t->nvariants, sizeof(*t->changes));
    t->row_mix = calloc(t->nthreads, sizeof(*t->row_mix));
    if (t->cells == NULL || t->changes == NULL || t->row_mix == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    table_cells(t, rs, compare, &b);
    table_tests(t, &b);
    table_notes(t, rs, &b);
    table_state_notes(t, rs, compare);
    if (b.failed.oom || b.noisy.oom || b.outl.oom) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = 0;
 out:
    free(b.ia);
    free(b.ib);
    free(b.x);
    free(b.y);
    free(b.buf);
    free(b.noisy.p);
    free(b.outl.p);
    free(b.failed.p);
    if (rc != 0)
        rcuprof_table_free(t);
    return rc;
}

int rcuprof_table_build(const rcuprof_results *rs, const char *baseline,
                        int metric, rcuprof_table *t, char *err,
                        size_t errlen)
{
    return table_make(rs, baseline, metric, 1, 0, t, err, errlen);
}

int rcuprof_table_build_states(const rcuprof_results *rs,
                               const char *baseline, int metric, int by_state,
                               rcuprof_table *t, char *err, size_t errlen)
{
    return table_make(rs, baseline, metric, 1, by_state, t, err, errlen);
}

int rcuprof_table_describe(const rcuprof_results *rs, int metric,
                           rcuprof_table *t, char *err, size_t errlen)
{
    return table_make(rs, NULL, metric, 0, 0, t, err, errlen);
}

void rcuprof_table_free(rcuprof_table *t)
{
    free(t->threads);
    free(t->row_state);
    free(t->cells);
    free(t->changes);
    free(t->row_mix);
    free(t->aa);
    free(t->lines);
    json_decref(t->notes);
    memset(t, 0, sizeof(*t));
}

static long table_variant(const rcuprof_table *t, const char *name)
{
    size_t v;

    for (v = 0; v < t->nvariants; v++)
        if (strcmp(t->variants[v], name) == 0)
            return (long)v;
    return -1;
}

/* The note on the rows the A/A pair puts in doubt. */
static void aa_note(rcuprof_table *t)
{
    struct rcuprof_sb moved = { 0 }, floor = { 0 };
    size_t ti;
    char nm[96];

    for (ti = 0; ti < t->nthreads; ti++) {
        const rcuprof_change *c = &t->aa[ti];
        int d = rcuprof_table_row_doubt(t, ti);

        cell_name(t, t->aa_b, ti, nm, sizeof(nm));
        if (d & RCUPROF_ROW_AA)
            rcuprof_sb_printf(&moved, "%s%s %+.1f%% [%+.1f, %+.1f]",
                              moved.len ? ", " : "", nm, c->change_pct,
                              c->lo_pct, c->hi_pct);
        if (d & RCUPROF_ROW_AA_FLOOR)
            rcuprof_sb_printf(&floor, "%s%s [%+.1f, %+.1f]",
                              floor.len ? ", " : "", nm, c->lo_pct,
                              c->hi_pct);
    }
    if (moved.len > 0)
        note(t, "A/A pair moved (%s against %s, the same code: its interval excludes 0 at the raw p, so the machine, not the code, moved it; the rows' changes may be the machine's): %s",
             t->variants[t->aa_b], t->variants[t->aa_a], moved.p);
    if (floor.len > 0)
        note(t, "resolved changes smaller than the A/A pair's interval reaches (%s against %s), so not established on this machine: %s",
             t->variants[t->aa_b], t->variants[t->aa_a], floor.p);
    free(moved.p);
    free(floor.p);
}

int rcuprof_table_aa(rcuprof_table *t, const rcuprof_results *rs,
                     const char *a, const char *b, char *err, size_t errlen)
{
    long va = table_variant(t, a), vb = table_variant(t, b);
    size_t cap = rs->npoints + 1, ti, na, nb, nf;
    size_t *ia, *ib;
    double *x, *y;
    int rc = -1;

    if (va < 0 || vb < 0 || va == vb) {
        snprintf(err, errlen, "--aa '%s,%s': give two different variants of the results, A,B (B against A: two builds of the same code)",
                 a, b);
        return -1;
    }
    free(t->aa);
    t->aa = calloc(t->nthreads, sizeof(*t->aa));
    ia = malloc(cap * sizeof(*ia));
    ib = malloc(cap * sizeof(*ib));
    x = malloc(2 * cap * sizeof(*x));
    y = malloc(2 * cap * sizeof(*y));
    if (t->aa == NULL || ia == NULL || ib == NULL || x == NULL || y == NULL) {
        snprintf(err, errlen, "out of memory");
        free(t->aa);
        t->aa = NULL;
        goto out;
    }
    t->aa_a = (size_t)va;
    t->aa_b = (size_t)vb;
    for (ti = 0; ti < t->nthreads; ti++) {
        rcuprof_change *ch = &t->aa[ti];

        na = gather(rs, t, t->aa_a, ti, ia, &nf);
        nb = gather(rs, t, t->aa_b, ti, ib, &nf);
        change_stats(t, rs, ch, ia, na, ib, nb, x, y);
        /* Outside the table's family: the raw p is its own. */
        ch->p_holm = ch->p;
        ch->p_wilcoxon_holm = ch->p_wilcoxon;
        ch->p_welch_holm = ch->p_welch;
        ch->p_mw_holm = ch->p_mw;
        ch->resolved = ch->have && !ch->too_few && isfinite(ch->lo_pct)
                       && isfinite(ch->hi_pct)
                       && (ch->lo_pct > 0 || ch->hi_pct < 0);
    }
    aa_note(t);
    rc = 0;
 out:
    free(ia);
    free(ib);
    free(x);
    free(y);
    return rc;
}

int rcuprof_table_row_doubt(const rcuprof_table *t, size_t ti)
{
    int d = 0;

    if (rcuprof_table_oversubscribed(t, ti))
        d |= RCUPROF_ROW_OVERSUBSCRIBED;
    if (t->row_mix != NULL && t->row_mix[ti])
        d |= RCUPROF_ROW_MIX;
    if (t->aa != NULL && t->aa[ti].have) {
        const rcuprof_change *aa = &t->aa[ti];
        double floor = fmax(fabs(aa->lo_pct), fabs(aa->hi_pct));
        size_t v;

        if (aa->resolved)
            d |= RCUPROF_ROW_AA;
        for (v = 0; v < t->nvariants && isfinite(floor); v++) {
            const rcuprof_change *c = &t->changes[ti * t->nvariants + v];

            if (v != t->baseline && c->resolved
                && fabs(c->change_pct) < floor)
                d |= RCUPROF_ROW_AA_FLOOR;
        }
    }
    return d;
}

/* ---------------------------------------------------------------------- */
/* The adaptive sweep's figures                                            */

/* One row's or cell's MDE now and the blocks it needs. */
static void adaptive_one(rcuprof_adaptive_need *o, double mde, double sd0,
                         size_t n0, double target, size_t max, size_t ti,
                         size_t v, const rcuprof_table *t)
{
    size_t need;

    /* A first stage under RCUPROF_CHANGE_MIN_N pairs decides nothing
     * (the row stays too few however many blocks follow): not judged. */
    if (n0 < RCUPROF_CHANGE_MIN_N || !isfinite(mde) || !isfinite(sd0)
        || rcuprof_stats_two_stage_n(sd0, n0, target, t->alpha, t->power,
                                     max, &need) != RCUPROF_STATS_OK) {
        o->unknown++;
        return;
    }
    if (!(o->worst_mde_pct >= mde)) {
        o->worst_mde_pct = mde;
        o->worst_ti = ti;
        o->worst_v = v;
    }
    if (need > o->blocks)
        o->blocks = need;
}

int rcuprof_table_adaptive(const rcuprof_table *t, double target_pct,
                           size_t max, rcuprof_adaptive_need *out)
{
    size_t ti, v, nch = 0;

    memset(out, 0, sizeof(*out));
    out->worst_mde_pct = NAN;
    for (ti = 0; ti < t->nthreads * t->nvariants; ti++)
        nch += ti % t->nvariants != t->baseline && t->changes != NULL
               && t->changes[ti].have;
    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            const rcuprof_change *ch;

            if (nch == 0) {
                adaptive_one(out, c->mde_pct, sqrt(2.0) * c->sd0_log, c->n0,
                             target_pct, max, ti, v, t);
                continue;
            }
            if (v == t->baseline)
                continue;
            ch = &t->changes[ti * t->nvariants + v];
            if (!ch->paired) {
                out->unknown++;
                continue;
            }
            adaptive_one(out, ch->mde_pct, ch->sd_log, ch->n_stage1,
                         target_pct, max, ti, v, t);
        }
    return isfinite(out->worst_mde_pct) ? 0 : -1;
}

/* ---------------------------------------------------------------------- */
/* The Universal Scalability Law, per variant                              */

int rcuprof_table_usl(const rcuprof_results *rs, const rcuprof_table *t,
                      size_t v, rcuprof_usl_fit *f)
{
    double *x, *y;
    size_t i, n = 0, counts = 0;
    int rc;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < t->nthreads; i++)
        counts += t->cpus_allowed > 0 && t->threads[i] <= t->cpus_allowed
                  && t->cells[i * t->nvariants + v].n > 0;
    if (t->cpus_allowed == 0) {
        snprintf(f->reason, sizeof(f->reason),
                 "not fitted: the CPU count is not in the results");
        return 0;
    }
    if (counts < USL_MIN_COUNTS) {
        snprintf(f->reason, sizeof(f->reason),
                 "not fitted: needs %d distinct thread counts at or below the %u CPUs, has %zu",
                 USL_MIN_COUNTS, t->cpus_allowed, counts);
        return 0;
    }
    x = malloc((rs->npoints + 1) * sizeof(*x));
    y = malloc((rs->npoints + 1) * sizeof(*y));
    if (x == NULL || y == NULL) {
        free(x);
        free(y);
        snprintf(f->reason, sizeof(f->reason), "out of memory");
        return -1;
    }
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant == v && p->status == RCUPROF_POINT_OK
            && p->threads <= t->cpus_allowed && p->result.ops_per_s > 0) {
            x[n] = p->threads;
            y[n++] = p->result.ops_per_s;
        }
    }
    rc = rcuprof_stats_usl_fit(x, y, n, 0.95, &f->m);
    free(x);
    free(y);
    if (rc != RCUPROF_STATS_OK) {
        snprintf(f->reason, sizeof(f->reason), "not fitted: %s",
                 rcuprof_stats_strerror(rc));
        return 0;
    }
    f->fitted = 1;
    return 0;
}
