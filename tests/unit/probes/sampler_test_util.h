/*
 * Helpers for the sampler and symbolizer tests: CPU-time spinning, the
 * ctest skip convention, and sampling the calling thread for a while.
 */
#ifndef SAMPLER_TEST_UTIL_H
# define SAMPLER_TEST_UTIL_H

# include <stdarg.h>
# include <stddef.h>
# include <setjmp.h>
# include <stdint.h>
# include <stdio.h>
# include <stdlib.h>
# include <string.h>
# include <time.h>
# include <cmocka.h>
# include "rcuprof_sampler.h"
# include "rcuprof_symbolize.h"
# include "rcuprof_attribute.h"
# include "rcuprof_report.h"

# define SKIP_RC 77

static inline uint64_t thread_cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A sampler for NTHREADS threads, or exit 77 with the reason when this
 * machine refuses perf_event_open (after the caller's pure checks ran).
 */
static inline struct rcuprof_sampler *
sampler_or_skip(const struct rcuprof_sampler_config *cfg, unsigned nthreads)
{
    struct rcuprof_sampler *s = NULL;
    char err[512];
    int rc = rcuprof_sampler_new(&s, cfg, nthreads, err, sizeof(err));

    if (rc == RCUPROF_SAMPLER_EOPEN) {
        printf("SKIPPED: %s\n", err);
        exit(SKIP_RC);
    }
    if (rc != 0)
        fail_msg("rcuprof_sampler_new: %s", err);
    return s;
}

/* Print a JSON value (for the test log). */
static inline void dump_json(const char *what, const json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);

    printf("%s: %s\n", what, s != NULL ? s : "(null)");
    free(s);
}

#endif
