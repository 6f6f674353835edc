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
 */
#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const char *names[] = { "RAN", "DEFERRED", "LOST" };
    struct rcuprof_executor *x;
    struct rcuprof_driver_result r;
    enum rcuprof_exec_rc rc;
    char err[1024];
    const char *base;
    json_t *o, *res;

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
