/* `rcuprof run`: one measurement through the variant's driver. */
#define _GNU_SOURCE
#include "cli.h"
#include "rcuprof_opts.h"
#include "rcuprof_symbolize.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Counter sums per 1k ops, and what could not be counted, and why. */
static void print_counters(json_t *c, json_t *run)
{
    json_t *sums = json_object_get(c, "sums"), *v, *u;
    const char *name;
    double ops = (double)json_integer_value(json_object_get(run, "ops"));
    size_t i;

    if (!json_is_object(c))
        return;
    printf("counters       (sum over threads, per 1k ops)%s\n",
           json_is_true(json_object_get(c, "scaled"))
           ? "  * = multiplexed, scaled" : "");
    json_object_foreach(sums, name, v) {
        double val = json_number_value(json_object_get(v, "value"));

        printf("  %-24s %16.0f %14.3f%s\n", name, val,
               ops > 0 ? val * 1000.0 / ops : 0.0,
               json_is_true(json_object_get(v, "scaled")) ? " *" : "");
    }
    json_array_foreach(json_object_get(c, "unavailable"), i, u)
        printf("  %-24s unavailable: %s\n",
               json_string_value(json_object_get(u, "name")),
               json_string_value(json_object_get(u, "reason")));
}

/* The probe layer's figures (patches/3.5/probes, probes/probe_readout.c). */
static void print_probes(json_t *p)
{
    json_t *s = json_object_get(p, "summary");
    json_t *v;

    if (json_is_null(p) || p == NULL) {
        printf("probes         none (this variant carries no probe layer)\n");
        return;
    }
    if (!json_is_true(json_object_get(p, "enabled")) || !json_is_object(s)) {
        printf("probes         off (--probes off)\n");
        return;
    }
    printf("probes         lock %s: %lld acquisitions",
           json_string_value(json_object_get(s, "lock")),
           (long long)json_integer_value(json_object_get(s, "acquisitions")));
    if (json_is_number(v = json_object_get(s, "retries_per_acquisition")))
        printf(", %.6f retries/acq", json_number_value(v));
    if (json_is_number(v = json_object_get(s, "acquire_ticks_per_acquisition")))
        printf(", %.1f ticks/acq", json_number_value(v));
    if (json_is_number(v = json_object_get(s, "lock_ticks_per_acquisition")))
        printf(" (%.1f in read_lock)", json_number_value(v));
    if (json_is_integer(v = json_object_get(p, "timer_quantum_ticks")))
        printf(", timer quantum %lld ticks", (long long)json_integer_value(v));
    if (json_is_integer(v = json_object_get(p, "timer_cost_ticks")))
        printf(" (pair cost %lld subtracted)",
               (long long)json_integer_value(v));
    printf("\n");
    if (json_is_number(v = json_object_get(s, "slow_fetches_per_kfetch")))
        printf("               slow-path fetches %.2f per 1k\n", json_number_value(v));
    if (json_integer_value(json_object_get(s, "syncs")) > 0) {
        json_t *sp = json_object_get(s, "writer_spin_ns_per_sync");
        json_t *bl = json_object_get(s, "writer_blocked_ns_per_sync");

        printf("               writer wait per synchronize (%lld synchronize): "
               "spinning %.0f ns, blocked %.0f ns (%lld blocked)\n",
               (long long)json_integer_value(json_object_get(s, "syncs")),
               json_is_number(sp) ? json_number_value(sp) : 0.0,
               json_is_number(bl) ? json_number_value(bl) : 0.0,
               (long long)json_integer_value(json_object_get(s, "blocked_syncs")));
    }
    if (json_is_number(v = json_object_get(json_object_get(p, "self_cost"), "added_ns")))
        printf("               probe cost %.1f ns per read lock/unlock (measured on)\n",
               json_number_value(v));
}

static void print_human(json_t *res)
{
    json_t *run = json_object_get(res, "run"), *b = json_object_get(res, "build");
    json_t *env = json_object_get(res, "env");
    json_t *wl = json_object_get(run, "workload");
    json_t *items = json_object_get(wl, "items"), *it;
    size_t i;

    printf("variant        %s (OpenSSL %s, %zu patches)\n",
           json_string_value(json_object_get(b, "variant")),
           json_string_value(json_object_get(b, "openssl_version")),
           json_array_size(json_object_get(b, "patches")));
    printf("workload       %s", json_string_value(json_object_get(wl, "kind"))
                                 != NULL
           ? json_string_value(json_object_get(wl, "kind")) : "?");
    if (json_is_string(json_object_get(wl, "alg")))
        printf(" %s, %s, %lld update(s) of %lld B; ops of %s",
               json_string_value(json_object_get(wl, "alg")),
               json_string_value(json_object_get(wl, "mode")),
               (long long)json_integer_value(json_object_get(wl, "updates")),
               (long long)json_integer_value(json_object_get(wl,
                                                             "data_bytes")),
               json_string_value(json_object_get(wl, "ops_of")));
    json_array_foreach(items, i, it)
        printf("%s%s:%s", i ? "," : " ",
               json_string_value(json_object_get(it, "type")),
               json_string_value(json_object_get(it, "alg")));
    printf(" (libctx %s%s%s)\n",
           json_string_value(json_object_get(wl, "libctx")),
           json_is_string(json_object_get(wl, "propq")) ? ", query " : "",
           json_is_string(json_object_get(wl, "propq"))
           ? json_string_value(json_object_get(wl, "propq")) : "");
    printf("threads        %lld%s\n",
           (long long)json_integer_value(json_object_get(run, "threads")),
           json_is_true(json_object_get(env, "oversubscribed"))
           ? "  (oversubscribed: more threads than CPUs allowed)" : "");
    printf("window         %.3f s, %lld ops\n",
           (double)json_integer_value(json_object_get(run, "wall_ns")) / 1e9,
           (long long)json_integer_value(json_object_get(run, "ops")));
    printf("wall ns/op     %.2f   (window x threads / ops)\n",
           json_number_value(json_object_get(run, "wall_ns_per_op")));
    printf("cpu ns/op      %.2f\n",
           json_number_value(json_object_get(run, "cpu_ns_per_op")));
    printf("ops/s          %.0f\n",
           json_number_value(json_object_get(run, "ops_per_s")));
    printf("utilisation    %.2f\n",
           json_number_value(json_object_get(run, "utilisation")));
    print_probes(json_object_get(res, "probes"));
    print_counters(json_object_get(res, "counters"), run);
    if (json_is_object(json_object_get(res, "samples"))) {
        char err[512];
        json_t *rep = rcuprof_attribute_result(res, 10, 0, err, sizeof(err));

        printf("\n");
        if (rep != NULL)
            rcuprof_attribute_print(stdout, rep);
        else
            printf("attribution    failed: %s\n", err);
        json_decref(rep);
    }
}

int rcuprof_cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
#define RCUPROF_OPT(name, ch, arg, meta, def, help) { name, arg, NULL, ch },
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
        { "variant", 1, NULL, 'v' }, { "timeout", 1, NULL, 'T' },
        { "json", 0, NULL, 'j' }, { "output", 1, NULL, 'o' },
        { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
    };
    const char *variant = NULL, *outfile = NULL;
    char *dargv[64], drv[PATH_MAX], err[1024];
    int dargc = 1, ch, terse = 0, as_json = 0, rc;
    char shortopts[128] = "";
    uint64_t timeout = 120, v;
    struct rcuprof_driver_result r;
    json_t *known, *res;
    json_error_t je;

    optind = 1;
    opterr = 0;
    rcuprof_opts_optstring(shortopts, sizeof(shortopts), "v:T:jo:th");
    while ((ch = getopt_long(argc, argv, shortopts, opts,
                             NULL)) != -1) {
        const char *lname = NULL;
        size_t k;

        switch (ch) {
        case 'v': variant = optarg; continue;
        case 'T':
            if (rcuprof_parse_uint(optarg, 1, 86400, &timeout) != 0) {
                rcuprof_err("run: --timeout '%s': give whole seconds from 1 to 86400",
                            optarg);
                return RCUPROF_ERR_USAGE;
            }
            continue;
        case 'j': as_json = 1; continue;
        case 't': terse = 1; continue;
        case 'o': outfile = optarg; continue;
        case 'h':
            printf("usage: rcuprof run --variant V [options]\n");
#define RCUPROF_OPT(name, c, arg, meta, def, help) \
            rcuprof_opts_help_row(stdout, name, meta, help, arg, def);
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
            printf("  --%-12s %-12s %s\n", "variant", "V", "the variant to measure (rcuprof variants lists them)");
            printf("  --%-12s %-12s %s\n", "timeout", "S", "kill the driver after S seconds (default: 120)");
            printf("  --%-12s %-12s %s\n", "json", "", "print the result JSON instead of the summary");
            printf("  --%-12s %-12s %s\n", "output", "FILE", "also write the result JSON to FILE, atomically");
            printf("  -t %-26s %s\n", "", "print one number: microseconds per op (wall), as perftools does");
            printf("  --%-12s %-12s %s\n", "help", "", "this list");
            return RCUPROF_OK;
        case '?':
            rcuprof_err("run: unknown option or missing value '%s': see 'rcuprof run --help'",
                        argv[optind - 1]);
            return RCUPROF_ERR_USAGE;
        default:
            /* A driver option: checked here (numbers) and passed on. */
            for (k = 0; opts[k].name != NULL; k++)
                if (opts[k].val == ch)
                    lname = opts[k].name;
            if (ch == 'n' && rcuprof_parse_uint(optarg, 1, RCUPROF_THREADS_MAX, &v) != 0) {
                rcuprof_err("run: --threads '%s': give a whole number from 1 to %d",
                            optarg, RCUPROF_THREADS_MAX);
                return RCUPROF_ERR_USAGE;
            }
            if (dargc + 2 >= (int)(sizeof(dargv) / sizeof(dargv[0]))) {
                rcuprof_err("run: too many options");
                return RCUPROF_ERR_USAGE;
            }
            if (optarg == NULL
                ? asprintf(&dargv[dargc++], "--%s", lname) < 0
                : asprintf(&dargv[dargc++], "--%s=%s", lname, optarg) < 0)
                return RCUPROF_ERR_SYSTEM;
        }
    }
    if (optind < argc) {
        rcuprof_err("run: unexpected argument '%s': see 'rcuprof run --help'",
                    argv[optind]);
        return RCUPROF_ERR_USAGE;
    }
    if (variant == NULL) {
        rcuprof_err("run: --variant is required: 'rcuprof variants' lists them");
        return RCUPROF_ERR_USAGE;
    }
    known = rcuprof_variants_load(err, sizeof(err));
    if (known == NULL) {
        rcuprof_err("%s", err);
        return RCUPROF_ERR_USAGE;
    }
    if (json_object_get(known, variant) == NULL) {
        rcuprof_err("run: unknown variant '%s': 'rcuprof variants' lists them, 'rcuprof variant add' makes one",
                    variant);
        json_decref(known);
        return RCUPROF_ERR_USAGE;
    }
    json_decref(known);
    snprintf(drv, sizeof(drv), "%s/rcuprof-stress-%s", rcuprof_bindir(), variant);
    if (access(drv, X_OK) != 0) {
        rcuprof_err("run: variant '%s' is not built (no %s): build it with 'make demo' or cmake --build build",
                    variant, drv);
        return RCUPROF_ERR_USAGE;
    }
    dargv[0] = drv;
    dargv[dargc] = NULL;

    if (rcuprof_driver_spawn(drv, dargv, (double)timeout, &r) != 0) {
        rcuprof_err("run: cannot start %s: check it is executable", drv);
        return RCUPROF_ERR_SYSTEM;
    }
    for (int i = 1; i < dargc; i++)
        free(dargv[i]);
    if (r.timed_out || !r.exited || r.status != 0) {
        rcuprof_driver_error_message(&r, err, sizeof(err));
        if (r.timed_out)
            rcuprof_err("run: %s timed out after %llu s and was killed: raise --timeout or shorten the run",
                        variant, (unsigned long long)timeout);
        else if (!r.exited)
            rcuprof_err("run: the %s driver crashed (signal %d)%s%s", variant,
                        r.status, err[0] ? ": " : "", err);
        else
            rcuprof_err("run: %s", err[0] ? err : "the driver failed without a message");
        /* Driver usage (2) and setup (3) failures come from what the user
         * asked for (an unknown algorithm, a bad query): bad input. */
        rc = r.exited && !r.timed_out && (r.status == 2 || r.status == 3)
             ? RCUPROF_ERR_USAGE : RCUPROF_ERR_RUN;
        rcuprof_driver_result_free(&r);
        return rc;
    }
    res = json_loads(r.out, 0, &je);
    if (res == NULL || !json_is_object(res)) {
        rcuprof_err("run: the %s driver printed no valid JSON (%s): the driver and rcuprof disagree on the protocol, rebuild both",
                    variant, je.text);
        rcuprof_driver_result_free(&r);
        json_decref(res);
        return RCUPROF_ERR_RUN;
    }
    if (outfile != NULL
        && rcuprof_write_atomic(outfile, r.out, strlen(r.out)) != 0) {
        rcuprof_err("run: cannot write %s: check the folder exists and is writable",
                    outfile);
        rcuprof_driver_result_free(&r);
        json_decref(res);
        return RCUPROF_ERR_SYSTEM;
    }
    if (terse)
        printf("%.4f\n", json_number_value(json_object_get(
            json_object_get(res, "run"), "wall_ns_per_op")) / 1000.0);
    else if (as_json)
        fputs(r.out, stdout);
    else
        print_human(res);
    rcuprof_driver_result_free(&r);
    json_decref(res);
    return RCUPROF_OK;
}
