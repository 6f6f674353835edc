/* The "env" member: the machine a run ran on, as far as it affects it. */
#define _GNU_SOURCE
#include "stress.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

static int read_int_file(const char *path, long *out)
{
    FILE *f = fopen(path, "r");
    int ok;

    if (f == NULL)
        return -1;
    ok = fscanf(f, "%ld", out) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

json_t *rcuprof_env_json(const struct rcuprof_run *run)
{
    struct utsname u;
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN), paranoid;
    int allowed = 0;
    double load[3] = { 0, 0, 0 };
    char host[256] = "";
    json_t *env;

    uname(&u);
    gethostname(host, sizeof(host) - 1);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        allowed = CPU_COUNT(&set);
    getloadavg(load, 3);
    env = json_pack("{s:s, s:s, s:s, s:I, s:i, s:b, s:[f,f,f]}",
                    "hostname", host, "kernel", u.release,
                    "machine", u.machine, "cpus_online", (json_int_t)online,
                    "cpus_allowed", allowed,
                    "oversubscribed", (int)run->cfg.threads > allowed,
                    "loadavg", load[0], load[1], load[2]);
    if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0)
        json_object_set_new(env, "perf_event_paranoid", json_integer(paranoid));
    else
        json_object_set_new(env, "perf_event_paranoid", json_null());
    return env;
}
