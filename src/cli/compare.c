/*
 * `rcuprof compare RESULTS...`: the A/B table of one or more results files
 * (table.c computes it) as markdown, CSV or JSON.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BASELINE = 256, OPT_METRIC, OPT_FORMAT, OPT_OUT, OPT_HELP };

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

static void help(void)
{
    printf("usage: rcuprof compare RESULTS... [options]\n");
    printf("  RESULTS                   results.jsonl files of rcuprof sweep (several: runs pooled, blocks\n"
           "                            paired within each file)\n");
    printf("  --%-12s %-12s %s\n", "baseline", "V", "the variant the others are compared with (default: the first)");
    printf("  --%-12s %-12s %s\n", "metric", "M", "wall_ns_per_op or cpu_ns_per_op (default: wall_ns_per_op)");
    printf("  --%-12s %-12s %s\n", "format", "md|csv|json", "output format (default: md)");
    printf("  --%-12s %-12s %s\n", "out", "FILE", "write to FILE atomically instead of stdout");
    printf("  --%-12s %-12s %s\n", "help", "", "this list");
}

int rcuprof_cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        { "baseline", 1, NULL, OPT_BASELINE }, { "metric", 1, NULL, OPT_METRIC },
        { "format", 1, NULL, OPT_FORMAT }, { "out", 1, NULL, OPT_OUT },
        { "help", 0, NULL, OPT_HELP }, { NULL, 0, NULL, 0 }
    };
    const char *baseline = NULL, *format = "md", *out = NULL;
    int ch, metric = RCUPROF_METRIC_WALL, rc = RCUPROF_ERR_USAGE;
    rcuprof_results rs;
    rcuprof_table t;
    char err[1024], *text = NULL;

    memset(&rs, 0, sizeof(rs));
    memset(&t, 0, sizeof(t));
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case OPT_BASELINE: baseline = optarg; break;
        case OPT_METRIC:
            metric = rcuprof_metric_parse(optarg);
            if (metric < 0) {
                rcuprof_err("compare: --metric '%s': give wall_ns_per_op or cpu_ns_per_op",
                            optarg);
                return RCUPROF_ERR_USAGE;
            }
            break;
        case OPT_FORMAT:
            format = optarg;
            if (strcmp(format, "md") != 0 && strcmp(format, "csv") != 0
                && strcmp(format, "json") != 0) {
                rcuprof_err("compare: --format '%s': give md, csv or json",
                            optarg);
                return RCUPROF_ERR_USAGE;
            }
            break;
        case OPT_OUT: out = optarg; break;
        case OPT_HELP:
            help();
            return RCUPROF_OK;
        default:
            rcuprof_err("compare: unknown option or missing value '%s': see 'rcuprof compare --help'",
                        argv[optind - 1]);
            return RCUPROF_ERR_USAGE;
        }
    }
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
