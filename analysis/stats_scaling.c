/*
 * Dips and knees over a sweep's thread counts (used by the scaling
 * analysis of issue 10).
 */
#include "rcuprof_stats.h"
#include "stats_local.h"

#include <math.h>

static int increasing(const double *t, size_t n)
{
    size_t i;

    for (i = 1; i < n; i++)
        if (!(t[i] > t[i - 1]))
            return 0;
    return 1;
}

int rcuprof_stats_dips(const double *threads, const double *cost,
                       const double *lo, const double *hi, size_t n,
                       int *dip_vs, size_t *n_dips)
{
    size_t i, j, cnt = 0;

    if (n_dips != NULL)
        *n_dips = 0;
    if (threads == NULL || cost == NULL || lo == NULL || hi == NULL
        || dip_vs == NULL || !rcuprof_stats__all_finite(threads, n)
        || !rcuprof_stats__all_finite(cost, n)
        || !rcuprof_stats__all_finite(lo, n)
        || !rcuprof_stats__all_finite(hi, n) || !increasing(threads, n)
        || n > (size_t)0x7fffffff)
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    for (i = 0; i < n; i++)
        if (!(lo[i] <= cost[i] && cost[i] <= hi[i]))
            return RCUPROF_STATS_EINVAL;
    for (i = 0; i < n; i++) {
        int best = -1;

        for (j = i + 1; j < n; j++)
            if (lo[i] > hi[j] && (best < 0 || hi[j] < hi[best]))
                best = (int)j;
        dip_vs[i] = best;
        cnt += best >= 0;
    }
    if (n_dips != NULL)
        *n_dips = cnt;
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_knees(const double *threads, const double *cost, size_t n,
                        double min_step_eff, double *eff, double *step_eff,
                        int *knee, size_t *first_knee)
{
    size_t i, first = n;

    if (first_knee != NULL)
        *first_knee = n;
    if (threads == NULL || cost == NULL || !(min_step_eff > 0.0)
        || !(min_step_eff <= 1.0) || !rcuprof_stats__all_finite(threads, n)
        || !rcuprof_stats__all_finite(cost, n) || !increasing(threads, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    for (i = 0; i < n; i++)
        if (!(cost[i] > 0.0))
            return RCUPROF_STATS_EDEGENERATE;
    for (i = 0; i < n; i++) {
        double se = i == 0 ? NAN : cost[i - 1] / cost[i];
        int k = i > 0 && se < min_step_eff;

        if (eff != NULL)
            eff[i] = cost[0] / cost[i];
        if (step_eff != NULL)
            step_eff[i] = se;
        if (knee != NULL)
            knee[i] = k;
        if (k && first == n)
            first = i;
    }
    if (first_knee != NULL)
        *first_knee = first;
    return RCUPROF_STATS_OK;
}
