/*
 * Helpers shared by the statistics sources; not part of the public API.
 */
#ifndef RCUPROF_STATS_LOCAL_H
# define RCUPROF_STATS_LOCAL_H

# include <stddef.h>

/* 1 if every x[i] is finite (and x != NULL or n == 0). */
int rcuprof_stats__all_finite(const double *x, size_t n);

/* A sorted malloc'ed copy of x, or NULL on no memory. */
double *rcuprof_stats__sorted_copy(const double *x, size_t n);

/* Type-7 quantile of already sorted s. */
double rcuprof_stats__quantile_sorted(const double *s, size_t n, double p);

/* Mean and sample variance (n - 1; NAN for n < 2), two-pass. */
void rcuprof_stats__mean_var(const double *x, size_t n, double *mean,
                             double *var);

/* 1 if level (or alpha, power) lies strictly inside (0, 1). */
int rcuprof_stats__open_unit(double v);

#endif
