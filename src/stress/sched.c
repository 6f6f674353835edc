/*
 * What the scheduler and the machine did to a run: per-thread context
 * switches, migrations and run-queue delay; steal time; and the round trip
 * of one cache line between two CPUs (on the VMs here it jumps between about
 * 70 and 320 ns as the host moves virtual CPUs, so each run carries the
 * state it ran in).
 */
#define _GNU_SOURCE
#include "stress.h"

#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Read a small /proc file into buf without allocating (window edges). */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t len;

    if (fd < 0)
        return -1;
    len = read(fd, buf, n - 1);
    close(fd);
    if (len >= 0)
        buf[len] = '\0';
    return len;
}

void rcuprof_sched_sample_self(struct rcuprof_sched_sample *s)
{
    struct rusage ru;
    char buf[4096];
    const char *p;
    unsigned long long a, b;

    s->vcsw = s->ivcsw = s->migrations = s->runq_ns = -1;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        s->vcsw = ru.ru_nvcsw;
        s->ivcsw = ru.ru_nivcsw;
    }
    /* Second field: ns spent runnable on a run queue, waiting for a CPU. */
    if (read_small("/proc/thread-self/schedstat", buf, sizeof(buf)) > 0
        && sscanf(buf, "%llu %llu", &a, &b) == 2)
        s->runq_ns = (int64_t)b;
    /* Only with CONFIG_SCHED_DEBUG; absent means unknown, not zero. */
    if (read_small("/proc/thread-self/sched", buf, sizeof(buf)) > 0
        && (p = strstr(buf, "se.nr_migrations")) != NULL
        && (p = strchr(p, ':')) != NULL && sscanf(p + 1, "%llu", &a) == 1)
        s->migrations = (int64_t)a;
}

int64_t rcuprof_steal_ticks(void)
{
    char buf[512];
    unsigned long long v[8];

    if (read_small("/proc/stat", buf, sizeof(buf)) <= 0
        || sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
                  &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
        return -1;
    return (int64_t)v[7];
}

/* One line, bounced: odd values are the caller's, even the helper's. */
struct rtt_line {
    _Alignas(RCUPROF_CACHELINE) _Atomic uint64_t seq;
    _Alignas(RCUPROF_CACHELINE) _Atomic int abort;
    unsigned iters;
    int cpu;
};

static int pin_self(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *rtt_helper(void *arg)
{
    struct rtt_line *l = arg;
    uint64_t i;

    if (pin_self(l->cpu) != 0) {
        atomic_store(&l->abort, 1);
        return NULL;
    }
    for (i = 0; i < l->iters; i++) {
        uint64_t want = 2 * i + 1;

        while (atomic_load_explicit(&l->seq, memory_order_acquire) != want)
            if (atomic_load_explicit(&l->abort, memory_order_relaxed))
                return NULL;
        atomic_store_explicit(&l->seq, want + 1, memory_order_release);
    }
    return NULL;
}

double rcuprof_line_rtt_ns(int cpu_a, int cpu_b, unsigned iters)
{
    struct rtt_line *l = aligned_alloc(RCUPROF_CACHELINE, sizeof(*l));
    cpu_set_t saved;
    pthread_t th;
    uint64_t t0, t1, i, limit;
    double res = -1;

    if (l == NULL || cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b) {
        free(l);
        return -1;
    }
    memset(l, 0, sizeof(*l));
    l->iters = iters;
    l->cpu = cpu_b;
    if (pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) != 0
        || pin_self(cpu_a) != 0) {
        free(l);
        return -1;
    }
    if (pthread_create(&th, NULL, rtt_helper, l) != 0)
        goto out;
    t0 = rcuprof_time_mono_ns();
    limit = t0 + 2000000000ull;     /* a stuck helper costs 2 s, not a hang */
    for (i = 0; i < iters; i++) {
        uint64_t want = 2 * i + 2;
        unsigned spins = 0;

        atomic_store_explicit(&l->seq, want - 1, memory_order_release);
        while (atomic_load_explicit(&l->seq, memory_order_acquire) != want) {
            if (atomic_load_explicit(&l->abort, memory_order_relaxed)
                || ((++spins & 0xffff) == 0 && rcuprof_time_mono_ns() > limit)) {
                atomic_store(&l->abort, 1);
                pthread_join(th, NULL);
                goto out;
            }
        }
    }
    t1 = rcuprof_time_mono_ns();
    pthread_join(th, NULL);
    res = (double)(t1 - t0) / iters;
 out:
    pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
    free(l);
    return res;
}
