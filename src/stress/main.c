/*
 * rcuprof-stress-<variant>: one measurement, one JSON object on stdout.
 * Protocol: docs/interfaces.md, "Driver protocol".
 */
#define _GNU_SOURCE
#include "stress.h"
#include "workloads/workloads.h"

#include <errno.h>
#include <getopt.h>
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
#ifdef RCUPROF_HAVE_PROBES      /* the variant carries the probe layer */
# include "rcuprof_probe_readout.h"
#endif

#define RCUPROF_DRIVER_PROTOCOL 1

/* --probes, --probe-every (probes/probe_readout.c); kept out of stress.h. */
static int probes_on;
static unsigned probe_every;

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

static const struct option long_opts[] = {
#define RCUPROF_OPT(name, ch, arg, meta, def, help) { name, arg, NULL, ch },
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
    { "version", 0, NULL, 'V' },
    { "help", 0, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void usage(FILE *f)
{
    fprintf(f, "usage: rcuprof-stress-<variant> [options]\n"
               "One measurement; prints one JSON object (docs/interfaces.md).\n\n");
#define RCUPROF_OPT(name, ch, arg, meta, def, help) \
    fprintf(f, "  -%c,", ch); \
    rcuprof_opts_help_row(f, name, meta, help, arg, def);
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
    fprintf(f, "  -V, --version              print this driver's build as JSON\n");
}

/* A whole decimal number in [lo, hi], or -1 with a message. */
static int parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi,
                     uint64_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    if (s[0] == '-' || s[0] == '\0') {
        rcuprof_stress_error("usage", "--%s '%s': give a whole number from %"
                             PRIu64 " to %" PRIu64, opt, s, lo, hi);
        return -1;
    }
    v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) {
        rcuprof_stress_error("usage", "--%s '%s': give a whole number from %"
                             PRIu64 " to %" PRIu64, opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_compat(const char *s, unsigned *out)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        { "none", 0 }, { "perftools", RCUPROF_COMPAT_PERFTOOLS },
        { "clock", RCUPROF_COMPAT_CLOCK },
        { "nobarrier", RCUPROF_COMPAT_NOBARRIER },
        { "early-deadline", RCUPROF_COMPAT_EARLY_DEADLINE },
        { "unpadded", RCUPROF_COMPAT_UNPADDED },
    };
    char buf[128], *save = NULL, *tok;
    unsigned bits = 0;
    size_t i;

    if (strlen(s) >= sizeof(buf) || s[0] == '\0')
        return -1;
    snprintf(buf, sizeof(buf), "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            if (strcmp(tok, names[i].name) == 0)
                break;
        if (i == sizeof(names) / sizeof(names[0]))
            return -1;
        bits |= names[i].bit;
    }
    *out = bits;
    return 0;
}

static int set_defaults_and_parse(struct rcuprof_config *c, int argc,
                                  char **argv)
{
    int ch;
    uint64_t v;
    const char *defs[128] = { 0 };
    char shortopts[128] = "";

#define RCUPROF_OPT(name, chr, arg, meta, def, help) defs[chr] = def;
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
    memset(c, 0, sizeof(*c));
    c->threads = (unsigned)strtoul(defs['n'], NULL, 10);
    c->duration_ms = strtoull(defs['d'], NULL, 10);
    c->warmup_ms = strtoull(defs['w'], NULL, 10);
    c->ops = strtoull(defs['N'], NULL, 10);
    snprintf(c->fetch, sizeof(c->fetch), "%s", defs['f']);
    snprintf(c->propq, sizeof(c->propq), "%s", defs['q']);
    c->own_libctx = strcmp(defs['l'], "own") == 0;
    snprintf(c->pin, sizeof(c->pin), "%s", defs['p']);
    snprintf(c->workload, sizeof(c->workload), "%s", defs['W']);
    c->isolated = strcmp(defs['m'], "isolated") == 0;
    c->updates = (unsigned)strtoul(defs['u'], NULL, 10);
    c->writers = (unsigned)strtoul(defs['r'], NULL, 10);
    c->write_rate = strtoull(defs['R'], NULL, 10);
    snprintf(c->churn, sizeof(c->churn), "%s", defs['c']);
    c->compat = 0;
    c->sample = strcmp(defs['S'], "on") == 0;
    c->sample_freq = strtoull(defs['F'], NULL, 10);
    snprintf(c->sample_event, sizeof(c->sample_event), "%s", defs['E']);
    c->rtt = strcmp(defs['x'], "on") == 0;
    probes_on = strcmp(defs['P'], "on") == 0;
    probe_every = (unsigned)strtoul(defs['K'], NULL, 10);

    rcuprof_opts_optstring(shortopts, sizeof(shortopts), "Vh");
    opterr = 0;
    while ((ch = getopt_long(argc, argv, shortopts, long_opts,
                             NULL)) != -1) {
        switch (ch) {
        case 'n':
            if (parse_u64("threads", optarg, 1, RCUPROF_THREADS_MAX, &v))
                return RCUPROF_EXIT_USAGE;
            c->threads = (unsigned)v;
            break;
        case 'd':
            if (parse_u64("duration-ms", optarg, 1, 3600000, &v))
                return RCUPROF_EXIT_USAGE;
            c->duration_ms = v;
            break;
        case 'w':
            if (parse_u64("warmup-ms", optarg, 0, 600000, &v))
                return RCUPROF_EXIT_USAGE;
            c->warmup_ms = v;
            break;
        case 'N':
            if (parse_u64("ops", optarg, 0, UINT64_MAX / 2, &v))
                return RCUPROF_EXIT_USAGE;
            c->ops = v;
            break;
        case 'f':
            if (strlen(optarg) >= sizeof(c->fetch)) {
                rcuprof_stress_error("usage", "--fetch is too long: at most %zu characters",
                                     sizeof(c->fetch) - 1);
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->fetch, sizeof(c->fetch), "%s", optarg);
            break;
        case 'q':
            if (strlen(optarg) >= sizeof(c->propq)) {
                rcuprof_stress_error("usage", "--propq is too long: at most %zu characters",
                                     sizeof(c->propq) - 1);
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->propq, sizeof(c->propq), "%s", optarg);
            break;
        case 'l':
            if (strcmp(optarg, "own") == 0)
                c->own_libctx = 1;
            else if (strcmp(optarg, "default") == 0)
                c->own_libctx = 0;
            else {
                rcuprof_stress_error("usage", "--libctx '%s': use own or default",
                                     optarg);
                return RCUPROF_EXIT_USAGE;
            }
            break;
        case 'p':
            if (strlen(optarg) >= sizeof(c->pin)) {
                rcuprof_stress_error("usage", "--pin is too long: at most %zu characters",
                                     sizeof(c->pin) - 1);
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->pin, sizeof(c->pin), "%s", optarg);
            break;
        case 'W':
            if (rcuprof_workload_find(optarg) == NULL) {
                rcuprof_stress_error("usage", "--workload '%s': use one of %s",
                                     optarg, rcuprof_workload_names());
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->workload, sizeof(c->workload), "%s", optarg);
            break;
        case 'm':
            if (strcmp(optarg, "shared") != 0 && strcmp(optarg, "isolated") != 0) {
                rcuprof_stress_error("usage", "--mode '%s': use shared or isolated",
                                     optarg);
                return RCUPROF_EXIT_USAGE;
            }
            c->isolated = strcmp(optarg, "isolated") == 0;
            break;
        case 'u':
            if (parse_u64("updates", optarg, 1, 1000000, &v))
                return RCUPROF_EXIT_USAGE;
            c->updates = (unsigned)v;
            break;
        case 'r':
            if (parse_u64("writers", optarg, 0, 64, &v))
                return RCUPROF_EXIT_USAGE;
            c->writers = (unsigned)v;
            break;
        case 'R':
            if (parse_u64("write-rate", optarg, 0, 100000000, &v))
                return RCUPROF_EXIT_USAGE;
            c->write_rate = v;
            break;
        case 'c':
            if (strlen(optarg) >= sizeof(c->churn) || optarg[0] == '\0') {
                rcuprof_stress_error("usage", "--churn: give a list such as query,provider,flush");
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->churn, sizeof(c->churn), "%s", optarg);
            break;
        case 'C':
            if (parse_compat(optarg, &c->compat) != 0) {
                rcuprof_stress_error("usage", "--compat '%s': use none, perftools, or a list of clock, nobarrier, early-deadline, unpadded",
                                     optarg);
                return RCUPROF_EXIT_USAGE;
            }
            break;
        case 'x':
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
                rcuprof_stress_error("usage", "--rtt '%s': use on or off", optarg);
                return RCUPROF_EXIT_USAGE;
            }
            c->rtt = strcmp(optarg, "on") == 0;
            break;
        case 'e':
            if (strlen(optarg) >= sizeof(c->events)) {
                rcuprof_stress_error("usage", "--events is too long: at most %zu characters",
                                     sizeof(c->events) - 1);
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->events, sizeof(c->events), "%s", optarg);
            break;
        case 'H':
            c->require_hw = 1;
            break;
        case 'S':
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
                rcuprof_stress_error("usage", "--sample '%s': use on or off", optarg);
                return RCUPROF_EXIT_USAGE;
            }
            c->sample = strcmp(optarg, "on") == 0;
            break;
        case 'F':
            if (parse_u64("sample-freq", optarg, 1, 100000, &v))
                return RCUPROF_EXIT_USAGE;
            c->sample_freq = v;
            break;
        case 'E':
            if (strlen(optarg) >= sizeof(c->sample_event) || optarg[0] == '\0') {
                rcuprof_stress_error("usage", "--sample-event: give an event name");
                return RCUPROF_EXIT_USAGE;
            }
            snprintf(c->sample_event, sizeof(c->sample_event), "%s", optarg);
            break;
        case 'P':
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
                rcuprof_stress_error("usage", "--probes '%s': use on or off", optarg);
                return RCUPROF_EXIT_USAGE;
            }
            probes_on = strcmp(optarg, "on") == 0;
            break;
        case 'K':
            if (parse_u64("probe-every", optarg, 1, 1u << 30, &v))
                return RCUPROF_EXIT_USAGE;
            probe_every = (unsigned)v;
            break;
        case 'B':
            if (parse_u64("reclaim-batch", optarg, 0, 1000000000, &v))
                return RCUPROF_EXIT_USAGE;
            c->reclaim_batch = v;
            c->reclaim_batch_set = 1;
            break;
        case 'V':
            printf("%s\n", rcuprof_build_json);
            exit(0);
        case 'h':
            usage(stdout);
            exit(0);
        default:
            if (optopt > 0 && optopt < 128 && strchr(shortopts, optopt) != NULL)
                rcuprof_stress_error("usage", "option -%c needs a value: see --help",
                                     optopt);
            else
                rcuprof_stress_error("usage", "unknown option '%s': see --help",
                                     argv[optind - 1]);
            return RCUPROF_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        rcuprof_stress_error("usage", "unexpected argument '%s': see --help",
                             argv[optind]);
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

int main(int argc, char **argv)
{
    struct rcuprof_run run;
    json_t *out, *build, *errors, *members[RCUPROF_TOOLS_MAX] = { 0 }, *rj;
    hwloc_topology_t topo = NULL;
    hwloc_bitmap_t allowed = NULL;
    struct rcuprof_placement_plan *plan = NULL;
    int rtt_cpu[2] = { -1, -1 };
    double rtt[2] = { -1, -1 };
    int64_t steal0, steal1;
    struct rcuprof_counters *ctr = NULL;
    struct rcuprof_counters_tool ctr_tool;
    struct rcuprof_sampler *smp = NULL;
    struct rcuprof_sampler_tool smp_tool;
    struct rcuprof_churn *churn = NULL;
#ifdef RCUPROF_HAVE_PROBES
    struct rcuprof_probe_readout *probes = NULL;
#endif
    json_error_t jerr;
    char err[512] = "";
    uint64_t ops, cpu;
    unsigned h;
    int rc;

    memset(&run, 0, sizeof(run));
    rc = set_defaults_and_parse(&run.cfg, argc, argv);
    if (rc != 0)
        return rc;
    run.view.threads = run.cfg.threads;
    run.view.writers = run.cfg.writers != 0 ? run.cfg.writers
                       : run.cfg.write_rate != 0 ? 1 : 0;
    run.workload = rcuprof_workload_find(run.cfg.workload);
    if (run.workload->fixed_threads != 0
        && run.cfg.threads != run.workload->fixed_threads) {
        rcuprof_stress_error("usage", "--workload %s runs at exactly %u threads: pass --threads %u",
                             run.workload->name, run.workload->fixed_threads,
                             run.workload->fixed_threads);
        return RCUPROF_EXIT_USAGE;
    }
    if (run.cfg.compat != 0 && run.cfg.ops != 0) {
        rcuprof_stress_error("usage", "--compat runs for --duration-ms, as perftools does: drop --ops");
        return RCUPROF_EXIT_USAGE;
    }

    build = json_loads(rcuprof_build_json, 0, &jerr);
    if (build == NULL) {
        rcuprof_stress_error("internal", "embedded build info is not JSON: %s",
                             jerr.text);
        return RCUPROF_EXIT_SYSTEM;
    }
    json_object_set_new(build, "runtime_version",
                        json_string(OpenSSL_version(OPENSSL_VERSION)));
    json_object_set_new(build, "driver_protocol",
                        json_integer(RCUPROF_DRIVER_PROTOCOL));
    json_object_set_new(build, "rcuprof_revision",
                        json_string(RCUPROF_GIT_REVISION));

    if (rcuprof_store_configure(&run, err, sizeof(err)) != 0) {
        rcuprof_stress_error("usage", "%s", err);
        json_decref(build);
        return RCUPROF_EXIT_USAGE;
    }
    rc = make_plan(&run, &topo, &allowed, &plan);
    if (rc != 0) {
        json_decref(build);
        return rc;
    }
    run.plan = plan;

    rc = run.workload->setup != NULL
         ? run.workload->setup(&run, err, sizeof(err)) : 0;
    if (rc != 0) {
        rcuprof_stress_error(rc == RCUPROF_EXIT_USAGE ? "usage" : "setup",
                             "%s", err);
        workload_teardown(&run);
        json_decref(build);
        return rc;
    }

    rc = open_counters(&run, &ctr, &ctr_tool);
    if (rc != 0) {
        workload_teardown(&run);
        json_decref(build);
        return rc;
    }

#ifdef RCUPROF_HAVE_PROBES
    /* Before any writer or worker starts: switch, K, the layer's own cost. */
    if (rcuprof_probe_readout_setup(&probes, run.cfg.threads, probes_on,
                                    probe_every, err, sizeof(err)) != 0) {
        rcuprof_stress_error("system", "%s", err);
        rcuprof_probe_readout_free(probes);
        rcuprof_counters_free(ctr);
        workload_teardown(&run);
        json_decref(build);
        return RCUPROF_EXIT_SYSTEM;
    }
    rcuprof_run_add_tool(&run, rcuprof_probe_readout_tool(probes));
#endif
    rc = open_sampler(&run, &smp, &smp_tool);
    if (rc != 0) {
        rcuprof_counters_free(ctr);
        workload_teardown(&run);
        json_decref(build);
        return rc;
    }

    rc = rcuprof_churn_start(&run, &churn, err, sizeof(err));
    if (rc != 0) {
        rcuprof_stress_error(rc == RCUPROF_EXIT_USAGE ? "usage" : "system",
                             "%s", err);
        rcuprof_churn_stop(churn);
        rcuprof_churn_free(churn);
        workload_teardown(&run);
        json_decref(build);
        return rc;
    }
    pick_rtt_cpus(&run, plan, allowed, rtt_cpu);
    if (run.cfg.rtt && rtt_cpu[1] >= 0)
        rtt[0] = rcuprof_line_rtt_ns(rtt_cpu[0], rtt_cpu[1], 20000);
    steal0 = rcuprof_steal_ticks();

    rc = rcuprof_harness_run(&run);

    steal1 = rcuprof_steal_ticks();
    rcuprof_churn_stop(churn);
    if (rc == 0 && run.cfg.rtt && rtt_cpu[1] >= 0)
        rtt[1] = rcuprof_line_rtt_ns(rtt_cpu[0], rtt_cpu[1], 20000);
    if (rc != 0) {
        rcuprof_stress_error(rc == RCUPROF_EXIT_RUN ? "run" : "system",
                             "%s", run.error);
        workload_teardown(&run);
        json_decref(build);
        return rc;
    }

    errors = json_array();
    out = json_pack("{s:s, s:o, s:o, s:o, s:o}",
                    "schema", "rcuprof-run/1",
                    "build", build,
                    "env", rcuprof_env_json(&run),
                    "run", rj = run_json(&run, &ops, &cpu),
                    "threads", threads_json(&run));
    json_object_set_new(rj, "placement", rcuprof_placement_plan_to_json(plan));
    json_object_set_new(rj, "harness", rcuprof_harness_json(&run));
    json_object_set_new(rj, "warmup_actual_ns", json_integer((json_int_t)run.warmup_ns));
    {
        unsigned i, idle = 0;

        for (i = 0; i < run.cfg.threads; i++)
            idle += run.slots[i].ops == 0;
        json_object_set_new(rj, "idle_workers", json_integer(idle));
    }
    json_object_set_new(rj, "store", rcuprof_store_json());
    json_object_set_new(rj, "churn", rcuprof_churn_json(churn));
    json_object_set_new(rj, "line_rtt", rtt_cpu[1] < 0 || !run.cfg.rtt ? json_null()
        : json_pack("{s:[i,i], s:o, s:o}", "cpus", rtt_cpu[0], rtt_cpu[1],
                    "before_ns", rtt[0] >= 0 ? json_real(rtt[0]) : json_null(),
                    "after_ns", rtt[1] >= 0 ? json_real(rtt[1]) : json_null()));
    json_object_set_new(rj, "steal_ms", steal0 >= 0 && steal1 >= steal0
        ? json_real((double)(steal1 - steal0) * 1000.0 / (double)sysconf(_SC_CLK_TCK))
        : json_null());
    json_object_set_new(rj, "sched", sched_json(&run, ops));
    for (h = 0; h < run.ntools; h++)
        if (run.tools[h]->member != NULL && run.tools[h]->to_json != NULL)
            members[h] = run.tools[h]->to_json(run.tools[h], &run.view);
    /* A member no module collected is null, never zeros. */
    json_object_set_new(out, "probes", json_null());
    json_object_set_new(out, "counters", json_null());
    json_object_set_new(out, "samples", json_null());
    for (h = 0; h < run.ntools; h++)
        if (run.tools[h]->member != NULL)
            json_object_set_new(out, run.tools[h]->member,
                                members[h] != NULL ? members[h]
                                                   : json_null());
    json_object_set_new(out, "errors", errors);

    if (json_dumpf(out, stdout, JSON_COMPACT) != 0 || fputc('\n', stdout) == EOF
        || fflush(stdout) != 0) {
        rcuprof_stress_error("system", "cannot write the result to stdout");
        rc = RCUPROF_EXIT_SYSTEM;
    }
    json_decref(out);
    workload_teardown(&run);
    rcuprof_churn_free(churn);
    rcuprof_counters_free(ctr);
    rcuprof_sampler_free(smp);
#ifdef RCUPROF_HAVE_PROBES
    rcuprof_probe_readout_free(probes);
#endif
    rcuprof_placement_plan_free(plan);
    hwloc_bitmap_free(allowed);
    hwloc_topology_destroy(topo);
    return rc;
}
