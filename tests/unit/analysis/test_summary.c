/*
 * What `rcuprof run` prints of a result (analysis/report/summary.c): the
 * workload line names the workload the JSON names and nothing it lacks,
 * the harness line says when --compat was on, and the probes' own cost is
 * never printed as a negative cost.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "rcuprof_report.h"

/* A minimal result: a workload, a harness, probes with a self cost. */
static char *summary_of(const char *workload, const char *harness_mode,
                        int clock_per_op, double added_ns)
{
    json_error_t je;
    json_t *wl = json_loads(workload, 0, &je);
    json_t *res;
    char *text = NULL;
    size_t len = 0;
    FILE *f;

    assert_non_null(wl);
    res = json_pack("{s:{s:s, s:s, s:[]}, s:{s:b},"
                    " s:{s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:o,"
                    "    s:{s:s, s:b, s:b, s:b, s:b}},"
                    " s:{s:i, s:b, s:{s:s, s:I}, s:{s:f}}}",
                    "build", "variant", "stock", "openssl_version", "3.5.7",
                    "patches",
                    "env", "oversubscribed", 0,
                    "run", "threads", 2, "wall_ns", (json_int_t)100000000,
                    "ops", (json_int_t)1000000, "wall_ns_per_op", 200.0,
                    "cpu_ns_per_op", 190.0, "ops_per_s", 1e7,
                    "utilisation", 0.95, "workload", wl,
                    "harness", "mode", harness_mode, "clock_per_op",
                    clock_per_op, "start_barrier",
                    strcmp(harness_mode, "rcuprof") == 0,
                    "deadline_after_barrier",
                    strcmp(harness_mode, "rcuprof") == 0, "counts_padded",
                    strcmp(harness_mode, "rcuprof") == 0,
                    "probes", "version", 4, "enabled", 1, "summary", "lock",
                    "method_store", "acquisitions", (json_int_t)1000,
                    "self_cost", "added_ns", added_ns);
    assert_non_null(res);
    f = open_memstream(&text, &len);
    assert_non_null(f);
    rcuprof_run_summary_print(f, res);
    fclose(f);
    json_decref(res);
    return text;
}

static void test_workload_line(void **state)
{
    static const struct {
        int line;
        const char *workload, *want;
    } rows[] = {
        { __LINE__, "{\"kind\": \"rwlock\"}", "workload       rwlock\n" },
        { __LINE__, "{\"kind\": \"rcu\", \"libctx\": \"own\"}",
          "workload       rcu (libctx own)\n" },
        { __LINE__, "{\"kind\": \"fetch\", \"libctx\": \"own\", \"items\": "
          "[{\"type\": \"MD\", \"alg\": \"SHA256\"}]}",
          "workload       fetch MD:SHA256 (libctx own)\n" },
        { __LINE__, "{\"kind\": \"fetch\", \"libctx\": \"own\", \"propq\": "
          "\"fips=no\", \"items\": [{\"type\": \"MD\", \"alg\": \"SHA256\"}]}",
          "workload       fetch MD:SHA256 (libctx own, query fips=no)\n" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *s = summary_of(rows[i].workload, "rcuprof", 0, 1.5);

        if (strstr(s, rows[i].want) == NULL || strstr(s, "(null)") != NULL)
            fail_msg("line %d: wanted '%s' in:\n%s", rows[i].line,
                     rows[i].want, s);
        free(s);
    }
}

static void test_harness_line(void **state)
{
    char *s;

    (void)state;
    s = summary_of("{\"kind\": \"empty\"}", "perftools", 1, 1.5);
    if (strstr(s, "harness        --compat on (perftools") == NULL
        || strstr(s, "clock read per op") == NULL
        || strstr(s, "no start barrier") == NULL)
        fail_msg("perftools harness not named:\n%s", s);
    free(s);
    s = summary_of("{\"kind\": \"empty\"}", "rcuprof", 0, 1.5);
    if (strstr(s, "harness        rcuprof") == NULL
        || strstr(s, "--compat") != NULL)
        fail_msg("rcuprof harness:\n%s", s);
    free(s);
}

static void test_probe_cost(void **state)
{
    static const struct {
        int line;
        double added;
        const char *want;
    } rows[] = {
        { __LINE__, 3.25, "probe cost 3.2 ns per read lock/unlock" },
        { __LINE__, 0.0, "probe cost below the clock's resolution "
          "(on minus off: 0.0 ns" },
        { __LINE__, -2.0, "probe cost below the clock's resolution "
          "(on minus off: -2.0 ns" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *s = summary_of("{\"kind\": \"empty\"}", "rcuprof", 0,
                             rows[i].added);

        if (strstr(s, rows[i].want) == NULL
            || strstr(s, "probe cost -") != NULL)
            fail_msg("line %d: wanted '%s' in:\n%s", rows[i].line,
                     rows[i].want, s);
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_line),
        cmocka_unit_test(test_harness_line),
        cmocka_unit_test(test_probe_cost),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
