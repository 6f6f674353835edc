/*
 * Multiplexing: a seam (rcuprof_counters_inject_read) puts a group read
 * with time_running < time_enabled where stop() would have put the real
 * one; values must be scaled by enabled / running and marked, running %
 * shown, a group that never ran reported as not counted (null, not 0).
 */
#include "counters_test_util.h"
#include "rcuprof_counters.h"

struct scale_case {
    int line;
    uint64_t enabled, running;
    uint64_t v0, v1;
    int swap;                   /* values in the read in the other order */
    int counted, scaled;
    double want0, want1;
};

static const struct scale_case cases[] = {
    { __LINE__, 1000, 1000, 100, 7, 0, 1, 0, 100.0, 7.0 },
    { __LINE__, 1000, 250, 100, 7, 0, 1, 1, 400.0, 28.0 },
    { __LINE__, 3000, 1000, 5, 0, 1, 1, 1, 15.0, 0.0 },
    { __LINE__, 1000, 0, 0, 0, 0, 0, 0, 0.0, 0.0 },
    /* large counts must not overflow through the ratio */
    { __LINE__, 2000000000ull, 1000000000ull, 1ull << 62, 3, 0, 1, 1,
      9223372036854775808.0, 6.0 },
};

static void test_scaling(void **state)
{
    struct rcuprof_counters *c = NULL;
    struct rcuprof_counters_value v0, v1;
    uint64_t ids[2], buf[7];
    char err[512];
    size_t i;

    assert_int_equal(rcuprof_counters_new(&c, "task-clock,page-faults", 0, 1,
                                          err, sizeof(err)), 0);
    if (rcuprof_counters_nopen(c) != 2) {
        printf("SKIPPED: software events do not open here\n");
        rcuprof_counters_free(c);
        exit(SKIP_RC);
    }
    assert_int_equal(rcuprof_counters_open(c, 0, err, sizeof(err)), 0);
    assert_int_equal(rcuprof_counters_ngroups(c), 1);
    assert_int_equal(rcuprof_counters_group_ids(c, 0, 0, ids, 2), 2);
    assert_true(ids[0] != ids[1]);

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct scale_case *sc = &cases[i];

        buf[0] = 2;
        buf[1] = sc->enabled;
        buf[2] = sc->running;
        buf[3] = sc->swap ? sc->v1 : sc->v0;
        buf[4] = sc->swap ? ids[1] : ids[0];
        buf[5] = sc->swap ? sc->v0 : sc->v1;
        buf[6] = sc->swap ? ids[0] : ids[1];
        assert_int_equal(rcuprof_counters_inject_read(c, 0, 0, buf, 7), 0);
        assert_int_equal(rcuprof_counters_value(c, 0, 0, &v0), 0);
        assert_int_equal(rcuprof_counters_value(c, 0, 1, &v1), 0);
        if (v0.counted != sc->counted || v0.scaled != sc->scaled
            || v1.scaled != sc->scaled)
            fail_msg("line %d: counted %d scaled %d", sc->line, v0.counted,
                     v0.scaled);
        if (sc->counted && (v0.value != sc->want0 || v1.value != sc->want1
                            || v0.raw != sc->v0))
            fail_msg("line %d: values %f %f, want %f %f", sc->line, v0.value,
                     v1.value, sc->want0, sc->want1);
        if (!sc->counted && v0.reason == NULL)
            fail_msg("line %d: no reason for a group that never ran",
                     sc->line);
    }
    /* Wrong size for the group. */
    assert_int_equal(rcuprof_counters_inject_read(c, 0, 0, buf, 5),
                     RCUPROF_COUNTERS_EINVAL);
    rcuprof_counters_free(c);
}

static void test_scaled_json(void **state)
{
    struct rcuprof_counters *c = NULL;
    uint64_t ids[2], buf[7], ops[2] = { 100, 0 };
    char err[512];
    json_t *j, *t0, *tc, *sum;

    assert_int_equal(rcuprof_counters_new(&c, "task-clock,page-faults", 0, 2,
                                          err, sizeof(err)), 0);
    if (rcuprof_counters_nopen(c) != 2) {
        rcuprof_counters_free(c);
        exit(SKIP_RC);
    }
    assert_int_equal(rcuprof_counters_open(c, 0, err, sizeof(err)), 0);
    assert_int_equal(rcuprof_counters_group_ids(c, 0, 0, ids, 2), 2);
    buf[0] = 2;
    buf[1] = 1000;
    buf[2] = 250;
    buf[3] = 100;
    buf[4] = ids[0];
    buf[5] = 8;
    buf[6] = ids[1];
    assert_int_equal(rcuprof_counters_inject_read(c, 0, 0, buf, 7), 0);
    /* thread 1 never opened: reported, not zero */
    j = rcuprof_counters_to_json(c, ops);
    assert_true(json_is_true(json_object_get(j, "scaled")));
    t0 = json_array_get(json_object_get(j, "threads"), 0);
    assert_true(json_real_value(json_object_get(json_array_get(
        json_object_get(t0, "groups"), 0), "running_pct")) == 25.0);
    tc = json_object_get(json_object_get(t0, "values"), "task-clock");
    assert_true(json_real_value(json_object_get(tc, "value")) == 400.0);
    assert_int_equal(json_integer_value(json_object_get(tc, "raw")), 100);
    assert_true(json_is_true(json_object_get(tc, "scaled")));
    assert_true(json_real_value(json_object_get(tc, "per_op")) == 4.0);
    assert_true(json_is_null(json_object_get(json_array_get(
        json_object_get(j, "threads"), 1), "values")));
    sum = json_object_get(json_object_get(j, "sums"), "page-faults");
    assert_true(json_real_value(json_object_get(sum, "value")) == 32.0);
    assert_true(json_is_true(json_object_get(sum, "scaled")));
    assert_int_equal(json_integer_value(json_object_get(sum, "threads")), 1);
    json_decref(j);
    rcuprof_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scaling),
        cmocka_unit_test(test_scaled_json),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
