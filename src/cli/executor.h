/*
 * Where a measurement runs (issue 27): the seam under the experiment
 * engine.  The engine plans and decodes; an executor only makes a driver
 * runnable on its target and runs one measurement there.
 *
 *   local   the driver as a child process of rcuprof (rcuprof_driver_spawn)
 *   ssh     a host of the registry (host.c): the user's own OpenSSH client
 *   bundle  nothing runs: each measurement is appended to a plan that
 *           run.sh executes on a machine nothing can reach (bundle.c)
 */
#ifndef RCUPROF_EXECUTOR_H
# define RCUPROF_EXECUTOR_H

# include <stddef.h>
# include <jansson.h>

# include "cli.h"

enum rcuprof_exec_rc {
    RCUPROF_EXEC_RAN = 0,       /* the driver ran: r holds its exit, stdout,
                                 * stderr and seconds */
    RCUPROF_EXEC_DEFERRED = 1,  /* recorded to run elsewhere (bundle): r is
                                 * empty, there is no result to decode */
    RCUPROF_EXEC_LOST = 2,      /* the transport failed (connection lost,
                                 * copy failed): the point in flight is no
                                 * result; the engine stops after what it
                                 * has appended and --resume finishes */
    RCUPROF_EXEC_ERROR = -1     /* could not start at all (fork, pipes) */
};

struct rcuprof_executor {
    const char *kind;           /* "local", "ssh", "bundle" */
    char name[64];              /* host name; "local" for the local one */
    /*
     * Make VARIANT's driver (local path drv) runnable on the target: check
     * it, copy it when missing.  0, or -1 after one line (no newline) in
     * err naming the variant and what to do.
     */
    int (*prepare)(struct rcuprof_executor *x, const char *variant,
                   const char *drv, char *err, size_t errlen);
    /* Run one measurement; argv[0] is the local driver path. */
    enum rcuprof_exec_rc (*run)(struct rcuprof_executor *x,
                                char *const argv[], double timeout_s,
                                struct rcuprof_driver_result *r);
    /*
     * The target's record for every result it ran (name, how it was
     * reached, arch, kernel, CPUs, topology): a new reference, or NULL for
     * the local machine (the driver's own env member describes it).
     */
    json_t *(*host_record)(struct rcuprof_executor *x);
    void (*close)(struct rcuprof_executor *x);
    void *priv;
};

/* The local executor (static storage; close is a no-op). */
struct rcuprof_executor *rcuprof_executor_local(void);
/*
 * host NULL or "local": the local executor; otherwise host NAME of the
 * registry.  NULL after one line in err.
 */
struct rcuprof_executor *rcuprof_executor_open(const char *host, char *err,
                                               size_t errlen);
void rcuprof_executor_close(struct rcuprof_executor *x);

#endif
