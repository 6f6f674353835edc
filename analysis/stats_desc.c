/*
 * Descriptive statistics, quantiles, the intervals of the mean and the
 * median, outlier flags and the noise warning.
 */
#include "rcuprof_stats.h"
#include "stats_local.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

const char *rcuprof_stats_strerror(int err)
{
    switch (err) {
    case RCUPROF_STATS_OK:
        return "success";
    case RCUPROF_STATS_EINVAL:
        return "invalid argument (NULL, non-finite value or parameter out"
               " of range)";
    case RCUPROF_STATS_ETOOFEW:
        return "too few observations for this statistic";
    case RCUPROF_STATS_EDEGENERATE:
        return "degenerate data (zero spread, non-positive value or too few"
               " distinct points)";
    case RCUPROF_STATS_ENOMEM:
        return "out of memory";
    case RCUPROF_STATS_ENOCONV:
        return "the fit did not converge";
    }
    return "unknown error";
}

int rcuprof_stats__all_finite(const double *x, size_t n)
{
    size_t i;

    if (x == NULL)
        return n == 0;
    for (i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

int rcuprof_stats__open_unit(double v)
{
    return v > 0.0 && v < 1.0;
}

double *rcuprof_stats__sorted_copy(const double *x, size_t n)
{
    double *s = malloc((n > 0 ? n : 1) * sizeof(*s));

    if (s == NULL)
        return NULL;
    if (n > 0)
        memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), rcuprof_sort_cmp_double);
    return s;
}

double rcuprof_stats__quantile_sorted(const double *s, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);

    if (lo >= n - 1)
        return s[n - 1];
    return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

void rcuprof_stats__mean_var(const double *x, size_t n, double *mean,
                             double *var)
{
    double m = 0.0, ss = 0.0, c = 0.0;
    size_t i;

    for (i = 0; i < n; i++)
        m += x[i];
    m /= (double)n;
    for (i = 0; i < n; i++) {
        double d = x[i] - m;

        ss += d * d;
        c += d;
    }
    *mean = m;
    /* corrected two-pass formula (Chan, Golub & LeVeque) */
    *var = n < 2 ? NAN : (ss - c * c / (double)n) / (double)(n - 1);
}

int rcuprof_stats_quantile(const double *x, size_t n, double p, double *q)
{
    double *s;

    if (q == NULL)
        return RCUPROF_STATS_EINVAL;
    *q = NAN;
    if (x == NULL || !(p >= 0.0 && p <= 1.0)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;
    *q = rcuprof_stats__quantile_sorted(s, n, p);
    free(s);
    return RCUPROF_STATS_OK;
}

/* P(x(k) <= median <= x(n+1-k)) = 1 - 2 P(Bin(n, 1/2) <= k - 1) */
static double median_coverage(size_t k, size_t n)
{
    return 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(k - 1), 0.5,
                                          (unsigned)n);
}

/*
 * The mean m and sample variance v of ln x[0..n-1] (n >= 1); a run at or
 * below 0 has no logarithm: EDEGENERATE.
 */
static int log_mean_var(const double *x, size_t n, double *m, double *v)
{
    double *y;
    size_t i;

    for (i = 0; i < n; i++)
        if (!(x[i] > 0.0))
            return RCUPROF_STATS_EDEGENERATE;
    if ((y = malloc(n * sizeof(*y))) == NULL)
        return RCUPROF_STATS_ENOMEM;
    for (i = 0; i < n; i++)
        y[i] = log(x[i]);
    rcuprof_stats__mean_var(y, n, m, v);
    free(y);
    return RCUPROF_STATS_OK;
}
/*
 * Order-statistic interval of the median from sorted s: the largest k in
 * 1..n/2 whose coverage is >= level.  Coverage falls as k grows, so a
 * binary search finds it in O(log n) binomial evaluations.
 */
static int median_ci_sorted(const double *s, size_t n, double level,
                            double *lo, double *hi, double *coverage)
{
    size_t good = 0, bad = n / 2 + 1;   /* cov(good) >= level > cov(bad) */

    *lo = *hi = *coverage = NAN;
    if (n > 0xffffffffUL)
        return RCUPROF_STATS_EINVAL;
    /* 1e-12: binomial tails equal to the level up to rounding still pass */
    while (bad - good > 1) {
        size_t mid = good + (bad - good) / 2;

        if (median_coverage(mid, n) >= level - 1e-12)
            good = mid;
        else
            bad = mid;
    }
    if (good == 0)
        return RCUPROF_STATS_ETOOFEW;
    *lo = s[good - 1];
    *hi = s[n - good];
    *coverage = median_coverage(good, n);
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_median_ci(const double *x, size_t n, double level,
                            double *lo, double *hi, double *coverage)
{
    double *s, l, h, c;
    int rc;

    if (lo != NULL)
        *lo = NAN;
    if (hi != NULL)
        *hi = NAN;
    if (coverage != NULL)
        *coverage = NAN;
    if (x == NULL || lo == NULL || hi == NULL
        || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;
    rc = median_ci_sorted(s, n, level, &l, &h, &c);
    free(s);
    *lo = l;
    *hi = h;
    if (coverage != NULL)
        *coverage = c;
    return rc;
}

int rcuprof_stats_mean_ci_log(const double *x, size_t n, double level,
                              double *lo, double *hi)
{
    double m, v, t, hw;
    int rc;

    if (lo != NULL)
        *lo = NAN;
    if (hi != NULL)
        *hi = NAN;
    if (x == NULL || lo == NULL || hi == NULL
        || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n < 2)
        return RCUPROF_STATS_ETOOFEW;
    if ((rc = log_mean_var(x, n, &m, &v)) != RCUPROF_STATS_OK)
        return rc;
    if (!(v > 0.0))
        v = 0.0;
    t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
    hw = t * sqrt(v / (double)n + v * v / (2.0 * (double)(n - 1)));
    *lo = exp(m + v / 2.0 - hw);
    *hi = exp(m + v / 2.0 + hw);
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_geomean(const double *x, size_t n, double level,
                          rcuprof_stats_geo *out)
{
    double m, v;
    int rc;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    out->n = n;
    out->gm = out->sd_log = out->gsd = out->lo = out->hi = NAN;
    out->level = level;
    if (x == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((rc = log_mean_var(x, n, &m, &v)) != RCUPROF_STATS_OK)
        return rc;
    out->gm = exp(m);
    if (n >= 2) {
        double hw;

        /* rounding can leave a variance of equal values a hair below 0 */
        out->sd_log = v > 0.0 ? sqrt(v) : 0.0;
        out->gsd = exp(out->sd_log);
        hw = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1))
             * out->sd_log / sqrt((double)n);
        out->lo = exp(m - hw);
        out->hi = exp(m + hw);
    }
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_describe(const double *x, size_t n, double level,
                           rcuprof_stats_summary *out)
{
    double *s, var;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    out->n = n;
    out->mean = out->median = out->sd = out->min = out->max = NAN;
    out->q1 = out->q3 = out->iqr = out->cv = NAN;
    out->level = level;
    out->mean_lo = out->mean_hi = NAN;
    out->median_lo = out->median_hi = out->median_coverage = NAN;
    if (x == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;

    rcuprof_stats__mean_var(x, n, &out->mean, &var);
    out->min = s[0];
    out->max = s[n - 1];
    out->median = rcuprof_stats__quantile_sorted(s, n, 0.5);
    out->q1 = rcuprof_stats__quantile_sorted(s, n, 0.25);
    out->q3 = rcuprof_stats__quantile_sorted(s, n, 0.75);
    out->iqr = out->q3 - out->q1;
    if (n >= 2) {
        double se, t;

        out->sd = sqrt(var);
        se = out->sd / sqrt((double)n);
        t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
        out->mean_lo = out->mean - t * se;
        out->mean_hi = out->mean + t * se;
        if (out->mean != 0.0)
            out->cv = out->sd / fabs(out->mean);
    }
    /* too small an n for the level just leaves the median interval NAN */
    (void)median_ci_sorted(s, n, level, &out->median_lo, &out->median_hi,
                           &out->median_coverage);
    free(s);
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_tukey(const double *x, size_t n, double k, int *flags,
                        size_t *n_out, double *lo_fence, double *hi_fence)
{
    double *s, q1, q3, lo, hi;
    size_t i, cnt = 0;

    if (n_out != NULL)
        *n_out = 0;
    if (lo_fence != NULL)
        *lo_fence = NAN;
    if (hi_fence != NULL)
        *hi_fence = NAN;
    if (x == NULL || flags == NULL || !(k >= 0.0) || !isfinite(k)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;
    q1 = rcuprof_stats__quantile_sorted(s, n, 0.25);
    q3 = rcuprof_stats__quantile_sorted(s, n, 0.75);
    free(s);
    lo = q1 - k * (q3 - q1);
    hi = q3 + k * (q3 - q1);
    for (i = 0; i < n; i++) {
        flags[i] = x[i] < lo ? -1 : x[i] > hi ? 1 : 0;
        cnt += flags[i] != 0;
    }
    if (n_out != NULL)
        *n_out = cnt;
    if (lo_fence != NULL)
        *lo_fence = lo;
    if (hi_fence != NULL)
        *hi_fence = hi;
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_modified_z(const double *x, size_t n, double threshold,
                             int *flags, double *z, size_t *n_out)
{
    double *s, med, mad;
    size_t i, cnt = 0;

    if (n_out != NULL)
        *n_out = 0;
    if (x == NULL || flags == NULL || !(threshold > 0.0)
        || !isfinite(threshold) || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;
    med = rcuprof_stats__quantile_sorted(s, n, 0.5);
    for (i = 0; i < n; i++)
        s[i] = fabs(x[i] - med);
    qsort(s, n, sizeof(*s), rcuprof_sort_cmp_double);
    mad = rcuprof_stats__quantile_sorted(s, n, 0.5);
    free(s);
    for (i = 0; i < n; i++) {
        double m = mad > 0.0 ? 0.6745 * (x[i] - med) / mad : NAN;

        if (z != NULL)
            z[i] = m;
        flags[i] = m < -threshold ? -1 : m > threshold ? 1 : 0;
        cnt += flags[i] != 0;
    }
    if (n_out != NULL)
        *n_out = cnt;
    return mad > 0.0 ? RCUPROF_STATS_OK : RCUPROF_STATS_EDEGENERATE;
}

int rcuprof_stats_stalls(const double *x, size_t n, double factor,
                         size_t *count, double *ref)
{
    double *s, r;
    size_t i, k = 0;

    if (count != NULL)
        *count = 0;
    if (ref != NULL)
        *ref = NAN;
    if (x == NULL || count == NULL || !(factor > 1.0) || !isfinite(factor)
        || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((s = rcuprof_stats__sorted_copy(x, n)) == NULL)
        return RCUPROF_STATS_ENOMEM;
    r = s[(n + 3) / 4 - 1];
    free(s);
    if (ref != NULL)
        *ref = r;
    if (!(r > 0.0))
        return RCUPROF_STATS_EDEGENERATE;
    for (i = 0; i < n; i++)
        k += x[i] > factor * r;
    *count = k;
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_noisy(const rcuprof_stats_summary *s, double cv_max)
{
    if (s == NULL || !(cv_max >= 0.0))
        return RCUPROF_STATS_EINVAL;
    if (isnan(s->cv))
        return 1;
    return s->cv > cv_max;
}
