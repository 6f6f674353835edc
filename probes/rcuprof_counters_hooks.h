/*
 * rcuprof counters as a tool of the stress driver's run (src/common/
 * rcuprof_hooks.h, docs/interfaces.md section 5).
 *
 * The driver creates the counters (rcuprof_counters_new) for --events,
 * initialises a struct rcuprof_counters_tool with them and registers
 * &tool.tool: after_pin opens the calling worker's groups,
 * window_start/window_end enable and read them, to_json returns the
 * `counters` member (per-op figures from the run view's ops).
 */
#ifndef RCUPROF_COUNTERS_HOOKS_H
# define RCUPROF_COUNTERS_HOOKS_H

# include "rcuprof_hooks.h"
# include "rcuprof_counters.h"

struct rcuprof_counters_tool {
    struct rcuprof_tool tool;
    struct rcuprof_counters *counters;  /* NULL: every callback does nothing */
};

/* Fill T for counters C (borrowed: the caller frees them after the run). */
void rcuprof_counters_tool_init(struct rcuprof_counters_tool *t,
                                struct rcuprof_counters *c);

#endif
