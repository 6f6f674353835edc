/*
 * rcuprof sampler: the stress driver's tool.  Thin: everything is in
 * sampler.c; this file only maps the harness's callbacks to it.
 */
#include "rcuprof_sampler_hooks.h"

static struct rcuprof_sampler *sampler_of(struct rcuprof_tool *tool)
{
    return rcuprof_container_of(tool, struct rcuprof_sampler_tool,
                                tool)->sampler;
}

static int hook_after_pin(struct rcuprof_tool *tool,
                          const struct rcuprof_run_view *run, unsigned worker,
                          char *errbuf, size_t n)
{
    struct rcuprof_sampler *s = sampler_of(tool);

    if (s == NULL)
        return 0;
    return rcuprof_sampler_open(s, worker, errbuf, n) != 0;
}

static void hook_window_start(struct rcuprof_tool *tool,
                              const struct rcuprof_run_view *run,
                              unsigned worker)
{
    if (sampler_of(tool) != NULL)
        rcuprof_sampler_start(sampler_of(tool), worker);
}

static void hook_window_end(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run,
                            unsigned worker)
{
    if (sampler_of(tool) != NULL)
        rcuprof_sampler_stop(sampler_of(tool), worker);
}

/* Writers are sampled too: their slots follow the workers'. */
static int hook_writer_start(struct rcuprof_tool *tool,
                             const struct rcuprof_run_view *run,
                             unsigned writer, char *errbuf, size_t n)
{
    struct rcuprof_sampler *s = sampler_of(tool);

    if (s == NULL)
        return 0;
    rcuprof_sampler_set_role(s, run->threads + writer, "writer");
    return rcuprof_sampler_open(s, run->threads + writer, errbuf, n) != 0;
}

/* ioctl on a writer's events works from this (main) thread. */
static void hook_run_window(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run, int open)
{
    struct rcuprof_sampler *s = sampler_of(tool);
    unsigned i;

    for (i = 0; s != NULL && i < run->writers; i++) {
        if (open)
            rcuprof_sampler_start(s, run->threads + i);
        else
            rcuprof_sampler_stop(s, run->threads + i);
    }
}

static json_t *hook_to_json(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run)
{
    struct rcuprof_sampler *s = sampler_of(tool);

    return s != NULL ? rcuprof_sampler_to_json(s) : NULL;
}

void rcuprof_sampler_tool_init(struct rcuprof_sampler_tool *t,
                               struct rcuprof_sampler *s)
{
    static const struct rcuprof_tool ops = {
        .member = "samples",
        .after_pin = hook_after_pin,
        .window_start = hook_window_start,
        .window_end = hook_window_end,
        .writer_start = hook_writer_start,
        .run_window = hook_run_window,
        .to_json = hook_to_json,
    };

    t->tool = ops;
    t->sampler = s;
}
