/*
 * Placement planner: pinning on the machine the test runs on.
 *
 * For every allowed CPU, a fresh thread pins itself and must then run on
 * that CPU (sched_getcpu), while the main thread keeps its affinity.  Plans
 * from this machine's topology are pinned thread by thread the way the
 * driver does it.  Exits 77 (skipped) when this system cannot report or
 * change affinity at all.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rcuprof_placement.h"

static hwloc_topology_t topo;
static hwloc_bitmap_t allowed;

struct pin_job {
    const struct rcuprof_placement_plan *plan; /* NULL: use cpu */
    unsigned idx;
    int cpu;
    int rc;
    int ran_on;                 /* sched_getcpu() after pinning */
    hwloc_bitmap_t after;       /* the thread's affinity after pinning */
    char err[256];
};

static int thread_affinity(hwloc_bitmap_t out)
{
    cpu_set_t set;
    int i;

    CPU_ZERO(&set);
    if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0)
        return -1;
    hwloc_bitmap_zero(out);
    for (i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set))
            hwloc_bitmap_set(out, (unsigned)i);
    return 0;
}

static void *pin_main(void *arg)
{
    struct pin_job *j = arg;

    j->err[0] = '\0';
    if (j->plan != NULL)
        j->rc = rcuprof_placement_pin_thread(j->plan, j->idx, j->err,
                                             sizeof(j->err));
    else
        j->rc = rcuprof_placement_pin_self(j->cpu, j->err, sizeof(j->err));
    j->ran_on = sched_getcpu();
    thread_affinity(j->after);
    return NULL;
}

static void run_job(struct pin_job *j)
{
    pthread_t t;

    j->after = hwloc_bitmap_alloc();
    assert_non_null(j->after);
    assert_int_equal(pthread_create(&t, NULL, pin_main, j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
}

/* The main thread's affinity is still the whole allowed set. */
static void assert_main_unchanged(void)
{
    hwloc_bitmap_t now = hwloc_bitmap_alloc();

    assert_non_null(now);
    assert_int_equal(thread_affinity(now), 0);
    assert_true(hwloc_bitmap_isequal(now, allowed));
    hwloc_bitmap_free(now);
}

static void test_pin_each_cpu(void **state)
{
    int cpu;

    hwloc_bitmap_foreach_begin(cpu, allowed) {
        struct pin_job j = { NULL, 0, cpu, -1, -1, NULL, "" };

        run_job(&j);
        if (j.rc != RCUPROF_PLACEMENT_OK)
            fail_msg("CPU %d: %s", cpu, j.err);
        if (j.ran_on != cpu)
            fail_msg("pinned to CPU %d but sched_getcpu() says %d", cpu,
                     j.ran_on);
        assert_int_equal(hwloc_bitmap_weight(j.after), 1);
        assert_true(hwloc_bitmap_isset(j.after, (unsigned)cpu));
        hwloc_bitmap_free(j.after);
        assert_main_unchanged();
    } hwloc_bitmap_foreach_end();
}

/* CPU -1 (unpinned) leaves the inherited affinity alone. */
static void test_unpinned(void **state)
{
    struct pin_job j = { NULL, 0, -1, -1, -1, NULL, "" };

    run_job(&j);
    assert_int_equal(j.rc, RCUPROF_PLACEMENT_OK);
    assert_true(hwloc_bitmap_isequal(j.after, allowed));
    assert_true(hwloc_bitmap_isset(allowed, (unsigned)j.ran_on));
    hwloc_bitmap_free(j.after);
}

/* Pinning where the process may not run fails with a message. */
static void test_pin_refused(void **state)
{
    struct pin_job j = { NULL, 0, RCUPROF_PLACEMENT_MAX_CPU, -1, -1, NULL,
                         "" };
    char err[128];

    if (hwloc_bitmap_isset(allowed, RCUPROF_PLACEMENT_MAX_CPU))
        skip();
    run_job(&j);
    assert_int_equal(j.rc, RCUPROF_PLACEMENT_ERR_SYSTEM);
    assert_string_equal(j.err, "pin: cannot pin thread to CPU 65535: "
                        "Invalid argument (CPU offline or outside this "
                        "process's cpuset)");
    hwloc_bitmap_free(j.after);
    assert_main_unchanged();
    assert_int_equal(rcuprof_placement_pin_self(-2, err, sizeof(err)),
                     RCUPROF_PLACEMENT_ERR_ARG);
    assert_string_equal(err, "pin: CPU -2 is out of range");
}

/* The driver's way: one plan, each worker pins itself by its index. */
static void test_pin_plans(void **state)
{
    /* package:N names the package of the first allowed CPU. */
    char package[32] = "compact";
    const char *const policies[] = {
        "compact", "scatter", "core", package, "none"
    };
    unsigned nthreads = (unsigned)hwloc_bitmap_weight(allowed) + 1, i;
    hwloc_obj_t pkg;
    size_t p;

    pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE,
                                         hwloc_get_pu_obj_by_os_index(topo,
                                             (unsigned)hwloc_bitmap_first(
                                                 allowed)));
    if (pkg != NULL)
        snprintf(package, sizeof(package), "package:%u", pkg->logical_index);
    for (p = 0; p < sizeof(policies) / sizeof(policies[0]); p++) {
        struct rcuprof_placement_plan *plan = NULL;
        char err[256];

        if (rcuprof_placement_plan_from_string(topo, allowed, policies[p],
                                               nthreads, &plan, err,
                                               sizeof(err)) != 0)
            fail_msg("%s: %s", policies[p], err);
        assert_true(plan->topo.this_system);
        assert_true(plan->oversubscribed);    /* one more than CPUs */
        for (i = 0; i < nthreads; i++) {
            struct pin_job j = { plan, i, 0, -1, -1, NULL, "" };
            int want = plan->threads[i].cpu;

            run_job(&j);
            if (j.rc != RCUPROF_PLACEMENT_OK)
                fail_msg("%s thread %u: %s", policies[p], i, j.err);
            if (want >= 0 && j.ran_on != want)
                fail_msg("%s thread %u: planned CPU %d, ran on %d",
                         policies[p], i, want, j.ran_on);
            if (want < 0)
                assert_true(hwloc_bitmap_isequal(j.after, allowed));
            hwloc_bitmap_free(j.after);
        }
        {
            struct pin_job j = { plan, nthreads, 0, -1, -1, NULL, "" };
            char want[128];

            run_job(&j);
            assert_int_equal(j.rc, RCUPROF_PLACEMENT_ERR_ARG);
            snprintf(want, sizeof(want),
                     "pin: thread %u is not in the plan (%u threads)",
                     nthreads, nthreads);
            assert_string_equal(j.err, want);
            hwloc_bitmap_free(j.after);
        }
        rcuprof_placement_plan_free(plan);
    }
}

static void *probe_main(void *arg)
{
    char *err = arg;

    return (void *)(intptr_t)rcuprof_placement_pin_self(
        hwloc_bitmap_first(allowed), err, 256);
}

/* Can a thread pin itself at all?  Probed on a throw-away thread. */
static int can_pin(char *err, size_t n)
{
    pthread_t t;
    void *rc;

    if (n < 256 || pthread_create(&t, NULL, probe_main, err) != 0
        || pthread_join(t, &rc) != 0) {
        snprintf(err, n, "cannot create a probe thread");
        return 0;
    }
    return rc == (void *)(intptr_t)RCUPROF_PLACEMENT_OK;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pin_each_cpu),
        cmocka_unit_test(test_unpinned),
        cmocka_unit_test(test_pin_refused),
        cmocka_unit_test(test_pin_plans),
    };
    char err[256];
    int rc;

    if (sched_getcpu() < 0) {
        printf("SKIPPED: sched_getcpu() is not available: %s\n",
               strerror(errno));
        return 77;
    }
    if (rcuprof_placement_allowed_get(&allowed, err, sizeof(err)) != 0) {
        printf("SKIPPED: %s\n", err);
        return 77;
    }
    if (rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_SYSTEM, NULL,
                                        &topo, err, sizeof(err)) != 0) {
        printf("SKIPPED: %s\n", err);
        return 77;
    }
    if (!can_pin(err, sizeof(err))) {
        printf("SKIPPED: this system refuses thread affinity: %s\n", err);
        return 77;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    hwloc_bitmap_free(allowed);
    hwloc_topology_destroy(topo);
    return rc;
}
