/*
 * The decoder of a driver result (record.h): the scalar members from a
 * table, the placement, the counters and the rule of a measurement in code.
 */
#define _GNU_SOURCE
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum kind { K_NUM, K_UINT, K_BOOL, K_TEXT, K_CODE };

#define NO_FIELD ((size_t)-1)
#define F(f) offsetof(rcuprof_record, f), sizeof(((rcuprof_record *)0)->f)

/* Every member read; K_CODE rows are read by the code below the table. */
static const struct member {
    const char *path;
    const char *types;
    int kind;
    size_t off, size;
} members[] = {
    { "build.variant", "string", K_TEXT, F(variant) },
    { "build.openssl_version", "string", K_TEXT, F(openssl_version) },
    { "build.line", "string", K_TEXT, F(line) },
    { "build.tree", "string", K_TEXT, F(tree) },
    { "build.libcrypto_sha256", "string", K_TEXT, F(libcrypto_sha256) },
    { "env.hostname", "string", K_TEXT, F(host) },
    { "env.kernel", "string", K_TEXT, F(kernel) },
    { "env.cpus_allowed", "integer", K_UINT, F(cpus_allowed) },
    { "env.cpus_online", "integer", K_UINT, F(cpus_online) },
    { "env.oversubscribed", "boolean", K_BOOL, F(oversubscribed) },
    { "env.loadavg[]", "number", K_CODE, NO_FIELD, 0 },
    { "run.threads", "integer", K_CODE, NO_FIELD, 0 },
    { "run.wall_ns", "integer", K_NUM, F(wall_ns) },
    { "run.ops", "integer", K_NUM, F(ops) },
    { "run.cpu_ns", "integer", K_NUM, F(cpu_ns) },
    { "run.wall_ns_per_op", "number|null", K_NUM, F(wall_ns_per_op) },
    { "run.cpu_ns_per_op", "number|null", K_NUM, F(cpu_ns_per_op) },
    { "run.ops_per_s", "number|null", K_NUM, F(ops_per_s) },
    { "run.utilisation", "number|null", K_NUM, F(util) },
    { "run.steal_ms", "number|null", K_NUM, F(steal_ms) },
    { "run.sched.runq_ns", "number|null", K_NUM, F(runq_ns) },
    { "run.sched.runq_ns_per_kop", "number|null", K_NUM, F(runq_ns_per_kop) },
    { "run.sched.vcsw_per_kop", "number|null", K_NUM, F(vcsw_per_kop) },
    { "run.sched.ivcsw_per_kop", "number|null", K_NUM, F(ivcsw_per_kop) },
    { "run.sched.migrations_per_kop", "number|null", K_NUM, F(migr_per_kop) },
    { "run.line_rtt", "object|null", K_CODE, NO_FIELD, 0 },
    { "run.line_rtt.before_ns", "number|null", K_NUM, F(rtt_before) },
    { "run.line_rtt.after_ns", "number|null", K_NUM, F(rtt_after) },
    { "run.line_rtt.window", "object", K_CODE, NO_FIELD, 0 },
    { "run.line_rtt.window.ns[]", "number|null", K_CODE, NO_FIELD, 0 },
    { "run.line_rtt.window.cost_share", "number|null", K_NUM,
      F(rtt_cost_share) },
    { "run.churn", "object|null", K_CODE, NO_FIELD, 0 },
    { "run.churn.writes_per_s", "number", K_NUM, F(writes_per_s) },
    { "run.placement.cpus[]", "integer|null", K_CODE, NO_FIELD, 0 },
    { "threads[].id", "integer", K_CODE, NO_FIELD, 0 },
    { "threads[].cpu_start", "integer", K_CODE, NO_FIELD, 0 },
    { "threads[].cpu_end", "integer", K_CODE, NO_FIELD, 0 },
    { "probes", "object|null", K_CODE, NO_FIELD, 0 },
    { "probes.enabled", "boolean", K_CODE, NO_FIELD, 0 },
    { "probes.summary.retries_per_acquisition", "number|null", K_NUM,
      F(probe_retries) },
    { "probes.summary.slow_fetches_per_kfetch", "number|null", K_NUM,
      F(probe_slow) },
    { "probes.summary.writer_wait_ns_per_sync", "number|null", K_NUM,
      F(probe_wait) },
    { "run.delay", "object|null", K_CODE, NO_FIELD, 0 },
    { "run.delay.site", "string", K_TEXT, F(delay_site) },
    { "run.delay.ns", "integer", K_NUM, F(delay_ns) },
    { "run.delay.calls_per_op", "number|null", K_NUM, F(delay_calls_per_op) },
    { "run.delay.delay_ns_per_call", "number|null", K_NUM,
      F(delay_ns_per_call) },
    { "run.delay.own_ns_per_call", "number|null", K_NUM,
      F(delay_own_ns_per_call) },
    { "run.delay.fixed_ns", "integer", K_NUM, F(delay_fixed_ns) },
    { "probes.summary.shard_read_shares", "array|null", K_CODE, NO_FIELD, 0 },
    { "probes.summary.shard_read_shares[]", "number", K_CODE, NO_FIELD, 0 },
    { "counters", "object|null", K_CODE, NO_FIELD, 0 },
    { "samples", "object|null", K_CODE, NO_FIELD, 0 },
};
#define NMEMBERS (sizeof(members) / sizeof(members[0]))

const struct rcuprof_record_member *rcuprof_record_members(size_t *n)
{
    static struct rcuprof_record_member out[NMEMBERS];
    size_t i;

    for (i = 0; i < NMEMBERS; i++) {
        out[i].path = members[i].path;
        out[i].types = members[i].types;
    }
    *n = NMEMBERS;
    return out;
}

void rcuprof_record_init(rcuprof_record *r)
{
    memset(r, 0, sizeof(*r));
    r->loadavg1 = NAN;
    r->wall_ns = r->ops = r->cpu_ns = NAN;
    r->wall_ns_per_op = r->cpu_ns_per_op = r->ops_per_s = r->util = NAN;
    r->runq_ns = r->runq_share = r->runq_ns_per_kop = NAN;
    r->vcsw_per_kop = r->ivcsw_per_kop = r->migr_per_kop = NAN;
    r->steal_ms = r->steal_share = r->rtt_before = r->rtt_after = NAN;
    r->rtt_cost_share = NAN;
    r->state = RCUPROF_STATE_UNKNOWN;
    r->writes_per_s = NAN;
    r->probe_retries = r->probe_slow = r->probe_wait = NAN;
    r->probe_shard_max = NAN;
    r->coherence_per_kop = r->cycles_per_ns = NAN;
    r->delay_ns = r->delay_calls_per_op = r->delay_ns_per_call = NAN;
    r->delay_own_ns_per_call = r->delay_fixed_ns = NAN;
    r->on_cpu_share = r->off_cpu_share = NAN;
    r->placed = -1;
}

/* The value at a dotted path of objects (no []), or NULL. */
static const json_t *at(const json_t *o, const char *path)
{
    char key[64];
    const char *dot;

    while (o != NULL && (dot = strchr(path, '.')) != NULL) {
        if ((size_t)(dot - path) >= sizeof(key))
            return NULL;
        snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
        o = json_object_get(o, key);
        path = dot + 1;
    }
    return o != NULL ? json_object_get(o, path) : NULL;
}

static void read_member(const json_t *res, const struct member *m,
                        rcuprof_record *r)
{
    const json_t *v = at(res, m->path);
    char *field = (char *)r + m->off;

    switch (m->kind) {
    case K_NUM:
        *(double *)field = json_is_number(v) ? json_number_value(v) : NAN;
        break;
    case K_UINT:
        *(unsigned *)field = json_is_integer(v) && json_integer_value(v) > 0
                             && json_integer_value(v) <= 0x7fffffff
                             ? (unsigned)json_integer_value(v) : 0;
        break;
    case K_BOOL:
        *(int *)field = json_is_true(v);
        break;
    case K_TEXT:
        snprintf(field, m->size, "%s",
                 json_is_string(v) ? json_string_value(v) : "");
        break;
    default:
        break;
    }
}

/* ---- the counters member (probes/README.md) -------------------------- */

static int ci_contains(const char *hay, const char *needle)
{
    return strcasestr(hay, needle) != NULL;
}

static void read_counters(const json_t *c, rcuprof_record *r)
{
    static const char *const coh[] = { "HITM", "XSNP", "SNOOP", "FWD",
                                       "coherence", "c2c", NULL };
    json_t *v, *g, *u;
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
    json_object_foreach(json_object_get(c, "sums"), name, v) {
        const json_t *val = json_object_get(v, "value");

        if (!json_is_number(val))
            continue;
        for (k = 0; coh[k] != NULL; k++)
            if (ci_contains(name, coh[k])) {
                coh_sum += json_number_value(val);
                have_coh = 1;
                break;
            }
        if ((strcmp(name, "cycles") == 0 || ci_contains(name, "CPU_CLK_UNHALTED")
             || ci_contains(name, "CORE_CYCLES")) && !ci_contains(name, "REF"))
            cycles = json_number_value(val);
    }
    if (have_coh && r->ops > 0)
        r->coherence_per_kop = coh_sum * 1000.0 / r->ops;
    if (isfinite(cycles) && r->cpu_ns > 0)
        r->cycles_per_ns = cycles / r->cpu_ns;
    json_array_foreach(json_object_get(c, "unavailable"), i, u) {
        const char *why = json_string_value(json_object_get(u, "reason"));

        if (why != NULL && r->counters_note[0] == '\0')
            snprintf(r->counters_note, sizeof(r->counters_note), "%s: %s",
                     json_is_string(json_object_get(u, "name"))
                     ? json_string_value(json_object_get(u, "name")) : "?",
                     why);
    }
}

/* ---- placement ---------------------------------------------------------- */

static void add_cpu(rcuprof_record *r, const json_t *v)
{
    size_t i;
    int cpu;

    if (!json_is_integer(v))
        return;
    cpu = (int)json_integer_value(v);
    for (i = 0; i < r->ncpus_used; i++)
        if (r->cpus_used[i] == cpu)
            return;
    if (r->ncpus_used < RCUPROF_RECORD_MAX_CPUS)
        r->cpus_used[r->ncpus_used++] = cpu;
}

static void read_placement(const json_t *res, rcuprof_record *r)
{
    const json_t *cpus = at(res, "run.placement.cpus"), *t;
    size_t i;

    json_array_foreach(cpus, i, t)
        if (json_is_integer(t))
            r->pinned = 1;
    json_array_foreach(json_object_get(res, "threads"), i, t) {
        const json_t *id = json_object_get(t, "id");
        const json_t *cs = json_object_get(t, "cpu_start");
        const json_t *ce = json_object_get(t, "cpu_end");
        const json_t *plan = json_is_integer(id)
            ? json_array_get(cpus, (size_t)json_integer_value(id)) : NULL;

        add_cpu(r, cs);
        add_cpu(r, ce);
        /* Judged only where the thread reported both CPUs: -1 is a worker
         * that never entered the window (or sched_getcpu failed), which
         * says nothing about where the plan put it. */
        if (!json_is_integer(plan) || !json_is_integer(cs)
            || !json_is_integer(ce) || json_integer_value(cs) < 0
            || json_integer_value(ce) < 0)
            continue;
        if (r->placed < 0)
            r->placed = 1;
        if (json_integer_value(cs) != json_integer_value(plan)
            || json_integer_value(ce) != json_integer_value(plan)) {
            r->placed = 0;
            r->misplaced++;
        }
    }
}

/* ---- the round trip inside the window ---------------------------------- */

/* run.line_rtt.window.ns: the samples that are numbers above 0, in order
 * (at most RCUPROF_RECORD_MAX_RTT); a null sample (a burst the sampler gave
 * up on: the slow state itself) is counted in n_rtt_stalled. */
static void read_rtt_window(const json_t *res, rcuprof_record *r)
{
    const json_t *w = at(res, "run.line_rtt.window"), *v;
    size_t i;

    if (!json_is_object(w))
        return;
    r->have_rtt_window = 1;
    json_array_foreach(json_object_get(w, "ns"), i, v) {
        if (json_is_null(v))
            r->n_rtt_stalled++;
        else if (json_is_number(v) && json_number_value(v) > 0
                 && isfinite(json_number_value(v))
                 && r->n_rtt < RCUPROF_RECORD_MAX_RTT)
            r->rtt_ns[r->n_rtt++] = json_number_value(v);
    }
}

/* ---- the rule of a measurement ---------------------------------------- */

/* Equal but for rounding (a relative 1e-6: the driver divides the very
 * integers it writes; a hand-made result may round them). */
static int same(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

static void check(const json_t *res, rcuprof_record *r)
{
    const json_t *run = json_object_get(res, "run");
    const json_t *th = json_object_get(run, "threads");

    r->ok = 0;
    if (!json_is_object(res) || !json_is_object(run)) {
        snprintf(r->why, sizeof(r->why), "no run member");
        return;
    }
    if (th != NULL && !(json_is_integer(th) && json_integer_value(th) >= 1
                        && json_integer_value(th) <= 0x7fffffff)) {
        snprintf(r->why, sizeof(r->why),
                 "run.threads is not a whole number of at least 1");
        return;
    }
    r->threads = th != NULL ? (unsigned)json_integer_value(th) : 0;
    if (!(r->wall_ns_per_op > 0) || !isfinite(r->wall_ns_per_op)) {
        snprintf(r->why, sizeof(r->why),
                 "run.wall_ns_per_op is not a number above 0 (a run without ops?)");
        return;
    }
    if (!(r->cpu_ns_per_op >= 0) || !isfinite(r->cpu_ns_per_op)) {
        snprintf(r->why, sizeof(r->why),
                 "run.cpu_ns_per_op is not a number of at least 0");
        return;
    }
    if (r->wall_ns_per_op > RCUPROF_RECORD_MAX_NS_PER_OP
        || r->cpu_ns_per_op > RCUPROF_RECORD_MAX_NS_PER_OP) {
        snprintf(r->why, sizeof(r->why),
                 "run.%s_ns_per_op %.3g is above %.3g, one op in a day-long run on 1,024 threads",
                 r->wall_ns_per_op > RCUPROF_RECORD_MAX_NS_PER_OP ? "wall"
                                                                  : "cpu",
                 fmax(r->wall_ns_per_op, r->cpu_ns_per_op),
                 RCUPROF_RECORD_MAX_NS_PER_OP);
        return;
    }
    if (r->ops > 0 && r->threads > 0 && isfinite(r->wall_ns)
        && !same(r->wall_ns_per_op, r->wall_ns * r->threads / r->ops)) {
        snprintf(r->why, sizeof(r->why),
                 "run.wall_ns_per_op %.6g is not run.wall_ns x threads / ops (%.6g)",
                 r->wall_ns_per_op, r->wall_ns * r->threads / r->ops);
        return;
    }
    if (r->ops > 0 && isfinite(r->cpu_ns)
        && !same(r->cpu_ns_per_op, r->cpu_ns / r->ops)) {
        snprintf(r->why, sizeof(r->why),
                 "run.cpu_ns_per_op %.6g is not run.cpu_ns / ops (%.6g)",
                 r->cpu_ns_per_op, r->cpu_ns / r->ops);
        return;
    }
    r->ok = 1;
}

/* probes.summary.shard_read_shares: the shares, and the largest */
static void read_shard_shares(const json_t *a, rcuprof_record *r)
{
    size_t i, n = json_is_array(a) ? json_array_size(a) : 0;

    for (i = 0; i < n && i < RCUPROF_RECORD_MAX_SHARDS; i++) {
        const json_t *v = json_array_get(a, i);
        double x = json_is_number(v) ? json_number_value(v) : NAN;

        r->probe_shard_share[i] = x;
        if (isfinite(x) && !(x <= r->probe_shard_max))
            r->probe_shard_max = x;
    }
    r->probe_nshards = (unsigned)i;
}

void rcuprof_record_decode(const json_t *res, rcuprof_record *r)
{
    const json_t *probes = json_object_get(res, "probes"), *la;
    double online;
    size_t i;

    rcuprof_record_init(r);
    for (i = 0; i < NMEMBERS; i++)
        if (members[i].off != NO_FIELD)
            read_member(res, &members[i], r);
    check(res, r);
    if (!json_is_object(json_object_get(res, "run")))
        return;

    la = at(res, "env.loadavg");
    if (json_is_number(json_array_get(la, 0)))
        r->loadavg1 = json_number_value(json_array_get(la, 0));
    if (isfinite(r->runq_ns) && r->wall_ns > 0 && r->threads > 0)
        r->runq_share = r->runq_ns / (r->wall_ns * r->threads);
    online = r->cpus_online > 0 ? r->cpus_online : r->cpus_allowed;
    if (isfinite(r->steal_ms) && r->wall_ns > 0 && online > 0)
        r->steal_share = r->steal_ms * 1e6 / (r->wall_ns * online);
    read_placement(res, r);
    read_rtt_window(res, r);
    r->have_churn = json_is_object(at(res, "run.churn"));
    if (!r->have_churn)
        r->writes_per_s = NAN;
    /* "enabled": false means the layer is there but switched off. */
    r->have_probes = json_is_object(probes)
                     && !json_is_false(json_object_get(probes, "enabled"));
    if (!r->have_probes)
        r->probe_retries = r->probe_slow = r->probe_wait = NAN;
    else
        read_shard_shares(at(res, "probes.summary.shard_read_shares"), r);
    r->have_delay = json_is_object(at(res, "run.delay"));
    if (json_is_object(json_object_get(res, "counters")))
        read_counters(json_object_get(res, "counters"), r);
    if (json_is_object(json_object_get(res, "samples")))
        r->samples = json_object_get(res, "samples");
}
