/*
 * The text writer of one run result: what `rcuprof run` prints (variant,
 * workload, threads, the window, the per-op figures, the probe layer's
 * summary and the counters).  The attribution of a sampled run is
 * attribute.c's.
 */
#include "rcuprof_report.h"

#include <stdio.h>
#include <string.h>

/* Counter sums per 1k ops, and what could not be counted, and why. */
static void print_counters(FILE *f, const json_t *c, const json_t *run)
{
    json_t *sums = json_object_get(c, "sums"), *v, *u;

    const char *name;
    double ops = (double)json_integer_value(json_object_get(run, "ops"));
    size_t i;

    if (!json_is_object(c))
        return;
    fprintf(f, "counters       (sum over threads, per 1k ops)%s\n",
           json_is_true(json_object_get(c, "scaled"))
           ? "  * = multiplexed, scaled" : "");
    json_object_foreach(sums, name, v) {
        double val = json_number_value(json_object_get(v, "value"));

        fprintf(f, "  %-24s %16.0f %14.3f%s\n", name, val,
               ops > 0 ? val * 1000.0 / ops : 0.0,
               json_is_true(json_object_get(v, "scaled")) ? " *" : "");
    }
    json_array_foreach(json_object_get(c, "unavailable"), i, u)
        fprintf(f, "  %-24s unavailable: %s\n",
               json_string_value(json_object_get(u, "name")),
               json_string_value(json_object_get(u, "reason")));
}

/*
 * The probes' own cost: the difference of two timings of one uncontended
 * read lock/unlock (probes on, probes off).  At or below 0 the probes
 * cost less than the clock resolves; the difference is shown as what it
 * is, never as a cost.
 */
static void print_probe_cost(FILE *f, double added_ns)
{
    if (added_ns > 0)
        fprintf(f, "               probe cost %.1f ns per read lock/unlock "
                "(on minus off)\n", added_ns);
    else
        fprintf(f, "               probe cost below the clock's resolution "
                "(on minus off: %.1f ns per read lock/unlock)\n", added_ns);
}

static void print_probe_rest(FILE *f, const json_t *p, const json_t *s);

/*
 * The read lock's time per timed acquisition: the whole ossl_rcu_read_lock
 * (lock_ticks) and, inside it, its acquire loop (acquire_ticks), in ns at
 * the result's ticks_per_us (in ticks when it has none), then the timer's
 * own figures, in ticks as the timer counts them.
 */
static void print_probe_times(FILE *f, const json_t *p, const json_t *s)
{
    const json_t *whole = json_object_get(s, "lock_ticks_per_acquisition");
    const json_t *loop = json_object_get(s, "acquire_ticks_per_acquisition");
    const json_t *tpu = json_object_get(p, "ticks_per_us"), *v;
    double k = json_is_number(tpu) && json_number_value(tpu) > 0
               ? 1000.0 / json_number_value(tpu) : 1.0;
    const char *unit = k != 1.0 ? "ns" : "ticks";
    int any = 0;

    if (json_is_number(whole)) {
        fprintf(f, "               ossl_rcu_read_lock %.1f %s per acq",
                json_number_value(whole) * k, unit);
        any = 1;
    }
    if (json_is_number(loop)) {
        fprintf(f, any ? ", of which its acquire loop %.1f %s"
                       : "               its acquire loop %.1f %s per acq",
                json_number_value(loop) * k, unit);
        any = 1;
    }
    if (json_is_integer(v = json_object_get(p, "timer_quantum_ticks"))) {
        fprintf(f, "%stimer quantum %lld ticks", any ? "; " : "               ",
                (long long)json_integer_value(v));
        any = 1;
        if (json_is_integer(v = json_object_get(p, "timer_cost_ticks")))
            fprintf(f, " (pair cost %lld subtracted)",
                    (long long)json_integer_value(v));
    }
    if (any)
        fprintf(f, "\n");
    if (!json_is_number(tpu))
        return;
    fprintf(f, "               (acq: one outermost RCU read-lock hold");
    if (json_is_integer(v = json_object_get(p, "sample_every")))
        fprintf(f, ", 1 in %lld timed", (long long)json_integer_value(v));
    fprintf(f, "; ns from the probe timer, %s, %.0f ticks per us)\n",
            json_is_string(json_object_get(p, "clock"))
            ? json_string_value(json_object_get(p, "clock")) : "?",
            json_number_value(tpu));
}

/* The probe layer's figures (patches/3.5/probes, probes/probe_readout.c). */
static void print_probes(FILE *f, const json_t *p)
{
    json_t *s = json_object_get(p, "summary");
    json_t *v;

    if (json_is_null(p) || p == NULL) {
        fprintf(f, "probes         none (this variant carries no probe layer)\n");
        return;
    }
    if (!json_is_true(json_object_get(p, "enabled")) || !json_is_object(s)) {
        fprintf(f, "probes         off (--probes off)\n");
        return;
    }
    if (json_integer_value(json_object_get(s, "acquisitions")) == 0) {
        /* "lock other: 0 acquisitions" said nothing: say what it means. */
        fprintf(f, "probes         the workers took no RCU read lock "
                "(lock %s: %s)\n",
                json_string_value(json_object_get(s, "lock")),
                strcmp(json_string_value(json_object_get(s, "lock")) != NULL
                       ? json_string_value(json_object_get(s, "lock")) : "",
                       "other") == 0 ? "the unnamed RCU locks" : "unused");
        print_probe_rest(f, p, s);
        return;
    }
    fprintf(f, "probes         lock %s: %lld acquisitions",
           json_string_value(json_object_get(s, "lock")),
           (long long)json_integer_value(json_object_get(s, "acquisitions")));
    if (json_is_number(v = json_object_get(s, "retries_per_acquisition")))
        fprintf(f, ", %.6f retries/acq", json_number_value(v));
    fprintf(f, "\n");
    print_probe_times(f, p, s);
    print_probe_rest(f, p, s);
}

/* The store's and the writers' figures, and the probes' own cost. */
static void print_probe_rest(FILE *f, const json_t *p, const json_t *s)
{
    json_t *v;

    if (json_is_number(v = json_object_get(s, "slow_fetches_per_kfetch")))
        fprintf(f, "               slow-path fetches %.2f per 1k\n", json_number_value(v));
    /* a sharded store (4.0): the workers' read locks, shard by shard */
    if (json_is_array(v = json_object_get(s, "shard_read_shares"))) {
        size_t i;

        fprintf(f, "               store read locks by shard:");
        for (i = 0; i < json_array_size(v); i++)
            fprintf(f, " %zu: %.1f%%", i,
                    100.0 * json_number_value(json_array_get(v, i)));
        fprintf(f, "\n");
    }
    if (json_integer_value(json_object_get(s, "syncs")) > 0) {
        const json_t *sp = json_object_get(s, "writer_spin_ns_per_sync");
        const json_t *bl = json_object_get(s, "writer_blocked_ns_per_sync");

        /* syncs count the whole process (warm-up and tail too), not the
         * window run.churn's writes count: set against the publications,
         * counted the same way */
        fprintf(f, "               writer wait per synchronize (%lld synchronize",
                (long long)json_integer_value(json_object_get(s, "syncs")));
        if (json_is_integer(json_object_get(s, "publications")))
            fprintf(f, " for %lld store publications",
                    (long long)json_integer_value(json_object_get(s,
                                                                  "publications")));
        fprintf(f, ", whole process): "
                "spinning %.0f ns, blocked %.0f ns (%lld blocked)\n",
                json_is_number(sp) ? json_number_value(sp) : 0.0,
                json_is_number(bl) ? json_number_value(bl) : 0.0,
                (long long)json_integer_value(json_object_get(s,
                                                              "blocked_syncs")));
    }
    if (json_is_number(v = json_object_get(json_object_get(p, "self_cost"),
                                           "added_ns")))
        print_probe_cost(f, json_number_value(v));
}

/* The workload's lib ctx and query, where it has them (a baseline such as
 * rwlock has neither), and the end of the workload line. */
static void print_context(FILE *f, const json_t *wl)
{
    const json_t *ctx = json_object_get(wl, "libctx");
    const json_t *q = json_object_get(wl, "propq");

    if (json_is_string(ctx) && json_is_string(q))
        fprintf(f, " (libctx %s, query %s)", json_string_value(ctx),
                json_string_value(q));
    else if (json_is_string(ctx))
        fprintf(f, " (libctx %s)", json_string_value(ctx));
    else if (json_is_string(q))
        fprintf(f, " (query %s)", json_string_value(q));
    fprintf(f, "\n");
}

/* How the numbers were taken: rcuprof's harness, or perftools' artefacts
 * switched on by --compat (run.harness), each named. */
static void print_harness(FILE *f, const json_t *h)
{
    const char *mode = json_string_value(json_object_get(h, "mode"));

    if (mode == NULL)
        return;
    if (strcmp(mode, "rcuprof") == 0) {
        fprintf(f, "harness        rcuprof (start barrier, warm-up, "
                "padded counts)\n");
        return;
    }
    /* what --compat takes to ask for this harness again (src/stress's
     * opt_compat): perftools, or the list of the artefacts on */
    if (strcmp(mode, "perftools") == 0) {
        fprintf(f, "harness        --compat perftools (every artefact):");
    } else {
        const json_t *stride = json_object_get(h, "count_stride_bytes");
        int unpadded = json_is_integer(stride)
                       ? json_integer_value(stride) <= (json_int_t)sizeof(size_t)
                       : json_is_false(json_object_get(h, "counts_padded"));
        const char *sep = "";

        fprintf(f, "harness        --compat ");
        if (json_is_true(json_object_get(h, "clock_per_op"))) {
            fprintf(f, "%sclock", sep);
            sep = ",";
        }
        if (json_is_false(json_object_get(h, "start_barrier"))) {
            fprintf(f, "%snobarrier", sep);
            sep = ",";
        } else if (json_is_false(json_object_get(h, "deadline_after_barrier"))) {
            fprintf(f, "%searly-deadline", sep);
            sep = ",";
        }
        if (unpadded)
            fprintf(f, "%sunpadded", sep);
        fprintf(f, ":");
    }
    if (json_is_true(json_object_get(h, "clock_per_op")))
        fprintf(f, " clock read per op;");
    if (json_is_false(json_object_get(h, "start_barrier")))
        fprintf(f, " no start barrier, no warm-up;");
    else if (json_is_false(json_object_get(h, "deadline_after_barrier")))
        fprintf(f, " deadline fixed before the threads start;");
    if (json_is_false(json_object_get(h, "counts_padded")))
        fprintf(f, " unpadded counts;");
    fprintf(f, " not comparable with runs without --compat\n");
}

/*
 * run.churn: the writes achieved against the rate asked, both of the timed
 * window (the probes' synchronize count is whole-process and says so).
 */
static void print_churn(FILE *f, const json_t *c)
{
    const json_t *k, *target = json_object_get(c, "write_rate_target");
    long long w = json_integer_value(json_object_get(c, "writers"));
    size_t i;

    if (!json_is_object(c))
        return;
    fprintf(f, "churn         ");
    json_array_foreach(json_object_get(c, "kinds"), i, k)
        fprintf(f, "%s%s", i ? "," : " ", json_string_value(k));
    fprintf(f, ", %lld writer%s: %lld writes in the %.3f s window, %.0f per s",
            w, w == 1 ? "" : "s",
            (long long)json_integer_value(json_object_get(c, "writes")),
            json_number_value(json_object_get(c, "window_s")),
            json_number_value(json_object_get(c, "writes_per_s")));
    if (json_integer_value(target) > 0)
        fprintf(f, " against %lld per s asked", (long long)json_integer_value(target));
    else
        fprintf(f, " (unpaced: no rate asked)");
    if (json_integer_value(json_object_get(c, "failures")) > 0)
        fprintf(f, "; %lld failed, first: %s",
                (long long)json_integer_value(json_object_get(c, "failures")),
                json_is_string(json_object_get(c, "first_failure"))
                ? json_string_value(json_object_get(c, "first_failure")) : "?");
    fprintf(f, "\n");
}

/* A figure of run.delay as text: "%.*f" of a number, else "n/a". */
static const char *delay_fig(char *buf, size_t n, const json_t *v, int prec)
{
    if (json_is_number(v))
        snprintf(buf, n, "%.*f", prec, json_number_value(v));
    else
        snprintf(buf, n, "n/a");
    return buf;
}

/* run.delay (docs/interfaces.md 3.4), one line: nothing without a site. */
static void print_delay(FILE *f, const json_t *d)
{
    char cpo[32], spent[32], own[32];

    if (!json_is_object(d))
        return;
    fprintf(f, "delay          %s (%s site) %lld ns: %s calls/op, %s ns/call "
               "spent, ",
            json_string_value(json_object_get(d, "site")),
            json_string_value(json_object_get(d, "where")),
            (long long)json_integer_value(json_object_get(d, "ns")),
            delay_fig(cpo, sizeof(cpo), json_object_get(d, "calls_per_op"), 3),
            delay_fig(spent, sizeof(spent),
                      json_object_get(d, "delay_ns_per_call"), 1));
    if (json_is_number(json_object_get(d, "own_ns_per_call")))
        fprintf(f, "own %s ns/call\n",
                delay_fig(own, sizeof(own),
                          json_object_get(d, "own_ns_per_call"), 1));
    else
        fprintf(f, "own code not timed\n");
}

/*
 * Issue 26 item 2: the shared-line operations per op the probe layer
 * counted (probes.shared_ops), one line; nothing when the run has none
 * (no probe layer, --probes off, or a layer without these counters).
 */
static void print_shared_ops(FILE *f, const json_t *p)
{
    const json_t *o = json_object_get(p, "shared_ops");

    if (!json_is_object(o) || !json_is_number(json_object_get(o, "read_locks_per_op")))
        return;
    fprintf(f, "per op         %.3f read locks (%.3f rwlock, %.3f RCU), "
            "%.3f refcount RMWs (%.3f up, %.3f down), %.3f write locks: "
            "%.3f shared-line RMWs (counted by the probes)\n",
            json_number_value(json_object_get(o, "read_locks_per_op")),
            (double)json_integer_value(json_object_get(o, "rwlock_reads"))
            / (double)json_integer_value(json_object_get(o, "ops")),
            (double)json_integer_value(json_object_get(o, "rcu_reads"))
            / (double)json_integer_value(json_object_get(o, "ops")),
            json_number_value(json_object_get(o, "refcount_ops_per_op")),
            (double)json_integer_value(json_object_get(o, "ref_ups"))
            / (double)json_integer_value(json_object_get(o, "ops")),
            (double)json_integer_value(json_object_get(o, "ref_downs"))
            / (double)json_integer_value(json_object_get(o, "ops")),
            json_number_value(json_object_get(o, "write_locks_per_op")),
            json_number_value(json_object_get(o, "shared_rmw_per_op")));
}

void rcuprof_run_summary_print(FILE *f, const json_t *res)
{
    const json_t *run = json_object_get(res, "run");
    const json_t *b = json_object_get(res, "build");
    const json_t *env = json_object_get(res, "env");
    const json_t *wl = json_object_get(run, "workload");
    const json_t *items = json_object_get(wl, "items"), *it;
    size_t i;

    fprintf(f, "variant        %s (OpenSSL %s, %zu patches)\n",
           json_string_value(json_object_get(b, "variant")),
           json_string_value(json_object_get(b, "openssl_version")),
           json_array_size(json_object_get(b, "patches")));
    fprintf(f, "workload       %s",
            json_is_string(json_object_get(wl, "kind"))
            ? json_string_value(json_object_get(wl, "kind")) : "?");
    if (json_is_string(json_object_get(wl, "alg")))
        fprintf(f, " %s, %s, %lld update(s) of %lld B; ops of %s",
                json_string_value(json_object_get(wl, "alg")),
                json_string_value(json_object_get(wl, "mode")),
                (long long)json_integer_value(json_object_get(wl, "updates")),
                (long long)json_integer_value(json_object_get(wl,
                                                              "data_bytes")),
                json_string_value(json_object_get(wl, "ops_of")));
    json_array_foreach(items, i, it)
        fprintf(f, "%s%s:%s", i ? "," : " ",
               json_string_value(json_object_get(it, "type")),
               json_string_value(json_object_get(it, "alg")));
    print_context(f, wl);
    print_harness(f, json_object_get(run, "harness"));
    fprintf(f, "threads        %lld%s\n",
           (long long)json_integer_value(json_object_get(run, "threads")),
           json_is_true(json_object_get(env, "oversubscribed"))
           ? "  (oversubscribed: more threads than CPUs allowed)" : "");
    fprintf(f, "window         %.3f s, %lld ops\n",
           (double)json_integer_value(json_object_get(run, "wall_ns")) / 1e9,
           (long long)json_integer_value(json_object_get(run, "ops")));
    fprintf(f, "wall ns/op     %.2f   (window x threads / ops)\n",
           json_number_value(json_object_get(run, "wall_ns_per_op")));
    fprintf(f, "cpu ns/op      %.2f\n",
           json_number_value(json_object_get(run, "cpu_ns_per_op")));
    fprintf(f, "ops/s          %.0f\n",
           json_number_value(json_object_get(run, "ops_per_s")));
    fprintf(f, "utilisation    %.2f\n",
           json_number_value(json_object_get(run, "utilisation")));
    print_churn(f, json_object_get(run, "churn"));
    print_delay(f, json_object_get(run, "delay"));
    print_probes(f, json_object_get(res, "probes"));
    print_shared_ops(f, json_object_get(res, "probes"));
    print_counters(f, json_object_get(res, "counters"), run);
}
