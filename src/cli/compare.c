/*
 * `rcuprof compare RESULTS...`: the A/B table of one or more results files
 * (analysis/compare.c computes it) as markdown (compact, or wide), CSV or
 * JSON; for results of one variant, its scaling report
 * (analysis/scaling.c).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "rcuprof_report.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>

/* --format: md (compact), md-wide, csv or json. */
static int opt_format(void *target, const struct rcuprof_opt *row,
                      const char *arg, char *err, size_t n)
{
    if (strcmp(arg, "md") != 0 && strcmp(arg, "md-wide") != 0
        && strcmp(arg, "csv") != 0 && strcmp(arg, "json") != 0) {
        snprintf(err, n, "--format '%s': give md, md-wide, csv or json",
                 arg);
        return -1;
    }
    *(const char **)((char *)target + row->off) = arg;
    return 0;
}

struct compare_args {
    const char *baseline, *format, *out, *aa;
    int metric, scaling, by_state, notes;
};

static const struct rcuprof_opt compare_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "baseline", 0, "V", "", 0, 0,
                   struct compare_args, baseline, NULL,
                   "the variant the others are compared with (default: the first)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "metric", 0, "M", "wall_ns_per_op",
                   0, 0, struct compare_args, metric, rcuprof_cmd_opt_metric,
                   "wall_ns_per_op or cpu_ns_per_op"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "format", 0, "md|md-wide|csv|json",
                   "md", 0, 0, struct compare_args, format, opt_format,
                   "md: one column per variant and the row's MDE (fits a PR comment); md-wide: each cell's interval and geometric SD, p and MDE in columns, and the notes"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "notes", 0, "", "", 0, 1,
                   struct compare_args, notes, NULL,
                   "md: also the notes (noisy cells, outliers, tails, machine state, ...; md-wide and JSON always have them)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "aa", 0, "A,B", "", 0, 0,
                   struct compare_args, aa, NULL,
                   "an A/A pair, two builds of the same code (e.g. rcu-sync,rcu-nosync with no writes): B against A in a column of its own; a row where it moves is marked"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "FILE", "", 0, 0,
                   struct compare_args, out, NULL,
                   "write to FILE atomically instead of stdout"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "scaling", 0, "", "", 0, 1,
                   struct compare_args, scaling, NULL,
                   "with several variants, also each one's scaling report (md: after the table; json: member scaling); one variant gets only that"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "by-state", 0, "", "", 0, 1,
                   struct compare_args, by_state, NULL,
                   "one row per thread count and machine state (fast, slow, mixed, unknown), each comparing only the runs of that state"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define COMPARE_NROWS (sizeof(compare_rows) / sizeof(compare_rows[0]))

static void help(void)
{
    printf("usage: rcuprof compare RESULTS... [options]\n");
    rcuprof_opts_help_item(stdout, "RESULTS",
                           "results.jsonl files of rcuprof sweep, of one experiment (each once,\n"
                           "the same driver options, no whatif's; else refused): each cell's\n"
                           "runs pooled over the files, blocks paired within each file\n");
    rcuprof_opts_help(stdout, compare_rows, COMPARE_NROWS, 0, NULL);
}

/* Render: one build's scaling report, or the comparison (with --scaling,
 * followed by each variant's scaling report). */
static char *compare_render(const struct compare_args *a,
                            const struct rcuprof_analysed *an)
{
    const rcuprof_table *t = &an->t, *cmp = an->cmp;
    char *text = NULL, *more = NULL, *both;
    json_t *j;

    if (strncmp(a->format, "md", 2) == 0) {
        if (!an->compared)
            return rcuprof_scaling_markdown(an->scaling, an->nscaling, t, 0);
        text = strcmp(a->format, "md") == 0
               ? rcuprof_table_markdown_notes(cmp, a->notes)
               : rcuprof_table_markdown_wide(cmp);
        if (text == NULL || !a->scaling)
            return text;
        more = rcuprof_scaling_markdown(an->scaling, an->nscaling, t, 1);
        if (more == NULL || asprintf(&both, "%s%s", text, more) < 0)
            both = NULL;
        free(text);
        free(more);
        return both;
    }
    if (strcmp(a->format, "csv") == 0)
        return an->compared ? rcuprof_table_csv(cmp)
                            : rcuprof_scaling_csv(an->scaling, an->nscaling);
    if (!an->compared) {
        j = rcuprof_scaling_json(an->scaling, an->nscaling, t);
    } else {
        j = rcuprof_table_json(cmp, &an->rs);
        if (j != NULL && a->scaling) {
            json_t *sc = rcuprof_scaling_json(an->scaling, an->nscaling, t);

            json_object_set(j, "scaling", json_object_get(sc, "scaling"));
            json_decref(sc);
        }
    }
    text = rcuprof_json_text(j);
    json_decref(j);
    return text;
}

/* --aa A,B: the A/A pair into the comparison. */
static int compare_aa(const struct compare_args *a, struct rcuprof_analysed *an)
{
    rcuprof_table *cmp = an->cmp == &an->ts ? &an->ts : &an->t;
    const char *comma = strchr(a->aa, ',');
    char err[512], *first;
    int rc;

    if (!an->compared) {
        rcuprof_err("compare: --aa '%s': the results hold one variant: an A/A pair needs two",
                    a->aa);
        return RCUPROF_ERR_USAGE;
    }
    if (comma == NULL || strchr(comma + 1, ',') != NULL) {
        rcuprof_err("compare: --aa '%s': give two variants as A,B (B against A: two builds of the same code)",
                    a->aa);
        return RCUPROF_ERR_USAGE;
    }
    first = strndup(a->aa, (size_t)(comma - a->aa));
    if (first == NULL) {
        rcuprof_err("compare: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    rc = rcuprof_table_aa(cmp, &an->rs, first, comma + 1, err, sizeof(err));
    free(first);
    if (rc != 0) {
        rcuprof_err("compare: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    return RCUPROF_OK;
}

int rcuprof_cmd_compare(int argc, char **argv)
{
    struct compare_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "compare", .rows = compare_rows,
                                   .n = COMPARE_NROWS, .target = &a };
    const struct rcuprof_opt *action;
    struct rcuprof_analysed an;
    int rc, first;
    char *text;

    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc != 0) {
        if (rc > 0)
            help();
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    if (first >= argc) {
        rcuprof_err("compare: give one or more results files (DIR/results.jsonl of rcuprof sweep)");
        return RCUPROF_ERR_USAGE;
    }
    if (a.scaling && strcmp(a.format, "csv") == 0) {
        rcuprof_err("compare: --scaling takes --format md or json: rcuprof report writes the scaling CSV (scaling.csv)");
        return RCUPROF_ERR_USAGE;
    }
    rc = rcuprof_cmd_analyse("compare", argv + first, (size_t)(argc - first),
                             a.baseline, a.metric, a.scaling, a.by_state,
                             &an);
    if (rc != RCUPROF_OK) {
        rcuprof_analysed_free(&an);
        return rc;
    }
    if (a.aa != NULL && compare_aa(&a, &an) != RCUPROF_OK) {
        rcuprof_analysed_free(&an);
        return RCUPROF_ERR_USAGE;
    }
    text = compare_render(&a, &an);
    rcuprof_analysed_free(&an);
    if (text == NULL) {
        rcuprof_err("compare: out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    rc = RCUPROF_OK;
    if (a.out != NULL) {
        if (rcuprof_write_atomic(a.out, text, strlen(text)) != 0) {
            rcuprof_err("compare: cannot write %s: check the folder exists and is writable",
                        a.out);
            rc = RCUPROF_ERR_SYSTEM;
        }
    } else {
        fputs(text, stdout);
    }
    free(text);
    return rc;
}
