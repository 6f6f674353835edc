/*
 * rcuprof sampler as a tool of the stress driver's run (src/common/
 * rcuprof_hooks.h, docs/interfaces.md section 5).
 *
 * The driver creates the sampler (rcuprof_sampler_new) for --sample with
 * one slot per worker and per churn writer (workers first), initialises a
 * struct rcuprof_sampler_tool with it and registers &tool.tool: after_pin
 * opens the calling worker's event and ring, window_start/window_end enable
 * and disable it; writer_start opens a writer's on the writer's own thread
 * (role "writer", slot threads + writer) and run_window enables and
 * disables the writers' from the main thread; to_json returns the
 * `samples` member.
 */
#ifndef RCUPROF_SAMPLER_HOOKS_H
# define RCUPROF_SAMPLER_HOOKS_H

# include "rcuprof_hooks.h"
# include "rcuprof_sampler.h"

struct rcuprof_sampler_tool {
    struct rcuprof_tool tool;
    struct rcuprof_sampler *sampler;    /* NULL: every callback does nothing */
};

/* Fill T for sampler S (borrowed: the caller frees it after the run). */
void rcuprof_sampler_tool_init(struct rcuprof_sampler_tool *t,
                               struct rcuprof_sampler *s);

#endif
