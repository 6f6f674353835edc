/*
 * rcuprof explain, metrics: what one driver result says about scheduling,
 * placement, steal, probes, counters and the line round trip, read
 * defensively (a member a run did not collect is null; the probes member's
 * shape is still moving), and medians over repetitions.
 */
#define _GNU_SOURCE
#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcuprof_stats.h"

static double num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* First number under a key containing sub (depth-first, objects and
 * arrays), or NAN. */
static double find_num(const json_t *o, const char *sub, int depth)
{
    const char *k;
    json_t *v;
    size_t i;

    if (depth > 6)
        return NAN;
    if (json_is_object(o)) {
        json_object_foreach((json_t *)o, k, v)
            if (json_is_number(v) && strstr(k, sub) != NULL)
                return json_number_value(v);
        json_object_foreach((json_t *)o, k, v) {
            double d = find_num(v, sub, depth + 1);

            if (!isnan(d))
                return d;
        }
    } else if (json_is_array(o)) {
        json_array_foreach(o, i, v) {
            double d = find_num(v, sub, depth + 1);

            if (!isnan(d))
                return d;
        }
    }
    return NAN;
}

/* A probe figure: the summary first, then anywhere in the member. */
static double probe_figure(const json_t *probes, const char *const *rates,
                           const char *const *counts, double ops)
{
    const json_t *where[3];
    size_t w, s;

    where[0] = json_object_get(probes, "summary");
    where[1] = json_object_get(probes, "sum");
    where[2] = probes;
    for (s = 0; rates[s] != NULL; s++)
        for (w = 0; w < 3; w++) {
            double d = find_num(where[w], rates[s], 0);

            if (!isnan(d))
                return d;
        }
    /* Only counts: per 1k ops (a count of 0 is 0 in any unit). */
    for (s = 0; counts[s] != NULL; s++)
        for (w = 1; w < 3; w++) {
            double d = find_num(where[w], counts[s], 0);

            if (!isnan(d))
                return ops > 0 ? d * 1000.0 / ops : d == 0 ? 0 : NAN;
        }
    return NAN;
}

static int ci_contains(const char *hay, const char *needle)
{
    return strcasestr(hay, needle) != NULL;
}

static void read_counters(const json_t *c, double ops, double cpu_ns,
                          rcuprof_explain_run *r)
{
    static const char *const coh[] = { "HITM", "XSNP", "SNOOP", "FWD",
                                       "coherence", "c2c", NULL };
    json_t *sums = json_object_get(c, "sums"), *v, *g, *u;
    const char *name;
    double coh_sum = 0, cycles = NAN;
    int have_coh = 0;
    size_t i, k;

    r->have_counters = 1;
    json_array_foreach(json_object_get(c, "groups"), i, g)
        if (json_is_string(json_object_get(g, "kind"))
            && strcmp(json_string_value(json_object_get(g, "kind")),
                      "hardware") == 0)
            r->counters_hw = 1;
    json_object_foreach(sums, name, v) {
        double val = num(v, "value");

        if (!isfinite(val))
            continue;
        for (k = 0; coh[k] != NULL; k++)
            if (ci_contains(name, coh[k])) {
                coh_sum += val;
                have_coh = 1;
                break;
            }
        if ((strcmp(name, "cycles") == 0 || ci_contains(name, "CPU_CLK_UNHALTED")
             || ci_contains(name, "CORE_CYCLES")) && !ci_contains(name, "REF"))
            cycles = val;
    }
    if (have_coh && ops > 0)
        r->coherence_per_kop = coh_sum * 1000.0 / ops;
    if (isfinite(cycles) && cpu_ns > 0)
        r->cycles_per_ns = cycles / cpu_ns;
    json_array_foreach(json_object_get(c, "unavailable"), i, u) {
        const char *why = json_string_value(json_object_get(u, "reason"));

        if (why != NULL && r->counters_note[0] == '\0')
            snprintf(r->counters_note, sizeof(r->counters_note), "%s: %s",
                     json_is_string(json_object_get(u, "name"))
                     ? json_string_value(json_object_get(u, "name")) : "?",
                     why);
    }
}

static void add_cpu(rcuprof_explain_run *r, const json_t *v)
{
    size_t i;
    int cpu;

    if (!json_is_integer(v))
        return;
    cpu = (int)json_integer_value(v);
    for (i = 0; i < r->ncpus_used; i++)
        if (r->cpus_used[i] == cpu)
            return;
    if (r->ncpus_used < RCUPROF_EXPLAIN_MAX_CPUS_USED)
        r->cpus_used[r->ncpus_used++] = cpu;
}

void rcuprof_explain_run_from_json(const json_t *res, rcuprof_explain_run *r)
{
    static const char *const retr[] = { "retries_per", NULL };
    static const char *const retr_n[] = { "retries", NULL };
    static const char *const slow[] = { "slow_fetches_per", "slow_per",
                                        "misses_per", NULL };
    static const char *const slow_n[] = { "slow", "cache_misses", NULL };
    static const char *const wait[] = { "writer_wait_ns_per", "wait_ns_per",
                                        NULL };
    static const char *const wait_n[] = { "wait_ns", "wait_ticks", NULL };
    const json_t *run = json_object_get(res, "run");
    const json_t *env = json_object_get(res, "env");
    const json_t *sched = json_object_get(run, "sched");
    const json_t *pl = json_object_get(run, "placement");
    const json_t *cpus = json_object_get(pl, "cpus");
    const json_t *rtt = json_object_get(run, "line_rtt");
    const json_t *probes = json_object_get(res, "probes");
    const json_t *churn = json_object_get(run, "churn");
    const json_t *t, *la;
    double runq, online;
    size_t i;

    memset(r, 0, sizeof(*r));
    r->wall_ns = r->ops = r->wall_ns_per_op = r->cpu_ns_per_op = NAN;
    r->util = r->runq_share = r->runq_ns_per_kop = r->vcsw_per_kop = NAN;
    r->ivcsw_per_kop = r->migr_per_kop = r->steal_ms = NAN;
    r->steal_share = r->loadavg1 = r->rtt_before = r->rtt_after = NAN;
    r->probe_retries = r->probe_slow = r->probe_wait = NAN;
    r->writes_per_s = r->coherence_per_kop = r->cycles_per_ns = NAN;
    r->on_cpu_share = r->off_cpu_share = NAN;
    r->placed = -1;
    if (!json_is_object(run))
        return;
    r->threads = (unsigned)json_integer_value(json_object_get(run, "threads"));
    r->cpus_allowed = (unsigned)json_integer_value(
        json_object_get(env, "cpus_allowed"));
    r->oversubscribed = json_is_true(json_object_get(env, "oversubscribed"));
    r->wall_ns = num(run, "wall_ns");
    r->ops = num(run, "ops");
    r->wall_ns_per_op = num(run, "wall_ns_per_op");
    r->cpu_ns_per_op = num(run, "cpu_ns_per_op");
    r->util = num(run, "utilisation");
    r->ok = r->wall_ns_per_op > 0 && r->threads > 0;

    r->runq_ns_per_kop = num(sched, "runq_ns_per_kop");
    r->vcsw_per_kop = num(sched, "vcsw_per_kop");
    r->ivcsw_per_kop = num(sched, "ivcsw_per_kop");
    r->migr_per_kop = num(sched, "migrations_per_kop");
    runq = num(sched, "runq_ns");
    if (isfinite(runq) && r->wall_ns > 0 && r->threads > 0)
        r->runq_share = runq / (r->wall_ns * r->threads);

    r->steal_ms = num(run, "steal_ms");
    online = num(env, "cpus_online");
    if (!(online > 0))
        online = r->cpus_allowed;
    if (isfinite(r->steal_ms) && r->wall_ns > 0 && online > 0)
        r->steal_share = r->steal_ms * 1e6 / (r->wall_ns * online);
    la = json_object_get(env, "loadavg");
    if (json_is_array(la) && json_is_number(json_array_get(la, 0)))
        r->loadavg1 = json_number_value(json_array_get(la, 0));

    json_array_foreach(cpus, i, t)
        if (json_is_integer(t))
            r->pinned = 1;
    json_array_foreach(json_object_get(res, "threads"), i, t) {
        json_t *id = json_object_get(t, "id");
        json_t *cs = json_object_get(t, "cpu_start");
        json_t *ce = json_object_get(t, "cpu_end");
        json_t *plan = json_is_integer(id)
                       ? json_array_get(cpus, (size_t)json_integer_value(id))
                       : NULL;

        add_cpu(r, cs);
        add_cpu(r, ce);
        if (!json_is_integer(plan))
            continue;
        if (r->placed < 0)
            r->placed = 1;
        if (!json_is_integer(cs) || !json_is_integer(ce)
            || json_integer_value(cs) != json_integer_value(plan)
            || json_integer_value(ce) != json_integer_value(plan)) {
            r->placed = 0;
            r->misplaced++;
        }
    }

    r->rtt_before = num(rtt, "before_ns");
    r->rtt_after = num(rtt, "after_ns");

    /* "enabled": false means the layer is there but switched off. */
    if (json_is_object(probes)
        && !json_is_false(json_object_get(probes, "enabled"))) {
        r->have_probes = 1;
        r->probe_retries = probe_figure(probes, retr, retr_n, r->ops);
        r->probe_slow = probe_figure(probes, slow, slow_n, r->ops);
        r->probe_wait = probe_figure(probes, wait, wait_n, r->ops);
    }
    if (json_is_object(churn)) {
        r->have_churn = 1;
        r->writes_per_s = num(churn, "writes_per_s");
    }
    if (json_is_object(json_object_get(res, "counters")))
        read_counters(json_object_get(res, "counters"), r->ops,
                      num(run, "cpu_ns"), r);
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

void rcuprof_explain_aggregate(const rcuprof_explain_run *runs, size_t n,
                               double level, rcuprof_explain_agg *a)
{
    double *buf = malloc((2 * n + 1) * sizeof(double));
    rcuprof_stats_summary s;
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
    if (m > 0 && rcuprof_stats_describe(buf, m, level, &s)
                 == RCUPROF_STATS_OK) {
        a->cost = s.median;
        if (isfinite(s.median_lo)) {
            a->lo = s.median_lo;
            a->hi = s.median_hi;
            a->interval = "median";
        } else if (m >= 2) {
            a->lo = s.min;
            a->hi = s.max;
            a->interval = "range";
        }
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
