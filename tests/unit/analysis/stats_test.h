/*
 * Shared helpers of the analysis unit tests.  Every table row carries the
 * __LINE__ of its definition; a failure names that line.
 */
#ifndef RCUPROF_STATS_TEST_H
# define RCUPROF_STATS_TEST_H

# include <math.h>
# include <stdarg.h>
# include <stddef.h>
# include <setjmp.h>
# include <stdint.h>
# include <cmocka.h>

# define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| <= tol, or both NaN. */
static inline int stats_near(double got, double want, double tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= tol;
}

/* Fails naming the row's line, the expression and both values. */
# define CHECK_NEAR(line, got, want, tol)                                  \
    do {                                                                   \
        double g_ = (got), w_ = (want);                                    \
        if (!stats_near(g_, w_, (tol)))                                    \
            fail_msg("row at line %d: %s = %.15g, want %.15g (tol %g)",    \
                     (line), #got, g_, w_, (double)(tol));                 \
    } while (0)

# define CHECK_INT(line, got, want)                                        \
    do {                                                                   \
        long long g_ = (long long)(got), w_ = (long long)(want);           \
        if (g_ != w_)                                                      \
            fail_msg("row at line %d: %s = %lld, want %lld",               \
                     (line), #got, g_, w_);                                \
    } while (0)

#endif
