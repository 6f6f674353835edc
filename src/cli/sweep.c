/*
 * `rcuprof sweep`: every (variant, thread count) point, repeated in blocks.
 *
 * A block runs every thread count once, and at each thread count every
 * variant once in an order shuffled from the recorded seed, so slow drift of
 * the machine hits every variant of a block alike and the analysis can pair
 * them (rcuprof compare).  The plan is a pure function of the spec (seed
 * included), so --resume rebuilds it and skips the points already in the
 * results file.  Each point is one driver process (rcuprof_driver_spawn):
 * a crash or a hang is a recorded failure and the sweep goes on.
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

struct plan_point {
    unsigned block, threads, order, seq;
    size_t variant;
    size_t delay;               /* whatif: index into sweep.delays;
                                 * ndelays: the unarmed run */
    int done;
};

struct sweep {
    json_t *spec;
    char hash[65];
    const char *dir;
    char path[PATH_MAX];
    char *variants[SWEEP_VARIANTS_MAX];
    size_t nvariants;
    unsigned threads[RCUPROF_THREADS_MAX];
    size_t nthreads;
    unsigned reps;              /* the spec's: every block (adaptive: the
                                 * first stage) */
    unsigned nblocks;           /* blocks planned (>= reps when adaptive) */
    double target_mde;          /* adaptive: the target in %; NAN if not */
    double max_time;            /* adaptive: seconds for this invocation;
                                 * 0 none */
    uint64_t timeout;
    struct plan_point *plan;
    size_t nplan;
    int fd;
    int tty;
    const char *cmd;            /* "sweep" or "whatif": messages */
    /* whatif: the site and the delays (ns) that take the variants' place
     * in the shuffled order; ndelays 0 for a sweep */
    const char *site;
    unsigned delays[RCUPROF_WHATIF_DELAYS_MAX];
    size_t ndelays;
};

/* The plan's arms per block and thread count: the variants, or (whatif)
 * the one variant at every delay and unarmed. */
static size_t sweep_arms(const struct sweep *sw)
{
    return sw->nvariants * (sw->ndelays > 0 ? sw->ndelays + 1 : 1);
}

/* A whatif plan point that runs without the site armed. */
static int point_unarmed(const struct sweep *sw, const struct plan_point *p)
{
    return sw->ndelays > 0 && p->delay == sw->ndelays;
}

/*
 * Blocks x thread counts (ascending) x variants (shuffled per count), for
 * nblocks blocks: one stream over the plan, so a longer plan starts with
 * the shorter one, whose done marks are kept.
 */
static int sweep_plan(struct sweep *sw, uint64_t seed, unsigned nblocks)
{
    size_t perm[SWEEP_VARIANTS_MAX * (RCUPROF_WHATIF_DELAYS_MAX + 1)], i, j;
    size_t k = 0;
    size_t old = sw->nplan, narms = sweep_arms(sw);
    size_t per = sw->ndelays > 0 ? sw->ndelays + 1 : 1;
    struct plan_point *np;
    unsigned b;
    uint64_t st = seed;

    np = calloc((size_t)nblocks * sw->nthreads * narms, sizeof(*np));
    if (np == NULL)
        return -1;
    for (b = 0; b < nblocks; b++) {
        for (i = 0; i < sw->nthreads; i++) {
            for (j = 0; j < narms; j++)
                perm[j] = j;
            rcuprof_rand_shuffle(perm, narms, &st);
            for (j = 0; j < narms; j++, k++) {
                np[k].block = b;
                np[k].threads = sw->threads[i];
                np[k].variant = perm[j] / per;
                np[k].delay = perm[j] % per;
                np[k].order = (unsigned)j;
                np[k].seq = (unsigned)k;
                np[k].done = k < old && sw->plan[k].done;
            }
        }
    }
    free(sw->plan);
    sw->plan = np;
    sw->nplan = k;
    sw->nblocks = nblocks;
    return 0;
}

/* sweep's own options; the driver's follow them. */
struct sweep_args {
    const char *variants, *threads, *out;
    unsigned reps;
    uint64_t seed, timeout;
    int resume;
    double target_mde, max_time;
};

enum { ARG_VARIANTS, ARG_THREADS, ARG_REPS, ARG_OUT, ARG_RESUME, ARG_SEED,
       ARG_TIMEOUT, ARG_TARGET_MDE, ARG_MAX_TIME, ARG_HELP, ARG_N };

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

static void fmt_dur(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);

    if (!(s >= 0) || s > 1e7)
        snprintf(buf, n, "?");
    else if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

static void progress(const struct sweep *sw, size_t done, size_t total,
                     const struct plan_point *p, const char *what,
                     double eta)
{
    char e[32], arm[128];
    int i, width = 24, fill = total ? (int)(width * done / total) : width;

    fmt_dur(eta, e, sizeof(e));
    if (point_unarmed(sw, p))
        snprintf(arm, sizeof(arm), "%s %s unarmed", sw->variants[p->variant],
                 sw->site);
    else if (sw->ndelays > 0)
        snprintf(arm, sizeof(arm), "%s %s+%u ns", sw->variants[p->variant],
                 sw->site, sw->delays[p->delay]);
    else
        snprintf(arm, sizeof(arm), "%s", sw->variants[p->variant]);
    if (sw->tty) {
        fputc('\r', stderr);
        fputc('[', stderr);
        for (i = 0; i < width; i++)
            fputc(i < fill ? '#' : '.', stderr);
        fprintf(stderr, "] %zu/%zu block %u/%u threads %u %s%s%s eta %s\033[K",
                done, total, p->block + 1, sw->nblocks, p->threads,
                arm, what[0] ? ": " : "", what, e);
        fflush(stderr);
    } else if (what[0]) {
        fprintf(stderr, "%s: %zu/%zu block %u/%u threads %u %s: %s, eta %s\n",
                sw->cmd, done, total, p->block + 1, sw->nblocks, p->threads,
                arm, what, e);
    }
}

static void announce(const struct sweep *sw, size_t todo, uint64_t seed)
{
    if (sw->ndelays > 0)
        fprintf(stderr, "%swhatif: %zu points (%s at %zu delays and unarmed x %zu thread counts x %u reps), %zu to run, seed %llu, into %s\n",
                sw->tty ? "\r\033[K" : "", sw->nplan, sw->site,
                sw->ndelays, sw->nthreads, sw->nblocks, todo,
                (unsigned long long)seed, sw->path);
    else
        fprintf(stderr, "%ssweep: %zu points (%zu variants x %zu thread counts x %u reps), %zu to run, seed %llu, into %s\n",
                sw->tty ? "\r\033[K" : "", sw->nplan, sw->nvariants,
                sw->nthreads, sw->nblocks, todo, (unsigned long long)seed,
                sw->path);
    if (isfinite(sw->target_mde))
        fprintf(stderr, "%s: adaptive: after the first %u blocks, blocks are added until every MDE is at most %.3g%%%s\n",
                sw->cmd, sw->reps, sw->target_mde, sw->max_time > 0
                ? " or the time runs out" : "");
}

static int append_json(int fd, json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII), *t;
    size_t len;
    int rc;

    if (s == NULL)
        return -1;
    len = strlen(s);
    t = realloc(s, len + 2);
    if (t == NULL) {
        free(s);
        return -1;
    }
    t[len] = '\n';
    t[len + 1] = '\0';
    rc = rcuprof_write_synced(fd, t, len + 1);
    free(t);
    return rc;
}

/* The driver's stderr as printable ASCII (it may hold any bytes). */
static json_t *clean_text(const char *s, size_t max)
{
    size_t n = strlen(s), i;
    char *c;
    json_t *j;

    if (n > max)
        n = max;
    if ((c = malloc(n + 1)) == NULL)
        return json_null();
    for (i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];

        c[i] = (u >= 0x20 && u < 0x7f) || u == '\n' || u == '\t' ? (char)u : '?';
    }
    c[n] = '\0';
    j = json_string(c);
    free(c);
    return j != NULL ? j : json_null();
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Run one point; the line to append (with the driver's JSON) in *line. */
static json_t *run_point(struct sweep *sw, const struct plan_point *p,
                         int *usage_fail, double *per_op)
{
    char drv[PATH_MAX], *dargv[64], msg[1024];
    struct rcuprof_driver_result r;
    json_t *line, *res = NULL, *opts = json_object_get(sw->spec, "options");
    json_t *dopts;
    int dargc, status;

    *usage_fail = 0;
    *per_op = NAN;
    snprintf(drv, sizeof(drv), "%s/rcuprof-stress-%s", rcuprof_bindir(),
             sw->variants[p->variant]);
    /* The sweep's driver options, and this point's thread count. */
    if ((dopts = json_deep_copy(opts)) == NULL
        || json_object_set_new(dopts, "threads",
                               json_sprintf("%u", p->threads)) != 0
        || (dargc = rcuprof_driver_argv(drv, dopts, dargv, 62)) < 0) {
        json_decref(dopts);
        return NULL;
    }
    json_decref(dopts);
    /* whatif: this point's delay at the site (the unarmed run: none). */
    if (sw->ndelays > 0 && !point_unarmed(sw, p)) {
        if (asprintf(&dargv[dargc], "--delay-site=%s", sw->site) < 0) {
            dargv[dargc] = NULL;
            rcuprof_driver_argv_free(dargv);
            return NULL;
        }
        dargv[dargc + 1] = NULL;
        if (asprintf(&dargv[dargc + 1], "--delay-ns=%u",
                     sw->delays[p->delay]) < 0) {
            dargv[dargc + 1] = NULL;
            rcuprof_driver_argv_free(dargv);
            return NULL;
        }
        dargv[dargc + 2] = NULL;
    }

    line = json_pack("{s:s, s:i, s:i, s:s, s:i, s:i, s:I}",
                     "type", "point", "block", (int)p->block,
                     "threads", (int)p->threads,
                     "variant", sw->variants[p->variant],
                     "order", (int)p->order, "seq", (int)p->seq,
                     "start_unix_ns", (json_int_t)rcuprof_time_real_ns());
    if (line != NULL && sw->ndelays > 0)
        json_object_set_new(line, "delay_ns", point_unarmed(sw, p)
                            ? json_null()
                            : json_integer(sw->delays[p->delay]));
    if (rcuprof_driver_spawn(drv, dargv, (double)sw->timeout, &r) != 0) {
        memset(&r, 0, sizeof(r));
        r.exited = 1;
        r.status = 127;
        r.out = strdup("");
        r.err = strdup("{\"error\":\"system\",\"message\":\"cannot start the driver\"}");
    }
    rcuprof_driver_argv_free(dargv);
    if (line == NULL || r.out == NULL || r.err == NULL) {
        rcuprof_driver_result_free(&r);
        json_decref(line);
        return NULL;
    }
    rcuprof_driver_error_message(&r, msg, sizeof(msg));
    if (r.timed_out) {
        status = RCUPROF_POINT_TIMEOUT;
        snprintf(msg, sizeof(msg), "timed out after %llu s and was killed",
                 (unsigned long long)sw->timeout);
    } else if (!r.exited) {
        status = RCUPROF_POINT_CRASHED;
        if (msg[0] == '\0')
            snprintf(msg, sizeof(msg), "killed by signal %d", r.status);
    } else if (r.status != 0) {
        status = RCUPROF_POINT_FAILED;
        *usage_fail = r.status == 2 || r.status == 3;
        if (msg[0] == '\0')
            snprintf(msg, sizeof(msg), "exit %d without a message", r.status);
    } else {
        rcuprof_record rec;

        res = json_loads(r.out, 0, NULL);
        if (res != NULL)
            rcuprof_record_decode(res, &rec);
        if (res == NULL || !json_is_object(res)) {
            json_decref(res);
            res = NULL;
            status = RCUPROF_POINT_FAILED;
            snprintf(msg, sizeof(msg), "the driver printed no valid JSON");
        } else if (!rec.ok) {
            /* The one rule (record.h): kept, but not a measurement. */
            status = RCUPROF_POINT_FAILED;
            snprintf(msg, sizeof(msg), "the driver's result is not a measurement: %s",
                     rec.why);
        } else {
            status = RCUPROF_POINT_OK;
            *per_op = rec.wall_ns_per_op;
        }
    }
    json_object_set_new(line, "status",
                        json_string(rcuprof_point_status_name(status)));
    json_object_set_new(line, "exit", r.exited && !r.timed_out
                        ? json_integer(r.status) : json_null());
    json_object_set_new(line, "signal", !r.exited && !r.timed_out
                        ? json_integer(r.status) : json_null());
    json_object_set_new(line, "seconds", json_real(r.seconds));
    json_object_set_new(line, "message", status == RCUPROF_POINT_OK
                        ? json_null() : clean_text(msg, sizeof(msg)));
    if (status != RCUPROF_POINT_OK)
        json_object_set_new(line, "stderr", clean_text(r.err, 4096));
    json_object_set_new(line, "result", res != NULL ? res : json_null());
    rcuprof_driver_result_free(&r);
    return line;
}

static void sweep_free(struct sweep *sw)
{
    size_t i;

    for (i = 0; i < sw->nvariants; i++)
        free(sw->variants[i]);
    free(sw->plan);
    json_decref(sw->spec);
    if (sw->fd >= 0)
        close(sw->fd);
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
static int sweep_check_variants(const struct sweep *sw)
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

/*
 * Resume: lock the file, refuse another spec, truncate a torn last line,
 * and mark the points it holds done.  0 or an exit code.
 */
static int sweep_resume(struct sweep *sw)
{
    rcuprof_results prev;
    const char *old;
    char err[1024];
    size_t i, j;
    unsigned maxb;
    int rc = RCUPROF_ERR_USAGE;

    memset(&prev, 0, sizeof(prev));
    sw->fd = open(sw->path, O_RDWR | O_APPEND | O_CLOEXEC);
    if (sw->fd < 0) {
        rcuprof_err("sweep: cannot open %s (%s): check its permissions",
                    sw->path, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    if (flock(sw->fd, LOCK_EX | LOCK_NB) != 0) {
        rcuprof_err("sweep: another sweep is writing %s: wait for it to finish",
                    sw->path);
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_results_read(&prev, sw->path, err, sizeof(err)) != 0) {
        rcuprof_err("sweep: --resume: %s", err);
        goto out;
    }
    old = json_string_value(json_object_get(prev.files[0].header,
                                            "spec_hash"));
    if (strcmp(old, sw->hash) != 0) {
        rcuprof_err("sweep: --resume: the spec differs from the one in %s (variants, threads, reps, driver options, seed or rcuprof version): give the same options, or only --out and --resume",
                    sw->path);
        goto out;
    }
    if (prev.files[0].torn) {
        if (ftruncate(sw->fd, (off_t)prev.files[0].good_len) != 0
            || fsync(sw->fd) != 0) {
            rcuprof_err("sweep: cannot truncate the torn last line of %s (%s): check the disk",
                        sw->path, strerror(errno));
            rc = RCUPROF_ERR_SYSTEM;
            goto out;
        }
        fprintf(stderr, "rcuprof: warning: %s: dropped a torn last line (an interrupted write)\n",
                sw->path);
    }
    if (prev.files[0].n_corrupt > 0)
        fprintf(stderr, "rcuprof: warning: %s: %zu corrupt line(s) skipped, the first at line %zu; those points run again\n",
                sw->path, prev.files[0].n_corrupt,
                prev.files[0].first_corrupt);
    /* An adaptive sweep's file may hold blocks beyond the first stage. */
    for (i = 0, maxb = sw->nblocks; i < prev.npoints; i++)
        if (prev.points[i].block + 1 > maxb
            && prev.points[i].block < SWEEP_REPS_MAX)
            maxb = prev.points[i].block + 1;
    if (maxb > sw->nblocks
        && sweep_plan(sw, (uint64_t)json_integer_value(json_object_get(
               sw->spec, "seed")), maxb) != 0) {
        rcuprof_err("sweep: out of memory");
        rc = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    for (i = 0; i < prev.npoints; i++) {
        const rcuprof_point *p = &prev.points[i];

        for (j = 0; j < sw->nplan; j++) {
            struct plan_point *q = &sw->plan[j];

            if (q->block == p->block && q->threads == p->threads
                && strcmp(sw->variants[q->variant],
                          prev.variants[p->variant]) == 0)
                q->done = 1;
        }
    }
    rc = 0;
 out:
    rcuprof_results_free(&prev);
    return rc;
}

/*
 * The first point of a fresh sweep decides whether there is a file: a
 * driver usage or setup failure is the options' fault, so nothing is
 * written; else the folder, the file (locked) and its header.
 */
static int sweep_create(struct sweep *sw, json_t *point, int usage_fail)
{
    json_t *h;
    int wr;

    if (usage_fail) {
        if (sw->tty)
            fputs("\r\033[K", stderr);
        rcuprof_err("%s: %s", sw->cmd, json_string_value(
            json_object_get(point, "message")));
        return RCUPROF_ERR_USAGE;
    }
    if (mkdir(sw->dir, 0755) != 0 && errno != EEXIST) {
        rcuprof_err("%s: cannot create %s (%s): check the parent folder exists and is writable",
                    sw->cmd, sw->dir, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    sw->fd = open(sw->path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL
                  | O_CLOEXEC, 0644);
    if (sw->fd < 0 || flock(sw->fd, LOCK_EX | LOCK_NB) != 0) {
        rcuprof_err("%s: cannot create %s (%s): check the folder is writable and no other sweep uses it",
                    sw->cmd, sw->path, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    h = json_pack("{s:s, s:s, s:O, s:s, s:I, s:I}", "type", "header",
                  "schema", RCUPROF_RESULTS_SCHEMA, "spec", sw->spec,
                  "spec_hash", sw->hash, "timeout_s", (json_int_t)sw->timeout,
                  "created_unix_ns", (json_int_t)rcuprof_time_real_ns());
    wr = h != NULL ? append_json(sw->fd, h) : -1;
    json_decref(h);
    if (wr != 0) {
        rcuprof_err("%s: cannot write %s (%s): check the disk", sw->cmd, sw->path,
                    strerror(errno));
        unlink(sw->path);
        return RCUPROF_ERR_SYSTEM;
    }
    fsync_dir(sw->dir);
    return 0;
}

/* What one invocation has run so far. */
struct run_state {
    size_t todo, done_now, nfail, nok;
    double t0;
    uint64_t seed;
};

/*
 * Run: every point of the plan not done, in plan order, each appended (and
 * synced) the moment it finishes, with progress and an estimate of the
 * time left.  0 or an exit code (failed points are counted, not fatal).
 */
static int sweep_run_plan(struct sweep *sw, struct run_state *rs)
{
    size_t j;
    int rc;

    for (j = 0; j < sw->nplan; j++) {
        struct plan_point *p = &sw->plan[j];
        int usage_fail;
        double per_op, eta;
        char what[160];
        const char *st;
        json_t *point;

        if (p->done)
            continue;
        eta = rs->done_now ? (rcuprof_time_mono_s() - rs->t0)
                             / (double)rs->done_now
                             * (double)(rs->todo - rs->done_now) : -1;
        progress(sw, rs->done_now, rs->todo, p, "", eta);
        point = run_point(sw, p, &usage_fail, &per_op);
        if (point == NULL) {
            if (sw->tty)
                fputc('\n', stderr);
            rcuprof_err("%s: out of memory", sw->cmd);
            return RCUPROF_ERR_SYSTEM;
        }
        st = json_string_value(json_object_get(point, "status"));
        if (sw->fd < 0) {
            if ((rc = sweep_create(sw, point, usage_fail)) != 0) {
                json_decref(point);
                return rc;
            }
            announce(sw, rs->todo, rs->seed);
        }
        if (append_json(sw->fd, point) != 0) {
            if (sw->tty)
                fputc('\n', stderr);
            rcuprof_err("%s: cannot append to %s (%s): check the disk, then --resume",
                        sw->cmd, sw->path, strerror(errno));
            json_decref(point);
            return RCUPROF_ERR_SYSTEM;
        }
        p->done = 1;
        rs->done_now++;
        if (strcmp(st, "ok") == 0) {
            rs->nok++;
            snprintf(what, sizeof(what), "ok, %.1f ns/op", per_op);
        } else {
            rs->nfail++;
            snprintf(what, sizeof(what), "%s (%.100s)", st,
                     json_string_value(json_object_get(point, "message")));
        }
        json_decref(point);
        eta = (rcuprof_time_mono_s() - rs->t0) / (double)rs->done_now
              * (double)(rs->todo - rs->done_now);
        progress(sw, rs->done_now, rs->todo, p, what, eta);
    }
    return 0;
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

/*
 * Adaptive: after the first stage, one more block at a time while the
 * worst MDE is above the target (Stein: the blocks needed come from the
 * first stage's spread) and the next block fits in --max-time.  The
 * reason it stopped goes to stop.  0 or an exit code.
 */
static int sweep_adapt(struct sweep *sw, struct run_state *rs, char *stop,
                       size_t n)
{
    size_t per_block = sw->nthreads * sweep_arms(sw);
    double t_adapt = rcuprof_time_mono_s(), block_s = NAN;
    unsigned added = 0;
    int rc;

    for (;;) {
        rcuprof_adaptive_need need;
        char where[256], e[32];
        double elapsed = rcuprof_time_mono_s() - rs->t0, eta;

        if (sweep_need(sw, &need, where, sizeof(where)) != 0) {
            snprintf(stop, n, "adaptive: stopped after %u blocks: %s",
                     sw->nblocks, where);
            return 0;
        }
        if (added > 0)
            block_s = (rcuprof_time_mono_s() - t_adapt) / added;
        else if (rs->done_now >= per_block)
            block_s = elapsed / ((double)rs->done_now / (double)per_block);
        eta = need.blocks > sw->nblocks && isfinite(block_s)
              ? block_s * (double)(need.blocks - sw->nblocks) : 0;
        if (sw->max_time > 0 && eta > sw->max_time - elapsed)
            eta = fmax(0, sw->max_time - elapsed);
        fmt_dur(isfinite(block_s) ? eta : -1, e, sizeof(e));
        fprintf(stderr, "%s%s: adaptive: %u blocks, worst MDE %.1f%% (%s), target %.3g%%: %zu blocks needed%s, eta %s\n",
                sw->tty ? "\r\033[K" : "", sw->cmd, sw->nblocks, need.worst_mde_pct,
                where, sw->target_mde, need.blocks,
                need.blocks > SWEEP_REPS_MAX ? " (more than the limit)" : "",
                e);
        /* Reached only where the MDE now says so, not only the count the
         * first stage asked for: a failed run leaves a row fewer pairs
         * than blocks.  Rows the rule cannot judge are said. */
        if (need.blocks <= sw->nblocks
            && need.worst_mde_pct <= sw->target_mde) {
            char unk[96] = "";

            if (need.unknown > 0)
                snprintf(unk, sizeof(unk), "; %zu row(s) not judged "
                         "(unpaired, or a first stage under %d pairs)",
                         need.unknown, RCUPROF_CHANGE_MIN_N);
            snprintf(stop, n, "adaptive: target reached after %u blocks: worst MDE %.1f%% <= %.3g%% (%s)%s",
                     sw->nblocks, need.worst_mde_pct, sw->target_mde, where,
                     unk);
            return 0;
        }
        if (sw->nblocks >= SWEEP_REPS_MAX) {
            snprintf(stop, n, "adaptive: block limit %d reached: worst MDE %.1f%% > %.3g%% (%s)",
                     SWEEP_REPS_MAX, need.worst_mde_pct, sw->target_mde,
                     where);
            return 0;
        }
        if (sw->max_time > 0
            && (elapsed >= sw->max_time
                || (isfinite(block_s) && elapsed + block_s > sw->max_time))) {
            snprintf(stop, n, "adaptive: time ran out after %u blocks: worst MDE %.1f%% > target %.3g%% (%s; %zu blocks needed); the intervals are valid, only wider than asked",
                     sw->nblocks, need.worst_mde_pct, sw->target_mde, where,
                     need.blocks);
            return 0;
        }
        if (sweep_plan(sw, rs->seed, sw->nblocks + 1) != 0) {
            rcuprof_err("%s: out of memory", sw->cmd);
            return RCUPROF_ERR_SYSTEM;
        }
        rs->todo += per_block;
        if ((rc = sweep_run_plan(sw, rs)) != 0)
            return rc;
        added++;
    }
}

/*
 * Run the plan, then (adaptive) add blocks.  0 (every point ran ok),
 * RCUPROF_ERR_RUN (some failed) or an exit code.
 */
static int sweep_run(struct sweep *sw)
{
    struct run_state rs;
    char stop[512] = "";
    size_t j;
    int rc;

    memset(&rs, 0, sizeof(rs));
    rs.seed = (uint64_t)json_integer_value(json_object_get(sw->spec, "seed"));
    for (j = 0; j < sw->nplan; j++)
        rs.todo += !sw->plan[j].done;
    sw->tty = isatty(2);
    /* A fresh sweep announces itself once its first point is accepted, so a
     * refused sweep prints its one error line only. */
    if (sw->fd >= 0)
        announce(sw, rs.todo, rs.seed);
    rs.t0 = rcuprof_time_mono_s();
    rc = sweep_run_plan(sw, &rs);
    if (rc == 0 && isfinite(sw->target_mde) && sw->fd >= 0)
        rc = sweep_adapt(sw, &rs, stop, sizeof(stop));
    if (rc != 0)
        return rc;
    if (sw->tty && rs.todo > 0)
        fputc('\n', stderr);
    /* whatif prints its table on stdout: this goes with the progress. */
    fprintf(sw->ndelays > 0 ? stderr : stdout,
            "%s: %zu points run (%zu ok, %zu failed), %zu already done; results in %s\n",
           sw->cmd, rs.done_now, rs.nok, rs.nfail, sw->nplan - rs.todo, sw->path);
    if (stop[0])
        fprintf(sw->ndelays > 0 ? stderr : stdout, "%s: %s\n", sw->cmd,
                stop);
    return rs.nfail > 0 ? RCUPROF_ERR_RUN : RCUPROF_OK;
}

int rcuprof_cmd_sweep(int argc, char **argv)
{
    struct sweep sw;
    struct sweep_args args = { 0 };
    unsigned char seen[ARG_N] = { 0 };
    json_t *options = json_object();
    int rc;

    memset(&sw, 0, sizeof(sw));
    sw.fd = -1;
    sw.cmd = "sweep";
    rc = sweep_parse(argc, argv, &args, seen, options);
    if (rc != 0) {
        json_decref(options);
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    sw.dir = args.out;
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
    sw.fd = -1;
    sw.cmd = "whatif";
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
    if (sw.variants[0] == NULL || sw.spec == NULL
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
