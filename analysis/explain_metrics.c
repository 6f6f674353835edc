/*
 * rcuprof explain, metrics: one driver result through the decoder
 * (record.h: scheduling, placement, steal, probes, counters, the line
 * round trip), the attribution's on/off-CPU shares, and medians over
 * repetitions.
 */
#define _GNU_SOURCE
#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcuprof_stats.h"

#include <gsl/gsl_cdf.h>

static double num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

void rcuprof_explain_run_from_json(const json_t *res, rcuprof_explain_run *r)
{
    rcuprof_record_decode(res, r);
}

void rcuprof_explain_run_samples(const json_t *rep, rcuprof_explain_run *r)
{
    const json_t *t;
    double off = 0, win = 0;
    size_t i;

    json_array_foreach(json_object_get(rep, "threads"), i, t) {
        const char *role = json_string_value(json_object_get(t, "role"));

        if (role != NULL && strcmp(role, "worker") != 0)
            continue;
        off += num(t, "off_cpu_ns") >= 0 ? num(t, "off_cpu_ns") : 0;
        win += num(t, "window_ns") > 0 ? num(t, "window_ns") : 0;
    }
    if (win > 0) {
        r->off_cpu_share = fmin(1.0, off / win);
        r->on_cpu_share = 1.0 - r->off_cpu_share;
    }
}

void rcuprof_explain_agg_init(rcuprof_explain_agg *a)
{
    memset(a, 0, sizeof(*a));
    a->cost = a->lo = a->hi = a->cpu_cost = a->util = NAN;
    a->runq_share = a->runq_ns_per_kop = a->vcsw_per_kop = NAN;
    a->ivcsw_per_kop = a->migr_per_kop = a->steal_ms = NAN;
    a->steal_share = a->loadavg1 = NAN;
    a->rtt_med = a->rtt_min = a->rtt_max = a->rtt_jump = NAN;
    a->probe_retries = a->probe_slow = a->probe_wait = NAN;
    a->writes_per_s = a->coherence_per_kop = a->cycles_per_ns = NAN;
    a->on_cpu_share = a->off_cpu_share = NAN;
    a->placed = -1;
    a->interval = "none";
    a->lmean = a->lsd0 = a->cpu_lmean = a->cpu_lsd0 = NAN;
    a->probe_retries_min = a->probe_retries_max = NAN;
    a->probe_slow_min = a->probe_slow_max = NAN;
    a->probe_wait_min = a->probe_wait_max = NAN;
}

/* Mean of ln v over the ok runs with v > 0, SD of the first n_first's. */
static void log_stats(const rcuprof_explain_run *runs, size_t n,
                      size_t n_first, size_t off, double *mean, double *sd0,
                      size_t *nall, size_t *n0)
{
    double s = 0, m0 = 0, q = 0;
    size_t i, k = 0, k0 = 0;

    for (i = 0; i < n; i++) {
        double v;

        memcpy(&v, (const char *)&runs[i] + off, sizeof(v));
        if (!runs[i].ok || !(v > 0) || !isfinite(v))
            continue;
        s += log(v);
        k++;
        if (i < n_first) {
            double d = log(v) - m0;

            k0++;
            m0 += d / (double)k0;           /* Welford */
            q += d * (log(v) - m0);
        }
    }
    *nall = k;
    *n0 = k0;
    *mean = k > 0 ? s / (double)k : NAN;
    *sd0 = k0 >= 2 ? sqrt(q / (double)(k0 - 1)) : NAN;
}

/* Smallest and largest of the finite values at offset off. */
static void min_max(const rcuprof_explain_run *runs, size_t n, size_t off,
                    double *lo, double *hi)
{
    size_t i;

    *lo = *hi = NAN;
    for (i = 0; i < n; i++) {
        double v;

        memcpy(&v, (const char *)&runs[i] + off, sizeof(v));
        if (!runs[i].ok || !isfinite(v))
            continue;
        if (!(*lo <= v))
            *lo = v;
        if (!(*hi >= v))
            *hi = v;
    }
}

/* Median of the finite values at byte offset off of each ok run. */
static double med(const rcuprof_explain_run *runs, size_t n, size_t off,
                  double *buf)
{
    size_t i, m = 0;
    double q;

    for (i = 0; i < n; i++) {
        double v;

        if (!runs[i].ok)
            continue;
        memcpy(&v, (const char *)&runs[i] + off, sizeof(v));
        if (isfinite(v))
            buf[m++] = v;
    }
    if (m == 0 || rcuprof_stats_quantile(buf, m, 0.5, &q) != RCUPROF_STATS_OK)
        return NAN;
    return q;
}

# define MED(field) med(runs, n, offsetof(rcuprof_explain_run, field), buf)

static int iv_of(double d, double v, double num, double den, double level,
                 rcuprof_explain_iv *out)
{
    double q;

    out->ratio = exp(d);
    if (!(v > 0)) {
        out->lo = out->hi = out->ratio;
        return 0;
    }
    q = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, num / den);
    out->lo = exp(d - q * sqrt(v));
    out->hi = exp(d + q * sqrt(v));
    return 0;
}

/* One cell's part of Welch's variance and of the Satterthwaite df. */
static int cell_part(const rcuprof_explain_agg *a, int cpu, double *mean,
                     double *v, double *den)
{
    double sd = cpu ? a->cpu_lsd0 : a->lsd0;
    size_t n = cpu ? a->cpu_n : a->n, n0 = cpu ? a->cpu_n0 : a->n0;

    *mean = cpu ? a->cpu_lmean : a->lmean;
    if (n0 < 2 || !isfinite(sd) || !isfinite(*mean) || n == 0)
        return -1;
    *v = sd * sd / (double)n;
    *den = *v * *v / (double)(n0 - 1);
    return 0;
}

int rcuprof_explain_ratio_iv(const rcuprof_explain_agg *t,
                             const rcuprof_explain_agg *r, int cpu,
                             double level, rcuprof_explain_iv *out)
{
    double mt, vt, dt, mr, vr, dr;

    out->ratio = out->lo = out->hi = NAN;
    if (cell_part(t, cpu, &mt, &vt, &dt) != 0
        || cell_part(r, cpu, &mr, &vr, &dr) != 0)
        return -1;
    return iv_of(mt - mr, vt + vr, (vt + vr) * (vt + vr), dt + dr, level,
                 out);
}

int rcuprof_explain_gm_ratio(const double *t, size_t nt, const double *r,
                             size_t nr, double level, rcuprof_explain_iv *out)
{
    rcuprof_stats_geo gt, gr;
    double vt, vr;

    out->ratio = out->lo = out->hi = NAN;
    if (rcuprof_stats_geomean(t, nt, level, &gt) != RCUPROF_STATS_OK
        || rcuprof_stats_geomean(r, nr, level, &gr) != RCUPROF_STATS_OK)
        return -1;
    out->ratio = gt.gm / gr.gm;
    if (nt < 2 || nr < 2)
        return -1;
    vt = gt.sd_log * gt.sd_log / (double)nt;
    vr = gr.sd_log * gr.sd_log / (double)nr;
    return iv_of(log(gt.gm) - log(gr.gm), vt + vr, (vt + vr) * (vt + vr),
                 vt * vt / (double)(nt - 1) + vr * vr / (double)(nr - 1),
                 level, out);
}

int rcuprof_explain_ratio2_iv(const rcuprof_explain_agg *t1,
                              const rcuprof_explain_agg *r1,
                              const rcuprof_explain_agg *t2,
                              const rcuprof_explain_agg *r2, double level,
                              rcuprof_explain_iv *out)
{
    const rcuprof_explain_agg *c[4] = { t1, r1, t2, r2 };
    double m[4], v = 0, den = 0;
    size_t i;

    out->ratio = out->lo = out->hi = NAN;
    for (i = 0; i < 4; i++) {
        double vi, di;

        if (cell_part(c[i], 0, &m[i], &vi, &di) != 0)
            return -1;
        v += vi;
        den += di;
    }
    return iv_of((m[0] - m[1]) - (m[2] - m[3]), v, v * v, den, level, out);
}

int rcuprof_explain_agg_need(const rcuprof_explain_agg *a, double target_pct,
                             size_t max, double *mde_pct, size_t *need)
{
    *mde_pct = NAN;
    *need = 0;
    if (a->n0 < 2 || !isfinite(a->lsd0)
        || rcuprof_stats_mde_two_stage(sqrt(2.0) * a->lsd0, a->n0,
                                       a->n < a->n0 ? a->n0 : a->n, 0.05,
                                       0.8, mde_pct) != RCUPROF_STATS_OK
        || rcuprof_stats_two_stage_n(sqrt(2.0) * a->lsd0, a->n0, target_pct,
                                     0.05, 0.8, max, need)
           != RCUPROF_STATS_OK)
        return -1;
    return 0;
}

void rcuprof_explain_aggregate(const rcuprof_explain_run *runs, size_t n,
                               double level, rcuprof_explain_agg *a)
{
    rcuprof_explain_aggregate_staged(runs, n, n, level, a);
}

void rcuprof_explain_aggregate_staged(const rcuprof_explain_run *runs,
                                      size_t n, size_t n_first, double level,
                                      rcuprof_explain_agg *a)
{
    double *buf = malloc((2 * n + 1) * sizeof(double));
    rcuprof_stats_summary s;
    rcuprof_stats_geo g;
    size_t i, m = 0;

    rcuprof_explain_agg_init(a);
    if (buf == NULL)
        return;
    for (i = 0; i < n; i++) {
        if (!runs[i].ok) {
            a->failed++;
            continue;
        }
        buf[m++] = runs[i].wall_ns_per_op;
    }
    a->n = m;
    /* The cell's cost is the geometric mean of its runs with Student's t
     * interval on the logs (methodology section 3): the one centre every
     * ratio of explain is built from, so two printed costs divide to the
     * printed ratio.  A run of 0 ns/op has no log: the median then, no
     * interval. */
    if (m > 0 && rcuprof_stats_geomean(buf, m, level, &g)
                 == RCUPROF_STATS_OK) {
        a->cost = g.gm;
        if (m >= 2 && isfinite(g.lo)) {
            a->lo = g.lo;
            a->hi = g.hi;
            a->interval = "geomean-t";
        }
    } else if (m > 0 && rcuprof_stats_describe(buf, m, level, &s)
                        == RCUPROF_STATS_OK) {
        a->cost = s.median;
    }
    a->cpu_cost = MED(cpu_ns_per_op);
    a->util = MED(util);
    a->runq_share = MED(runq_share);
    a->runq_ns_per_kop = MED(runq_ns_per_kop);
    a->vcsw_per_kop = MED(vcsw_per_kop);
    a->ivcsw_per_kop = MED(ivcsw_per_kop);
    a->migr_per_kop = MED(migr_per_kop);
    a->steal_ms = MED(steal_ms);
    a->steal_share = MED(steal_share);
    a->loadavg1 = MED(loadavg1);
    a->probe_retries = MED(probe_retries);
    a->probe_slow = MED(probe_slow);
    a->probe_wait = MED(probe_wait);
    a->writes_per_s = MED(writes_per_s);
    a->coherence_per_kop = MED(coherence_per_kop);
    a->cycles_per_ns = MED(cycles_per_ns);
    a->on_cpu_share = MED(on_cpu_share);
    a->off_cpu_share = MED(off_cpu_share);
    log_stats(runs, n, n_first, offsetof(rcuprof_explain_run, wall_ns_per_op),
              &a->lmean, &a->lsd0, &m, &a->n0);
    log_stats(runs, n, n_first, offsetof(rcuprof_explain_run, cpu_ns_per_op),
              &a->cpu_lmean, &a->cpu_lsd0, &a->cpu_n, &a->cpu_n0);
    /* CPU ns/op on the same footing as the wall cost: the geometric mean,
     * so the two figures a rule prints divide to its ratio (the median
     * stays for a cell with a run of 0 CPU ns/op) */
    if (isfinite(a->cpu_lmean) && a->cpu_n == a->n)
        a->cpu_cost = exp(a->cpu_lmean);
    min_max(runs, n, offsetof(rcuprof_explain_run, probe_retries),
            &a->probe_retries_min, &a->probe_retries_max);
    min_max(runs, n, offsetof(rcuprof_explain_run, probe_slow),
            &a->probe_slow_min, &a->probe_slow_max);
    min_max(runs, n, offsetof(rcuprof_explain_run, probe_wait),
            &a->probe_wait_min, &a->probe_wait_max);

    m = 0;
    for (i = 0; i < n; i++) {
        const rcuprof_explain_run *r = &runs[i];

        if (!r->ok)
            continue;
        a->have_probes |= r->have_probes;
        a->have_churn |= r->have_churn;
        a->have_counters |= r->have_counters;
        a->counters_hw |= r->counters_hw;
        if (r->placed >= 0)
            a->placed = a->placed < 0 ? r->placed : (a->placed && r->placed);
        a->misplaced += r->misplaced;
        if (isfinite(r->rtt_before) && r->rtt_before > 0)
            buf[m++] = r->rtt_before;
        if (isfinite(r->rtt_after) && r->rtt_after > 0)
            buf[m++] = r->rtt_after;
        if (r->rtt_before > 0 && r->rtt_after > 0) {
            double j = fmax(r->rtt_after / r->rtt_before,
                            r->rtt_before / r->rtt_after);

            if (!(a->rtt_jump >= j))
                a->rtt_jump = j;
        }
    }
    if (m > 0) {
        rcuprof_stats_quantile(buf, m, 0.5, &a->rtt_med);
        rcuprof_stats_quantile(buf, m, 0.0, &a->rtt_min);
        rcuprof_stats_quantile(buf, m, 1.0, &a->rtt_max);
    }
    free(buf);
}
