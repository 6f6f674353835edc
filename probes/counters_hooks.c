/*
 * rcuprof counters: the stress driver's hook module.  Thin: everything is
 * in counters.c; this file only maps the harness's callbacks to it.
 */
#include <stdlib.h>
#include "stress.h"
#include "rcuprof_counters_hooks.h"

static struct rcuprof_counters *g_counters;

void rcuprof_counters_hooks_attach(struct rcuprof_counters *c)
{
    g_counters = c;
}

static int hook_after_pin(struct rcuprof_worker *w, char *errbuf, size_t n)
{
    if (g_counters == NULL)
        return 0;
    return rcuprof_counters_open(g_counters, w->id, errbuf, n) != 0;
}

static void hook_window_start(struct rcuprof_worker *w)
{
    rcuprof_counters_start(g_counters, w->id);
}

static void hook_window_end(struct rcuprof_worker *w)
{
    rcuprof_counters_stop(g_counters, w->id);
}

static json_t *hook_to_json(struct rcuprof_run *run)
{
    uint64_t *ops;
    json_t *j;
    unsigned i;

    if (g_counters == NULL)
        return NULL;
    ops = calloc(run->cfg.threads > 0 ? run->cfg.threads : 1, sizeof(*ops));
    if (ops != NULL && run->slots != NULL)
        for (i = 0; i < run->cfg.threads; i++)
            ops[i] = run->slots[i].ops;
    j = rcuprof_counters_to_json(g_counters, ops);
    free(ops);
    return j;
}

const struct rcuprof_hooks rcuprof_counters_hooks = {
    .member = "counters",
    .after_pin = hook_after_pin,
    .before_barrier = NULL,
    .window_start = hook_window_start,
    .window_end = hook_window_end,
    .to_json = hook_to_json,
};
