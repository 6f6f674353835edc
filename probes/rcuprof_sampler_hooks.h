/*
 * rcuprof sampler as a stress-driver hook module (src/stress/stress.h,
 * docs/interfaces.md section 5).
 *
 * The driver creates the sampler (rcuprof_sampler_new) for --sample,
 * attaches it here, and registers &rcuprof_sampler_hooks in run.hooks[]:
 * after_pin opens the calling worker's event and ring, window_start and
 * window_end enable and disable it, to_json returns the `samples` member.
 */
#ifndef RCUPROF_SAMPLER_HOOKS_H
# define RCUPROF_SAMPLER_HOOKS_H

# include "rcuprof_sampler.h"

struct rcuprof_hooks;

extern const struct rcuprof_hooks rcuprof_sampler_hooks;

/* The sampler the hooks use (one per process); NULL detaches. */
void rcuprof_sampler_hooks_attach(struct rcuprof_sampler *s);

#endif
