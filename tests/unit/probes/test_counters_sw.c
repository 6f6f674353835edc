/*
 * The counters on this machine, for real: software events per thread
 * (a spinning thread and a sleeping one must differ in task-clock), and
 * the hardware path written to be right both here (no PMU: `cycles` is
 * unavailable with a reason while software events still count) and on a
 * machine with a PMU (then cycles must count).
 */
#include "counters_test_util.h"
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include "rcuprof_counters.h"

static uint64_t now_ns(clockid_t clk)
{
    struct timespec ts;

    clock_gettime(clk, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

static void spin_cpu_ms(unsigned ms)
{
    uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000ull;
    uint64_t x = 1;

    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
        sink = x;
    }
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

struct worker {
    struct rcuprof_counters *c;
    unsigned id;
    int spin;
    int open_ret;
    char err[512];
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int i;

    w->open_ret = rcuprof_counters_open(w->c, w->id, w->err, sizeof(w->err));
    if (w->open_ret != 0)
        return NULL;
    rcuprof_counters_start(w->c, w->id);
    if (w->spin) {
        spin_cpu_ms(150);
    } else {
        for (i = 0; i < 15; i++)
            sleep_ms(10);
    }
    rcuprof_counters_stop(w->c, w->id);
    return NULL;
}

static void run_two(struct rcuprof_counters *c)
{
    struct worker w[2];
    pthread_t t[2];
    int i;

    for (i = 0; i < 2; i++) {
        memset(&w[i], 0, sizeof(w[i]));
        w[i].c = c;
        w[i].id = (unsigned)i;
        w[i].spin = i == 0;
        assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    }
    for (i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        if (w[i].open_ret != 0)
            fail_msg("open on thread %d: %s", i, w[i].err);
    }
}

static int event_index(struct rcuprof_counters *c, const char *name)
{
    unsigned i;

    for (i = 0; i < rcuprof_counters_nevents(c); i++)
        if (strcmp(rcuprof_counters_event_name(c, i), name) == 0)
            return (int)i;
    fail_msg("event %s not in the set", name);
    return -1;
}

static void test_software_per_thread(void **state)
{
    struct rcuprof_counters *c = NULL;
    struct rcuprof_counters_value spin, idle, cs_idle;
    char err[512];
    int tc, cs;
    json_t *j, *sum;
    uint64_t ops[2] = { 1000, 10 };

    assert_int_equal(rcuprof_counters_new(&c, "task-clock,context-switches,"
                                          "page-faults", 0, 2, err,
                                          sizeof(err)), 0);
    tc = event_index(c, "task-clock");
    cs = event_index(c, "context-switches");
    assert_int_equal(rcuprof_counters_value(c, 0, (unsigned)tc, &spin), 0);
    if (!spin.available) {
        printf("SKIPPED: software events do not open here: %s\n",
               spin.reason);
        exit(SKIP_RC);
    }
    /* One group for all software events. */
    assert_int_equal(rcuprof_counters_ngroups(c), 1);
    run_two(c);

    assert_int_equal(rcuprof_counters_value(c, 0, (unsigned)tc, &spin), 0);
    assert_int_equal(rcuprof_counters_value(c, 1, (unsigned)tc, &idle), 0);
    assert_int_equal(rcuprof_counters_value(c, 1, (unsigned)cs, &cs_idle),
                     0);
    print_message("task-clock: spinning %.0f ns, sleeping %.0f ns; "
                  "context switches while sleeping: %.0f\n",
                  spin.value, idle.value, cs_idle.value);
    assert_true(spin.counted && idle.counted);
    /* The spinning thread spent ~150 ms of CPU inside the window. */
    assert_true(spin.value > 100e6);
    assert_true(idle.value > 0);
    assert_true(idle.value * 5 < spin.value);
    /* Software events are never multiplexed. */
    assert_true(spin.running_ns == spin.enabled_ns && !spin.scaled);
    assert_true(idle.running_ns == idle.enabled_ns && !idle.scaled);
    /* A per-thread event's clocks run only while the thread is on a CPU. */
    assert_true(idle.enabled_ns > 0 && idle.enabled_ns < 100000000ull);
    if (cs_idle.available)
        assert_true(cs_idle.value >= 15);
    else
        print_message("context-switches unavailable: %s\n", cs_idle.reason);

    j = rcuprof_counters_to_json(c, ops);
    assert_non_null(j);
    sum = json_object_get(json_object_get(j, "sums"), "task-clock");
    assert_non_null(sum);
    assert_true(json_real_value(json_object_get(sum, "value"))
                == spin.value + idle.value);
    assert_true(json_is_false(json_object_get(sum, "scaled")));
    assert_true(json_real_value(json_object_get(sum, "per_op")) > 0);
    assert_true(json_real_value(json_object_get(json_array_get(
        json_object_get(json_array_get(json_object_get(j, "threads"), 0),
                        "groups"), 0), "running_pct")) == 100.0);
    json_decref(j);
    rcuprof_counters_free(c);
}

/*
 * cycles: counts where there is a PMU; here (KVM, no PMU) it is reported
 * unavailable with the errno reason while task-clock still counts.
 */
static void test_hardware_or_reason(void **state)
{
    struct rcuprof_counters *c = NULL;
    struct rcuprof_counters_value cyc, tc;
    char err[512];
    json_t *j, *un;
    int ret;

    assert_int_equal(rcuprof_counters_new(&c, "cycles,task-clock", 0, 2, err,
                                          sizeof(err)), 0);
    assert_int_equal(rcuprof_counters_value(c, 0, 1, &tc), 0);
    if (!tc.available) {
        printf("SKIPPED: software events do not open here: %s\n", tc.reason);
        exit(SKIP_RC);
    }
    run_two(c);
    assert_int_equal(rcuprof_counters_value(c, 0, 0, &cyc), 0);
    assert_int_equal(rcuprof_counters_value(c, 0, 1, &tc), 0);
    assert_true(tc.counted && tc.value > 100e6);

    j = rcuprof_counters_to_json(c, NULL);
    un = json_object_get(j, "unavailable");
    if (cyc.available) {
        print_message("cycles counted: %.0f (running %.1f%%)\n", cyc.value,
                      100.0 * (double)cyc.running_ns
                      / (double)(cyc.enabled_ns ? cyc.enabled_ns : 1));
        if (cyc.counted)
            assert_true(cyc.value > 0);
        assert_true(json_is_true(json_object_get(json_object_get(j, "pmu"),
                                                 "hardware")));
        assert_int_equal(json_array_size(un), 0);
    } else {
        print_message("cycles unavailable: %s\n", cyc.reason);
        assert_non_null(cyc.reason);
        /* The reason names the errno, e.g. "no hardware PMU in this VM
         * (ENOENT)". */
        assert_non_null(strstr(cyc.reason, "(E"));
        assert_int_equal(json_array_size(un), 1);
        assert_string_equal(json_string_value(json_object_get(
            json_array_get(un, 0), "name")), "cycles");
        assert_true(json_is_false(json_object_get(json_object_get(j, "pmu"),
                                                  "hardware")));
        /* Not a 0 in the values: the event is simply absent there. */
        assert_null(json_object_get(json_object_get(json_array_get(
            json_object_get(j, "threads"), 0), "values"), "cycles"));
    }
    json_decref(j);
    rcuprof_counters_free(c);

    /* --require-hw: fails here with the reason, passes with a PMU. */
    c = NULL;
    ret = rcuprof_counters_new(&c, "cycles,task-clock",
                               RCUPROF_COUNTERS_REQUIRE_HW, 1, err,
                               sizeof(err));
    if (cyc.available) {
        assert_int_equal(ret, 0);
        rcuprof_counters_free(c);
    } else {
        assert_int_equal(ret, RCUPROF_COUNTERS_ENOHW);
        assert_null(c);
        assert_non_null(strstr(err, "--require-hw"));
        print_message("require_hw: %s\n", err);
    }
}

/* `rcuprof events` lists the PMUs and, per preset event, whether it opens. */
static void test_list(void **state)
{
    char err[512];
    json_t *l = rcuprof_counters_list_json(err, sizeof(err)), *d, *e;
    size_t i;
    int found = 0;

    assert_non_null(l);
    d = json_object_get(json_object_get(l, "presets"), "default");
    assert_int_equal(json_array_size(d), 8);
    json_array_foreach(d, i, e) {
        assert_non_null(json_object_get(e, "opens"));
        if (strcmp(json_string_value(json_object_get(e, "name")),
                   "task-clock") == 0) {
            found = 1;
            assert_true(json_is_true(json_object_get(e, "opens")));
        }
        if (json_is_false(json_object_get(e, "opens")))
            assert_non_null(json_object_get(e, "reason"));
    }
    assert_true(found);
    assert_true(json_array_size(json_object_get(l, "pmus")) >= 1);
    rcuprof_counters_list_print(stdout, l);
    json_decref(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_software_per_thread),
        cmocka_unit_test(test_hardware_or_reason),
        cmocka_unit_test(test_list),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
