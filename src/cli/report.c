/*
 * `rcuprof report RESULTS... --out DIR`: every output of a sweep from its
 * results file(s): results.md (compare's compact table), results-wide.md
 * (its wide one), results.csv, results.json (what compare prints: the
 * comparison, or the scaling report of one build; the JSON also with each
 * variant's Universal Scalability Law fit and scaling), scaling.md and
 * scaling.csv (the scaling report of every variant) and, through gnuplot,
 * cost.{png,svg} (per-op cost in ns/op against threads, intervals as
 * error bars, log2 axis), change.{png,svg} (each variant's change against
 * the baseline), throughput.{png,svg} (with the USL fit where there is
 * one), efficiency.{png,svg} and, with probe figures, probes.{png,svg}.
 * Each file is written whole or not at all; plots.gp stays beside them so
 * a plot can be restyled by hand.  A whatif's results file, given alone,
 * gets whatif's outputs instead (rcuprof_whatif_report_file).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "rcuprof_report.h"
#include "results.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct report_args {
    const char *out, *baseline;
    int metric, by_state;
};

static const struct rcuprof_opt report_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct report_args, out, NULL,
                   "write results.md (compact), results-wide.md, results.csv, results.json, scaling.md, scaling.csv and the plots here"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "baseline", 0, "V", "", 0, 0,
                   struct report_args, baseline, NULL,
                   "the variant the others are compared with (default: the first)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "metric", 0, "M", "wall_ns_per_op",
                   0, 0, struct report_args, metric, rcuprof_cmd_opt_metric,
                   "wall_ns_per_op or cpu_ns_per_op"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "by-state", 0, "", "", 0, 1,
                   struct report_args, by_state, NULL,
                   "results.md, .csv and .json by thread count and machine state, as compare --by-state (scaling and plots stay by thread count)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define REPORT_NROWS (sizeof(report_rows) / sizeof(report_rows[0]))

static void help(void)
{
    printf("usage: rcuprof report RESULTS... --out DIR [options]\n");
    rcuprof_opts_help_item(stdout, "RESULTS",
                           "results.jsonl files of rcuprof sweep, or one of rcuprof whatif (then whatif's outputs: whatif.md, .json, .csv and the plot)\n");
    rcuprof_opts_help(stdout, report_rows, REPORT_NROWS, 0, NULL);
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

const char *rcuprof_find_gnuplot(char *buf, size_t n)
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

/* Run gnuplot on DIR/SCRIPT; rename the plots into place on success. */
int rcuprof_run_gnuplot(const char *cmd, const char *gp, const char *dir,
                        const char *script_name, const char *const *outs)
{
    char script[PATH_MAX], tmp[PATH_MAX], fin[PATH_MAX], msg[512];
    char *argv[3];
    struct rcuprof_driver_result r;
    size_t i;
    int ok;

    snprintf(script, sizeof(script), "%s/%s", dir, script_name);
    argv[0] = (char *)gp;
    argv[1] = script;
    argv[2] = NULL;
    if (rcuprof_driver_spawn(gp, argv, 60, &r) != 0) {
        rcuprof_err("%s: cannot start %s: check it is executable", cmd, gp);
        return -1;
    }
    ok = r.exited && r.status == 0 && !r.timed_out;
    if (!ok) {
        char *nl;

        snprintf(msg, sizeof(msg), "%s", r.err != NULL ? r.err : "");
        while ((nl = strchr(msg, '\n')) != NULL)
            *nl = ' ';
        rcuprof_err("%s: gnuplot failed on %s (%s%.300s): the tables are written; check the gnuplot install",
                    cmd, script, r.timed_out ? "timed out " : "", msg);
    }
    rcuprof_driver_result_free(&r);
    for (i = 0; outs[i] != NULL; i++) {
        snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, outs[i]);
        snprintf(fin, sizeof(fin), "%s/%s", dir, outs[i]);
        if (!ok || rename(tmp, fin) != 0) {
            unlink(tmp);
            ok = 0;
        }
    }
    return ok ? 0 : -1;
}

/* What one report is made of: the analysis, then the texts it renders. */
struct report {
    struct rcuprof_analysed an;
    char *md, *md_wide, *csv, *js, *scaling_md, *scaling_csv, *script;
};

static void report_free(struct report *r)
{
    free(r->md);
    free(r->md_wide);
    free(r->csv);
    free(r->js);
    free(r->scaling_md);
    free(r->scaling_csv);
    free(r->script);
    rcuprof_analysed_free(&r->an);
}

/*
 * Render: every text of the report, by the writers.  results.* are what
 * compare prints (the comparison, or one build's scaling report) and
 * results.json carries each variant's USL fit and scaling; scaling.* are
 * the scaling report of every variant.  0, or an exit code.
 */
static int report_render(struct report *r, const char *dir)
{
    const struct rcuprof_analysed *an = &r->an;
    json_t *j, *uj = json_object(), *sc;
    size_t v;

    sc = rcuprof_scaling_json(an->scaling, an->nscaling, &an->t);
    if (an->compared) {
        j = rcuprof_table_json(an->cmp, &an->rs);
        if (j != NULL)
            json_object_set(j, "scaling", json_object_get(sc, "scaling"));
        json_decref(sc);
    } else {
        j = sc;
    }
    for (v = 0; j != NULL && uj != NULL && v < an->nscaling; v++)
        json_object_set_new(uj, an->t.variants[v],
                            rcuprof_usl_json(&an->scaling[v].usl));
    if (j != NULL && uj != NULL)
        json_object_set_new(j, "usl", uj);
    else
        json_decref(uj);
    r->scaling_md = rcuprof_scaling_markdown(an->scaling, an->nscaling,
                                             &an->t, 0);
    r->scaling_csv = rcuprof_scaling_csv(an->scaling, an->nscaling);
    r->md = an->compared ? rcuprof_table_markdown(an->cmp)
                         : (r->scaling_md != NULL ? strdup(r->scaling_md)
                                                  : NULL);
    r->md_wide = an->compared ? rcuprof_table_markdown_wide(an->cmp)
                              : (r->md != NULL ? strdup(r->md) : NULL);
    r->csv = an->compared ? rcuprof_table_csv(an->cmp)
                          : (r->scaling_csv != NULL ? strdup(r->scaling_csv)
                                                    : NULL);
    r->js = rcuprof_json_text(j);
    r->script = rcuprof_report_gnuplot(&an->t, an->scaling, dir);
    json_decref(j);
    if (r->md == NULL || r->md_wide == NULL || r->csv == NULL || r->js == NULL
        || r->scaling_md == NULL || r->scaling_csv == NULL
        || r->script == NULL) {
        rcuprof_err("report: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    return 0;
}

/* Write: the tables atomically, then the plots through gnuplot. */
static int report_write(struct report *r, const char *dir)
{
    char gpbuf[PATH_MAX];
    const char *gp;

    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        rcuprof_err("report: cannot create %s (%s): check the parent folder exists and is writable",
                    dir, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    if (write_text(dir, "results.md", r->md) != 0
        || write_text(dir, "results-wide.md", r->md_wide) != 0
        || write_text(dir, "results.csv", r->csv) != 0
        || write_text(dir, "results.json", r->js) != 0
        || write_text(dir, "scaling.md", r->scaling_md) != 0
        || write_text(dir, "scaling.csv", r->scaling_csv) != 0
        || write_text(dir, "plots.gp", r->script) != 0)
        return RCUPROF_ERR_SYSTEM;
    gp = rcuprof_find_gnuplot(gpbuf, sizeof(gpbuf));
    if (gp == NULL)
        fprintf(stderr, "rcuprof: report: gnuplot not found: no plots (install gnuplot-nox); the tables are in %s\n",
                dir);
    else if (rcuprof_run_gnuplot("report", gp, dir, "plots.gp",
                                 rcuprof_report_plots(&r->an.t)) != 0)
        return RCUPROF_ERR_SYSTEM;
    printf("report: %s/results.md, results-wide.md, results.csv, results.json, scaling.md, scaling.csv%s%s\n",
           dir,
           gp != NULL ? ", cost.png, change.png, throughput.png, efficiency.png"
                      : "",
           gp == NULL ? "" : r->an.t.have_probes ? ", probes.png (and .svg)"
                                                 : " (and .svg)");
    return 0;
}

/* Whether path's first line is the header of a whatif's results file
 * (spec.whatif); 0 when not, or unreadable (the loader then says why). */
static int is_whatif_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int yes = 0;

    if (f == NULL)
        return 0;
    if ((len = getline(&buf, &cap, f)) > 0) {
        json_t *h = json_loadb(buf, (size_t)len, 0, NULL);

        yes = json_object_get(json_object_get(h, "spec"), "whatif") != NULL;
        json_decref(h);
    }
    free(buf);
    fclose(f);
    return yes;
}

int rcuprof_cmd_report(int argc, char **argv)
{
    struct report_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "report", .rows = report_rows,
                                   .n = REPORT_NROWS, .target = &a };
    const struct rcuprof_opt *action;
    struct report r;
    int rc, first, i;

    memset(&r, 0, sizeof(r));
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc != 0) {
        if (rc > 0)
            help();
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    if (first >= argc) {
        rcuprof_err("report: give one or more results files (DIR/results.jsonl of rcuprof sweep)");
        return RCUPROF_ERR_USAGE;
    }
    if (a.out == NULL) {
        rcuprof_err("report: --out DIR is required: the folder for the tables and plots");
        return RCUPROF_ERR_USAGE;
    }
    for (i = first; i < argc; i++)
        if (is_whatif_file(argv[i])) {
            /* A whatif's file alone: its outputs made again, as whatif
             * writes them; never pooled with other runs. */
            if (argc - first > 1) {
                rcuprof_err("report: %s is a whatif's results file: give it alone (report then writes whatif's outputs), or only results files of rcuprof sweep",
                            argv[i]);
                return RCUPROF_ERR_USAGE;
            }
            if (a.baseline != NULL || a.by_state
                || a.metric != RCUPROF_METRIC_WALL) {
                rcuprof_err("report: %s is a whatif's results file: --baseline, --metric and --by-state are for results files of rcuprof sweep",
                            argv[i]);
                return RCUPROF_ERR_USAGE;
            }
            return rcuprof_whatif_report_file("report", argv[i], a.out);
        }
    rc = rcuprof_cmd_analyse("report", argv + first, (size_t)(argc - first),
                             a.baseline, a.metric, 1, a.by_state, &r.an);
    if (rc == 0)
        rc = report_render(&r, a.out);
    if (rc == 0)
        rc = report_write(&r, a.out);
    report_free(&r);
    return rc;
}
