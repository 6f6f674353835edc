/*
 * Helpers for the counters tests: run a check in a child process with
 * libpfm4 pinned to one PMU model (LIBPFM_FORCE_PMU must be set before
 * pfm_initialize, and libpfm4 cannot be re-initialised with another one in
 * the same process), and the ctest skip convention.
 */
#ifndef COUNTERS_TEST_UTIL_H
# define COUNTERS_TEST_UTIL_H

# include <stdarg.h>
# include <stddef.h>
# include <setjmp.h>
# include <stdio.h>
# include <stdlib.h>
# include <string.h>
# include <unistd.h>
# include <sys/wait.h>
# include <cmocka.h>

# define SKIP_RC 77

/*
 * Run FN(ARG) in a child with LIBPFM_FORCE_PMU=PMU (NULL: unforced).  FN
 * returns the number of failed checks (printing each); the parent asserts
 * it is 0.
 */
static inline void run_with_pmu(const char *pmu, int (*fn)(void *),
                                void *arg)
{
    pid_t pid;
    int status = 0;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int r;

        if (pmu != NULL)
            setenv("LIBPFM_FORCE_PMU", pmu, 1);
        else
            unsetenv("LIBPFM_FORCE_PMU");
        r = fn(arg);
        fflush(NULL);
        _exit(r > 255 ? 255 : r);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        print_error("child with LIBPFM_FORCE_PMU=%s: %s %d\n",
                    pmu != NULL ? pmu : "(unset)",
                    WIFEXITED(status) ? "failed checks:" : "signal",
                    WIFEXITED(status) ? WEXITSTATUS(status)
                                      : WTERMSIG(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* A check in a child: print the row's line and count it. */
# define CHILD_CHECK(fails, line, cond, ...)                             \
    do {                                                                \
        if (!(cond)) {                                                  \
            fprintf(stderr, "row at line %d: ", (line));                \
            fprintf(stderr, __VA_ARGS__);                               \
            fputc('\n', stderr);                                        \
            (fails)++;                                                  \
        }                                                               \
    } while (0)

#endif
