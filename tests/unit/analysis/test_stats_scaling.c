/*
 * Dips and knees.  Reference values by hand per row.  The first dip row
 * follows the 16-thread pessimum of the seeds' table (master: 16.25 us at
 * 16 threads, 14.04 at 32), with made-up +-0.3 intervals.
 */
#include "rcuprof_stats.h"
#include "stats_test.h"

static const struct dip_row {
    int line;
    double threads[7], cost[7], halfwidth;
    size_t n;
    int dip_vs[7];
    size_t n_dips;
} dip_rows[] = {
    /* 16 (lo 15.9) above 32 (hi 14.3): dip vs index 5 */
    { __LINE__, { 1, 2, 4, 8, 16, 32, 64 },
      { 0.19, 0.75, 1.7, 5.1, 16.2, 14.0, 18.9 }, 0.3, 7,
      { -1, -1, -1, -1, 5, -1, -1 }, 1 },
    /* the same with +-1.5: 14.7 > 15.5? no dip */
    { __LINE__, { 1, 2, 4, 8, 16, 32, 64 },
      { 0.19, 0.75, 1.7, 5.1, 16.2, 14.0, 18.9 }, 1.5, 7,
      { -1, -1, -1, -1, -1, -1, -1 }, 0 },
    /*
     * 10 5 3 4 (+-0.3): 0 beats 1, 2, 3 -> the smallest hi, 2 (3.3);
     * 1 (lo 4.7) beats 2 (3.3) and 3 (4.3) -> 2; 2 (lo 2.7) beats none
     */
    { __LINE__, { 1, 2, 3, 4 }, { 10, 5, 3, 4 }, 0.3, 4,
      { 2, 2, -1, -1 }, 2 },
    /* equal hi: the lower count */
    { __LINE__, { 1, 2, 4 }, { 10, 3, 3 }, 0.3, 3, { 1, -1, -1 }, 1 },
    /* touching intervals are not separated: lo 4 == hi 4 */
    { __LINE__, { 1, 2 }, { 5, 3 }, 1, 2, { -1, -1 }, 0 },
    /* monotone rising cost: never a dip */
    { __LINE__, { 1, 2, 4, 8 }, { 1, 2, 4, 8 }, 0.1, 4,
      { -1, -1, -1, -1 }, 0 },
    { __LINE__, { 8 }, { 3 }, 0.1, 1, { -1 }, 0 },
};

static void test_dips(void **state)
{
    size_t i, j;

    for (i = 0; i < NELEM(dip_rows); i++) {
        const struct dip_row *r = &dip_rows[i];
        double lo[7], hi[7];
        int vs[7];
        size_t nd;

        for (j = 0; j < r->n; j++) {
            lo[j] = r->cost[j] - r->halfwidth;
            hi[j] = r->cost[j] + r->halfwidth;
        }
        CHECK_INT(r->line, rcuprof_stats_dips(r->threads, r->cost, lo, hi,
                                              r->n, vs, &nd), 0);
        CHECK_INT(r->line, nd, r->n_dips);
        for (j = 0; j < r->n; j++)
            CHECK_INT(r->line, vs[j], r->dip_vs[j]);
    }
}

static void test_dips_errors(void **state)
{
    double t[] = { 1, 2, 2 }, t2[] = { 1, 2, 4 }, c[] = { 1, 2, 3 };
    double lo[] = { 0.5, 1.5, 2.5 }, hi[] = { 1.5, 2.5, 3.5 };
    double badlo[] = { 1.5, 1.5, 2.5 };
    int vs[3];

    CHECK_INT(__LINE__, rcuprof_stats_dips(t, c, lo, hi, 3, vs, NULL),
              RCUPROF_STATS_EINVAL);        /* not strictly increasing */
    CHECK_INT(__LINE__, rcuprof_stats_dips(t2, c, badlo, hi, 3, vs, NULL),
              RCUPROF_STATS_EINVAL);        /* lo above the cost */
    CHECK_INT(__LINE__, rcuprof_stats_dips(t2, c, lo, c, 3, vs, NULL), 0);
    CHECK_INT(__LINE__, rcuprof_stats_dips(t2, c, lo, lo, 3, vs, NULL),
              RCUPROF_STATS_EINVAL);        /* hi below the cost */
    CHECK_INT(__LINE__, rcuprof_stats_dips(t2, c, lo, hi, 0, vs, NULL),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_dips(t2, c, lo, hi, 3, NULL, NULL),
              RCUPROF_STATS_EINVAL);
}

static const struct knee_row {
    int line;
    double threads[6], cost[6];
    size_t n;
    double min_step_eff;
    double eff[6], step_eff[6];
    int knee[6];
    size_t first;
} knee_rows[] = {
    /*
     * 1 1 1.1 2 4: steps 1, 1/1.1 = 0.9091, 1.1/2 = 0.55, 0.5;
     * below 0.8 at 3 and 4
     */
    { __LINE__, { 1, 2, 4, 8, 16 }, { 1, 1, 1.1, 2, 4 }, 5, 0.8,
      { 1, 1, 1 / 1.1, 0.5, 0.25 }, { NAN, 1, 1 / 1.1, 0.55, 0.5 },
      { 0, 0, 0, 1, 1 }, 3 },
    /* the same at 0.95: the 1.1 step (0.909) is a knee too */
    { __LINE__, { 1, 2, 4, 8, 16 }, { 1, 1, 1.1, 2, 4 }, 5, 0.95,
      { 1, 1, 1 / 1.1, 0.5, 0.25 }, { NAN, 1, 1 / 1.1, 0.55, 0.5 },
      { 0, 0, 1, 1, 1 }, 2 },
    /* perfect scaling: no knee, first = n */
    { __LINE__, { 1, 2, 4 }, { 7, 7, 7 }, 3, 1.0, { 1, 1, 1 },
      { NAN, 1, 1 }, { 0, 0, 0 }, 3 },
    /* a cost that falls (super-linear step) is efficiency > 1 */
    { __LINE__, { 2, 4 }, { 2, 1 }, 2, 0.5, { 1, 2 }, { NAN, 2 },
      { 0, 0 }, 2 },
    { __LINE__, { 1 }, { 5 }, 1, 0.5, { 1 }, { NAN }, { 0 }, 1 },
};

static void test_knees(void **state)
{
    size_t i, j;

    for (i = 0; i < NELEM(knee_rows); i++) {
        const struct knee_row *r = &knee_rows[i];
        double eff[6], step[6];
        int knee[6];
        size_t first;

        CHECK_INT(r->line, rcuprof_stats_knees(r->threads, r->cost, r->n,
                                               r->min_step_eff, eff, step,
                                               knee, &first), 0);
        CHECK_INT(r->line, first, r->first);
        for (j = 0; j < r->n; j++) {
            CHECK_NEAR(r->line, eff[j], r->eff[j], 1e-12);
            CHECK_NEAR(r->line, step[j], r->step_eff[j], 1e-12);
            CHECK_INT(r->line, knee[j], r->knee[j]);
        }
        /* outputs are optional */
        CHECK_INT(r->line, rcuprof_stats_knees(r->threads, r->cost, r->n,
                                               r->min_step_eff, NULL, NULL,
                                               NULL, NULL), 0);
    }
}

static void test_knees_errors(void **state)
{
    double t[] = { 1, 2, 4 }, c[] = { 1, 0, 2 }, ok[] = { 1, 2, 3 };
    double td[] = { 4, 2, 1 };

    CHECK_INT(__LINE__, rcuprof_stats_knees(t, c, 3, 0.8, NULL, NULL, NULL,
                                            NULL), RCUPROF_STATS_EDEGENERATE);
    CHECK_INT(__LINE__, rcuprof_stats_knees(td, ok, 3, 0.8, NULL, NULL, NULL,
                                            NULL), RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_knees(t, ok, 3, 0, NULL, NULL, NULL,
                                            NULL), RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_knees(t, ok, 3, 1.5, NULL, NULL, NULL,
                                            NULL), RCUPROF_STATS_EINVAL);
    CHECK_INT(__LINE__, rcuprof_stats_knees(t, ok, 0, 0.8, NULL, NULL, NULL,
                                            NULL), RCUPROF_STATS_ETOOFEW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dips),
        cmocka_unit_test(test_dips_errors),
        cmocka_unit_test(test_knees),
        cmocka_unit_test(test_knees_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
