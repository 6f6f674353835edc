/*
 * Placement planner: policies -> CPU sequences on known topologies.
 *
 * Topologies: hwloc synthetic descriptions (no files) and the development
 * machine's exported XML (data/this-machine.xml).  Every table row carries
 * its __LINE__ so a failure names the row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rcuprof_placement.h"

#ifndef RCUPROF_PLACEMENT_DATA
# error "RCUPROF_PLACEMENT_DATA must name tests/unit/placement/data"
#endif

/*
 * XEON: 2 packages x 10 cores x 2 PUs numbered as Linux numbers a
 * two-socket Intel box: core c (0-19) has CPUs c and c + 20.
 * XEON_SEQ: the same shape with hwloc's default sequential numbering.
 * L3x1 / L3x2: 1 package, 2 L3 domains x 4 cores, 1 or 2 PUs per core.
 * P2L3: 2 packages x 2 L3 domains x 2 cores x 2 PUs (two-level spreading).
 * NOCORE: no Core level at all.
 * THIS: data/this-machine.xml (1 package, 1 L3, 2 cores, CPUs 0-1).
 */
enum topo_id { XEON, XEON_SEQ, L3x1, L3x2, P2L3, NOCORE, THIS, NTOPO };

static const char *const synth[NTOPO] = {
    "package:2 core:10 pu:2(indexes=0,20,1,21,2,22,3,23,4,24,5,25,6,26,"
    "7,27,8,28,9,29,10,30,11,31,12,32,13,33,14,34,15,35,16,36,17,37,18,38,"
    "19,39)",
    "package:2 core:10 pu:2",
    "package:1 l3cache:2 core:4 pu:1",
    "package:1 l3cache:2 core:4 pu:2",
    "package:2 l3cache:2 core:2 pu:2",
    "package:2 pu:3",
    NULL
};

static hwloc_topology_t topos[NTOPO];

static int setup(void **state)
{
    char err[256];
    int i;

    for (i = 0; i < NTOPO; i++) {
        int rc = synth[i] != NULL
            ? rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_SYNTHETIC,
                                              synth[i], &topos[i], err,
                                              sizeof(err))
            : rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_XML,
                                              RCUPROF_PLACEMENT_DATA
                                              "/this-machine.xml",
                                              &topos[i], err, sizeof(err));

        if (rc != RCUPROF_PLACEMENT_OK) {
            fprintf(stderr, "topology %d: %s\n", i, err);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    int i;

    for (i = 0; i < NTOPO; i++)
        if (topos[i] != NULL)
            hwloc_topology_destroy(topos[i]);
    return 0;
}

/* "0,20,1" from a plan; "-" for an unpinned thread. */
static void cpus_string(const struct rcuprof_placement_plan *plan,
                        char *buf, size_t n)
{
    size_t len = 0;
    unsigned i;

    buf[0] = '\0';
    for (i = 0; i < plan->nthreads && len < n; i++) {
        if (plan->threads[i].cpu < 0)
            len += (size_t)snprintf(buf + len, n - len, "%s-", i ? "," : "");
        else
            len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "",
                                    plan->threads[i].cpu);
    }
}

/* Build a plan; allowed is an hwloc list string ("0-9,20-29") or NULL. */
static int make_plan(int line, enum topo_id t, const char *allowed,
                     const char *policy, unsigned threads,
                     struct rcuprof_placement_plan **plan,
                     char *err, size_t errlen)
{
    hwloc_bitmap_t set = NULL;
    int rc;

    if (allowed != NULL) {
        set = hwloc_bitmap_alloc();
        assert_non_null(set);
        if (hwloc_bitmap_list_sscanf(set, allowed) != 0)
            fail_msg("row %d: bad allowed list %s", line, allowed);
    }
    err[0] = '\0';
    rc = rcuprof_placement_plan_from_string(topos[t], set, policy, threads,
                                            plan, err, errlen);
    hwloc_bitmap_free(set);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Exact CPU sequences                                                    */

struct seq_row {
    int line;
    enum topo_id topo;
    const char *allowed;
    const char *policy;
    unsigned threads;
    const char *cpus;           /* expected, one per thread */
    unsigned slots, rounds;
    int oversubscribed;
};

#define XEON_COMPACT \
    "0,20,1,21,2,22,3,23,4,24,5,25,6,26,7,27,8,28,9,29," \
    "10,30,11,31,12,32,13,33,14,34,15,35,16,36,17,37,18,38,19,39"
#define XEON_SCATTER \
    "0,10,1,11,2,12,3,13,4,14,5,15,6,16,7,17,8,18,9,19," \
    "20,30,21,31,22,32,23,33,24,34,25,35,26,36,27,37,28,38,29,39"
#define SEQ40 \
    "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19," \
    "20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39"

static const struct seq_row seq_rows[] = {
    /* 2 packages x 10 cores x 2 PUs, Linux numbering */
    { __LINE__, XEON, NULL, "compact", 40, XEON_COMPACT, 40, 1, 0 },
    { __LINE__, XEON, NULL, "compact", 1, "0", 40, 1, 0 },
    { __LINE__, XEON, NULL, "compact", 4, "0,20,1,21", 40, 1, 0 },
    { __LINE__, XEON, NULL, "scatter", 40, XEON_SCATTER, 40, 1, 0 },
    { __LINE__, XEON, NULL, "scatter", 4, "0,10,1,11", 40, 1, 0 },
    { __LINE__, XEON, NULL, "core", 20,
      "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19", 20, 1, 0 },
    { __LINE__, XEON, NULL, "package:0", 6, "0,20,1,21,2,22", 20, 1, 0 },
    { __LINE__, XEON, NULL, "package:1", 20,
      "10,30,11,31,12,32,13,33,14,34,15,35,16,36,17,37,18,38,19,39",
      20, 1, 0 },
    { __LINE__, XEON, NULL, "cpus:5,25,0-2,39", 6, "5,25,0,1,2,39",
      6, 1, 0 },
    { __LINE__, XEON, NULL, "none", 40,
      "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
      "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-", 0, 1, 0 },
    /* wrap-around: more threads than the policy has CPUs */
    { __LINE__, XEON, NULL, "compact", 45, XEON_COMPACT ",0,20,1,21,2",
      40, 2, 1 },
    { __LINE__, XEON, NULL, "scatter", 42, XEON_SCATTER ",0,10", 40, 2, 1 },
    { __LINE__, XEON, NULL, "core", 22,
      "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,0,1", 20, 2, 1 },
    { __LINE__, XEON, NULL, "package:1", 3, "10,30,11", 20, 1, 0 },
    { __LINE__, XEON, NULL, "cpus:3", 3, "3,3,3", 1, 3, 1 },
    { __LINE__, XEON, NULL, "cpus:1,1", 2, "1,1", 2, 1, 1 },
    { __LINE__, XEON, NULL, "none", 41,
      "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
      "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-", 0, 1, 1 },
    /* a restricted allowed set (sched_getaffinity of a taskset'ed run) */
    { __LINE__, XEON, "0-9,20-29", "scatter", 20,
      "0,1,2,3,4,5,6,7,8,9,20,21,22,23,24,25,26,27,28,29", 20, 1, 0 },
    { __LINE__, XEON, "0-9,20-29", "compact", 4, "0,20,1,21", 20, 1, 0 },
    { __LINE__, XEON, "0-9,20-29", "core", 11,
      "0,1,2,3,4,5,6,7,8,9,0", 10, 2, 1 },
    { __LINE__, XEON, "1,20", "core", 2, "20,1", 2, 1, 0 },
    { __LINE__, XEON, "1,20", "scatter", 2, "20,1", 2, 1, 0 },
    { __LINE__, XEON, "0-39,100", "compact", 40, XEON_COMPACT, 40, 1, 0 },
    { __LINE__, XEON, "5", "none", 2, "-,-", 0, 1, 1 },
    { __LINE__, XEON, "5", "none", 1, "-", 0, 1, 0 },

    /* the same shape, sequential numbering */
    { __LINE__, XEON_SEQ, NULL, "compact", 40, SEQ40, 40, 1, 0 },
    { __LINE__, XEON_SEQ, NULL, "scatter", 40,
      "0,20,2,22,4,24,6,26,8,28,10,30,12,32,14,34,16,36,18,38,"
      "1,21,3,23,5,25,7,27,9,29,11,31,13,33,15,35,17,37,19,39", 40, 1, 0 },
    { __LINE__, XEON_SEQ, NULL, "core", 20,
      "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38", 20, 1, 0 },
    { __LINE__, XEON_SEQ, NULL, "package:1", 4, "20,21,22,23", 20, 1, 0 },

    /* 1 package x 8 cores in 2 L3 domains, 1 PU per core */
    { __LINE__, L3x1, NULL, "compact", 8, "0,1,2,3,4,5,6,7", 8, 1, 0 },
    { __LINE__, L3x1, NULL, "scatter", 8, "0,4,1,5,2,6,3,7", 8, 1, 0 },
    { __LINE__, L3x1, NULL, "core", 8, "0,1,2,3,4,5,6,7", 8, 1, 0 },
    { __LINE__, L3x1, NULL, "l3:0", 4, "0,1,2,3", 4, 1, 0 },
    { __LINE__, L3x1, NULL, "l3:1", 5, "4,5,6,7,4", 4, 2, 1 },
    { __LINE__, L3x1, NULL, "package:0", 9, "0,1,2,3,4,5,6,7,0", 8, 2, 1 },
    { __LINE__, L3x1, NULL, "scatter", 10, "0,4,1,5,2,6,3,7,0,4", 8, 2, 1 },

    /* ... 2 PUs per core */
    { __LINE__, L3x2, NULL, "compact", 16,
      "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", 16, 1, 0 },
    { __LINE__, L3x2, NULL, "scatter", 16,
      "0,8,2,10,4,12,6,14,1,9,3,11,5,13,7,15", 16, 1, 0 },
    { __LINE__, L3x2, NULL, "core", 8, "0,2,4,6,8,10,12,14", 8, 1, 0 },
    { __LINE__, L3x2, NULL, "l3:1", 8, "8,9,10,11,12,13,14,15", 8, 1, 0 },
    { __LINE__, L3x2, "0-3,8-9", "scatter", 6, "0,8,2,1,9,3", 6, 1, 0 },
    { __LINE__, L3x2, "0-3,8-9", "l3:1", 3, "8,9,8", 2, 2, 1 },

    /* 2 packages x 2 L3 x 2 cores x 2 PUs: packages alternate, then L3s */
    { __LINE__, P2L3, NULL, "scatter", 16,
      "0,8,4,12,2,10,6,14,1,9,5,13,3,11,7,15", 16, 1, 0 },
    { __LINE__, P2L3, NULL, "core", 8, "0,2,4,6,8,10,12,14", 8, 1, 0 },
    { __LINE__, P2L3, NULL, "l3:2", 4, "8,9,10,11", 4, 1, 0 },

    /* no Core level: every PU counts as its own core */
    { __LINE__, NOCORE, NULL, "core", 6, "0,1,2,3,4,5", 6, 1, 0 },
    { __LINE__, NOCORE, NULL, "scatter", 6, "0,3,1,4,2,5", 6, 1, 0 },

    /* this machine's exported XML: 2 cores, 1 PU each */
    { __LINE__, THIS, NULL, "compact", 2, "0,1", 2, 1, 0 },
    { __LINE__, THIS, NULL, "scatter", 2, "0,1", 2, 1, 0 },
    { __LINE__, THIS, NULL, "core", 2, "0,1", 2, 1, 0 },
    { __LINE__, THIS, NULL, "package:0", 2, "0,1", 2, 1, 0 },
    { __LINE__, THIS, NULL, "l3:0", 2, "0,1", 2, 1, 0 },
    { __LINE__, THIS, NULL, "cpus:1,0", 2, "1,0", 2, 1, 0 },
    { __LINE__, THIS, NULL, "compact", 5, "0,1,0,1,0", 2, 3, 1 },
    { __LINE__, THIS, NULL, "scatter", 3, "0,1,0", 2, 2, 1 },
    { __LINE__, THIS, NULL, "cpus:1", 4, "1,1,1,1", 1, 4, 1 },
    { __LINE__, THIS, NULL, "none", 3, "-,-,-", 0, 1, 1 },
    { __LINE__, THIS, NULL, "none", 2, "-,-", 0, 1, 0 },
    { __LINE__, THIS, "1", "compact", 2, "1,1", 1, 2, 1 },
};

static void test_sequences(void **state)
{
    size_t i;

    for (i = 0; i < sizeof(seq_rows) / sizeof(seq_rows[0]); i++) {
        const struct seq_row *r = &seq_rows[i];
        struct rcuprof_placement_plan *plan = NULL;
        char err[256], got[1024];
        int rc;

        rc = make_plan(r->line, r->topo, r->allowed, r->policy, r->threads,
                       &plan, err, sizeof(err));
        if (rc != RCUPROF_PLACEMENT_OK)
            fail_msg("row %d: %s: unexpected error %d: %s", r->line,
                     r->policy, rc, err);
        cpus_string(plan, got, sizeof(got));
        if (strcmp(got, r->cpus) != 0)
            fail_msg("row %d: %s x %u:\n  want %s\n  got  %s", r->line,
                     r->policy, r->threads, r->cpus, got);
        if (plan->nthreads != r->threads || plan->slots != r->slots
            || plan->rounds != r->rounds
            || plan->oversubscribed != r->oversubscribed)
            fail_msg("row %d: %s x %u: threads %u slots %u rounds %u "
                     "oversubscribed %d, want %u %u %u %d", r->line,
                     r->policy, r->threads, plan->nthreads, plan->slots,
                     plan->rounds, plan->oversubscribed, r->threads,
                     r->slots, r->rounds, r->oversubscribed);
        rcuprof_placement_plan_free(plan);
    }
}

/* ---------------------------------------------------------------------- */
/* Per-thread descriptors                                                 */

struct desc_row {
    int line;
    enum topo_id topo;
    const char *policy;
    unsigned threads, thread;
    struct rcuprof_placement_thread want;
    /* cpu, pu, package, l3, core, smt, round */
};

static const struct desc_row desc_rows[] = {
    { __LINE__, XEON, "compact", 40, 0, { 0, 0, 0, -1, 0, 0, 0 } },
    { __LINE__, XEON, "compact", 40, 1, { 20, 1, 0, -1, 0, 1, 0 } },
    { __LINE__, XEON, "compact", 40, 39, { 39, 39, 1, -1, 19, 1, 0 } },
    { __LINE__, XEON, "scatter", 40, 1, { 10, 20, 1, -1, 10, 0, 0 } },
    { __LINE__, XEON, "scatter", 40, 21, { 30, 21, 1, -1, 10, 1, 0 } },
    { __LINE__, XEON, "compact", 45, 42, { 1, 2, 0, -1, 1, 0, 1 } },
    { __LINE__, XEON, "core", 41, 40, { 0, 0, 0, -1, 0, 0, 2 } },
    { __LINE__, XEON, "none", 3, 2, { -1, -1, -1, -1, -1, -1, -1 } },
    { __LINE__, L3x2, "l3:1", 3, 2, { 10, 10, 0, 1, 5, 0, 0 } },
    { __LINE__, L3x2, "scatter", 16, 9, { 9, 9, 0, 1, 4, 1, 0 } },
    { __LINE__, P2L3, "scatter", 16, 3, { 12, 12, 1, 3, 6, 0, 0 } },
    { __LINE__, NOCORE, "compact", 6, 4, { 4, 4, 1, -1, -1, -1, 0 } },
    { __LINE__, THIS, "compact", 3, 1, { 1, 1, 0, 0, 1, 0, 0 } },
    { __LINE__, THIS, "compact", 3, 2, { 0, 0, 0, 0, 0, 0, 1 } },
};

static void test_descriptors(void **state)
{
    size_t i;

    for (i = 0; i < sizeof(desc_rows) / sizeof(desc_rows[0]); i++) {
        const struct desc_row *r = &desc_rows[i];
        const struct rcuprof_placement_thread *w = &r->want, *g;
        struct rcuprof_placement_plan *plan = NULL;
        char err[256];

        if (make_plan(r->line, r->topo, NULL, r->policy, r->threads, &plan,
                      err, sizeof(err)) != RCUPROF_PLACEMENT_OK)
            fail_msg("row %d: %s", r->line, err);
        g = &plan->threads[r->thread];
        if (g->cpu != w->cpu || g->pu != w->pu || g->package != w->package
            || g->l3 != w->l3 || g->core != w->core || g->smt != w->smt
            || g->round != w->round)
            fail_msg("row %d: thread %u: got cpu %d pu %d package %d l3 %d "
                     "core %d smt %d round %d, want %d %d %d %d %d %d %d",
                     r->line, r->thread, g->cpu, g->pu, g->package, g->l3,
                     g->core, g->smt, g->round, w->cpu, w->pu, w->package,
                     w->l3, w->core, w->smt, w->round);
        rcuprof_placement_plan_free(plan);
    }
}

/* ---------------------------------------------------------------------- */
/* Topology summaries                                                     */

static void test_summaries(void **state)
{
    static const struct {
        int line;
        enum topo_id topo;
        const char *allowed;
        int packages, l3, cores, pus, allowed_pus, this_system;
        const char *allowed_list;
    } rows[] = {
        { __LINE__, XEON, NULL, 2, 0, 20, 40, 40, 0, "0-39" },
        { __LINE__, XEON, "0-9,20-29,64", 2, 0, 20, 40, 20, 0,
          "0-9,20-29" },
        { __LINE__, L3x1, NULL, 1, 2, 8, 8, 8, 0, "0-7" },
        { __LINE__, L3x2, NULL, 1, 2, 8, 16, 16, 0, "0-15" },
        { __LINE__, P2L3, NULL, 2, 4, 8, 16, 16, 0, "0-15" },
        { __LINE__, NOCORE, NULL, 2, 0, 0, 6, 6, 0, "0-5" },
        { __LINE__, THIS, NULL, 1, 1, 2, 2, 2, 0, "0-1" },
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct rcuprof_placement_plan *plan = NULL;
        const struct rcuprof_placement_topo_summary *s;
        char err[256];

        if (make_plan(rows[i].line, rows[i].topo, rows[i].allowed, "compact",
                      1, &plan, err, sizeof(err)) != RCUPROF_PLACEMENT_OK)
            fail_msg("row %d: %s", rows[i].line, err);
        s = &plan->topo;
        if (s->packages != rows[i].packages || s->l3_domains != rows[i].l3
            || s->cores != rows[i].cores || s->pus != rows[i].pus
            || s->allowed_pus != rows[i].allowed_pus
            || s->this_system != rows[i].this_system
            || strcmp(s->allowed, rows[i].allowed_list) != 0)
            fail_msg("row %d: got %d packages %d l3 %d cores %d pus "
                     "%d allowed (%s) this_system %d", rows[i].line,
                     s->packages, s->l3_domains, s->cores, s->pus,
                     s->allowed_pus, s->allowed, s->this_system);
        rcuprof_placement_plan_free(plan);
    }
}

/* ---------------------------------------------------------------------- */
/* Policy strings                                                         */

struct parse_row {
    int line;
    const char *text;
    int rc;
    const char *cpus;           /* cpus: list expanded, on success */
    const char *canonical;      /* plan's policy string, on success */
    const char *msg;            /* exact message, on failure */
};

static const struct parse_row parse_rows[] = {
    { __LINE__, "none", 0, "", "none", NULL },
    { __LINE__, "compact", 0, "", "compact", NULL },
    { __LINE__, "scatter", 0, "", "scatter", NULL },
    { __LINE__, "core", 0, "", "core", NULL },
    { __LINE__, "package:1", 0, "", "package:1", NULL },
    { __LINE__, "package:007", 0, "", "package:7", NULL },
    { __LINE__, "l3:0", 0, "", "l3:0", NULL },
    { __LINE__, "cpus:0,2,4-7", 0, "0,2,4,5,6,7", "cpus:0,2,4-7", NULL },
    { __LINE__, "cpus:3,1,0-2", 0, "3,1,0,1,2", "cpus:3,1,0-2", NULL },
    { __LINE__, "cpus:0,1,2,3", 0, "0,1,2,3", "cpus:0-3", NULL },
    { __LINE__, "cpus:7-7", 0, "7", "cpus:7", NULL },
    { __LINE__, "cpus:65535", 0, "65535", "cpus:65535", NULL },
    { __LINE__, "", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "empty placement policy (expected none, compact, scatter, core, "
      "package:N, l3:N or cpus:LIST)" },
    { __LINE__, "bogus", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "unknown placement policy 'bogus' (expected none, compact, scatter, "
      "core, package:N, l3:N or cpus:LIST)" },
    { __LINE__, "Compact", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "unknown placement policy 'Compact' (expected none, compact, "
      "scatter, core, package:N, l3:N or cpus:LIST)" },
    { __LINE__, "compact ", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "unknown placement policy 'compact ' (expected none, compact, "
      "scatter, core, package:N, l3:N or cpus:LIST)" },
    { __LINE__, "package", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'package' needs an index, e.g. package:0" },
    { __LINE__, "package:", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'package:': package needs an index, e.g. package:0" },
    { __LINE__, "package:-1", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'package:-1': package index must be a non-negative "
      "number" },
    { __LINE__, "package:1x", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'package:1x': package index must be a non-negative "
      "number" },
    { __LINE__, "package:99999999999999999999999",
      RCUPROF_PLACEMENT_ERR_RANGE, NULL, NULL,
      "placement 'package:99999999999999999999999': package index is too "
      "large" },
    { __LINE__, "l3", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'l3' needs an index, e.g. l3:0" },
    { __LINE__, "l3:one", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'l3:one': l3 index must be a non-negative number" },
    { __LINE__, "cpus", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus' needs a list, e.g. cpus:0,2,4-7" },
    { __LINE__, "cpus:", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:': empty CPU list (e.g. cpus:0,2,4-7)" },
    { __LINE__, "cpus:1,,2", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:1,,2': expected a CPU number at ',2'" },
    { __LINE__, "cpus:,1", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:,1': expected a CPU number at ',1'" },
    { __LINE__, "cpus:1,", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:1,': CPU list ends with a comma" },
    { __LINE__, "cpus:5-2", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:5-2': range 5-2 is reversed" },
    { __LINE__, "cpus:3-", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:3-': range 3- has no end" },
    { __LINE__, "cpus:0;1", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:0;1': unexpected ';' in CPU list (use numbers, "
      "ranges a-b and commas)" },
    { __LINE__, "cpus: 1", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus: 1': expected a CPU number at ' 1'" },
    { __LINE__, "cpus:-1", RCUPROF_PLACEMENT_ERR_SYNTAX, NULL, NULL,
      "placement 'cpus:-1': expected a CPU number at '-1'" },
    { __LINE__, "cpus:65536", RCUPROF_PLACEMENT_ERR_RANGE, NULL, NULL,
      "placement 'cpus:65536': CPU 65536 is above the limit 65535" },
    { __LINE__, "cpus:0-99999", RCUPROF_PLACEMENT_ERR_RANGE, NULL, NULL,
      "placement 'cpus:0-99999': CPU 99999 is above the limit 65535" },
};

static void list_string(const struct rcuprof_placement_policy *p,
                        char *buf, size_t n)
{
    size_t len = 0, i;

    buf[0] = '\0';
    for (i = 0; i < p->ncpus && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : "",
                                p->cpus[i]);
}

static void test_parse(void **state)
{
    size_t i;

    for (i = 0; i < sizeof(parse_rows) / sizeof(parse_rows[0]); i++) {
        const struct parse_row *r = &parse_rows[i];
        struct rcuprof_placement_policy pol;
        struct rcuprof_placement_plan *plan = NULL;
        char err[256] = "", got[256];
        int rc;

        rc = rcuprof_placement_policy_parse(r->text, &pol, err, sizeof(err));
        if (rc != r->rc)
            fail_msg("row %d: '%s': rc %d (%s), want %d", r->line, r->text,
                     rc, err, r->rc);
        if (rc != RCUPROF_PLACEMENT_OK) {
            if (strcmp(err, r->msg) != 0)
                fail_msg("row %d:\n  want %s\n  got  %s", r->line, r->msg,
                         err);
            /* Nothing to clear, and clearing is harmless. */
            assert_null(pol.cpus);
            rcuprof_placement_policy_clear(&pol);
            continue;
        }
        list_string(&pol, got, sizeof(got));
        if (strcmp(got, r->cpus) != 0)
            fail_msg("row %d: list %s, want %s", r->line, got, r->cpus);
        /*
         * The canonical string, through a plan on a topology with every
         * index above (2 packages, 4 L3 domains, CPUs 0-15) except
         * package:7 and CPU 65535.
         */
        if (strcmp(r->canonical, "cpus:65535") != 0
            && strcmp(r->canonical, "package:7") != 0) {
            rc = rcuprof_placement_plan_build(topos[P2L3], NULL, &pol, 1,
                                              &plan, err, sizeof(err));
            if (rc != RCUPROF_PLACEMENT_OK)
                fail_msg("row %d: %s", r->line, err);
            if (strcmp(plan->policy, r->canonical) != 0)
                fail_msg("row %d: canonical %s, want %s", r->line,
                         plan->policy, r->canonical);
            rcuprof_placement_plan_free(plan);
        }
        rcuprof_placement_policy_clear(&pol);
    }
}

/* ---------------------------------------------------------------------- */
/* Errors that depend on the topology or the allowed set                  */

struct err_row {
    int line;
    enum topo_id topo;
    const char *allowed;
    const char *policy;
    unsigned threads;
    int rc;
    const char *msg;
};

static const struct err_row err_rows[] = {
    { __LINE__, XEON, NULL, "package:2", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'package:2': no package 2 (this topology has 2, numbered "
      "0 to 1)" },
    { __LINE__, XEON, NULL, "l3:0", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'l3:0': this topology has no L3 domain level" },
    { __LINE__, L3x2, NULL, "l3:2", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'l3:2': no L3 domain 2 (this topology has 2, numbered "
      "0 to 1)" },
    { __LINE__, THIS, NULL, "l3:1", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'l3:1': no L3 domain 1 (this topology has 1, numbered "
      "0 to 0)" },
    { __LINE__, THIS, NULL, "package:1", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'package:1': no package 1 (this topology has 1, numbered "
      "0 to 0)" },
    { __LINE__, XEON, NULL, "cpus:0,40", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'cpus:0,40': CPU 40 is not in this topology (CPUs 0-39)" },
    { __LINE__, THIS, NULL, "cpus:0-3", 1, RCUPROF_PLACEMENT_ERR_RANGE,
      "placement 'cpus:0-3': CPU 2 is not in this topology (CPUs 0-1)" },
    { __LINE__, XEON, "0-9,20-29", "cpus:0,10", 1,
      RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'cpus:0,10': CPU 10 is not in the allowed set "
      "(0-9,20-29)" },
    { __LINE__, THIS, "0", "cpus:1", 1, RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'cpus:1': CPU 1 is not in the allowed set (0)" },
    { __LINE__, XEON, "0-9,20-29", "package:1", 1,
      RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'package:1': none of its CPUs (10-19,30-39) is in the "
      "allowed set (0-9,20-29)" },
    { __LINE__, L3x2, "0-7", "l3:1", 1, RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'l3:1': none of its CPUs (8-15) is in the allowed set "
      "(0-7)" },
    { __LINE__, THIS, "5-6", "compact", 1, RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'compact': no CPU of this topology (0-1) is in the "
      "allowed set" },
    { __LINE__, THIS, "5-6", "none", 1, RCUPROF_PLACEMENT_ERR_NOTALLOWED,
      "placement 'none': no CPU of this topology (0-1) is in the "
      "allowed set" },
    { __LINE__, THIS, NULL, "compact", 0, RCUPROF_PLACEMENT_ERR_ARG,
      "placement: the thread count must be at least 1" },
    { __LINE__, THIS, NULL, "nonsense", 2, RCUPROF_PLACEMENT_ERR_SYNTAX,
      "unknown placement policy 'nonsense' (expected none, compact, "
      "scatter, core, package:N, l3:N or cpus:LIST)" },
};

static void test_errors(void **state)
{
    size_t i;

    for (i = 0; i < sizeof(err_rows) / sizeof(err_rows[0]); i++) {
        const struct err_row *r = &err_rows[i];
        struct rcuprof_placement_plan *plan = NULL;
        char err[256];
        int rc;

        rc = make_plan(r->line, r->topo, r->allowed, r->policy, r->threads,
                       &plan, err, sizeof(err));
        if (rc != r->rc)
            fail_msg("row %d: rc %d (%s), want %d", r->line, rc, err, r->rc);
        assert_null(plan);
        if (strcmp(err, r->msg) != 0)
            fail_msg("row %d:\n  want %s\n  got  %s", r->line, r->msg, err);
    }
}

/* A tiny error buffer truncates; a NULL one is allowed. */
static void test_error_buffers(void **state)
{
    struct rcuprof_placement_policy pol;
    char small[8];

    assert_int_equal(rcuprof_placement_policy_parse("bogus", &pol, small,
                                                    sizeof(small)),
                     RCUPROF_PLACEMENT_ERR_SYNTAX);
    assert_string_equal(small, "unknown");
    assert_int_equal(rcuprof_placement_policy_parse("bogus", &pol, NULL, 0),
                     RCUPROF_PLACEMENT_ERR_SYNTAX);
}

static void test_load_errors(void **state)
{
    hwloc_topology_t t = NULL;
    char err[256];

    assert_int_equal(rcuprof_placement_topology_load(
                         RCUPROF_PLACEMENT_SRC_SYNTHETIC, "package:x",
                         &t, err, sizeof(err)),
                     RCUPROF_PLACEMENT_ERR_ARG);
    assert_null(t);
    assert_string_equal(err, "topology: invalid synthetic description "
                        "'package:x'");
    assert_int_equal(rcuprof_placement_topology_load(
                         RCUPROF_PLACEMENT_SRC_XML,
                         RCUPROF_PLACEMENT_DATA "/no-such.xml", &t, err,
                         sizeof(err)),
                     RCUPROF_PLACEMENT_ERR_ARG);
    assert_null(t);
    assert_non_null(strstr(err, "no-such.xml"));
    assert_int_equal(rcuprof_placement_topology_load(
                         RCUPROF_PLACEMENT_SRC_XML, "", &t, err,
                         sizeof(err)),
                     RCUPROF_PLACEMENT_ERR_ARG);
    assert_string_equal(err, "topology: XML source needs a file name");
}

/* ---------------------------------------------------------------------- */
/* JSON                                                                   */

static void check_json(int line, enum topo_id t, const char *policy,
                       unsigned threads, const char *want_text)
{
    struct rcuprof_placement_plan *plan = NULL;
    json_t *got, *want;
    json_error_t jerr;
    char err[256], *dump;

    if (make_plan(line, t, NULL, policy, threads, &plan, err, sizeof(err))
        != RCUPROF_PLACEMENT_OK)
        fail_msg("row %d: %s", line, err);
    got = rcuprof_placement_plan_to_json(plan);
    assert_non_null(got);
    want = json_loads(want_text, 0, &jerr);
    if (want == NULL)
        fail_msg("row %d: expected JSON does not parse: %s", line,
                 jerr.text);
    if (!json_equal(got, want)) {
        dump = json_dumps(got, JSON_COMPACT);
        fail_msg("row %d: JSON differs; got\n%s", line, dump);
    }
    json_decref(got);
    json_decref(want);
    rcuprof_placement_plan_free(plan);
}

static void test_json(void **state)
{
    check_json(__LINE__, THIS, "scatter", 3,
               "{\"policy\": \"scatter\", \"kind\": \"scatter\","
               " \"threads\": 3, \"slots\": 2, \"rounds\": 2,"
               " \"max_threads_per_cpu\": 2, \"oversubscribed\": true,"
               " \"topology\": {\"packages\": 1, \"l3_domains\": 1,"
               "   \"cores\": 2, \"pus\": 2, \"allowed_pus\": 2,"
               "   \"allowed\": \"0-1\", \"this_system\": false},"
               " \"cpus\": [0, 1, 0],"
               " \"placement\": ["
               "  {\"thread\": 0, \"cpu\": 0, \"pu\": 0, \"package\": 0,"
               "   \"l3\": 0, \"core\": 0, \"smt\": 0, \"round\": 0},"
               "  {\"thread\": 1, \"cpu\": 1, \"pu\": 1, \"package\": 0,"
               "   \"l3\": 0, \"core\": 1, \"smt\": 0, \"round\": 0},"
               "  {\"thread\": 2, \"cpu\": 0, \"pu\": 0, \"package\": 0,"
               "   \"l3\": 0, \"core\": 0, \"smt\": 0, \"round\": 1}]}");
    check_json(__LINE__, XEON, "cpus:20,1-2", 2,
               "{\"policy\": \"cpus:20,1,2\", \"kind\": \"cpus\","
               " \"threads\": 2, \"slots\": 3, \"rounds\": 1,"
               " \"max_threads_per_cpu\": 1, \"oversubscribed\": false,"
               " \"topology\": {\"packages\": 2, \"l3_domains\": 0,"
               "   \"cores\": 20, \"pus\": 40, \"allowed_pus\": 40,"
               "   \"allowed\": \"0-39\", \"this_system\": false},"
               " \"cpus\": [20, 1],"
               " \"placement\": ["
               "  {\"thread\": 0, \"cpu\": 20, \"pu\": 1, \"package\": 0,"
               "   \"l3\": null, \"core\": 0, \"smt\": 1, \"round\": 0},"
               "  {\"thread\": 1, \"cpu\": 1, \"pu\": 2, \"package\": 0,"
               "   \"l3\": null, \"core\": 1, \"smt\": 0, \"round\": 0}]}");
    check_json(__LINE__, THIS, "none", 1,
               "{\"policy\": \"none\", \"kind\": \"none\","
               " \"threads\": 1, \"slots\": 0, \"rounds\": 1,"
               " \"max_threads_per_cpu\": 0, \"oversubscribed\": false,"
               " \"topology\": {\"packages\": 1, \"l3_domains\": 1,"
               "   \"cores\": 2, \"pus\": 2, \"allowed_pus\": 2,"
               "   \"allowed\": \"0-1\", \"this_system\": false},"
               " \"cpus\": [null],"
               " \"placement\": ["
               "  {\"thread\": 0, \"cpu\": null, \"pu\": null,"
               "   \"package\": null, \"l3\": null, \"core\": null,"
               "   \"smt\": null, \"round\": null}]}");
}

/* 1024 threads (the driver's cap) on the 40-CPU topology. */
static void test_many_threads(void **state)
{
    struct rcuprof_placement_plan *plan = NULL;
    char err[256];
    json_t *j;
    unsigned i;

    assert_int_equal(make_plan(__LINE__, XEON, NULL, "scatter", 1024, &plan,
                               err, sizeof(err)), RCUPROF_PLACEMENT_OK);
    assert_int_equal(plan->rounds, 26);
    assert_int_equal(plan->max_per_cpu, 26);
    for (i = 0; i < 1024; i++)
        assert_int_equal(plan->threads[i].cpu, plan->threads[i % 40].cpu);
    j = rcuprof_placement_plan_to_json(plan);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "placement")), 1024);
    json_decref(j);
    rcuprof_placement_plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_descriptors),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_buffers),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_many_threads),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
