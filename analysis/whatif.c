/*
 * The whatif fit (issue 17): per thread count and block, the least-squares
 * line of wall ns/op on the delay really put on an op; the slope and the
 * intercept as means over blocks with Student's t interval; the reading of
 * the slope; and the linear extrapolation to the site without its own
 * time.  See whatif.h for the contracts and docs/methodology.md, "What a
 * whatif slope means", for why per-block slopes.
 */
#define _GNU_SOURCE
#include "whatif.h"

#include "rcuprof_stats.h"
#include "record.h"
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>

#define LEVEL 0.95
#define ALPHA 0.05
#define POWER 0.80

double rcuprof_whatif_x(const rcuprof_whatif_obs *o)
{
    double per_call = isfinite(o->delay_ns_per_call) ? o->delay_ns_per_call
                                                     : o->delay_ns;
    double calls = isfinite(o->calls_per_op) ? o->calls_per_op : 1.0;

    return per_call * calls;
}

static double num_or_nan(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int rcuprof_whatif_obs_from_point(const json_t *line, rcuprof_whatif_obs *o)
{
    const json_t *b = json_object_get(line, "block"),
        *t = json_object_get(line, "threads"),
        *d = json_object_get(line, "delay_ns"),
        *st = json_object_get(line, "status"),
        *res = json_object_get(line, "result"), *dl;
    rcuprof_record rec;

    memset(o, 0, sizeof(*o));
    if (!json_is_integer(b) || json_integer_value(b) < 0
        || !json_is_integer(t) || json_integer_value(t) < 1
        || (!json_is_null(d)
            && (!json_is_integer(d) || json_integer_value(d) < 0
                || json_integer_value(d) > RCUPROF_WHATIF_DELAY_NS_MAX))
        || !json_is_string(st))
        return -1;              /* (a missing delay_ns is no JSON null) */
    o->block = (unsigned)json_integer_value(b);
    o->threads = (unsigned)json_integer_value(t);
    o->unarmed = json_is_null(d);
    o->delay_ns = o->unarmed ? NAN : (double)json_integer_value(d);
    o->wall_ns_per_op = o->calls_per_op = o->delay_ns_per_call = NAN;
    o->own_ns_per_call = NAN;
    if (strcmp(json_string_value(st), "ok") != 0 || !json_is_object(res))
        return 0;
    rcuprof_record_decode(res, &rec);
    if (!rec.ok)
        return 0;
    o->ok = 1;
    o->wall_ns_per_op = rec.wall_ns_per_op;
    o->oversubscribed = rec.oversubscribed;
    dl = json_object_get(json_object_get(res, "run"), "delay");
    if (json_is_object(dl)) {
        o->calls_per_op = num_or_nan(json_object_get(dl, "calls_per_op"));
        o->delay_ns_per_call = num_or_nan(json_object_get(dl,
                                                          "delay_ns_per_call"));
        o->own_ns_per_call = num_or_nan(json_object_get(dl,
                                                        "own_ns_per_call"));
        o->fixed_ns = num_or_nan(json_object_get(dl, "fixed_ns"));
        if (!(o->fixed_ns > 0))
            o->fixed_ns = 0;
    }
    return 0;
}

int rcuprof_whatif_load(const char *path, json_t **header,
                        rcuprof_whatif_obs **obs, size_t *n, char *err,
                        size_t errlen)
{
    rcuprof_results rs;
    FILE *f;
    char *buf = NULL;
    size_t cap = 0, k = 0, lineno = 0, ocap = 0;
    ssize_t len;
    rcuprof_whatif_obs *o = NULL, *no;

    *header = NULL;
    *obs = NULL;
    *n = 0;
    memset(&rs, 0, sizeof(rs));
    if (rcuprof_results_read(&rs, path, err, errlen) != 0) {
        rcuprof_results_free(&rs);
        return -1;
    }
    if (!json_is_object(json_object_get(json_object_get(rs.files[0].header,
                                                        "spec"), "whatif"))) {
        snprintf(err, errlen, "%s is a sweep's results file, not a whatif's (its spec has no whatif)",
                 path);
        rcuprof_results_free(&rs);
        return -1;
    }
    *header = json_incref(rs.files[0].header);
    rcuprof_results_free(&rs);
    if ((f = fopen(path, "r")) == NULL) {
        snprintf(err, errlen, "cannot read %s (%s)", path, strerror(errno));
        json_decref(*header);
        *header = NULL;
        return -1;
    }
    while ((len = getline(&buf, &cap, f)) > 0) {
        json_t *j;

        if (lineno++ == 0 || buf[len - 1] != '\n')
            continue;           /* the header; a torn last line */
        j = json_loadb(buf, (size_t)len, 0, NULL);
        if (k == ocap) {
            ocap = ocap ? 2 * ocap : 64;
            if ((no = realloc(o, ocap * sizeof(*o))) == NULL) {
                json_decref(j);
                free(o);
                free(buf);
                fclose(f);
                json_decref(*header);
                *header = NULL;
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            o = no;
        }
        if (j != NULL && rcuprof_whatif_obs_from_point(j, &o[k]) == 0)
            k++;
        json_decref(j);
    }
    free(buf);
    fclose(f);
    *obs = o;
    *n = k;
    return 0;
}

/* ---------------------------------------------------------------------- */

void rcuprof_whatif_fit_free(rcuprof_whatif_fit *f)
{
    free(f->block);
    free(f->block_slope);
    free(f->block_intercept);
    f->block = NULL;
    f->block_slope = f->block_intercept = NULL;
}

/* The index of delay d in delays, or -1. */
static long delay_index(const double *delays, size_t nd, double d)
{
    size_t i;

    for (i = 0; i < nd; i++)
        if (delays[i] == d)
            return (long)i;
    return -1;
}

/* Mean and Student's t interval; bounds NAN under 2 values. */
static void mean_t(const double *x, size_t n, double level, double *m,
                   double *lo, double *hi)
{
    rcuprof_stats_summary s;

    *m = *lo = *hi = NAN;
    if (n == 0 || rcuprof_stats_describe(x, n, level, &s) != RCUPROF_STATS_OK)
        return;
    *m = s.mean;
    if (n >= 2) {
        *lo = s.mean_lo;
        *hi = s.mean_hi;
    }
}

int rcuprof_whatif_fit_threads(const rcuprof_whatif_obs *obs, size_t n,
                               unsigned threads, const double *delays,
                               size_t nd, double level,
                               rcuprof_whatif_fit *out)
{
    unsigned maxb = 0;
    size_t i, b, nb = 0;
    double x[RCUPROF_WHATIF_DELAYS_MAX], y[RCUPROF_WHATIF_DELAYS_MAX];
    double rss = 0, xvar = 0;

    memset(out, 0, sizeof(*out));
    out->threads = threads;
    out->level = level;
    out->slope = out->lo = out->hi = NAN;
    out->intercept = out->ilo = out->ihi = NAN;
    out->resid_sd = out->signal_sd = NAN;
    if (nd < 2 || nd > RCUPROF_WHATIF_DELAYS_MAX || delays == NULL
        || (obs == NULL && n > 0))
        return -1;
    for (i = 0; i < n; i++)
        if (obs[i].threads == threads && obs[i].block + 1 > maxb)
            maxb = obs[i].block + 1;
    out->block = calloc(maxb + 1, sizeof(*out->block));
    out->block_slope = calloc(maxb + 1, sizeof(*out->block_slope));
    out->block_intercept = calloc(maxb + 1, sizeof(*out->block_intercept));
    if (out->block == NULL || out->block_slope == NULL
        || out->block_intercept == NULL) {
        rcuprof_whatif_fit_free(out);
        return -1;
    }
    for (b = 0; b < maxb; b++) {
        int have[RCUPROF_WHATIF_DELAYS_MAX] = { 0 };
        size_t got = 0, k, distinct = 1;
        double c0, c1, cov00, cov01, cov11, ss, mx = 0, sxx = 0;

        for (i = 0; i < n; i++) {
            long di;

            if (obs[i].threads != threads || obs[i].block != b
                || !obs[i].ok || obs[i].unarmed
                || (di = delay_index(delays, nd, obs[i].delay_ns)) < 0
                || have[di])
                continue;
            have[di] = 1;
            x[di] = rcuprof_whatif_x(&obs[i]);
            y[di] = obs[i].wall_ns_per_op;
            got++;
        }
        if (got < nd)
            continue;
        for (k = 1; k < nd; k++)
            if (x[k] != x[0])
                distinct = 2;
        if (distinct < 2
            || gsl_fit_linear(x, 1, y, 1, nd, &c0, &c1, &cov00, &cov01,
                              &cov11, &ss) != 0
            || !isfinite(c0) || !isfinite(c1)) {
            out->degenerate++;
            continue;
        }
        out->block[nb] = (unsigned)b;
        out->block_slope[nb] = c1;
        out->block_intercept[nb] = c0;
        nb++;
        for (k = 0; k < nd; k++)
            mx += x[k] / (double)nd;
        for (k = 0; k < nd; k++)
            sxx += (x[k] - mx) * (x[k] - mx);
        xvar += sxx / (double)(nd - 1);
        if (nd > 2)
            rss += ss / (double)(nd - 2);
    }
    out->nblocks = nb;
    mean_t(out->block_slope, nb, level, &out->slope, &out->lo, &out->hi);
    mean_t(out->block_intercept, nb, level, &out->intercept, &out->ilo,
           &out->ihi);
    if (nb > 0 && nd > 2) {
        out->resid_sd = sqrt(rss / (double)nb);
        out->signal_sd = fabs(out->slope) * sqrt(xvar / (double)nb);
        out->nofit = out->resid_sd > out->signal_sd;
    }
    return 0;
}

int rcuprof_whatif_slope_ratio(const rcuprof_whatif_fit *a,
                               const rcuprof_whatif_fit *b, double level,
                               double *ratio, double *lo, double *hi,
                               size_t *npaired, double *ma_out,
                               double *mb_out)
{
    size_t i, j, m = 0;
    double sa = 0, sb = 0, ma, mb, vaa = 0, vbb = 0, vab = 0, t, qa, qb, qc;
    double disc;

    *ratio = *lo = *hi = NAN;
    *npaired = 0;
    if (ma_out != NULL)
        *ma_out = NAN;
    if (mb_out != NULL)
        *mb_out = NAN;
    for (i = 0; i < a->nblocks; i++)
        for (j = 0; j < b->nblocks; j++)
            if (a->block[i] == b->block[j]) {
                sa += a->block_slope[i];
                sb += b->block_slope[j];
                m++;
            }
    *npaired = m;
    if (m >= 1) {
        if (ma_out != NULL)
            *ma_out = sa / (double)m;
        if (mb_out != NULL)
            *mb_out = sb / (double)m;
    }
    if (m < 2)
        return -1;
    ma = sa / (double)m;
    mb = sb / (double)m;
    for (i = 0; i < a->nblocks; i++)
        for (j = 0; j < b->nblocks; j++)
            if (a->block[i] == b->block[j]) {
                double da = a->block_slope[i] - ma, db = b->block_slope[j] - mb;

                vaa += da * da;
                vbb += db * db;
                vab += da * db;
            }
    /* Variances and covariance of the two means. */
    vaa /= (double)(m - 1) * (double)m;
    vbb /= (double)(m - 1) * (double)m;
    vab /= (double)(m - 1) * (double)m;
    *ratio = ma != 0 ? mb / ma : NAN;
    t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)(m - 1));
    qa = ma * ma - t * t * vaa;
    qb = -2 * (ma * mb - t * t * vab);
    qc = mb * mb - t * t * vbb;
    disc = qb * qb - 4 * qa * qc;
    if (!(qa > 0) || !(disc >= 0)) {
        *lo = -INFINITY;
        *hi = INFINITY;
        return 1;
    }
    *lo = (-qb - sqrt(disc)) / (2 * qa);
    *hi = (-qb + sqrt(disc)) / (2 * qa);
    return 0;
}

/* ---------------------------------------------------------------------- */

const char *rcuprof_whatif_reading_name(int reading)
{
    switch (reading) {
    case RCUPROF_WHATIF_ADDS:
        return "adds";
    case RCUPROF_WHATIF_AMPLIFIED:
        return "amplified";
    case RCUPROF_WHATIF_OVERLAPPED:
        return "overlapped";
    case RCUPROF_WHATIF_NOFIT:
        return "no fit";
    default:
        return "undetermined";
    }
}

int rcuprof_whatif_reading(double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi) || (lo <= 0 && hi >= 1))
        return RCUPROF_WHATIF_UNDETERMINED;
    if (lo > 1)
        return RCUPROF_WHATIF_AMPLIFIED;
    if (hi < 1)
        return RCUPROF_WHATIF_OVERLAPPED;
    /* holds 1: "adds" only when the whole interval is near 1 */
    if (lo >= RCUPROF_WHATIF_ADDS_LO && hi <= RCUPROF_WHATIF_ADDS_HI)
        return RCUPROF_WHATIF_ADDS;
    return RCUPROF_WHATIF_UNDETERMINED;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The median of the finite values among v[0..n) (sorted in place); NAN. */
static double median_of(double *v, size_t n)
{
    size_t i, k = 0;
    double q;

    for (i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[k++] = v[i];
    if (k == 0)
        return NAN;
    qsort(v, k, sizeof(*v), cmp_double);
    return rcuprof_stats_quantile(v, k, 0.5, &q) == RCUPROF_STATS_OK ? q : NAN;
}

/* The ok run at `threads` in block b: armed at delay d, or unarmed (d
 * ignored); -1 when there is none. */
static long run_of(const rcuprof_whatif_obs *obs, size_t n, unsigned threads,
                   unsigned b, int unarmed, double d)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (obs[i].ok && obs[i].threads == threads && obs[i].block == b
            && obs[i].unarmed == unarmed
            && (unarmed || obs[i].delay_ns == d))
            return (long)i;
    return -1;
}

/*
 * The prediction of one row per block: the block's line at x0 - cost x
 * calls per op, x0 the x of the block's run at the lowest delay d0 (about
 * 0 at 0 ns: the wait's code runs but does not loop; at the option
 * fixed's site the fixed cost, which is waited in the same wait), cost the
 * site's own ns per call (fixed < 0) or the build's fixed ns, own time and
 * calls from that same run (the own time changes with the delay: at
 * rcu_read_lock its code includes retry passes, at synchronize the wait).
 * per_block (NULL, or f->nblocks): each block's value, NAN without one.
 */
static void predict(const rcuprof_whatif_obs *obs, size_t n,
                    const rcuprof_whatif_fit *f, double d0, double fixed,
                    rcuprof_whatif_est *e, double *tmp, double *per_block)
{
    size_t k, m = 0;

    memset(e, 0, sizeof(*e));
    e->value = e->lo = e->hi = NAN;
    for (k = 0; k < f->nblocks; k++) {
        long i0 = run_of(obs, n, f->threads, f->block[k], 0, d0);
        double calls, own, x0;

        if (per_block != NULL)
            per_block[k] = NAN;
        if (i0 < 0)
            continue;
        x0 = rcuprof_whatif_x(&obs[i0]);
        if (!isfinite(x0))
            x0 = 0;
        calls = obs[i0].calls_per_op;
        if (!isfinite(calls))
            calls = 1;
        if (fixed >= 0) {
            /*
             * The fixed cost is waited in the same wait as the delay: its
             * part of the lowest delay's measured wait (all of it at 0 ns),
             * not the nominal fixed_ns (the wait's figure is the time it
             * adds over a 0 ns wait, a timer read less than asked).
             */
            double w = obs[i0].delay_ns_per_call;

            own = isfinite(w) && w > 0 ? w * fixed / (fixed + d0) : fixed;
        } else {
            own = obs[i0].own_ns_per_call;
        }
        if (!isfinite(own))
            continue;           /* not timed: no prediction */
        tmp[m] = f->block_intercept[k]
                 + f->block_slope[k] * (x0 - own * calls);
        if (per_block != NULL)
            per_block[k] = tmp[m];
        m++;
    }
    if (m == 0)
        return;
    e->have = 1;
    e->n = m;
    mean_t(tmp, m, LEVEL, &e->value, &e->lo, &e->hi);
}

/*
 * The armed mechanism's cost per op, paired per block: wall ns/op at the
 * lowest delay d0 minus wall ns/op unarmed, over every block with both
 * (blocks up to maxb); and, over the fit's blocks with a prediction
 * (pred[k], NAN without), the prediction less the block's mechanism: the
 * unarmed build without the site.
 */
static void mechanism(const rcuprof_whatif_obs *obs, size_t n,
                      const rcuprof_whatif_fit *f, unsigned maxb, double d0,
                      const double *pred, rcuprof_whatif_est *mech,
                      rcuprof_whatif_est *wsu, double *tmp)
{
    size_t k, m = 0;
    unsigned b;

    memset(mech, 0, sizeof(*mech));
    memset(wsu, 0, sizeof(*wsu));
    mech->value = mech->lo = mech->hi = NAN;
    wsu->value = wsu->lo = wsu->hi = NAN;
    for (b = 0; b < maxb; b++) {
        long i0 = run_of(obs, n, f->threads, b, 0, d0),
            iu = run_of(obs, n, f->threads, b, 1, 0);

        if (i0 >= 0 && iu >= 0)
            tmp[m++] = obs[i0].wall_ns_per_op - obs[iu].wall_ns_per_op;
    }
    if (m > 0) {
        mech->have = 1;
        mech->n = m;
        mean_t(tmp, m, LEVEL, &mech->value, &mech->lo, &mech->hi);
    }
    m = 0;
    for (k = 0; pred != NULL && k < f->nblocks; k++) {
        long i0 = run_of(obs, n, f->threads, f->block[k], 0, d0),
            iu = run_of(obs, n, f->threads, f->block[k], 1, 0);

        if (i0 >= 0 && iu >= 0 && isfinite(pred[k]))
            tmp[m++] = pred[k] - (obs[i0].wall_ns_per_op
                                  - obs[iu].wall_ns_per_op);
    }
    if (m > 0) {
        wsu->have = 1;
        wsu->n = m;
        mean_t(tmp, m, LEVEL, &wsu->value, &wsu->lo, &wsu->hi);
    }
}

static void note(rcuprof_whatif *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(rcuprof_whatif *w, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    json_array_append_new(w->notes, json_string(buf));
}

/* A predicted cost whose interval (or value) reaches 0 ns/op is none: a
 * cost is positive, so the line does not hold that far below the lowest
 * delay (or the own time's timer costs as much as the site). */
static void positive(rcuprof_whatif *w, unsigned threads,
                     rcuprof_whatif_est *e, const char *name)
{
    double low = isfinite(e->lo) ? e->lo : e->value;

    if (!e->have || low > 0)
        return;
    note(w, "%u threads: %s left out: its %s %.1f ns/op, not above 0 (the line does not hold that far below the lowest delay, or the site's own time and the mechanism overlap); a cost is positive",
         threads, name, isfinite(e->lo) ? "interval reaches" : "value is",
         low);
    e->have = 0;
}

void rcuprof_whatif_free(rcuprof_whatif *w)
{
    size_t i;

    for (i = 0; i < w->nrows; i++)
        rcuprof_whatif_fit_free(&w->rows[i].fit);
    free(w->rows);
    json_decref(w->notes);
    memset(w, 0, sizeof(*w));
}

/* One cell's runs at the row's count: armed at delay d, or unarmed. */
static void cell_fill(const rcuprof_whatif_obs *obs, size_t n,
                      unsigned threads, int unarmed, double d,
                      rcuprof_whatif_cell *cl, double *v, double *v2)
{
    size_t i, k = 0;

    memset(cl, 0, sizeof(*cl));
    cl->delay_ns = unarmed ? NAN : d;
    cl->mean = cl->lo = cl->hi = cl->x_ns_per_op = NAN;
    for (i = 0; i < n; i++) {
        if (obs[i].threads != threads || obs[i].unarmed != unarmed
            || (!unarmed && obs[i].delay_ns != d))
            continue;
        if (!obs[i].ok) {
            cl->failed++;
            continue;
        }
        v[k] = obs[i].wall_ns_per_op;
        v2[k] = unarmed ? NAN : rcuprof_whatif_x(&obs[i]);
        k++;
    }
    cl->runs = k;
    if (k >= 1) {
        double s = 0;

        for (i = 0; i < k; i++)
            s += v[i];
        cl->mean = s / (double)k;
    }
    if (k >= 2 && rcuprof_stats_mean_ci_log(v, k, LEVEL, &cl->lo, &cl->hi)
        != RCUPROF_STATS_OK)
        cl->lo = cl->hi = NAN;
    cl->x_ns_per_op = median_of(v2, k);
}

/* One row's cells, medians (over the lowest delay's runs, which the
 * prediction uses) and oversubscription. */
static void row_cells(const rcuprof_whatif_obs *obs, size_t n,
                      rcuprof_whatif *w, rcuprof_whatif_row *r, double d0,
                      double *v, double *v2)
{
    size_t i, d, c = 0;

    for (i = 0; i < n; i++)
        if (obs[i].threads == r->threads && obs[i].ok) {
            r->oversubscribed |= obs[i].oversubscribed;
            if (obs[i].unarmed || obs[i].delay_ns != d0)
                continue;
            v[c] = obs[i].calls_per_op;
            v2[c] = obs[i].own_ns_per_call;
            c++;
        }
    r->calls_per_op = median_of(v, c);
    r->own_ns_per_call = median_of(v2, c);
    r->ncells = w->ndelays;
    for (d = 0; d < w->ndelays; d++)
        cell_fill(obs, n, r->threads, 0, w->delays[d], &r->cells[d], v, v2);
    cell_fill(obs, n, r->threads, 1, 0, &r->unarmed, v, v2);
}

int rcuprof_whatif_analyse(const rcuprof_whatif_obs *obs, size_t n,
                           const double *delays, size_t nd,
                           const unsigned *threads, size_t nt,
                           rcuprof_whatif *w, char *err, size_t errlen)
{
    size_t i, j, ti, few = 0;
    double *v = NULL, *v2 = NULL, *pb = NULL, d0 = INFINITY;
    unsigned char *seenb = NULL;
    unsigned maxb = 0;
    int over = 0;

    memset(w, 0, sizeof(*w));
    if (nd < 2 || nd > RCUPROF_WHATIF_DELAYS_MAX || nt == 0
        || (obs == NULL && n > 0)) {
        snprintf(err, errlen, "whatif: 2 to %d delays and a thread count are needed",
                 RCUPROF_WHATIF_DELAYS_MAX);
        return -1;
    }
    for (i = 0; i < nd; i++)
        for (j = 0; j < i; j++)
            if (delays[i] == delays[j]) {
                snprintf(err, errlen, "whatif: delay %g ns is repeated", delays[i]);
                return -1;
            }
    memcpy(w->delays, delays, nd * sizeof(*delays));
    w->ndelays = nd;
    w->notes = json_array();
    w->rows = calloc(nt, sizeof(*w->rows));
    v = malloc((2 * n + 2) * sizeof(*v));
    v2 = malloc((2 * n + 2) * sizeof(*v2));
    for (i = 0; i < n; i++)
        if (obs[i].block + 1 > maxb)
            maxb = obs[i].block + 1;
    seenb = calloc(maxb + 1, 1);
    pb = malloc((maxb + 1) * sizeof(*pb));
    if (w->notes == NULL || w->rows == NULL || v == NULL || v2 == NULL
        || seenb == NULL || pb == NULL) {
        free(v);
        free(v2);
        free(pb);
        free(seenb);
        rcuprof_whatif_free(w);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < nd; i++)
        if (delays[i] < d0)
            d0 = delays[i];
    for (i = 0; i < n; i++) {
        w->runs++;
        w->failed += !obs[i].ok;
        w->unarmed_runs += obs[i].unarmed;
        if (obs[i].ok && obs[i].fixed_ns > w->fixed_ns)
            w->fixed_ns = obs[i].fixed_ns;
        if (!seenb[obs[i].block]) {
            seenb[obs[i].block] = 1;
            w->blocks++;
        }
    }
    free(seenb);
    w->nrows = nt;
    for (ti = 0; ti < nt; ti++) {
        rcuprof_whatif_row *r = &w->rows[ti];

        r->threads = threads[ti];
        row_cells(obs, n, w, r, d0, v, v2);
        if (rcuprof_whatif_fit_threads(obs, n, r->threads, delays, nd, LEVEL,
                                       &r->fit) != 0) {
            free(v);
            free(v2);
            free(pb);
            rcuprof_whatif_free(w);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        r->reading = r->fit.nofit ? RCUPROF_WHATIF_NOFIT
                     : rcuprof_whatif_reading(r->fit.lo, r->fit.hi);
        predict(obs, n, &r->fit, d0, -1, &r->without_site, v, pb);
        mechanism(obs, n, &r->fit, maxb, d0, pb, &r->mechanism,
                  &r->without_site_unarmed, v);
        if (w->fixed_ns > 0)
            predict(obs, n, &r->fit, d0, w->fixed_ns, &r->without_fixed, v,
                    NULL);
        if (r->fit.nofit) {
            r->without_site.have = r->without_site_unarmed.have = 0;
            r->without_fixed.have = 0;
            note(w, "%u threads: no fit: the runs scatter about the line by %.1f ns/op (SD), more than the line moves over the delays (%.1f ns/op, |slope| x SD of the delay): no slope is read and nothing is predicted",
                 r->threads, r->fit.resid_sd, r->fit.signal_sd);
        }
        positive(w, r->threads, &r->without_site, "predicted_without_site");
        positive(w, r->threads, &r->without_site_unarmed,
                 "predicted_without_site_unarmed");
        positive(w, r->threads, &r->without_fixed, "predicted_without_fixed");
        few += r->fit.nblocks < 2;
        over |= r->oversubscribed;
        if (r->fit.degenerate > 0)
            note(w, "%u threads: %zu block(s) left out of the fit: every run spent the same delay per op (the site not called?)",
                 r->threads, r->fit.degenerate);
        if (isfinite(r->calls_per_op) && r->calls_per_op == 0)
            note(w, "%u threads: the site was not called (0 calls per op): the delay cannot move the cost",
                 r->threads);
    }
    free(v);
    free(v2);
    free(pb);
    if (over)
        note(w, "oversubscribed: more threads than allowed CPUs in some row; its slope measures the scheduler as much as the site");
    if (w->failed > 0)
        note(w, "%zu of %zu runs failed; a block without a run at every delay is left out of its slope",
             w->failed, w->runs);
    if (few > 0)
        note(w, "%zu row(s) with a slope over fewer than 2 blocks: no interval, the reading is undetermined (give --reps 2 or more)",
             few);
    note(w, "predictions are linear extrapolations: removing a serialised section can move the bottleneck elsewhere (docs/methodology.md, section 1.5)");
    if (w->unarmed_runs == 0)
        note(w, "no unarmed run (a results file from before the unarmed cell): mechanism, unarmed and predicted_without_site_unarmed are null; predicted_without_site is for the armed build");
    else
        note(w, "predicted_without_site is for the armed build (the site's call into its wait, its bookkeeping and timer reads cost at every call); predicted_without_site_unarmed takes that mechanism off (docs/methodology.md, section 3)");
    if (d0 > 0)
        note(w, "the lowest delay is %g ns, not 0: mechanism (the lowest delay's cost less the unarmed cost) includes that delay", d0);
    return 0;
}

int rcuprof_whatif_adaptive(const rcuprof_whatif_obs *obs, size_t n,
                            unsigned reps,
                            double target_pct, size_t max,
                            rcuprof_whatif_need *out)
{
    size_t i, j, cap = n + 1;
    double *lv = malloc(cap * sizeof(*lv));
    unsigned char *doneo = calloc(cap, 1);

    memset(out, 0, sizeof(*out));
    out->worst_mde_pct = NAN;
    if (lv == NULL || doneo == NULL) {
        free(lv);
        free(doneo);
        return -1;
    }
    /* Each (threads, delay) cell once: the first run of it marks it. */
    for (i = 0; i < n; i++) {
        size_t k = 0, k0 = 0, need;
        double s = 0, m, var = 0, sd0, mde;

        if (doneo[i])
            continue;
        for (j = i; j < n; j++) {
            if (obs[j].threads != obs[i].threads
                || obs[j].unarmed != obs[i].unarmed
                || (!obs[i].unarmed && obs[j].delay_ns != obs[i].delay_ns))
                continue;
            doneo[j] = 1;
            if (!obs[j].ok || !(obs[j].wall_ns_per_op > 0))
                continue;
            k++;
            if (obs[j].block < reps)
                lv[k0++] = log(obs[j].wall_ns_per_op);
        }
        if (k0 < 2) {
            out->unknown++;
            continue;
        }
        for (j = 0; j < k0; j++)
            s += lv[j];
        m = s / (double)k0;
        for (j = 0; j < k0; j++)
            var += (lv[j] - m) * (lv[j] - m);
        sd0 = sqrt(var / (double)(k0 - 1));
        /* A like cell: the difference of two such has sqrt 2 the SD. */
        if (rcuprof_stats_mde_two_stage(sqrt(2.0) * sd0, k0, k > k0 ? k : k0,
                                        ALPHA, POWER, &mde) != RCUPROF_STATS_OK
            || rcuprof_stats_two_stage_n(sqrt(2.0) * sd0, k0, target_pct,
                                         ALPHA, POWER, max, &need)
               != RCUPROF_STATS_OK)
            continue;
        if (!(out->worst_mde_pct >= mde)) {
            out->worst_mde_pct = mde;
            out->worst_threads = obs[i].threads;
            out->worst_delay_ns = obs[i].delay_ns;
        }
        if (need > out->blocks)
            out->blocks = need;
    }
    free(lv);
    free(doneo);
    return isfinite(out->worst_mde_pct) ? 0 : -1;
}
