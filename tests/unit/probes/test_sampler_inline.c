/*
 * Sampling attribution through an inlined function: a loop built with
 * -O2 -g spends about half of its CPU time in spin_inner (static inline,
 * inlined into mix_outer) and half in other_work (a real function).  The
 * sampler samples it with cpu-clock; the symbolizer must attribute the
 * first half to spin_inner by inline scope (the ELF symbol there is
 * mix_outer), and the attribution report must show that share.
 */
#include "sampler_test_util.h"

static volatile uint64_t g_sink;

static inline __attribute__((always_inline)) uint64_t
spin_inner(uint64_t x, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        x = (x * 6364136223846793005ULL + 1442695040888963407ULL)
            ^ (x >> 29);
    return x;
}

__attribute__((noinline)) uint64_t other_work(uint64_t x, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        x = (x + 0x9E3779B97F4A7C15ULL) * (x | 1) + (x >> 17);
    return x;
}

/* Alternate 2 ms of CPU in each until TOTAL_MS of CPU time. */
__attribute__((noinline)) uint64_t mix_outer(uint64_t total_ms)
{
    uint64_t x = 12345, t0 = thread_cpu_ns(), t, end;

    end = t0 + total_ms * 1000000ULL;
    for (t = t0; t < end;) {
        uint64_t a = t + 2000000ULL, b;

        while ((t = thread_cpu_ns()) < a)
            x = spin_inner(x, 20000);
        b = t + 2000000ULL;
        while ((t = thread_cpu_ns()) < b)
            x = other_work(x, 20000);
        g_sink = x;
    }
    return x;
}

static void test_inline_share(void **state)
{
    struct rcuprof_sampler_config cfg = { 0 };
    struct rcuprof_sampler *s;
    struct rcuprof_symbolize *sym;
    const json_t *rows, *addrs, *row;
    json_t *j, *rep;
    char err[512];
    size_t i;
    unsigned total = 0, inner = 0, inner_outer_sym = 0, other = 0;
    struct rcuprof_attribute_opts o = { 0 };

    cfg.duration_ms = 600;
    s = sampler_or_skip(&cfg, 1);
    if (rcuprof_sampler_open(s, 0, err, sizeof(err)) != 0) {
        printf("SKIPPED: %s\n", err);
        exit(SKIP_RC);
    }
    rcuprof_sampler_start(s, 0);
    mix_outer(400);
    rcuprof_sampler_stop(s, 0);
    j = rcuprof_sampler_to_json(s);
    assert_non_null(j);
    dump_json("threads", json_object_get(j, "threads"));
    dump_json("ring", json_object_get(j, "ring"));

    assert_int_equal(rcuprof_symbolize_from_json(&sym, j, err, sizeof(err)),
                     0);
    rows = json_object_get(j, "rows");
    addrs = json_object_get(j, "addresses");
    json_array_foreach(rows, i, row) {
        const json_t *st = json_array_get(row, 5);
        uint64_t a;
        const struct rcuprof_symbol *r;

        if (json_integer_value(json_array_get(row, 3)) != 0)
            continue;
        a = strtoull(json_string_value(json_array_get(addrs,
            (size_t)json_integer_value(json_array_get(st, 0)))), NULL, 16);
        r = rcuprof_symbolize_addr(sym, a);
        assert_non_null(r);
        total++;
        if (r->nframes > 0
            && strcmp(r->frames[0].function, "spin_inner") == 0) {
            inner++;
            assert_true(r->frames[0].inlined);
            if (r->symbol != NULL && strcmp(r->symbol, "mix_outer") == 0)
                inner_outer_sym++;
            assert_true(r->nframes >= 2);
            assert_string_equal(r->frames[r->nframes - 1].function,
                                "mix_outer");
            assert_non_null(strstr(r->frames[0].file,
                                   "test_sampler_inline.c"));
        } else if (r->nframes > 0
                   && strcmp(r->frames[0].function, "other_work") == 0) {
            other++;
        }
    }
    printf("on-CPU samples %u: spin_inner %u (symbol mix_outer: %u), "
           "other_work %u, distinct addresses resolved %zu\n", total, inner,
           inner_outer_sym, other, rcuprof_symbolize_resolved(sym));
    assert_true(total >= 200);      /* 400 ms at 4999 Hz: about 2000 */
    /* The inlined body is seen by inline scope, not only as mix_outer. */
    assert_true(inner_outer_sym == inner);
    /* Half the CPU time, within sampling (and scheduling) error. */
    assert_true(inner >= total * 35 / 100 && inner <= total * 65 / 100);
    assert_true(other >= total * 35 / 100 && other <= total * 65 / 100);
    /* Each distinct address once: fewer resolved than samples. */
    assert_true(rcuprof_symbolize_resolved(sym) <= json_array_size(addrs));

    /* The attribution report sees the same through its own symbolizer. */
    o.folded = 1;
    rep = rcuprof_attribute(j, NULL, &o, err, sizeof(err));
    if (rep == NULL)
        fail_msg("attribute: %s", err);
    rcuprof_attribute_print(stdout, rep);
    {
        const json_t *f = json_array_get(json_object_get(rep, "folded"), 0);

        assert_non_null(f);
        printf("folded[0]: %s\n", json_string_value(f));
    }
    json_decref(rep);
    rcuprof_symbolize_free(sym);
    json_decref(j);
    rcuprof_sampler_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_share),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
