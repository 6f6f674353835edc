/*
 * Event lists: parsing, presets, duplicates, and every error with the
 * message the user sees; the error texts; RLIMIT_NOFILE raising.
 */
#include "counters_test_util.h"
#include <sys/resource.h>
#include "rcuprof_counters.h"

struct parse_case {
    int line;
    const char *list;
    unsigned nthreads;
    int ret;
    int nevents;                /* when ret == 0 */
    const char *msg1, *msg2;    /* substrings of the message when ret != 0 */
};

static const struct parse_case cases[] = {
    { __LINE__, "task-clock", 1, 0, 1, NULL, NULL },
    { __LINE__, " task-clock , page-faults ,task-clock", 1, 0, 2, NULL,
      NULL },
    { __LINE__, "default", 4, 0, 8, NULL, NULL },
    { __LINE__, "default,task-clock,cycles", 4, 0, 8, NULL, NULL },
    { __LINE__, "default,cache", 4, 0, 12, NULL, NULL },
    { __LINE__, "perf::PERF_COUNT_SW_TASK_CLOCK,r01a2", 1, 0, 2, NULL, NULL },
    { __LINE__, "nosuchevent", 1, RCUPROF_COUNTERS_EUNKNOWN, 0,
      "'nosuchevent'", "`rcuprof events`" },
    { __LINE__, "task-clock,skl::NOPE", 1, RCUPROF_COUNTERS_EUNKNOWN, 0,
      "'skl::NOPE'", "rcuprof events" },
    { __LINE__, "task-clock:k=2", 1, RCUPROF_COUNTERS_EENCODE, 0,
      "'task-clock:k=2'", "invalid event attribute value" },
    { __LINE__, "perf::PERF_COUNT_SW_TASK_CLOCK:bogus=1", 1,
      RCUPROF_COUNTERS_EENCODE, 0, "cannot encode", NULL },
    { __LINE__, "", 1, RCUPROF_COUNTERS_EINVAL, 0, "empty event list",
      "rcuprof events" },
    { __LINE__, " , ,", 1, RCUPROF_COUNTERS_EINVAL, 0, "empty", NULL },
    { __LINE__, "cycles,,task-clock", 1, RCUPROF_COUNTERS_EINVAL, 0,
      "item 2 is empty", "remove the extra comma" },
    { __LINE__, "task-clock,", 1, RCUPROF_COUNTERS_EINVAL, 0,
      "item 2 is empty", NULL },
    { __LINE__, ",task-clock", 1, RCUPROF_COUNTERS_EINVAL, 0,
      "item 1 is empty", NULL },
    { __LINE__, "task-clock, ,page-faults", 1, RCUPROF_COUNTERS_EINVAL, 0,
      "item 2 is empty", NULL },
    { __LINE__, "task-clock", 0, RCUPROF_COUNTERS_EINVAL, 0, "thread", NULL },
    { __LINE__, "r1,r2,r3,r4,r5,r6,r7,r8,r9,ra,rb,rc,rd,re,rf,r10,r11,r12,"
      "r13,r14,r15,r16,r17,r18,r19,r1a,r1b,r1c,r1d,r1e,r1f,r20", 1, 0, 32,
      NULL, NULL },
    { __LINE__, "r1,r2,r3,r4,r5,r6,r7,r8,r9,ra,rb,rc,rd,re,rf,r10,r11,r12,"
      "r13,r14,r15,r16,r17,r18,r19,r1a,r1b,r1c,r1d,r1e,r1f,r20,r21", 1,
      RCUPROF_COUNTERS_ETOOMANY, 0, "at most 32", "'r21'" },
    { __LINE__, "x123456789012345678901234567890123456789012345678901234567890"
      "1234567890123456789012345678901234567890123456789012345678901234567890"
      "1234567890", 1, RCUPROF_COUNTERS_EINVAL, 0, "too long", NULL },
};

static void test_parse_table(void **state)
{
    struct rcuprof_counters *c;
    char err[512];
    size_t i;
    int ret;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct parse_case *pc = &cases[i];

        c = NULL;
        err[0] = '\0';
        ret = rcuprof_counters_new(&c, pc->list, 0, pc->nthreads, err,
                                   sizeof(err));
        if (ret != pc->ret)
            fail_msg("line %d: '%s': ret %d (%s), want %d", pc->line,
                     pc->list, ret, err, pc->ret);
        if (ret == 0) {
            if ((int)rcuprof_counters_nevents(c) != pc->nevents)
                fail_msg("line %d: %u events, want %d", pc->line,
                         rcuprof_counters_nevents(c), pc->nevents);
            rcuprof_counters_free(c);
            continue;
        }
        if (c != NULL)
            fail_msg("line %d: object returned on error", pc->line);
        if ((pc->msg1 != NULL && strstr(err, pc->msg1) == NULL)
            || (pc->msg2 != NULL && strstr(err, pc->msg2) == NULL))
            fail_msg("line %d: message '%s' lacks '%s' / '%s'", pc->line,
                     err, pc->msg1, pc->msg2 ? pc->msg2 : "");
    }
}

static void test_null_list(void **state)
{
    struct rcuprof_counters *c = (void *)1;
    char err[128];

    assert_int_equal(rcuprof_counters_new(&c, NULL, 0, 1, err, sizeof(err)),
                     RCUPROF_COUNTERS_EINVAL);
    assert_null(c);
}

/* A preset with no rows for this PMU is reported, not silently empty. */
static void test_empty_preset_reported(void **state)
{
    struct rcuprof_counters *c = NULL;
    char err[512];
    json_t *j, *un;

    if (strcmp(rcuprof_counters_core_pmu(), "perf") != 0) {
        print_message("core PMU %s has coherence rows: nothing to check\n",
                      rcuprof_counters_core_pmu());
        return;
    }
    assert_int_equal(rcuprof_counters_new(&c, "task-clock,coherence", 0, 1,
                                          err, sizeof(err)), 0);
    assert_int_equal(rcuprof_counters_nevents(c), 1);
    j = rcuprof_counters_to_json(c, NULL);
    un = json_object_get(j, "unavailable");
    assert_int_equal(json_array_size(un), 1);
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(un, 0), "name")), "coherence");
    assert_non_null(strstr(json_string_value(json_object_get(
        json_array_get(un, 0), "reason")), "'perf'"));
    json_decref(j);
    rcuprof_counters_free(c);
}

static void test_strerror(void **state)
{
    int e;

    for (e = RCUPROF_COUNTERS_EIO; e <= RCUPROF_COUNTERS_OK; e++)
        assert_string_not_equal(rcuprof_counters_strerror(e),
                                "unknown error");
    assert_string_equal(rcuprof_counters_strerror(-99), "unknown error");
    assert_non_null(strstr(rcuprof_counters_strerror(
        RCUPROF_COUNTERS_EUNKNOWN), "rcuprof events"));
}

static void test_encode_errors(void **state)
{
    struct rcuprof_counters_encoding e;
    char err[256];

    assert_int_equal(rcuprof_counters_encode("", &e, err, sizeof(err)),
                     RCUPROF_COUNTERS_EINVAL);
    assert_int_equal(rcuprof_counters_encode("no-such-event", &e, err,
                                             sizeof(err)),
                     RCUPROF_COUNTERS_EUNKNOWN);
    assert_non_null(strstr(err, "'no-such-event'"));
}

static int check_nofile(void *arg)
{
    struct rlimit rl = { 64, 4096 };
    char err[512] = "";
    int fails = 0, ret;

    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        /* The hard limit is already lower: use it as it is. */
        getrlimit(RLIMIT_NOFILE, &rl);
        rl.rlim_cur = rl.rlim_max < 64 ? rl.rlim_max : 64;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            return 1;
    }
    getrlimit(RLIMIT_NOFILE, &rl);
    /* Fits the soft limit: nothing changes. */
    ret = rcuprof_counters_raise_nofile(2, 4, 16, err, sizeof(err));
    CHILD_CHECK(fails, __LINE__, ret == 0, "small: %s", err);
    if (rl.rlim_max >= 1000) {
        struct rlimit now;

        ret = rcuprof_counters_raise_nofile(30, 30, 64, err, sizeof(err));
        CHILD_CHECK(fails, __LINE__, ret == 0, "raise: %s", err);
        getrlimit(RLIMIT_NOFILE, &now);
        CHILD_CHECK(fails, __LINE__, now.rlim_cur == rl.rlim_max,
                    "soft %llu, hard %llu", (unsigned long long)now.rlim_cur,
                    (unsigned long long)rl.rlim_max);
    }
    ret = rcuprof_counters_raise_nofile(1024, 32, 64, err, sizeof(err));
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 1024 * 32 + 64) {
        CHILD_CHECK(fails, __LINE__, ret == RCUPROF_COUNTERS_ENOFILE,
                    "ret %d", ret);
        CHILD_CHECK(fails, __LINE__, strstr(err, "hard limit") != NULL
                    && strstr(err, "1024 threads x 32") != NULL,
                    "message: %s", err);
    }
    return fails;
}

static void test_nofile(void **state)
{
    run_with_pmu(NULL, check_nofile, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_null_list),
        cmocka_unit_test(test_empty_preset_reported),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_encode_errors),
        cmocka_unit_test(test_nofile),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
