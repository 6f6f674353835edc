/*
 * The scaling report of one build (analysis/scaling.c and its writers) on a
 * synthetic results file whose figures are worked out by hand below.
 *
 * Variant "v", 8 CPUs, 6 blocks at 1, 2, 4 and 8 threads; wall ns/op per
 * block (cpu = wall / 2, ops/s = 1e9 threads / wall):
 *   1: 100 101 102 103 104 105  median 102.5, interval x(1), x(6) =
 *      [100, 105] (6 runs: the distribution-free 95% interval, exact
 *      coverage 1 - 2 / 64 = 96.875%)
 *   2: the same: step efficiency 1, efficiency vs 1 = 1
 *   4: 200 ... 205  median 202.5 [200, 205]: step efficiency 102.5 / 202.5
 *      = 0.50617 < 0.8, a knee (the worst step), intervals separated
 *   8: 150 ... 155  median 152.5 [150, 155]: 4 threads' interval lies
 *      wholly above 8's: a dip at 4 against 8; step 202.5 / 152.5 = 1.3279,
 *      efficiency vs 1 = 102.5 / 152.5 = 0.67213
 *   Mann-Whitney 6 against 6, all apart: exact p = 2 / C(12, 6) = 0.0021645;
 *   Holm over the two findings: 0.004329 < 0.05: high confidence.
 *   Throughput at 4: median of 4e9 / x = (4e9/202 + 4e9/203) / 2 =
 *      19753190.7 ops/s.
 *   USL: 4 distinct counts at or below 8 CPUs, fewer than 5: not fitted.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "results.h"
#include "scaling.h"
#include "rcuprof_report.h"

#define assert_near(a, b, tol) \
    do { \
        double a_ = (a), b_ = (b); \
        if (!(fabs(a_ - b_) <= (tol))) \
            fail_msg("line %d: %.12g != %.12g (tolerance %g)", __LINE__, \
                     a_, b_, (double)(tol)); \
    } while (0)

static char path[256];

static int setup(void **state)
{
    static const unsigned threads[] = { 1, 2, 4, 8 };
    static const double base[] = { 100, 100, 200, 150 };
    const char *spec = "{\"variants\":[\"v\"],\"threads\":[1,2,4,8],"
                       "\"reps\":6,\"options\":{},\"seed\":1,"
                       "\"rcuprof_version\":\"0.1.0\"}";
    char hex[65];
    json_t *sj = json_loads(spec, 0, NULL);
    FILE *f;
    unsigned b, t, seq = 0;
    int fd;

    (void)state;
    snprintf(path, sizeof(path), "/tmp/rcuprof-scaling-XXXXXX");
    if ((fd = mkstemp(path)) < 0 || sj == NULL
        || rcuprof_spec_hash(sj, hex) != 0)
        return -1;
    close(fd);
    json_decref(sj);
    f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "{\"type\":\"header\",\"schema\":\"%s\",\"spec\":%s,"
            "\"spec_hash\":\"%s\"}\n", RCUPROF_RESULTS_SCHEMA, spec, hex);
    for (b = 0; b < 6; b++)
        for (t = 0; t < 4; t++) {
            double wall = base[t] + (t == 1 ? 5 - b : b);

            fprintf(f, "{\"type\":\"point\",\"block\":%u,\"threads\":%u,"
                    "\"variant\":\"v\",\"order\":0,\"seq\":%u,"
                    "\"status\":\"ok\",\"message\":null,\"result\":{"
                    "\"env\":{\"cpus_allowed\":8,\"hostname\":\"h\","
                    "\"kernel\":\"k\"},\"run\":{\"threads\":%u,"
                    "\"wall_ns_per_op\":%.17g,\"cpu_ns_per_op\":%.17g,"
                    "\"ops_per_s\":%.17g}}}\n", b, threads[t], seq++,
                    threads[t], wall, wall / 2, 1e9 * threads[t] / wall);
        }
    /* One failed run at 8 threads. */
    fprintf(f, "{\"type\":\"point\",\"block\":6,\"threads\":8,"
            "\"variant\":\"v\",\"order\":0,\"seq\":%u,\"status\":\"crashed\","
            "\"message\":\"boom\",\"result\":null}\n", seq);
    return fclose(f) != 0;
}

/* The geometric mean of base + 0..5 and its 95% t interval on the logs,
 * exp(m -+ t s / sqrt 6), t the 0.975 quantile at 5 degrees of freedom. */
static void gm6(double base, double *gm, double *lo, double *hi)
{
    double m = 0, ss = 0, h;
    int b;

    for (b = 0; b < 6; b++)
        m += log(base + b) / 6;
    for (b = 0; b < 6; b++)
        ss += (log(base + b) - m) * (log(base + b) - m);
    h = 2.5705818366 * sqrt(ss / 5) / sqrt(6);
    *gm = exp(m);
    *lo = exp(m - h);
    *hi = exp(m + h);
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

static void test_rows(void **state)
{
    rcuprof_results rs;
    rcuprof_table t;
    rcuprof_scaling s;
    const rcuprof_scaling_row *r;
    char err[512];
    double g1, l1, h1, g4, l4, h4, g8, l8, h8;

    (void)state;
    memset(&rs, 0, sizeof(rs));
    assert_int_equal(rcuprof_results_read(&rs, path, err, sizeof(err)), 0);
    /* One variant: no comparison, but the cells. */
    assert_int_equal(rcuprof_table_build(&rs, NULL, RCUPROF_METRIC_WALL, &t,
                                         err, sizeof(err)), -1);
    assert_non_null(strstr(err, "needs two"));
    assert_int_equal(rcuprof_table_describe(&rs, RCUPROF_METRIC_WALL, &t,
                                            err, sizeof(err)), 0);
    assert_int_equal(rcuprof_scaling_build(&rs, &t, 0, &s), 0);
    assert_string_equal(s.variant, "v");
    assert_int_equal(s.nrows, 4);
    assert_int_equal(s.cpus_allowed, 8);

    /* the table's geometric means and intervals (compare's figures) */
    gm6(100, &g1, &l1, &h1);
    gm6(200, &g4, &l4, &h4);
    gm6(150, &g8, &l8, &h8);
    r = &s.rows[0];
    assert_int_equal(r->threads, 1);
    assert_int_equal(r->n, 6);
    assert_near(r->cost, g1, 1e-9);
    assert_near(r->lo, l1, 1e-6);
    assert_near(r->hi, h1, 1e-6);
    assert_near(r->cost, t.cells[0].geomean, 0);
    assert_string_equal(r->interval, "geomean-t");
    assert_near(r->eff_first, 1, 1e-12);
    assert_true(isnan(r->eff_step));
    assert_false(r->dip || r->knee);

    r = &s.rows[1];
    assert_near(r->eff_step, 1, 1e-12);
    assert_false(r->knee);

    r = &s.rows[2];
    assert_int_equal(r->threads, 4);
    assert_near(r->cost, g4, 1e-9);
    assert_near(r->eff_step, g1 / g4, 1e-12);
    assert_near(r->eff_first, g1 / g4, 1e-12);
    assert_near(r->tput, 4e9 / g4, 1e-3);
    assert_true(r->knee && r->worst && r->dip && r->flagged);
    assert_int_equal(r->dip_vs, 8);
    assert_true(l4 > h8);
    assert_string_equal(r->confidence, "high");

    r = &s.rows[3];
    assert_int_equal(r->threads, 8);
    assert_int_equal(r->failed, 1);
    assert_near(r->eff_step, g4 / g8, 1e-12);
    assert_near(r->eff_first, g1 / g8, 1e-12);
    assert_false(r->dip || r->knee);

    assert_int_equal(s.det.nfindings, 2);
    assert_near(s.det.findings[0].p_holm, 2 * 2.0 / 924, 1e-9);
    assert_false(s.usl.fitted);
    assert_non_null(strstr(s.usl.reason, "has 4"));

    rcuprof_scaling_free(&s);
    rcuprof_table_free(&t);
    rcuprof_results_free(&rs);
}

static void test_writers(void **state)
{
    rcuprof_results rs;
    rcuprof_table t;
    rcuprof_scaling s;
    char err[512], *md, *csv, *gp, *line, *save = NULL;
    json_t *j, *row;
    int lines = 0;

    (void)state;
    memset(&rs, 0, sizeof(rs));
    assert_int_equal(rcuprof_results_read(&rs, path, err, sizeof(err)), 0);
    assert_int_equal(rcuprof_table_describe(&rs, RCUPROF_METRIC_WALL, &t,
                                            err, sizeof(err)), 0);
    assert_int_equal(rcuprof_scaling_build(&rs, &t, 0, &s), 0);

    md = rcuprof_scaling_markdown(&s, 1, &t, 0);
    assert_non_null(md);
    if (strstr(md, "Scaling of v: wall time per op in ns/op (wall_ns_per_op)") == NULL
        || strstr(md, "| threads | runs | ns/op [interval] | M ops/s [interval] "
                  "| efficiency vs 1 | step efficiency | dip or knee |") == NULL
        || strstr(md, "geometric mean over 6 runs per count") == NULL
        || strstr(md, "| 1 | 6 | 102.5 [100.5, 104.5] |") == NULL
        || strstr(md, "| 4 | 6 | 202.5 [200.5, 204.5] | 19.754 [") == NULL
        || strstr(md, "| 0.51 | 0.51 | dip (costs more than at 8), knee "
                  "(worst step); high confidence, explain flags it |") == NULL
        || strstr(md, "| 8 | 6 (+1 failed) | 152.5") == NULL
        || strstr(md, "| 0.67 | 1.33 |  |") == NULL
        || strstr(md, "not fitted: needs 5 distinct thread counts") == NULL
        || strstr(md, "failed runs, left out: v/8t x1") == NULL)
        fail_msg("markdown:\n%s", md);
    free(md);

    csv = rcuprof_scaling_csv(&s, 1);
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\nwall_ns_per_op,4,0,v,6,0,202.4"));
    assert_non_null(strstr(csv, ",geomean-t,"));
    for (line = strtok_r(csv, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
        lines++;
    assert_int_equal(lines, 5);
    free(csv);

    j = rcuprof_scaling_json(&s, 1, &t);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "schema")),
                        RCUPROF_SCALING_SCHEMA);
    row = json_array_get(json_object_get(json_object_get(json_object_get(
        j, "scaling"), "v"), "rows"), 2);
    assert_int_equal(json_integer_value(json_object_get(row, "dip_vs")), 8);
    assert_true(json_is_true(json_object_get(row, "knee")));
    assert_near(json_number_value(json_object_get(row, "eff_step")),
                t.cells[0].geomean / t.cells[2].geomean, 1e-12);
    assert_int_equal(json_array_size(json_object_get(json_object_get(
        json_object_get(j, "scaling"), "v"), "findings")), 2);
    json_decref(j);

    /* The plots of one build: its cost, throughput and efficiency. */
    gp = rcuprof_report_gnuplot(&t, &s, "/tmp/x");
    assert_non_null(gp);
    assert_non_null(strstr(gp, "$e0 << EOD\n# threads eff_first eff_step\n"
                               "1 1 nan\n2 1 1\n4 0.506"));
    assert_non_null(strstr(gp, "set output dir.'/efficiency.'.fmt.'.tmp'"));
    assert_null(strstr(gp, "probes."));
    /* cost on a log y axis with labelled 1-2-5 ticks; within the 8 CPUs:
     * nothing shaded, the knee at 4 ringed and named in the key with its
     * confidence */
    assert_non_null(strstr(gp, "set output dir.'/cost.'.fmt.'.tmp'\n"
                               "    set ytics ("));
    assert_non_null(strstr(gp, ")\n    set logscale y\n"));
    assert_non_null(strstr(gp, "per step: knee+dip at 4 (high)'"));
    assert_null(strstr(gp, "set object 1 rect"));
    assert_non_null(strstr(gp, "$k0 << EOD\n# threads eff_step finding\n"
                               "4 0.506"));
    assert_non_null(strstr(gp, "\"knee+dip, high\"\n"));
    free(gp);
    rcuprof_scaling_free(&s);

    /* The same runs as if on 2 CPUs: 4 and 8 threads oversubscribed, so
     * the knee and dip at 4 are not testable (never "high confidence"),
     * and the plots shade from between 2 and 4 threads, with no label of
     * a finding there. */
    t.cpus_allowed = 2;
    assert_int_equal(rcuprof_scaling_build(&rs, &t, 0, &s), 0);
    assert_true(s.rows[2].knee && s.rows[2].dip);
    assert_string_equal(s.rows[2].confidence, "not testable");
    md = rcuprof_scaling_markdown(&s, 1, &t, 0);
    assert_non_null(md);
    if (strstr(md, "| 4 [^os] |") == NULL
        || strstr(md, "knee (worst step); not testable: threads exceed the CPUs |") == NULL
        || strstr(md, "high confidence") != NULL)
        fail_msg("markdown, oversubscribed:\n%s", md);
    free(md);
    gp = rcuprof_report_gnuplot(&t, &s, "/tmp/x");
    assert_non_null(gp);
    assert_non_null(strstr(gp, "set object 1 rect from 2.82843, graph 0 to graph 1, graph 1 behind"));
    assert_non_null(strstr(gp, "knees and dips not testable"));
    assert_non_null(strstr(gp, "$k0 << EOD\n# threads eff_step finding\nEOD\n"));
    free(gp);

    rcuprof_scaling_free(&s);
    rcuprof_table_free(&t);
    rcuprof_results_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_writers),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
