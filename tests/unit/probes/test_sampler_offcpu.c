/*
 * Off-CPU accounting through the driver's tool: on a fake run with two
 * workers, worker 0 spins 50 ms of CPU then sleeps 50 ms, four times (half
 * its window off the CPU); worker 1 spins.  The `samples` member must show
 * worker 0 with switch-outs and off-CPU time of the order of the 200 ms it
 * slept, worker 1 with on-CPU samples, and the attribution report must
 * place worker 0's off-CPU time somewhere (the switch-out call chain).
 */
#define _GNU_SOURCE
#include "sampler_test_util.h"
#include <pthread.h>
#include <unistd.h>
#include "rcuprof_sampler_hooks.h"

static struct rcuprof_sampler_tool g_tool;
static struct rcuprof_run_view g_view = { 2, 0, NULL };
static unsigned g_ids[2] = { 0, 1 };
static pid_t g_tid[2];
static int g_rc[2];
static char g_err[2][256];
static volatile uint64_t g_sink;

__attribute__((noinline)) void spin_cpu_ms(unsigned ms)
{
    uint64_t end = thread_cpu_ns() + ms * 1000000ULL, x = 1;

    while (thread_cpu_ns() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 2862933555777941757ULL + 3037000493ULL;
    g_sink = x;
}

__attribute__((noinline)) void sleep_ms(unsigned ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };

    nanosleep(&ts, NULL);
}

static void *worker(void *arg)
{
    unsigned id = *(unsigned *)arg;
    struct rcuprof_tool *h = &g_tool.tool;
    int i;

    g_tid[id] = gettid();
    g_rc[id] = h->after_pin(h, &g_view, id, g_err[id], sizeof(g_err[id]));
    if (g_rc[id] != 0)
        return NULL;
    h->window_start(h, &g_view, id);
    if (id == 0) {
        for (i = 0; i < 4; i++) {
            spin_cpu_ms(50);
            sleep_ms(50);
        }
    } else {
        spin_cpu_ms(200);
    }
    h->window_end(h, &g_view, id);
    return NULL;
}

static void test_offcpu(void **state)
{
    struct rcuprof_sampler_config cfg = { 0 };
    struct rcuprof_sampler *s;
    pthread_t t[2];
    json_t *j, *t0, *t1, *rep;
    char err[512];
    unsigned i;
    int64_t off, win, blocked, preempted;

    cfg.duration_ms = 500;
    s = sampler_or_skip(&cfg, 2);
    rcuprof_sampler_tool_init(&g_tool, s);
    assert_string_equal(g_tool.tool.member, "samples");
    for (i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker, &g_ids[i]), 0);
    for (i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        if (g_rc[i] != 0) {
            printf("SKIPPED: after_pin on worker %u: %s\n", i, g_err[i]);
            exit(SKIP_RC);
        }
    }
    j = g_tool.tool.to_json(&g_tool.tool, &g_view);
    assert_non_null(j);
    dump_json("threads", json_object_get(j, "threads"));
    dump_json("event", json_object_get(j, "event"));
    t0 = json_array_get(json_object_get(j, "threads"), 0);
    t1 = json_array_get(json_object_get(j, "threads"), 1);
    assert_int_equal(json_integer_value(json_object_get(t0, "tid")),
                     g_tid[0]);
    off = json_integer_value(json_object_get(t0, "off_cpu_ns"));
    win = json_integer_value(json_object_get(t0, "window_end_ns"))
        - json_integer_value(json_object_get(t0, "window_start_ns"));
    printf("worker 0: off-CPU %.1f ms of a %.1f ms window (%.0f%%), "
           "%lld switch-outs\n", off / 1e6, win / 1e6, 100.0 * off / win,
           (long long)json_integer_value(json_object_get(t0,
                                                         "switch_outs")));
    /* It slept 4 x 50 ms and ran 200 ms of CPU. */
    assert_true(json_integer_value(json_object_get(t0, "switch_outs")) >= 4);
    assert_true(off >= 180000000LL);
    assert_true(off <= win - 180000000LL);
    /*
     * About half of the time it was not preempted, it slept: blocked /
     * (window - preempted) is (200 + wake-up latency) / (400 + latency).
     * Preemption (other jobs on a shared 2-core machine) is apart.
     */
    blocked = json_integer_value(json_object_get(t0, "off_cpu_blocked_ns"));
    preempted = json_integer_value(json_object_get(t0,
                                                   "off_cpu_preempted_ns"));
    printf("worker 0: blocked %.1f ms, preempted %.1f ms, blocked share "
           "of the unpreempted window %.2f\n", blocked / 1e6,
           preempted / 1e6, (double)blocked / (double)(win - preempted));
    assert_int_equal(blocked + preempted, off);
    assert_true(blocked >= 180000000LL && blocked <= 450000000LL);
    assert_true(blocked * 100 >= (win - preempted) * 40
                && blocked * 100 <= (win - preempted) * 70);
    assert_true(json_integer_value(json_object_get(t1, "samples")) > 100);
    assert_true(json_integer_value(json_object_get(t0, "samples")) > 100);
    assert_int_equal(json_integer_value(json_object_get(t0, "lost")), 0);
    assert_false(json_is_true(json_object_get(t0, "ring_full")));

    rep = rcuprof_attribute(j, NULL, NULL, err, sizeof(err));
    if (rep == NULL)
        fail_msg("attribute: %s", err);
    rcuprof_attribute_print(stdout, rep);
    if (json_is_true(json_object_get(j, "switch_samples"))) {
        const json_t *w = json_object_get(json_array_get(
            json_object_get(rep, "threads"), 0), "left_cpu_at");

        /* Where worker 0 left the CPU: the sleeps, most of the time. */
        assert_true(json_array_size(w) >= 1);
        assert_true(json_integer_value(json_object_get(json_array_get(w, 0),
                                                       "off_cpu_ns"))
                    >= 100000000LL);
    } else {
        printf("no switch samples: %s\n", json_string_value(
            json_object_get(j, "switch_samples_reason")));
    }
    json_decref(rep);
    json_decref(j);
    rcuprof_sampler_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offcpu),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
