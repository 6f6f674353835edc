/*
 * The counters as a tool of the stress driver's run: the harness's calls,
 * made on two worker threads of a fake run view, produce the `counters`
 * member with per-thread values, sums and per-op figures.  The tool keeps
 * its state in its own context, so two of them could run side by side.
 */
#include "counters_test_util.h"
#include <pthread.h>
#include <time.h>
#include "rcuprof_counters_hooks.h"

static struct rcuprof_counters_tool g_tool;
static uint64_t g_ops[2];
static struct rcuprof_run_view g_view = { 2, 0, NULL };
static unsigned g_ids[2] = { 0, 1 };
static int g_rc[2];
static char g_err[2][256];

static void *worker(void *arg)
{
    unsigned id = *(unsigned *)arg;
    struct rcuprof_tool *h = &g_tool.tool;
    struct timespec t0, t1;

    g_rc[id] = h->after_pin(h, &g_view, id, g_err[id], sizeof(g_err[id]));
    if (g_rc[id] != 0)
        return NULL;
    h->window_start(h, &g_view, id);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    while ((t1.tv_sec - t0.tv_sec) * 1000000000L + t1.tv_nsec - t0.tv_nsec
           < 20000000L);
    h->window_end(h, &g_view, id);
    g_ops[id] = 1000 * (id + 1);
    return NULL;
}

static void test_hooks_run(void **state)
{
    struct rcuprof_counters *c = NULL;
    pthread_t t[2];
    char err[512];
    json_t *j, *sum;
    unsigned i;

    assert_int_equal(rcuprof_counters_new(&c, "task-clock,context-switches",
                                          0, 2, err, sizeof(err)), 0);
    if (rcuprof_counters_nopen(c) == 0) {
        printf("SKIPPED: software events do not open here\n");
        exit(SKIP_RC);
    }
    rcuprof_counters_tool_init(&g_tool, c);
    assert_string_equal(g_tool.tool.member, "counters");
    for (i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker, &g_ids[i]), 0);
    for (i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        if (g_rc[i] != 0)
            fail_msg("after_pin on %u: %s", i, g_err[i]);
    }
    g_view.ops = g_ops;         /* the workers are joined */
    j = g_tool.tool.to_json(&g_tool.tool, &g_view);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "threads")), 2);
    sum = json_object_get(json_object_get(j, "sums"), "task-clock");
    assert_true(json_real_value(json_object_get(sum, "value")) > 30e6);
    /* per op: over the 3000 ops of both threads */
    assert_true(json_real_value(json_object_get(sum, "per_op"))
                == json_real_value(json_object_get(sum, "value")) / 3000.0);
    json_decref(j);

    /* A worker index outside the set fails the run with a message. */
    assert_int_not_equal(g_tool.tool.after_pin(&g_tool.tool, &g_view, 7, err,
                                               sizeof(err)), 0);
    assert_non_null(strstr(err, "thread 7"));

    /* A tool without counters does nothing, and its member is null. */
    {
        struct rcuprof_counters_tool none;

        rcuprof_counters_tool_init(&none, NULL);
        assert_null(none.tool.to_json(&none.tool, &g_view));
        assert_int_equal(none.tool.after_pin(&none.tool, &g_view, 7, err,
                                             sizeof(err)), 0);
    }
    rcuprof_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks_run),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
