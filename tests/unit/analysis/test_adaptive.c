/*
 * The adaptive repetitions of issue 18: Stein's two-stage t
 * (rcuprof_stats_two_stage_t, _mde_two_stage, _two_stage_n), its error
 * rate under the stopping rule, and the comparison table of an adaptive
 * sweep (rcuprof_table_adaptive): it says how many blocks reach the target
 * and says it is reached once they have run.
 *
 * Reference values, by hand:
 *   - d = 0.1 0.3 0.2 | 0.5 0.4, first stage n0 = 3: sd0 = sd(0.1, 0.3,
 *     0.2) = 0.1, mean of all 5 = 0.3, df 2; t(.975, 2) = 4.302653 (tables);
 *     interval 0.3 -+ 4.302653 x 0.1 / sqrt 5 = 0.3 -+ 0.192420;
 *     t = 0.3 / (0.1 / sqrt 5) = 6.708204; with 2 df the t law has the
 *     closed form P(T > t) = (1 - t / sqrt(t^2 + 2)) / 2, so
 *     p = 1 - 6.708204 / sqrt 47 = 1 - 6.708204 / 6.855655 = 0.021508.
 *   - Blocks needed for a 10% MDE with sd0 0.1, n0 3: t(.975, 2) + t(.8, 2)
 *     = 4.302653 + 1.060660 = 5.363313; n >= (5.363313 x 0.1 / ln 1.1)^2
 *     = (0.5363313 / 0.0953102)^2 = 31.666: 32 blocks; at 31 the MDE is
 *     exp(0.5363313 / sqrt 31) - 1 = 10.112%, at 32 9.945%.
 */
#define _GNU_SOURCE
#include "rcuprof_stats.h"
#include "results.h"
#include "stats_test.h"
#include "../unit_tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_two_stage(void **state)
{
    static const double d[] = { 0.1, 0.3, 0.2, 0.5, 0.4 };
    static const struct {
        int line;
        double target;
        size_t max, want;
    } need[] = {
        { __LINE__, 10, 1000, 32 },
        { __LINE__, 10, 31, 32 },       /* max + 1: not enough */
        { __LINE__, 1000, 1000, 3 },    /* the first stage suffices */
    };
    rcuprof_stats_two_stage ts;
    double m;
    size_t i, n;

    (void)state;
    CHECK_INT(__LINE__, rcuprof_stats_two_stage_t(d, 5, 3, 0.95, &ts), 0);
    CHECK_NEAR(__LINE__, ts.sd0, 0.1, 1e-12);
    CHECK_NEAR(__LINE__, ts.mean, 0.3, 1e-12);
    CHECK_NEAR(__LINE__, ts.df, 2, 0);
    CHECK_NEAR(__LINE__, ts.lo, 0.3 - 0.192420, 1e-6);
    CHECK_NEAR(__LINE__, ts.hi, 0.3 + 0.192420, 1e-6);
    CHECK_NEAR(__LINE__, ts.t, 6.708204, 1e-6);
    CHECK_NEAR(__LINE__, ts.p, 0.021508, 1e-6);
    /* n0 = n: the ordinary one-sample t */
    CHECK_INT(__LINE__, rcuprof_stats_two_stage_t(d, 3, 3, 0.95, &ts), 0);
    CHECK_NEAR(__LINE__, ts.mean, 0.2, 1e-12);
    CHECK_INT(__LINE__, rcuprof_stats_two_stage_t(d, 5, 1, 0.95, &ts),
              RCUPROF_STATS_ETOOFEW);
    CHECK_INT(__LINE__, rcuprof_stats_two_stage_t(d, 2, 3, 0.95, &ts),
              RCUPROF_STATS_ETOOFEW);

    CHECK_INT(__LINE__, rcuprof_stats_mde_two_stage(0.1, 3, 31, 0.05, 0.8,
                                                    &m), 0);
    CHECK_NEAR(__LINE__, m, 10.112, 1e-3);
    CHECK_INT(__LINE__, rcuprof_stats_mde_two_stage(0.1, 3, 32, 0.05, 0.8,
                                                    &m), 0);
    CHECK_NEAR(__LINE__, m, 9.945, 1e-3);
    for (i = 0; i < NELEM(need); i++) {
        CHECK_INT(need[i].line, rcuprof_stats_two_stage_n(0.1, 3,
                  need[i].target, 0.05, 0.8, need[i].max, &n), 0);
        CHECK_INT(need[i].line, n, need[i].want);
    }
}

/*
 * The stopping rule is honest: an A/A comparison (no true change) with
 * this VM's spread (SD of the log ratios 0.5), a first stage of 5 blocks
 * and a 40% target runs on average about 30 blocks; over 4000 seeded
 * trials Stein's test rejects at most at the nominal 5% (+ 3 binomial
 * standard errors: 0.0603).  For contrast, the printed figure of the
 * naive rule (stop as soon as the full-sample MDE reaches the target,
 * full-sample t) is about 8%: stopping on a small spread selects
 * samples whose spread is underestimated.  With a true change of
 * ln 1.4 (the target) the power is near the promised 80%.
 */
static void test_stopping_rule(void **state)
{
    enum { TRIALS = 4000, N0 = 5, MAX = 2000 };
    static double x[MAX];
    double target = 40, eff[2] = { 0, log(1.4) };
    size_t k;

    (void)state;
    for (k = 0; k < 2; k++) {
        uint64_t st = 1804 + k;
        size_t trial, rej = 0, rej_naive = 0, sum_n = 0;

        for (trial = 0; trial < TRIALS; trial++) {
            rcuprof_stats_two_stage ts, tf;
            size_t n, i;
            double m;

            for (i = 0; i < N0; i++)
                x[i] = eff[k] + 0.5 * stats_test_norm(&st);
            assert_int_equal(rcuprof_stats_two_stage_t(x, N0, N0, 0.95, &ts),
                             0);
            assert_int_equal(rcuprof_stats_two_stage_n(ts.sd0, N0, target,
                                                       0.05, 0.8, MAX - 1,
                                                       &n), 0);
            for (i = N0; i < n; i++)
                x[i] = eff[k] + 0.5 * stats_test_norm(&st);
            assert_int_equal(rcuprof_stats_two_stage_t(x, n, N0, 0.95, &ts),
                             0);
            rej += ts.p < 0.05;
            sum_n += n;
            /* the naive rule, on a fresh stream of the same law */
            for (i = 0; i < MAX; i++) {
                x[i] = eff[k] + 0.5 * stats_test_norm(&st);
                if (i + 1 < N0)
                    continue;
                rcuprof_stats_two_stage_t(x, i + 1, i + 1, 0.95, &tf);
                rcuprof_stats_mde_two_stage(tf.sd0, i + 1, i + 1, 0.05, 0.8,
                                            &m);
                if (m <= target)
                    break;
            }
            rej_naive += tf.p < 0.05;
        }
        printf("stopping rule, true change %.0f%%: mean %.1f blocks, "
               "two-stage rejects %.4f, naive %.4f\n",
               100 * expm1(eff[k]), (double)sum_n / TRIALS,
               (double)rej / TRIALS, (double)rej_naive / TRIALS);
        if (k == 0)
            assert_true((double)rej / TRIALS <= 0.0603);
        else
            assert_true((double)rej / TRIALS >= 0.70);
    }
}

/* ---------------------------------------------------------------------- */
/* The table of an adaptive sweep                                          */

static void write_sweep(const char *path, size_t nblocks, const double *r,
                        double target)
{
    char spec[512], hex[65];
    json_t *js;
    FILE *f = fopen(path, "w");
    size_t b;

    assert_non_null(f);
    snprintf(spec, sizeof(spec), "{\"variants\":[\"base\",\"cand\"],"
             "\"threads\":[1],\"reps\":3,\"options\":{},\"seed\":1,"
             "\"rcuprof_version\":\"0.1.0\",\"target_mde_pct\":%g}", target);
    js = json_loads(spec, 0, NULL);
    assert_non_null(js);
    assert_int_equal(rcuprof_spec_hash(js, hex), 0);
    json_decref(js);
    fprintf(f, "{\"type\":\"header\",\"schema\":\"%s\",\"spec\":%s,"
            "\"spec_hash\":\"%s\"}\n", RCUPROF_RESULTS_SCHEMA, spec, hex);
    for (b = 0; b < nblocks; b++) {
        const char *v[2] = { "base", "cand" };
        double w[2] = { 1000, 1000 * r[b] };
        int k;

        for (k = 0; k < 2; k++)
            fprintf(f, "{\"type\":\"point\",\"block\":%zu,\"threads\":1,"
                    "\"variant\":\"%s\",\"order\":%d,\"seq\":%zu,"
                    "\"status\":\"ok\",\"message\":null,\"result\":{\"env\":"
                    "{\"cpus_allowed\":2,\"hostname\":\"h\",\"kernel\":\"k\"},"
                    "\"run\":{\"wall_ns_per_op\":%.17g,\"cpu_ns_per_op\":"
                    "%.17g,\"ops_per_s\":%.17g}}}\n", b, v[k], k, 2 * b + k,
                    w[k], w[k], 1e9 / w[k]);
    }
    fclose(f);
}

/*
 * First stage: log ratios 0.1, 0.3, 0.2 (sd0 0.1, n0 = spec.reps = 3);
 * target 10%: 32 blocks needed (the hand calculation above).  After 3 and
 * after 31 blocks the table asks for 32; after 32 it is reached: the worst
 * MDE is 9.945%, the row is two-stage, its spread the first stage's.
 * The later blocks' ratios (all 0.25) do not move the count: it is fixed
 * by the first stage.
 */
static void test_table_adaptive(void **state)
{
    static const struct {
        int line;
        size_t blocks, need;
        double mde;             /* the worst MDE now */
        int two_stage;
    } rows[] = {
        { __LINE__, 3, 32, 100 * (exp(0.5363313 / sqrt(3)) - 1), 0 },
        { __LINE__, 31, 32, 10.112, 1 },
        { __LINE__, 32, 32, 9.945, 1 },
    };
    double r[32];
    size_t i;

    (void)state;
    r[0] = exp(0.1);
    r[1] = exp(0.3);
    r[2] = exp(0.2);
    for (i = 3; i < 32; i++)
        r[i] = exp(0.25);
    for (i = 0; i < NELEM(rows); i++) {
        char path[300], err[256];
        rcuprof_results rs;
        rcuprof_table t;
        rcuprof_adaptive_need need;

        snprintf(path, sizeof(path), "%s/a%zu.jsonl", tmpdir, rows[i].blocks);
        write_sweep(path, rows[i].blocks, r, 10);
        memset(&rs, 0, sizeof(rs));
        CHECK_INT(rows[i].line, rcuprof_results_read(&rs, path, err,
                                                     sizeof(err)), 0);
        CHECK_NEAR(rows[i].line, rcuprof_results_target_mde(&rs, 0), 10, 0);
        CHECK_INT(rows[i].line, rcuprof_table_build(&rs, NULL,
                  RCUPROF_METRIC_WALL, &t, err, sizeof(err)), 0);
        CHECK_INT(rows[i].line, rcuprof_table_adaptive(&t, 10, 10000, &need),
                  0);
        CHECK_INT(rows[i].line, need.blocks, rows[i].need);
        CHECK_NEAR(rows[i].line, need.worst_mde_pct, rows[i].mde, 1e-3);
        CHECK_INT(rows[i].line, need.worst_v, 1);
        CHECK_INT(rows[i].line, t.changes[1].two_stage, rows[i].two_stage);
        CHECK_INT(rows[i].line, t.changes[1].n_stage1, 3);
        CHECK_NEAR(rows[i].line, t.changes[1].sd_log, 0.1, 1e-9);
        /* reached exactly when the blocks run cover the blocks needed */
        CHECK_INT(rows[i].line, need.blocks <= rows[i].blocks,
                  rows[i].blocks == 32);
        CHECK_INT(rows[i].line, t.n_two_stage, (size_t)rows[i].two_stage);
        CHECK_INT(rows[i].line, json_array_size(t.notes) > 0, 1);
        rcuprof_table_free(&t);
        rcuprof_results_free(&rs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_stage),
        cmocka_unit_test(test_stopping_rule),
        cmocka_unit_test(test_table_adaptive),
    };

    return cmocka_run_group_tests(tests, unit_tmpdir_setup,
                                  unit_tmpdir_teardown);
}
