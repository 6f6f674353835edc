/* `rcuprof run`: one measurement through the variant's driver. */
#define _GNU_SOURCE
#include "cli.h"
#include "experiment.h"
#include "record.h"
#include "rcuprof_attribute.h"
#include "rcuprof_report.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The summary of a result, and the short form of its attribution when it
 * was sampled (the whole report is rcuprof attribute's). */
static void run_print_summary(const json_t *res, const char *output)
{
    rcuprof_run_summary_print(stdout, res);
    if (json_is_object(json_object_get(res, "samples"))) {
        char err[512];
        rcuprof_record rec;
        json_t *rep;

        rcuprof_record_decode(res, &rec);
        rep = rcuprof_attribute_record(&rec, 10, 0, err, sizeof(err));
        if (rep != NULL)
            rcuprof_attribute_print_brief(stdout, rep, output);
        else
            printf("attribution    failed: %s\n", err);
        json_decref(rep);
    }
}

/* The options of `rcuprof run` itself; the driver's follow them. */
struct run_opts {
    const char *variant, *output, *host;
    uint64_t timeout;
    int json, terse;
};

static const struct rcuprof_opt run_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variant", 'v', "V", "", 0, 0,
                   struct run_opts, variant, NULL,
                   "the variant to measure (rcuprof variants lists them)"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "timeout", 'T', "S", "120", 1, 86400,
                   struct run_opts, timeout, NULL,
                   "kill the driver after S seconds"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "json", 'j', "", "", 0, 1,
                   struct run_opts, json, NULL,
                   "print the result JSON instead of the summary (not with -t)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "output", 'o', "FILE", "", 0, 0,
                   struct run_opts, output, NULL,
                   "also write the result JSON to FILE, atomically"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, NULL, 't', "", "", 0, 1,
                   struct run_opts, terse, NULL,
                   "print one number: wall time per op in microseconds, as perftools prints it (the one figure not in ns/op; not with --json)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "host", 0, "NAME", "local", 0, 0,
                   struct run_opts, host, NULL,
                   "run the driver on host NAME (rcuprof host list)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 'h', "", "", 0, 0,
                        "this list"),
};
#define RUN_NROWS (sizeof(run_rows) / sizeof(run_rows[0]))

static void run_help(void)
{
    printf("usage: rcuprof run --variant V [options]\n");
    /* run takes the short letters: each is shown beside its name */
    rcuprof_opts_help(stdout, rcuprof_driver_opts, rcuprof_driver_nopts, 1,
                      NULL);
    rcuprof_opts_help(stdout, run_rows, RUN_NROWS, 1, NULL);
}

/* The variant known and built: its driver's path in drv.  0 or -1. */
static int run_find_driver(const char *variant, char *drv, size_t n)
{
    char err[1024];
    json_t *known = rcuprof_variants_load(err, sizeof(err));

    if (known == NULL) {
        rcuprof_err("%s", err);
        return -1;
    }
    if (rcuprof_variant_usable("run", variant, known, drv, n) != 0) {
        json_decref(known);
        return -1;
    }
    json_decref(known);
    return 0;
}

/* A failed driver run: its one line; the exit code. */
static int run_failed(const struct run_opts *o,
                      const struct rcuprof_exp_outcome *oc)
{
    struct rcuprof_driver_result rr = { .err = oc->err };
    const struct rcuprof_driver_result *r = &rr;
    char err[1024];

    rr.exited = oc->exited;
    rr.status = oc->code;
    rr.timed_out = oc->timed_out;
    rcuprof_driver_error_message(r, err, sizeof(err));
    if (r->timed_out)
        rcuprof_err("run: %s timed out after %llu s and was killed: raise --timeout or shorten the run",
                    o->variant, (unsigned long long)o->timeout);
    else if (!r->exited)
        rcuprof_err("run: the %s driver crashed (signal %d)%s%s", o->variant,
                    r->status, err[0] ? ": " : "", err);
    else
        rcuprof_err("run: %s", err[0] ? err : "the driver failed without a message");
    /* Driver usage (2) and setup (3) failures come from what the user
     * asked for (an unknown algorithm, a bad query): bad input. */
    return oc->refused ? RCUPROF_ERR_USAGE : RCUPROF_ERR_RUN;
}

/*
 * A result that is not a measurement (record.h's rule: no op in the
 * window, so no per-op figure) is said so, never printed as 0.00: its one
 * line; 1.  0 for a measurement.
 */
static int run_not_measured(const struct run_opts *o, const json_t *res,
                            const rcuprof_record *r)
{
    rcuprof_record rec = *r;    /* decoded once, by the engine */
    const json_t *run = json_object_get(res, "run");

    if (rec.ok)
        return 0;
    if (json_integer_value(json_object_get(run, "ops")) == 0)
        rcuprof_err("run: %s completed no op in its %.3f ms window, so there is no per-op figure: lengthen --duration-ms or give --ops",
                    o->variant,
                    (double)json_integer_value(json_object_get(run,
                                                               "wall_ns"))
                    / 1e6);
    else
        rcuprof_err("run: the %s result is not a measurement (%s): rerun it; if it persists, rebuild the driver",
                    o->variant, rec.why);
    return 1;
}

int rcuprof_cmd_run(int argc, char **argv)
{
    struct run_opts o = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "run", .rows = run_rows,
                                   .n = RUN_NROWS, .target = &o, .letters = 1 };
    const struct rcuprof_opt *action;
    char *dargv[64], drv[PATH_MAX], vname[96], err[1024];
    int first, rc, mr;
    struct rcuprof_exp_outcome r;
    struct rcuprof_executor *x;
    json_t *dopts = json_object(), *res;

    co.driver = dopts;
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc != 0) {
        json_decref(dopts);
        if (rc < 0)
            return RCUPROF_ERR_USAGE;
        run_help();
        return RCUPROF_OK;
    }
    if (first < argc) {
        rcuprof_err("run: unexpected argument '%s': see 'rcuprof run --help'",
                    argv[first]);
        json_decref(dopts);
        return RCUPROF_ERR_USAGE;
    }
    if (o.terse && o.json) {
        rcuprof_err("run: -t and --json both print the result: give one (--output FILE keeps the JSON beside -t)");
        json_decref(dopts);
        return RCUPROF_ERR_USAGE;
    }
    if (o.variant == NULL) {
        rcuprof_err("run: --variant is required: 'rcuprof variants' lists them");
        json_decref(dopts);
        return RCUPROF_ERR_USAGE;
    }
    if (strlen(o.variant) < sizeof(vname)) {  /* stock@3.5 is stock */
        strcpy(vname, o.variant);
        o.variant = rcuprof_variant_canon(vname);
    }
    if (run_find_driver(o.variant, drv, sizeof(drv)) != 0) {
        json_decref(dopts);
        return RCUPROF_ERR_USAGE;
    }
    rc = rcuprof_driver_argv(drv, dopts, dargv, 64);
    json_decref(dopts);
    if (rc < 0)
        return RCUPROF_ERR_SYSTEM;

    if ((x = rcuprof_executor_open(o.host, err, sizeof(err))) == NULL) {
        rcuprof_driver_argv_free(dargv);
        rcuprof_err("run: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    err[0] = '\0';
    if (x->prepare(x, o.variant, drv, err, sizeof(err)) != 0) {
        rcuprof_driver_argv_free(dargv);
        rcuprof_executor_close(x);
        rcuprof_err("run: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    mr = rcuprof_exp_measure(x, dargv, (double)o.timeout, &r);
    rcuprof_driver_argv_free(dargv);
    rc = RCUPROF_OK;
    if (mr == RCUPROF_EXEC_LOST) {
        rcuprof_err("run: %s %s: the connection was lost%s%s%s: run it again",
                    x->kind, x->name, r.message[0] ? " (" : "", r.message,
                    r.message[0] ? ")" : "");
        rc = RCUPROF_ERR_SYSTEM;
    } else if (mr == RCUPROF_EXEC_DEFERRED) {
        rcuprof_err("run: %s %s runs measurements later: run has no result to print; use sweep",
                    x->kind, x->name);
        rc = RCUPROF_ERR_USAGE;
    } else if (mr == RCUPROF_EXP_FOREIGN) {
        rcuprof_err("run: %s: %s", o.variant, r.message);
        rc = RCUPROF_ERR_USAGE;
    } else if (r.exec == RCUPROF_EXEC_ERROR) {
        rcuprof_err("run: cannot start %s: check it is executable", drv);
        rc = RCUPROF_ERR_SYSTEM;
    }
    rcuprof_executor_close(x);
    if (rc != RCUPROF_OK) {
        rcuprof_exp_outcome_free(&r);
        return rc;
    }
    if (r.timed_out || !r.exited || r.code != 0) {
        rc = run_failed(&o, &r);
        rcuprof_exp_outcome_free(&r);
        return rc;
    }
    res = r.result;
    if (res == NULL) {
        rcuprof_err("run: the %s driver printed no valid JSON: the driver and rcuprof disagree on the protocol, rebuild both",
                    o.variant);
        rcuprof_exp_outcome_free(&r);
        return RCUPROF_ERR_RUN;
    }
    if (run_not_measured(&o, res, &r.rec)) {
        rcuprof_exp_outcome_free(&r);
        return RCUPROF_ERR_RUN;
    }
    if (o.output != NULL
        && rcuprof_write_atomic(o.output, r.out, strlen(r.out)) != 0) {
        rcuprof_err("run: cannot write %s: check the folder exists and is writable",
                    o.output);
        rcuprof_exp_outcome_free(&r);
        return RCUPROF_ERR_SYSTEM;
    }
    if (o.terse)
        printf("%.4f\n", json_number_value(json_object_get(
            json_object_get(res, "run"), "wall_ns_per_op")) / 1000.0);
    else if (o.json)
        fputs(r.out, stdout);
    else
        run_print_summary(res, o.output);
    rcuprof_exp_outcome_free(&r);
    return RCUPROF_OK;
}
