/*
 * `rcuprof explain RESULTS... | --threads LIST`: why a thread count is slow.
 *
 * Finds the dips and knees of a sweep (or takes the listed counts), then,
 * for each step, runs the same workload at both counts under controlled
 * placements from the planner (the baseline, unpinned, compact, scatter,
 * core, one package or L3 domain when there are several), under the other
 * harness (--compat perftools or not) and without writers when the
 * workload has some, all repetitions interleaved; measures the cache-line
 * round trip between the CPUs used (pingpong, per pair); and classifies
 * each step by the rules of explain_rules.c.  Output: an evidence table in
 * markdown and JSON (docs/explain.md), written atomically to --out DIR.
 * One driver process per measurement, run by the experiment engine
 * (experiment.h) as sweep's are: explain only builds the plan.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "explain.h"
#include "rcuprof_stats.h"
#include "rcuprof_report.h"
#include "results.h"
#include "rcuprof_counters.h"
#include "rcuprof_placement.h"
#include "whatif.h"
#include "experiment.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RCUPROF_VERSION
# define RCUPROF_VERSION "0.0.0"
#endif

#define EXPLAIN_MAX_COUNTS 64
#define EXPLAIN_MAX_CASES 16
#define EXPLAIN_REPS_MAX 1000
#define EXPLAIN_BLOCKS_MAX 1000

/* MOD_WHATIF: the baseline placement with one delay site armed at one
 * delay (--whatif-site, --whatif-delays). */
enum { MOD_MAIN = 0, MOD_ALT, MOD_NOWRITERS, MOD_PAIR, MOD_WHATIF };

#define EXPLAIN_WHATIF_DELAYS "0,50,100,200"

struct cell {
    unsigned threads;
    size_t place;               /* policy index; pair index for MOD_PAIR;
                                 * site x nwdelays + delay index for
                                 * MOD_WHATIF */
    int mod;
    rcuprof_explain_run *runs;  /* run i is block i's (failed ones too) */
    size_t n, cap;
    double *rtt;                /* MOD_PAIR: round trips, ns */
};

struct case_spec {
    unsigned target, reference;
    int has_ref;
    const char *kind;
};

struct explain {
    const char *variant;
    char vname[96];             /* the canonical --variant */
    char drv[PATH_MAX];
    json_t *opts;               /* driver options: name -> string | true */
    char baseline[48];
    unsigned counts[EXPLAIN_MAX_COUNTS];
    size_t ncounts;
    struct case_spec cases[EXPLAIN_MAX_CASES];
    size_t ncases;
    char pnames[RCUPROF_EXPLAIN_MAX_PLACE][48];
    char psame[RCUPROF_EXPLAIN_MAX_PLACE][96];
    size_t nplace;
    /* [count][place] */
    rcuprof_explain_place plans[EXPLAIN_MAX_COUNTS][RCUPROF_EXPLAIN_MAX_PLACE];
    struct rcuprof_placement_topo_summary topo;
    rcuprof_explain_cpu *cpus;
    size_t ncpus;
    rcuprof_explain_pair *pairs;
    size_t npairs, total_pairs;
    int pmu;
    char pmu_reason[160];
    int alt_on;                 /* alt harness is perftools (1) or rcuprof */
    int writers;
    struct cell *cells;
    size_t ncells;
    unsigned reps;              /* the first stage when adaptive */
    unsigned blocks;            /* blocks run */
    double target_mde, max_time; /* adaptive: target %, or NAN; seconds */
    char adapt_note[512];       /* adaptive: why it stopped */
    uint64_t seed, timeout, max_pairs;
    size_t runs_total, runs_failed;
    json_t *notes;
    char host[128], kernel[128];
    char ossl_version[32], ossl_line[16];  /* the variant's, from its runs */
    int sample;
    /* --whatif-site, --whatif-delays: the sites (into wsbuf), the delays,
     * whose sites they are ("driver" or "library") */
    char wsbuf[256];
    const char *wsites[RCUPROF_EXPLAIN_MAX_WHATIF];
    size_t nwsites;
    unsigned wdelays[RCUPROF_WHATIF_DELAYS_MAX];
    size_t nwdelays;
    const char *wwhere;

    /* What was asked: results files, listed counts, options. */
    char **files;
    size_t nfiles;
    unsigned list[RCUPROF_THREADS_MAX];
    size_t nlist;
    const char *out;
    const char *host_name;      /* --host NAME, NULL: local */
    struct rcuprof_experiment e;
    int have_seed, have_variant;
    json_t *cli_opts;           /* driver options given */
    /* The sweep's: its results, every variant's detection (detj) and the
     * run variant's (det), its driver options, its line round trips. */
    rcuprof_results rs;
    rcuprof_explain_detection det;
    int have_det;
    json_t *detj;
    const json_t *spec_opts;
    struct sweep_ctx *sw;
    /* The classified steps. */
    json_t *cases_json;
};

/* explain's own options; the driver's follow them (but --pin). */
struct explain_args {
    const char *threads, *variant, *out, *whatif_site, *whatif_delays, *host;
    unsigned reps;
    uint64_t seed, max_pairs, timeout;
    double target_mde, max_time;
};

enum { ARG_THREADS, ARG_VARIANT, ARG_REPS, ARG_OUT, ARG_SEED, ARG_MAX_PAIRS,
       ARG_TIMEOUT, ARG_TARGET_MDE, ARG_MAX_TIME, ARG_WHATIF_SITE,
       ARG_WHATIF_DELAYS, ARG_PIN, ARG_HOST, ARG_HELP, ARG_N };

/* --pin: explain chooses the placements. */
static int opt_pin(void *target, const struct rcuprof_opt *row,
                   const char *arg, char *err, size_t n)
{
    snprintf(err, n, "--pin: explain runs its own placements; drop --pin (a sweep's --pin is the baseline)");
    return -1;
}

static const struct rcuprof_opt explain_rows[ARG_N] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "threads", 0, "LIST", "", 0, 0,
                   struct explain_args, threads, NULL,
                   "explain these thread counts instead, each against the one before (1,2,4 or 1-8)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variant", 0, "V", "", 0, 0,
                   struct explain_args, variant, NULL,
                   "the variant to run (default: the results' first with a finding, or stock)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "reps", 0, "N", "3", 1, EXPLAIN_REPS_MAX,
                   struct explain_args, reps, NULL,
                   "repetitions of every run, interleaved"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct explain_args, out, NULL,
                   "also write DIR/explain.md and DIR/explain.json atomically"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "seed", 0, "N", "", 0, 0xffffffffULL,
                   struct explain_args, seed, NULL,
                   "seed of the interleaved order (default: random, recorded)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "max-pairs", 0, "N", "32", 1, 4096,
                   struct explain_args, max_pairs, NULL,
                   "most CPU pairs in the round-trip matrix"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "timeout", 0, "S", "120", 1, 86400,
                   struct explain_args, timeout, NULL,
                   "kill a run after S seconds"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "target-mde", 0, "PCT", "", 0, 0,
                   struct explain_args, target_mde, rcuprof_cmd_opt_pct,
                   "adaptive: after the --reps blocks, add blocks until every cell's minimum detectable effect is at most PCT %"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "max-time", 0, "DUR", "", 0, 0,
                   struct explain_args, max_time, rcuprof_cmd_opt_duration,
                   "adaptive: add no block that would end after DUR (90, 15m, 1h30m) from the start"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "whatif-site", 0, "S[,S...]", "", 0, 0,
                   struct explain_args, whatif_site, NULL,
                   "also run whatif on these delay sites at each step's slow count and its reference (baseline placement, same blocks); the rule serialised_site reads them"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "whatif-delays", 0, "LIST", EXPLAIN_WHATIF_DELAYS, 0, 0,
                   struct explain_args, whatif_delays, NULL,
                   "with --whatif-site: the delays in ns, as whatif's (0 to 100000, 2 to 16 distinct)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "pin", 0, "POLICY", "", 0, 0,
                   struct explain_args, threads, opt_pin, NULL),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "host", 0, "NAME", "local", 0, 0,
                   struct explain_args, host, NULL,
                   "only local: explain plans its placements on this machine's topology, so run it on the host itself (another NAME is refused)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};

static void help(void)
{
    static const char *const skip[] = { "threads", "pin", NULL };
    static const struct rcuprof_opt help_row[] = {
        RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                            "this list"),
    };

    printf("usage: rcuprof explain RESULTS... | --threads LIST [options]\n");
    rcuprof_opts_help_item(stdout, "RESULTS",
                           "results.jsonl files of rcuprof sweep: their dips and knees are\n"
                           "explained, with the sweep's driver options\n");
    rcuprof_opts_help(stdout, explain_rows, ARG_N, 0, NULL);
    printf("driver options, passed to every run (see rcuprof run --help; --pin is explain's to choose):\n");
    rcuprof_opts_help(stdout, rcuprof_driver_opts, rcuprof_driver_nopts, 0,
                      skip);
    rcuprof_opts_help(stdout, help_row, 1, 0, NULL);
}

static void note(struct explain *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(struct explain *x, const char *fmt, ...)
{
    va_list ap;
    char buf[512];

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    json_array_append_new(x->notes, json_string(buf));
}

static const char *opt_str(const struct explain *x, const char *name)
{
    return json_string_value(json_object_get(x->opts, name));
}

/* ---------------------------------------------------------------------- */
/* Placements                                                              */

static void add_uniq(int *arr, size_t *n, int v)
{
    size_t k;

    for (k = 0; k < *n; k++)
        if (arr[k] == v)
            return;
    if (*n < RCUPROF_EXPLAIN_MAX_CPUS_USED)
        arr[(*n)++] = v;
}

static void place_from_plan(const struct rcuprof_placement_plan *p,
                            rcuprof_explain_place *out)
{
    int pk[RCUPROF_EXPLAIN_MAX_CPUS_USED], l3[RCUPROF_EXPLAIN_MAX_CPUS_USED];
    int co[RCUPROF_EXPLAIN_MAX_CPUS_USED];
    size_t npk = 0, nl3 = 0, nco = 0, i, k;

    out->pinned = p->kind != RCUPROF_PLACEMENT_NONE;
    out->shared_cpu = p->max_per_cpu > 1;
    out->ncpus = 0;
    if (!out->pinned)
        return;
    for (i = 0; i < p->nthreads; i++) {
        const struct rcuprof_placement_thread *t = &p->threads[i];

        if (out->ncpus < RCUPROF_EXPLAIN_MAX_CPUS_USED)
            out->cpus[out->ncpus++] = t->cpu;
        add_uniq(pk, &npk, t->package);
        add_uniq(l3, &nl3, t->l3);
        add_uniq(co, &nco, t->core);
        for (k = 0; k < i; k++)
            if (p->threads[k].core == t->core && p->threads[k].cpu != t->cpu
                && t->core >= 0)
                out->smt_shared = 1;
    }
    out->packages = (int)npk;
    out->l3s = (int)nl3;
    out->cores = (int)nco;
}

static int same_cpus(const rcuprof_explain_place *a,
                     const rcuprof_explain_place *b)
{
    return a->pinned && b->pinned && a->ncpus == b->ncpus
           && memcmp(a->cpus, b->cpus, a->ncpus * sizeof(int)) == 0;
}

/* Plan every candidate policy at every count; keep the baseline, "none",
 * and each pinned policy whose CPUs differ from a kept one at some count. */
static int plan_placements(struct explain *x, char *err, size_t errlen)
{
    const char *cand[RCUPROF_EXPLAIN_MAX_PLACE + 2];
    size_t nc = 0, i, c, k;
    hwloc_topology_t topo = NULL;
    hwloc_bitmap_t allowed = NULL;
    struct rcuprof_placement_plan *plan = NULL;
    int rc = -1;

    if (rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_SYSTEM, NULL,
                                        &topo, err, errlen) != 0
        || rcuprof_placement_allowed_get(&allowed, err, errlen) != 0)
        goto done;
    cand[nc++] = x->baseline;
    if (strcmp(x->baseline, "none") != 0)
        cand[nc++] = "none";
    cand[nc++] = "compact";
    cand[nc++] = "scatter";
    cand[nc++] = "core";

    /* The topology summary and every allowed CPU's place (compact, all). */
    if (rcuprof_placement_plan_from_string(topo, allowed, "compact", 1, &plan,
                                           err, errlen) != 0)
        goto done;
    x->topo = plan->topo;
    rcuprof_placement_plan_free(plan);
    plan = NULL;
    if (x->topo.packages > 1)
        cand[nc++] = "package:0";
    if (x->topo.l3_domains > 1)
        cand[nc++] = "l3:0";
    if (rcuprof_placement_plan_from_string(topo, allowed, "compact",
                                           (unsigned)x->topo.allowed_pus,
                                           &plan, err, errlen) != 0)
        goto done;
    x->cpus = calloc(plan->nthreads, sizeof(*x->cpus));
    if (x->cpus == NULL)
        goto done;
    for (i = 0; i < plan->nthreads; i++) {
        x->cpus[i].cpu = plan->threads[i].cpu;
        x->cpus[i].package = plan->threads[i].package;
        x->cpus[i].l3 = plan->threads[i].l3;
        x->cpus[i].core = plan->threads[i].core;
    }
    x->ncpus = plan->nthreads;
    rcuprof_placement_plan_free(plan);
    plan = NULL;

    for (i = 0; i < nc && x->nplace < RCUPROF_EXPLAIN_MAX_PLACE; i++) {
        size_t p = x->nplace, dup = SIZE_MAX;
        int ok = 1;

        if (i > 0 && strcmp(cand[i], x->baseline) == 0)
            continue;
        for (c = 0; c < x->ncounts; c++) {
            rcuprof_explain_place *pl = &x->plans[c][p];
            char perr[256];

            memset(pl, 0, sizeof(*pl));
            if (rcuprof_placement_plan_from_string(topo, allowed, cand[i],
                                                   x->counts[c], &plan, perr,
                                                   sizeof(perr)) != 0) {
                if (i == 0) {
                    snprintf(err, errlen, "the baseline placement '%s': %s",
                             cand[i], perr);
                    goto done;
                }
                note(x, "placement %s not run: %s", cand[i], perr);
                ok = 0;
                break;
            }
            snprintf(pl->name, sizeof(pl->name), "%s", cand[i]);
            place_from_plan(plan, pl);
            rcuprof_placement_plan_free(plan);
            plan = NULL;
        }
        if (!ok)
            continue;
        /* The same CPUs as a kept pinned policy at every count? */
        for (k = 1; k < p && i > 0; k++) {
            for (c = 0; c < x->ncounts; c++)
                if (!same_cpus(&x->plans[c][k], &x->plans[c][p]))
                    break;
            if (c == x->ncounts) {
                dup = k;
                break;
            }
        }
        if (dup != SIZE_MAX) {
            size_t len = strlen(x->psame[dup]);

            snprintf(x->psame[dup] + len, sizeof(x->psame[dup]) - len, "%s%s",
                     len ? ", " : "", cand[i]);
            continue;
        }
        snprintf(x->pnames[p], sizeof(x->pnames[p]), "%s", cand[i]);
        x->nplace++;
    }
    for (c = 0; c < x->ncounts; c++)
        for (k = 0; k < x->nplace; k++)
            snprintf(x->plans[c][k].same_as, sizeof(x->plans[c][k].same_as),
                     "%s", x->psame[k]);
    rc = 0;
 done:
    rcuprof_placement_plan_free(plan);
    if (allowed != NULL)
        hwloc_bitmap_free(allowed);
    if (topo != NULL)
        hwloc_topology_destroy(topo);
    return rc;
}

static int pick_pairs(struct explain *x)
{
    int cpus[1024];
    size_t n = 0, c, p, k;
    int unpinned = 0;

    for (c = 0; c < x->ncounts; c++)
        for (p = 0; p < x->nplace; p++) {
            const rcuprof_explain_place *pl = &x->plans[c][p];

            if (!pl->pinned)
                unpinned = 1;
            for (k = 0; k < pl->ncpus && n < 1024; k++)
                cpus[n++] = pl->cpus[k];
        }
    if (unpinned)
        for (k = 0; k < x->ncpus && n < 1024; k++)
            cpus[n++] = x->cpus[k].cpu;
    return rcuprof_explain_pairs(cpus, n, x->cpus, x->ncpus,
                                 (size_t)x->max_pairs, &x->pairs, &x->npairs,
                                 &x->total_pairs);
}

/* ---------------------------------------------------------------------- */
/* Runs                                                                    */

static struct cell *cell_get(struct explain *x, unsigned threads,
                             size_t place, int mod)
{
    size_t i;

    for (i = 0; i < x->ncells; i++)
        if (x->cells[i].threads == threads && x->cells[i].place == place
            && x->cells[i].mod == mod)
            return &x->cells[i];
    return NULL;
}

static int cell_add(struct explain *x, unsigned threads, size_t place,
                    int mod)
{
    struct cell *nc;

    if (cell_get(x, threads, place, mod) != NULL)
        return 0;
    nc = realloc(x->cells, (x->ncells + 1) * sizeof(*nc));
    if (nc == NULL)
        return -1;
    x->cells = nc;
    memset(&x->cells[x->ncells], 0, sizeof(*nc));
    x->cells[x->ncells].threads = threads;
    x->cells[x->ncells].place = place;
    x->cells[x->ncells].mod = mod;
    x->ncells++;
    return 0;
}

static size_t count_index(const struct explain *x, unsigned threads)
{
    size_t i;

    for (i = 0; i < x->ncounts; i++)
        if (x->counts[i] == threads)
            return i;
    return 0;
}

/* argv of one run; the strings are malloc'ed from index 1 on. */
static int build_argv(struct explain *x, const struct cell *cl, char **av,
                      size_t cap)
{
    json_t *o;
    int n;

    if (cl->mod == MOD_PAIR) {
        /* The line round trip of one CPU pair: pingpong, short. */
        const rcuprof_explain_pair *pr = &x->pairs[cl->place];
        const char *d = opt_str(x, "duration-ms");
        unsigned long dur = d != NULL ? strtoul(d, NULL, 10) : 100;

        if (dur == 0 || dur > 100)
            dur = 100;
        o = json_pack("{s:s, s:s, s:o, s:o, s:s, s:s}", "workload",
                      "pingpong", "threads", "2",
                      "pin", json_sprintf("cpus:%d,%d", pr->a, pr->b),
                      "duration-ms", json_sprintf("%lu", dur),
                      "warmup-ms", "20", "rtt", "off");
    } else {
        o = json_deep_copy(x->opts);
        if (o != NULL && cl->mod == MOD_ALT) {
            if (x->alt_on)
                json_object_set_new(o, "compat", json_string("perftools"));
            else
                json_object_del(o, "compat");
        } else if (o != NULL && cl->mod == MOD_NOWRITERS) {
            json_object_set_new(o, "writers", json_string("0"));
            json_object_del(o, "write-rate");
            json_object_del(o, "churn");
        } else if (o != NULL && cl->mod == MOD_WHATIF) {
            json_object_set_new(o, "delay-site", json_string(
                x->wsites[cl->place / x->nwdelays]));
            json_object_set_new(o, "delay-ns", json_sprintf("%u",
                x->wdelays[cl->place % x->nwdelays]));
        }
        if (o != NULL) {
            json_object_set_new(o, "threads", json_sprintf("%u", cl->threads));
            json_object_set_new(o, "pin", json_string(
                x->pnames[cl->mod == MOD_MAIN ? cl->place : 0]));
        }
    }
    if (o == NULL)
        return -1;
    n = rcuprof_driver_argv(x->drv, o, av, cap);
    json_decref(o);
    return n;
}

/*
 * The engine's callbacks.  take: one measurement's outcome (classified and
 * decoded once by the engine) into its cell: failures noted, the run kept
 * (failed ones too: run i of a cell is block i's).  0, -1 out of memory,
 * or an exit code after its line.
 */
static void cb_driver(void *ctx, size_t cell, const char **variant,
                      const char **drv)
{
    struct explain *x = ctx;

    (void)cell;
    *variant = x->variant;
    *drv = x->drv;
}

static int cb_argv(void *ctx, const struct rcuprof_exp_point *p, char **av,
                   size_t cap)
{
    struct explain *x = ctx;

    return build_argv(x, &x->cells[p->cell], av, cap);
}

static int cb_take(void *ctx, const struct rcuprof_exp_point *pt,
                   const struct rcuprof_exp_outcome *o)
{
    struct explain *x = ctx;
    struct cell *cl = &x->cells[pt->cell];
    rcuprof_explain_run run;
    const json_t *res = o->result;
    int failed = 0;
    char wtxt[96] = "";

    if (o->exec == RCUPROF_EXEC_ERROR) {
        rcuprof_err("explain: cannot start %s: check it is executable",
                    x->drv);
        return RCUPROF_ERR_SYSTEM;
    }
    memset(&run, 0, sizeof(run));
    x->runs_total++;
    if (cl->mod == MOD_WHATIF)
        snprintf(wtxt, sizeof(wtxt), ", delay site %s at %u ns",
                 x->wsites[cl->place / x->nwdelays],
                 x->wdelays[cl->place % x->nwdelays]);
    if (o->timed_out || !o->exited || o->code != 0) {
        failed = 1;
        note(x, "a run at %u threads (%s%s) failed: %s", cl->threads,
             cl->mod == MOD_PAIR ? "pingpong"
             : x->pnames[cl->mod == MOD_MAIN ? cl->place : 0], wtxt,
             o->timed_out ? "timed out"
             : o->message[0] ? o->message : "no message");
    } else if (res == NULL) {
        failed = 1;
    }
    if (!failed) {
        run = o->rec;           /* decoded once, by the engine */
        failed = !run.ok;
        if (failed) {
            if (cl->mod == MOD_PAIR)
                note(x, "a pingpong run on CPUs %d,%d is not a measurement: %s",
                     x->pairs[cl->place].a, x->pairs[cl->place].b, run.why);
            else
                note(x, "a run at %u threads (%s%s) is not a measurement: %s",
                     cl->threads,
                     x->pnames[cl->mod == MOD_MAIN ? cl->place : 0], wtxt,
                     run.why);
        }
        if (x->ossl_version[0] == '\0' && run.openssl_version[0] != '\0') {
            snprintf(x->ossl_version, sizeof(x->ossl_version), "%s",
                     run.openssl_version);
            snprintf(x->ossl_line, sizeof(x->ossl_line), "%s", run.line);
        }
        if (x->host[0] == '\0') {
            snprintf(x->host, sizeof(x->host), "%s",
                     run.host[0] ? run.host : "?");
            snprintf(x->kernel, sizeof(x->kernel), "%s",
                     run.kernel[0] ? run.kernel : "?");
        }
        if (run.samples != NULL) {
            char aerr[256];
            json_t *rep = rcuprof_attribute_record(&run, 5, 0, aerr,
                                                   sizeof(aerr));

            if (rep != NULL)
                rcuprof_explain_run_samples(rep, &run);
            json_decref(rep);
        }
        run.samples = NULL;     /* the result goes */
    }
    if (failed)
        x->runs_failed++;
    run.ok = !failed;
    if (cl->mod == MOD_PAIR) {
        if (cl->n == cl->cap) {     /* adaptive blocks: more than --reps */
            size_t cap = cl->cap ? cl->cap * 2 : x->reps + 1;
            double *nr = realloc(cl->rtt, cap * sizeof(*nr));

            if (nr == NULL)
                return -1;
            cl->rtt = nr;
            cl->cap = cap;
        }
        if (!failed) {
            const json_t *t0 = json_array_get(json_object_get(res, "threads"),
                                              0);
            double w = json_number_value(json_object_get(t0, "window_ns"));
            double ops = json_number_value(json_object_get(t0, "ops"));

            cl->rtt[cl->n++] = w > 0 && ops > 0 ? w / ops
                                                 : run.wall_ns_per_op;
        }
        return 0;
    }
    if (cl->n == cl->cap) {
        size_t cap = cl->cap ? cl->cap * 2 : 8;
        rcuprof_explain_run *nr = realloc(cl->runs, cap * sizeof(*nr));

        if (nr == NULL)
            return -1;
        cl->runs = nr;
        cl->cap = cap;
    }
    cl->runs[cl->n++] = run;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* The sweep's line_rtt, per thread count                                  */

struct sweep_ctx {
    unsigned threads[EXPLAIN_MAX_COUNTS * 16];
    double rtt[EXPLAIN_MAX_COUNTS * 16];
    size_t n;
    double min, max, jump;
};

/* The line round trips of the sweep's ok runs of VARIANT (decoded). */
static void sweep_rtt_read(const rcuprof_results *rs, const char *variant,
                           struct sweep_ctx *s)
{
    size_t i;

    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];
        double b = p->result.rtt_before, a = p->result.rtt_after;

        if (p->status != RCUPROF_POINT_OK
            || strcmp(rs->variants[p->variant], variant) != 0)
            continue;
        if (b > 0 && a > 0) {
            double jump = fmax(a / b, b / a);

            if (!(s->jump >= jump))
                s->jump = jump;
        }
        if (b > 0 && s->n < sizeof(s->rtt) / sizeof(s->rtt[0])) {
            s->threads[s->n] = p->threads;
            s->rtt[s->n++] = b;
        }
        if (a > 0 && s->n < sizeof(s->rtt) / sizeof(s->rtt[0])) {
            s->threads[s->n] = p->threads;
            s->rtt[s->n++] = a;
        }
        if (b > 0)
            s->min = fmin(s->min, b), s->max = fmax(s->max, b);
        if (a > 0)
            s->min = fmin(s->min, a), s->max = fmax(s->max, a);
    }
}

static double sweep_rtt_at(const struct sweep_ctx *s, unsigned threads,
                           double *lo, double *hi)
{
    double v[EXPLAIN_MAX_COUNTS * 16], med;
    size_t i, m = 0;

    *lo = *hi = NAN;
    for (i = 0; i < s->n; i++)
        if (s->threads[i] == threads)
            v[m++] = s->rtt[i];
    if (m == 0 || rcuprof_stats_quantile(v, m, 0.5, &med) != RCUPROF_STATS_OK)
        return NAN;
    rcuprof_stats_quantile(v, m, 0.0, lo);
    rcuprof_stats_quantile(v, m, 1.0, hi);
    return med;
}

/* ---------------------------------------------------------------------- */

static void fill_side(struct explain *x, unsigned threads,
                      const struct sweep_ctx *sw,
                      const rcuprof_explain_detection *det,
                      rcuprof_explain_side *s)
{
    size_t ci = count_index(x, threads), p, i;
    struct cell *cl;

    memset(s, 0, sizeof(*s));
    s->threads = threads;
    s->nplace = x->nplace;
    for (p = 0; p < x->nplace; p++) {
        s->place[p] = x->plans[ci][p];
        cl = cell_get(x, threads, p, MOD_MAIN);
        if (cl != NULL)
            rcuprof_explain_aggregate_staged(cl->runs, cl->n, x->reps,
                                             RCUPROF_EXPLAIN_LEVEL,
                                      &s->agg[p]);
        else
            rcuprof_explain_agg_init(&s->agg[p]);
    }
    cl = cell_get(x, threads, 0, MOD_ALT);
    if (cl != NULL)
        rcuprof_explain_aggregate_staged(cl->runs, cl->n, x->reps,
                                             RCUPROF_EXPLAIN_LEVEL,
                                  &s->alt);
    else
        rcuprof_explain_agg_init(&s->alt);
    cl = cell_get(x, threads, 0, MOD_NOWRITERS);
    if (cl != NULL)
        rcuprof_explain_aggregate_staged(cl->runs, cl->n, x->reps,
                                             RCUPROF_EXPLAIN_LEVEL,
                                  &s->nowriters);
    else
        rcuprof_explain_agg_init(&s->nowriters);
    s->sweep_rtt = s->sweep_rtt_lo = s->sweep_rtt_hi = NAN;
    if (sw != NULL)
        s->sweep_rtt = sweep_rtt_at(sw, threads, &s->sweep_rtt_lo,
                                    &s->sweep_rtt_hi);
    s->sweep_cost = NAN;
    for (i = 0; det != NULL && i < det->ncounts; i++)
        if (det->counts[i].threads == threads)
            s->sweep_cost = det->counts[i].cost;
}

static void explain_free(struct explain *x)
{
    size_t i;

    for (i = 0; i < x->ncells; i++) {
        free(x->cells[i].runs);
        free(x->cells[i].rtt);
    }
    free(x->cells);
    free(x->cpus);
    free(x->pairs);
    free(x->sw);
    json_decref(x->opts);
    json_decref(x->notes);
    json_decref(x->cli_opts);
    json_decref(x->detj);
    json_decref(x->cases_json);
    rcuprof_explain_detection_free(&x->det);
    rcuprof_results_free(&x->rs);
}

static int write_out(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];

    if (snprintf(path, sizeof(path), "%s/%s", dir, name)
        >= (int)sizeof(path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return rcuprof_write_atomic(path, text, strlen(text));
}

/* ---------------------------------------------------------------------- */
/* The phases of rcuprof explain                                           */

/*
 * --whatif-site S[,S...] (at most RCUPROF_EXPLAIN_MAX_WHATIF, each once;
 * checked against the driver later) and its delays, as whatif's.  The
 * driver's own --delay-site/--delay-ns would arm a site in every run: not
 * with these.  0 or an exit code.
 */
static int parse_whatif(struct explain *x, const char *sites,
                        const char *delays)
{
    char err[512], *p, *tok, *save = NULL;
    size_t i;

    if (json_object_get(x->cli_opts, "delay-site") != NULL
        || json_object_get(x->cli_opts, "delay-ns") != NULL) {
        rcuprof_err("explain: --delay-site and --delay-ns are explain's to set with --whatif-site: drop them");
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_list_check("whatif-site", sites, err, sizeof(err)) != 0) {
        rcuprof_err("explain: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    if (sites[0] == '\0' || strlen(sites) >= sizeof(x->wsbuf)) {
        rcuprof_err("explain: --whatif-site '%s': give 1 to %d site names, comma-separated",
                    sites, RCUPROF_EXPLAIN_MAX_WHATIF);
        return RCUPROF_ERR_USAGE;
    }
    strcpy(x->wsbuf, sites);
    for (p = x->wsbuf; (tok = strtok_r(p, ",", &save)) != NULL; p = NULL) {
        while (*tok == ' ')
            tok++;
        for (i = strlen(tok); i > 0 && tok[i - 1] == ' '; i--)
            tok[i - 1] = '\0';
        if (tok[0] == '\0' || strlen(tok) >= 32) {
            rcuprof_err("explain: --whatif-site '%s': a site name is empty or longer than 31: give names like write_hold,outside",
                        sites);
            return RCUPROF_ERR_USAGE;
        }
        for (i = 0; i < x->nwsites; i++)
            if (strcmp(x->wsites[i], tok) == 0) {
                rcuprof_err("explain: --whatif-site '%s': %s is repeated: give each site once",
                            sites, tok);
                return RCUPROF_ERR_USAGE;
            }
        if (x->nwsites == RCUPROF_EXPLAIN_MAX_WHATIF) {
            rcuprof_err("explain: --whatif-site '%s': more than %d sites: give at most %d",
                        sites, RCUPROF_EXPLAIN_MAX_WHATIF,
                        RCUPROF_EXPLAIN_MAX_WHATIF);
            return RCUPROF_ERR_USAGE;
        }
        x->wsites[x->nwsites++] = tok;
    }
    if (x->nwsites == 0) {
        rcuprof_err("explain: --whatif-site '%s': give 1 to %d site names, comma-separated",
                    sites, RCUPROF_EXPLAIN_MAX_WHATIF);
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_parse_delays("explain", "whatif-delays", delays, x->wdelays,
                             &x->nwdelays) != 0)
        return RCUPROF_ERR_USAGE;
    return 0;
}

/*
 * explain measures on this machine: a results file whose points ran
 * elsewhere (a `host` of kind "bundle" or "ssh", section 7.2/7.3) would be
 * explained by cells re-run here.  0, or -1 after its one line.
 */
static int refuse_remote_results(char *const *files, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        FILE *f = fopen(files[i], "r");
        char *line = NULL;
        size_t cap = 0;
        int bad = 0;

        if (f == NULL)
            continue;           /* the loader names what is wrong */
        while (!bad && getline(&line, &cap, f) > 0) {
            json_t *j, *h;
            const char *kind;

            if (strstr(line, "\"kind\"") == NULL)
                continue;
            j = json_loads(line, 0, NULL);
            h = json_object_get(j, "host");
            kind = json_string_value(json_object_get(h, "kind"));
            if (kind != NULL && (strcmp(kind, "bundle") == 0
                                 || strcmp(kind, "ssh") == 0)) {
                const char *nm = json_string_value(json_object_get(h, "name"));

                rcuprof_err("explain: %s: its points ran on %s host %s, and explain re-runs cells on this machine: run rcuprof explain on that machine itself",
                            files[i], kind, nm != NULL ? nm : "?");
                bad = 1;
            }
            json_decref(j);
        }
        free(line);
        fclose(f);
        if (bad)
            return -1;
    }
    return 0;
}

/*
 * Parse: explain's options, the driver's (x->cli_opts), the results files
 * and the listed counts.  0, -1 for --help (printed), or an exit code.
 */
static int explain_parse(int argc, char **argv, struct explain *x)
{
    struct explain_args a = { 0 };
    unsigned char seen[ARG_N] = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "explain", .rows = explain_rows,
                                   .n = ARG_N, .target = &a,
                                   .driver = x->cli_opts, .seen = seen };
    const struct rcuprof_opt *action;
    char err[1024];
    int first, rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);

    if (rc == 1)
        help();
    if (rc != 0)
        return rc > 0 ? -1 : RCUPROF_ERR_USAGE;
    x->reps = a.reps;
    x->target_mde = seen[ARG_TARGET_MDE] ? a.target_mde : NAN;
    x->max_time = a.max_time;
    if (seen[ARG_TARGET_MDE] && x->reps < RCUPROF_CHANGE_MIN_N) {
        rcuprof_err("explain: --target-mde: the --reps blocks are its first stage and need at least %d (5 to 10 recommended): raise --reps",
                    RCUPROF_CHANGE_MIN_N);
        return RCUPROF_ERR_USAGE;
    }
    if (seen[ARG_MAX_TIME] && !seen[ARG_TARGET_MDE]) {
        rcuprof_err("explain: --max-time bounds the blocks --target-mde adds: give --target-mde PCT too");
        return RCUPROF_ERR_USAGE;
    }
    if (seen[ARG_TARGET_MDE])
        rcuprof_cmd_warn_first_stage("explain", x->reps);
    x->timeout = a.timeout;
    x->max_pairs = a.max_pairs;
    x->seed = a.seed;
    x->have_seed = seen[ARG_SEED];
    x->have_variant = seen[ARG_VARIANT];
    x->variant = x->have_variant ? a.variant : "stock";
    if (x->have_variant && strlen(a.variant) < sizeof(x->vname)) {
        strcpy(x->vname, a.variant);        /* stock@3.5 is stock */
        x->variant = rcuprof_variant_canon(x->vname);
    }
    x->out = a.out;
    x->host_name = a.host;
    x->files = argv + first;
    x->nfiles = (size_t)(argc - first);
    /* Its placements, CPU pairs, PMU events and delay sites are planned on
     * this machine's topology (hwloc here); a host record has counts only,
     * not the CPU numbering pairs and pins need. */
    if (a.host != NULL && strcmp(a.host, "local") != 0) {
        rcuprof_err("explain: --host %s: explain plans its placements, CPU pairs and probes on this machine's topology, not the host's: run rcuprof explain on %s itself",
                    a.host, a.host);
        return RCUPROF_ERR_USAGE;
    }
    if (refuse_remote_results(x->files, x->nfiles) != 0)
        return RCUPROF_ERR_USAGE;
    if (x->nfiles == 0 && a.threads == NULL) {
        rcuprof_err("explain: give results files of rcuprof sweep or --threads LIST: see 'rcuprof explain --help'");
        return RCUPROF_ERR_USAGE;
    }
    if (a.threads != NULL
        && rcuprof_parse_threads(a.threads, x->list, RCUPROF_THREADS_MAX,
                                 &x->nlist, err, sizeof(err)) != 0) {
        rcuprof_err("explain: --threads: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    if (x->nlist > EXPLAIN_MAX_CASES) {
        rcuprof_err("explain: --threads: %zu counts, at most %d: explain fewer steps at a time",
                    x->nlist, EXPLAIN_MAX_CASES);
        return RCUPROF_ERR_USAGE;
    }
    if (seen[ARG_WHATIF_DELAYS] && !seen[ARG_WHATIF_SITE]) {
        rcuprof_err("explain: --whatif-delays is the delays of --whatif-site: give --whatif-site S too");
        return RCUPROF_ERR_USAGE;
    }
    if (seen[ARG_WHATIF_SITE])
        return parse_whatif(x, a.whatif_site,
                            seen[ARG_WHATIF_DELAYS] ? a.whatif_delays
                                                    : EXPLAIN_WHATIF_DELAYS);
    return 0;
}

/* A case per flagged finding of the detection, each (threads, vs) once. */
static void cases_from_findings(struct explain *x)
{
    size_t j, k;

    for (j = 0; j < x->det.nfindings && x->ncases < EXPLAIN_MAX_CASES; j++) {
        const rcuprof_explain_finding *f = &x->det.findings[j];

        if (!rcuprof_explain_finding_flagged(f))
            continue;
        for (k = 0; k < x->ncases; k++)
            if (x->cases[k].target == f->threads
                && x->cases[k].reference == f->vs)
                break;
        if (k < x->ncases)
            continue;
        x->cases[x->ncases].target = f->threads;
        x->cases[x->ncases].reference = f->vs;
        x->cases[x->ncases].has_ref = 1;
        x->cases[x->ncases].kind = f->kind == RCUPROF_EXPLAIN_DIP ? "dip"
                                                                  : "knee";
        x->ncases++;
    }
}

/*
 * A sweep with no step to explain (one thread count, or no dip and no
 * separated knee): the one-line refusal, RCUPROF_ERR_USAGE.
 */
static int explain_nothing(const struct explain *x)
{
    struct rcuprof_sb c = { 0 };
    const char *what = x->nfiles == 1 ? x->files[0] : "the results";
    size_t i;

    for (i = 0; i < x->det.ncounts; i++)
        rcuprof_sb_printf(&c, "%s%u", i > 0 ? ", " : "",
                          x->det.counts[i].threads);
    if (x->det.ncounts < 2)
        rcuprof_err("explain: %s holds %s at %s thread count%s%s%s: explain needs a sweep of 2 or more thread counts, or --threads LIST",
                    what, x->variant, x->det.ncounts == 0 ? "no" : "one",
                    x->det.ncounts == 0 ? "" : " (",
                    c.p != NULL ? c.p : "", x->det.ncounts == 0 ? "" : ")");
    else
        rcuprof_err("explain: %s holds no dip and no separated knee of %s (threads %s): explain needs a flagged step, or --threads LIST to run chosen ones",
                    what, x->variant, c.p);
    free(c.p);
    return RCUPROF_ERR_USAGE;
}

/*
 * Pick the cases: from the sweep, every variant's detection and the one to
 * run (--variant, else the first with a flagged finding, else the first),
 * its driver options and baseline placement, its flagged findings; or the
 * listed counts, each against the one before.  0 or an exit code.
 */
static int explain_pick_cases(struct explain *x)
{
    size_t vi, j, i, pick = SIZE_MAX;
    int pick_flagged = 0;

    if (x->nfiles > 0) {
        if (rcuprof_results_load_all(&x->rs, x->files, x->nfiles, "explain")
            != 0)
            return RCUPROF_ERR_USAGE;
        x->detj = json_object();
        for (vi = 0; vi < x->rs.nvariants; vi++) {
            rcuprof_explain_detection d;
            int flagged = 0, take;

            if (rcuprof_explain_detect_results(&x->rs, vi, RCUPROF_METRIC_WALL,
                                               &d) != 0) {
                rcuprof_err("explain: out of memory");
                return RCUPROF_ERR_SYSTEM;
            }
            json_object_set_new(x->detj, x->rs.variants[vi],
                                rcuprof_explain_detection_json(&d));
            for (j = 0; j < d.nfindings; j++)
                flagged |= rcuprof_explain_finding_flagged(&d.findings[j]);
            if (x->have_variant)
                take = strcmp(x->rs.variants[vi], x->variant) == 0;
            else
                take = pick == SIZE_MAX || (flagged && !pick_flagged);
            if (take) {
                rcuprof_explain_detection_free(&x->det);
                x->det = d;
                pick = vi;
                pick_flagged = flagged;
            } else {
                rcuprof_explain_detection_free(&d);
            }
        }
        if (pick == SIZE_MAX) {
            rcuprof_err("explain: --variant '%s' is not in the results: give one of their variants",
                        x->variant);
            return RCUPROF_ERR_USAGE;
        }
        /* "VARIANT [HOST]" (results.c): the variant runs here. */
        snprintf(x->vname, sizeof(x->vname), "%.*s",
                 (int)strcspn(x->rs.variants[pick], " "),
                 x->rs.variants[pick]);
        x->variant = x->vname;
        x->have_det = 1;
        x->spec_opts = json_object_get(json_object_get(x->rs.files[0].header,
                                                       "spec"), "options");
        if (json_is_string(json_object_get(x->spec_opts, "pin")))
            snprintf(x->baseline, sizeof(x->baseline), "%s",
                     json_string_value(json_object_get(x->spec_opts, "pin")));
        if (x->nlist == 0)
            cases_from_findings(x);
        if (x->nlist == 0 && x->ncases == 0)
            return explain_nothing(x);
        rcuprof_results_warn_torn(&x->rs);
    }
    for (i = 0; i < x->nlist; i++) {
        x->cases[x->ncases].target = x->list[i];
        x->cases[x->ncases].has_ref = i > 0;
        x->cases[x->ncases].reference = i > 0 ? x->list[i - 1] : 0;
        x->cases[x->ncases].kind = "listed";
        x->ncases++;
    }
    return 0;
}

/* The variant known and built, and the driver options every run gets (the
 * sweep's, then the command line's).  0 or an exit code. */
static int explain_check_variant(struct explain *x)
{
    char err[1024];
    json_t *known = rcuprof_variants_load(err, sizeof(err));
    int ok;

    if (known == NULL) {
        rcuprof_err("%s", err);
        return RCUPROF_ERR_USAGE;
    }
    ok = rcuprof_variant_usable("explain", x->variant, known, x->drv,
                                sizeof(x->drv)) == 0;
    json_decref(known);
    if (!ok)
        return RCUPROF_ERR_USAGE;
    x->opts = json_is_object(x->spec_opts)
              ? json_deep_copy(x->spec_opts) : json_object();
    json_object_del(x->opts, "pin");
    json_object_del(x->opts, "threads");
    json_object_update(x->opts, x->cli_opts);
    if (opt_str(x, "workload") != NULL
        && strcmp(opt_str(x, "workload"), "pingpong") == 0) {
        rcuprof_err("explain: --workload pingpong runs at 2 threads only: explain another workload");
        return RCUPROF_ERR_USAGE;
    }
    x->alt_on = opt_str(x, "compat") == NULL
                || strcmp(opt_str(x, "compat"), "none") == 0;
    x->writers = (opt_str(x, "writers") != NULL
                  && strcmp(opt_str(x, "writers"), "0") != 0)
                 || (opt_str(x, "write-rate") != NULL
                     && strcmp(opt_str(x, "write-rate"), "0") != 0);
    x->sample = opt_str(x, "sample") != NULL
                && strcmp(opt_str(x, "sample"), "on") == 0;
    if (x->nwsites > 0)
        return rcuprof_delay_sites_check("explain", "whatif-site", x->drv,
                                         x->variant, x->wsites, x->nwsites,
                                         opt_str(x, "workload") != NULL
                                         ? opt_str(x, "workload") : "fetch",
                                         &x->wwhere);
    return 0;
}

/* Whether hardware counters work here (coherence events then). */
static void explain_pmu(struct explain *x)
{
    char cerr[256];
    json_t *ev = rcuprof_counters_list_json(cerr, sizeof(cerr));
    const json_t *pmu = json_object_get(ev, "pmu");

    x->pmu = json_is_true(json_object_get(pmu, "hardware"));
    snprintf(x->pmu_reason, sizeof(x->pmu_reason), "%.150s",
             json_is_string(json_object_get(pmu, "reason"))
             ? json_string_value(json_object_get(pmu, "reason"))
             : ev == NULL ? cerr : "");
    json_decref(ev);
    if (x->pmu && opt_str(x, "events") == NULL)
        json_object_set_new(x->opts, "events", json_string("coherence"));
}

/*
 * Plan the cells: the counts of the cases, the placements at each, every
 * count under every placement, the other harness and no writers at the
 * baseline placement; then the CPU pairs.  0 or an exit code.
 */
static int explain_plan_cells(struct explain *x)
{
    char err[1024];
    size_t i, k, m, p;

    for (i = 0; i < x->ncases; i++) {
        unsigned c[2] = { x->cases[i].target, x->cases[i].reference };

        for (k = 0; k < (x->cases[i].has_ref ? 2u : 1u); k++) {
            for (m = 0; m < x->ncounts && x->counts[m] != c[k]; m++)
                ;
            if (m == x->ncounts && x->ncounts < EXPLAIN_MAX_COUNTS)
                x->counts[x->ncounts++] = c[k];
        }
    }
    if (plan_placements(x, err, sizeof(err)) != 0) {
        rcuprof_err("explain: placement: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    explain_pmu(x);
    if (!x->have_seed) {
        uint32_t s;

        if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
            s = (uint32_t)time(NULL) ^ (uint32_t)getpid();
        x->seed = s;
    }
    for (i = 0; i < x->ncounts; i++) {
        for (p = 0; p < x->nplace; p++)
            if (cell_add(x, x->counts[i], p, MOD_MAIN) != 0)
                goto oom;
        if (cell_add(x, x->counts[i], 0, MOD_ALT) != 0
            || (x->writers
                && cell_add(x, x->counts[i], 0, MOD_NOWRITERS) != 0))
            goto oom;
        for (p = 0; p < x->nwsites * x->nwdelays; p++)
            if (cell_add(x, x->counts[i], p, MOD_WHATIF) != 0)
                goto oom;
    }
    if (pick_pairs(x) != 0)
        goto oom;
    for (i = 0; i < x->npairs; i++)
        if (cell_add(x, 0, i, MOD_PAIR) != 0)
            goto oom;
    return 0;
 oom:
    rcuprof_err("explain: out of memory");
    return RCUPROF_ERR_SYSTEM;
}

/* Each pair's round trip: its fastest run, and the median. */
static void explain_pair_figures(struct explain *x)
{
    size_t i;

    for (i = 0; i < x->npairs; i++) {
        struct cell *cl = cell_get(x, 0, i, MOD_PAIR);

        x->pairs[i].ns = x->pairs[i].median_ns = NAN;
        x->pairs[i].n = cl != NULL ? cl->n : 0;
        if (cl != NULL && cl->n > 0) {
            rcuprof_stats_quantile(cl->rtt, cl->n, 0.0, &x->pairs[i].ns);
            rcuprof_stats_quantile(cl->rtt, cl->n, 0.5,
                                   &x->pairs[i].median_ns);
        }
    }
}

/*
 * Adaptive: the blocks every measured cell needs for its MDE (against a
 * like cell) to reach the target, from the first stage's spread (Stein),
 * the worst MDE now and its cell.  0 when every cell has a figure.
 */
static int explain_need(struct explain *x, size_t *need, double *worst,
                        char *where, size_t n)
{
    size_t i, unknown = 0;

    *need = 0;
    *worst = NAN;
    snprintf(where, n, "?");
    for (i = 0; i < x->ncells; i++) {
        const struct cell *cl = &x->cells[i];
        rcuprof_explain_agg a;
        double mde;
        size_t k;

        if (cl->mod == MOD_PAIR)
            continue;
        rcuprof_explain_aggregate_staged(cl->runs, cl->n, x->reps,
                                         RCUPROF_EXPLAIN_LEVEL, &a);
        if (rcuprof_explain_agg_need(&a, x->target_mde, EXPLAIN_BLOCKS_MAX,
                                     &mde, &k) != 0) {
            unknown++;
            continue;
        }
        if (k > *need)
            *need = k;
        if (!(*worst >= mde)) {
            *worst = mde;
            char wtxt[96] = "";

            if (cl->mod == MOD_WHATIF)
                snprintf(wtxt, sizeof(wtxt), ", %s at %u ns",
                         x->wsites[cl->place / x->nwdelays],
                         x->wdelays[cl->place % x->nwdelays]);
            snprintf(where, n, "%u threads, %s%s%s", cl->threads,
                     x->pnames[cl->mod == MOD_MAIN ? cl->place : 0],
                     cl->mod == MOD_ALT ? ", other harness"
                     : cl->mod == MOD_NOWRITERS ? ", no writers" : "", wtxt);
        }
    }
    if (unknown > 0) {
        size_t len = strlen(where);

        snprintf(where + len, n - len, "; %zu cell(s) without 2 successful first-stage runs left out",
                 unknown);
    }
    return isfinite(*worst) ? 0 : -1;
}

/* The engine's adaptive callback: the target is reached when every
 * cell's blocks needed are run. */
static int cb_need(void *ctx, unsigned blocks, struct rcuprof_exp_need *en)
{
    struct explain *x = ctx;
    size_t need;
    double worst;

    if (explain_need(x, &need, &worst, en->where, sizeof(en->where)) != 0)
        return -1;
    en->worst_mde_pct = worst;
    en->blocks = need;
    en->reached = need <= blocks;
    return 0;
}

/*
 * Run: the plan (every cell once per block, in an order shuffled from the
 * seed, one stream over all blocks; adaptive, more blocks after the first
 * --reps) on the experiment engine; then each pair's figures.  0 or an
 * exit code.
 */
static int explain_run_interleaved(struct explain *x)
{
    struct rcuprof_experiment *e = &x->e;
    const struct rcuprof_exp_need *nd = &e->stop_need;
    char err[512] = "";
    int rc;

    rcuprof_exp_init(e, "explain");
    e->exec = rcuprof_executor_open(x->host_name, err, sizeof(err));
    if (e->exec == NULL) {
        rcuprof_err("explain: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    e->ncells = x->ncells;
    e->reps = x->reps;
    e->blocks_max = EXPLAIN_BLOCKS_MAX;
    e->seed = x->seed;
    e->timeout_s = (double)x->timeout;
    e->target_mde = x->target_mde;
    e->max_time = x->max_time;
    e->progress = RCUPROF_EXP_PROGRESS_BLOCKS;
    e->ctx = x;
    e->driver = cb_driver;
    e->argv = cb_argv;
    e->take = cb_take;
    e->need = cb_need;
    fprintf(stderr, "explain: %s, %zu step(s), %zu thread count(s) x %zu placement(s), %zu CPU pair(s), %u rep(s): %zu runs%s\n",
            x->variant, x->ncases, x->ncounts, x->nplace, x->npairs, x->reps,
            x->ncells * x->reps, isfinite(x->target_mde)
            ? " in the first stage, then blocks until the target MDE" : "");
    rc = rcuprof_exp_run(e);
    rcuprof_executor_close(e->exec);
    if (rc == RCUPROF_ERR_RUN)
        rc = 0;                 /* failed runs are noted, not fatal */
    x->blocks = e->blocks_done;
    switch (rc == 0 ? e->stop : RCUPROF_EXP_STOP_NONE) {
    case RCUPROF_EXP_STOP_UNKNOWN:
        snprintf(x->adapt_note, sizeof(x->adapt_note),
                 "adaptive: stopped after %u blocks: no cell has 2 successful first-stage runs",
                 e->nblocks);
        break;
    case RCUPROF_EXP_STOP_TARGET:
        snprintf(x->adapt_note, sizeof(x->adapt_note),
                 "adaptive: target reached after %u blocks (first stage %u): worst MDE %.1f%% <= %.3g%% (%s); Stein's two-stage intervals",
                 e->nblocks, x->reps, nd->worst_mde_pct, x->target_mde,
                 nd->where);
        break;
    case RCUPROF_EXP_STOP_LIMIT:
    case RCUPROF_EXP_STOP_TIME:
        snprintf(x->adapt_note, sizeof(x->adapt_note),
                 "adaptive: %s after %u blocks (first stage %u): worst MDE %.1f%% > target %.3g%% (%s; %zu blocks needed); the intervals are valid, only wider than asked",
                 e->stop == RCUPROF_EXP_STOP_LIMIT ? "block limit reached"
                 : "time ran out", e->nblocks, x->reps, nd->worst_mde_pct,
                 x->target_mde, nd->where, nd->blocks);
        break;
    case RCUPROF_EXP_STOP_DEFERRED:
        snprintf(x->adapt_note, sizeof(x->adapt_note),
                 "adaptive: off: the host runs the measurements later; fixed %u blocks",
                 e->nblocks);
        break;
    default:
        break;
    }
    rcuprof_exp_free(e);
    if (rc == 0 && x->adapt_note[0])
        note(x, "%s", x->adapt_note);
    if (rc == 0)
        explain_pair_figures(x);
    return rc;
}

/*
 * The whatif of each --whatif-site at the case's two counts: every run of
 * its cells, run i of a cell being block i's (failed runs kept as gaps),
 * as whatif's observations, then the fits and the ratio of the slopes
 * (analysis/explain_whatif.c).  0, or -1 out of memory.
 */
static int case_whatif(struct explain *x, const struct case_spec *cs,
                       rcuprof_explain_whatif *out)
{
    unsigned counts[2] = { cs->target, cs->reference };
    double delays[RCUPROF_WHATIF_DELAYS_MAX];
    const char *wl = opt_str(x, "workload");
    rcuprof_whatif_obs *obs;
    size_t s, d, k, i, n, cap = 0;
    int rc = 0;

    for (d = 0; d < x->nwdelays; d++)
        delays[d] = x->wdelays[d];
    for (i = 0; i < x->ncells; i++)
        if (x->cells[i].mod == MOD_WHATIF)
            cap += x->cells[i].n;
    obs = malloc((cap + 1) * sizeof(*obs));
    if (obs == NULL)
        return -1;
    for (s = 0; s < x->nwsites && rc == 0; s++) {
        n = 0;
        for (k = 0; k < (cs->has_ref ? 2u : 1u); k++)
            for (d = 0; d < x->nwdelays; d++) {
                const struct cell *cl = cell_get(x, counts[k],
                                                 s * x->nwdelays + d,
                                                 MOD_WHATIF);

                for (i = 0; cl != NULL && i < cl->n && n < cap; i++)
                    rcuprof_explain_whatif_obs(&cl->runs[i], (unsigned)i,
                                               counts[k], delays[d],
                                               &obs[n++]);
            }
        rc = rcuprof_explain_whatif_fit(x->wsites[s], obs, n, cs->target,
                                        cs->reference, cs->has_ref, delays,
                                        x->nwdelays, &out[s]);
        if (rc == 0 && x->wwhere != NULL && strcmp(x->wwhere, "driver") == 0
            && wl != NULL)
            snprintf(out[s].label, sizeof(out[s].label), "%s %s", wl,
                     x->wsites[s]);
    }
    free(obs);
    return rc;
}

/* One case's two sides and the machine, classified into x->cases. */
static int classify_case(struct explain *x, const struct case_spec *cs,
                         const rcuprof_explain_thresholds *th)
{
    rcuprof_explain_case *c = calloc(1, sizeof(*c));
    rcuprof_explain_verdict *vd = calloc(rcuprof_explain_nrules, sizeof(*vd));
    rcuprof_explain_whatif wi[RCUPROF_EXPLAIN_MAX_WHATIF];
    const struct sweep_ctx *sw = x->sw;
    const rcuprof_explain_detection *det = x->have_det ? &x->det : NULL;
    char summary[256];

    if (c == NULL || vd == NULL) {
        free(c);
        free(vd);
        return -1;
    }
    c->kind = cs->kind;
    c->has_reference = cs->has_ref;
    fill_side(x, cs->target, sw, det, &c->t);
    if (c->has_reference)
        fill_side(x, cs->reference, sw, det, &c->r);
    c->cpus_allowed = (unsigned)x->topo.allowed_pus;
    c->packages = x->topo.packages;
    c->l3_domains = x->topo.l3_domains;
    c->cores = x->topo.cores;
    c->pus = x->topo.pus;
    c->pmu = x->pmu;
    snprintf(c->pmu_reason, sizeof(c->pmu_reason), "%s", x->pmu_reason);
    c->alt_harness = x->alt_on ? "perftools" : "rcuprof";
    c->writers = x->writers;
    c->pairs = x->pairs;
    c->npairs = x->npairs;
    c->sweep_rtt_min = sw != NULL && isfinite(sw->min) ? sw->min : NAN;
    c->sweep_rtt_max = sw != NULL && isfinite(sw->max) ? sw->max : NAN;
    c->sweep_rtt_jump = sw != NULL ? sw->jump : NAN;
    if (x->nwsites > 0) {
        if (case_whatif(x, cs, wi) != 0) {
            free(c);
            free(vd);
            return -1;
        }
        c->whatif = wi;
        c->nwhatif = x->nwsites;
    }
    rcuprof_explain_classify(c, th, vd, summary, sizeof(summary));
    json_array_append_new(x->cases_json,
                          rcuprof_explain_case_json(c, vd, summary));
    free(c);
    free(vd);
    return 0;
}

/* Classify: the sweep's machine state, then every case by the rules. */
static int explain_classify(struct explain *x)
{
    rcuprof_explain_thresholds th;
    size_t i;

    rcuprof_explain_thresholds_default(&th);
    if (x->nfiles > 0) {
        if ((x->sw = calloc(1, sizeof(*x->sw))) == NULL)
            goto oom;
        x->sw->min = INFINITY;
        x->sw->max = -INFINITY;
        x->sw->jump = NAN;
        sweep_rtt_read(&x->rs, x->variant, x->sw);
    }
    if ((x->cases_json = json_array()) == NULL)
        goto oom;
    for (i = 0; i < x->ncases; i++)
        if (classify_case(x, &x->cases[i], &th) != 0)
            goto oom;
    return 0;
 oom:
    rcuprof_err("explain: out of memory");
    return RCUPROF_ERR_SYSTEM;
}

/* The driver options as one line of text ("driver defaults" for none). */
static void options_text(const json_t *opts, char *otext, size_t n)
{
    const char *name;
    json_t *val;
    size_t olen = 0;

    otext[0] = '\0';
    json_object_foreach((json_t *)opts, name, val) {
        int w = snprintf(otext + olen, n - olen, "%s--%s%s%s",
                         olen ? " " : "", name,
                         json_is_string(val) ? " " : "",
                         json_is_string(val) ? json_string_value(val) : "");

        if (w < 0 || (size_t)w >= n - olen)
            break;
        olen += (size_t)w;
    }
    if (olen == 0)
        snprintf(otext, n, "driver defaults");
}

/*
 * Write: explain.json (the writer's, from what this run was) and
 * explain.md rendered from it, to --out atomically, and the markdown on
 * stdout.  0, 1 (a run failed) or an exit code.
 */
static int explain_write(struct explain *x)
{
    rcuprof_explain_meta m;
    json_t *report, *inputs = json_array(), *wmeta = NULL;
    char otext[1024], cnote[256], *md = NULL, *js = NULL, *t;
    size_t i;
    int rc = RCUPROF_ERR_SYSTEM;

    for (i = 0; i < x->nfiles; i++)
        json_array_append_new(inputs, json_string(x->files[i]));
    options_text(x->opts, otext, sizeof(otext));
    if (x->pmu) {
        snprintf(cnote, sizeof(cnote), "collected (--events %s)",
                 opt_str(x, "events"));
    } else {
        snprintf(cnote, sizeof(cnote), "none, coherence counters skipped (%s)",
                 x->pmu_reason[0] ? x->pmu_reason : "no hardware PMU");
        note(x, "coherence counters not collected: %s; the contention rule uses CPU time per op and the round-trip matrix instead",
             x->pmu_reason[0] ? x->pmu_reason : "no hardware PMU");
    }
    if (!x->sample)
        note(x, "on/off-CPU shares not collected: add --sample on");
    memset(&m, 0, sizeof(m));
    m.version = RCUPROF_VERSION;
    m.created_unix_ns = rcuprof_time_real_ns();
    m.mode = x->nfiles > 0 ? "results" : "threads";
    m.inputs = inputs;
    m.variant = x->variant;
    m.options = x->opts;
    m.options_text = otext;
    m.reps = x->reps;
    m.seed = x->seed;
    m.host = x->host;
    m.kernel = x->kernel;
    m.openssl_version = x->ossl_version;
    m.line = x->ossl_line;
    m.topo = &x->topo;
    m.pmu = x->pmu;
    m.pmu_reason = x->pmu_reason;
    m.counters = cnote;
    m.pnames = (const char (*)[48])x->pnames;
    m.psame = (const char (*)[96])x->psame;
    m.nplace = x->nplace;
    m.pairs = x->pairs;
    m.npairs = x->npairs;
    m.total_pairs = x->total_pairs;
    m.runs_total = x->runs_total;
    m.runs_failed = x->runs_failed;
    m.detection = x->detj;
    if (x->nwsites > 0) {
        json_t *ws = json_array(), *wd = json_array();

        for (i = 0; i < x->nwsites; i++)
            json_array_append_new(ws, json_string(x->wsites[i]));
        for (i = 0; i < x->nwdelays; i++)
            json_array_append_new(wd, json_integer(x->wdelays[i]));
        wmeta = json_pack("{s:o, s:o, s:s}", "sites", ws, "delays_ns", wd,
                          "where", x->wwhere != NULL ? x->wwhere : "?");
    }
    m.whatif = wmeta;
    m.cases = x->cases_json;
    m.notes = x->notes;
    report = rcuprof_explain_report_json(&m);
    json_decref(inputs);
    json_decref(wmeta);
    if (report != NULL) {
        md = rcuprof_explain_markdown(report);
        js = json_dumps(report, JSON_INDENT(2));
    }
    json_decref(report);
    if (md == NULL || js == NULL
        || (t = realloc(js, strlen(js) + 2)) == NULL) {
        rcuprof_err("explain: out of memory");
        goto done;
    }
    js = strcat(t, "\n");
    if (x->out != NULL
        && ((mkdir(x->out, 0755) != 0 && errno != EEXIST)
            || write_out(x->out, "explain.json", js) != 0
            || write_out(x->out, "explain.md", md) != 0)) {
        rcuprof_err("explain: cannot write %s/explain.md and explain.json (%s): check the folder is writable",
                    x->out, strerror(errno));
        goto done;
    }
    fputs(md, stdout);
    rc = x->runs_failed > 0 ? RCUPROF_ERR_RUN : RCUPROF_OK;
 done:
    free(md);
    free(js);
    return rc;
}

int rcuprof_cmd_explain(int argc, char **argv)
{
    struct explain x;
    int rc;

    memset(&x, 0, sizeof(x));
    x.notes = json_array();
    x.cli_opts = json_object();
    snprintf(x.baseline, sizeof(x.baseline), "none");
    rc = explain_parse(argc, argv, &x);
    if (rc < 0) {
        explain_free(&x);
        return RCUPROF_OK;      /* --help */
    }
    if (rc == 0)
        rc = explain_pick_cases(&x);
    if (rc == 0)
        rc = explain_check_variant(&x);
    if (rc == 0)
        rc = explain_plan_cells(&x);
    if (rc == 0)
        rc = explain_run_interleaved(&x);
    if (rc == 0)
        rc = explain_classify(&x);
    if (rc == 0)
        rc = explain_write(&x);
    explain_free(&x);
    return rc;
}
