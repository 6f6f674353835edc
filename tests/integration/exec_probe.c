/*
 * exec_probe: one measurement through the executor seam (executor.h), as
 * the experiment engine makes it, for test_ssh.
 *
 *   exec_probe HOST TIMEOUT_S DRIVER [DRIVER OPTIONS...]
 *
 * HOST "local" or a registry name.  Prints one JSON object: rc (RAN,
 * DEFERRED, LOST, ERROR), exited, status, timed_out, seconds, result (the
 * driver's stdout parsed, or null), err (its stderr), host (the host
 * record, or null).  Exit 0 when it printed that; 3 when the executor
 * could not open or prepare (its one line on stderr).
 *
 *   exec_probe --points LIST HOST TIMEOUT_S DRIVER [DRIVER OPTIONS...]
 *
 * The overhead benchmark: one open and prepare, then one measurement per
 * thread count of LIST (--threads=N appended), as a sweep of those points
 * makes them.  Prints one line of figures: seconds to open, to prepare,
 * of the measurements, and of their timed windows (run.wall_ns).
 */
#include "executor.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bench(const char *points, int argc, char **argv)
{
    char err[1024], *list = strdup(points), *tok, *save = NULL;
    double t0 = rcuprof_time_mono_s(), t1, t2, runs = 0, windows = 0;
    struct rcuprof_executor *x = rcuprof_executor_open(argv[1], err,
                                                        sizeof(err));
    char **av = calloc((size_t)argc + 2, sizeof(*av)), tb[32];
    int i, n = 0;

    if (x == NULL || list == NULL || av == NULL) {
        fprintf(stderr, "rcuprof: %s\n", x == NULL ? err : "out of memory");
        return 3;
    }
    t1 = rcuprof_time_mono_s();
    if (x->prepare(x, "bench", argv[3], err, sizeof(err)) != 0) {
        fprintf(stderr, "rcuprof: %s\n", err);
        return 3;
    }
    t2 = rcuprof_time_mono_s();
    for (i = 3; i < argc; i++)
        av[i - 3] = argv[i];
    for (tok = strtok_r(list, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save), n++) {
        struct rcuprof_driver_result r;
        json_t *res;

        snprintf(tb, sizeof(tb), "--threads=%s", tok);
        av[argc - 3] = tb;
        av[argc - 2] = NULL;
        if (x->run(x, av, atof(argv[2]), &r) != RCUPROF_EXEC_RAN
            || r.status != 0 || (res = json_loads(r.out, 0, NULL)) == NULL) {
            fprintf(stderr, "rcuprof: point %s failed: %s\n", tok, r.err);
            return 1;
        }
        runs += r.seconds;
        windows += json_number_value(json_object_get(json_object_get(res, "run"),
                                                     "wall_ns")) / 1e9;
        json_decref(res);
        rcuprof_driver_result_free(&r);
    }
    printf("%s: %d points: open %.3f s, prepare %.3f s, measurements %.3f s, timed windows %.3f s\n",
           argv[1], n, t1 - t0, t2 - t1, runs, windows);
    rcuprof_executor_close(x);
    free(av);
    free(list);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *names[] = { "RAN", "DEFERRED", "LOST" };
    struct rcuprof_executor *x;
    struct rcuprof_driver_result r;
    enum rcuprof_exec_rc rc;
    char err[1024];
    const char *base;
    json_t *o, *res;

    if (argc >= 6 && strcmp(argv[1], "--points") == 0)
        return bench(argv[2], argc - 2, argv + 2);
    if (argc < 4) {
        fprintf(stderr, "usage: exec_probe HOST TIMEOUT_S DRIVER [OPTIONS...]\n");
        return 2;
    }
    x = rcuprof_executor_open(argv[1], err, sizeof(err));
    if (x == NULL) {
        fprintf(stderr, "rcuprof: %s\n", err);
        return 3;
    }
    base = strrchr(argv[3], '/');
    base = base != NULL ? base + 1 : argv[3];
    if (x->prepare(x, base, argv[3], err, sizeof(err)) != 0) {
        fprintf(stderr, "rcuprof: %s\n", err);
        rcuprof_executor_close(x);
        return 3;
    }
    memset(&r, 0, sizeof(r));
    rc = x->run(x, argv + 3, atof(argv[2]), &r);
    res = r.out != NULL ? json_loads(r.out, 0, NULL) : NULL;
    o = json_pack("{s:s,s:b,s:i,s:b,s:f,s:o,s:s,s:o}",
                  "rc", rc == RCUPROF_EXEC_ERROR ? "ERROR" : names[rc],
                  "exited", r.exited, "status", r.status,
                  "timed_out", r.timed_out, "seconds", r.seconds,
                  "result", res != NULL ? res : json_null(),
                  "err", r.err != NULL ? r.err : "",
                  "host", x->host_record(x) ?: json_null());
    json_dumpf(o, stdout, JSON_SORT_KEYS);
    putchar('\n');
    json_decref(o);
    rcuprof_driver_result_free(&r);
    rcuprof_executor_close(x);
    return 0;
}
