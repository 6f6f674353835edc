/*
 * rcuprof counters as a stress-driver hook module (src/stress/stress.h,
 * docs/interfaces.md section 5).
 *
 * The driver creates the counters (rcuprof_counters_new) for --events,
 * attaches them here, and registers &rcuprof_counters_hooks in run.hooks[]:
 * after_pin opens the calling worker's groups, window_start/window_end
 * enable and read them, to_json returns the `counters` member.
 */
#ifndef RCUPROF_COUNTERS_HOOKS_H
# define RCUPROF_COUNTERS_HOOKS_H

# include "rcuprof_counters.h"

struct rcuprof_hooks;

extern const struct rcuprof_hooks rcuprof_counters_hooks;

/* The counters the hooks use (one set per process); NULL detaches. */
void rcuprof_counters_hooks_attach(struct rcuprof_counters *c);

#endif
