/*
 * `rcuprof bundle` and the bundle executor (bundle.h).
 *
 * The executor records instead of running: run(), called by the
 * experiment engine (experiment.h), appends the measurement with the point
 * in flight (rcuprof_exp_current) to the plan and returns
 * RCUPROF_EXEC_DEFERRED.  `rcuprof bundle` is a plan builder over the
 * engine with sweep's cells (a group per thread count, the variants
 * shuffled in each from the seed), so a --seed gives sweep's order; blocks
 * are fixed: adaptive stopping needs the controller beside the runs to
 * add blocks, and a bundle runs where nothing can reach.
 */
#define _GNU_SOURCE
#include "bundle.h"
#include "cli.h"
#include "experiment.h"
#include "pack.h"
#include "rcuprof_protocol.h"
#include "results.h"
#include "bundle_run_sh.h"      /* rcuprof_bundle_run_sh: bundle-run.sh */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RCUPROF_VERSION
# define RCUPROF_VERSION "0.0.0"
#endif

#define BUNDLE_VARIANTS_MAX 32
#define BUNDLE_BLOCKS_MAX 10000

struct bundle_variant {
    char variant[128];
    char drv[PATH_MAX];
    char id[RCUPROF_PACK_IDLEN + 1];
};

struct bundle_exec {
    struct rcuprof_executor x;
    char root[PATH_MAX];
    struct bundle_variant v[BUNDLE_VARIANTS_MAX];
    size_t nv;
    char *plan;                 /* plan.txt's point lines */
    size_t planlen;
    FILE *planf;
    json_t *points;
    json_t *header;             /* the engine's, from the first run() */
    unsigned seq;               /* points recorded */
    double timeout;
};

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int rcuprof_remove_tree(const char *dir)
{
    if (access(dir, F_OK) != 0)
        return 0;
    return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int bx_prepare(struct rcuprof_executor *x, const char *variant,
                      const char *drv, char *err, size_t errlen)
{
    struct bundle_exec *b = x->priv;
    struct bundle_variant *v;
    char packs[PATH_MAX + 16], e[1024];
    size_t i;

    for (i = 0; i < b->nv; i++)
        if (strcmp(b->v[i].drv, drv) == 0)
            return 0;
    if (b->nv == BUNDLE_VARIANTS_MAX) {
        snprintf(err, errlen, "variant %s: at most %d variants in a bundle",
                 variant, BUNDLE_VARIANTS_MAX);
        return -1;
    }
    v = &b->v[b->nv];
    snprintf(v->variant, sizeof(v->variant), "%s", variant);
    snprintf(v->drv, sizeof(v->drv), "%s", drv);
    snprintf(packs, sizeof(packs), "%s/packs", b->root);
    if (rcuprof_pack_driver(drv, packs, v->id, sizeof(v->id), e,
                            sizeof(e)) != 0) {
        snprintf(err, errlen, "variant %s: %s", variant, e);
        return -1;
    }
    b->nv++;
    return 0;
}

/* s single-quoted for sh ('\'' for a quote). */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s != '\0'; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

static unsigned line_uint(const json_t *line, const char *key)
{
    return (unsigned)json_integer_value(json_object_get(line, key));
}

/* Only inside the engine's run: the point in flight gives the cell. */
static enum rcuprof_exec_rc bx_run(struct rcuprof_executor *x,
                                   char *const argv[], double timeout_s,
                                   struct rcuprof_driver_result *r)
{
    struct bundle_exec *b = x->priv;
    struct bundle_variant *v = NULL;
    const json_t *line = NULL;
    const struct rcuprof_experiment *e = rcuprof_exp_current(&line);
    unsigned threads, block, order, seq;
    json_t *av, *pt;
    size_t i;

    memset(r, 0, sizeof(*r));
    for (i = 0; i < b->nv; i++)
        if (strcmp(b->v[i].drv, argv[0]) == 0)
            v = &b->v[i];
    if (v == NULL || b->planf == NULL || e == NULL || line == NULL)
        return RCUPROF_EXEC_ERROR;      /* not prepared, or no point */
    block = line_uint(line, "block");
    threads = line_uint(line, "threads");
    order = line_uint(line, "order");
    seq = line_uint(line, "seq");
    if (b->header == NULL && e->header != NULL)
        b->header = json_incref(e->header);
    av = json_array();
    for (i = 1; argv[i] != NULL; i++)
        json_array_append_new(av, json_string(argv[i]));
    if (timeout_s > b->timeout)
        b->timeout = timeout_s;
    pt = json_pack("{s:i, s:i, s:i, s:s, s:i, s:s, s:o}", "seq", (int)seq,
                   "block", (int)block, "threads", (int)threads,
                   "variant", v->variant, "order", (int)order,
                   "pack", v->id, "argv", av);
    if (pt == NULL || json_array_append_new(b->points, pt) != 0)
        return RCUPROF_EXEC_ERROR;
    fprintf(b->planf, "%u %s %u %s %u", seq, v->id, block + 1, v->variant,
            threads);
    for (i = 1; argv[i] != NULL; i++) {
        fputc(' ', b->planf);
        sh_quote(b->planf, argv[i]);
    }
    fputc('\n', b->planf);
    b->seq++;
    return RCUPROF_EXEC_DEFERRED;
}

static json_t *bx_host_record(struct rcuprof_executor *x)
{
    (void)x;
    return NULL;                /* recorded on the target: import */
}

static void bx_close(struct rcuprof_executor *x)
{
    struct bundle_exec *b = x->priv;

    if (b->planf != NULL)
        fclose(b->planf);
    free(b->plan);
    json_decref(b->points);
    json_decref(b->header);
    free(b);
}

struct rcuprof_executor *rcuprof_executor_bundle(const char *root, char *err,
                                                 size_t errlen)
{
    struct bundle_exec *b = calloc(1, sizeof(*b));

    if (b == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (snprintf(b->root, sizeof(b->root), "%s", root)
        >= (int)sizeof(b->root) || mkdir(root, 0755) != 0) {
        snprintf(err, errlen, "cannot make %s (%s)", root, strerror(errno));
        free(b);
        return NULL;
    }
    b->planf = open_memstream(&b->plan, &b->planlen);
    b->points = json_array();
    if (b->planf == NULL || b->points == NULL) {
        snprintf(err, errlen, "out of memory");
        bx_close(&b->x);
        return NULL;
    }
    b->x.kind = "bundle";
    snprintf(b->x.name, sizeof(b->x.name), "bundle");
    b->x.prepare = bx_prepare;
    b->x.run = bx_run;
    b->x.host_record = bx_host_record;
    b->x.close = bx_close;
    b->x.priv = b;
    return &b->x;
}

static int write_in(const char *root, const char *name, const void *data,
                    size_t len, mode_t mode)
{
    char p[PATH_MAX + 64];

    snprintf(p, sizeof(p), "%s/%s", root, name);
    if (rcuprof_write_atomic(p, data, len) != 0)
        return -1;
    return chmod(p, mode);
}

/*
 * The packs share most libraries (libc, hwloc...): a file whose digest an
 * earlier pack's MANIFEST already lists becomes a hard link to it, which
 * tar stores once.  Best effort: a file that cannot be linked stays a copy.
 */
static void bundle_dedupe(struct bundle_exec *b)
{
    json_t *seen = json_object();
    size_t i;

    for (i = 0; seen != NULL && i < b->nv; i++) {
        char path[PATH_MAX + 100], line[512];
        FILE *m;

        snprintf(path, sizeof(path), "%s/packs/%s/MANIFEST", b->root,
                 b->v[i].id);
        if ((m = fopen(path, "r")) == NULL)
            continue;
        while (fgets(line, sizeof(line), m) != NULL) {
            char sha[65], name[300], file[PATH_MAX + 400], tmp[PATH_MAX + 420];
            const char *first;

            if (sscanf(line, "file %64s %299s", sha, name) != 2)
                continue;
            snprintf(file, sizeof(file), "%s/packs/%s/%s", b->root,
                     b->v[i].id, name);
            first = json_string_value(json_object_get(seen, sha));
            if (first == NULL) {
                json_object_set_new(seen, sha, json_string(file));
                continue;
            }
            if (strcmp(first, file) == 0)
                continue;
            snprintf(tmp, sizeof(tmp), "%s.link", file);
            if (link(first, tmp) == 0 && rename(tmp, file) != 0)
                unlink(tmp);
        }
        fclose(m);
    }
    json_decref(seen);
}

int rcuprof_bundle_finish(struct rcuprof_executor *x, const json_t *header,
                          char *id, size_t idlen, char *err, size_t errlen)
{
    struct bundle_exec *b = x->priv;
    json_t *packs = json_object(), *plan;
    char hex[65], *text = NULL, *head = NULL;
    size_t i;
    int rc = -1;

    if (header == NULL)
        header = b->header;
    if (fflush(b->planf) != 0 || packs == NULL || header == NULL)
        goto nomem;
    bundle_dedupe(b);
    for (i = 0; i < b->nv; i++)
        json_object_set_new(packs, b->v[i].variant, json_string(b->v[i].id));
    plan = json_pack("{s:s, s:O, s:o, s:O}", "schema", RCUPROF_BUNDLE_SCHEMA,
                     "header", header, "packs", packs, "points", b->points);
    if (plan == NULL)
        goto nomem;
    /* The id: a digest of the plan (spec, packs, points). */
    text = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    if (text == NULL) {
        json_decref(plan);
        goto nomem;
    }
    rcuprof_sha256_hex(text, strlen(text), hex);
    hex[RCUPROF_BUNDLE_IDLEN] = '\0';
    snprintf(id, idlen, "%s", hex);
    json_object_set_new(plan, "id", json_string(hex));
    free(text);
    text = json_dumps(plan, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    json_decref(plan);
    if (text == NULL
        || asprintf(&head, "rcuprof-bundle-plan 1 %.0f %u\n",
                    b->timeout > 0 ? b->timeout : 120, b->seq) < 0)
        goto nomem;
    if (write_in(b->root, "plan.json", text, strlen(text), 0644) != 0
        || write_in(b->root, "run.sh", rcuprof_bundle_run_sh,
                    sizeof(rcuprof_bundle_run_sh), 0755) != 0)
        goto werr;
    {
        char *full = malloc(strlen(head) + b->planlen + 1);

        if (full == NULL)
            goto nomem;
        memcpy(full, head, strlen(head));
        memcpy(full + strlen(head), b->plan, b->planlen);
        rc = write_in(b->root, "plan.txt", full, strlen(head) + b->planlen,
                      0644);
        free(full);
        if (rc != 0)
            goto werr;
        rc = -1;
    }
    {
        char line[RCUPROF_BUNDLE_IDLEN + 2];

        snprintf(line, sizeof(line), "%.16s\n", hex);
        if (write_in(b->root, "BUNDLE_ID", line, strlen(line), 0644) != 0)
            goto werr;
    }
    rc = 0;
    goto out;
 nomem:
    snprintf(err, errlen, "out of memory");
    goto out;
 werr:
    snprintf(err, errlen, "cannot write into %s (%s)", b->root,
             strerror(errno));
 out:
    free(text);
    free(head);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* rcuprof bundle                                                          */

struct bundle_args {
    const char *variants, *threads, *out;
    unsigned blocks;
    uint64_t seed, timeout;
};

enum { BA_VARIANTS, BA_THREADS, BA_BLOCKS, BA_OUT, BA_SEED, BA_TIMEOUT,
       BA_HELP, BA_N };

static const struct rcuprof_opt bundle_rows[BA_N] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variants", 0, "A,B,...", "", 0, 0,
                   struct bundle_args, variants, NULL,
                   "the variants to measure there (rcuprof variants lists them)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "threads", 0, "LIST", "", 0, 0,
                   struct bundle_args, threads, NULL,
                   "thread counts: 1,2,4 or 4-8 or 1-64:x2 (the target's CPUs, not this machine's)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "blocks", 0, "N", "", 1,
                   BUNDLE_BLOCKS_MAX, struct bundle_args, blocks, NULL,
                   "fixed blocks, each runs every point once (no adaptive stopping: it needs rcuprof beside the runs)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "FILE.tar.gz", "", 0, 0,
                   struct bundle_args, out, NULL,
                   "the bundle to write (must not exist)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "seed", 0, "N", "", 0, 0xffffffffULL,
                   struct bundle_args, seed, NULL,
                   "seed of the shuffled run order (default: random, recorded)"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "timeout", 0, "S", "120", 1, 86400,
                   struct bundle_args, timeout, NULL,
                   "run.sh kills a run after S seconds and records it as timeout"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};

static void bundle_help(void)
{
    static const char *const skip[] = { "threads", NULL };
    static const struct rcuprof_opt help_row[] = {
        RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                            "this list"),
    };

    printf("usage: rcuprof bundle --variants A,B,... --threads LIST --blocks N --out FILE.tar.gz [options]\n"
           "A sweep for a machine nothing can reach: the drivers (packed with their\n"
           "libraries: no packages needed there), run.sh (POSIX sh, no root) and the\n"
           "plan.  There: tar xzf FILE.tar.gz && sh NAME/run.sh (interrupt and rerun\n"
           "at will); here: rcuprof import NAME/results --out DIR.  Blocks are fixed:\n"
           "sweep's adaptive stopping (--target-mde, --max-time) needs rcuprof beside\n"
           "the runs to decide when to stop, so a bundle does not offer it.\n");
    rcuprof_opts_help(stdout, bundle_rows, BA_N, 0, NULL);
    printf("driver options, passed to every run (see rcuprof run --help):\n");
    rcuprof_opts_help(stdout, rcuprof_driver_opts, rcuprof_driver_nopts, 0,
                      skip);
    rcuprof_opts_help(stdout, help_row, 1, 0, NULL);
}

/* The folder name of the bundle: OUT's last component without .tar.gz. */
static int bundle_name(const char *out, char *name, size_t n)
{
    const char *b = strrchr(out, '/');
    size_t len;

    b = b != NULL ? b + 1 : out;
    len = strlen(b);
    if (len > 7 && strcmp(b + len - 7, ".tar.gz") == 0)
        len -= 7;
    else if (len > 4 && strcmp(b + len - 4, ".tgz") == 0)
        len -= 4;
    else
        return -1;
    if (len == 0 || len >= n || b[0] == '.')
        return -1;
    snprintf(name, n, "%.*s", (int)len, b);
    return 0;
}

/* A program on PATH into buf; 0 or -1. */
static int find_prog(const char *name, char *buf, size_t n)
{
    const char *path = getenv("PATH"), *p, *e;

    if (path == NULL || path[0] == '\0')
        path = "/usr/bin:/bin";
    for (p = path; *p != '\0'; p = *e ? e + 1 : e) {
        e = strchr(p, ':');
        if (e == NULL)
            e = p + strlen(p);
        if (e > p && snprintf(buf, n, "%.*s/%s", (int)(e - p), p, name)
                     < (int)n && access(buf, X_OK) == 0)
            return 0;
    }
    return -1;
}

/* tar ARGS (argv[0] "tar"); 0, or -1 after one line in err. */
int rcuprof_run_tar(char *const argv[], char *err, size_t errlen);
int rcuprof_run_tar(char *const argv[], char *err, size_t errlen)
{
    char tar[PATH_MAX];
    struct rcuprof_driver_result r;
    int rc = -1;

    if (find_prog("tar", tar, sizeof(tar)) != 0) {
        snprintf(err, errlen, "no tar on PATH: install tar");
        return -1;
    }
    if (rcuprof_driver_spawn(tar, argv, 3600, &r) != 0) {
        snprintf(err, errlen, "cannot run %s", tar);
        return -1;
    }
    if (r.exited && r.status == 0) {
        rc = 0;
    } else {
        char *m = r.err + strspn(r.err, "\n "), *nl = strchr(m, '\n');

        if (nl != NULL)
            *nl = '\0';
        snprintf(err, errlen, "tar failed: %s", m[0] ? m : "no message");
    }
    rcuprof_driver_result_free(&r);
    return rc;
}

/* ---- the plan builder: sweep's cells, the engine's plan ---- */

struct bundle_plan {
    char **variants;
    char (*drv)[PATH_MAX];
    size_t nv;
    const unsigned *threads;
    const json_t *options;
};

/* cell = thread index x variants + variant (sweep's). */
static void pl_driver(void *ctx, size_t cell, const char **variant,
                      const char **drv)
{
    const struct bundle_plan *bp = ctx;

    *variant = bp->variants[cell % bp->nv];
    *drv = bp->drv[cell % bp->nv];
}

static int pl_argv(void *ctx, const struct rcuprof_exp_point *p, char **av,
                   size_t cap)
{
    const struct bundle_plan *bp = ctx;
    json_t *o = json_deep_copy(bp->options);
    int n;

    if (o == NULL || json_object_set_new(o, "threads", json_sprintf("%u",
                                   bp->threads[p->cell / bp->nv])) != 0) {
        json_decref(o);
        return -1;
    }
    n = rcuprof_driver_argv(bp->drv[p->cell % bp->nv], o, av, cap);
    json_decref(o);
    return n;
}

/* The point's line, as sweep's (run() records its cell from it). */
static json_t *pl_line(void *ctx, const struct rcuprof_exp_point *p)
{
    const struct bundle_plan *bp = ctx;

    return json_pack("{s:s, s:i, s:i, s:s, s:i, s:i}", "type", "point",
                     "block", (int)p->block,
                     "threads", (int)bp->threads[p->cell / bp->nv],
                     "variant", bp->variants[p->cell % bp->nv],
                     "order", (int)p->order, "seq", (int)p->seq);
}

/*
 * Every point of the plan to the bundle executor x through the engine,
 * fixed blocks.  The engine runs in file mode (a path in the stage that
 * is never made: every point defers) so run() gets each point's line and
 * the header.  0, or an exit code after its one line.
 */
static int bundle_plan_run(struct rcuprof_executor *x, const char *stage,
                           struct bundle_plan *bp, size_t nt,
                           unsigned blocks, uint64_t seed, json_t *hdr,
                           double timeout)
{
    struct rcuprof_experiment e;
    char path[PATH_MAX + 32];
    size_t *group = calloc(nt * bp->nv + 1, sizeof(*group)), i;
    int rc;

    if (group == NULL) {
        rcuprof_err("bundle: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    for (i = 0; i < nt * bp->nv; i++)
        group[i] = i / bp->nv;
    snprintf(path, sizeof(path), "%s/engine.jsonl", stage);
    rcuprof_exp_init(&e, "bundle");
    e.exec = x;
    e.ncells = nt * bp->nv;
    e.ngroups = nt;
    e.group = group;
    e.reps = e.blocks_max = blocks;
    e.seed = seed;
    e.timeout_s = timeout;
    e.progress = -1;            /* silent: nothing runs here */
    e.dir = stage;
    e.path = path;
    e.header = hdr;
    e.ctx = bp;
    e.driver = pl_driver;
    e.argv = pl_argv;
    e.line = pl_line;
    rc = rcuprof_exp_run(&e);
    if (rc == RCUPROF_OK && e.ndeferred != e.nplan) {
        rcuprof_err("bundle: %zu of %zu points recorded", e.ndeferred,
                    e.nplan);
        rc = RCUPROF_ERR_SYSTEM;
    }
    rcuprof_exp_free(&e);
    free(group);
    return rc;
}

/*
 * Options a driver refuses are caught here, not on the target: one short
 * local run of each variant at the smallest thread count (1 ms window, no
 * warm-up), without what only the target can judge (--pin, --events,
 * --require-hw, --sample: its topology and PMU).  0, or -1 after the one
 * line (the driver's usage or setup message).
 */
static int bundle_check_options(char **variants, char drv[][PATH_MAX],
                                size_t nv, unsigned threads,
                                const json_t *options)
{
    static const char *const target_only[] = { "pin", "events",
        "require-hw", "sample", "sample-freq", "sample-event" };
    size_t i, k;

    for (i = 0; i < nv; i++) {
        json_t *o = json_deep_copy(options);
        char *av[64], msg[1024];
        struct rcuprof_driver_result r;
        int n, bad;

        if (o == NULL)
            return -1;
        for (k = 0; k < sizeof(target_only) / sizeof(target_only[0]); k++)
            json_object_del(o, target_only[k]);
        json_object_set_new(o, "threads", json_sprintf("%u", threads));
        json_object_set_new(o, "warmup-ms", json_string("0"));
        json_object_set_new(o, "rtt", json_string("off"));
        if (json_object_get(o, "ops") != NULL
            && strcmp(json_string_value(json_object_get(o, "ops")), "0") != 0)
            json_object_set_new(o, "ops", json_string("1"));
        else
            json_object_set_new(o, "duration-ms", json_string("1"));
        n = rcuprof_driver_argv(drv[i], o, av, 62);
        json_decref(o);
        if (n < 0 || rcuprof_driver_spawn(drv[i], av, 60, &r) != 0) {
            if (n >= 0)
                rcuprof_driver_argv_free(av);
            rcuprof_err("bundle: cannot run the %s driver here to check the options",
                        variants[i]);
            return -1;
        }
        rcuprof_driver_argv_free(av);
        bad = r.exited && RCUPROF_EXIT_REFUSED(r.status);
        if (bad) {
            rcuprof_driver_error_message(&r, msg, sizeof(msg));
            rcuprof_err("bundle: %s refuses the options (a 1 ms run here): %s",
                        variants[i], msg[0] ? msg : "no message");
        }
        rcuprof_driver_result_free(&r);
        if (bad)
            return -1;
    }
    return 0;
}

static int has_arg(int argc, char **argv, const char *opt)
{
    size_t n = strlen(opt);
    int i;

    for (i = 1; i < argc; i++)
        if (strncmp(argv[i], opt, n) == 0
            && (argv[i][n] == '\0' || argv[i][n] == '='))
            return 1;
    return 0;
}

int rcuprof_cmd_bundle(int argc, char **argv)
{
    struct bundle_args a = { 0 };
    unsigned char seen[BA_N] = { 0 };
    json_t *options = json_object(), *known = NULL, *spec = NULL, *hdr = NULL;
    json_t *tl = NULL, *vl = NULL;
    struct rcuprof_cmd_opts co = {
        .cmd = "bundle", .rows = bundle_rows, .n = BA_N, .target = &a,
        .driver = options, .seen = seen,
        .unknown = "bundle: unknown option '%s': see 'rcuprof bundle --help'"
    };
    const struct rcuprof_opt *action;
    char *variants[BUNDLE_VARIANTS_MAX] = { 0 };
    static char drv[BUNDLE_VARIANTS_MAX][PATH_MAX];
    unsigned threads[RCUPROF_THREADS_MAX];
    size_t nv = 0, nt = 0, i;
    char err[1024], name[256], stage[PATH_MAX], root[PATH_MAX + 300];
    char tmp[PATH_MAX + 64], hash[65], id[RCUPROF_BUNDLE_IDLEN + 1];
    char *list = NULL, *tok, *save = NULL, *slash;
    struct rcuprof_executor *x = NULL;
    uint64_t seed;
    int rc, first, ret = RCUPROF_ERR_USAGE;
    static const char *const adaptive[] = { "--target-mde", "--max-time",
                                            "--reps", "--resume" };

    stage[0] = tmp[0] = '\0';
    for (i = 0; i < sizeof(adaptive) / sizeof(adaptive[0]); i++) {
        if (has_arg(argc, argv, adaptive[i])) {
            rcuprof_err("bundle: %s: a bundle runs fixed blocks (--blocks N): adaptive stopping and resume need rcuprof beside the runs; run.sh resumes by itself",
                        adaptive[i]);
            json_decref(options);
            return RCUPROF_ERR_USAGE;
        }
    }
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc > 0) {
        bundle_help();
        json_decref(options);
        return RCUPROF_OK;
    }
    if (rc < 0)
        goto out;
    if (first < argc) {
        rcuprof_cmd_unexpected(&co, argv[first]);
        goto out;
    }
    if (a.variants == NULL || a.threads == NULL || !seen[BA_BLOCKS]
        || a.out == NULL) {
        rcuprof_err("bundle: --variants, --threads, --blocks and --out are required: see 'rcuprof bundle --help'");
        goto out;
    }
    if (bundle_name(a.out, name, sizeof(name)) != 0) {
        rcuprof_err("bundle: --out '%s': give a file name ending in .tar.gz or .tgz", a.out);
        goto out;
    }
    if (access(a.out, F_OK) == 0) {
        rcuprof_err("bundle: --out %s exists: give another name", a.out);
        goto out;
    }
    if (rcuprof_list_check("variants", a.variants, err, sizeof(err)) != 0) {
        rcuprof_err("bundle: %s", err);
        goto out;
    }
    list = strdup(a.variants);
    for (tok = strtok_r(list, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        size_t j;

        if (rcuprof_variant_name_ok(tok))
            rcuprof_variant_canon(tok);
        for (j = 0; j < nv; j++)
            if (strcmp(variants[j], tok) == 0)
                break;
        if (j < nv || nv == BUNDLE_VARIANTS_MAX || !rcuprof_variant_name_ok(tok)) {
            rcuprof_err("bundle: --variants: '%s' is %s: give up to %d distinct names",
                        tok, j < nv ? "repeated" : "not a variant name",
                        BUNDLE_VARIANTS_MAX);
            goto out;
        }
        variants[nv++] = strdup(tok);
    }
    if (rcuprof_parse_threads(a.threads, threads, RCUPROF_THREADS_MAX, &nt,
                              err, sizeof(err)) != 0) {
        rcuprof_err("bundle: --threads: %s", err);
        goto out;
    }
    if ((known = rcuprof_variants_load(err, sizeof(err))) == NULL) {
        rcuprof_err("bundle: %s", err);
        goto out;
    }
    for (i = 0; i < nv; i++)
        if (rcuprof_variant_usable("bundle", variants[i], known, drv[i],
                                   sizeof(drv[i])) != 0)
            goto out;
    if (bundle_check_options(variants, drv, nv, threads[0], options) != 0)
        goto out;
    if (seen[BA_SEED]) {
        seed = a.seed;
    } else {
        uint32_t s;

        if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
            s = (uint32_t)time(NULL) ^ (uint32_t)getpid();
        seed = s;
    }
    /* The spec of a sweep of the same options: import writes its header. */
    vl = json_array();
    tl = json_array();
    for (i = 0; i < nv; i++)
        json_array_append_new(vl, json_string(variants[i]));
    for (i = 0; i < nt; i++)
        json_array_append_new(tl, json_integer(threads[i]));
    spec = json_pack("{s:O, s:O, s:i, s:O, s:I, s:s}", "variants", vl,
                     "threads", tl, "reps", (int)a.blocks, "options", options,
                     "seed", (json_int_t)seed,
                     "rcuprof_version", RCUPROF_VERSION);
    if (spec == NULL || rcuprof_spec_hash(spec, hash) != 0) {
        rcuprof_err("bundle: out of memory");
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    hdr = json_pack("{s:s, s:s, s:O, s:s, s:I, s:I}", "type", "header",
                    "schema", RCUPROF_RESULTS_SCHEMA, "spec", spec,
                    "spec_hash", hash, "timeout_s", (json_int_t)a.timeout,
                    "created_unix_ns", (json_int_t)rcuprof_time_real_ns());

    /* Stage beside --out, then tar, then rename: all or nothing. */
    snprintf(stage, sizeof(stage), "%s", a.out);
    slash = strrchr(stage, '/');
    if (slash != NULL)
        snprintf(slash + 1, sizeof(stage) - (size_t)(slash + 1 - stage),
                 ".%s.stage%ld", name, (long)getpid());
    else
        snprintf(stage, sizeof(stage), ".%s.stage%ld", name, (long)getpid());
    if (mkdir(stage, 0755) != 0) {
        rcuprof_err("bundle: cannot make %s (%s): check --out's folder exists and is writable",
                    stage, strerror(errno));
        stage[0] = '\0';
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    snprintf(root, sizeof(root), "%s/%s", stage, name);
    if ((x = rcuprof_executor_bundle(root, err, sizeof(err))) == NULL) {
        rcuprof_err("bundle: %s", err);
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    for (i = 0; i < nv; i++) {
        if (x->prepare(x, variants[i], drv[i], err, sizeof(err)) != 0) {
            rcuprof_err("bundle: %s", err);
            ret = RCUPROF_ERR_SYSTEM;
            goto out;
        }
    }
    {
        struct bundle_plan bp = { variants, drv, nv, threads, options };

        err[0] = '\0';
        if ((rc = bundle_plan_run(x, stage, &bp, nt, a.blocks, seed, hdr,
                                  (double)a.timeout)) != 0) {
            ret = rc;
            goto out;
        }
    }
    if (rcuprof_bundle_finish(x, hdr, id, sizeof(id), err,
                              sizeof(err)) != 0) {
        rcuprof_err("bundle: %s", err[0] ? err : "out of memory");
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp%ld", a.out, (long)getpid());
    {
        /* gzip -1: a third of -6's time, 10% larger (the drivers). */
        char *tav[] = { "tar", "--use-compress-program=gzip -1", "-cf", tmp,
                        "-C", stage, name, NULL };

        if (rcuprof_run_tar(tav, err, sizeof(err)) != 0) {
            rcuprof_err("bundle: %s", err);
            ret = RCUPROF_ERR_SYSTEM;
            goto out;
        }
    }
    if (rename(tmp, a.out) != 0) {
        rcuprof_err("bundle: cannot write %s (%s): check the folder",
                    a.out, strerror(errno));
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    tmp[0] = '\0';
    {
        struct stat st;

        stat(a.out, &st);
        printf("bundle %s: %zu points (%zu variants x %zu thread count(s) x %u blocks), seed %llu, %.1f MB, into %s\n"
               "there:  tar xzf %s && sh %s/run.sh      (no root; interrupt and rerun at will)\n"
               "back here:  rcuprof import %s/results --out DIR   (or a .tar.gz of it)\n",
               id, nv * nt * a.blocks, nv, nt, a.blocks,
               (unsigned long long)seed, (double)st.st_size / 1e6, a.out,
               strrchr(a.out, '/') ? strrchr(a.out, '/') + 1 : a.out, name,
               name);
    }
    ret = RCUPROF_OK;
 out:
    if (x != NULL)
        rcuprof_executor_close(x);
    if (stage[0] != '\0')
        rcuprof_remove_tree(stage);
    if (tmp[0] != '\0')
        unlink(tmp);
    for (i = 0; i < nv; i++)
        free(variants[i]);
    free(list);
    json_decref(known);
    json_decref(spec);
    json_decref(hdr);
    json_decref(vl);
    json_decref(tl);
    json_decref(options);
    return ret;
}
