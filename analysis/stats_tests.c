/*
 * The paired block comparison, Welch's t-test, Holm's correction and the
 * minimum detectable effect.
 */
#include "rcuprof_stats.h"
#include "stats_local.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>

int rcuprof_stats_paired_compare(const double *a, const double *b, size_t n,
                                 double level, double *ratios,
                                 rcuprof_stats_paired *out)
{
    double *lr, var, t, se;
    size_t i;
    int rc;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    out->n = n;
    out->level = level;
    out->mean_log = out->sd_log = out->gm_ratio = out->change_pct = NAN;
    out->change_lo_pct = out->change_hi_pct = out->t_p = NAN;
    out->wilcoxon.statistic = out->wilcoxon.p = out->wilcoxon.z = NAN;
    out->wilcoxon.effect = NAN;
    out->wilcoxon.n_used = out->wilcoxon.n_zero = 0;
    out->wilcoxon.exact = out->wilcoxon.ties = 0;
    if (a == NULL || b == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(a, n)
        || !rcuprof_stats__all_finite(b, n))
        return RCUPROF_STATS_EINVAL;
    if (n < 2)
        return RCUPROF_STATS_ETOOFEW;
    for (i = 0; i < n; i++)
        if (!(a[i] > 0.0) || !(b[i] > 0.0))
            return RCUPROF_STATS_EDEGENERATE;
    if ((lr = malloc(n * sizeof(*lr))) == NULL)
        return RCUPROF_STATS_ENOMEM;
    for (i = 0; i < n; i++) {
        /*
         * log of the ratio, not log b - log a: blocks with equal ratios
         * give equal logs, so their ties are seen as ties
         */
        double r = b[i] / a[i];

        if (!(r > 0.0) || !isfinite(r)) {
            free(lr);
            return RCUPROF_STATS_EDEGENERATE;
        }
        if (ratios != NULL)
            ratios[i] = r;
        lr[i] = log(r);
    }
    rcuprof_stats__mean_var(lr, n, &out->mean_log, &var);
    out->sd_log = sqrt(var > 0.0 ? var : 0.0);
    se = out->sd_log / sqrt((double)n);
    t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
    out->gm_ratio = exp(out->mean_log);
    out->change_pct = 100.0 * expm1(out->mean_log);
    out->change_lo_pct = 100.0 * expm1(out->mean_log - t * se);
    out->change_hi_pct = 100.0 * expm1(out->mean_log + t * se);
    if (se > 0.0)
        out->t_p = 2.0 * gsl_cdf_tdist_Q(fabs(out->mean_log / se),
                                         (double)(n - 1));
    rc = rcuprof_stats_signed_rank(lr, n, &out->wilcoxon);
    free(lr);
    return rc;
}

int rcuprof_stats_two_stage_t(const double *d, size_t n, size_t n0,
                              double level, rcuprof_stats_two_stage *out)
{
    double m, v, q, se;
    size_t i;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    out->n = n;
    out->n0 = n0;
    out->level = level;
    out->mean = out->sd0 = out->df = out->lo = out->hi = NAN;
    out->t = out->p = NAN;
    if (d == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(d, n))
        return RCUPROF_STATS_EINVAL;
    if (n0 < 2 || n < n0)
        return RCUPROF_STATS_ETOOFEW;
    rcuprof_stats__mean_var(d, n0, &m, &v);
    out->sd0 = sqrt(v > 0.0 ? v : 0.0);
    for (i = 0, m = 0.0; i < n; i++)
        m += d[i];
    out->mean = m / (double)n;
    out->df = (double)(n0 - 1);
    se = out->sd0 / sqrt((double)n);
    q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, out->df);
    out->lo = out->mean - q * se;
    out->hi = out->mean + q * se;
    if (se > 0.0) {
        out->t = out->mean / se;
        out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    }
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_welch_test(const double *x, size_t nx,
                             const double *y, size_t ny, double level,
                             rcuprof_stats_welch *out)
{
    double vx, vy, sx, sy, q;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    out->mean_x = out->mean_y = out->diff = out->se = out->t = NAN;
    out->df = out->p = out->lo = out->hi = NAN;
    out->level = level;
    if (x == NULL || y == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(x, nx)
        || !rcuprof_stats__all_finite(y, ny))
        return RCUPROF_STATS_EINVAL;
    if (nx < 2 || ny < 2)
        return RCUPROF_STATS_ETOOFEW;
    rcuprof_stats__mean_var(x, nx, &out->mean_x, &vx);
    rcuprof_stats__mean_var(y, ny, &out->mean_y, &vy);
    out->diff = out->mean_x - out->mean_y;
    sx = vx / (double)nx;       /* squared standard errors */
    sy = vy / (double)ny;
    if (!(sx + sy > 0.0))
        return RCUPROF_STATS_EDEGENERATE;
    out->se = sqrt(sx + sy);
    out->df = (sx + sy) * (sx + sy)
              / (sx * sx / (double)(nx - 1) + sy * sy / (double)(ny - 1));
    out->t = out->diff / out->se;
    out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, out->df);
    out->lo = out->diff - q * out->se;
    out->hi = out->diff + q * out->se;
    return RCUPROF_STATS_OK;
}

struct pidx {
    double p;
    size_t i;
};

static int cmp_pidx(const void *a, const void *b)
{
    const struct pidx *x = a, *y = b;

    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int rcuprof_stats_holm(const double *p, size_t n, double *adj)
{
    struct pidx *s;
    size_t i, m = 0;
    double run = 0.0;

    if (p == NULL || adj == NULL)
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    for (i = 0; i < n; i++)
        if (!isnan(p[i]) && !(p[i] >= 0.0 && p[i] <= 1.0))
            return RCUPROF_STATS_EINVAL;
    if ((s = malloc(n * sizeof(*s))) == NULL)
        return RCUPROF_STATS_ENOMEM;
    for (i = 0; i < n; i++) {
        if (isnan(p[i]))
            continue;
        s[m].p = p[i];
        s[m].i = i;
        m++;
    }
    qsort(s, m, sizeof(*s), cmp_pidx);
    /* p may alias adj: every p was copied into s already */
    for (i = 0; i < n; i++)
        if (isnan(p[i]))
            adj[i] = NAN;
    for (i = 0; i < m; i++) {
        double v = (double)(m - i) * s[i].p;

        if (v > run)
            run = v;            /* step-down: never below an earlier one */
        adj[s[i].i] = run < 1.0 ? run : 1.0;
    }
    free(s);
    return RCUPROF_STATS_OK;
}

static int mde_check(size_t n, double alpha, double power)
{
    if (!rcuprof_stats__open_unit(alpha) || !rcuprof_stats__open_unit(power))
        return RCUPROF_STATS_EINVAL;
    if (n < 2)
        return RCUPROF_STATS_ETOOFEW;
    return RCUPROF_STATS_OK;
}

static double mde_t_sum(double alpha, double power, double df)
{
    return gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df)
           + gsl_cdf_tdist_Pinv(power, df);
}

static double z_sum(double alpha, double power)
{
    return gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0)
           + gsl_cdf_ugaussian_Pinv(power);
}

int rcuprof_stats_mde_paired(double sd_log, size_t n, double alpha,
                             double power, double *mde_pct)
{
    int rc;

    if (mde_pct == NULL)
        return RCUPROF_STATS_EINVAL;
    *mde_pct = NAN;
    if (!(sd_log >= 0.0) || !isfinite(sd_log))
        return RCUPROF_STATS_EINVAL;
    if ((rc = mde_check(n, alpha, power)) != 0)
        return rc;
    *mde_pct = 100.0 * expm1(z_sum(alpha, power) * sd_log
                             / sqrt((double)n));
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_mde_paired_t(double sd_log, size_t n, double alpha,
                               double power, double *mde_pct)
{
    double df;
    int rc;

    if (mde_pct == NULL)
        return RCUPROF_STATS_EINVAL;
    *mde_pct = NAN;
    if (!(sd_log >= 0.0) || !isfinite(sd_log))
        return RCUPROF_STATS_EINVAL;
    if ((rc = mde_check(n, alpha, power)) != 0)
        return rc;
    df = (double)(n - 1);
    *mde_pct = 100.0 * expm1(mde_t_sum(alpha, power, df) * sd_log
                             / sqrt((double)n));
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_mde_unpaired_log(double sd_la, size_t na, double sd_lb,
                                   size_t nb, double alpha, double power,
                                   double *mde_pct)
{
    double sa, sb, df;
    int rc;

    if (mde_pct == NULL)
        return RCUPROF_STATS_EINVAL;
    *mde_pct = NAN;
    if (!(sd_la >= 0.0) || !isfinite(sd_la) || !(sd_lb >= 0.0)
        || !isfinite(sd_lb))
        return RCUPROF_STATS_EINVAL;
    if ((rc = mde_check(na < nb ? na : nb, alpha, power)) != 0)
        return rc;
    sa = sd_la * sd_la / (double)na;
    sb = sd_lb * sd_lb / (double)nb;
    if (!(sa + sb > 0.0)) {
        *mde_pct = 0.0;
        return RCUPROF_STATS_OK;
    }
    df = (sa + sb) * (sa + sb)
         / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
    *mde_pct = 100.0 * expm1(mde_t_sum(alpha, power, df) * sqrt(sa + sb));
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_mde_two_stage(double sd0, size_t n0, size_t n,
                                double alpha, double power, double *mde_pct)
{
    double df;
    int rc;

    if (mde_pct == NULL)
        return RCUPROF_STATS_EINVAL;
    *mde_pct = NAN;
    if (!(sd0 >= 0.0) || !isfinite(sd0))
        return RCUPROF_STATS_EINVAL;
    if ((rc = mde_check(n0, alpha, power)) != 0)
        return rc;
    if (n < n0)
        return RCUPROF_STATS_ETOOFEW;
    df = (double)(n0 - 1);
    *mde_pct = 100.0 * expm1(mde_t_sum(alpha, power, df) * sd0
                             / sqrt((double)n));
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_two_stage_n(double sd0, size_t n0, double target_pct,
                              double alpha, double power, size_t max,
                              size_t *n)
{
    double mde, q, need;
    int rc;

    if (n == NULL)
        return RCUPROF_STATS_EINVAL;
    *n = 0;
    if (!(target_pct > 0.0) || !isfinite(target_pct))
        return RCUPROF_STATS_EINVAL;
    if ((rc = rcuprof_stats_mde_two_stage(sd0, n0, n0, alpha, power, &mde))
        != 0)
        return rc;
    if (mde <= target_pct) {
        *n = n0;
        return RCUPROF_STATS_OK;
    }
    /* MDE(n) <= target  <=>  n >= (q sd0 / log1p(target/100))^2 */
    q = (mde_t_sum(alpha, power, (double)(n0 - 1))) * sd0
        / log1p(target_pct / 100.0);
    need = ceil(q * q * (1.0 - 1e-12));
    if (need > (double)max) {
        *n = max + 1;
        return RCUPROF_STATS_OK;
    }
    *n = need < (double)n0 ? n0 : (size_t)need;
    /* Rounding at the boundary: the MDE at *n is at or below the target. */
    while (*n <= max
           && rcuprof_stats_mde_two_stage(sd0, n0, *n, alpha, power, &mde)
              == RCUPROF_STATS_OK && mde > target_pct)
        (*n)++;
    return RCUPROF_STATS_OK;
}

double rcuprof_stats_signrank_min_p(size_t n)
{
    if (n == 0)
        return NAN;
    return n >= 2 ? ldexp(1.0, 1 - (int)(n > 1100 ? 1100 : n)) : 1.0;
}

double rcuprof_stats_mw_min_p(size_t nx, size_t ny)
{
    double c = 1.0;
    size_t k, m = nx < ny ? nx : ny, N = nx + ny;

    if (nx == 0 || ny == 0)
        return NAN;
    for (k = 1; k <= m; k++)        /* C(N, m), exact while it fits */
        c = c * (double)(N - m + k) / (double)k;
    return c > 2.0 ? 2.0 / c : 1.0;
}

int rcuprof_stats_mde_unpaired(double mean_a, double sd_a, size_t na,
                               double sd_b, size_t nb, double alpha,
                               double power, double *mde_pct)
{
    int rc;

    if (mde_pct == NULL)
        return RCUPROF_STATS_EINVAL;
    *mde_pct = NAN;
    if (!isfinite(mean_a) || !(sd_a >= 0.0) || !isfinite(sd_a)
        || !(sd_b >= 0.0) || !isfinite(sd_b))
        return RCUPROF_STATS_EINVAL;
    if ((rc = mde_check(na < nb ? na : nb, alpha, power)) != 0)
        return rc;
    if (mean_a == 0.0)
        return RCUPROF_STATS_EDEGENERATE;
    *mde_pct = 100.0 * z_sum(alpha, power)
               * sqrt(sd_a * sd_a / (double)na + sd_b * sd_b / (double)nb)
               / fabs(mean_a);
    return RCUPROF_STATS_OK;
}
