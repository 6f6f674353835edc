/*
 * What every command shares: the one-line error, and option parsing with
 * the CLI's messages (the rows and the loop are src/common's).
 */
#include "cli.h"
#include "results.h"

#include <stdarg.h>
#include <stdio.h>
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
