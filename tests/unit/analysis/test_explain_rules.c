/*
 * rcuprof explain's classification rules (src/cli/explain_rules.c), table
 * driven: each row builds a case from a neutral fixture, changes what the
 * row is about, and checks one rule's verdict (and, where it matters, a
 * word of its evidence).  Negative rows included: more threads than CPUs
 * with the CPUs busy is not oversubscription damage by itself; threads at
 * or below the CPU count with high run-queue delay is external load.
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
#include "stats_test.h"
#include "rcuprof_report.h"

enum { NT = RCUPROF_EXPLAIN_NOT_TESTABLE, REF = RCUPROF_EXPLAIN_REFUTED,
       INC = RCUPROF_EXPLAIN_INCONCLUSIVE, SUP = RCUPROF_EXPLAIN_SUPPORTED };

static rcuprof_explain_pair pairs[8];

/* A cell of 6 runs whose cost is cost with a spread of about half: the
 * SD of ln cost, what the rules' ratio intervals are made of. */
static void set_cost(rcuprof_explain_agg *a, double cost, double half)
{
    a->n = a->n0 = 6;
    a->cost = cost;
    a->lo = cost * (1 - half);
    a->hi = cost * (1 + half);
    a->interval = "median";
    a->lmean = log(cost);
    a->lsd0 = half;
}

/* CPU time per op likewise (spread 0.02). */
static void set_cpu(rcuprof_explain_agg *a, double cpu)
{
    a->cpu_cost = cpu;
    a->cpu_lmean = log(cpu);
    a->cpu_lsd0 = 0.02;
    a->cpu_n = a->cpu_n0 = 6;
}

/* An exact per-run probe figure (the same in every run). */
#define SET_PROBE(a, f, x) \
    ((a)->f = (a)->f##_min = (a)->f##_max = (x))

static void neutral_agg(rcuprof_explain_agg *a, unsigned T, unsigned C)
{
    rcuprof_explain_agg_init(a);
    set_cost(a, 100, 0.02);
    set_cpu(a, 100);
    a->util = T > C ? (double)C / T : 1.0;
    a->runq_share = T > C ? 1 - (double)C / T : 0.0;
    a->runq_ns_per_kop = a->runq_share * 100000;
    a->vcsw_per_kop = a->ivcsw_per_kop = a->migr_per_kop = 0;
    a->steal_ms = a->steal_share = 0;
}

static void side(rcuprof_explain_side *s, unsigned T, unsigned C)
{
    size_t i;

    memset(s, 0, sizeof(*s));
    s->threads = T;
    s->nplace = 2;
    snprintf(s->place[0].name, sizeof(s->place[0].name), "none");
    snprintf(s->place[1].name, sizeof(s->place[1].name), "compact");
    s->place[1].pinned = 1;
    s->place[1].packages = s->place[1].l3s = 1;
    s->place[1].cores = (int)(T < C ? T : C);
    for (i = 0; i < T && i < RCUPROF_EXPLAIN_MAX_CPUS_USED; i++)
        s->place[1].cpus[i] = (int)(i % C);
    s->place[1].ncpus = i;
    neutral_agg(&s->agg[0], T, C);
    neutral_agg(&s->agg[1], T, C);
    rcuprof_explain_agg_init(&s->alt);
    rcuprof_explain_agg_init(&s->nowriters);
    s->sweep_rtt = s->sweep_rtt_lo = s->sweep_rtt_hi = NAN;
    s->sweep_cost = NAN;
}

/* T threads against R on C CPUs, one package, no SMT, nothing odd. */
static void fixture(rcuprof_explain_case *c, unsigned T, unsigned R,
                    unsigned C)
{
    memset(c, 0, sizeof(*c));
    c->kind = "listed";
    c->has_reference = R > 0;
    side(&c->t, T, C);
    if (R > 0)
        side(&c->r, R, C);
    c->cpus_allowed = C;
    c->packages = c->l3_domains = 1;
    c->cores = c->pus = (int)C;
    snprintf(c->pmu_reason, sizeof(c->pmu_reason), "no hardware PMU");
    c->alt_harness = "perftools";
    c->sweep_rtt_min = c->sweep_rtt_max = c->sweep_rtt_jump = NAN;
    c->pairs = pairs;
    c->npairs = 0;
}

/* A step: the slow count costs ratio x the reference at every placement. */
static void step(rcuprof_explain_case *c, double ratio)
{
    size_t i;

    for (i = 0; i < c->t.nplace; i++)
        set_cost(&c->t.agg[i], 100 * ratio, 0.02);
}

/* ---- fixtures: each names what it sets up ---------------------------- */

/* ---- serialised_site: synthetic whatif fits -------------------------- */

static rcuprof_explain_whatif wi[2];

/* A site whose slope goes from rs at 1 thread to ts at 2, the ratio and
 * its interval as given (rc as rcuprof_whatif_slope_ratio's). */
static void set_wi(rcuprof_explain_whatif *w, const char *site, double rs,
                   double ts, double ratio, double lo, double hi, int rc)
{
    memset(w, 0, sizeof(*w));
    snprintf(w->site, sizeof(w->site), "%s", site);
    snprintf(w->label, sizeof(w->label), "rwlock %s", site);
    w->has_reference = 1;
    w->r = (rcuprof_explain_slope){ 1, 5, rs, rs - 0.05, rs + 0.05 };
    w->t = (rcuprof_explain_slope){ 2, 5, ts, ts - 0.1, ts + 0.1 };
    w->ratio_rc = rc;
    w->ratio = ratio;
    w->lo = lo;
    w->hi = hi;
    w->paired = rc < 0 ? 1 : 5;
    /* over the paired blocks, a little off each count's own mean */
    w->paired_r = rs + 0.01;
    w->paired_t = ts - 0.01;
}

static void fx_wi_case_tr(rcuprof_explain_case *c, size_t n, unsigned T,
                          unsigned R)
{
    size_t i;

    fixture(c, T, R, 4);
    step(c, 1.8);
    for (i = 0; i < n; i++) {
        wi[i].t.threads = T;
        wi[i].r.threads = R;
    }
    c->whatif = wi;
    c->nwhatif = n;
}

static void fx_wi_case(rcuprof_explain_case *c, size_t n)
{
    fixture(c, 2, 1, 2);
    step(c, 1.8);
    c->whatif = wi;
    c->nwhatif = n;
}

/* A knee 3 vs 2: a perfectly serialised site's ratio tends to 1.5, so the
 * threshold is 1 + (1.5 - 1)/2 = 1.25; 1.40x [1.30, 1.48] clears it. */
static void fx_wi_knee_3_2(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.4, 1.4, 1.30, 1.48, 0);
    fx_wi_case_tr(c, 1, 3, 2);
}

/* 4 vs 3: threshold 1 + (4/3 - 1)/2 = 1.1667; 1.12x [1.05, 1.16] lies
 * below it. */
static void fx_wi_knee_4_3_below(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.12, 1.12, 1.05, 1.16, 0);
    fx_wi_case_tr(c, 1, 4, 3);
}

/* 4 vs 1: T/R 4, the threshold stays 1.5: 1.45x [1.3, 1.6] straddles. */
static void fx_wi_knee_4_1(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.45, 1.45, 1.3, 1.6, 0);
    fx_wi_case_tr(c, 1, 4, 1);
}

/* A dip (T 2 slower than R 4): the same comparison against 1.5; a site
 * whose slope grows with threads lies below it: refuted. */
static void fx_wi_dip(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 2.0, 1.0, 0.5, 0.4, 0.6, 0);
    fx_wi_case_tr(c, 1, 2, 4);
}

/* R's slope is negative (its interval below 0): the bounded Fieller
 * interval of a negative ratio would read refuted; it means nothing. */
static void fx_wi_negative_ref(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", -0.5, 1.9, -3.8, -4.5, -3.2, 0);
    fx_wi_case(c, 1);
}

static void fx_wi_serialised(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.02, 1.96, 1.92, 1.71, 2.16, 0);
    set_wi(&wi[1], "outside", 1.0, 1.02, 1.02, 0.9, 1.15, 0);
    fx_wi_case(c, 2);
}

static void fx_wi_flat(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.1, 1.1, 0.95, 1.3, 0);
    set_wi(&wi[1], "outside", 1.0, 1.02, 1.02, 0.9, 1.15, 0);
    fx_wi_case(c, 2);
}

static void fx_wi_straddles(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.9, 1.9, 1.2, 2.6, 0);
    fx_wi_case(c, 1);
}

/* Issue 28: a bounded Fieller interval reaching below 0 (the slope at T
 * not known above 0) was printed "1.41x [-15.45, 4.82]": no multiple. */
static void fx_wi_reaches_zero(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.41, 1.41, -15.45, 4.82, 0);
    fx_wi_case(c, 1);
}

static void fx_wi_unbounded(rcuprof_explain_case *c)
{
    /* the slope at R not distinguishable from 0: the ratio's set is the
     * whole line, whatever its point value */
    set_wi(&wi[0], "write_hold", 0.05, 1.9, 38.0, -INFINITY, INFINITY, 1);
    fx_wi_case(c, 1);
}

static void fx_wi_one_block(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.9, NAN, NAN, NAN, -1);
    fx_wi_case(c, 1);
}

static void fx_wi_no_reference(rcuprof_explain_case *c)
{
    set_wi(&wi[0], "write_hold", 1.0, 1.9, 1.9, 1.7, 2.1, 0);
    fixture(c, 2, 0, 2);
    c->whatif = wi;
    c->nwhatif = 1;
}

static void fx_wi_no_step(rcuprof_explain_case *c)
{
    fx_wi_serialised(c);
    step(c, 1.0);
}

static void fx_oversub(rcuprof_explain_case *c)
{
    fixture(c, 4, 2, 2);
    step(c, 2.0);               /* util 0.5, runq 50%, CPU/op unchanged */
}

static void fx_busy_cpus_no_runq(rcuprof_explain_case *c)
{
    /* 4 threads on 2 CPUs, each CPU ~fully used, nothing else measured */
    fixture(c, 4, 2, 2);
    step(c, 2.0);
    c->t.agg[0].util = 0.49;
    c->t.agg[0].runq_share = NAN;
    c->t.agg[0].runq_ns_per_kop = NAN;
}

static void fx_more_threads_no_wait(rcuprof_explain_case *c)
{
    /* 4 on 2, but they did not wait for a CPU: they blocked */
    fixture(c, 4, 2, 2);
    step(c, 2.0);
    c->t.agg[0].runq_share = 0.02;
    c->t.agg[0].vcsw_per_kop = 40;
}

static void fx_runq_at_or_below(rcuprof_explain_case *c)
{
    /* 2 threads on 2 CPUs waited 40% of the window */
    fixture(c, 2, 1, 2);
    step(c, 1.6);
    c->t.agg[0].util = 0.6;
    c->t.agg[0].runq_share = 0.40;
    c->r.agg[0].runq_share = 0.02;
}

static void fx_runq_both(rcuprof_explain_case *c)
{
    fx_runq_at_or_below(c);
    c->r.agg[0].runq_share = 0.40;
}

static void fx_steal(rcuprof_explain_case *c)
{
    fixture(c, 2, 1, 2);
    step(c, 1.3);
    c->t.agg[0].steal_share = 0.06;
    c->t.agg[0].steal_ms = 12;
}

static void fx_contention(rcuprof_explain_case *c)
{
    /* 1 -> 2 on 2 CPUs: both running, each op costs 1.8x the CPU */
    fixture(c, 2, 1, 2);
    step(c, 1.8);
    set_cpu(&c->t.agg[0], 180);
    c->t.agg[0].util = 0.98;
    pairs[0] = (rcuprof_explain_pair){ 0, 1, RCUPROF_EXPLAIN_REL_CORE,
                                       150, 150, 2 };
    c->npairs = 1;
}

static void fx_contention_off_cpu(rcuprof_explain_case *c)
{
    fx_contention(c);
    c->t.agg[0].util = 0.3;
}

static void fx_no_contention(rcuprof_explain_case *c)
{
    fixture(c, 2, 1, 2);
    step(c, 1.02);
    set_cpu(&c->t.agg[0], 102);
}

/* The seed's mystery: 16 slow, 32 recovers, on 40 CPUs. */
static void fx_dip(rcuprof_explain_case *c)
{
    fixture(c, 16, 32, 40);
    c->kind = "dip";
    step(c, 1.4);
}

static void fx_dip_vanishes_pinned(rcuprof_explain_case *c)
{
    fx_dip(c);
    set_cost(&c->t.agg[1], 102, 0.02);
    c->t.agg[0].migr_per_kop = 0.5;
}

static void fx_dip_vanishes_in_noise(rcuprof_explain_case *c)
{
    fx_dip(c);
    set_cost(&c->t.agg[1], 102, 0.5);
    set_cost(&c->t.agg[0], 140, 0.5);
}

static void fx_dip_appears_pinned(rcuprof_explain_case *c)
{
    fx_dip(c);
    set_cost(&c->t.agg[0], 100, 0.02);
}

static void fx_unpinned_only(rcuprof_explain_case *c)
{
    fx_dip(c);
    c->t.nplace = c->r.nplace = 1;
}

static void two_packages(rcuprof_explain_case *c)
{
    c->packages = 2;
    c->l3_domains = 2;
    c->t.nplace = c->r.nplace = 3;
    snprintf(c->t.place[2].name, sizeof(c->t.place[2].name), "package:0");
    snprintf(c->r.place[2].name, sizeof(c->r.place[2].name), "package:0");
    c->t.place[2].pinned = c->r.place[2].pinned = 1;
    c->t.place[2].packages = c->r.place[2].packages = 1;
    c->t.agg[2] = c->t.agg[0];
    c->r.agg[2] = c->r.agg[0];
    pairs[0] = (rcuprof_explain_pair){ 0, 1, RCUPROF_EXPLAIN_REL_CORE,
                                       100, 100, 2 };
    pairs[1] = (rcuprof_explain_pair){ 0, 2, RCUPROF_EXPLAIN_REL_CORE,
                                       104, 104, 2 };
    pairs[2] = (rcuprof_explain_pair){ 0, 20, RCUPROF_EXPLAIN_REL_PACKAGE,
                                       310, 320, 2 };
    pairs[3] = (rcuprof_explain_pair){ 1, 21, RCUPROF_EXPLAIN_REL_PACKAGE,
                                       300, 300, 2 };
    c->npairs = 4;
}

static void fx_cross_confined_vanishes(rcuprof_explain_case *c)
{
    fx_dip(c);
    two_packages(c);
    set_cost(&c->t.agg[2], 101, 0.02);
}

static void fx_cross_flat_matrix(rcuprof_explain_case *c)
{
    fx_cross_confined_vanishes(c);
    pairs[2].ns = 105;
    pairs[3].ns = 103;
    set_cost(&c->t.agg[2], 140, 0.02);
}

static void smt_machine(rcuprof_explain_case *c)
{
    c->cores = 20;
    c->pus = 40;
    c->t.nplace = c->r.nplace = 3;
    snprintf(c->t.place[2].name, sizeof(c->t.place[2].name), "core");
    snprintf(c->r.place[2].name, sizeof(c->r.place[2].name), "core");
    c->t.place[2].pinned = c->r.place[2].pinned = 1;
    c->t.place[1].smt_shared = 1;
    c->t.agg[2] = c->t.agg[1];
    c->r.agg[2] = c->r.agg[1];
}

static void fx_smt_compact_slower(rcuprof_explain_case *c)
{
    fixture(c, 16, 8, 40);
    smt_machine(c);
    set_cost(&c->t.agg[1], 150, 0.02);
    set_cost(&c->t.agg[2], 100, 0.02);
}

static void fx_smt_same(rcuprof_explain_case *c)
{
    fixture(c, 16, 8, 40);
    smt_machine(c);
}

static void fx_writer_probes(rcuprof_explain_case *c)
{
    fx_dip(c);
    c->t.agg[0].have_probes = c->r.agg[0].have_probes = 1;
    SET_PROBE(&c->t.agg[0], probe_retries, 0.5);
    SET_PROBE(&c->r.agg[0], probe_retries, 0.01);
    SET_PROBE(&c->t.agg[0], probe_slow, 0);
    SET_PROBE(&c->r.agg[0], probe_slow, 0);
    SET_PROBE(&c->t.agg[0], probe_wait, NAN);
    SET_PROBE(&c->r.agg[0], probe_wait, NAN);
}

static void fx_writer_probes_zero(rcuprof_explain_case *c)
{
    fx_writer_probes(c);
    SET_PROBE(&c->t.agg[0], probe_retries, 0);
    SET_PROBE(&c->r.agg[0], probe_retries, 0);
}

static void fx_writer_nowriters_vanish(rcuprof_explain_case *c)
{
    fx_dip(c);
    c->writers = 1;
    c->t.agg[0].have_churn = 1;
    c->t.agg[0].writes_per_s = 5000;
    c->t.nowriters = c->r.agg[0];
    c->r.nowriters = c->r.agg[0];
}

static void fx_writer_nowriters_same(rcuprof_explain_case *c)
{
    fx_writer_nowriters_vanish(c);
    c->t.nowriters = c->t.agg[0];
}

static void fx_state_aligned(rcuprof_explain_case *c)
{
    /* the sweep ran 16 in the 320 ns state, 32 in the 70 ns one */
    fx_dip(c);
    c->t.sweep_rtt = 318;
    c->t.sweep_rtt_lo = 300;
    c->t.sweep_rtt_hi = 330;
    c->r.sweep_rtt = 71;
    c->r.sweep_rtt_lo = 68;
    c->r.sweep_rtt_hi = 75;
    c->sweep_rtt_min = 68;
    c->sweep_rtt_max = 330;
}

static void fx_state_mixed(rcuprof_explain_case *c)
{
    fx_state_aligned(c);
    c->t.sweep_rtt_lo = 70;
    c->r.sweep_rtt_hi = 320;
}

static void fx_state_stable(rcuprof_explain_case *c)
{
    fx_dip(c);
    c->t.sweep_rtt = c->r.sweep_rtt = 72;
    c->t.sweep_rtt_lo = c->r.sweep_rtt_lo = 70;
    c->t.sweep_rtt_hi = c->r.sweep_rtt_hi = 75;
    c->sweep_rtt_min = 70;
    c->sweep_rtt_max = 75;
}

static void fx_harness_artefact(rcuprof_explain_case *c)
{
    fx_dip(c);
    set_cost(&c->t.alt, 100, 0.02);
    set_cost(&c->r.alt, 100, 0.02);
}

static void fx_harness_same(rcuprof_explain_case *c)
{
    fx_dip(c);
    set_cost(&c->t.alt, 210, 0.02);
    set_cost(&c->r.alt, 150, 0.02);
}

static void fx_freq_drop(rcuprof_explain_case *c)
{
    fx_dip(c);
    c->pmu = 1;
    c->t.agg[0].cycles_per_ns = 3.0;
    c->r.agg[0].cycles_per_ns = 3.6;
}

static void fx_freq_flat(rcuprof_explain_case *c)
{
    fx_freq_drop(c);
    c->t.agg[0].cycles_per_ns = 3.58;
}

static void fx_no_reference(rcuprof_explain_case *c)
{
    fixture(c, 1, 0, 2);
}

static void fx_no_step(rcuprof_explain_case *c)
{
    fixture(c, 16, 32, 40);
}

/* ---------------------------------------------------------------------- */

static const struct row {
    int line;
    const char *rule;
    void (*fx)(rcuprof_explain_case *c);
    int verdict;
    const char *word;           /* in the evidence or reason, or NULL */
} rows[] = {
    /* oversubscription */
    { __LINE__, "oversubscription", fx_oversub, SUP, "waited for a CPU 50%" },
    { __LINE__, "oversubscription", fx_busy_cpus_no_runq, INC, "not readable" },
    { __LINE__, "oversubscription", fx_more_threads_no_wait, REF, "only" },
    { __LINE__, "oversubscription", fx_runq_at_or_below, REF, "<= 2 CPUs" },
    { __LINE__, "oversubscription", fx_dip, REF, "16 threads <= 40" },
    /* external load or steal */
    { __LINE__, "external", fx_runq_at_or_below, SUP, "beyond the 0%" },
    { __LINE__, "external", fx_runq_both, INC, "hit both counts" },
    { __LINE__, "external", fx_steal, SUP, "steal 6.0%" },
    { __LINE__, "external", fx_oversub, REF, "what 4 threads on 2 CPUs explain" },
    { __LINE__, "external", fx_contention, REF, NULL },
    /* contention between running threads */
    { __LINE__, "contention", fx_contention, SUP, "150 ns" },
    { __LINE__, "contention", fx_contention_off_cpu, INC, "off-CPU" },
    { __LINE__, "contention", fx_no_contention, REF, "1.02x [" },
    { __LINE__, "contention", fx_oversub, REF, NULL },
    { __LINE__, "contention", fx_no_reference, NT, "no reference" },
    /* placement */
    { __LINE__, "placement", fx_dip_vanishes_pinned, SUP, "vanishes under compact" },
    { __LINE__, "placement", fx_dip, REF, "same step under every" },
    { __LINE__, "placement", fx_dip_vanishes_in_noise, INC, "straddle" },
    { __LINE__, "placement", fx_dip_appears_pinned, SUP, "moves with placement" },
    { __LINE__, "placement", fx_unpinned_only, NT, "no pinned" },
    /* cross-package or cross-L3 */
    { __LINE__, "cross_domain", fx_dip, NT, "one package and one L3" },
    { __LINE__, "cross_domain", fx_cross_confined_vanishes, SUP, "confined to package:0" },
    { __LINE__, "cross_domain", fx_cross_flat_matrix, REF, "1.0x" },
    /* SMT */
    { __LINE__, "smt", fx_dip, NT, "no SMT" },
    { __LINE__, "smt", fx_smt_compact_slower, SUP, "1.50x [" },
    { __LINE__, "smt", fx_smt_same, REF, "agree" },
    /* writers */
    { __LINE__, "writer", fx_dip, NT, "no writers" },
    { __LINE__, "writer", fx_writer_probes, SUP, "retries" },
    { __LINE__, "writer", fx_writer_probes_zero, REF, NULL },
    { __LINE__, "writer", fx_writer_nowriters_vanish, SUP, "without writers the step vanishes" },
    { __LINE__, "writer", fx_writer_nowriters_same, REF, "the same" },
    /* machine state */
    { __LINE__, "machine_state", fx_dip, NT, "--rtt off" },
    { __LINE__, "machine_state", fx_state_aligned, SUP, "slow state" },
    { __LINE__, "machine_state", fx_state_mixed, INC, "do not separate" },
    { __LINE__, "machine_state", fx_state_stable, REF, "stable" },
    /* harness */
    { __LINE__, "harness", fx_dip, NT, "not run" },
    { __LINE__, "harness", fx_harness_artefact, SUP, "the harness makes it" },
    { __LINE__, "harness", fx_harness_same, REF, "same step" },
    /* frequency */
    { __LINE__, "frequency", fx_dip, NT, "no hardware cycles counter" },
    { __LINE__, "frequency", fx_freq_drop, SUP, "3.60 to 3.00 GHz" },
    { __LINE__, "frequency", fx_freq_flat, REF, NULL },
    /* serialised site (whatif slopes at T over R, Fieller intervals) */
    { __LINE__, "serialised_site", fx_dip, NT, "no --whatif-site" },
    { __LINE__, "serialised_site", fx_wi_no_reference, NT, "no reference" },
    { __LINE__, "serialised_site", fx_wi_serialised, SUP,
      "rwlock write_hold: slope 1.02 [0.97, 1.07] at 1 -> 1.96 [1.86, 2.06] at 2 (each over its blocks); over the 5 paired: 1.03 -> 1.95: ratio 1.92x [1.71, 2.16] (threshold 1.5)" },
    { __LINE__, "serialised_site", fx_wi_knee_3_2, SUP, "ratio 1.40x [1.30, 1.48] (threshold 1.25)" },
    { __LINE__, "serialised_site", fx_wi_knee_4_3_below, REF, "(threshold 1.17)" },
    { __LINE__, "serialised_site", fx_wi_knee_4_1, INC, "(straddles 1.5)" },
    { __LINE__, "serialised_site", fx_wi_dip, REF, "at 4 -> 1.00 [0.90, 1.10] at 2" },
    { __LINE__, "serialised_site", fx_wi_negative_ref, INC, "not interpretable (the slope at 1 does not lie above 0)" },
    { __LINE__, "serialised_site", fx_wi_flat, REF, "ratio 1.10x [0.95, 1.30]" },
    { __LINE__, "serialised_site", fx_wi_straddles, INC, "straddles 1.5" },
    { __LINE__, "serialised_site", fx_wi_unbounded, INC, "unbounded" },
    { __LINE__, "serialised_site", fx_wi_reaches_zero, INC, "ratio 1.41, no multiple (its interval reaches 0: the slope at 2 is not known above 0)" },
    { __LINE__, "serialised_site", fx_wi_one_block, INC, "2 needed" },
    { __LINE__, "serialised_site", fx_wi_no_step, INC, "no step is established" },
    { __LINE__, "unexplained", fx_wi_serialised, REF, NULL },
    /* unexplained */
    { __LINE__, "unexplained", fx_dip, SUP, "no rule above" },
    { __LINE__, "unexplained", fx_dip_vanishes_pinned, REF, NULL },
    { __LINE__, "unexplained", fx_no_step, NT, "no step" },
    { __LINE__, "unexplained", fx_no_reference, NT, "no reference" },
};

static int has_word(const rcuprof_explain_verdict *v, const char *w)
{
    size_t i;

    if (strstr(v->reason, w) != NULL)
        return 1;
    for (i = 0; i < v->npro; i++)
        if (strstr(v->pro[i], w) != NULL)
            return 1;
    for (i = 0; i < v->ncon; i++)
        if (strstr(v->con[i], w) != NULL)
            return 1;
    return 0;
}

static void dump(const rcuprof_explain_verdict *v)
{
    size_t i;

    fprintf(stderr, "  %s: %s %s\n", v->id,
            rcuprof_explain_verdict_name(v->verdict), v->reason);
    for (i = 0; i < v->npro; i++)
        fprintf(stderr, "    for: %s\n", v->pro[i]);
    for (i = 0; i < v->ncon; i++)
        fprintf(stderr, "    against: %s\n", v->con[i]);
}

static void test_rules(void **state)
{
    rcuprof_explain_thresholds th;
    rcuprof_explain_verdict v[16];
    rcuprof_explain_case c;
    char summary[256];
    size_t i;
    int bad = 0;

    (void)state;
    assert_true(rcuprof_explain_nrules <= 16);
    rcuprof_explain_thresholds_default(&th);
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        int k = rcuprof_explain_rule_index(r->rule);

        assert_true(k >= 0);
        r->fx(&c);
        rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
        if (v[k].verdict != r->verdict
            || (r->word != NULL && !has_word(&v[k], r->word))) {
            fprintf(stderr, "line %d: %s is %s, wanted %s%s%s\n", r->line,
                    r->rule, rcuprof_explain_verdict_name(v[k].verdict),
                    rcuprof_explain_verdict_name(r->verdict),
                    r->word != NULL ? " with " : "",
                    r->word != NULL ? r->word : "");
            dump(&v[k]);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Every rule has a row for each verdict it can give here. */
static void test_every_rule_tested(void **state)
{
    size_t i, k;

    (void)state;
    for (k = 0; k < rcuprof_explain_nrules; k++) {
        int seen = 0;

        for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
            if (strcmp(rows[i].rule, rcuprof_explain_rules[k].id) == 0)
                seen |= 1 << rows[i].verdict;
        if (!(seen & (1 << SUP)) || !(seen & ((1 << REF) | (1 << NT))))
            fail_msg("rule %s lacks a supported or a negative row",
                     rcuprof_explain_rules[k].id);
    }
}

/* The summaries: from the measurements, not the thread count alone. */
static void test_summaries(void **state)
{
    static const struct {
        int line;
        void (*fx)(rcuprof_explain_case *c);
        const char *summary;
    } srows[] = {
        { __LINE__, fx_oversub, "oversubscription" },
        { __LINE__, fx_contention, "contention" },
        { __LINE__, fx_runq_at_or_below, "external" },
        { __LINE__, fx_dip, "unexplained" },
        { __LINE__, fx_no_step, "no step" },
        { __LINE__, fx_no_reference, "baseline" },
        { __LINE__, fx_dip_vanishes_pinned, "placement" },
    };
    rcuprof_explain_thresholds th;
    rcuprof_explain_verdict v[16];
    rcuprof_explain_case c;
    char summary[256];
    size_t i;

    (void)state;
    rcuprof_explain_thresholds_default(&th);
    for (i = 0; i < sizeof(srows) / sizeof(srows[0]); i++) {
        srows[i].fx(&c);
        rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
        if (strcmp(summary, srows[i].summary) != 0)
            fail_msg("line %d: summary '%s', wanted '%s'", srows[i].line,
                     summary, srows[i].summary);
    }
}

/* ---------------------------------------------------------------------- */
/* Issue 18 item 7: verdicts that reproduce                                */

/*
 * One cell's runs with this VM's spread (issue 18: CVs of 46-63% at 2
 * threads, so the SD of ln wall is 0.5; CPU time a little tighter, 0.3;
 * the line round trip in a fast (80 ns) or a slow (670 ns) state, changing
 * within a run a third of the time; probe retries exact per run but
 * varying), scaled by factor, through the real aggregation.
 */
static void synth_cell(rcuprof_explain_agg *a, size_t n, double factor,
                       uint64_t *st)
{
    rcuprof_explain_run runs[16];
    size_t i;

    for (i = 0; i < n; i++) {
        rcuprof_explain_run *r = &runs[i];

        rcuprof_record_init(r);
        r->ok = 1;
        r->wall_ns_per_op = 200 * factor * exp(0.5 * stats_test_norm(st));
        r->cpu_ns_per_op = 180 * factor * exp(0.3 * stats_test_norm(st));
        r->util = fmin(1.0, 0.95 + 0.05 * stats_test_unif(st));
        r->runq_share = 0.02 * stats_test_unif(st);
        r->runq_ns_per_kop = 1000 * r->runq_share;
        r->vcsw_per_kop = r->ivcsw_per_kop = 0.1 * stats_test_unif(st);
        r->migr_per_kop = 0.05 * stats_test_unif(st);
        r->steal_ms = r->steal_share = 0;
        r->loadavg1 = 1.0 + 0.3 * stats_test_unif(st);
        r->placed = -1;
        r->rtt_before = stats_test_unif(st) < 0.3 ? 670 : 80;
        r->rtt_after = stats_test_unif(st) < 0.33 ? 750 - r->rtt_before
                                        : r->rtt_before;
        r->have_probes = 1;
        r->probe_retries = 0.01 * exp(0.5 * stats_test_norm(st));
        r->probe_slow = 0;
        r->probe_wait = NAN;
    }
    rcuprof_explain_aggregate(runs, n, RCUPROF_EXPLAIN_LEVEL, a);
}

/* A case of T threads against R threads on this VM's 2 CPUs (one
 * package, no SMT, no PMU; placements none and compact; the other
 * harness), every cell synthetic, the slow count's costs scaled by step;
 * more threads than CPUs wait for one (run-queue share 1 - C/T). */
static void synth_case(rcuprof_explain_case *c, unsigned T, unsigned R,
                       double step, size_t n, uint64_t *st)
{
    size_t i, k;

    fixture(c, T, R, 2);
    for (i = 0; i < c->t.nplace; i++) {
        synth_cell(&c->t.agg[i], n, step, st);
        synth_cell(&c->r.agg[i], n, 1.0, st);
    }
    synth_cell(&c->t.alt, n, step, st);
    synth_cell(&c->r.alt, n, 1.0, st);
    for (k = 0; k < 2; k++) {
        rcuprof_explain_side *sd = k == 0 ? &c->t : &c->r;

        for (i = 0; i < sd->nplace && sd->threads > 2; i++) {
            sd->agg[i].util = 2.0 / sd->threads;
            sd->agg[i].runq_share = 1 - 2.0 / sd->threads;
        }
    }
    c->t.place[1].cpus[0] = 0;
    c->t.place[1].cpus[1] = 1;
    c->t.place[1].ncpus = 2;
    c->r.place[1] = c->t.place[1];
    pairs[0] = (rcuprof_explain_pair){ 0, 1, RCUPROF_EXPLAIN_REL_CORE,
                                       80, 400, 5 };
    c->npairs = 1;
}

/*
 * An A/A step (the same cell twice: 2 threads against 2, and 4 against 4
 * where the 2 CPUs are oversubscribed, every cell from one distribution)
 * over 400 seeded trials of 5 runs a cell:
 * "no step" in at least 95% of them, and no cause supported more often
 * than the nominal 5% (plus 3 binomial standard errors, 0.0327: 0.0827).
 * The old rules (medians against a threshold) found a step whenever the
 * medians' ratio passed 1.10, about a third of the time at this spread:
 * the printed figure.  And not vacuous: a true 4x step is found in at
 * least 85% of trials.
 */
static void test_aa_trials(void **state)
{
    enum { TRIALS = 400, RUNS = 5 };
    static const unsigned counts[2] = { 2, 4 };
    rcuprof_explain_thresholds th;
    rcuprof_explain_verdict v[16];
    rcuprof_explain_case c;
    size_t supported[16] = { 0 }, nostep = 0, median_step = 0, found = 0;
    size_t trial, i;
    uint64_t st = 1807;
    char summary[256];

    (void)state;
    rcuprof_explain_thresholds_default(&th);
    assert_true(rcuprof_explain_nrules <= 16);
    for (trial = 0; trial < TRIALS; trial++) {
        synth_case(&c, counts[trial % 2], counts[trial % 2], 1.0, RUNS, &st);
        rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
        nostep += strcmp(summary, "no step") == 0;
        median_step += rcuprof_explain_excess(&c, 0) >= 1 + th.excess;
        for (i = 0; i < rcuprof_explain_nrules; i++)
            supported[i] += v[i].verdict == SUP;
    }
    printf("A/A, %d trials of %d runs a cell: 'no step' %.3f; a step by "
           "the medians (the old rule) %.3f\n", TRIALS, RUNS,
           (double)nostep / TRIALS, (double)median_step / TRIALS);
    if (nostep < TRIALS * 95 / 100)
        fail_msg("A/A: 'no step' in only %zu of %d trials", nostep, TRIALS);
    for (i = 0; i < rcuprof_explain_nrules; i++) {
        printf("  %-16s supported %.4f\n", rcuprof_explain_rules[i].id,
               (double)supported[i] / TRIALS);
        if ((double)supported[i] / TRIALS > 0.0827)
            fail_msg("A/A: %s supported in %zu of %d trials",
                     rcuprof_explain_rules[i].id, supported[i], TRIALS);
    }
    for (trial = 0; trial < 100; trial++) {
        synth_case(&c, 2, 1, 4.0, RUNS, &st);
        rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
        found += strcmp(summary, "no step") != 0;
    }
    printf("a true 4x step found in %zu of 100 trials\n", found);
    assert_true(found >= 85);
}

/* The case JSON and markdown carry the verdicts and the evidence. */
static void test_render(void **state)
{
    rcuprof_explain_thresholds th;
    rcuprof_explain_verdict v[16];
    rcuprof_explain_case c;
    char summary[256], *md;
    json_t *cj, *rep;

    (void)state;
    rcuprof_explain_thresholds_default(&th);
    fx_oversub(&c);
    rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
    cj = rcuprof_explain_case_json(&c, v, summary);
    assert_non_null(cj);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(cj, "causes"), 0)), "oversubscription");
    assert_int_equal(json_array_size(json_object_get(cj, "rules")),
                     rcuprof_explain_nrules);
    rep = json_pack("{s:s, s:{s:s, s:s, s:i, s:s, s:i, s:i, s:i, s:i, s:b, s:s},"
                    " s:i, s:i, s:{s:i, s:i}, s:s, s:[o], s:{s:[], s:[], s:[],"
                    " s:i}, s:[s]}",
                    "variant", "stock",
                    "machine", "host", "vm", "kernel", "6", "cpus_allowed", 2,
                    "allowed", "0-1", "packages", 1, "l3_domains", 1,
                    "cores", 2, "pus", 2, "smt", 0, "counters", "none",
                    "reps", 2, "seed", 1, "runs", "total", 3, "failed", 0,
                    "options_text", "--duration-ms 50", "cases", cj,
                    "rtt", "pairs", "cpus", "matrix", "total_pairs", 0,
                    "notes", "a note | with a bar");
    assert_non_null(rep);
    md = rcuprof_explain_markdown(rep);
    assert_non_null(md);
    assert_non_null(strstr(md, "| oversubscription | **supported** |"));
    assert_non_null(strstr(md, "## 4 threads vs 2 (listed): oversubscription"));
    assert_non_null(strstr(md, "not testable here: no SMT"));
    free(md);
    json_decref(rep);
    /* Issue 28: the whatif table printed "1.41x [-15.45, 4.82]". */
    fx_wi_reaches_zero(&c);
    rcuprof_explain_classify(&c, &th, v, summary, sizeof(summary));
    cj = rcuprof_explain_case_json(&c, v, summary);
    rep = json_pack("{s:s, s:{s:s, s:s, s:i, s:s, s:i, s:i, s:i, s:i, s:b, s:s},"
                    " s:i, s:i, s:{s:i, s:i}, s:s, s:[o], s:{s:[], s:[], s:[],"
                    " s:i}, s:[]}",
                    "variant", "stock",
                    "machine", "host", "vm", "kernel", "6", "cpus_allowed", 2,
                    "allowed", "0-1", "packages", 1, "l3_domains", 1,
                    "cores", 2, "pus", 2, "smt", 0, "counters", "none",
                    "reps", 2, "seed", 1, "runs", "total", 3, "failed", 0,
                    "options_text", "--duration-ms 50", "cases", cj,
                    "rtt", "pairs", "cpus", "matrix", "total_pairs", 0,
                    "notes");
    assert_non_null(rep);
    md = rcuprof_explain_markdown(rep);
    assert_non_null(md);
    if (strstr(md, "| no multiple (interval reaches 0) |") == NULL
        || strstr(md, "x [-15.45") != NULL)
        fail_msg("whatif table:\n%s", md);
    free(md);
    json_decref(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_every_rule_tested),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_aa_trials),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
