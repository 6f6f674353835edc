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

/* A seeded generator for synthetic data, the same on every machine:
 * splitmix64 for uniforms in (0, 1), Box-Muller for standard normals. */
static inline double stats_test_unif(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static inline double stats_test_norm(uint64_t *s)
{
    double u = stats_test_unif(s), v = stats_test_unif(s);

    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#endif
