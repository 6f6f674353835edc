/*
 * The counters as a stress-driver hook module: the harness's calls, made
 * on two worker threads of a fake run, produce the `counters` member with
 * per-thread values, sums and per-op figures.
 */
#include "counters_test_util.h"
#include <pthread.h>
#include <time.h>
#include "stress.h"
#include "rcuprof_counters_hooks.h"

static struct rcuprof_run g_run;
static _Alignas(RCUPROF_CACHELINE) struct rcuprof_slot g_slots[2];
static struct rcuprof_worker g_workers[2];
static int g_rc[2];
static char g_err[2][256];

static void *worker(void *arg)
{
    struct rcuprof_worker *w = arg;
    const struct rcuprof_hooks *h = &rcuprof_counters_hooks;
    struct timespec t0, t1;

    g_rc[w->id] = h->after_pin(w, g_err[w->id], sizeof(g_err[w->id]));
    if (g_rc[w->id] != 0)
        return NULL;
    h->window_start(w);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    while ((t1.tv_sec - t0.tv_sec) * 1000000000L + t1.tv_nsec - t0.tv_nsec
           < 20000000L);
    h->window_end(w);
    w->slot->ops = 1000 * (w->id + 1);
    return NULL;
}

static void test_hooks_run(void **state)
{
    struct rcuprof_counters *c = NULL;
    pthread_t t[2];
    char err[512];
    json_t *j, *sum;
    unsigned i;

    assert_string_equal(rcuprof_counters_hooks.member, "counters");
    assert_int_equal(rcuprof_counters_new(&c, "task-clock,context-switches",
                                          0, 2, err, sizeof(err)), 0);
    if (rcuprof_counters_nopen(c) == 0) {
        printf("SKIPPED: software events do not open here\n");
        exit(SKIP_RC);
    }
    rcuprof_counters_hooks_attach(c);
    g_run.cfg.threads = 2;
    g_run.slots = g_slots;
    g_run.workers = g_workers;
    g_run.hooks[0] = &rcuprof_counters_hooks;
    g_run.nhooks = 1;
    for (i = 0; i < 2; i++) {
        g_workers[i].id = i;
        g_workers[i].run = &g_run;
        g_workers[i].slot = &g_slots[i];
        assert_int_equal(pthread_create(&t[i], NULL, worker, &g_workers[i]),
                         0);
    }
    for (i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        if (g_rc[i] != 0)
            fail_msg("after_pin on %u: %s", i, g_err[i]);
    }
    j = rcuprof_counters_hooks.to_json(&g_run);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "threads")), 2);
    sum = json_object_get(json_object_get(j, "sums"), "task-clock");
    assert_true(json_real_value(json_object_get(sum, "value")) > 30e6);
    /* per op: over the 3000 ops of both threads */
    assert_true(json_real_value(json_object_get(sum, "per_op"))
                == json_real_value(json_object_get(sum, "value")) / 3000.0);
    json_decref(j);

    /* A worker index outside the set fails the run with a message. */
    g_workers[0].id = 7;
    assert_int_not_equal(rcuprof_counters_hooks.after_pin(&g_workers[0], err,
                                                          sizeof(err)), 0);
    assert_non_null(strstr(err, "thread 7"));

    rcuprof_counters_hooks_attach(NULL);
    assert_null(rcuprof_counters_hooks.to_json(&g_run));
    assert_int_equal(rcuprof_counters_hooks.after_pin(&g_workers[0], err,
                                                      sizeof(err)), 0);
    rcuprof_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks_run),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
