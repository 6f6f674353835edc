/*
 * What `rcuprof run` prints of a result (analysis/report/summary.c): the
 * workload line names the workload the JSON names and nothing it lacks,
 * the harness line names --compat with a value the CLI accepts, the probes'
 * own cost is never printed as a negative cost, the read lock's whole is
 * printed as the whole and its acquire loop as its part, in ns, and the
 * churn achieved is set against the churn asked, in one scope.
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
static json_t *result_of(const char *workload, const char *harness_mode,
                         int clock_per_op, double added_ns)
{
    json_error_t je;
    json_t *wl = json_loads(workload, 0, &je);
    json_t *res;

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
    return res;
}

/* The summary of res (consumed), as a string to free. */
static char *print_res(json_t *res)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    rcuprof_run_summary_print(f, res);
    fclose(f);
    json_decref(res);
    return text;
}

static char *summary_of(const char *workload, const char *harness_mode,
                        int clock_per_op, double added_ns)
{
    return print_res(result_of(workload, harness_mode, clock_per_op,
                               added_ns));
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
    json_t *res, *h;
    char *s;

    (void)state;
    /* --compat takes none, perftools, or a list of artefacts: never "on" */
    s = summary_of("{\"kind\": \"empty\"}", "perftools", 1, 1.5);
    if (strstr(s, "harness        --compat perftools (every artefact)") == NULL
        || strstr(s, "--compat on") != NULL
        || strstr(s, "clock read per op") == NULL
        || strstr(s, "no start barrier") == NULL)
        fail_msg("perftools harness not named as --compat perftools:\n%s", s);
    free(s);
    /* some artefacts: the list that asks for them again */
    res = result_of("{\"kind\": \"empty\"}", "mixed", 1, 1.5);
    h = json_object_get(json_object_get(res, "run"), "harness");
    json_object_set_new(h, "start_barrier", json_true());
    json_object_set_new(h, "deadline_after_barrier", json_true());
    json_object_set_new(h, "count_stride_bytes", json_integer(8));
    s = print_res(res);
    if (strstr(s, "harness        --compat clock,unpadded:") == NULL
        || strstr(s, "--compat on") != NULL)
        fail_msg("mixed harness not named as --compat clock,unpadded:\n%s", s);
    free(s);
    res = result_of("{\"kind\": \"empty\"}", "mixed", 0, 1.5);
    h = json_object_get(json_object_get(res, "run"), "harness");
    json_object_set_new(h, "start_barrier", json_true());
    json_object_set_new(h, "counts_padded", json_true());
    json_object_set_new(h, "count_stride_bytes", json_integer(64));
    s = print_res(res);
    if (strstr(s, "harness        --compat early-deadline:") == NULL)
        fail_msg("mixed harness not named as --compat early-deadline:\n%s", s);
    free(s);
    s = summary_of("{\"kind\": \"empty\"}", "rcuprof", 0, 1.5);
    if (strstr(s, "harness        rcuprof") == NULL
        || strstr(s, "--compat") != NULL)
        fail_msg("rcuprof harness:\n%s", s);
    free(s);
}

/*
 * The probe line: ossl_rcu_read_lock's whole (735.4 ticks) and its acquire
 * loop (593.4 ticks), in ns at the result's 2694.99 ticks per us, the
 * whole named as the whole, the loop as its part; no "ticks/acq".
 */
static void test_probe_line(void **state)
{
    json_t *res = result_of("{\"kind\": \"fetch\"}", "rcuprof", 0, 1.5);
    json_t *p = json_object_get(res, "probes");
    json_t *sum = json_object_get(p, "summary");
    char *s;

    (void)state;
    json_object_set_new(sum, "retries_per_acquisition", json_real(0.25));
    json_object_set_new(sum, "acquire_ticks_per_acquisition", json_real(593.4));
    json_object_set_new(sum, "lock_ticks_per_acquisition", json_real(735.4));
    json_object_set_new(p, "ticks_per_us", json_real(2694.99));
    json_object_set_new(p, "clock", json_string("rdtsc"));
    json_object_set_new(p, "sample_every", json_integer(64));
    json_object_set_new(p, "timer_quantum_ticks", json_integer(27));
    json_object_set_new(p, "timer_cost_ticks", json_integer(54));
    s = print_res(res);
    if (strstr(s, "ossl_rcu_read_lock 272.9 ns per acq, of which its acquire loop 220.2 ns") == NULL
        || strstr(s, "ticks/acq") != NULL || strstr(s, "in read_lock") != NULL
        || strstr(s, "timer quantum 27 ticks (pair cost 54 subtracted)") == NULL)
        fail_msg("probe line:\n%s", s);
    free(s);
    /* without ticks_per_us there is no ns: the figures stay in ticks */
    res = result_of("{\"kind\": \"fetch\"}", "rcuprof", 0, 1.5);
    sum = json_object_get(json_object_get(res, "probes"), "summary");
    json_object_set_new(sum, "acquire_ticks_per_acquisition", json_real(593.4));
    json_object_set_new(sum, "lock_ticks_per_acquisition", json_real(735.4));
    s = print_res(res);
    if (strstr(s, "ossl_rcu_read_lock 735.4 ticks per acq, of which its acquire loop 593.4 ticks") == NULL)
        fail_msg("probe line without ticks_per_us:\n%s", s);
    free(s);
}

/*
 * The churn line: writes in the window against the rate asked, both of the
 * window; the synchronize count, whole-process, says so.
 */
static void test_churn_line(void **state)
{
    static const struct {
        int line;
        long long target;
        const char *want;
    } rows[] = {
        { __LINE__, 2000, "churn          query, 1 writer: 617 writes in the "
          "0.311 s window, 1981 per s against 2000 per s asked\n" },
        { __LINE__, 0, "churn          query, 1 writer: 617 writes in the "
          "0.311 s window, 1981 per s (unpaced: no rate asked)\n" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        json_t *res = result_of("{\"kind\": \"fetch\"}", "rcuprof", 0, 1.5);
        json_t *sum = json_object_get(json_object_get(res, "probes"),
                                      "summary");
        char *s;

        json_object_set_new(json_object_get(res, "run"), "churn",
                            json_pack("{s:[s], s:i, s:I, s:I, s:{s:I}, s:f,"
                                      " s:f, s:I, s:n}",
                                      "kinds", "query", "writers", 1,
                                      "write_rate_target",
                                      (json_int_t)rows[i].target,
                                      "writes", (json_int_t)617,
                                      "writes_by_kind", "query",
                                      (json_int_t)617, "window_s", 0.311434,
                                      "writes_per_s", 1981.158, "failures",
                                      (json_int_t)0, "first_failure"));
        json_object_set_new(sum, "syncs", json_integer(1257));
        json_object_set_new(sum, "publications", json_integer(1250));
        s = print_res(res);
        if (strstr(s, rows[i].want) == NULL
            || strstr(s, "(1257 synchronize for 1250 store publications, whole process") == NULL)
            fail_msg("line %d: wanted '%s' and a whole-process synchronize "
                     "count in:\n%s", rows[i].line, rows[i].want, s);
        free(s);
    }
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
        cmocka_unit_test(test_probe_line),
        cmocka_unit_test(test_churn_line),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
