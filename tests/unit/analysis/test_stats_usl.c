/*
 * The Universal Scalability Law fit.
 *
 * Reference values: synthetic data generated here from known coefficients
 * (Gunther's model evaluated in the test), so the truth is known; the
 * peak N* = sqrt((1 - sigma)/kappa) and X(N*) = lambda N* / (2 - 2 sigma +
 * (sigma - kappa) N*) (the model at N*, simplified with kappa N*^2 =
 * 1 - sigma) by hand; numbers in reference_values.py.
 */
#include "rcuprof_stats.h"
#include "stats_test.h"

static double usl(double l, double s, double k, double n)
{
    return l * n / (1 + s * (n - 1) + k * n * (n - 1));
}

static const struct usl_row {
    int line;
    double lambda, sigma, kappa;
    double threads[10];
    size_t n;
    double n_peak, x_peak;
} usl_rows[] = {
    /* the seeds' shape: a peak near 31 threads */
    { __LINE__, 1e6, 0.05, 0.001, { 1, 2, 4, 8, 16, 32, 48, 64 }, 8,
      30.8220700148, 9037984.295704 },
    /* retrograde early: N* = sqrt(0.8/0.05) = 4, X* = 4000/2.2 */
    { __LINE__, 1000, 0.2, 0.05, { 1, 2, 3, 4, 6, 8, 12, 16 }, 8,
      4, 1818.181818 },
    /* no crosstalk (Amdahl): no peak */
    { __LINE__, 250, 0.1, 0, { 1, 2, 4, 8, 16 }, 5, NAN, NAN },
    /* linear: sigma = kappa = 0 */
    { __LINE__, 3.5e7, 0, 0, { 1, 2, 3, 4 }, 4, NAN, NAN },
    /* tiny contention, unequal spacing, 4 points only */
    { __LINE__, 42, 0.01, 0.0001, { 1, 5, 20, 100 }, 4,
      99.4987437107, NAN },
};

static void test_usl_exact(void **state)
{
    size_t i, j;

    for (i = 0; i < NELEM(usl_rows); i++) {
        const struct usl_row *r = &usl_rows[i];
        double x[10];
        rcuprof_stats_usl m;

        for (j = 0; j < r->n; j++)
            x[j] = usl(r->lambda, r->sigma, r->kappa, r->threads[j]);
        CHECK_INT(r->line, rcuprof_stats_usl_fit(r->threads, x, r->n, 0.95,
                                                 &m), 0);
        CHECK_INT(r->line, m.n_points, r->n);
        CHECK_NEAR(r->line, m.lambda / r->lambda, 1, 1e-7);
        CHECK_NEAR(r->line, m.sigma, r->sigma, 1e-7);
        CHECK_NEAR(r->line, m.kappa, r->kappa, 1e-9);
        CHECK_NEAR(r->line, m.r2, 1, 1e-10);
        if (r->kappa > 0) {
            CHECK_NEAR(r->line, m.n_peak, r->n_peak, 1e-4 * r->n_peak);
            if (!isnan(r->x_peak))
                CHECK_NEAR(r->line, m.x_peak, r->x_peak, 1e-6 * r->x_peak);
        } else {
            /* kappa ~ 0: either no peak or one far beyond any machine */
            assert_true(isnan(m.n_peak) || m.n_peak > 1e3);
        }
        /* exact data: the estimates' errors are ~0 */
        CHECK_NEAR(r->line, m.se_sigma, 0, 1e-6);
        CHECK_NEAR(r->line, rcuprof_stats_usl_eval(&m, 10) / usl(r->lambda,
                   r->sigma, r->kappa, 10), 1, 1e-7);
    }
}

/*
 * Noisy repetitions: three points per count, the model times 1 - e, 1 and
 * 1 + e with e = 1%, 2% or 3% by count (fixed, so the test is
 * deterministic, and centred on the model at every count, so the fit has
 * no bias to find).  The fit stays near the truth and the truth lies in
 * the 95% intervals.
 */
static void test_usl_noisy(void **state)
{
    static const double counts[] = { 1, 2, 4, 8, 16, 24, 32, 48, 64 };
    double n[27], x[27];
    rcuprof_stats_usl m;
    size_t i, k = 0;

    for (i = 0; i < NELEM(counts); i++) {
        double e = 0.01 * (double)(1 + (i * 2) % 3);
        int rep;

        for (rep = -1; rep <= 1; rep++, k++) {
            n[k] = counts[i];
            x[k] = usl(5e5, 0.03, 0.0008, counts[i]) * (1 + rep * e);
        }
    }
    CHECK_INT(__LINE__, rcuprof_stats_usl_fit(n, x, k, 0.95, &m), 0);
    CHECK_NEAR(__LINE__, m.lambda / 5e5, 1, 0.05);
    CHECK_NEAR(__LINE__, m.sigma, 0.03, 0.01);
    CHECK_NEAR(__LINE__, m.kappa, 0.0008, 0.0002);
    assert_true(m.r2 > 0.98 && m.r2 < 1);
    assert_true(m.se_lambda > 0 && m.se_sigma > 0 && m.se_kappa > 0);
    assert_true(m.sigma_lo < 0.03 && 0.03 < m.sigma_hi);
    assert_true(m.kappa_lo < 0.0008 && 0.0008 < m.kappa_hi);
    assert_true(m.lambda_lo < 5e5 && 5e5 < m.lambda_hi);
    /* the interval is est -+ t(.975, 24) se, t = 2.0638986 */
    CHECK_NEAR(__LINE__, (m.sigma_hi - m.sigma) / m.se_sigma, 2.0638986,
               1e-6);
    /* N* = sqrt(0.97/0.0008) = 34.82 */
    CHECK_NEAR(__LINE__, m.n_peak, 34.8210, 4);
}

static const struct usl_err_row {
    int line;
    double threads[6], tput[6];
    size_t n;
    double level;
    int rc;
} usl_err_rows[] = {
    { __LINE__, { 1, 2, 4 }, { 1, 2, 3 }, 3, 0.95, RCUPROF_STATS_ETOOFEW },
    { __LINE__, { 1 }, { 1 }, 0, 0.95, RCUPROF_STATS_ETOOFEW },
    /* 4 points but 2 distinct thread counts */
    { __LINE__, { 1, 1, 2, 2 }, { 1, 1.1, 2, 1.9 }, 4, 0.95,
      RCUPROF_STATS_EDEGENERATE },
    { __LINE__, { 1, 2, 4, 8 }, { 1, 2, 0, 3 }, 4, 0.95,
      RCUPROF_STATS_EINVAL },
    { __LINE__, { 1, 2, 4, 8 }, { 1, 2, -1, 3 }, 4, 0.95,
      RCUPROF_STATS_EINVAL },
    { __LINE__, { 0, 2, 4, 8 }, { 1, 2, 3, 3 }, 4, 0.95,
      RCUPROF_STATS_EINVAL },
    { __LINE__, { 1, 2, 4, NAN }, { 1, 2, 3, 3 }, 4, 0.95,
      RCUPROF_STATS_EINVAL },
    { __LINE__, { 1, 2, 4, 8 }, { 1, 2, 3, INFINITY }, 4, 0.95,
      RCUPROF_STATS_EINVAL },
    { __LINE__, { 1, 2, 4, 8 }, { 1, 2, 3, 3 }, 4, 1.0,
      RCUPROF_STATS_EINVAL },
};

static void test_usl_errors(void **state)
{
    size_t i;

    for (i = 0; i < NELEM(usl_err_rows); i++) {
        const struct usl_err_row *r = &usl_err_rows[i];
        rcuprof_stats_usl m;

        CHECK_INT(r->line, rcuprof_stats_usl_fit(r->threads, r->tput, r->n,
                                                 r->level, &m), r->rc);
        CHECK_NEAR(r->line, m.sigma, NAN, 0);
        CHECK_NEAR(r->line, m.n_peak, NAN, 0);
    }
    CHECK_INT(__LINE__, rcuprof_stats_usl_fit(usl_err_rows[0].threads,
                                              usl_err_rows[0].tput, 3, 0.95,
                                              NULL), RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_usl_fit(NULL, usl_err_rows[0].tput, 4,
                                              0.95, NULL),
              RCUPROF_STATS_EINVAL);
    CHECK_NEAR(__LINE__, rcuprof_stats_usl_eval(NULL, 4), NAN, 0);
}

/* Flat throughput (no scaling at all) still fits: sigma near 1. */
static void test_usl_flat(void **state)
{
    double n[] = { 1, 2, 4, 8, 16 }, x[] = { 100, 100, 100, 100, 100 };
    rcuprof_stats_usl m;

    CHECK_INT(__LINE__, rcuprof_stats_usl_fit(n, x, 5, 0.95, &m), 0);
    /* X = lambda N / (1 + (N - 1)) = lambda with sigma 1, kappa 0 */
    CHECK_NEAR(__LINE__, m.lambda, 100, 1e-6);
    CHECK_NEAR(__LINE__, m.sigma, 1, 1e-8);
    CHECK_NEAR(__LINE__, m.kappa, 0, 1e-10);
    CHECK_NEAR(__LINE__, m.r2, NAN, 0);          /* SST = 0 */
    CHECK_NEAR(__LINE__, m.n_peak, NAN, 0);      /* sigma not below 1 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usl_exact),
        cmocka_unit_test(test_usl_noisy),
        cmocka_unit_test(test_usl_errors),
        cmocka_unit_test(test_usl_flat),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
