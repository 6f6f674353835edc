/*
 * Ranks, the Wilcoxon signed-rank test and the Mann-Whitney U test, with
 * their exact null distributions for small samples.
 */
#include "rcuprof_stats.h"
#include "stats_local.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>

/* Limits of the public exact CDFs (time and memory stay small). */
#define PSIGNRANK_MAX_N    200
#define PWILCOX_MAX_MN     2500

struct keyed {
    double v;
    size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;

    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int rcuprof_stats_rank(const double *x, size_t n, double *ranks,
                       double *tie_sum)
{
    struct keyed *k;
    size_t i, j, l;
    double ts = 0.0;

    if (tie_sum != NULL)
        *tie_sum = NAN;
    if (x == NULL || ranks == NULL || !rcuprof_stats__all_finite(x, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    if ((k = malloc(n * sizeof(*k))) == NULL)
        return RCUPROF_STATS_ENOMEM;
    for (i = 0; i < n; i++) {
        k[i].v = x[i];
        k[i].i = i;
    }
    qsort(k, n, sizeof(*k), cmp_keyed);
    for (i = 0; i < n; i = j + 1) {
        double t, r;

        for (j = i; j + 1 < n && k[j + 1].v == k[i].v; j++)
            continue;
        /* positions i..j (0-based) share rank ((i + 1) + (j + 1)) / 2 */
        r = ((double)i + (double)j) / 2.0 + 1.0;
        for (l = i; l <= j; l++)
            ranks[k[l].i] = r;
        t = (double)(j - i + 1);
        ts += t * t * t - t;
    }
    free(k);
    if (tie_sum != NULL)
        *tie_sum = ts;
    return RCUPROF_STATS_OK;
}

/*
 * P(V <= v) for n untied nonzero values: p_k(s) = (p_{k-1}(s) +
 * p_{k-1}(s - k)) / 2 over k = 1..n; probabilities, so nothing overflows.
 */
static double psignrank(long v, size_t n)
{
    long max = (long)(n * (n + 1) / 2), s, k;
    double *p, acc = 0.0;

    if (v < 0)
        return 0.0;
    if (v >= max)
        return 1.0;
    if ((p = calloc((size_t)max + 1, sizeof(*p))) == NULL)
        return NAN;
    p[0] = 1.0;
    for (k = 1; k <= (long)n; k++) {
        long top = k * (k + 1) / 2;

        for (s = top; s >= 0; s--)
            p[s] = (p[s] + (s >= k ? p[s - k] : 0.0)) / 2.0;
    }
    for (s = 0; s <= v; s++)
        acc += p[s];
    free(p);
    return acc > 1.0 ? 1.0 : acc;
}

double rcuprof_stats_psignrank(double v, size_t n)
{
    if (isnan(v) || n == 0 || n > PSIGNRANK_MAX_N)
        return NAN;
    if (v < 0.0)
        return 0.0;
    if (v >= (double)(n * (n + 1) / 2))
        return 1.0;
    return psignrank((long)floor(v), n);
}

/*
 * P(W <= w), W = U of a sample of m among m + n.  c[j][s] counts the ways
 * to choose j of the ranks seen so far with rank sum s; W = rank sum of
 * the m chosen - m(m+1)/2.  The law of W is symmetric in (m, n), so the
 * smaller size is the one chosen.  Doubles: counts beyond 2^53 lose only
 * relative precision (there are only additions).
 */
static double pwilcox(long w, size_t m, size_t n)
{
    size_t N, j, r, width;
    long smax, s, base;
    double *c, total = 0.0, acc = 0.0;

    if (w < 0)
        return 0.0;
    if (w >= (long)(m * n))
        return 1.0;
    if (m > n) {
        size_t t = m;

        m = n;
        n = t;
    }
    N = m + n;
    smax = (long)(m * N - m * (m - 1) / 2);
    width = (size_t)smax + 1;
    if ((c = calloc((m + 1) * width, sizeof(*c))) == NULL)
        return NAN;
    c[0] = 1.0;
    for (r = 1; r <= N; r++) {
        size_t jmax = r < m ? r : m;

        for (j = jmax; j >= 1; j--) {
            double *row = c + j * width, *prev = c + (j - 1) * width;

            for (s = smax; s >= (long)r; s--)
                row[s] += prev[s - (long)r];
        }
    }
    base = (long)(m * (m + 1) / 2);
    for (s = 0; s <= smax; s++) {
        double v = c[m * width + (size_t)s];

        total += v;
        if (s - base <= w)
            acc += v;
    }
    free(c);
    return acc / total;
}

double rcuprof_stats_pwilcox(double w, size_t m, size_t n)
{
    if (isnan(w) || m == 0 || n == 0 || m > PWILCOX_MAX_MN
        || n > PWILCOX_MAX_MN || m * n > PWILCOX_MAX_MN)
        return NAN;
    if (w < 0.0)
        return 0.0;
    if (w >= (double)(m * n))
        return 1.0;
    return pwilcox((long)floor(w), m, n);
}

static void rank_test_clear(rcuprof_stats_rank_test *out)
{
    out->statistic = out->p = out->z = out->effect = NAN;
    out->n_used = out->n_zero = 0;
    out->exact = out->ties = 0;
}

/* Two-sided normal p with continuity correction, as R's wilcox.test. */
static void normal_p(double centred, double var, double *z, double *p)
{
    double corr = centred > 0.0 ? 0.5 : centred < 0.0 ? -0.5 : 0.0;

    if (!(var > 0.0)) {
        *z = 0.0;
        *p = 1.0;
        return;
    }
    *z = (centred - corr) / sqrt(var);
    *p = 2.0 * gsl_cdf_ugaussian_Q(fabs(*z));
    if (*p > 1.0)
        *p = 1.0;
}

int rcuprof_stats_signed_rank(const double *d, size_t n,
                              rcuprof_stats_rank_test *out)
{
    double *abs_d, *ranks, tie_sum, v = 0.0, mu, total;
    size_t i, k = 0;
    int rc;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    rank_test_clear(out);
    if (d == NULL || !rcuprof_stats__all_finite(d, n))
        return RCUPROF_STATS_EINVAL;
    if (n == 0)
        return RCUPROF_STATS_ETOOFEW;
    abs_d = malloc(n * sizeof(*abs_d));
    ranks = malloc(n * sizeof(*ranks));
    if (abs_d == NULL || ranks == NULL) {
        free(abs_d);
        free(ranks);
        return RCUPROF_STATS_ENOMEM;
    }
    for (i = 0; i < n; i++)
        if (d[i] != 0.0)
            abs_d[k++] = fabs(d[i]);
    out->n_used = k;
    out->n_zero = n - k;
    if (k == 0) {
        out->statistic = 0.0;
        out->p = 1.0;
        out->exact = 1;
        free(abs_d);
        free(ranks);
        return RCUPROF_STATS_OK;
    }
    if ((rc = rcuprof_stats_rank(abs_d, k, ranks, &tie_sum)) != 0) {
        free(abs_d);
        free(ranks);
        return rc;
    }
    for (i = 0, k = 0; i < n; i++) {
        if (d[i] == 0.0)
            continue;
        if (d[i] > 0.0)
            v += ranks[k];
        k++;
    }
    free(abs_d);
    free(ranks);

    total = (double)k * (double)(k + 1) / 2.0;
    mu = total / 2.0;
    out->statistic = v;
    out->effect = v / total;
    out->ties = tie_sum > 0.0;
    if (!out->ties && k <= RCUPROF_STATS_SIGNRANK_EXACT_MAX) {
        double p;

        /* V is an integer here; the upper tail by symmetry */
        if (v > mu)
            p = psignrank((long)(total - v), k);
        else
            p = psignrank((long)v, k);
        if (isnan(p))
            return RCUPROF_STATS_ENOMEM;
        out->exact = 1;
        out->p = 2.0 * p > 1.0 ? 1.0 : 2.0 * p;
    } else {
        double kk = (double)k;
        double var = kk * (kk + 1.0) * (2.0 * kk + 1.0) / 24.0
                     - tie_sum / 48.0;

        normal_p(v - mu, var, &out->z, &out->p);
    }
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_mann_whitney(const double *x, size_t nx,
                               const double *y, size_t ny,
                               rcuprof_stats_rank_test *out)
{
    double *all, *ranks, tie_sum, rsum = 0.0, w, mn;
    size_t i, N = nx + ny;
    int rc;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    rank_test_clear(out);
    if (x == NULL || y == NULL || !rcuprof_stats__all_finite(x, nx)
        || !rcuprof_stats__all_finite(y, ny))
        return RCUPROF_STATS_EINVAL;
    if (nx == 0 || ny == 0)
        return RCUPROF_STATS_ETOOFEW;
    all = malloc(N * sizeof(*all));
    ranks = malloc(N * sizeof(*ranks));
    if (all == NULL || ranks == NULL) {
        free(all);
        free(ranks);
        return RCUPROF_STATS_ENOMEM;
    }
    for (i = 0; i < nx; i++)
        all[i] = x[i];
    for (i = 0; i < ny; i++)
        all[nx + i] = y[i];
    rc = rcuprof_stats_rank(all, N, ranks, &tie_sum);
    for (i = 0; rc == 0 && i < nx; i++)
        rsum += ranks[i];
    free(all);
    free(ranks);
    if (rc != 0)
        return rc;

    mn = (double)nx * (double)ny;
    w = rsum - (double)nx * (double)(nx + 1) / 2.0;
    out->statistic = w;
    out->effect = w / mn;
    out->n_used = N;
    out->ties = tie_sum > 0.0;
    if (!out->ties && nx <= RCUPROF_STATS_MW_EXACT_MAX
        && ny <= RCUPROF_STATS_MW_EXACT_MAX) {
        double p;

        if (w > mn / 2.0)
            p = pwilcox((long)(mn - w), nx, ny);
        else
            p = pwilcox((long)w, nx, ny);
        if (isnan(p))
            return RCUPROF_STATS_ENOMEM;
        out->exact = 1;
        out->p = 2.0 * p > 1.0 ? 1.0 : 2.0 * p;
    } else {
        double Nd = (double)N;
        double var = mn / 12.0 * ((Nd + 1.0) - tie_sum / (Nd * (Nd - 1.0)));

        normal_p(w - mn / 2.0, var, &out->z, &out->p);
    }
    return RCUPROF_STATS_OK;
}
