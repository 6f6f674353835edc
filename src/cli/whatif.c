/*
 * `rcuprof whatif`: causal attribution by delay injection (issue 17;
 * docs/interfaces.md sections 1, 3.4 and 9).
 *
 * Everything is checked before anything runs: the variant known and
 * built, the site one its driver has (`--version`: build.delay_sites, or
 * build.driver_delay_sites[workload] for a baseline workload), the delays
 * and thread counts.  Then the runs, on sweep's machinery
 * (rcuprof_sweep_whatif: DIR/results.jsonl appended point by point,
 * interleaved blocks shuffled from the seed, every delay and the unarmed
 * cell (no --delay-site) in each, adaptive with --target-mde),
 * then the fit (analysis/whatif.c) and the writers
 * (analysis/report/whatif.c): whatif.json, whatif.md (also on stdout),
 * whatif.csv and, with gnuplot, whatif.png and .svg.  Without --out the
 * runs go to a temporary folder that is removed: stdout only.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "rcuprof_report.h"
#include "whatif.h"

#include <errno.h>
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

#define WHATIF_REPS_MAX 10000

struct whatif_args {
    const char *variant, *site, *delays, *threads, *out, *host;
    unsigned reps;
    uint64_t seed, timeout;
    double target_mde, max_time;
};

enum { ARG_VARIANT, ARG_SITE, ARG_DELAYS, ARG_THREADS, ARG_REPS, ARG_OUT,
       ARG_SEED, ARG_TIMEOUT, ARG_TARGET_MDE, ARG_MAX_TIME, ARG_HOST,
       ARG_HELP, ARG_N };

static const struct rcuprof_opt whatif_rows[ARG_N] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variant", 0, "V", "", 0, 0,
                   struct whatif_args, variant, NULL,
                   "the variant to run (one that has the site; any variant for a baseline's driver site)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "site", 0, "S", "", 0, 0,
                   struct whatif_args, site, NULL,
                   "the delay site (a name of the variant's build.delay_sites, or of the baseline workload's); one it lacks is refused with the list it has"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "delays", 0, "LIST", "", 0, 0,
                   struct whatif_args, delays, NULL,
                   "delays in ns per call, e.g. 0,50,100,200: each 0 to 100000, at least 2 distinct, at most 16"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "threads", 0, "LIST", "", 0, 0,
                   struct whatif_args, threads, NULL,
                   "thread counts: 1,2,4 or 4-8 or 1-64:x2"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "reps", 0, "N", "5", 1, WHATIF_REPS_MAX,
                   struct whatif_args, reps, NULL,
                   "blocks (a slope interval needs 2); each runs every (thread count, delay) cell once, and each thread count once unarmed"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct whatif_args, out, NULL,
                   "write DIR/results.jsonl, whatif.md, whatif.json, whatif.csv and the plot (default: stdout only)"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "seed", 0, "N", "", 0, 0xffffffffULL,
                   struct whatif_args, seed, NULL,
                   "seed of the shuffled run order (default: random, recorded)"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "timeout", 0, "S", "120", 1, 86400,
                   struct whatif_args, timeout, NULL,
                   "kill a run after S seconds; it is recorded as failed"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "target-mde", 0, "PCT", "", 0, 0,
                   struct whatif_args, target_mde, rcuprof_cmd_opt_pct,
                   "adaptive: after the --reps blocks, add blocks until every cell's minimum detectable effect is at most PCT %"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "max-time", 0, "DUR", "", 0, 0,
                   struct whatif_args, max_time, rcuprof_cmd_opt_duration,
                   "adaptive: add no block that would end after DUR (90, 15m, 1h30m) from the start"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "host", 0, "NAME", "local", 0, 0,
                   struct whatif_args, host, NULL,
                   "run every point on host NAME (rcuprof host list); a host that defers (a bundle) runs fixed blocks"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};

/* Driver options whatif sets itself. */
static const char *const own_driver[] = { "threads", "delay-site",
                                          "delay-ns", NULL };

static void help(void)
{
    static const struct rcuprof_opt help_row[] = {
        RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                            "this list"),
    };

    printf("usage: rcuprof whatif --variant V --site S --delays LIST --threads LIST [options]\n");
    rcuprof_opts_help(stdout, whatif_rows, ARG_N, 0, NULL);
    printf("driver options, passed to every run (see rcuprof run --help):\n");
    rcuprof_opts_help(stdout, rcuprof_driver_opts, rcuprof_driver_nopts, 0,
                      own_driver);
    rcuprof_opts_help(stdout, help_row, 1, 0, NULL);
}

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];

    if (text == NULL) {
        rcuprof_err("whatif: out of memory");
        return -1;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (rcuprof_write_atomic(path, text, strlen(text)) != 0) {
        rcuprof_err("whatif: cannot write %s (%s): check the folder is writable",
                    path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The analysis of DIR/results.jsonl and every output of it.  0 or an exit
 * code. */
static int whatif_report(const struct rcuprof_whatif_plan *wp,
                         const char *where, const char *out,
                         const char *results, const char *cmd)
{
    rcuprof_whatif_obs *obs = NULL;
    rcuprof_whatif w;
    json_t *header = NULL, *meta, *tl = json_array(), *rep = NULL;
    double delays[RCUPROF_WHATIF_DELAYS_MAX];
    char err[512], *md = NULL, *csv = NULL, *js = NULL, *gp = NULL;
    char gpbuf[PATH_MAX];
    const char *gnuplot;
    size_t n = 0, i;
    int rc = 0;

    memset(&w, 0, sizeof(w));
    for (i = 0; i < wp->ndelays; i++)
        delays[i] = wp->delays[i];
    for (i = 0; i < wp->nthreads; i++)
        json_array_append_new(tl, json_integer(wp->threads[i]));
    if (rcuprof_whatif_load(results, &header, &obs, &n, err, sizeof(err)) != 0) {
        rcuprof_err("whatif: %s", err);
        json_decref(tl);
        return RCUPROF_ERR_SYSTEM;
    }
    if (rcuprof_whatif_analyse(obs, n, delays, wp->ndelays, wp->threads,
                               wp->nthreads, &w, err, sizeof(err)) != 0) {
        rcuprof_err("whatif: %s", err);
        free(obs);
        json_decref(header);
        json_decref(tl);
        return RCUPROF_ERR_SYSTEM;
    }
    free(obs);
    if (strcmp(wp->site, "synchronize") == 0)
        json_array_append_new(w.notes, json_string(
            "synchronize: \"without the site\" means without the grace-period wait itself (its own time is the wait after the flip), not without the writer's other work"));
    if (strcmp(where, "driver") == 0 && w.unarmed_runs > 0)
        json_array_append_new(w.notes, json_string(
            "a driver site: the unarmed cell runs the baseline workload's own loop, not the site's op and batch, so mechanism is the difference of the two loops, not only the site's arming"));
    meta = json_pack("{s:s, s:s, s:s, s:o, s:i, s:I, s:O, s:o, s:s, s:O}",
                     "variant", wp->variant, "site", wp->site,
                     "where", where, "threads", tl, "reps", (int)wp->reps,
                     "seed", (json_int_t)wp->seed, "options", wp->options,
                     "inputs", out != NULL ? json_pack("[s]", results)
                                           : json_array(),
                     "rcuprof_version", RCUPROF_VERSION,
                     "created_unix_ns", json_object_get(header,
                                                        "created_unix_ns"));
    json_decref(header);
    if (meta != NULL && isfinite(wp->target_mde))
        json_object_set_new(meta, "target_mde_pct", json_real(wp->target_mde));
    rep = meta != NULL ? rcuprof_whatif_json(&w, meta) : NULL;
    json_decref(meta);
    rcuprof_whatif_free(&w);
    if (rep == NULL || (md = rcuprof_whatif_markdown(rep)) == NULL
        || (csv = rcuprof_whatif_csv(rep)) == NULL
        || (js = rcuprof_json_text(rep)) == NULL
        || (out != NULL && (gp = rcuprof_whatif_gnuplot(rep, out)) == NULL)) {
        rcuprof_err("whatif: out of memory");
        rc = RCUPROF_ERR_SYSTEM;
        goto done;
    }
    if (strcmp(cmd, "whatif") == 0) {
        fputs(md, stdout);
        fflush(stdout);
    }
    if (out == NULL)
        goto done;
    if (write_text(out, "whatif.json", js) != 0
        || write_text(out, "whatif.md", md) != 0
        || write_text(out, "whatif.csv", csv) != 0
        || write_text(out, "whatif.gp", gp) != 0) {
        rc = RCUPROF_ERR_SYSTEM;
        goto done;
    }
    gnuplot = rcuprof_find_gnuplot(gpbuf, sizeof(gpbuf));
    if (gnuplot == NULL)
        fprintf(stderr, "rcuprof: whatif: gnuplot not found: no plot (install gnuplot-nox); the tables are in %s\n",
                out);
    else if (rcuprof_run_gnuplot(cmd, gnuplot, out, "whatif.gp",
                                 rcuprof_whatif_plots()) != 0)
        rc = RCUPROF_ERR_SYSTEM;
    fprintf(strcmp(cmd, "whatif") == 0 ? stderr : stdout,
            "%s: %s/whatif.md, whatif.json, whatif.csv%s\n", cmd, out,
            gnuplot != NULL && rc == 0 ? ", whatif.png (and .svg)" : "");
 done:
    free(md);
    free(csv);
    free(js);
    free(gp);
    json_decref(rep);
    return rc;
}

/* Where the site is, from the file's first point with a build record:
 * "library" when the build lists it in delay_sites, else "driver". */
static const char *site_where(const char *results, const char *site)
{
    FILE *f = fopen(results, "r");
    char *buf = NULL;
    size_t cap = 0;
    const char *where = "library";
    ssize_t len;

    if (f == NULL)
        return where;
    while ((len = getline(&buf, &cap, f)) > 0) {
        json_t *j = json_loadb(buf, (size_t)len, 0, NULL);
        json_t *b = json_object_get(json_object_get(json_object_get(
                        j, "result"), "build"), "delay_sites"), *x;
        size_t i;

        if (json_is_array(b)) {
            where = "driver";
            json_array_foreach(b, i, x)
                if (json_is_string(x)
                    && strcmp(json_string_value(x), site) == 0)
                    where = "library";
            json_decref(j);
            break;
        }
        json_decref(j);
    }
    free(buf);
    fclose(f);
    return where;
}

int rcuprof_whatif_report_file(const char *cmd, const char *results,
                               const char *out)
{
    rcuprof_whatif_obs *obs = NULL;
    struct rcuprof_whatif_plan wp;
    json_t *header = NULL, *spec, *wi, *x;
    unsigned delays[RCUPROF_WHATIF_DELAYS_MAX], threads[RCUPROF_THREADS_MAX];
    char err[512];
    size_t n = 0, i;
    int rc = RCUPROF_ERR_USAGE;

    memset(&wp, 0, sizeof(wp));
    if (rcuprof_whatif_load(results, &header, &obs, &n, err, sizeof(err))
        != 0) {
        rcuprof_err("%s: %s", cmd, err);
        return RCUPROF_ERR_USAGE;
    }
    free(obs);
    spec = json_object_get(header, "spec");
    wi = json_object_get(spec, "whatif");
    wp.variant = json_string_value(json_array_get(json_object_get(
                     spec, "variants"), 0));
    wp.site = json_string_value(json_object_get(wi, "site"));
    json_array_foreach(json_object_get(wi, "delays_ns"), i, x)
        if (i < RCUPROF_WHATIF_DELAYS_MAX && json_is_integer(x))
            delays[wp.ndelays++] = (unsigned)json_integer_value(x);
    json_array_foreach(json_object_get(spec, "threads"), i, x)
        if (i < RCUPROF_THREADS_MAX && json_is_integer(x))
            threads[wp.nthreads++] = (unsigned)json_integer_value(x);
    wp.delays = delays;
    wp.threads = threads;
    wp.reps = (unsigned)json_integer_value(json_object_get(spec, "reps"));
    wp.seed = (uint64_t)json_integer_value(json_object_get(spec, "seed"));
    wp.options = json_object_get(spec, "options");
    x = json_object_get(spec, "target_mde_pct");
    wp.target_mde = json_is_number(x) ? json_number_value(x) : NAN;
    if (wp.variant == NULL || wp.site == NULL || wp.ndelays < 2
        || wp.nthreads == 0 || !json_is_object(wp.options)) {
        rcuprof_err("%s: %s: its header's spec lacks the whatif's variant, site, delays, threads or options: give a results file as rcuprof whatif wrote it",
                    cmd, results);
        goto out;
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        rcuprof_err("%s: cannot create %s (%s): check the parent folder exists and is writable",
                    cmd, out, strerror(errno));
        rc = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    rc = whatif_report(&wp, site_where(results, wp.site), out, results, cmd);
 out:
    json_decref(header);
    return rc;
}

/* A temporary folder's results file and the folder, when there was no
 * --out. */
static void remove_tmp(const char *dir)
{
    char path[PATH_MAX];

    snprintf(path, sizeof(path), "%s/results.jsonl", dir);
    unlink(path);
    rmdir(dir);
}

int rcuprof_cmd_whatif(int argc, char **argv)
{
    struct whatif_args a = { 0 };
    unsigned char seen[ARG_N] = { 0 };
    json_t *options = json_object(), *known = NULL;
    struct rcuprof_cmd_opts co = { .cmd = "whatif", .rows = whatif_rows,
                                   .n = ARG_N, .target = &a,
                                   .driver = options, .seen = seen };
    const struct rcuprof_opt *action;
    struct rcuprof_whatif_plan wp;
    unsigned delays[RCUPROF_WHATIF_DELAYS_MAX], threads[RCUPROF_THREADS_MAX];
    char err[1024], drv[PATH_MAX], results[PATH_MAX], tmpdir[PATH_MAX] = "";
    char variant[128];
    const char *where = "library", *workload;
    size_t i;
    int rc, first, run_rc;

    memset(&wp, 0, sizeof(wp));
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc == 1)
        help();
    if (rc != 0) {
        json_decref(options);
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    rc = RCUPROF_ERR_USAGE;
    if (first < argc) {
        rcuprof_err("whatif: unexpected argument '%s': see 'rcuprof whatif --help'",
                    argv[first]);
        goto out;
    }
    for (i = 1; own_driver[i] != NULL; i++)
        if (json_object_get(options, own_driver[i]) != NULL) {
            rcuprof_err("whatif: --%s is whatif's to set: give --site and --delays instead",
                        own_driver[i]);
            goto out;
        }
    if (a.variant == NULL || a.site == NULL || a.delays == NULL
        || a.threads == NULL) {
        rcuprof_err("whatif: --variant, --site, --delays and --threads are required: see 'rcuprof whatif --help'");
        goto out;
    }
    if (rcuprof_parse_delays("whatif", "delays", a.delays, delays,
                             &wp.ndelays) != 0)
        goto out;
    if (rcuprof_parse_threads(a.threads, threads, RCUPROF_THREADS_MAX,
                              &wp.nthreads, err, sizeof(err)) != 0) {
        rcuprof_err("whatif: --threads: %s", err);
        goto out;
    }
    if (seen[ARG_MAX_TIME] && !seen[ARG_TARGET_MDE]) {
        rcuprof_err("whatif: --max-time bounds the blocks --target-mde adds: give --target-mde PCT too");
        goto out;
    }
    wp.target_mde = seen[ARG_TARGET_MDE] ? a.target_mde : NAN;
    if (isfinite(wp.target_mde) && a.reps < 3) {
        rcuprof_err("whatif: --target-mde: the --reps blocks are its first stage and need at least 3 (5 to 10 recommended): raise --reps");
        goto out;
    }
    if (a.out != NULL) {
        if (snprintf(results, sizeof(results), "%s/results.jsonl", a.out)
            >= (int)sizeof(results)) {
            rcuprof_err("whatif: --out '%s' is too long: use a shorter path",
                        a.out);
            goto out;
        }
        if (access(results, F_OK) == 0) {
            rcuprof_err("whatif: %s exists: give another --out (a whatif is not resumed)",
                        results);
            goto out;
        }
    }
    snprintf(variant, sizeof(variant), "%s", a.variant);
    if (rcuprof_variant_name_ok(variant))
        rcuprof_variant_canon(variant);
    if ((known = rcuprof_variants_load(err, sizeof(err))) == NULL) {
        rcuprof_err("%s", err);
        goto out;
    }
    if (rcuprof_variant_usable("whatif", variant, known, drv, sizeof(drv))
        != 0)
        goto out;
    workload = json_string_value(json_object_get(options, "workload"));
    if ((rc = rcuprof_delay_sites_check("whatif", "site", drv, variant,
                                        &a.site, 1,
                                        workload != NULL ? workload : "fetch",
                                        &where)) != 0)
        goto out;
    if (!seen[ARG_SEED]) {
        uint32_t s;

        if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
            s = (uint32_t)time(NULL) ^ (uint32_t)getpid();
        a.seed = s;
    }
    if (a.out == NULL) {
        const char *t = getenv("TMPDIR");

        snprintf(tmpdir, sizeof(tmpdir), "%s/rcuprof-whatif-XXXXXX",
                 t != NULL && t[0] != '\0' ? t : "/tmp");
        if (mkdtemp(tmpdir) == NULL) {
            rcuprof_err("whatif: cannot create a temporary folder %s (%s): give --out DIR",
                        tmpdir, strerror(errno));
            tmpdir[0] = '\0';
            rc = RCUPROF_ERR_SYSTEM;
            goto out;
        }
        snprintf(results, sizeof(results), "%s/results.jsonl", tmpdir);
    }
    wp.variant = variant;
    wp.site = a.site;
    wp.dir = a.out != NULL ? a.out : tmpdir;
    wp.threads = threads;
    wp.delays = delays;
    wp.reps = a.reps;
    wp.seed = a.seed;
    wp.timeout = a.timeout;
    wp.host = a.host;
    wp.max_time = a.max_time;
    wp.options = options;
    run_rc = rcuprof_sweep_whatif(&wp);
    if (run_rc != RCUPROF_OK && run_rc != RCUPROF_ERR_RUN) {
        rc = run_rc;
        goto out;
    }
    rc = whatif_report(&wp, where, a.out, results, "whatif");
    if (rc == 0)
        rc = run_rc;
 out:
    if (tmpdir[0] != '\0')
        remove_tmp(tmpdir);
    json_decref(known);
    json_decref(options);
    return rc;
}
