/*
 * The paired block comparison, Welch's t-test, Holm's correction and the
 * minimum detectable effect.
 *
 * Reference values:
 *   - Welch on R's sleep data (?t.test; Student 1908): t.test(extra ~
 *     group, data = sleep) prints t = -1.8608, df = 17.776,
 *     p-value = 0.07939, 95% CI -3.3654832 0.2054832.
 *   - t.test(1:3, 4:6): t = -3.6742, df = 4, p-value = 0.02131,
 *     95% CI -5.266958 -0.733042.
 *   - paired ratios: by hand from ln(r), t(.975, 4) = 2.7764451; the
 *     figures are recomputed by reference_values.py (Simpson integration of
 *     the t density, independent of GSL).
 *   - Holm: by hand per row (Holm 1979; R's p.adjust(method = "holm")).
 *   - MDE: z(.975) = 1.959964, z(.8) = 0.841621 (normal tables).
 */
#include "rcuprof_stats.h"
#include "stats_test.h"

#include <stdlib.h>

static void test_paired_ratios(void **state)
{
    /* b = a r with r = 1.10 1.20 0.90 1.05 1.15 */
    double a[] = { 100, 200, 50, 80, 120 };
    double r[] = { 1.10, 1.20, 0.90, 1.05, 1.15 };
    double b[5], ratios[5];
    rcuprof_stats_paired p;
    size_t i;

    for (i = 0; i < 5; i++)
        b[i] = a[i] * r[i];
    CHECK_INT(__LINE__, rcuprof_stats_paired_compare(a, b, 5, 0.95, ratios,
                                                     &p), 0);
    for (i = 0; i < 5; i++)
        CHECK_NEAR(__LINE__, ratios[i], r[i], 1e-14);
    CHECK_INT(__LINE__, p.n, 5);
    /* mean ln r = ln(1.1 1.2 0.9 1.05 1.15)/5 = ln(1.434510)/5 */
    CHECK_NEAR(__LINE__, p.mean_log, log(1.1 * 1.2 * 0.9 * 1.05 * 1.15) / 5,
               1e-14);
    CHECK_NEAR(__LINE__, p.gm_ratio, 1.074832317290, 1e-11);
    CHECK_NEAR(__LINE__, p.change_pct, 7.4832317290, 1e-9);
    CHECK_NEAR(__LINE__, p.sd_log, 0.1110193729, 1e-10);
    CHECK_NEAR(__LINE__, p.change_lo_pct, -6.3573358631, 1e-7);
    CHECK_NEAR(__LINE__, p.change_hi_pct, 23.3694620866, 1e-7);
    CHECK_NEAR(__LINE__, p.t_p, 0.2197553512, 1e-8);
    /*
     * Signed-rank on ln r: |ln r| ranks 1.05 < 1.1 < 0.9 < 1.15 < 1.2,
     * positive 1 + 2 + 4 + 5 = 12; P(V >= 12) = P(V <= 3) = 5/32
     */
    CHECK_NEAR(__LINE__, p.wilcoxon.statistic, 12, 0);
    CHECK_NEAR(__LINE__, p.wilcoxon.p, 10.0 / 32, 1e-15);
    CHECK_INT(__LINE__, p.wilcoxon.exact, 1);
    CHECK_NEAR(__LINE__, p.level, 0.95, 0);
}

/* A/B swapped: the change inverts, the p-values do not move. */
static void test_paired_swap(void **state)
{
    double a[] = { 10, 12, 11, 9, 10.5, 11.5 };
    double b[] = { 9, 11.5, 10, 9.1, 9.9, 10.2 };
    rcuprof_stats_paired ab, ba;

    CHECK_INT(__LINE__, rcuprof_stats_paired_compare(a, b, 6, 0.95, NULL,
                                                     &ab), 0);
    CHECK_INT(__LINE__, rcuprof_stats_paired_compare(b, a, 6, 0.95, NULL,
                                                     &ba), 0);
    CHECK_NEAR(__LINE__, ab.gm_ratio * ba.gm_ratio, 1, 1e-14);
    CHECK_NEAR(__LINE__, (1 + ab.change_lo_pct / 100)
                         * (1 + ba.change_hi_pct / 100), 1, 1e-14);
    CHECK_NEAR(__LINE__, ab.t_p, ba.t_p, 1e-14);
    CHECK_NEAR(__LINE__, ab.wilcoxon.p, ba.wilcoxon.p, 1e-14);
    CHECK_NEAR(__LINE__, ab.wilcoxon.statistic + ba.wilcoxon.statistic, 21,
               0);
}

static const struct paired_row {
    int line;
    double a[6], b[6];
    size_t n;
    int rc;
    double change, lo, hi, t_p, w_p;
} paired_rows[] = {
    /* identical: no change, a zero-width interval, p = 1 */
    { __LINE__, { 5, 6, 7 }, { 5, 6, 7 }, 3, 0, 0, 0, 0, NAN, 1 },
    /*
     * constant ratio 1.1: +10% exactly, zero width; signed-rank of five
     * tied values: var 11.25, z = 7/sqrt(11.25), p = 0.0368884257
     */
    { __LINE__, { 1, 2, 4, 8, 16 }, { 1.1, 2.2, 4.4, 8.8, 17.6 }, 5, 0,
      10, 10, 10, NAN, 0.0368884257 },
    { __LINE__, { 1 }, { 2 }, 1, RCUPROF_STATS_ETOOFEW,
      NAN, NAN, NAN, NAN, NAN },
    { __LINE__, { 1, 2 }, { 1, 0 }, 2, RCUPROF_STATS_EDEGENERATE,
      NAN, NAN, NAN, NAN, NAN },
    { __LINE__, { -1, 2 }, { 1, 3 }, 2, RCUPROF_STATS_EDEGENERATE,
      NAN, NAN, NAN, NAN, NAN },
    { __LINE__, { NAN, 2 }, { 1, 3 }, 2, RCUPROF_STATS_EINVAL,
      NAN, NAN, NAN, NAN, NAN },
};

static void test_paired_rows(void **state)
{
    size_t i;

    for (i = 0; i < NELEM(paired_rows); i++) {
        const struct paired_row *r = &paired_rows[i];
        rcuprof_stats_paired p;

        CHECK_INT(r->line, rcuprof_stats_paired_compare(r->a, r->b, r->n,
                                                        0.95, NULL, &p),
                  r->rc);
        if (r->rc != 0) {
            CHECK_NEAR(r->line, p.change_pct, NAN, 0);
            continue;
        }
        /* the ratio 1.1 is not exact in binary: allow rounding */
        CHECK_NEAR(r->line, p.change_pct, r->change, 1e-12);
        CHECK_NEAR(r->line, p.change_lo_pct, r->lo, 1e-6);
        CHECK_NEAR(r->line, p.change_hi_pct, r->hi, 1e-6);
        CHECK_NEAR(r->line, p.t_p, r->t_p, 1e-9);
        CHECK_NEAR(r->line, p.wilcoxon.p, r->w_p, 1e-9);
    }
    CHECK_INT(__LINE__, rcuprof_stats_paired_compare(paired_rows[0].a,
                                                     paired_rows[0].b, 3,
                                                     1.0, NULL, NULL),
              RCUPROF_STATS_EINVAL);
}

static const double sleep1[] = {
    0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0
};
static const double sleep2[] = {
    1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4
};

static void test_welch(void **state)
{
    double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 };
    rcuprof_stats_welch w;

    CHECK_INT(__LINE__, rcuprof_stats_welch_test(sleep1, 10, sleep2, 10,
                                                 0.95, &w), 0);
    CHECK_NEAR(__LINE__, w.mean_x, 0.75, 1e-12);
    CHECK_NEAR(__LINE__, w.mean_y, 2.33, 1e-12);
    CHECK_NEAR(__LINE__, w.diff, -1.58, 1e-12);
    CHECK_NEAR(__LINE__, w.t, -1.8608, 5e-5);
    CHECK_NEAR(__LINE__, w.df, 17.776, 5e-4);
    CHECK_NEAR(__LINE__, w.p, 0.07939, 5e-6);
    CHECK_NEAR(__LINE__, w.lo, -3.3654832, 1e-7);
    CHECK_NEAR(__LINE__, w.hi, 0.2054832, 1e-7);
    /* swapped: sign flips, p stays */
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(sleep2, 10, sleep1, 10,
                                                 0.95, &w), 0);
    CHECK_NEAR(__LINE__, w.t, 1.8608, 5e-5);
    CHECK_NEAR(__LINE__, w.p, 0.07939, 5e-6);
    CHECK_NEAR(__LINE__, w.lo, -0.2054832, 1e-7);

    /* equal variances and sizes: df = 2 (n - 1) = 4 */
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, y, 3, 0.95, &w), 0);
    CHECK_NEAR(__LINE__, w.t, -3.6742346142, 1e-9);
    CHECK_NEAR(__LINE__, w.df, 4, 1e-12);
    CHECK_NEAR(__LINE__, w.se, sqrt(2.0 / 3.0), 1e-14);
    CHECK_NEAR(__LINE__, w.p, 0.02131, 5e-6);
    CHECK_NEAR(__LINE__, w.lo, -5.266958, 1e-6);
    CHECK_NEAR(__LINE__, w.hi, -0.733042, 1e-6);
    /* 90%: t(.95, 4) = 2.1318468 */
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, y, 3, 0.90, &w), 0);
    CHECK_NEAR(__LINE__, w.hi, -3 + 2.1318468 * sqrt(2.0 / 3.0), 1e-6);
}

static void test_welch_errors(void **state)
{
    double x[] = { 1, 2, 3 }, c[] = { 4, 4, 4 }, d[] = { 5, 5 };
    rcuprof_stats_welch w;

    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 1, x, 3, 0.95, &w),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, x, 1, 0.95, &w),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(c, 3, d, 2, 0.95, &w),
              RCUPROF_STATS_EDEGENERATE);
    CHECK_NEAR(__LINE__, w.diff, -1, 0);        /* the means are known */
    CHECK_NEAR(__LINE__, w.p, NAN, 0);
    /* one constant sample is fine: df = n - 1 of the other */
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, c, 3, 0.95, &w), 0);
    CHECK_NEAR(__LINE__, w.df, 2, 1e-12);
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, x, 3, 0, &w),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_welch_test(x, 3, NULL, 3, 0.95, &w),
              RCUPROF_STATS_EINVAL);
}

static const struct holm_row {
    int line;
    double p[6];
    size_t n;
    double adj[6];
    int rc;
} holm_rows[] = {
    /*
     * sorted .005 .01 .03 .04: 4(.005) = .02, 3(.01) = .03, 2(.03) = .06,
     * 1(.04) = .04 -> .06 (monotone)
     */
    { __LINE__, { 0.01, 0.04, 0.03, 0.005 }, 4, { 0.03, 0.06, 0.06, 0.02 },
      0 },
    /* capped at 1 */
    { __LINE__, { 0.5, 0.6 }, 2, { 1, 1 }, 0 },
    /* ties: 3(.01) = .03 twice, then .04 */
    { __LINE__, { 0.01, 0.04, 0.01 }, 3, { 0.03, 0.04, 0.03 }, 0 },
    /* NaN stays NaN and does not count: m = 2 */
    { __LINE__, { 0.02, NAN, 0.01 }, 3, { 0.02, NAN, 0.02 }, 0 },
    { __LINE__, { 0.2 }, 1, { 0.2 }, 0 },
    /* sorted 0 .001 .01 .02 .5: 5(0) = 0, 4(.001) = .004, 3(.01) = .03,
     * 2(.02) = .04, 1(.5) = .5 */
    { __LINE__, { 0, 0.5, 0.001, 0.02, 0.01 }, 5,
      { 0, 0.5, 0.004, 0.04, 0.03 }, 0 },
    { __LINE__, { 0.1, 1.5 }, 2, { 0 }, RCUPROF_STATS_EINVAL },
    { __LINE__, { -0.1 }, 1, { 0 }, RCUPROF_STATS_EINVAL },
    { __LINE__, { 0 }, 0, { 0 }, RCUPROF_STATS_ETOOFEW },
};

static void test_holm(void **state)
{
    size_t i, j;

    for (i = 0; i < NELEM(holm_rows); i++) {
        const struct holm_row *r = &holm_rows[i];
        double adj[6], inplace[6];

        CHECK_INT(r->line, rcuprof_stats_holm(r->p, r->n, adj), r->rc);
        if (r->rc != 0)
            continue;
        for (j = 0; j < r->n; j++) {
            CHECK_NEAR(r->line, adj[j], r->adj[j], 1e-15);
            inplace[j] = r->p[j];
        }
        CHECK_INT(r->line, rcuprof_stats_holm(inplace, r->n, inplace), 0);
        for (j = 0; j < r->n; j++)
            CHECK_NEAR(r->line, inplace[j], r->adj[j], 1e-15);
    }
}

/* Properties on pseudo-random families: adj >= p, same order, <= 1. */
static void test_holm_properties(void **state)
{
    double p[40], adj[40];
    unsigned seed = 12345;
    size_t n, i, j;

    for (n = 1; n <= 40; n++) {
        for (i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            p[i] = (double)((seed >> 8) % 100000) / 100000.0;
            p[i] = p[i] * p[i] * p[i];          /* many small ones */
        }
        CHECK_INT((int)n, rcuprof_stats_holm(p, n, adj), 0);
        for (i = 0; i < n; i++) {
            assert_true(adj[i] >= p[i] && adj[i] <= 1.0);
            assert_true(adj[i] <= (double)n * p[i] || adj[i] == 1.0
                        || adj[i] > p[i]);
            for (j = 0; j < n; j++)
                if (p[i] < p[j])
                    assert_true(adj[i] <= adj[j]);
        }
    }
}

static void test_mde(void **state)
{
    double m;

    /* 100 (exp((1.959964 + 0.841621) 0.1 / 4) - 1) */
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 16, 0.05, 0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 7.2550686081, 1e-6);
    /* 100 (1.959964 + 0.841621) sqrt(1/10 + 4/20) / 10 */
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired(10, 1, 10, 2, 20, 0.05,
                                                   0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 15.3449142073, 1e-6);
    /* a negative mean: relative to its magnitude */
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired(-10, 1, 10, 2, 20, 0.05,
                                                   0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 15.3449142073, 1e-6);
    /* four times the blocks: half the log effect */
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 64, 0.05, 0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 100 * (exp(2.8015852 * 0.1 / 8) - 1), 1e-5);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0, 16, 0.05, 0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 0, 0);
    /* alpha .01, power .9: z(.995) = 2.5758293, z(.9) = 1.2815516 */
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 16, 0.01, 0.9, &m), 0);
    CHECK_NEAR(__LINE__, m, 100 * (exp(3.8573809 * 0.1 / 4) - 1), 1e-5);

    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 1, 0.05, 0.8, &m),
              RCUPROF_STATS_ETOOFEW);
    CHECK_NEAR(__LINE__, m, NAN, 0);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(-0.1, 16, 0.05, 0.8, &m),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 16, 0, 0.8, &m),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 16, 0.05, 1, &m),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired(0.1, 16, 0.05, 0.8, NULL),
              RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired(0, 1, 10, 1, 10, 0.05,
                                                   0.8, &m),
              RCUPROF_STATS_EDEGENERATE);
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired(1, 1, 10, 1, 1, 0.05,
                                                   0.8, &m),
              RCUPROF_STATS_ETOOFEW);
}

/*
 * Issue 18/19: the MDE with t quantiles, the floor of the exact rank
 * tests, and the interval of a positive mean on the logs.  t quantiles
 * from reference_values.py (bisection on Simpson-integrated CDFs) and
 * published tables: t(.975, 15) = 2.131450, t(.8, 15) = 0.866245;
 * t(.975, 1) = 12.706205, t(.8, 1) = 1.376382; t(.975, 18) = 2.100922,
 * t(.8, 18) = 0.862049.
 */
static void test_mde_t_and_floors(void **state)
{
    static const struct {
        int line;
        size_t n, m;
        double sr, mw;          /* 2 / 2^n; 2 / C(n + m, n) */
    } floors[] = {
        { __LINE__, 1, 1, 1.0, 1.0 },
        { __LINE__, 2, 2, 0.5, 2.0 / 6 },
        { __LINE__, 5, 5, 0.0625, 2.0 / 252 },
        { __LINE__, 6, 3, 0.03125, 2.0 / 84 },
        { __LINE__, 10, 10, 2.0 / 1024, 2.0 / 184756 },
    };
    double m, lo, hi;
    size_t i;

    (void)state;
    /* 100 (exp((2.131450 + 0.866245) 0.1 / 4) - 1) */
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired_t(0.1, 16, 0.05, 0.8, &m),
              0);
    CHECK_NEAR(__LINE__, m, 7.78220266, 1e-5);
    /* n = 2: 100 (exp((12.706205 + 1.376382) 0.1 / sqrt 2) - 1) */
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired_t(0.1, 2, 0.05, 0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 170.68598934, 1e-4);
    CHECK_INT(__LINE__, rcuprof_stats_mde_paired_t(0.1, 1, 0.05, 0.8, &m),
              RCUPROF_STATS_ETOOFEW);
    /* Welch df = 18 for equal SDs and n: 100 (exp((2.100922 + 0.862049)
     * sqrt(0.01/10 + 0.01/10)) - 1) */
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired_log(0.1, 10, 0.1, 10,
                                                       0.05, 0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 14.16882390, 1e-5);
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired_log(0, 10, 0, 10, 0.05,
                                                       0.8, &m), 0);
    CHECK_NEAR(__LINE__, m, 0, 0);
    CHECK_INT(__LINE__, rcuprof_stats_mde_unpaired_log(0.1, 1, 0.1, 10,
                                                       0.05, 0.8, &m),
              RCUPROF_STATS_ETOOFEW);
    for (i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
        CHECK_NEAR(floors[i].line, rcuprof_stats_signrank_min_p(floors[i].n),
                   floors[i].sr, 1e-15);
        CHECK_NEAR(floors[i].line, rcuprof_stats_mw_min_p(floors[i].n,
                                                          floors[i].m),
                   floors[i].mw, 1e-15);
    }
    CHECK_NEAR(__LINE__, rcuprof_stats_signrank_min_p(0), NAN, 0);
    CHECK_NEAR(__LINE__, rcuprof_stats_mw_min_p(0, 3), NAN, 0);
    /*
     * Cox on 100 120 140: y = ln x, mean 4.7771481, var 0.0280376;
     * exp(m + v/2 -+ 4.302653 sqrt(v/3 + v^2/4)) (reference_values.py).
     */
    {
        static const double x[] = { 100, 120, 140 }, two[] = { 1000, 5000 };
        static const double bad[] = { 1, 0, 2 };

        CHECK_INT(__LINE__, rcuprof_stats_mean_ci_log(x, 3, 0.95, &lo, &hi),
                  0);
        CHECK_NEAR(__LINE__, lo, 79.000067, 1e-5);
        CHECK_NEAR(__LINE__, hi, 184.034588, 1e-5);
        /* where Student's interval is [-22412.4, 28412.4] */
        CHECK_INT(__LINE__, rcuprof_stats_mean_ci_log(two, 2, 0.95, &lo,
                                                      &hi), 0);
        CHECK_NEAR(__LINE__, lo, 0.000800, 1e-6);
        CHECK_INT(__LINE__, lo > 0, 1);
        CHECK_INT(__LINE__, rcuprof_stats_mean_ci_log(bad, 3, 0.95, &lo,
                                                      &hi),
                  RCUPROF_STATS_EDEGENERATE);
        CHECK_INT(__LINE__, rcuprof_stats_mean_ci_log(x, 1, 0.95, &lo, &hi),
                  RCUPROF_STATS_ETOOFEW);
        CHECK_NEAR(__LINE__, lo, NAN, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paired_ratios),
        cmocka_unit_test(test_paired_swap),
        cmocka_unit_test(test_paired_rows),
        cmocka_unit_test(test_welch),
        cmocka_unit_test(test_welch_errors),
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_holm_properties),
        cmocka_unit_test(test_mde),
        cmocka_unit_test(test_mde_t_and_floors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
