/*
 * What every command shares: the one-line error, and option parsing with
 * the CLI's messages (the rows and the loop are src/common's).
 */
#include "cli.h"
#include "results.h"
#include "scaling.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rcuprof_err(const char *fmt, ...)
{
    va_list ap;

    fputs("rcuprof: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int rcuprof_cmd_parse_options_only(const struct rcuprof_cmd_opts *o,
                                   int argc, char **argv, const char *usage)
{
    const struct rcuprof_opt *action;
    int rc, first;

    rc = rcuprof_cmd_parse(o, argc, argv, &action, &first);
    if (rc > 0) {
        printf("%s\n", usage);
        rcuprof_opts_help(stdout, o->rows, o->n, 0, NULL);
        return RCUPROF_OK;
    }
    if (rc < 0)
        return RCUPROF_ERR_USAGE;
    if (first < argc) {
        rcuprof_cmd_unexpected(o, argv[first]);
        return RCUPROF_ERR_USAGE;
    }
    return -1;
}

void rcuprof_cmd_warn_first_stage(const char *cmd, unsigned reps)
{
    if (reps >= RCUPROF_FIRST_STAGE_MIN)
        return;
    rcuprof_err("warning: %s: --target-mde with a first stage of %u blocks (--reps %u): the spread it plans from has %u degrees of freedom, so it needs about twice the blocks of a %d-block start, and within a --max-time budget its power at the target falls (44%% instead of 69%% in docs/methodology.md's simulation): --reps %d to 10 recommended",
                cmd, reps, reps, reps > 0 ? reps - 1 : 0,
                RCUPROF_FIRST_STAGE_MIN, RCUPROF_FIRST_STAGE_MIN);
}

/* Driver options given to a command: name -> value, or true for a flag. */
static void pass_json(void *ctx, const struct rcuprof_opt *row,
                      const char *value)
{
    json_object_set_new(ctx, row->name, value != NULL ? json_string(value)
                                                      : json_true());
}

int rcuprof_cmd_parse(const struct rcuprof_cmd_opts *o, int argc, char **argv,
                      const struct rcuprof_opt **action, int *first_arg)
{
    struct rcuprof_opt_group g[2];
    struct rcuprof_opts_result res;
    size_t ng = 1;
    char err[600];

    memset(g, 0, sizeof(g));
    g[0].rows = o->rows;
    g[0].n = o->n;
    g[0].target = o->target;
    g[0].short_letters = o->letters;
    g[0].seen = o->seen;
    if (o->driver != NULL) {
        g[1].rows = rcuprof_driver_opts;
        g[1].n = rcuprof_driver_nopts;
        g[1].pass = pass_json;
        g[1].ctx = o->driver;
        g[1].short_letters = o->letters;
        ng = 2;
    }
    *action = NULL;
    if (rcuprof_opts_defaults(g, 1, err, sizeof(err)) != 0) {
        rcuprof_err("%s: option table: %s", o->cmd, err);
        return -1;
    }
    switch (rcuprof_opts_parse(g, ng, argc, argv, o->start > 0 ? o->start : 1,
                               &res)) {
    case RCUPROF_OPTS_OK:
        *first_arg = res.first_arg;
        return 0;
    case RCUPROF_OPTS_STOP:
        *action = res.row;
        *first_arg = res.first_arg;
        return 1;
    case RCUPROF_OPTS_BAD:
        rcuprof_err("%s: %s", o->cmd, res.msg);
        return -1;
    default:
        rcuprof_cmd_unexpected(o, res.arg);
        return -1;
    }
}

void rcuprof_cmd_unexpected(const struct rcuprof_cmd_opts *o, const char *arg)
{
    if (o->unknown != NULL)
        rcuprof_err(o->unknown, arg);
    else
        rcuprof_err("%s: unknown option or missing value '%s': see 'rcuprof %s --help'",
                    o->cmd, arg, o->cmd);
}

int rcuprof_cmd_opt_metric(void *target, const struct rcuprof_opt *row,
                           const char *arg, char *err, size_t n)
{
    int m = rcuprof_metric_parse(arg);

    if (m < 0) {
        snprintf(err, n, "--metric '%s': give wall_ns_per_op or cpu_ns_per_op",
                 arg);
        return -1;
    }
    *(int *)((char *)target + row->off) = m;
    return 0;
}

int rcuprof_cmd_opt_pct(void *target, const struct rcuprof_opt *row,
                        const char *arg, char *err, size_t n)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(arg, &end);
    if (end != arg && *end == '%')
        end++;
    if (end == arg || *end != '\0' || errno != 0 || !(v > 0) || v > 1000) {
        snprintf(err, n, "--%s '%s': give a percentage above 0, such as 5 or 2.5%%",
                 row->name, arg);
        return -1;
    }
    *(double *)((char *)target + row->off) = v;
    return 0;
}

int rcuprof_cmd_opt_duration(void *target, const struct rcuprof_opt *row,
                             const char *arg, char *err, size_t n)
{
    const char *p = arg;
    double total = 0;
    int parts = 0;

    while (*p != '\0') {
        char *end;
        double v;

        errno = 0;
        v = strtod(p, &end);
        if (end == p || errno != 0 || !(v >= 0) || !isfinite(v))
            break;
        switch (*end) {
        case 'h':
            v *= 3600;
            end++;
            break;
        case 'm':
            v *= 60;
            end++;
            break;
        case 's':
            end++;
            break;
        case '\0':
            if (parts > 0)
                goto bad;       /* 1h30: say the unit */
            break;
        default:
            goto bad;
        }
        total += v;
        parts++;
        p = end;
    }
    if (*p != '\0' || parts == 0 || !(total >= 1) || total > 30 * 86400.0)
        goto bad;
    *(double *)((char *)target + row->off) = total;
    return 0;
 bad:
    snprintf(err, n, "--%s '%s': give a duration of 1 s to 30 days, such as 90, 90s, 15m or 1h30m",
             row->name, arg);
    return -1;
}

/*
 * The first driver option (by name) that differs between two sweeps'
 * spec.options, as "--churn query in A, not given in B"; 0, or -1 when
 * they agree.
 */
static int options_differ(const rcuprof_results_file *a,
                          const rcuprof_results_file *b, char *buf, size_t n)
{
    const json_t *oa = json_object_get(json_object_get(a->header, "spec"),
                                       "options");
    const json_t *ob = json_object_get(json_object_get(b->header, "spec"),
                                       "options");
    const json_t *pair[2] = { oa, ob }, *v, *x, *y;
    const char *key, *first = NULL;
    char va[64], vb[64];
    int k;

    for (k = 0; k < 2; k++)
        json_object_foreach((json_t *)pair[k], key, v) {
            x = json_object_get(oa, key);
            y = json_object_get(ob, key);
            if ((x == NULL || y == NULL || !json_equal(x, y))
                && (first == NULL || strcmp(key, first) < 0))
                first = key;
        }
    if (first == NULL)
        return -1;
    x = json_object_get(oa, first);
    y = json_object_get(ob, first);
    snprintf(va, sizeof(va), "%s", x == NULL ? "not given"
             : json_is_string(x) ? json_string_value(x) : "set");
    snprintf(vb, sizeof(vb), "%s", y == NULL ? "not given"
             : json_is_string(y) ? json_string_value(y) : "set");
    snprintf(buf, n, "--%s %s in %s, %s in %s", first, va, a->path, vb,
             b->path);
    return 0;
}

/*
 * The checks of one results file just read (file i of rs) against what
 * compare, report and explain analyse: runs of one experiment, each once.
 * Runs from different experiments are never pooled: a whatif's (spec.whatif:
 * each run with a delay armed) or a sweep of other driver options (another
 * workload) is refused, as is the same sweep given twice.  A line that is
 * not a valid point is refused too: the table would be printed as if the
 * file were whole.  0, or -1 with the one-line error printed.
 */
static int check_file(const rcuprof_results *rs, size_t i, const char *cmd)
{
    const rcuprof_results_file *f = &rs->files[i];
    char diff[400];
    size_t k;

    if (json_object_get(json_object_get(f->header, "spec"), "whatif")
        != NULL) {
        rcuprof_err("%s: %s is a whatif's results file (rcuprof whatif wrote it; its whatif.md is the analysis): give results files of rcuprof sweep",
                    cmd, f->path);
        return -1;
    }
    if (f->n_corrupt > 0) {
        rcuprof_err("%s: %s line %zu is not a valid point (%s): give a results file as rcuprof sweep wrote it (only a torn last line is ignored)",
                    cmd, f->path, f->first_corrupt, f->corrupt_why);
        return -1;
    }
    for (k = 0; k < i; k++) {
        if (json_equal(rs->files[k].header, f->header)) {
            rcuprof_err("%s: %s and %s are the same sweep (one header): give each results file once",
                        cmd, rs->files[k].path, f->path);
            return -1;
        }
        if (options_differ(&rs->files[k], f, diff, sizeof(diff)) == 0) {
            rcuprof_err("%s: %s and %s are different experiments (%s): give results files of sweeps with the same driver options",
                        cmd, rs->files[k].path, f->path, diff);
            return -1;
        }
    }
    return 0;
}

int rcuprof_results_load_all(rcuprof_results *rs, char *const *paths,
                             size_t n, const char *cmd)
{
    char err[1024];
    size_t i;

    for (i = 0; i < n; i++) {
        if (rcuprof_results_read(rs, paths[i], err, sizeof(err)) != 0) {
            rcuprof_err("%s: %s", cmd, err);
            return -1;
        }
        if (check_file(rs, rs->nfiles - 1, cmd) != 0)
            return -1;
    }
    return 0;
}

const char *rcuprof_results_torn(const rcuprof_results *rs, char *buf,
                                 size_t n)
{
    size_t i;

    buf[0] = '\0';
    for (i = 0; i < rs->nfiles; i++)
        if (rs->files[i].torn) {
            snprintf(buf, n, " (%s: its torn last line was ignored)",
                     rs->files[i].path);
            break;
        }
    return buf;
}

void rcuprof_results_warn_torn(const rcuprof_results *rs)
{
    size_t i;

    for (i = 0; i < rs->nfiles; i++)
        if (rs->files[i].torn)
            fprintf(stderr, "rcuprof: warning: %s: torn last line ignored (rcuprof sweep --resume completes the sweep)\n",
                    rs->files[i].path);
}

int rcuprof_cmd_analyse(const char *cmd, char *const *paths, size_t n,
                        const char *baseline, int metric, int scaling,
                        int by_state, struct rcuprof_analysed *a)
{
    char err[1024], bname[96], torn[PATH_MAX + 64];
    size_t v;

    memset(a, 0, sizeof(*a));
    if (baseline != NULL && strlen(baseline) < sizeof(bname)) {
        strcpy(bname, baseline);            /* stock@3.5 is stock */
        baseline = rcuprof_variant_canon(bname);
    }
    if (rcuprof_results_load_all(&a->rs, paths, n, cmd) != 0)
        return RCUPROF_ERR_USAGE;
    rcuprof_results_torn(&a->rs, torn, sizeof(torn));
    if (a->rs.nvariants == 1 && baseline != NULL
        && strcmp(baseline, a->rs.variants[0]) != 0) {
        rcuprof_err("%s: --baseline '%s' is not in the results: give one of their variants",
                    cmd, baseline);
        return RCUPROF_ERR_USAGE;
    }
    /* One build: its scaling report; several: the comparison. */
    a->compared = a->rs.nvariants >= 2;
    if ((a->compared
         ? rcuprof_table_build(&a->rs, baseline, metric, &a->t, err,
                               sizeof(err))
         : rcuprof_table_describe(&a->rs, metric, &a->t, err,
                                  sizeof(err))) != 0) {
        rcuprof_err("%s: %s%s", cmd, err, torn);
        return RCUPROF_ERR_USAGE;
    }
    a->cmp = &a->t;
    if (by_state && !a->compared) {
        rcuprof_err("%s: --by-state stratifies a comparison and the results hold one variant: add a second variant's results, or drop --by-state",
                    cmd);
        return RCUPROF_ERR_USAGE;
    }
    if (by_state) {
        if (rcuprof_table_build_states(&a->rs, baseline, metric, 1, &a->ts,
                                       err, sizeof(err)) != 0) {
            rcuprof_err("%s: %s%s", cmd, err, torn);
            return RCUPROF_ERR_USAGE;
        }
        a->cmp = &a->ts;
    }
    rcuprof_results_warn_torn(&a->rs);
    if (!scaling && a->compared)
        return RCUPROF_OK;
    a->scaling = calloc(a->t.nvariants, sizeof(*a->scaling));
    for (v = 0; a->scaling != NULL && v < a->t.nvariants; v++)
        if (rcuprof_scaling_build(&a->rs, &a->t, v, &a->scaling[v]) != 0)
            break;
    a->nscaling = v;
    if (a->scaling == NULL || v < a->t.nvariants) {
        rcuprof_err("%s: out of memory", cmd);
        return RCUPROF_ERR_SYSTEM;
    }
    return RCUPROF_OK;
}

void rcuprof_analysed_free(struct rcuprof_analysed *a)
{
    size_t v;

    for (v = 0; v < a->nscaling; v++)
        rcuprof_scaling_free(&a->scaling[v]);
    free(a->scaling);
    rcuprof_table_free(&a->t);
    rcuprof_table_free(&a->ts);
    rcuprof_results_free(&a->rs);
    memset(a, 0, sizeof(*a));
}

char *rcuprof_json_text(json_t *j)
{
    char *s = j != NULL ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
    char *t = s != NULL ? realloc(s, strlen(s) + 2) : NULL;

    if (t == NULL) {
        free(s);
        return NULL;
    }
    return strcat(t, "\n");
}
