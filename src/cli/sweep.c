/*
 * `rcuprof sweep`: every (variant, thread count) point, repeated in blocks.
 *
 * A block runs every thread count once, and at each thread count every
 * variant once in an order shuffled from the recorded seed, so slow drift of
 * the machine hits every variant of a block alike and the analysis can pair
 * them (rcuprof compare).  The plan is a pure function of the spec (seed
 * included), so --resume rebuilds it and skips the points already in the
 * results file.  sweep and whatif only build the plan: the experiment
 * engine (experiment.h) runs it, one driver process per point through an
 * executor (--host): a crash or a hang is a recorded failure and the
 * sweep goes on.
 *
 * Adaptive (--target-mde, issue 18): the --reps blocks are the first
 * stage; then blocks are added, one at a time and each interleaved as
 * before, until every cell's minimum detectable effect reaches the target
 * (the number of blocks that needs is Stein's, from the first stage's
 * spread: analysis/compare.c, rcuprof_table_adaptive) or --max-time runs
 * out.  The plan of block b does not depend on how many blocks follow, so
 * extending it keeps every point already run; each point is still
 * appended the moment it finishes.
 *
 * whatif (issue 17) runs on the same machinery: one variant, and in each
 * block and thread count every delay once and the unarmed cell once, in a
 * shuffled order (the delays and the unarmed arm take the place of the
 * variants in the plan: a cell is (thread count, delay or unarmed)); each
 * armed run gets --delay-site and --delay-ns, its point line `delay_ns`;
 * the unarmed run neither, its line `delay_ns` null; the spec `whatif`
 * {site, delays_ns, unarmed: true} (rcuprof_sweep_whatif, cli.h).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results.h"
#include "whatif.h"
#include "experiment.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RCUPROF_VERSION
# define RCUPROF_VERSION "0.0.0"
#endif

#define SWEEP_VARIANTS_MAX 32
#define SWEEP_REPS_MAX 10000

struct sweep {
    json_t *spec;
    char hash[65];
    const char *dir;
    char path[PATH_MAX];
    char *variants[SWEEP_VARIANTS_MAX];
    char *drvs[SWEEP_VARIANTS_MAX];     /* each variant's local driver */
    size_t nvariants;
    unsigned threads[RCUPROF_THREADS_MAX];
    size_t nthreads;
    unsigned reps;              /* the spec's: every block (adaptive: the
                                 * first stage) */
    double target_mde;          /* adaptive: the target in %; NAN if not */
    double max_time;            /* adaptive: seconds for this invocation;
                                 * 0 none */
    uint64_t timeout;
    const char *host;           /* --host NAME, NULL: local */
    const char *cmd;            /* "sweep" or "whatif": messages */
    /* whatif: the site and the delays (ns) that take the variants' place
     * in the shuffled order; ndelays 0 for a sweep */
    const char *site;
    unsigned delays[RCUPROF_WHATIF_DELAYS_MAX];
    size_t ndelays;
    /* The plan the engine runs: cell = thread index x arms + arm, arm =
     * variant x (ndelays + 1) + delay; a group per thread count. */
    struct rcuprof_experiment e;
    size_t *group;
};

/* The plan's arms per block and thread count: the variants, or (whatif)
 * the one variant at every delay and unarmed. */
static size_t sweep_arms(const struct sweep *sw)
{
    return sw->nvariants * (sw->ndelays > 0 ? sw->ndelays + 1 : 1);
}

static size_t cell_variant(const struct sweep *sw, size_t cell)
{
    return cell % sweep_arms(sw) / (sw->ndelays > 0 ? sw->ndelays + 1 : 1);
}

static size_t cell_delay(const struct sweep *sw, size_t cell)
{
    return cell % sweep_arms(sw) % (sw->ndelays > 0 ? sw->ndelays + 1 : 1);
}

static unsigned cell_threads(const struct sweep *sw, size_t cell)
{
    return sw->threads[cell / sweep_arms(sw)];
}

/* A whatif cell that runs without the site armed. */
static int cell_unarmed(const struct sweep *sw, size_t cell)
{
    return sw->ndelays > 0 && cell_delay(sw, cell) == sw->ndelays;
}

/*
 * The engine's plan: blocks x thread counts (ascending, one group each) x
 * arms (shuffled per count from the seed): one stream over the plan, so a
 * longer plan starts with the shorter one.
 */
static int sweep_plan(struct sweep *sw, uint64_t seed, unsigned nblocks)
{
    size_t i, narms = sweep_arms(sw);

    sw->e.ctx = sw;
    sw->e.path = sw->path;
    sw->e.dir = sw->dir;
    sw->e.ncells = sw->nthreads * narms;
    sw->e.ngroups = sw->nthreads;
    sw->e.seed = seed;
    free(sw->group);
    if ((sw->group = calloc(sw->e.ncells + 1, sizeof(*sw->group))) == NULL)
        return -1;
    for (i = 0; i < sw->e.ncells; i++)
        sw->group[i] = i / narms;
    sw->e.group = sw->group;
    return rcuprof_exp_plan(&sw->e, nblocks);
}

/* sweep's own options; the driver's follow them. */
struct sweep_args {
    const char *variants, *threads, *out;
    unsigned reps;
    uint64_t seed, timeout;
    int resume;
    double target_mde, max_time;
    const char *host;
};

enum { ARG_VARIANTS, ARG_THREADS, ARG_REPS, ARG_OUT, ARG_RESUME, ARG_SEED,
       ARG_TIMEOUT, ARG_TARGET_MDE, ARG_MAX_TIME, ARG_HOST, ARG_HELP, ARG_N };

static const struct rcuprof_opt sweep_rows[ARG_N] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variants", 0, "A,B,...", "", 0, 0,
                   struct sweep_args, variants, NULL,
                   "the variants to measure (rcuprof variants lists them)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "threads", 0, "LIST", "", 0, 0,
                   struct sweep_args, threads, NULL,
                   "thread counts: 1,2,4 or 4-8 or 1-64:x2"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "reps", 0, "N", "", 1, SWEEP_REPS_MAX,
                   struct sweep_args, reps, NULL,
                   "repetitions (blocks); each runs every point once"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct sweep_args, out, NULL,
                   "folder of the results file DIR/results.jsonl"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "resume", 0, "", "", 0, 1,
                   struct sweep_args, resume, NULL,
                   "continue the sweep in DIR; the spec must be the same (or omitted)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "seed", 0, "N", "", 0, 0xffffffffULL,
                   struct sweep_args, seed, NULL,
                   "seed of the shuffled run order (default: random, recorded)"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "timeout", 0, "S", "120", 1, 86400,
                   struct sweep_args, timeout, NULL,
                   "kill a run after S seconds and record it as timeout"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "target-mde", 0, "PCT", "", 0, 0,
                   struct sweep_args, target_mde, rcuprof_cmd_opt_pct,
                   "adaptive: after the --reps blocks, add blocks until every cell's minimum detectable effect is at most PCT %"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "max-time", 0, "DUR", "", 0, 0,
                   struct sweep_args, max_time, rcuprof_cmd_opt_duration,
                   "adaptive: add no block that would end after DUR (90, 15m, 1h30m) from the start"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "host", 0, "NAME", "local", 0, 0,
                   struct sweep_args, host, NULL,
                   "run every point on host NAME (rcuprof host list); a host that defers (a bundle) runs fixed blocks"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};

static void help(void)
{
    static const char *const skip[] = { "threads", NULL };
    static const struct rcuprof_opt help_row[] = {
        RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                            "this list"),
    };

    printf("usage: rcuprof sweep --variants A,B,... --threads LIST --reps N --out DIR [options]\n");
    rcuprof_opts_help(stdout, sweep_rows, ARG_N, 0, NULL);
    printf("driver options, passed to every run (see rcuprof run --help):\n");
    rcuprof_opts_help(stdout, rcuprof_driver_opts, rcuprof_driver_nopts, 0,
                      skip);
    rcuprof_opts_help(stdout, help_row, 1, 0, NULL);
}

/*
 * Parse: sweep's options into a, the driver's into options.  0, 1 for
 * --help (printed), -1 bad input (printed).
 */
static int sweep_parse(int argc, char **argv, struct sweep_args *a,
                       unsigned char *seen, json_t *options)
{
    struct rcuprof_cmd_opts co = { .cmd = "sweep", .rows = sweep_rows,
                                   .n = ARG_N, .target = a,
                                   .driver = options, .seen = seen };
    const struct rcuprof_opt *action;
    int first, rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);

    if (rc == 1)
        help();
    if (rc != 0)
        return rc;
    if (first < argc) {
        rcuprof_err("sweep: unexpected argument '%s': see 'rcuprof sweep --help'",
                    argv[first]);
        return -1;
    }
    return 0;
}

/* ---- the engine's callbacks ---- */

static void cb_driver(void *ctx, size_t cell, const char **variant,
                      const char **drv)
{
    struct sweep *sw = ctx;

    *variant = sw->variants[cell_variant(sw, cell)];
    *drv = sw->drvs[cell_variant(sw, cell)];
}

static void cb_label(void *ctx, const struct rcuprof_exp_point *p,
                     char *arm, size_t n)
{
    const struct sweep *sw = ctx;
    const char *v = sw->variants[cell_variant(sw, p->cell)];

    if (cell_unarmed(sw, p->cell))
        snprintf(arm, n, "threads %u %s %s unarmed", cell_threads(sw, p->cell),
                 v, sw->site);
    else if (sw->ndelays > 0)
        snprintf(arm, n, "threads %u %s %s+%u ns", cell_threads(sw, p->cell),
                 v, sw->site, sw->delays[cell_delay(sw, p->cell)]);
    else
        snprintf(arm, n, "threads %u %s", cell_threads(sw, p->cell), v);
}

/* The sweep's driver options, the point's thread count; whatif: its delay
 * at the site (the unarmed run: none). */
static int cb_argv(void *ctx, const struct rcuprof_exp_point *p, char **av,
                   size_t cap)
{
    struct sweep *sw = ctx;
    json_t *dopts = json_deep_copy(json_object_get(sw->spec, "options"));
    int n;

    if (dopts == NULL
        || json_object_set_new(dopts, "threads",
                               json_sprintf("%u", cell_threads(sw, p->cell)))
           != 0) {
        json_decref(dopts);
        return -1;
    }
    if (sw->ndelays > 0 && !cell_unarmed(sw, p->cell)) {
        json_object_set_new(dopts, "delay-site", json_string(sw->site));
        json_object_set_new(dopts, "delay-ns", json_sprintf("%u",
                            sw->delays[cell_delay(sw, p->cell)]));
    }
    n = rcuprof_driver_argv(sw->drvs[cell_variant(sw, p->cell)], dopts, av,
                            cap);
    json_decref(dopts);
    return n;
}

static json_t *cb_line(void *ctx, const struct rcuprof_exp_point *p)
{
    struct sweep *sw = ctx;
    json_t *line = json_pack("{s:s, s:i, s:i, s:s, s:i, s:i, s:I}",
                             "type", "point", "block", (int)p->block,
                             "threads", (int)cell_threads(sw, p->cell),
                             "variant", sw->variants[cell_variant(sw, p->cell)],
                             "order", (int)p->order, "seq", (int)p->seq,
                             "start_unix_ns",
                             (json_int_t)rcuprof_time_real_ns());

    if (line != NULL && sw->ndelays > 0)
        json_object_set_new(line, "delay_ns", cell_unarmed(sw, p->cell)
                            ? json_null()
                            : json_integer(sw->delays[cell_delay(sw, p->cell)]));
    return line;
}

static void cb_announce(void *ctx, size_t todo)
{
    const struct sweep *sw = ctx;
    const struct rcuprof_experiment *e = &sw->e;
    const char *cr = e->tty ? "\r\033[K" : "";
    char on[96] = "";

    if (sw->host != NULL && strcmp(sw->host, "local") != 0)
        snprintf(on, sizeof(on), " on %s %s", e->exec->kind, e->exec->name);
    if (sw->ndelays > 0)
        fprintf(stderr, "%swhatif: %zu points (%s at %zu delays and unarmed x %zu thread counts x %u reps), %zu to run%s, seed %llu, into %s\n",
                cr, e->nplan, sw->site, sw->ndelays, sw->nthreads,
                e->nblocks, todo, on, (unsigned long long)e->seed, sw->path);
    else
        fprintf(stderr, "%ssweep: %zu points (%zu variants x %zu thread counts x %u reps), %zu to run%s, seed %llu, into %s\n",
                cr, e->nplan, sw->nvariants, sw->nthreads, e->nblocks, todo,
                on, (unsigned long long)e->seed, sw->path);
    if (isfinite(sw->target_mde))
        fprintf(stderr, "%s: adaptive: after the first %u blocks, blocks are added until every MDE is at most %.3g%%%s\n",
                sw->cmd, sw->reps, sw->target_mde, sw->max_time > 0
                ? " or the time runs out" : "");
}

static void sweep_free(struct sweep *sw)
{
    size_t i;

    for (i = 0; i < sw->nvariants; i++) {
        free(sw->variants[i]);
        free(sw->drvs[i]);
    }
    free(sw->group);
    rcuprof_exp_free(&sw->e);
    json_decref(sw->spec);
}

/* Variants, threads and reps from a spec (the file's on a bare --resume). */
static int spec_unpack(struct sweep *sw, json_t *spec)
{
    json_t *v;
    size_t i;

    sw->nvariants = 0;
    json_array_foreach(json_object_get(spec, "variants"), i, v) {
        if (i >= SWEEP_VARIANTS_MAX || !json_is_string(v))
            return -1;
        sw->variants[sw->nvariants++] = strdup(json_string_value(v));
    }
    sw->nthreads = 0;
    json_array_foreach(json_object_get(spec, "threads"), i, v) {
        if (i >= RCUPROF_THREADS_MAX || !json_is_integer(v)
            || json_integer_value(v) < 1
            || json_integer_value(v) > RCUPROF_THREADS_MAX)
            return -1;
        sw->threads[sw->nthreads++] = (unsigned)json_integer_value(v);
    }
    v = json_object_get(spec, "reps");
    if (sw->nvariants == 0 || sw->nthreads == 0 || !json_is_integer(v)
        || json_integer_value(v) < 1
        || json_integer_value(v) > SWEEP_REPS_MAX)
        return -1;
    sw->reps = (unsigned)json_integer_value(v);
    v = json_object_get(spec, "target_mde_pct");
    sw->target_mde = json_is_number(v) ? json_number_value(v) : NAN;
    return 0;
}

/* The variants of --variants: distinct names, at most SWEEP_VARIANTS_MAX. */
static int spec_variants(struct sweep *sw, const char *arg)
{
    char *list, *tok, *save = NULL, err[512];
    size_t j;

    if (rcuprof_list_check("variants", arg, err, sizeof(err)) != 0) {
        rcuprof_err("sweep: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    list = strdup(arg);
    if (list == NULL) {
        rcuprof_err("sweep: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    for (tok = strtok_r(list, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        if (rcuprof_variant_name_ok(tok))
            rcuprof_variant_canon(tok);     /* stock@3.5 is stock */
        for (j = 0; j < sw->nvariants; j++)
            if (strcmp(sw->variants[j], tok) == 0)
                break;
        if (j < sw->nvariants || sw->nvariants == SWEEP_VARIANTS_MAX
            || !rcuprof_variant_name_ok(tok)) {
            rcuprof_err("sweep: --variants: '%s' is %s: give up to %d distinct names",
                        tok, j < sw->nvariants ? "repeated" : "not a variant name",
                        SWEEP_VARIANTS_MAX);
            free(list);
            return RCUPROF_ERR_USAGE;
        }
        sw->variants[sw->nvariants++] = strdup(tok);
    }
    free(list);
    if (sw->nvariants == 0) {
        rcuprof_err("sweep: --variants is empty: give names like stock,rcu-sync");
        return RCUPROF_ERR_USAGE;
    }
    return 0;
}

/*
 * The sweep asked for: a bare --resume takes the spec from the file;
 * otherwise --variants, --threads and --reps.  0 or an exit code.
 */
static int sweep_spec(struct sweep *sw, const struct sweep_args *a,
                      const unsigned char *seen, const json_t *options)
{
    char err[1024];
    int rc;

    if (a->resume && a->variants == NULL && a->threads == NULL
        && !seen[ARG_REPS] && json_object_size(options) == 0
        && !seen[ARG_SEED] && !seen[ARG_TARGET_MDE]) {
        rcuprof_results prev;

        memset(&prev, 0, sizeof(prev));
        if (rcuprof_results_read(&prev, sw->path, err, sizeof(err)) != 0) {
            rcuprof_err("sweep: --resume: %s", err);
            rcuprof_results_free(&prev);
            return RCUPROF_ERR_USAGE;
        }
        sw->spec = json_deep_copy(json_object_get(prev.files[0].header,
                                                  "spec"));
        rcuprof_results_free(&prev);
        if (spec_unpack(sw, sw->spec) != 0) {
            rcuprof_err("sweep: --resume: the spec in %s is not usable: start a new sweep",
                        sw->path);
            return RCUPROF_ERR_USAGE;
        }
        return 0;
    }
    if (a->variants == NULL || a->threads == NULL || !seen[ARG_REPS]) {
        rcuprof_err("sweep: --variants, --threads and --reps are required: see 'rcuprof sweep --help'");
        return RCUPROF_ERR_USAGE;
    }
    if ((rc = spec_variants(sw, a->variants)) != 0)
        return rc;
    if (rcuprof_parse_threads(a->threads, sw->threads, RCUPROF_THREADS_MAX,
                              &sw->nthreads, err, sizeof(err)) != 0) {
        rcuprof_err("sweep: --threads: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    sw->reps = a->reps;
    sw->target_mde = seen[ARG_TARGET_MDE] ? a->target_mde : NAN;
    if (isfinite(sw->target_mde) && sw->reps < RCUPROF_CHANGE_MIN_N) {
        rcuprof_err("sweep: --target-mde: the --reps blocks are its first stage and need at least %d (5 to 10 recommended): raise --reps",
                    RCUPROF_CHANGE_MIN_N);
        return RCUPROF_ERR_USAGE;
    }
    if (isfinite(sw->target_mde))
        rcuprof_cmd_warn_first_stage("sweep", sw->reps);
    return 0;
}

/* Every variant known and built, before anything is written. */
static int sweep_check_variants(struct sweep *sw)
{
    char err[1024], drv[PATH_MAX];
    json_t *known = rcuprof_variants_load(err, sizeof(err));
    size_t i;
    int rc = 0;

    if (known == NULL) {
        rcuprof_err("%s", err);
        return RCUPROF_ERR_USAGE;
    }
    for (i = 0; i < sw->nvariants && rc == 0; i++) {
        if (rcuprof_variant_usable("sweep", sw->variants[i], known, drv,
                                   sizeof(drv)) != 0)
            rc = RCUPROF_ERR_USAGE;
        else if ((sw->drvs[i] = strdup(drv)) == NULL)
            rc = RCUPROF_ERR_SYSTEM;
    }
    json_decref(known);
    return rc;
}

/*
 * The plan: a fresh sweep needs a new folder, a resumed one its file; the
 * spec (a resumed sweep keeps its seed unless one is given), its hash and
 * the plan from it.  0 or an exit code.
 */
static int sweep_make_plan(struct sweep *sw, const struct sweep_args *a,
                           const unsigned char *seen, json_t *options)
{
    int fresh = access(sw->path, F_OK) != 0;
    uint64_t seed = a->seed;
    char err[1024];

    if (!a->resume && !fresh) {
        rcuprof_err("sweep: %s exists: add --resume to continue it, or give another --out",
                    sw->path);
        return RCUPROF_ERR_USAGE;
    }
    if (a->resume && fresh) {
        rcuprof_err("sweep: --resume: %s does not exist: start the sweep without --resume",
                    sw->path);
        return RCUPROF_ERR_USAGE;
    }
    if (sw->spec == NULL) {
        json_t *tl = json_array(), *vl = json_array();
        size_t i;

        if (a->resume && !seen[ARG_SEED]) {
            /* The recorded seed unless one is given. */
            rcuprof_results prev;

            memset(&prev, 0, sizeof(prev));
            if (rcuprof_results_read(&prev, sw->path, err, sizeof(err)) != 0) {
                rcuprof_err("sweep: --resume: %s", err);
                rcuprof_results_free(&prev);
                json_decref(tl);
                json_decref(vl);
                return RCUPROF_ERR_USAGE;
            }
            seed = (uint64_t)json_integer_value(json_object_get(
                json_object_get(prev.files[0].header, "spec"), "seed"));
            rcuprof_results_free(&prev);
        } else if (!a->resume && !seen[ARG_SEED]) {
            uint32_t s;

            if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
                s = (uint32_t)time(NULL) ^ (uint32_t)getpid();
            seed = s;
        }
        for (i = 0; i < sw->nvariants; i++)
            json_array_append_new(vl, json_string(sw->variants[i]));
        for (i = 0; i < sw->nthreads; i++)
            json_array_append_new(tl, json_integer(sw->threads[i]));
        sw->spec = json_pack("{s:o, s:o, s:i, s:O, s:I, s:s}",
                             "variants", vl, "threads", tl,
                             "reps", (int)sw->reps, "options", options,
                             "seed", (json_int_t)seed,
                             "rcuprof_version", RCUPROF_VERSION);
        /* Only an adaptive sweep has the member: a sweep that is not
         * keeps the spec, and the hash, it always had. */
        if (sw->spec != NULL && isfinite(sw->target_mde))
            json_object_set_new(sw->spec, "target_mde_pct",
                                json_real(sw->target_mde));
    }
    if (sw->spec == NULL || rcuprof_spec_hash(sw->spec, sw->hash) != 0
        || sweep_plan(sw, (uint64_t)json_integer_value(json_object_get(
               sw->spec, "seed")), sw->reps) != 0) {
        rcuprof_err("sweep: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    return 0;
}

/* A point of the file: its cell (thread count and variant); whatif has no
 * --resume. */
static int cb_cell_of(void *ctx, const rcuprof_results *rs,
                      const rcuprof_point *p, size_t *cell)
{
    const struct sweep *sw = ctx;
    const char *name;
    size_t ti, v, len;

    if (sw->ndelays > 0)
        return -1;
    for (ti = 0; ti < sw->nthreads && sw->threads[ti] != p->threads; ti++)
        ;
    /* "VARIANT [HOST]" (results.c) is VARIANT run on a named host. */
    name = rs->variants[p->variant];
    len = strcspn(name, " ");
    for (v = 0; v < sw->nvariants
         && (strlen(sw->variants[v]) != len
             || strncmp(sw->variants[v], name, len) != 0); v++)
        ;
    if (ti == sw->nthreads || v == sw->nvariants)
        return -1;
    *cell = ti * sweep_arms(sw) + v;
    return 0;
}

/*
 * Resume: lock the file, refuse another spec, truncate a torn last line,
 * and mark the points it holds done (the engine's).  0 or an exit code.
 */
static int sweep_resume(struct sweep *sw)
{
    return rcuprof_exp_resume(&sw->e, sw->hash, cb_cell_of);
}

/* The adaptive figures of what the file holds now (every variant against
 * the first, or the cells of one variant).  0, or -1 with why. */
static int sweep_need(const struct sweep *sw, rcuprof_adaptive_need *need,
                      char *why, size_t n)
{
    rcuprof_results rs;
    rcuprof_table t;
    char err[512];
    int rc = -1;

    if (sw->ndelays > 0) {
        /* whatif: the cells are (thread count, delay). */
        rcuprof_whatif_obs *obs = NULL;
        rcuprof_whatif_need wn;
        json_t *h = NULL;
        size_t nobs = 0;

        if (rcuprof_whatif_load(sw->path, &h, &obs, &nobs, err,
                                sizeof(err)) != 0)
            snprintf(why, n, "%.200s", err);
        else if (rcuprof_whatif_adaptive(obs, nobs, sw->reps, sw->target_mde,
                                         SWEEP_REPS_MAX, &wn) != 0)
            snprintf(why, n, "no cell has 2 successful first-stage blocks: its spread is unknown");
        else {
            memset(need, 0, sizeof(*need));
            need->worst_mde_pct = wn.worst_mde_pct;
            need->blocks = wn.blocks;
            need->unknown = wn.unknown;
            if (isfinite(wn.worst_delay_ns))
                snprintf(why, n, "%u threads at %.0f ns", wn.worst_threads,
                         wn.worst_delay_ns);
            else
                snprintf(why, n, "%u threads unarmed", wn.worst_threads);
            rc = 0;
        }
        json_decref(h);
        free(obs);
        return rc;
    }

    memset(&rs, 0, sizeof(rs));
    memset(&t, 0, sizeof(t));
    if (rcuprof_results_read(&rs, sw->path, err, sizeof(err)) != 0
        || (rs.nvariants >= 2
            ? rcuprof_table_build(&rs, NULL, RCUPROF_METRIC_WALL, &t, err,
                                  sizeof(err))
            : rcuprof_table_describe(&rs, RCUPROF_METRIC_WALL, &t, err,
                                     sizeof(err))) != 0) {
        snprintf(why, n, "%.200s", err);
    } else if (rcuprof_table_adaptive(&t, sw->target_mde, SWEEP_REPS_MAX,
                                      need) != 0) {
        snprintf(why, n, "no cell has 2 successful first-stage blocks: its spread is unknown");
    } else {
        snprintf(why, n, "%s@%u", t.variants[need->worst_v],
                 t.threads[need->worst_ti]);
        rc = 0;
    }
    rcuprof_table_free(&t);
    rcuprof_results_free(&rs);
    return rc;
}

/* The engine's adaptive callback: the figures, and whether the target is
 * reached: only where the MDE now says so, not only the count the first
 * stage asked for (a failed run leaves a row fewer pairs than blocks). */
static int cb_need(void *ctx, unsigned blocks, struct rcuprof_exp_need *en)
{
    const struct sweep *sw = ctx;
    rcuprof_adaptive_need need;

    memset(&need, 0, sizeof(need));
    if (sweep_need(sw, &need, en->where, sizeof(en->where)) != 0)
        return -1;
    en->worst_mde_pct = need.worst_mde_pct;
    en->blocks = need.blocks;
    en->unknown = need.unknown;
    en->reached = need.blocks <= blocks
                  && need.worst_mde_pct <= sw->target_mde;
    return 0;
}

/* Why the adaptive blocks stopped, as one line ("" when not adaptive). */
static void stop_note(const struct sweep *sw, char *stop, size_t n)
{
    const struct rcuprof_exp_need *need = &sw->e.stop_need;
    char unk[96] = "";

    stop[0] = '\0';
    switch (sw->e.stop) {
    case RCUPROF_EXP_STOP_UNKNOWN:
        snprintf(stop, n, "adaptive: stopped after %u blocks: %s",
                 sw->e.nblocks, need->where);
        break;
    case RCUPROF_EXP_STOP_TARGET:
        /* Rows the rule cannot judge are said. */
        if (need->unknown > 0)
            snprintf(unk, sizeof(unk), "; %zu row(s) not judged "
                     "(unpaired, or a first stage under %d pairs)",
                     need->unknown, RCUPROF_CHANGE_MIN_N);
        snprintf(stop, n, "adaptive: target reached after %u blocks: worst MDE %.1f%% <= %.3g%% (%s)%s",
                 sw->e.nblocks, need->worst_mde_pct, sw->target_mde,
                 need->where, unk);
        break;
    case RCUPROF_EXP_STOP_LIMIT:
        snprintf(stop, n, "adaptive: block limit %d reached: worst MDE %.1f%% > %.3g%% (%s)",
                 SWEEP_REPS_MAX, need->worst_mde_pct, sw->target_mde,
                 need->where);
        break;
    case RCUPROF_EXP_STOP_TIME:
        snprintf(stop, n, "adaptive: time ran out after %u blocks: worst MDE %.1f%% > target %.3g%% (%s; %zu blocks needed); the intervals are valid, only wider than asked",
                 sw->e.nblocks, need->worst_mde_pct, sw->target_mde,
                 need->where, need->blocks);
        break;
    case RCUPROF_EXP_STOP_DEFERRED:
        snprintf(stop, n, "adaptive: off: the host runs the points later; fixed %u blocks",
                 sw->e.nblocks);
        break;
    default:
        break;
    }
}

/* The executor of --host (local without), before anything runs or is
 * written: 0, or -1 after its one line. */
static int sweep_open_host(struct sweep *sw)
{
    char err[512] = "";

    sw->e.exec = rcuprof_executor_open(sw->host, err, sizeof(err));
    if (sw->e.exec == NULL) {
        rcuprof_err("%s: %s", sw->cmd, err);
        return -1;
    }
    return 0;
}

/*
 * Run the plan on the engine, then (adaptive) add blocks.  0 (every point
 * ran ok), RCUPROF_ERR_RUN (some failed) or an exit code.
 */
static int sweep_run(struct sweep *sw)
{
    struct rcuprof_experiment *e = &sw->e;
    FILE *out = sw->ndelays > 0 ? stderr : stdout;
    char stop[512];
    json_t *h = NULL;
    int rc;

    if (e->exec == NULL && sweep_open_host(sw) != 0)
        return RCUPROF_ERR_USAGE;
    e->cmd = sw->cmd;
    e->dir = sw->dir;
    e->path = sw->path;
    e->reps = sw->reps;
    e->blocks_max = SWEEP_REPS_MAX;
    e->timeout_s = (double)sw->timeout;
    e->target_mde = sw->target_mde;
    e->max_time = sw->max_time;
    e->progress = RCUPROF_EXP_PROGRESS_POINTS;
    e->ctx = sw;
    e->driver = cb_driver;
    e->argv = cb_argv;
    e->label = cb_label;
    e->line = cb_line;
    e->need = cb_need;
    e->announce = cb_announce;
    if (e->fd < 0) {
        h = json_pack("{s:s, s:s, s:O, s:s, s:I, s:I}", "type", "header",
                      "schema", RCUPROF_RESULTS_SCHEMA, "spec", sw->spec,
                      "spec_hash", sw->hash,
                      "timeout_s", (json_int_t)sw->timeout,
                      "created_unix_ns", (json_int_t)rcuprof_time_real_ns());
        if (h == NULL) {
            rcuprof_err("%s: out of memory", sw->cmd);
            rcuprof_executor_close(e->exec);
            return RCUPROF_ERR_SYSTEM;
        }
        e->header = h;
    }
    rc = rcuprof_exp_run(e);
    json_decref(h);
    e->header = NULL;
    rcuprof_executor_close(e->exec);
    if (rc != RCUPROF_OK && rc != RCUPROF_ERR_RUN)
        return rc;
    stop_note(sw, stop, sizeof(stop));
    /* whatif prints its table on stdout: this goes with the progress. */
    if (e->ndeferred > 0)
        fprintf(out, "%s: %zu points deferred to %s %s, %zu run (%zu ok, %zu failed), %zu already done\n",
                sw->cmd, e->ndeferred, e->exec->kind, e->exec->name, e->ran,
                e->nok, e->nfail, e->already);
    else
        fprintf(out, "%s: %zu points run (%zu ok, %zu failed), %zu already done; results in %s\n",
                sw->cmd, e->ran, e->nok, e->nfail, e->already, sw->path);
    if (stop[0] && e->stop != RCUPROF_EXP_STOP_DEFERRED)
        fprintf(out, "%s: %s\n", sw->cmd, stop);
    return rc;
}

int rcuprof_cmd_sweep(int argc, char **argv)
{
    struct sweep sw;
    struct sweep_args args = { 0 };
    unsigned char seen[ARG_N] = { 0 };
    json_t *options = json_object();
    int rc;

    memset(&sw, 0, sizeof(sw));
    sw.cmd = "sweep";
    rcuprof_exp_init(&sw.e, sw.cmd);
    rc = sweep_parse(argc, argv, &args, seen, options);
    if (rc != 0) {
        json_decref(options);
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    sw.dir = args.out;
    sw.host = args.host;
    sw.timeout = args.timeout;
    sw.max_time = args.max_time;
    sw.target_mde = NAN;
    if (sw.dir == NULL) {
        rcuprof_err("sweep: --out DIR is required: the folder for results.jsonl");
        rc = RCUPROF_ERR_USAGE;
    } else if (snprintf(sw.path, sizeof(sw.path), "%s/results.jsonl", sw.dir)
               >= (int)sizeof(sw.path)) {
        rcuprof_err("sweep: --out '%s' is too long: use a shorter path", sw.dir);
        rc = RCUPROF_ERR_USAGE;
    }
    if (rc == 0 && seen[ARG_MAX_TIME] && !seen[ARG_TARGET_MDE]
        && !args.resume) {
        rcuprof_err("sweep: --max-time bounds the blocks --target-mde adds: give --target-mde PCT too");
        rc = RCUPROF_ERR_USAGE;
    }
    if (rc == 0)
        rc = sweep_spec(&sw, &args, seen, options);
    if (rc == 0)
        rc = sweep_check_variants(&sw);
    if (rc == 0)
        rc = sweep_make_plan(&sw, &args, seen, options);
    if (rc == 0 && sweep_open_host(&sw) != 0)
        rc = RCUPROF_ERR_USAGE;
    if (rc == 0 && args.resume)
        rc = sweep_resume(&sw);
    if (rc == 0)
        rc = sweep_run(&sw);
    json_decref(options);
    sweep_free(&sw);
    return rc;
}

int rcuprof_sweep_whatif(const struct rcuprof_whatif_plan *wp)
{
    struct sweep sw;
    json_t *tl = json_array(), *dl = json_array(), *wi;
    size_t i;
    int rc;

    memset(&sw, 0, sizeof(sw));
    sw.cmd = "whatif";
    rcuprof_exp_init(&sw.e, sw.cmd);
    sw.host = wp->host;
    sw.dir = wp->dir;
    sw.timeout = wp->timeout;
    sw.max_time = wp->max_time;
    sw.target_mde = wp->target_mde;
    sw.site = wp->site;
    sw.reps = wp->reps;
    if (wp->nthreads > RCUPROF_THREADS_MAX
        || wp->ndelays < 2 || wp->ndelays > RCUPROF_WHATIF_DELAYS_MAX
        || snprintf(sw.path, sizeof(sw.path), "%s/results.jsonl", sw.dir)
           >= (int)sizeof(sw.path)) {
        json_decref(tl);
        json_decref(dl);
        rcuprof_err("whatif: too many thread counts or delays, or --out too long");
        return RCUPROF_ERR_USAGE;
    }
    sw.nvariants = 1;
    sw.variants[0] = strdup(wp->variant);
    if (asprintf(&sw.drvs[0], "%s/rcuprof-stress-%s", rcuprof_bindir(),
                 wp->variant) < 0)
        sw.drvs[0] = NULL;
    sw.nthreads = wp->nthreads;
    memcpy(sw.threads, wp->threads, wp->nthreads * sizeof(*wp->threads));
    sw.ndelays = wp->ndelays;
    memcpy(sw.delays, wp->delays, wp->ndelays * sizeof(*wp->delays));
    for (i = 0; i < sw.nthreads; i++)
        json_array_append_new(tl, json_integer(sw.threads[i]));
    for (i = 0; i < sw.ndelays; i++)
        json_array_append_new(dl, json_integer(sw.delays[i]));
    wi = json_pack("{s:s, s:o, s:b}", "site", wp->site, "delays_ns", dl,
                   "unarmed", 1);
    sw.spec = json_pack("{s:[s], s:o, s:i, s:O, s:I, s:s, s:o}",
                        "variants", wp->variant, "threads", tl,
                        "reps", (int)sw.reps, "options", wp->options,
                        "seed", (json_int_t)wp->seed,
                        "rcuprof_version", RCUPROF_VERSION, "whatif", wi);
    if (sw.spec != NULL && isfinite(sw.target_mde))
        json_object_set_new(sw.spec, "target_mde_pct",
                            json_real(sw.target_mde));
    if (sw.variants[0] == NULL || sw.drvs[0] == NULL || sw.spec == NULL
        || rcuprof_spec_hash(sw.spec, sw.hash) != 0
        || sweep_plan(&sw, wp->seed, sw.reps) != 0) {
        rcuprof_err("whatif: out of memory");
        sweep_free(&sw);
        return RCUPROF_ERR_SYSTEM;
    }
    rc = sweep_run(&sw);
    sweep_free(&sw);
    return rc;
}