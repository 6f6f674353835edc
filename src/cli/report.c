/*
 * `rcuprof report RESULTS... --out DIR`: every output of a sweep from its
 * results file(s): results.md, results.csv, results.json (compare's table,
 * plus a Universal Scalability Law fit per variant) and, through gnuplot,
 * cost.{png,svg} (per-op cost against threads, interval bands, log2 axis)
 * and throughput.{png,svg} (with the USL fit where there is one).  Each
 * file is written whole or not at all; plots.gp stays beside them so a
 * plot can be restyled by hand.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USL_MIN_COUNTS 5

struct report_args {
    const char *out, *baseline;
    int metric;
};

static const struct rcuprof_opt report_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct report_args, out, NULL,
                   "write results.md, results.csv, results.json and the plots here"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "baseline", 0, "V", "", 0, 0,
                   struct report_args, baseline, NULL,
                   "the variant the others are compared with (default: the first)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "metric", 0, "M", "wall_ns_per_op",
                   0, 0, struct report_args, metric, rcuprof_cmd_opt_metric,
                   "wall_ns_per_op or cpu_ns_per_op"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define REPORT_NROWS (sizeof(report_rows) / sizeof(report_rows[0]))

static void help(void)
{
    printf("usage: rcuprof report RESULTS... --out DIR [options]\n");
    printf("  RESULTS                   results.jsonl files of rcuprof sweep\n");
    rcuprof_opts_help(stdout, report_rows, REPORT_NROWS, 0, NULL);
}

/* One variant's USL fit over its runs at or below the CPU count. */
static json_t *usl_json(const rcuprof_results *rs, const rcuprof_table *t,
                        size_t v, rcuprof_stats_usl *m, int *fitted)
{
    double *x = malloc((rs->npoints + 1) * sizeof(*x));
    double *y = malloc((rs->npoints + 1) * sizeof(*y));
    size_t i, n = 0, counts = 0;
    json_t *j;
    int rc;

    *fitted = 0;
    if (x == NULL || y == NULL) {
        free(x);
        free(y);
        return json_pack("{s:b, s:s}", "fitted", 0, "reason", "out of memory");
    }
    for (i = 0; i < t->nthreads; i++)
        counts += t->cpus_allowed > 0 && t->threads[i] <= t->cpus_allowed
                  && t->cells[i * t->nvariants + v].n > 0;
    if (t->cpus_allowed == 0 || counts < USL_MIN_COUNTS) {
        char why[160];

        if (t->cpus_allowed == 0)
            snprintf(why, sizeof(why), "not fitted: the CPU count is not in the results");
        else
            snprintf(why, sizeof(why),
                     "not fitted: needs %d distinct thread counts at or below the %u CPUs, has %zu",
                     USL_MIN_COUNTS, t->cpus_allowed, counts);
        free(x);
        free(y);
        return json_pack("{s:b, s:s}", "fitted", 0, "reason", why);
    }
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant == v && p->status == RCUPROF_POINT_OK
            && p->threads <= t->cpus_allowed && p->result.ops_per_s > 0) {
            x[n] = p->threads;
            y[n++] = p->result.ops_per_s;
        }
    }
    rc = rcuprof_stats_usl_fit(x, y, n, 0.95, m);
    free(x);
    free(y);
    if (rc != RCUPROF_STATS_OK) {
        char why[160];

        snprintf(why, sizeof(why), "not fitted: %s", rcuprof_stats_strerror(rc));
        return json_pack("{s:b, s:s}", "fitted", 0, "reason", why);
    }
    *fitted = 1;
#define N(x) (isfinite(x) ? json_real(x) : json_null())
    j = json_pack("{s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                  "s:o, s:o}",
                  "fitted", 1, "points", (json_int_t)m->n_points,
                  "lambda", N(m->lambda), "sigma", N(m->sigma),
                  "kappa", N(m->kappa), "sigma_lo", N(m->sigma_lo),
                  "sigma_hi", N(m->sigma_hi), "kappa_lo", N(m->kappa_lo),
                  "kappa_hi", N(m->kappa_hi), "r2", N(m->r2),
                  "peak_threads", N(m->n_peak), "peak_ops_per_s", N(m->x_peak),
                  "lambda_se", N(m->se_lambda));
#undef N
    return j;
}

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];

    if (text == NULL)
        return -1;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (rcuprof_write_atomic(path, text, strlen(text)) != 0) {
        rcuprof_err("report: cannot write %s (%s): check the folder is writable",
                    path, strerror(errno));
        return -1;
    }
    return 0;
}

static const char *find_gnuplot(char *buf, size_t n)
{
    const char *path = getenv("PATH"), *p, *e;

    for (p = path; p != NULL && *p != '\0'; p = *e ? e + 1 : e) {
        e = strchr(p, ':');
        if (e == NULL)
            e = p + strlen(p);
        snprintf(buf, n, "%.*s/gnuplot", (int)(e - p), p);
        if (e > p && access(buf, X_OK) == 0)
            return buf;
    }
    return NULL;
}

/* A gnuplot single-quoted string: ' doubles. */
static void gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/*
 * Median over the ok points of (variant, threads) of a probe figure
 * (0: retries per acquisition, 1: slow-path fetches per 1k); NAN if none
 * of them carries it.
 */
static double probe_median(const rcuprof_results *rs, const char *variant,
                           unsigned threads, int which)
{
    double *v = malloc(sizeof(double) * (rs->npoints + 1)), m = NAN;
    size_t i, n = 0;

    if (v == NULL)
        return NAN;
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];
        double x = which == 0 ? p->result.probe_retries
                              : p->result.probe_slow;

        if (p->status == RCUPROF_POINT_OK && p->threads == threads
            && strcmp(rs->variants[p->variant], variant) == 0 && isfinite(x))
            v[n++] = x;
    }
    if (n > 0 && rcuprof_stats_quantile(v, n, 0.5, &m) != 0)
        m = NAN;
    free(v);
    return m;
}

static char *plot_script(const rcuprof_table *t, const char *dir,
                         const rcuprof_stats_usl *usl, const int *fitted,
                         const rcuprof_results *rs, int *have_probes)
{
    char *text = NULL;
    size_t len = 0, ti, v;
    FILE *f = open_memstream(&text, &len);
    unsigned maxt;

    if (f == NULL)
        return NULL;
    maxt = t->threads[t->nthreads - 1];
    fprintf(f, "# rcuprof report: plots of %s (gnuplot %s)\n",
            rcuprof_metric_name(t->metric), "5");
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$d%zu << EOD\n# threads usecs lo hi mops lo hi\n", v);
        for (ti = 0; ti < t->nthreads; ti++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            double lo = isfinite(c->s.mean_lo) ? c->s.mean_lo : c->s.mean;
            double hi = isfinite(c->s.mean_hi) ? c->s.mean_hi : c->s.mean;
            double tl = isfinite(c->tput_lo) ? c->tput_lo : c->tput_mean;
            double th = isfinite(c->tput_hi) ? c->tput_hi : c->tput_mean;

            if (c->n == 0)
                continue;
            fprintf(f, "%u %.9g %.9g %.9g %.9g %.9g %.9g\n", t->threads[ti],
                    c->s.mean / 1000, lo / 1000, hi / 1000,
                    c->tput_mean / 1e6, tl / 1e6, th / 1e6);
        }
        fprintf(f, "EOD\n");
        if (fitted[v])
            fprintf(f, "usl%zu(x) = %.12g * x / (1 + %.12g * (x - 1) + %.12g * x * (x - 1)) / 1e6\n",
                    v, usl[v].lambda, usl[v].sigma, usl[v].kappa);
    }
    /* Probe-layer figures, where the results carry them. */
    *have_probes = 0;
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "$p%zu << EOD\n# threads retries_per_million_acq slow_per_kfetch\n", v);
        for (ti = 0; ti < t->nthreads; ti++) {
            double r = probe_median(rs, t->variants[v], t->threads[ti], 0);
            double s = probe_median(rs, t->variants[v], t->threads[ti], 1);

            if (isfinite(r) || isfinite(s)) {
                fprintf(f, "%u %.9g %.9g\n", t->threads[ti],
                        isfinite(r) ? r * 1e6 : NAN, isfinite(s) ? s : NAN);
                *have_probes = 1;
            }
        }
        fprintf(f, "EOD\n");
    }
    fprintf(f, "dir = ");
    gp_quote(f, dir);
    fprintf(f, "\n"
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "    pngterm = 'pngcairo size 900,600 noenhanced font \",10\"'\n"
            "} else {\n"
            "    pngterm = 'png truecolor size 900,600 noenhanced'\n"
            "}\n"
            "set logscale x 2\nset xrange [%g:%g]\nset xtics (",
            t->threads[0] / 1.25, maxt * 1.25);
    for (ti = 0; ti < t->nthreads; ti++)
        fprintf(f, "%s%u", ti ? ", " : "", t->threads[ti]);
    fprintf(f, ")\nset xlabel 'threads'\nset grid\nset key top left\n");
    if (t->cpus_allowed > 0 && t->cpus_allowed < maxt)
        fprintf(f, "set arrow 1 from %u, graph 0 to %u, graph 1 nohead dt 2\n"
                "set label 1 '%u CPUs' at %u, graph 0.95 offset 0.5, 0\n",
                t->cpus_allowed, t->cpus_allowed, t->cpus_allowed,
                t->cpus_allowed);
    fprintf(f, "do for [fmt in 'png svg'] {\n"
            "    if (fmt eq 'png') { eval('set terminal '.pngterm) } "
            "else { set terminal svg size 900,600 dynamic noenhanced }\n"
            "    set output dir.'/cost.'.fmt.'.tmp'\n"
            "    set ylabel '%s per op (usecs), mean and 95%% interval'\n"
            "    set yrange [0:*]\n"
            "    set title 'per-op cost against threads (%s)'\n    plot ",
            t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "wall time",
            rcuprof_metric_name(t->metric));
    for (v = 0; v < t->nvariants; v++)
        fprintf(f, "%s$d%zu using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc %zu notitle, "
                "$d%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s'",
                v ? ", \\\n        " : "", v, v + 1, v, v + 1,
                t->variants[v]);
    fprintf(f, "\n    set output dir.'/throughput.'.fmt.'.tmp'\n"
            "    set ylabel 'throughput (M ops/s, all threads)'\n"
            "    set title 'throughput against threads'\n    plot ");
    for (v = 0; v < t->nvariants; v++) {
        fprintf(f, "%s$d%zu using 1:6:7 with filledcurves fs transparent solid 0.2 noborder lc %zu notitle, "
                "$d%zu using 1:5 with linespoints lw 2 pt 7 lc %zu title '%s'",
                v ? ", \\\n        " : "", v, v + 1, v, v + 1,
                t->variants[v]);
        if (fitted[v])
            fprintf(f, ", \\\n        usl%zu(x) with lines dt 3 lc %zu title '%s USL fit'",
                    v, v + 1, t->variants[v]);
    }
    if (*have_probes) {
        fprintf(f, "\n    set output dir.'/probes.'.fmt.'.tmp'\n"
                "    set multiplot layout 1,2 title 'probe layer, median over blocks'\n"
                "    set ylabel 'read-side retries per million acquisitions'\n"
                "    set title 'RCU retries'\n    plot ");
        for (v = 0; v < t->nvariants; v++)
            fprintf(f, "%s$p%zu using 1:2 with linespoints lw 2 pt 7 lc %zu title '%s'",
                    v ? ", \\\n        " : "", v, v + 1, t->variants[v]);
        fprintf(f, "\n    set ylabel 'fetches that missed the cache, per 1k fetches'\n"
                "    set title 'slow-path fetches'\n    plot ");
        for (v = 0; v < t->nvariants; v++)
            fprintf(f, "%s$p%zu using 1:3 with linespoints lw 2 pt 7 lc %zu title '%s'",
                    v ? ", \\\n        " : "", v, v + 1, t->variants[v]);
        fprintf(f, "\n    unset multiplot");
    }
    fprintf(f, "\n    unset output\n}\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Run gnuplot on DIR/plots.gp; rename the plots into place on success. */
static int run_gnuplot(const char *gp, const char *dir, int have_probes)
{
    static const char *const outs[] = { "cost.png", "cost.svg",
                                        "throughput.png", "throughput.svg",
                                        "probes.png", "probes.svg" };
    char script[PATH_MAX], tmp[PATH_MAX], fin[PATH_MAX], msg[512];
    char *argv[3];
    struct rcuprof_driver_result r;
    size_t i;
    int ok;

    snprintf(script, sizeof(script), "%s/plots.gp", dir);
    argv[0] = (char *)gp;
    argv[1] = script;
    argv[2] = NULL;
    if (rcuprof_driver_spawn(gp, argv, 60, &r) != 0) {
        rcuprof_err("report: cannot start %s: check it is executable", gp);
        return -1;
    }
    ok = r.exited && r.status == 0 && !r.timed_out;
    if (!ok) {
        char *nl;

        snprintf(msg, sizeof(msg), "%s", r.err != NULL ? r.err : "");
        while ((nl = strchr(msg, '\n')) != NULL)
            *nl = ' ';
        rcuprof_err("report: gnuplot failed on %s (%s%.300s): the tables are written; check the gnuplot install",
                    script, r.timed_out ? "timed out " : "", msg);
    }
    rcuprof_driver_result_free(&r);
    for (i = 0; i < sizeof(outs) / sizeof(outs[0]) - (have_probes ? 0 : 2); i++) {
        snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, outs[i]);
        snprintf(fin, sizeof(fin), "%s/%s", dir, outs[i]);
        if (!ok || rename(tmp, fin) != 0) {
            unlink(tmp);
            ok = 0;
        }
    }
    return ok ? 0 : -1;
}

int rcuprof_cmd_report(int argc, char **argv)
{
    struct report_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "report", .rows = report_rows,
                                   .n = REPORT_NROWS, .target = &a };
    const struct rcuprof_opt *action;
    const char *baseline, *dir, *gp;
    int metric, rc = RCUPROF_ERR_USAGE, have_probes = 0, optind;
    int *fitted = NULL;
    rcuprof_stats_usl *usl = NULL;
    rcuprof_results rs;
    rcuprof_table t;
    char err[1024], gpbuf[PATH_MAX], *md = NULL, *csv = NULL, *js = NULL;
    char *script = NULL;
    json_t *j = NULL, *uj;
    size_t v;

    memset(&rs, 0, sizeof(rs));
    memset(&t, 0, sizeof(t));
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &optind);
    if (rc != 0) {
        if (rc > 0)
            help();
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    rc = RCUPROF_ERR_USAGE;
    baseline = a.baseline;
    dir = a.out;
    metric = a.metric;
    if (optind >= argc) {
        rcuprof_err("report: give one or more results files (DIR/results.jsonl of rcuprof sweep)");
        return RCUPROF_ERR_USAGE;
    }
    if (dir == NULL) {
        rcuprof_err("report: --out DIR is required: the folder for the tables and plots");
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_results_load_all(&rs, argv + optind, (size_t)(argc - optind),
                                 "report") != 0)
        goto done;
    if (rcuprof_table_build(&rs, baseline, metric, &t, err, sizeof(err))
        != 0) {
        rcuprof_err("report: %s", err);
        goto done;
    }
    rc = RCUPROF_ERR_SYSTEM;
    usl = calloc(t.nvariants, sizeof(*usl));
    fitted = calloc(t.nvariants, sizeof(*fitted));
    j = rcuprof_table_json(&t, &rs);
    uj = json_object();
    if (usl == NULL || fitted == NULL || j == NULL || uj == NULL) {
        json_decref(uj);
        rcuprof_err("report: out of memory");
        goto done;
    }
    for (v = 0; v < t.nvariants; v++)
        json_object_set_new(uj, t.variants[v],
                            usl_json(&rs, &t, v, &usl[v], &fitted[v]));
    json_object_set_new(j, "usl", uj);
    md = rcuprof_table_markdown(&t);
    csv = rcuprof_table_csv(&t);
    js = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
    script = plot_script(&t, dir, usl, fitted, &rs, &have_probes);
    if (md == NULL || csv == NULL || js == NULL || script == NULL) {
        rcuprof_err("report: out of memory");
        goto done;
    }
    {
        char *s = realloc(js, strlen(js) + 2);

        if (s == NULL) {
            rcuprof_err("report: out of memory");
            goto done;
        }
        js = strcat(s, "\n");
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        rcuprof_err("report: cannot create %s (%s): check the parent folder exists and is writable",
                    dir, strerror(errno));
        goto done;
    }
    if (write_text(dir, "results.md", md) != 0
        || write_text(dir, "results.csv", csv) != 0
        || write_text(dir, "results.json", js) != 0
        || write_text(dir, "plots.gp", script) != 0)
        goto done;
    gp = find_gnuplot(gpbuf, sizeof(gpbuf));
    if (gp == NULL) {
        fprintf(stderr, "rcuprof: report: gnuplot not found: no plots (install gnuplot-nox); the tables are in %s\n",
                dir);
    } else if (run_gnuplot(gp, dir, have_probes) != 0) {
        goto done;
    }
    printf("report: %s/results.md, results.csv, results.json%s%s\n", dir,
           gp != NULL ? ", cost.png, throughput.png" : "",
           gp == NULL ? "" : have_probes ? ", probes.png (and .svg)"
                                          : " (and .svg)");
    rc = RCUPROF_OK;
 done:
    free(md);
    free(csv);
    free(js);
    free(script);
    free(usl);
    free(fitted);
    json_decref(j);
    rcuprof_table_free(&t);
    rcuprof_results_free(&rs);
    return rc;
}
