/*
 * `rcuprof compare RESULTS...`: the A/B table of one or more results files
 * (table.c computes it) as markdown, CSV or JSON.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "rcuprof_report.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>

int rcuprof_results_load_all(rcuprof_results *rs, char *const *paths,
                             size_t n, const char *cmd)
{
    char err[1024];
    size_t i;

    for (i = 0; i < n; i++) {
        const rcuprof_results_file *f;

        if (rcuprof_results_read(rs, paths[i], err, sizeof(err)) != 0) {
            rcuprof_err("%s: %s", cmd, err);
            return -1;
        }
        f = &rs->files[rs->nfiles - 1];
        if (f->n_corrupt > 0)
            fprintf(stderr, "rcuprof: warning: %s: %zu corrupt line(s) skipped, the first at line %zu\n",
                    f->path, f->n_corrupt, f->first_corrupt);
        if (f->torn)
            fprintf(stderr, "rcuprof: warning: %s: torn last line ignored (rcuprof sweep --resume completes the sweep)\n",
                    f->path);
    }
    return 0;
}

/* --format: md, csv or json. */
static int opt_format(void *target, const struct rcuprof_opt *row,
                      const char *arg, char *err, size_t n)
{
    if (strcmp(arg, "md") != 0 && strcmp(arg, "csv") != 0
        && strcmp(arg, "json") != 0) {
        snprintf(err, n, "--format '%s': give md, csv or json", arg);
        return -1;
    }
    *(const char **)((char *)target + row->off) = arg;
    return 0;
}

struct compare_args {
    const char *baseline, *format, *out;
    int metric;
};

static const struct rcuprof_opt compare_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "baseline", 0, "V", "", 0, 0,
                   struct compare_args, baseline, NULL,
                   "the variant the others are compared with (default: the first)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "metric", 0, "M", "wall_ns_per_op",
                   0, 0, struct compare_args, metric, rcuprof_cmd_opt_metric,
                   "wall_ns_per_op or cpu_ns_per_op"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "format", 0, "md|csv|json", "md", 0,
                   0, struct compare_args, format, opt_format,
                   "output format"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "FILE", "", 0, 0,
                   struct compare_args, out, NULL,
                   "write to FILE atomically instead of stdout"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define COMPARE_NROWS (sizeof(compare_rows) / sizeof(compare_rows[0]))

static void help(void)
{
    printf("usage: rcuprof compare RESULTS... [options]\n");
    printf("  RESULTS                   results.jsonl files of rcuprof sweep (several: runs pooled, blocks\n"
           "                            paired within each file)\n");
    rcuprof_opts_help(stdout, compare_rows, COMPARE_NROWS, 0, NULL);
}

int rcuprof_cmd_compare(int argc, char **argv)
{
    struct compare_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "compare", .rows = compare_rows,
                                   .n = COMPARE_NROWS, .target = &a };
    const struct rcuprof_opt *action;
    const char *baseline, *format, *out;
    int metric, rc = RCUPROF_ERR_USAGE, optind;
    rcuprof_results rs;
    rcuprof_table t;
    char err[1024], *text = NULL;

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
    format = a.format;
    out = a.out;
    metric = a.metric;
    if (optind >= argc) {
        rcuprof_err("compare: give one or more results files (DIR/results.jsonl of rcuprof sweep)");
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_results_load_all(&rs, argv + optind, (size_t)(argc - optind),
                                 "compare") != 0)
        goto done;
    if (rcuprof_table_build(&rs, baseline, metric, &t, err, sizeof(err))
        != 0) {
        rcuprof_err("compare: %s", err);
        goto done;
    }
    if (strcmp(format, "md") == 0) {
        text = rcuprof_table_markdown(&t);
    } else if (strcmp(format, "csv") == 0) {
        text = rcuprof_table_csv(&t);
    } else {
        json_t *j = rcuprof_table_json(&t, &rs);

        text = j != NULL ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS)
                         : NULL;
        if (text != NULL) {
            char *s = realloc(text, strlen(text) + 2);

            if (s != NULL)
                strcat(s, "\n");
            else
                free(text);
            text = s;
        }
        json_decref(j);
    }
    if (text == NULL) {
        rcuprof_err("compare: out of memory");
        rc = RCUPROF_ERR_SYSTEM;
        goto done;
    }
    if (out != NULL) {
        if (rcuprof_write_atomic(out, text, strlen(text)) != 0) {
            rcuprof_err("compare: cannot write %s: check the folder exists and is writable",
                        out);
            rc = RCUPROF_ERR_SYSTEM;
            goto done;
        }
    } else {
        fputs(text, stdout);
    }
    rc = RCUPROF_OK;
 done:
    free(text);
    rcuprof_table_free(&t);
    rcuprof_results_free(&rs);
    return rc;
}
