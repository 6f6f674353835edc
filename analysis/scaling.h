/*
 * The scaling report of one build (rcuprof report and compare on one
 * variant, or per variant beside the comparison): per thread count the
 * per-op cost with its interval, the throughput with its interval, the
 * scaling efficiency against the previous count and against the first
 * (1 thread in a sweep that starts there), the dips and knees explain's
 * detection flags, and the Universal Scalability Law fit where it applies.
 * Computed here; analysis/report/ writes it.
 */
#ifndef RCUPROF_SCALING_H
# define RCUPROF_SCALING_H

# include <stddef.h>

# include "explain.h"
# include "results.h"

typedef struct rcuprof_scaling_row_st {
    unsigned threads;
    int oversubscribed;         /* more threads than CPUs allowed */
    size_t n, failed;           /* ok runs; runs that failed */
    /* The metric's geometric mean with its interval, the table's cell
     * (rcuprof_cell geomean, geomean_lo, geomean_hi: what compare
     * prints): "geomean-t" (Student's t on the logs), "none" (1 run, or a
     * run at 0). */
    double cost, lo, hi;
    const char *interval;
    /* ops/s over all threads, the same way. */
    double tput, tput_lo, tput_hi;
    double eff_first;           /* cost at the first count / cost here:
                                 * the share of ideal speed-up kept */
    double eff_step;            /* cost at the count before / cost here;
                                 * NAN at the first */
    /* At this count, from the geometric means: a dip (its interval wholly
     * above that of dip_vs, a higher count) and/or the knee of the step
     * that ends here (step efficiency below min_step_eff); flagged:
     * explain would explain it; confidence: explain's for the same
     * finding ("high", "medium", "low"; "low" when explain does not find
     * it), or "not testable" when a count of it exceeds the CPUs. */
    int dip, knee, worst, flagged;
    unsigned dip_vs;
    const char *confidence;
} rcuprof_scaling_row;

typedef struct rcuprof_scaling_st {
    const char *variant;        /* borrowed from the results */
    int metric;
    double level, min_step_eff; /* of the intervals, of a knee */
    unsigned cpus_allowed;      /* 0: unknown */
    rcuprof_scaling_row *rows;  /* one per thread count with an ok run */
    size_t nrows;
    rcuprof_explain_detection det;  /* the findings, as explain has them */
    rcuprof_usl_fit usl;
} rcuprof_scaling;

/*
 * Variant v of rs from the described table t (rcuprof_table_describe or
 * _build: its thread counts, CPUs and failed runs).  0, or -1 when out of
 * memory.  A variant without an ok run has no rows.
 */
int rcuprof_scaling_build(const rcuprof_results *rs, const rcuprof_table *t,
                          size_t v, rcuprof_scaling *s);
void rcuprof_scaling_free(rcuprof_scaling *s);

#endif
