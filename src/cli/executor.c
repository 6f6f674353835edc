/* The local executor, and picking one by host name (executor.h). */
#include "executor.h"
#include "host.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int local_prepare(struct rcuprof_executor *x, const char *variant,
                         const char *drv, char *err, size_t errlen)
{
    (void)x;
    if (access(drv, X_OK) == 0)
        return 0;
    snprintf(err, errlen, "variant %s: its driver is not built (%s)",
             variant, drv);
    return -1;
}

static enum rcuprof_exec_rc local_run(struct rcuprof_executor *x,
                                      char *const argv[], double timeout_s,
                                      struct rcuprof_driver_result *r)
{
    (void)x;
    if (rcuprof_driver_spawn(argv[0], argv, timeout_s, r) != 0)
        return RCUPROF_EXEC_ERROR;
    return RCUPROF_EXEC_RAN;
}

static json_t *local_host_record(struct rcuprof_executor *x)
{
    (void)x;
    return NULL;
}

static void local_close(struct rcuprof_executor *x)
{
    (void)x;
}

static struct rcuprof_executor local_executor = {
    .kind = "local",
    .name = "local",
    .prepare = local_prepare,
    .run = local_run,
    .host_record = local_host_record,
    .close = local_close,
};

struct rcuprof_executor *rcuprof_executor_local(void)
{
    return &local_executor;
}

struct rcuprof_executor *rcuprof_executor_open(const char *host, char *err,
                                               size_t errlen)
{
    if (host == NULL || strcmp(host, "local") == 0)
        return &local_executor;
    /* A host of the registry (host.c): connected, probed, checked. */
    return rcuprof_executor_ssh(host, err, errlen);
}

void rcuprof_executor_close(struct rcuprof_executor *x)
{
    if (x != NULL && x->close != NULL)
        x->close(x);
}
