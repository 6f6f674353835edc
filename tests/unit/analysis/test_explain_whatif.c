/*
 * explain's whatif at both counts (analysis/explain_whatif.c): runs as
 * whatif's observations, the fits at T and R paired by block (a failed
 * run leaves its block out of that count's fit, and so out of the
 * ratio), and the rule serialised_site on the figures it gives.
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
#include <cmocka.h>

#include "explain.h"
#include "whatif.h"

static const double delays[3] = { 0, 300, 600 };

/* 5 blocks at R = 1 and T = 2: wall = 100 + slope x delay, each block's
 * slope off by a block effect shared by both counts (what pairing by
 * block takes out) and a small one of its own. */
static size_t make_obs(rcuprof_whatif_obs *o, double rslope, double tslope,
                       int fail_t_block2)
{
    static const double shared[5] = { -0.3, 0.2, 0.0, 0.25, -0.15 };
    static const double own[5] = { 0.01, -0.02, 0.015, -0.01, 0.005 };
    size_t n = 0, b, d, k;

    for (b = 0; b < 5; b++)
        for (k = 0; k < 2; k++)
            for (d = 0; d < 3; d++) {
                double sl = (k == 0 ? rslope : tslope) * (1 + shared[b])
                            + own[b] * (k == 0 ? 1 : -1);
                rcuprof_record rec;

                memset(&rec, 0, sizeof(rec));
                rec.ok = !(fail_t_block2 && k == 1 && b == 2 && d == 1);
                rec.wall_ns_per_op = 100 + sl * delays[d];
                rec.have_delay = 1;
                rec.delay_calls_per_op = 1;
                rec.delay_ns_per_call = delays[d];
                rec.delay_own_ns_per_call = NAN;
                rec.delay_fixed_ns = 0;
                rcuprof_explain_whatif_obs(&rec, (unsigned)b,
                                           k == 0 ? 1u : 2u, delays[d],
                                           &o[n++]);
            }
    return n;
}

static int verdict_of(rcuprof_explain_whatif *w, int has_ref)
{
    rcuprof_explain_thresholds th;
    rcuprof_explain_verdict v[16];
    rcuprof_explain_case c;
    char summary[128];
    int k = rcuprof_explain_rule_index("serialised_site");
    size_t i;

    assert_true(k >= 0);
    memset(&c, 0, sizeof(c));
    c.kind = "listed";
    c.has_reference = has_ref;
    c.t.threads = 2;
    c.r.threads = 1;
    c.whatif = w;
    c.nwhatif = 1;
    /* an established step at the baseline placement */
    c.t.nplace = c.r.nplace = 1;
    rcuprof_explain_agg_init(&c.t.agg[0]);
    rcuprof_explain_agg_init(&c.r.agg[0]);
    c.t.agg[0].n = c.t.agg[0].n0 = c.r.agg[0].n = c.r.agg[0].n0 = 6;
    c.t.agg[0].cost = 200;
    c.r.agg[0].cost = 100;
    c.t.agg[0].lmean = log(200);
    c.r.agg[0].lmean = log(100);
    c.t.agg[0].lsd0 = c.r.agg[0].lsd0 = 0.02;
    c.alt_harness = "perftools";
    c.sweep_rtt_min = c.sweep_rtt_max = c.sweep_rtt_jump = NAN;
    rcuprof_explain_thresholds_default(&th);
    rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
    for (i = 0; i < v[k].npro + v[k].ncon; i++)
        fprintf(stderr, "  %s\n", i < v[k].npro ? v[k].pro[i]
                                                : v[k].con[i - v[k].npro]);
    return v[k].verdict;
}

static void test_serialised(void **state)
{
    rcuprof_whatif_obs o[64];
    rcuprof_explain_whatif w;
    size_t n = make_obs(o, 1.0, 2.0, 0);

    (void)state;
    assert_int_equal(rcuprof_explain_whatif_fit("write_hold", o, n, 2, 1, 1,
                                                delays, 3, &w), 0);
    assert_string_equal(w.site, "write_hold");
    assert_int_equal(w.t.blocks, 5);
    assert_int_equal(w.r.blocks, 5);
    assert_int_equal(w.paired, 5);
    assert_int_equal(w.ratio_rc, 0);
    assert_true(fabs(w.r.slope - 1.0) < 0.05);
    assert_true(fabs(w.t.slope - 2.0) < 0.05);
    assert_true(w.lo <= 2.0 && w.hi >= 2.0);
    /* paired by block, the shared block effect cancels: a narrow ratio */
    assert_true(w.lo >= 1.5);
    assert_int_equal(verdict_of(&w, 1), RCUPROF_EXPLAIN_SUPPORTED);
}

static void test_flat_refuted(void **state)
{
    rcuprof_whatif_obs o[64];
    rcuprof_explain_whatif w;
    size_t n = make_obs(o, 1.0, 1.05, 0);

    (void)state;
    assert_int_equal(rcuprof_explain_whatif_fit("outside", o, n, 2, 1, 1,
                                                delays, 3, &w), 0);
    assert_true(w.hi < 1.5);
    assert_int_equal(verdict_of(&w, 1), RCUPROF_EXPLAIN_REFUTED);
}

/* A failed run is a gap: block 2 leaves T's fit and the pairing. */
static void test_failed_run_gap(void **state)
{
    rcuprof_whatif_obs o[64];
    rcuprof_explain_whatif w;
    size_t n = make_obs(o, 1.0, 2.0, 1);

    (void)state;
    assert_int_equal(rcuprof_explain_whatif_fit("write_hold", o, n, 2, 1, 1,
                                                delays, 3, &w), 0);
    assert_int_equal(w.t.blocks, 4);
    assert_int_equal(w.r.blocks, 5);
    assert_int_equal(w.paired, 4);
    /* the slopes over the paired blocks divide to the ratio; R's over its
     * own 5 blocks does not */
    assert_true(fabs(w.paired_t / w.paired_r - w.ratio) < 1e-12);
    assert_true(fabs(w.paired_r - w.r.slope) > 1e-6);
    assert_int_equal(verdict_of(&w, 1), RCUPROF_EXPLAIN_SUPPORTED);
}

/* A negative slope at R: Fieller's interval is bounded (and negative),
 * which once read refuted; the ratio means nothing: inconclusive. */
static void test_negative_reference(void **state)
{
    rcuprof_whatif_obs o[64];
    rcuprof_explain_whatif w;
    size_t n = make_obs(o, -1.0, 2.0, 0);

    (void)state;
    assert_int_equal(rcuprof_explain_whatif_fit("write_hold", o, n, 2, 1, 1,
                                                delays, 3, &w), 0);
    assert_int_equal(w.ratio_rc, 0);
    assert_true(w.hi < 0);
    assert_int_equal(verdict_of(&w, 1), RCUPROF_EXPLAIN_INCONCLUSIVE);
}

/* Without a reference: T's fit only, no ratio, the rule not testable. */
static void test_no_reference(void **state)
{
    rcuprof_whatif_obs o[64];
    rcuprof_explain_whatif w;
    size_t n = make_obs(o, 1.0, 2.0, 0);

    (void)state;
    assert_int_equal(rcuprof_explain_whatif_fit("write_hold", o, n, 2, 0, 0,
                                                delays, 3, &w), 0);
    assert_int_equal(w.t.blocks, 5);
    assert_true(isnan(w.ratio));
    assert_int_equal(w.ratio_rc, -1);
    assert_int_equal(verdict_of(&w, 0), RCUPROF_EXPLAIN_NOT_TESTABLE);
}

/* A failed run's observation is not ok and carries no figure. */
static void test_obs_from_record(void **state)
{
    rcuprof_record rec;
    rcuprof_whatif_obs o;

    (void)state;
    memset(&rec, 0, sizeof(rec));
    rec.ok = 1;
    rec.wall_ns_per_op = 250;
    rec.have_delay = 1;
    rec.delay_calls_per_op = 2;
    rec.delay_ns_per_call = 98;
    rec.delay_own_ns_per_call = NAN;
    rec.delay_fixed_ns = NAN;
    rcuprof_explain_whatif_obs(&rec, 3, 2, 100, &o);
    assert_int_equal(o.ok, 1);
    assert_int_equal(o.block, 3);
    assert_true(o.calls_per_op == 2 && o.delay_ns_per_call == 98);
    assert_true(o.fixed_ns == 0);
    assert_true(fabs(rcuprof_whatif_x(&o) - 196) < 1e-9);
    rec.ok = 0;
    rcuprof_explain_whatif_obs(&rec, 4, 2, 100, &o);
    assert_int_equal(o.ok, 0);
    assert_int_equal(o.block, 4);
    assert_true(isnan(o.wall_ns_per_op));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serialised),
        cmocka_unit_test(test_negative_reference),
        cmocka_unit_test(test_flat_refuted),
        cmocka_unit_test(test_failed_run_gap),
        cmocka_unit_test(test_no_reference),
        cmocka_unit_test(test_obs_from_record),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
