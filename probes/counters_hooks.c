/*
 * rcuprof counters: the stress driver's tool.  Thin: everything is in
 * counters.c; this file only maps the harness's callbacks to it.
 */
#include <stdlib.h>
#include "rcuprof_counters_hooks.h"

static struct rcuprof_counters *counters_of(struct rcuprof_tool *tool)
{
    return rcuprof_container_of(tool, struct rcuprof_counters_tool,
                                tool)->counters;
}

static int hook_after_pin(struct rcuprof_tool *tool,
                          const struct rcuprof_run_view *run, unsigned worker,
                          char *errbuf, size_t n)
{
    struct rcuprof_counters *c = counters_of(tool);

    if (c == NULL)
        return 0;
    return rcuprof_counters_open(c, worker, errbuf, n) != 0;
}

static void hook_window_start(struct rcuprof_tool *tool,
                              const struct rcuprof_run_view *run,
                              unsigned worker)
{
    if (counters_of(tool) != NULL)
        rcuprof_counters_start(counters_of(tool), worker);
}

static void hook_window_end(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run,
                            unsigned worker)
{
    if (counters_of(tool) != NULL)
        rcuprof_counters_stop(counters_of(tool), worker);
}

static json_t *hook_to_json(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run)
{
    struct rcuprof_counters *c = counters_of(tool);

    return c != NULL ? rcuprof_counters_to_json(c, run->ops) : NULL;
}

void rcuprof_counters_tool_init(struct rcuprof_counters_tool *t,
                                struct rcuprof_counters *c)
{
    static const struct rcuprof_tool ops = {
        .member = "counters",
        .after_pin = hook_after_pin,
        .window_start = hook_window_start,
        .window_end = hook_window_end,
        .to_json = hook_to_json,
    };

    t->tool = ops;
    t->counters = c;
}
