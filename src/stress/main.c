/*
 * rcuprof-stress-<variant>: one measurement, one JSON object on stdout.
 * Protocol: docs/interfaces.md, "Driver protocol".
 */
#define _GNU_SOURCE
#include "stress.h"
#include "delay.h"
#include "workloads/workloads.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#include "rcuprof_opts.h"
#include "rcuprof_git_revision.h"
#include "rcuprof_placement.h"
#include "rcuprof_counters_hooks.h"
#include "rcuprof_sampler_hooks.h"
#include "rcuprof_delay_readout.h"
#ifdef RCUPROF_HAVE_PROBES      /* the variant carries the probe layer */
# include "rcuprof_probe_readout.h"
#endif

void rcuprof_stress_error(const char *code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    json_t *j;
    char *s;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    j = json_pack("{s:s, s:s}", "error", code, "message", msg);
    s = json_dumps(j, JSON_COMPACT);
    fprintf(stderr, "%s\n", s != NULL ? s : msg);
    free(s);
    json_decref(j);
}

/* ---- options: the rows of rcuprof_opts.def, parsed into run.cfg -------- */

/* --workload: a name of the registry. */
static int opt_workload(void *target, const struct rcuprof_opt *row,
                        const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    if (rcuprof_workload_find(arg) == NULL) {
        snprintf(err, n, "--workload '%s': use one of %s", arg,
                 rcuprof_workload_names());
        return -1;
    }
    snprintf(c->workload, sizeof(c->workload), "%s", arg);
    return 0;
}

/* --churn: a list, checked against the workload by churn.c. */
static int opt_churn(void *target, const struct rcuprof_opt *row,
                     const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    if (strlen(arg) >= sizeof(c->churn) || arg[0] == '\0') {
        snprintf(err, n, "--churn: give a list such as query,provider,flush");
        return -1;
    }
    snprintf(c->churn, sizeof(c->churn), "%s", arg);
    return 0;
}

/* --compat: perftools' artefacts, by name, as bits. */
static int opt_compat(void *target, const struct rcuprof_opt *row,
                      const char *s, char *err, size_t n)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        { "none", 0 }, { "perftools", RCUPROF_COMPAT_PERFTOOLS },
        { "clock", RCUPROF_COMPAT_CLOCK },
        { "nobarrier", RCUPROF_COMPAT_NOBARRIER },
        { "early-deadline", RCUPROF_COMPAT_EARLY_DEADLINE },
        { "unpadded", RCUPROF_COMPAT_UNPADDED },
    };
    struct rcuprof_config *c = target;
    char buf[128], *save = NULL, *tok;
    unsigned bits = 0;
    size_t i;

    if (rcuprof_list_check("compat", s, err, n) != 0)
        return -1;
    if (strlen(s) >= sizeof(buf) || s[0] == '\0')
        goto bad;
    snprintf(buf, sizeof(buf), "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            if (strcmp(tok, names[i].name) == 0)
                break;
        if (i == sizeof(names) / sizeof(names[0]))
            goto bad;
        bits |= names[i].bit;
    }
    c->compat = bits;
    return 0;
 bad:
    snprintf(err, n, "--compat '%s': use none, perftools, or a list of clock, nobarrier, early-deadline, unpadded",
             s);
    return -1;
}

/* --events: a list (no empty item), encoded by the counters. */
static int opt_events(void *target, const struct rcuprof_opt *row,
                      const char *arg, char *err, size_t n)
{
    struct rcuprof_opt as_text = *row;

    if (rcuprof_list_check("events", arg, err, n) != 0)
        return -1;
    as_text.kind = RCUPROF_OPT_TEXT;
    return rcuprof_opts_apply(&as_text, target, arg, err, n);
}

/* --sample-event: a name, encoded by the sampler. */
static int opt_sample_event(void *target, const struct rcuprof_opt *row,
                            const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    if (strlen(arg) >= sizeof(c->sample_event) || arg[0] == '\0') {
        snprintf(err, n, "--sample-event: give an event name");
        return -1;
    }
    snprintf(c->sample_event, sizeof(c->sample_event), "%s", arg);
    return 0;
}

/* A number in the row's range whose being given matters: *set. */
static int opt_given_uint(void *target, const struct rcuprof_opt *row,
                          const char *arg, int *set, char *err, size_t n)
{
    struct rcuprof_opt as_number = *row;

    as_number.kind = RCUPROF_OPT_UINT;
    if (rcuprof_opts_apply(&as_number, target, arg, err, n) != 0)
        return -1;
    *set = 1;
    return 0;
}

/* --reclaim-batch, --reclaim-bytes, --reclaim-age-ms: given or not
 * matters (store.c sets only those given). */
static int opt_reclaim_batch(void *target, const struct rcuprof_opt *row,
                             const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    return opt_given_uint(c, row, arg, &c->reclaim_batch_set, err, n);
}

static int opt_reclaim_bytes(void *target, const struct rcuprof_opt *row,
                             const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    return opt_given_uint(c, row, arg, &c->reclaim_bytes_set, err, n);
}

static int opt_reclaim_age_ms(void *target, const struct rcuprof_opt *row,
                              const char *arg, char *err, size_t n)
{
    struct rcuprof_config *c = target;

    return opt_given_uint(c, row, arg, &c->reclaim_age_ms_set, err, n);
}

#define OPT_FN_UINT(f) NULL
#define OPT_FN_TEXT(f) NULL
#define OPT_FN_CHOICE(f) NULL
#define OPT_FN_FLAG(f) NULL
#define OPT_FN_CALLBACK(f) opt_##f

static const struct rcuprof_opt driver_rows[] = {
#define RCUPROF_OPT(kind, name, ch, meta, def, lo, hi, field, help) \
    RCUPROF_OPTION(RCUPROF_OPT_##kind, name, ch, meta, def, lo, hi, \
                   struct rcuprof_config, field, OPT_FN_##kind(field), help),
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
};

#define DRIVER_NROWS (sizeof(driver_rows) / sizeof(driver_rows[0]))

static const struct rcuprof_opt action_rows[] = {
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "version", 'V', "", "", 0, 0,
                        NULL),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 'h', "", "", 0, 0, NULL),
};

/* build.driver_delay_sites: each baseline with sites of the driver's own,
 * to their names (section 3.4). */
static json_t *driver_delay_sites_json(void)
{
    json_t *o = json_object();
    size_t i, k;

    for (i = 0; i < rcuprof_nbaselines; i++) {
        const struct rcuprof_workload_site *ds = rcuprof_baselines[i].delay_sites;
        json_t *a;

        if (ds == NULL)
            continue;
        a = json_array();
        for (k = 0; ds[k].name != NULL; k++)
            json_array_append_new(a, json_string(ds[k].name));
        json_object_set_new(o, rcuprof_baselines[i].name, a);
    }
    return o;
}

/*
 * The embedded build record with the delay sites of this driver (section
 * 3.4: build.delay_sites, delay_fixed, driver_delay_sites), which
 * --version prints too, so that the CLI can check a site without running;
 * NULL (message printed) if the embedded record is not JSON.
 */
static json_t *build_record(void)
{
    json_error_t jerr;
    json_t *b = json_loads(rcuprof_build_json, 0, &jerr);

    if (b == NULL) {
        rcuprof_stress_error("internal", "embedded build info is not JSON: %s",
                             jerr.text);
        return NULL;
    }
    json_object_set_new(b, "delay_sites", rcuprof_delay_readout_sites());
    json_object_set_new(b, "delay_fixed", rcuprof_delay_readout_fixed());
    json_object_set_new(b, "driver_delay_sites", driver_delay_sites_json());
    return b;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: rcuprof-stress-<variant> [options]\n"
               "One measurement; prints one JSON object (docs/interfaces.md).\n\n");
    rcuprof_opts_help(f, driver_rows, DRIVER_NROWS, 1, NULL);
    fprintf(f, "  -V, --version              print this driver's build as JSON\n");
}

/*
 * The defaults, then argv, into c; 0 or the exit code (message printed).
 * Whether --libctx was given is kept beside its value: mac and cipher use
 * the default lib ctx unless it was (crypto_ops.c).
 */
static int parse_options(struct rcuprof_config *c, int argc, char **argv)
{
    unsigned char seen[DRIVER_NROWS] = { 0 };
    const struct rcuprof_opt_group groups[] = {
        { driver_rows, DRIVER_NROWS, c, NULL, NULL, 1, seen },
        { action_rows, sizeof(action_rows) / sizeof(action_rows[0]), NULL,
          NULL, NULL, 1, NULL },
    };
    struct rcuprof_opts_result res;
    char err[512];

    memset(c, 0, sizeof(*c));
    if (rcuprof_opts_defaults(groups, 1, err, sizeof(err)) != 0) {
        rcuprof_stress_error("internal", "option table: %s", err);
        return RCUPROF_EXIT_SYSTEM;
    }
    switch (rcuprof_opts_parse(groups, 2, argc, argv, 1, &res)) {
    case RCUPROF_OPTS_OK:
        break;
    case RCUPROF_OPTS_STOP:
        if (res.row->ch == 'V') {
            json_t *b = build_record();

            if (b == NULL || json_dumpf(b, stdout, JSON_COMPACT) != 0
                || fputc('\n', stdout) == EOF || fflush(stdout) != 0)
                exit(RCUPROF_EXIT_SYSTEM);
            json_decref(b);
            exit(0);
        }
        usage(stdout);
        exit(0);
    case RCUPROF_OPTS_MISSING:
        rcuprof_stress_error("usage", "option -%c needs a value: see --help",
                             res.row->ch);
        return RCUPROF_EXIT_USAGE;
    case RCUPROF_OPTS_BAD:
        rcuprof_stress_error("usage", "%s", res.msg);
        return RCUPROF_EXIT_USAGE;
    default:
        rcuprof_stress_error("usage", "unknown option '%s': see --help",
                             res.arg);
        return RCUPROF_EXIT_USAGE;
    }
    if (res.first_arg < argc) {
        rcuprof_stress_error("usage", "unexpected argument '%s': see --help",
                             argv[res.first_arg]);
        return RCUPROF_EXIT_USAGE;
    }
    c->libctx_set = seen[rcuprof_opts_find(driver_rows, DRIVER_NROWS,
                                           "libctx") - driver_rows];
    c->delay_ns_set = seen[rcuprof_opts_find(driver_rows, DRIVER_NROWS,
                                             "delay-ns") - driver_rows];
    if (seen[rcuprof_opts_find(driver_rows, DRIVER_NROWS, "delay-site")
             - driver_rows] && c->delay_site[0] == '\0') {
        rcuprof_stress_error("usage", "--delay-site is empty: name a site (--version lists build.delay_sites and build.driver_delay_sites)");
        return RCUPROF_EXIT_USAGE;
    }
    return 0;
}

static void workload_teardown(struct rcuprof_run *run)
{
    if (run->workload->teardown != NULL)
        run->workload->teardown(run);
}

/*
 * --events: counters opened by each worker after it is placed (hooks).
 * Unknown or unencodable events are bad input; no PMU only fails the run
 * with --require-hw.
 */
static int open_counters(struct rcuprof_run *run, struct rcuprof_counters **ctr,
                         struct rcuprof_counters_tool *tool)
{
    char err[512];
    int rc;

    if (run->cfg.events[0] == '\0')
        return 0;
    rc = rcuprof_counters_new(ctr, run->cfg.events,
                              run->cfg.require_hw ? RCUPROF_COUNTERS_REQUIRE_HW : 0,
                              run->cfg.threads, err, sizeof(err));
    if (rc == RCUPROF_COUNTERS_ENOHW) {
        rcuprof_stress_error("setup", "%s", err);
        return RCUPROF_EXIT_SETUP;
    }
    if (rc == RCUPROF_COUNTERS_EPFM || rc == RCUPROF_COUNTERS_ENOMEM) {
        rcuprof_stress_error("system", "%s", err);
        return RCUPROF_EXIT_SYSTEM;
    }
    if (rc != 0) {
        rcuprof_stress_error("usage", "%s", err);
        return RCUPROF_EXIT_USAGE;
    }
    /* A descriptor per event per thread, plus the process's own. */
    rc = rcuprof_counters_raise_nofile(run->cfg.threads,
                                       rcuprof_counters_nopen(*ctr), 64, err,
                                       sizeof(err));
    if (rc != 0) {
        rcuprof_stress_error("system", "%s", err);
        return RCUPROF_EXIT_SYSTEM;
    }
    rcuprof_counters_tool_init(tool, *ctr);
    rcuprof_run_add_tool(run, &tool->tool);
    return 0;
}

/*
 * --sample on: every worker (through the hooks) and every churn writer
 * (churn.c opens its own) samples its window.
 */
static int open_sampler(struct rcuprof_run *run, struct rcuprof_sampler **smp,
                        struct rcuprof_sampler_tool *tool)
{
    struct rcuprof_sampler_config sc;
    unsigned writers = run->view.writers;
    char err[512];
    int rc;

    if (!run->cfg.sample)
        return 0;
    memset(&sc, 0, sizeof(sc));
    sc.event = run->cfg.sample_event;
    sc.freq = run->cfg.sample_freq;
    sc.duration_ms = run->cfg.ops != 0 ? 0 : run->cfg.duration_ms;
    sc.fallback_cpu_clock = 1;
    rc = rcuprof_sampler_new(smp, &sc, run->cfg.threads + writers, err,
                             sizeof(err));
    if (rc == RCUPROF_SAMPLER_EENCODE || rc == RCUPROF_SAMPLER_EINVAL) {
        rcuprof_stress_error("usage", "--sample: %s", err);
        return RCUPROF_EXIT_USAGE;
    }
    if (rc != 0) {
        rcuprof_stress_error("setup", "--sample: %s", err);
        return RCUPROF_EXIT_SETUP;
    }
    rcuprof_sampler_tool_init(tool, *smp);
    rcuprof_run_add_tool(run, &tool->tool);
    return 0;
}

/* The placement plan for --pin, from this machine's topology (hwloc). */
static int make_plan(struct rcuprof_run *run, hwloc_topology_t *topo,
                     hwloc_bitmap_t *allowed,
                     struct rcuprof_placement_plan **plan)
{
    char err[512];
    int rc;

    rc = rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_SYSTEM, NULL,
                                         topo, err, sizeof(err));
    if (rc == 0)
        rc = rcuprof_placement_allowed_get(allowed, err, sizeof(err));
    if (rc == 0)
        rc = rcuprof_placement_plan_from_string(*topo, *allowed, run->cfg.pin,
                                                run->cfg.threads, plan, err,
                                                sizeof(err));
    if (rc == RCUPROF_PLACEMENT_ERR_SYSTEM) {
        rcuprof_stress_error("system", "placement: %s", err);
        return RCUPROF_EXIT_SYSTEM;
    }
    if (rc != 0) {
        rcuprof_stress_error("usage", "--pin %s: %s", run->cfg.pin, err);
        return RCUPROF_EXIT_USAGE;
    }
    return 0;
}

/*
 * Two CPUs to time a line between: the first two distinct CPUs of the plan,
 * else the first two allowed.  Fewer than two: none (-1).
 */
static void pick_rtt_cpus(const struct rcuprof_run *run,
                          const struct rcuprof_placement_plan *plan,
                          hwloc_const_bitmap_t allowed, int out[2])
{
    unsigned i;
    int k = 0, c;

    out[0] = out[1] = -1;
    for (i = 0; plan != NULL && i < plan->nthreads && k < 2; i++) {
        c = plan->threads[i].cpu;
        if (c >= 0 && (k == 0 || c != out[0]))
            out[k++] = c;
    }
    if (k == 2)
        return;
    out[0] = out[1] = -1;
    k = 0;
    hwloc_bitmap_foreach_begin(c, allowed)
        if (k < 2)
            out[k++] = c;
    hwloc_bitmap_foreach_end();
    if (k < 2)
        out[0] = out[1] = -1;
}

/* Totals over workers; a figure any worker could not read is null. */
static json_t *sched_json(const struct rcuprof_run *run, uint64_t ops)
{
    static const char *const names[4] = { "vcsw", "ivcsw", "migrations",
                                           "runq_ns" };
    json_t *j = json_object();
    unsigned i, k;

    for (k = 0; k < 4; k++) {
        int64_t tot = 0;
        int known = 1;
        char key[48];

        for (i = 0; i < run->cfg.threads; i++) {
            const struct rcuprof_slot *s = &run->slots[i];
            int64_t v = k == 0 ? s->vcsw : k == 1 ? s->ivcsw
                        : k == 2 ? s->migrations : s->runq_ns;

            if (v < 0)
                known = 0;
            tot += v;
        }
        json_object_set_new(j, names[k], known ? json_integer(tot) : json_null());
        snprintf(key, sizeof(key), "%s_per_kop", names[k]);
        json_object_set_new(j, key, known && ops > 0
                            ? json_real((double)tot * 1000.0 / (double)ops)
                            : json_null());
    }
    return j;
}

static json_t *run_json(struct rcuprof_run *run, uint64_t *ops_out,
                        uint64_t *cpu_out)
{
    const struct rcuprof_config *c = &run->cfg;
    uint64_t ops = 0, cpu = 0;
    double wall = (double)run->wall_ns, nthr = c->threads;
    unsigned i;
    json_t *r;

    for (i = 0; i < c->threads; i++) {
        ops += run->slots[i].ops;
        cpu += run->slots[i].cpu_ns;
    }
    *ops_out = ops;
    *cpu_out = cpu;
    r = json_pack("{s:i, s:I, s:I, s:I, s:o, s:I, s:I, s:I, s:I}",
                  "threads", (int)c->threads,
                  "duration_ms", (json_int_t)c->duration_ms,
                  "warmup_ms", (json_int_t)c->warmup_ms,
                  "ops_per_thread", (json_int_t)c->ops,
                  "workload", run->workload->describe(run),
                  "start_unix_ns", (json_int_t)run->start_realtime_ns,
                  "wall_ns", (json_int_t)run->wall_ns,
                  "ops", (json_int_t)ops,
                  "cpu_ns", (json_int_t)cpu);
    if (ops > 0 && wall > 0) {
        json_object_set_new(r, "wall_ns_per_op",
                            json_real(wall * nthr / (double)ops));
        json_object_set_new(r, "cpu_ns_per_op",
                            json_real((double)cpu / (double)ops));
        json_object_set_new(r, "ops_per_s", json_real((double)ops * 1e9 / wall));
        json_object_set_new(r, "utilisation",
                            json_real((double)cpu / (wall * nthr)));
    } else {
        json_object_set_new(r, "wall_ns_per_op", json_null());
        json_object_set_new(r, "cpu_ns_per_op", json_null());
        json_object_set_new(r, "ops_per_s", json_null());
        json_object_set_new(r, "utilisation", json_null());
    }
    return r;
}

static json_t *threads_json(const struct rcuprof_run *run)
{
    json_t *a = json_array();
    uint64_t origin = UINT64_MAX;
    unsigned i;

    for (i = 0; i < run->cfg.threads; i++) {
        if (run->slots[i].arrive_ns != 0 && run->slots[i].arrive_ns < origin)
            origin = run->slots[i].arrive_ns;
        if (run->slots[i].first_op_ns != 0 && run->slots[i].first_op_ns < origin)
            origin = run->slots[i].first_op_ns;
    }

    for (i = 0; i < run->cfg.threads; i++) {
        const struct rcuprof_slot *s = &run->slots[i];

        json_t *t = json_pack(
            "{s:i, s:i, s:I, s:I, s:I, s:i, s:i}",
            "id", (int)i, "tid", (int)run->workers[i].tid,
            "ops", (json_int_t)s->ops, "window_ns", (json_int_t)s->window_ns,
            "cpu_ns", (json_int_t)s->cpu_ns, "cpu_start", s->cpu_start,
            "cpu_end", s->cpu_end);

#define OPT_INT(k, v) json_object_set_new(t, k, (v) >= 0 ? json_integer(v) : json_null())
        OPT_INT("vcsw", s->vcsw);
        OPT_INT("ivcsw", s->ivcsw);
        OPT_INT("migrations", s->migrations);
        OPT_INT("runq_ns", s->runq_ns);
#undef OPT_INT
        /* Relative to the earliest window start: negative = before it. */
        json_object_set_new(t, "barrier_arrive_ns", s->arrive_ns != 0
            ? json_integer((json_int_t)(s->arrive_ns - origin)) : json_null());
        json_object_set_new(t, "first_op_ns", s->first_op_ns != 0
            ? json_integer((json_int_t)(s->first_op_ns - origin)) : json_null());
        json_array_append_new(a, t);
    }
    return a;
}

/* One measurement: the run and everything set up for it. */
struct driver {
    struct rcuprof_run run;
    json_t *build;              /* the build member */
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed;
    struct rcuprof_placement_plan *plan;
    int workload_up;            /* setup ran: teardown is due */
    struct rcuprof_counters *ctr;
    struct rcuprof_counters_tool ctr_tool;
    struct rcuprof_sampler *smp;
    struct rcuprof_sampler_tool smp_tool;
    struct rcuprof_churn *churn;
#ifdef RCUPROF_HAVE_PROBES
    struct rcuprof_probe_readout *probes;
#endif
    /* --delay-site: a driver site (the workload with the site's op and
     * batch in place of its own), or one of the library's */
    struct rcuprof_workload delayed;
    const struct rcuprof_workload_site *dsite;
    struct rcuprof_dsite *ds;
    struct rcuprof_delay_readout *ldelay;
    /* The measurement around the harness's window. */
    int rtt_cpu[2];
    double rtt[2];
    struct rcuprof_rtt_sampler *rtts; /* the round trip inside the window */
    int64_t steal0, steal1;
};

static void driver_free(struct driver *d)
{
    rcuprof_churn_stop(d->churn);
    if (d->workload_up)
        workload_teardown(&d->run);
    rcuprof_churn_free(d->churn);
    rcuprof_rtt_sampler_free(d->rtts);
    rcuprof_counters_free(d->ctr);
    rcuprof_sampler_free(d->smp);
#ifdef RCUPROF_HAVE_PROBES
    rcuprof_probe_readout_free(d->probes);
#endif
    rcuprof_dsite_free(d->ds);
    rcuprof_delay_readout_free(d->ldelay);
    rcuprof_placement_plan_free(d->plan);
    if (d->allowed != NULL)
        hwloc_bitmap_free(d->allowed);
    if (d->topo != NULL)
        hwloc_topology_destroy(d->topo);
    json_decref(d->build);
}

/* Parse and check the options against the workload; 0 or the exit code. */
static int driver_parse(struct driver *d, int argc, char **argv)
{
    struct rcuprof_run *run = &d->run;
    int rc = parse_options(&run->cfg, argc, argv);

    if (rc != 0)
        return rc;
    run->view.threads = run->cfg.threads;
    run->view.writers = run->cfg.writers != 0 ? run->cfg.writers
                        : run->cfg.write_rate != 0 ? 1 : 0;
    run->workload = rcuprof_workload_find(run->cfg.workload);
    if (run->workload->fixed_threads != 0
        && run->cfg.threads != run->workload->fixed_threads) {
        rcuprof_stress_error("usage", "--workload %s runs at exactly %u threads: pass --threads %u",
                             run->workload->name, run->workload->fixed_threads,
                             run->workload->fixed_threads);
        return RCUPROF_EXIT_USAGE;
    }
    if (run->cfg.compat != 0 && run->cfg.ops != 0) {
        rcuprof_stress_error("usage", "--compat runs for --duration-ms, as perftools does: drop --ops");
        return RCUPROF_EXIT_USAGE;
    }
    return 0;
}

/* The build member: the embedded record plus what only the run knows. */
static int driver_build(struct driver *d)
{
    d->build = build_record();
    if (d->build == NULL)
        return RCUPROF_EXIT_SYSTEM;
    json_object_set_new(d->build, "runtime_version",
                        json_string(OpenSSL_version(OPENSSL_VERSION)));
    json_object_set_new(d->build, "driver_protocol",
                        json_integer(RCUPROF_DRIVER_PROTOCOL));
    json_object_set_new(d->build, "rcuprof_revision",
                        json_string(RCUPROF_GIT_REVISION));
    return 0;
}

/* The driver sites of every baseline that has some, as text:
 * "atomic: cas_window, outside; rwlock: ...". */
static void driver_sites_text(char *buf, size_t n)
{
    size_t i, k;

    buf[0] = '\0';
    for (i = 0; i < rcuprof_nbaselines; i++) {
        const struct rcuprof_workload_site *ds = rcuprof_baselines[i].delay_sites;

        if (ds == NULL)
            continue;
        snprintf(buf + strlen(buf), n - strlen(buf), "%s--workload %s: ",
                 buf[0] ? "; " : "", rcuprof_baselines[i].name);
        for (k = 0; ds[k].name != NULL; k++)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s",
                     k ? ", " : "", ds[k].name);
    }
}

static int is_library_site_name(const char *name)
{
    const char *s;
    unsigned i;

    for (i = 0; (s = rcuprof_delay_readout_site_name(i)) != NULL; i++)
        if (strcmp(s, name) == 0)
            return 1;
    return 0;
}

/*
 * --delay-site and --delay-ns against the workload and the variant
 * (section 3.4): a workload with driver sites takes only those, and runs
 * with the site's op and batch in place of its own from here on; one
 * that can reach the library takes the sites this variant's library has.
 * 0 or the exit code (one line printed).
 */
static int driver_delay_check(struct driver *d)
{
    struct rcuprof_run *run = &d->run;
    const struct rcuprof_config *c = &run->cfg;
    const struct rcuprof_workload *wl = run->workload;
    const char *variant = json_string_value(json_object_get(d->build,
                                                            "variant"));
    const char *site = c->delay_site;
    char have[512], drv[512];
    size_t k;

    if (site[0] == '\0') {
        if (c->delay_ns_set) {
            rcuprof_stress_error("usage", "--delay-ns needs --delay-site: name the site to delay, or drop --delay-ns");
            return RCUPROF_EXIT_USAGE;
        }
        return 0;
    }
    if (variant == NULL)
        variant = "?";
    driver_sites_text(drv, sizeof(drv));
    if (wl->delay_sites != NULL) {
        have[0] = '\0';
        for (k = 0; wl->delay_sites[k].name != NULL; k++) {
            if (strcmp(wl->delay_sites[k].name, site) == 0) {
                d->dsite = &wl->delay_sites[k];
                d->delayed = *wl;
                d->delayed.op = d->dsite->op;
                d->delayed.batch = d->dsite->batch;
                run->workload = &d->delayed;
                return 0;
            }
            snprintf(have + strlen(have), sizeof(have) - strlen(have),
                     "%s%s", k ? ", " : "", wl->delay_sites[k].name);
        }
        rcuprof_stress_error("usage", "--delay-site '%s': --workload %s has the driver sites %s: use one of them",
                             site, wl->name, have);
        return RCUPROF_EXIT_USAGE;
    }
    if (wl->no_library_sites) {
        rcuprof_stress_error("usage", "--delay-site '%s': --workload %s has no delay sites: use a baseline with driver sites (%s) or a workload on the fetch path for the library's",
                             site, wl->name, drv);
        return RCUPROF_EXIT_USAGE;
    }
    if (rcuprof_delay_readout_present(site))
        return 0;
    rcuprof_delay_readout_list(have, sizeof(have));
    if (have[0] == '\0' && !is_library_site_name(site))
        rcuprof_stress_error("usage", "--delay-site '%s': no such site, and variant %s has no library delay sites (no delay layer): use a baseline's driver site (%s), or a variant whose --version lists build.delay_sites",
                             site, variant, drv);
    else if (have[0] == '\0')
        rcuprof_stress_error("usage", "--delay-site '%s': variant %s has no library delay sites (no delay layer): use a variant whose --version lists build.delay_sites, or a baseline's driver site (%s)",
                             site, variant, drv);
    else if (is_library_site_name(site))
        rcuprof_stress_error("usage", "--delay-site '%s': variant %s lacks this site: use one it has: %s",
                             site, variant, have);
    else
        rcuprof_stress_error("usage", "--delay-site '%s': no such site: variant %s has %s (baselines: %s)",
                             site, variant, have, drv);
    return RCUPROF_EXIT_USAGE;
}

/*
 * The armed delay site (after the probe layer, before any writer or
 * worker starts, so before the warm-up): the driver's own counters and
 * their tool, or the library's site armed and its readout's tool.  0 or
 * the exit code (message printed).
 */
static int driver_delay_setup(struct driver *d)
{
    struct rcuprof_run *run = &d->run;
    const struct rcuprof_config *c = &run->cfg;
    char err[512] = "";

    if (d->dsite != NULL) {
        if (rcuprof_dsite_new(run, d->dsite->name, c->delay_ns,
                              c->probe_every, err, sizeof(err)) != 0) {
            rcuprof_stress_error("system", "%s", err);
            return RCUPROF_EXIT_SYSTEM;
        }
        d->ds = run->dsite;
    } else if (c->delay_site[0] != '\0') {
        if (rcuprof_delay_readout_setup(&d->ldelay, c->delay_site,
                                        c->delay_ns, c->probe_every, err,
                                        sizeof(err)) != 0) {
            rcuprof_stress_error("setup", "%s", err);
            return RCUPROF_EXIT_SETUP;
        }
        if (rcuprof_run_add_tool(run, rcuprof_delay_readout_tool(d->ldelay))
            != 0) {
            rcuprof_stress_error("internal", "delay site: too many tools registered");
            return RCUPROF_EXIT_SYSTEM;
        }
    }
    return 0;
}

/*
 * Set up, in this order: the store's settings, the placement plan, the
 * workload, the counters, the probe layer (before any writer or worker
 * starts: its switch, K, its own cost), the delay site, the sampler, the
 * churn writers.
 * 0 or the exit code (message printed).
 */
static int driver_setup(struct driver *d)
{
    struct rcuprof_run *run = &d->run;
    char err[512] = "";
    int rc;

    if (rcuprof_store_configure(run, err, sizeof(err)) != 0) {
        rcuprof_stress_error("usage", "%s", err);
        return RCUPROF_EXIT_USAGE;
    }
    if ((rc = make_plan(run, &d->topo, &d->allowed, &d->plan)) != 0)
        return rc;
    run->plan = d->plan;
    d->workload_up = 1;
    rc = run->workload->setup != NULL
         ? run->workload->setup(run, err, sizeof(err)) : 0;
    if (rc != 0) {
        rcuprof_stress_error(rc == RCUPROF_EXIT_USAGE ? "usage" : "setup",
                             "%s", err);
        return rc;
    }
    if ((rc = open_counters(run, &d->ctr, &d->ctr_tool)) != 0)
        return rc;
#ifdef RCUPROF_HAVE_PROBES
    if (rcuprof_probe_readout_setup(&d->probes, run->cfg.threads,
                                    run->cfg.probes, run->cfg.probe_every,
                                    err, sizeof(err)) != 0) {
        rcuprof_stress_error("system", "%s", err);
        return RCUPROF_EXIT_SYSTEM;
    }
    /* The store the summary names: the workload's own lib ctx where it
     * says which (fetch), else the default one unless it makes its own. */
    if (run->workload->churn_libctx != NULL)
        rcuprof_probe_readout_measures(d->probes,
                                       run->workload->churn_libctx(run), 1);
    else
        rcuprof_probe_readout_measures(d->probes, NULL, !run->cfg.own_libctx);
    rcuprof_run_add_tool(run, rcuprof_probe_readout_tool(d->probes));
#endif
    if ((rc = driver_delay_setup(d)) != 0)
        return rc;
    if ((rc = open_sampler(run, &d->smp, &d->smp_tool)) != 0)
        return rc;
    rc = rcuprof_churn_start(run, &d->churn, err, sizeof(err));
    if (rc != 0) {
        rcuprof_stress_error(rc == RCUPROF_EXIT_USAGE ? "usage" : "system",
                             "%s", err);
        return rc;
    }
    return 0;
}

/*
 * Measure: the line round trip and the steal counter before, the
 * harness's run with the round trip sampled inside its window, then the
 * writers and the sampler stopped, the steal counter and the round trip
 * after.  0 or the exit code (message printed).
 */
static int driver_measure(struct driver *d)
{
    struct rcuprof_run *run = &d->run;
    int rc;

    d->rtt[0] = d->rtt[1] = -1;
    pick_rtt_cpus(run, d->plan, d->allowed, d->rtt_cpu);
    if (run->cfg.rtt && d->rtt_cpu[1] >= 0)
        d->rtt[0] = rcuprof_line_rtt_ns(d->rtt_cpu[0], d->rtt_cpu[1], 20000);
    if (run->cfg.rtt
        && rcuprof_rtt_sampler_start(run, d->rtt_cpu[0], d->rtt_cpu[1],
                                     &d->rtts) != 0) {
        rcuprof_stress_error("system", "cannot start the round-trip sampler (no memory or thread)");
        return RCUPROF_EXIT_SYSTEM;
    }
    d->steal0 = rcuprof_steal_ticks();

    rc = rcuprof_harness_run(run);

    d->steal1 = rcuprof_steal_ticks();
    rcuprof_rtt_sampler_stop(d->rtts);
    rcuprof_churn_stop(d->churn);
    if (rc == 0 && run->cfg.rtt && d->rtt_cpu[1] >= 0)
        d->rtt[1] = rcuprof_line_rtt_ns(d->rtt_cpu[0], d->rtt_cpu[1], 20000);
    if (rc != 0)
        rcuprof_stress_error(rc == RCUPROF_EXIT_RUN ? "run" : "system",
                             "%s", run->error);
    return rc;
}

/* The run member's figures beside the harness's. */
static void run_member_rest(struct driver *d, json_t *rj, uint64_t ops)
{
    struct rcuprof_run *run = &d->run;
    unsigned i, idle = 0;

    json_object_set_new(rj, "placement",
                        rcuprof_placement_plan_to_json(d->plan));
    json_object_set_new(rj, "harness", rcuprof_harness_json(run));
    json_object_set_new(rj, "warmup_actual_ns",
                        json_integer((json_int_t)run->warmup_ns));
    for (i = 0; i < run->cfg.threads; i++)
        idle += run->slots[i].ops == 0;
    json_object_set_new(rj, "idle_workers", json_integer(idle));
    json_object_set_new(rj, "store", rcuprof_store_json());
    json_object_set_new(rj, "churn", rcuprof_churn_json(d->churn));
    json_object_set_new(rj, "line_rtt", d->rtt_cpu[1] < 0 || !run->cfg.rtt
        ? json_null()
        : json_pack("{s:[i,i], s:o, s:o, s:o}", "cpus", d->rtt_cpu[0],
                    d->rtt_cpu[1],
                    "before_ns", d->rtt[0] >= 0 ? json_real(d->rtt[0])
                                                : json_null(),
                    "after_ns", d->rtt[1] >= 0 ? json_real(d->rtt[1])
                                               : json_null(),
                    "window", rcuprof_rtt_sampler_json(
                        d->rtts, run->wall_ns,
                        (unsigned)hwloc_bitmap_weight(d->allowed))));
    json_object_set_new(rj, "steal_ms", d->steal0 >= 0 && d->steal1 >= d->steal0
        ? json_real((double)(d->steal1 - d->steal0) * 1000.0
                    / (double)sysconf(_SC_CLK_TCK))
        : json_null());
    json_object_set_new(rj, "sched", sched_json(run, ops));
    json_object_set_new(rj, "delay", d->ds != NULL
                        ? rcuprof_dsite_json(d->ds, ops)
                        : d->ldelay != NULL
                        ? rcuprof_delay_readout_json(d->ldelay, ops)
                        : json_null());
}

/* The result (rcuprof-run/1): the driver's members, then each tool's. */
static json_t *driver_result(struct driver *d)
{
    struct rcuprof_run *run = &d->run;
    json_t *out, *rj, *members[RCUPROF_TOOLS_MAX] = { 0 };
    uint64_t ops, cpu;
    unsigned h;

    out = json_pack("{s:s, s:O, s:o, s:o, s:o}",
                    "schema", "rcuprof-run/1",
                    "build", d->build,
                    "env", rcuprof_env_json(run),
                    "run", rj = run_json(run, &ops, &cpu),
                    "threads", threads_json(run));
    if (out == NULL)
        return NULL;
    run_member_rest(d, rj, ops);
    for (h = 0; h < run->ntools; h++)
        if (run->tools[h]->member != NULL && run->tools[h]->to_json != NULL)
            members[h] = run->tools[h]->to_json(run->tools[h], &run->view);
    /* A member no module collected is null, never zeros. */
    json_object_set_new(out, "probes", json_null());
    json_object_set_new(out, "counters", json_null());
    json_object_set_new(out, "samples", json_null());
    for (h = 0; h < run->ntools; h++)
        if (run->tools[h]->member != NULL)
            json_object_set_new(out, run->tools[h]->member,
                                members[h] != NULL ? members[h]
                                                   : json_null());
    json_object_set_new(out, "errors", json_array());
    return out;
}

int main(int argc, char **argv)
{
    struct driver d;
    json_t *out;
    int rc;

    memset(&d, 0, sizeof(d));
    rc = driver_parse(&d, argc, argv);
    if (rc == 0)
        rc = driver_build(&d);
    if (rc == 0)
        rc = driver_delay_check(&d);
    if (rc == 0)
        rc = driver_setup(&d);
    if (rc == 0)
        rc = driver_measure(&d);
    if (rc == 0) {
        out = driver_result(&d);
        if (out == NULL || json_dumpf(out, stdout, JSON_COMPACT) != 0
            || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
            rcuprof_stress_error("system", "cannot write the result to stdout");
            rc = RCUPROF_EXIT_SYSTEM;
        }
        json_decref(out);
    }
    driver_free(&d);
    return rc;
}
