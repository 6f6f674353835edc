/*
 * rcuprof sampler: the stress driver's hook module.  Thin: everything is
 * in sampler.c; this file only maps the harness's callbacks to it.
 */
#include "stress.h"
#include "rcuprof_sampler_hooks.h"

static struct rcuprof_sampler *g_sampler;

void rcuprof_sampler_hooks_attach(struct rcuprof_sampler *s)
{
    g_sampler = s;
}

static int hook_after_pin(struct rcuprof_worker *w, char *errbuf, size_t n)
{
    if (g_sampler == NULL)
        return 0;
    return rcuprof_sampler_open(g_sampler, w->id, errbuf, n) != 0;
}

static void hook_window_start(struct rcuprof_worker *w)
{
    rcuprof_sampler_start(g_sampler, w->id);
}

static void hook_window_end(struct rcuprof_worker *w)
{
    rcuprof_sampler_stop(g_sampler, w->id);
}

static json_t *hook_to_json(struct rcuprof_run *run)
{
    (void)run;
    if (g_sampler == NULL)
        return NULL;
    return rcuprof_sampler_to_json(g_sampler);
}

const struct rcuprof_hooks rcuprof_sampler_hooks = {
    .member = "samples",
    .after_pin = hook_after_pin,
    .before_barrier = NULL,
    .window_start = hook_window_start,
    .window_end = hook_window_end,
    .to_json = hook_to_json,
};
