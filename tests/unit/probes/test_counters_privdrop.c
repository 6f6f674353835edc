/*
 * Permission problems, tested by dropping privileges: a child becomes
 * `nobody` (uid/gid 65534, no capabilities) and asks for software events.
 *
 * At perf_event_paranoid >= 2 the kernel refuses kernel-mode counting to
 * such a user, so the counters retry with exclude_kernel; context switches
 * and CPU migrations are raised from kernel context and would read 0, so
 * they must be reported unavailable (with what to do), while task-clock
 * and page-faults still count.  The test also checks the kernel behaviour
 * the data table relies on: a user-only context-switches event really
 * stays at 0 across sleeps.
 */
#define _GNU_SOURCE
#include "counters_test_util.h"
#include <errno.h>
#include <grp.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "rcuprof_counters.h"

static int paranoid(void)
{
    FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 2;

    if (fp != NULL) {
        if (fscanf(fp, "%d", &v) != 1)
            v = 2;
        fclose(fp);
    }
    return v;
}

static void sleeps(int n)
{
    struct timespec ts = { 0, 5000000 };

    while (n-- > 0)
        nanosleep(&ts, NULL);
}

/* Raw check of the kernel rule behind rcuprof_counters_kernel_only_sw. */
static int user_only_cs_reads_zero(int *fails)
{
    struct perf_event_attr a;
    uint64_t v = 1;
    int fd;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0) {
        fprintf(stderr, "user-only context-switches: %s\n", strerror(errno));
        return -1;
    }
    sleeps(10);
    CHILD_CHECK(*fails, __LINE__, read(fd, &v, sizeof(v)) == sizeof(v),
                "read");
    close(fd);
    CHILD_CHECK(*fails, __LINE__, v == 0,
                "user-only context-switches counted %llu: the kernel no "
                "longer zeroes it, update counter_presets.c",
                (unsigned long long)v);
    return 0;
}

static int check_unprivileged(void *arg)
{
    struct rcuprof_counters *c = NULL;
    struct rcuprof_counters_value v;
    char err[512] = "";
    int fails = 0, p = paranoid(), i;
    const unsigned tc = 0, cs = 1, mig = 2, pf = 3;
    volatile char *mem;
    json_t *j;

    if (getuid() == 0 || geteuid() == 0)
        return 99;
    CHILD_CHECK(fails, __LINE__,
                rcuprof_counters_new(&c, "task-clock,context-switches,"
                                     "cpu-migrations,page-faults", 0, 1,
                                     err, sizeof(err)) == 0, "new: %s", err);
    if (c == NULL)
        return fails;
    fprintf(stderr, "unprivileged, perf_event_paranoid=%d\n", p);
    for (i = 0; i < 4; i++) {
        rcuprof_counters_value(c, 0, (unsigned)i, &v);
        fprintf(stderr, "  %-18s %s%s\n", rcuprof_counters_event_name(c, i),
                v.available ? "available" : "unavailable: ",
                v.available ? "" : v.reason);
    }
    if (p >= 3) {
        /* Debian/Ubuntu: no perf for unprivileged users at all. */
        rcuprof_counters_value(c, 0, tc, &v);
        CHILD_CHECK(fails, __LINE__, !v.available
                    && strstr(v.reason, "perf_event_paranoid") != NULL,
                    "paranoid %d: task-clock %s", p,
                    v.available ? "available" : v.reason);
        rcuprof_counters_free(c);
        return fails;
    }
    rcuprof_counters_value(c, 0, tc, &v);
    if (!v.available) {
        /* e.g. a seccomp filter: not the kernel rule under test */
        fprintf(stderr, "task-clock does not open: %s\n", v.reason);
        rcuprof_counters_free(c);
        return 97;
    }
    rcuprof_counters_value(c, 0, cs, &v);
    if (p >= 2) {
        CHILD_CHECK(fails, __LINE__, !v.available
                    && strstr(v.reason, "exclude_kernel") != NULL
                    && strstr(v.reason, "CAP_PERFMON") != NULL,
                    "context-switches: %s",
                    v.available ? "available" : v.reason);
        rcuprof_counters_value(c, 0, mig, &v);
        CHILD_CHECK(fails, __LINE__, !v.available, "cpu-migrations open");
        if (user_only_cs_reads_zero(&fails) != 0)
            fails++;
    } else {
        CHILD_CHECK(fails, __LINE__, v.available, "context-switches: %s",
                    v.reason);
    }

    /* What is left counts, user space only. */
    CHILD_CHECK(fails, __LINE__,
                rcuprof_counters_open(c, 0, err, sizeof(err)) == 0,
                "open: %s", err);
    rcuprof_counters_start(c, 0);
    mem = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (i = 0; mem != MAP_FAILED && i < 64; i++)
        mem[i * 4096] = 1;
    sleeps(3);
    rcuprof_counters_stop(c, 0);
    rcuprof_counters_value(c, 0, tc, &v);
    CHILD_CHECK(fails, __LINE__, v.available && v.counted && v.value > 0,
                "task-clock %f", v.value);
    rcuprof_counters_value(c, 0, pf, &v);
    CHILD_CHECK(fails, __LINE__, v.available && v.value >= 64,
                "page-faults %f", v.value);
    fprintf(stderr, "  page-faults counted user-only: %.0f\n", v.value);

    j = rcuprof_counters_to_json(c, NULL);
    CHILD_CHECK(fails, __LINE__,
                json_is_true(json_object_get(json_object_get(j, "pmu"),
                                             "user_only")) == (p >= 2),
                "pmu.user_only");
    CHILD_CHECK(fails, __LINE__,
                json_array_size(json_object_get(j, "unavailable"))
                == (p >= 2 ? 2u : 0u), "unavailable count");
    json_decref(j);
    rcuprof_counters_free(c);
    return fails;
}

static int drop_and_check(void *arg)
{
    if (geteuid() == 0) {
        if (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0
            || setresuid(65534, 65534, 65534) != 0) {
            fprintf(stderr, "cannot become nobody: %s\n", strerror(errno));
            return 98;
        }
    }
    return check_unprivileged(arg);
}

static void test_unprivileged(void **state)
{
    pid_t pid;
    int status;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(drop_and_check(NULL));
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 98) {
        printf("SKIPPED: cannot drop privileges to nobody here\n");
        exit(SKIP_RC);
    }
    if (WEXITSTATUS(status) == 97) {
        printf("SKIPPED: perf_event_open refuses software events to an "
               "unprivileged user here for another reason (see above)\n");
        exit(SKIP_RC);
    }
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* As root (or CAP_PERFMON) nothing is forced to user space. */
static void test_privileged(void **state)
{
    struct rcuprof_counters *c = NULL;
    struct rcuprof_counters_value v;
    char err[512];
    json_t *j;

    if (geteuid() != 0) {
        print_message("not root: privileged case not checked\n");
        return;
    }
    assert_int_equal(rcuprof_counters_new(&c, "context-switches", 0, 1, err,
                                          sizeof(err)), 0);
    rcuprof_counters_value(c, 0, 0, &v);
    if (!v.available) {
        printf("SKIPPED: perf_event_open refused even as root: %s\n",
               v.reason);
        exit(SKIP_RC);
    }
    j = rcuprof_counters_to_json(c, NULL);
    assert_false(json_is_true(json_object_get(json_object_get(j, "pmu"),
                                              "user_only")));
    json_decref(j);
    rcuprof_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_privileged),
        cmocka_unit_test(test_unprivileged),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
