/*
 * Ring sizing: pages from duration x frequency x record size plus switch
 * records, a power of two, capped (and said so).  Then lost samples: a
 * one-page ring at 4999 Hz over 200 ms of CPU fills, and the result says
 * so, with the samples it could not hold estimated from the clock's count.
 */
#include "sampler_test_util.h"

static volatile uint64_t g_sink;

static void test_ring_math(void **state)
{
    size_t need, p, rec = rcuprof_sampler_sample_bytes(32);
    int capped;

    /* header 8 + id, ip, tid, time, nr 40 + (32 + 1) x 8 */
    assert_int_equal(rec, 48 + 33 * 8);
    /* 1 s at 4999 Hz of 312-byte records: 1,559,688 B, x1.25 = 1,949,610
     * B = 476 pages -> 512. */
    p = rcuprof_sampler_ring_pages(1000, 4999, rec, 0, 0, 4096, 4096, &need,
                                   &capped);
    assert_int_equal(p, 512);
    assert_int_equal(need, 512);
    assert_int_equal(capped, 0);
    /* Switch records count: 1000/s of 400 B adds 500,000 x 1.25 B. */
    p = rcuprof_sampler_ring_pages(1000, 4999, rec, 1000, 400, 4096, 4096,
                                   &need, &capped);
    assert_int_equal(p, 1024);
    /* Longer windows grow it; the cap cuts and says so. */
    p = rcuprof_sampler_ring_pages(10000, 4999, rec, 0, 0, 4096, 4096,
                                   &need, &capped);
    assert_int_equal(need, 8192);
    assert_int_equal(p, 4096);
    assert_int_equal(capped, 1);
    /* A cap that is no power of two rounds down. */
    p = rcuprof_sampler_ring_pages(10000, 4999, rec, 0, 0, 4096, 3000,
                                   &need, &capped);
    assert_int_equal(p, 2048);
    assert_int_equal(capped, 1);
    /* Tiny windows get the minimum of 2 pages; always a power of two. */
    p = rcuprof_sampler_ring_pages(1, 10, rec, 0, 0, 4096, 4096, NULL,
                                   &capped);
    assert_int_equal(p, 2);
    for (uint64_t d = 1; d < 5000; d += 37) {
        p = rcuprof_sampler_ring_pages(d, 997, rec, 100, 100, 4096, 1 << 20,
                                       &need, &capped);
        assert_true(p >= 2 && (p & (p - 1)) == 0);
        assert_true((long double)p * 4096
                    >= (long double)d / 1000 * (997.0 * rec + 100 * 100));
    }
    assert_int_equal(rcuprof_sampler_ring_pages(1000, 1, rec, 0, 0, 0, 8,
                                                NULL, &capped), 0);
}

static void test_lost(void **state)
{
    struct rcuprof_sampler_config cfg = { 0 };
    struct rcuprof_sampler *s;
    json_t *j, *t;
    char err[512];
    uint64_t end, x = 3;
    json_int_t samples, lost, expected;

    cfg.duration_ms = 200;
    cfg.ring_pages = 1;
    s = sampler_or_skip(&cfg, 1);
    assert_int_equal(rcuprof_sampler_data_pages(s), 1);
    if (rcuprof_sampler_open(s, 0, err, sizeof(err)) != 0) {
        printf("SKIPPED: %s\n", err);
        exit(SKIP_RC);
    }
    rcuprof_sampler_start(s, 0);
    end = thread_cpu_ns() + 200000000ULL;
    while (thread_cpu_ns() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 2862933555777941757ULL + 3037000493ULL;
    g_sink = x;
    rcuprof_sampler_stop(s, 0);
    j = rcuprof_sampler_to_json(s);
    t = json_array_get(json_object_get(j, "threads"), 0);
    dump_json("thread", t);
    dump_json("ring", json_object_get(j, "ring"));
    samples = json_integer_value(json_object_get(t, "samples"));
    lost = json_integer_value(json_object_get(t, "lost"));
    expected = json_integer_value(json_object_get(t, "expected_samples"));
    assert_true(json_is_true(json_object_get(t, "ring_full")));
    assert_true(json_is_true(json_object_get(json_object_get(j, "ring"),
                                             "full")));
    assert_true(samples > 0 && samples < 200);
    assert_true(lost > 500);        /* about 1000 taken in 200 ms */
    assert_int_equal(samples + lost, expected);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(j, "totals"), "lost")), lost);
    json_decref(j);
    rcuprof_sampler_free(s);
}

static void test_bad_config(void **state)
{
    struct rcuprof_sampler_config cfg = { 0 };
    struct rcuprof_sampler *s = NULL;
    char err[512];

    assert_int_equal(rcuprof_sampler_new(&s, &cfg, 0, err, sizeof(err)),
                     RCUPROF_SAMPLER_EINVAL);
    cfg.freq = 5000000;
    assert_int_equal(rcuprof_sampler_new(&s, &cfg, 1, err, sizeof(err)),
                     RCUPROF_SAMPLER_EINVAL);
    printf("%s\n", err);
    cfg.freq = 0;
    cfg.event = "no-such-event-anywhere";
    assert_int_equal(rcuprof_sampler_new(&s, &cfg, 1, err, sizeof(err)),
                     RCUPROF_SAMPLER_EENCODE);
    printf("%s\n", err);
    assert_null(s);
    assert_string_equal(rcuprof_sampler_strerror(RCUPROF_SAMPLER_EMMAP),
                        "cannot map the ring buffer");
}

/* A hardware event where there is no PMU: refused, or cpu-clock instead. */
static void test_hw_fallback(void **state)
{
    struct rcuprof_sampler_config cfg = { 0 };
    struct rcuprof_sampler *s = NULL;
    char err[512];
    json_t *j;
    int rc;

    cfg.event = "cycles";
    cfg.period = 1000000;
    rc = rcuprof_sampler_new(&s, &cfg, 1, err, sizeof(err));
    if (rc == 0) {
        printf("cycles samples here (a PMU exists)\n");
        rcuprof_sampler_free(s);
        return;
    }
    printf("cycles: %s\n", err);
    assert_int_equal(rc, RCUPROF_SAMPLER_EOPEN);
    cfg.fallback_cpu_clock = 1;
    rc = rcuprof_sampler_new(&s, &cfg, 1, err, sizeof(err));
    if (rc == RCUPROF_SAMPLER_EOPEN) {
        printf("SKIPPED: %s\n", err);
        exit(SKIP_RC);
    }
    assert_int_equal(rc, 0);
    j = rcuprof_sampler_to_json(s);
    dump_json("event", json_object_get(j, "event"));
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(j, "event"), "name")), "cpu-clock");
    assert_true(json_is_string(json_object_get(json_object_get(j, "event"),
                                               "fallback")));
    json_decref(j);
    rcuprof_sampler_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_math),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_hw_fallback),
        cmocka_unit_test(test_lost),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
