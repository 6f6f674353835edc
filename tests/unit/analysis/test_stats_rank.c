/*
 * Ranks, the exact null distributions and the two rank tests.
 *
 * Reference values:
 *   - R's ?wilcox.test examples (Hollander & Wolfe 1973):
 *       depression, paired, p. 29: V = 40, one-sided p = 0.01953, so the
 *       two-sided exact p is 2 * 10/512 = 0.0390625;
 *       permeability, p. 69: W = 35, one-sided p = 0.1272, two-sided
 *       exact 0.2544 (= 2 * 382/3003).
 *   - signed-rank null CDF for n = 10, P(V <= v), as tabled (e.g.
 *     Hollander & Wolfe, table A.4): v = 3: 5/1024, v = 8: 25/1024,
 *     v = 10: 43/1024, v = 27: 1/2 (symmetry).
 *   - Mann-Whitney null CDF for m = 4, n = 5, P(W <= w): 1/126, 2/126,
 *     4/126, 18/126, 69/126.
 *   - normal approximations: the tie-corrected variance and continuity
 *     correction formulas evaluated by hand per row.
 * reference_values.py recomputes every one of these by brute-force
 * enumeration (standard library only).
 */
#include "rcuprof_stats.h"
#include "stats_test.h"

#include <stdlib.h>

static const struct rank_row {
    int line;
    double x[8];
    size_t n;
    double ranks[8];
    double tie_sum;
} rank_rows[] = {
    { __LINE__, { 30, 10, 20 }, 3, { 3, 1, 2 }, 0 },
    /* 2 2 2 -> rank 2 each; t = 3: 27 - 3 = 24 */
    { __LINE__, { 2, 2, 2 }, 3, { 2, 2, 2 }, 24 },
    /* 1 2 2 3 3 3 4: 2s at 2,3 -> 2.5; 3s at 4,5,6 -> 5; 6 + 24 */
    { __LINE__, { 3, 2, 4, 3, 1, 2, 3 }, 7, { 5, 2.5, 7, 5, 1, 2.5, 5 },
      30 },
    { __LINE__, { -1.5 }, 1, { 1 }, 0 },
};

static void test_rank(void **state)
{
    size_t i, j;

    for (i = 0; i < NELEM(rank_rows); i++) {
        const struct rank_row *r = &rank_rows[i];
        double ranks[8], ts;

        CHECK_INT(r->line, rcuprof_stats_rank(r->x, r->n, ranks, &ts), 0);
        CHECK_NEAR(r->line, ts, r->tie_sum, 0);
        for (j = 0; j < r->n; j++)
            CHECK_NEAR(r->line, ranks[j], r->ranks[j], 0);
    }
    CHECK_INT(__LINE__, rcuprof_stats_rank(rank_rows[0].x, 0, NULL, NULL),
              RCUPROF_STATS_EINVAL);
}

static const struct cdf_row {
    int line;
    double stat;
    size_t m, n;       /* signed-rank rows: m = 0 */
    double want;
} cdf_rows[] = {
    { __LINE__, 0, 0, 10, 1.0 / 1024 },
    { __LINE__, 3, 0, 10, 5.0 / 1024 },
    { __LINE__, 8, 0, 10, 25.0 / 1024 },
    { __LINE__, 10, 0, 10, 43.0 / 1024 },
    { __LINE__, 10.7, 0, 10, 43.0 / 1024 },     /* floored */
    { __LINE__, 27, 0, 10, 0.5 },
    { __LINE__, 55, 0, 10, 1.0 },
    { __LINE__, -1, 0, 10, 0.0 },
    /* n = 1: V is 0 or 1 with 1/2 each */
    { __LINE__, 0, 0, 1, 0.5 },
    /* n = 3: sums of subsets of {1,2,3}: 0 1 2 3 3 4 5 6 */
    { __LINE__, 3, 0, 3, 5.0 / 8 },
    { __LINE__, 3, 0, 0, NAN },
    { __LINE__, 3, 0, 201, NAN },
    { __LINE__, NAN, 0, 5, NAN },
    { __LINE__, 0, 4, 5, 1.0 / 126 },
    { __LINE__, 1, 4, 5, 2.0 / 126 },
    { __LINE__, 2, 4, 5, 4.0 / 126 },
    { __LINE__, 5, 4, 5, 18.0 / 126 },
    { __LINE__, 10, 4, 5, 69.0 / 126 },
    { __LINE__, 10, 5, 4, 69.0 / 126 },         /* symmetric in (m, n) */
    { __LINE__, 20, 4, 5, 1.0 },
    { __LINE__, -0.5, 4, 5, 0.0 },
    /* m = 1: W uniform on 0..n */
    { __LINE__, 2, 1, 9, 3.0 / 10 },
    /* m = n = 2: W in 0 1 2 2 3 4 (C(4,2) = 6) */
    { __LINE__, 2, 2, 2, 4.0 / 6 },
    { __LINE__, 1, 2501, 1, NAN },
    { __LINE__, 1, 51, 50, NAN },
};

static void test_null_cdfs(void **state)
{
    size_t i;

    for (i = 0; i < NELEM(cdf_rows); i++) {
        const struct cdf_row *r = &cdf_rows[i];
        double got = r->m == 0 ? rcuprof_stats_psignrank(r->stat, r->n)
                               : rcuprof_stats_pwilcox(r->stat, r->m, r->n);

        CHECK_NEAR(r->line, got, r->want, 1e-14);
    }
}

/* Every exact CDF is a distribution: symmetric and ending at 1. */
static void test_null_cdfs_symmetric(void **state)
{
    size_t n, m, v;

    for (n = 1; n <= 30; n++) {
        size_t top = n * (n + 1) / 2;

        for (v = 0; v < top; v++)
            CHECK_NEAR((int)n,
                       rcuprof_stats_psignrank((double)v, n)
                       + rcuprof_stats_psignrank((double)(top - v - 1), n),
                       1.0, 1e-12);
    }
    for (m = 1; m <= 12; m++)
        for (n = 1; n <= 12; n++)
            for (v = 0; v < m * n; v++)
                CHECK_NEAR((int)(100 * m + n),
                           rcuprof_stats_pwilcox((double)v, m, n)
                           + rcuprof_stats_pwilcox((double)(m * n - v - 1),
                                                   m, n),
                           1.0, 1e-12);
}

static const struct sr_row {
    int line;
    double d[40];
    size_t n;
    double v, p, z;
    size_t n_used, n_zero;
    int exact, ties;
} sr_rows[] = {
    /* depression data, x - y (R ?wilcox.test): V = 40, exact */
    { __LINE__, { 1.83 - 0.878, 0.50 - 0.647, 1.62 - 0.598, 2.48 - 2.05,
                  1.68 - 1.06, 1.88 - 1.29, 1.55 - 1.06, 3.06 - 3.14,
                  1.30 - 1.29 }, 9, 40, 0.0390625, NAN, 9, 0, 1, 0 },
    /* same, y - x: V = 45 - 40 = 5, same p */
    { __LINE__, { 0.878 - 1.83, 0.647 - 0.50, 0.598 - 1.62, 2.05 - 2.48,
                  1.06 - 1.68, 1.29 - 1.88, 1.06 - 1.55, 3.14 - 3.06,
                  1.29 - 1.30 }, 9, 5, 0.0390625, NAN, 9, 0, 1, 0 },
    /* all positive, n = 5: V = 15, p = 2/32 */
    { __LINE__, { 1, 2, 3, 4, 5 }, 5, 15, 0.0625, NAN, 5, 0, 1, 0 },
    /* n = 1: p = 2 * 1/2 = 1 */
    { __LINE__, { -3 }, 1, 0, 1, NAN, 1, 0, 1, 0 },
    /*
     * A zero is dropped; the exact conditional law of the other 4:
     * |d| ranks 2 3 1 4, V = 2 + 3 + 4 = 9 of 10; P(V >= 9) = P(V <= 1)
     * = 2/16, p = 0.25
     */
    { __LINE__, { 0, 1.5, 2.5, -0.5, 3.5 }, 5, 9, 0.25, NAN, 4, 1, 1, 0 },
    /*
     * Ties -> normal: |d| 1 1 2 3 3 4 ranks 1.5 1.5 3 4.5 4.5 6;
     * V = 1.5 + 3 + 4.5 + 4.5 + 6 = 19.5, mu = 10.5,
     * var = 6*7*13/24 - (6 + 6)/48 = 22.5, z = (9 - 0.5)/sqrt(22.5)
     */
    { __LINE__, { 1, -1, 2, 3, 3, 4 }, 6, 19.5, 0.0731397997,
      1.7919573408, 6, 0, 0, 1 },
    /* the same with a zero dropped */
    { __LINE__, { 1, -1, 0, 2, 3, 3, 4 }, 7, 19.5, 0.0731397997,
      1.7919573408, 6, 1, 0, 1 },
    /* all tied: var = 5*6*11/24 - 120/48 = 11.25, z = 7/sqrt(11.25) */
    { __LINE__, { 2, 2, 2, 2, 2 }, 5, 15, 0.0368884257, 2.0869967790,
      5, 0, 0, 1 },
    /*
     * n = 31 > 30 -> normal: d = 1..31 with 3, 10, 20 negative:
     * V = 496 - 33 = 463, mu = 248, var = 31*32*63/24 = 2604
     */
    { __LINE__, { 1, 2, -3, 4, 5, 6, 7, 8, 9, -10, 11, 12, 13, 14, 15, 16,
                  17, 18, 19, -20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                  31 }, 31, 463, 2.62866886764e-05, 4.2034589115,
      31, 0, 0, 0 },
    /* every d zero: no evidence, p = 1 */
    { __LINE__, { 0, 0, 0 }, 3, 0, 1, NAN, 0, 3, 1, 0 },
};

static void test_signed_rank(void **state)
{
    size_t i;

    for (i = 0; i < NELEM(sr_rows); i++) {
        const struct sr_row *r = &sr_rows[i];
        rcuprof_stats_rank_test t;

        CHECK_INT(r->line, rcuprof_stats_signed_rank(r->d, r->n, &t), 0);
        CHECK_NEAR(r->line, t.statistic, r->v, 1e-12);
        CHECK_NEAR(r->line, t.p, r->p, 1e-9 * (r->p > 1e-3 ? 1 : 1e-3));
        CHECK_NEAR(r->line, t.z, r->z, 1e-9);
        CHECK_INT(r->line, t.n_used, r->n_used);
        CHECK_INT(r->line, t.n_zero, r->n_zero);
        CHECK_INT(r->line, t.exact, r->exact);
        CHECK_INT(r->line, t.ties, r->ties);
        CHECK_NEAR(r->line, t.effect,
                   r->n_used ? r->v / (double)(r->n_used * (r->n_used + 1)
                                                / 2) : NAN, 1e-12);
    }
}

/* n = 30 untied is still exact; its p matches the tail of psignrank. */
static void test_signed_rank_exact_edge(void **state)
{
    double d[30];
    rcuprof_stats_rank_test t;
    size_t i;

    /* ranks 1..30, negative at 1..8: V = 465 - 36 = 429 */
    for (i = 0; i < 30; i++)
        d[i] = (i < 8 ? -1.0 : 1.0) * (double)(i + 1);
    CHECK_INT(__LINE__, rcuprof_stats_signed_rank(d, 30, &t), 0);
    CHECK_INT(__LINE__, t.exact, 1);
    CHECK_NEAR(__LINE__, t.statistic, 429, 0);
    /*
     * P(V >= 429) = P(V <= 36) by symmetry = (subsets of 1..30 summing to
     * at most 36) / 2^30 = 4950 / 2^30 (counted by recursive enumeration in
     * reference_values.py); p = 2 * 4950 / 2^30
     */
    CHECK_NEAR(__LINE__, t.p, 2 * 4950.0 / 1073741824.0, 1e-18);
    CHECK_NEAR(__LINE__, t.p, 2 * rcuprof_stats_psignrank(36, 30), 1e-18);
    /*
     * The normal approximation would have said 5.5e-5, six times too
     * much, in this tail: the reason for exact p-values at small n.
     */
    assert_true(erfc((429 - 232.5 - 0.5) / sqrt(30.0 * 31 * 61 / 24)
                     / sqrt(2.0)) > 5 * t.p);
}

static void test_signed_rank_errors(void **state)
{
    double d[] = { 1, NAN };
    rcuprof_stats_rank_test t;

    CHECK_INT(__LINE__, rcuprof_stats_signed_rank(d, 0, &t),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_signed_rank(d, 2, &t),
              RCUPROF_STATS_EINVAL);
    CHECK_NEAR(__LINE__, t.p, NAN, 0);
    CHECK_INT(__LINE__, rcuprof_stats_signed_rank(NULL, 2, &t),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_signed_rank(d, 1, NULL),
              RCUPROF_STATS_EINVAL);
}

static const struct mw_row {
    int line;
    double x[50], y[50];
    size_t nx, ny;
    double w, p, z;
    int exact, ties;
} mw_rows[] = {
    /* permeability data (R ?wilcox.test): W = 35 */
    { __LINE__, { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73,
                  1.46 }, { 1.15, 0.88, 0.90, 0.74, 1.21 }, 10, 5,
      35, 0.2544122544, NAN, 1, 0 },
    /* swapped: W = 50 - 35 = 15, same p */
    { __LINE__, { 1.15, 0.88, 0.90, 0.74, 1.21 }, { 0.80, 0.83, 1.89, 1.04,
                  1.45, 1.38, 1.91, 1.64, 0.73, 1.46 }, 5, 10,
      15, 0.2544122544, NAN, 1, 0 },
    /* complete separation: W = 0, p = 2/C(9,6) = 2/84 */
    { __LINE__, { 1, 2, 3, 4, 5, 6 }, { 7, 8, 9 }, 6, 3,
      0, 2.0 / 84, NAN, 1, 0 },
    /* 1 vs 1: W 0 or 1, p = 1 */
    { __LINE__, { 1 }, { 2 }, 1, 1, 0, 1, NAN, 1, 0 },
    /*
     * Ties -> normal: x 1 2 2 3, y 2 3 4 5 5: ranks of x 1 3 3 5.5,
     * W = 12.5 - 10 = 2.5; mn/2 = 10; tie sum 24 + 6 + 6 = 36;
     * var = 20/12 (10 - 36/72) = 15.8333, z = (-7.5 + 0.5)/sqrt(var)
     */
    { __LINE__, { 1, 2, 2, 3 }, { 2, 3, 4, 5, 5 }, 4, 5,
      2.5, 0.0785458510, -1.7591864148, 0, 1 },
    /* all tied: no evidence */
    { __LINE__, { 3, 3 }, { 3, 3, 3 }, 2, 3, 3, 1, 0, 0, 1 },
};

static void test_mann_whitney(void **state)
{
    size_t i;

    for (i = 0; i < NELEM(mw_rows); i++) {
        const struct mw_row *r = &mw_rows[i];
        rcuprof_stats_rank_test t;

        CHECK_INT(r->line, rcuprof_stats_mann_whitney(r->x, r->nx, r->y,
                                                      r->ny, &t), 0);
        CHECK_NEAR(r->line, t.statistic, r->w, 1e-12);
        CHECK_NEAR(r->line, t.p, r->p, 1e-9);
        CHECK_NEAR(r->line, t.z, r->z, 1e-9);
        CHECK_INT(r->line, t.exact, r->exact);
        CHECK_INT(r->line, t.ties, r->ties);
        CHECK_INT(r->line, t.n_used, r->nx + r->ny);
        CHECK_NEAR(r->line, t.effect, r->w / (double)(r->nx * r->ny), 1e-12);
    }
}

/* Sizes at the exact limit and beyond it. */
static void test_mann_whitney_sizes(void **state)
{
    double x[50], y[50];
    rcuprof_stats_rank_test t;
    size_t i;

    /*
     * x = 2, 4, ..., 100; y = 1, 3, ..., 99: each x(k) = 2k beats k of
     * the y, W = 1 + ... + 50 = 1275; 50 > 49 -> normal:
     * mu = 1250, var = 2500/12 * 101, z = 24.5/sqrt(var)
     */
    for (i = 0; i < 50; i++) {
        x[i] = 2.0 * (double)(i + 1);
        y[i] = 2.0 * (double)i + 1.0;
    }
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 50, y, 50, &t), 0);
    CHECK_INT(__LINE__, t.exact, 0);
    CHECK_NEAR(__LINE__, t.statistic, 1275, 0);
    CHECK_NEAR(__LINE__, t.z, 0.1688985869, 1e-9);
    CHECK_NEAR(__LINE__, t.p, 0.8658764107, 1e-9);
    /*
     * 49 and 49 is exact: x = 2..98 even, y = 1..97 odd, W = 1225 of
     * 2401; mu = 1200.5, so the p is 2 P(W <= 2401 - 1225 = 1176) and close
     * to the normal one, 2 Q((24.5 - 0.5)/sqrt(2401 * 99 / 12)) = 0.8646.
     */
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 49, y, 49, &t), 0);
    CHECK_INT(__LINE__, t.exact, 1);
    CHECK_NEAR(__LINE__, t.statistic, 1225, 0);
    CHECK_NEAR(__LINE__, t.p, 2 * rcuprof_stats_pwilcox(1176, 49, 49),
               1e-15);
    CHECK_NEAR(__LINE__, t.p,
               erfc(24.0 / sqrt(2401.0 * 99 / 12) / sqrt(2.0)), 2e-3);
}

static void test_mann_whitney_errors(void **state)
{
    double x[] = { 1, 2 }, bad[] = { INFINITY };
    rcuprof_stats_rank_test t;

    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 0, x, 2, &t),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 2, x, 0, &t),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 2, bad, 1, &t),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(NULL, 2, x, 2, &t),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mann_whitney(x, 2, x, 2, NULL),
              RCUPROF_STATS_EINVAL);
}


/*
 * Brute force inside the test: the exact p-values against enumeration of
 * every sign vector (signed-rank) and every split (Mann-Whitney) on
 * pseudo-random untied data, n up to 12 and m + n up to 14.
 */
static unsigned lcg(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffu;
}

static double brute_signed_rank(const double *d, size_t n)
{
    /* untied: the rank of |d[i]| is 1 + the count of smaller |d| */
    double r[16], v = 0, mu = (double)(n * (n + 1)) / 4, p;
    unsigned long mask, ge = 0, le = 0, total = 1ul << n;
    size_t i, j;

    for (i = 0; i < n; i++) {
        r[i] = 1;
        for (j = 0; j < n; j++)
            r[i] += fabs(d[j]) < fabs(d[i]);
        if (d[i] > 0)
            v += r[i];
    }
    for (mask = 0; mask < total; mask++) {
        double s = 0;

        for (i = 0; i < n; i++)
            if (mask & (1ul << i))
                s += r[i];
        ge += s >= v;
        le += s <= v;
    }
    p = 2.0 * (double)(v > mu ? ge : le) / (double)total;
    return p > 1 ? 1 : p;
}

static double brute_mann_whitney(const double *x, size_t m, const double *y,
                                 size_t n)
{
    /* W over every choice of m of the m + n pooled values as "x" */
    double pool[16], w = 0, p;
    unsigned long mask, ge = 0, le = 0, count = 0;
    size_t i, j, N = m + n;

    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            w += x[i] > y[j];
    for (i = 0; i < m; i++)
        pool[i] = x[i];
    for (j = 0; j < n; j++)
        pool[m + j] = y[j];
    for (mask = 0; mask < (1ul << N); mask++) {
        double s = 0;

        if ((size_t)__builtin_popcountl(mask) != m)
            continue;
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                if ((mask & (1ul << i)) && !(mask & (1ul << j)))
                    s += pool[i] > pool[j];
        count++;
        ge += s >= w;
        le += s <= w;
    }
    p = 2.0 * (double)(w > (double)(m * n) / 2 ? ge : le) / (double)count;
    return p > 1 ? 1 : p;
}

static void test_rank_tests_brute(void **state)
{
    unsigned seed = 2024;
    double d[16], x[16], y[16];
    size_t n, m, i, trial;
    rcuprof_stats_rank_test t;

    for (n = 1; n <= 12; n++) {
        for (trial = 0; trial < 3; trial++) {
            /* distinct magnitudes: (i + 1) + a fraction, random sign */
            for (i = 0; i < n; i++)
                d[i] = ((double)(i + 1) + (double)(lcg(&seed) % 100) / 1000)
                       * (lcg(&seed) & 1 ? 1 : -1);
            CHECK_INT((int)n, rcuprof_stats_signed_rank(d, n, &t), 0);
            CHECK_INT((int)n, t.exact, 1);
            CHECK_NEAR((int)n, t.p, brute_signed_rank(d, n), 1e-14);
        }
    }
    for (m = 1; m <= 7; m++) {
        for (n = 1; n <= 7; n++) {
            /* distinct values: a random order of 0..m+n-1 */
            double v[16];

            for (i = 0; i < m + n; i++)
                v[i] = (double)i;
            for (i = m + n - 1; i > 0; i--) {
                size_t k = lcg(&seed) % (i + 1);
                double tmp = v[i];

                v[i] = v[k];
                v[k] = tmp;
            }
            for (i = 0; i < m; i++)
                x[i] = v[i];
            for (i = 0; i < n; i++)
                y[i] = v[m + i];
            CHECK_INT((int)(100 * m + n),
                      rcuprof_stats_mann_whitney(x, m, y, n, &t), 0);
            CHECK_INT((int)(100 * m + n), t.exact, 1);
            CHECK_NEAR((int)(100 * m + n), t.p,
                       brute_mann_whitney(x, m, y, n), 1e-14);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_null_cdfs),
        cmocka_unit_test(test_null_cdfs_symmetric),
        cmocka_unit_test(test_signed_rank),
        cmocka_unit_test(test_signed_rank_exact_edge),
        cmocka_unit_test(test_signed_rank_errors),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_mann_whitney_sizes),
        cmocka_unit_test(test_mann_whitney_errors),
        cmocka_unit_test(test_rank_tests_brute),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
