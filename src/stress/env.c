/* The "env" member: the machine a run ran on, as far as it affects it. */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/* First line of a small text file, or NULL when unreadable. */
static json_t *read_line_json(const char *path)
{
    char buf[256];
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return json_null();
    if (fgets(buf, sizeof(buf), f) == NULL) {
        fclose(f);
        return json_null();
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return json_string(buf);
}

static json_t *cpu_model_json(void)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    json_t *res = json_null();

    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        char *colon = strchr(line, ':');

        if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
            colon += colon[1] == ' ' ? 2 : 1;
            colon[strcspn(colon, "\n")] = '\0';
            res = json_string(colon);
            break;
        }
    }
    if (f != NULL)
        fclose(f);
    return res;
}

/*
 * Whether a hardware cycles counter opens for this thread: the PMU test
 * that works in VMs (where libpfm4 may claim a PMU that is not there).
 */
static json_t *hardware_pmu_json(void)
{
    struct perf_event_attr a;
    long fd;
    int e;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd >= 0) {
        close((int)fd);
        return json_pack("{s:b, s:n}", "available", 1, "reason");
    }
    e = errno;
    return json_pack("{s:b, s:s}", "available", 0, "reason",
                     e == ENOENT || e == EOPNOTSUPP
                     ? "no hardware PMU (a VM without PMU passthrough?)"
                     : e == EACCES || e == EPERM
                     ? "not permitted: lower /proc/sys/kernel/perf_event_paranoid or grant CAP_PERFMON"
                     : strerror(e));
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
    json_object_set_new(env, "cpu_model", cpu_model_json());
    json_object_set_new(env, "governor", read_line_json(
        "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    /* boost: 1 = on (acpi-cpufreq/amd), or intel_pstate's no_turbo inverted */
    {
        json_t *b = read_line_json("/sys/devices/system/cpu/cpufreq/boost");

        if (json_is_null(b)) {
            json_t *nt = read_line_json("/sys/devices/system/cpu/intel_pstate/no_turbo");

            if (json_is_string(nt))
                b = json_string(strcmp(json_string_value(nt), "0") == 0 ? "1" : "0");
            json_decref(nt);
        }
        json_object_set_new(env, "boost", b);
    }
    json_object_set_new(env, "hardware_pmu", hardware_pmu_json());
    if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0)
        json_object_set_new(env, "perf_event_paranoid", json_integer(paranoid));
    else
        json_object_set_new(env, "perf_event_paranoid", json_null());
    return env;
}
