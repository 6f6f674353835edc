/*
 * What the scheduler and the machine did to a run: per-thread context
 * switches, migrations and run-queue delay; steal time; and the round trip
 * of one cache line between two CPUs (on the VMs here it jumps between about
 * 70 and 320 ns as the host moves virtual CPUs, so each run carries the
 * state it ran in).
 */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <semaphore.h>
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
    _Atomic int started;        /* the helper runs on its CPU */
    sem_t up;                   /* posted with started */
    uint64_t helper_cpu_ns;     /* the helper's CPU time, at its end */
    uint64_t budget_ns;         /* 0, or the helper gives up 2 x this after
                                 * it starts (a caller off its CPU) */
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

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *rtt_helper_loop(struct rtt_line *l)
{
    uint64_t i, limit;
    unsigned spins = 0;

    if (pin_self(l->cpu) != 0) {
        atomic_store(&l->abort, 1);
        return NULL;
    }
    limit = l->budget_ns != 0 ? rcuprof_time_mono_ns() + 2 * l->budget_ns
                              : UINT64_MAX;
    atomic_store(&l->started, 1);
    sem_post(&l->up);
    for (i = 0; i < l->iters; i++) {
        uint64_t want = 2 * i + 1;

        while (atomic_load_explicit(&l->seq, memory_order_acquire) != want) {
            if (atomic_load_explicit(&l->abort, memory_order_relaxed))
                return NULL;
            /* A caller off its CPU must not keep this one spinning. */
            if ((++spins & 0x3ff) == 0 && rcuprof_time_mono_ns() > limit) {
                atomic_store(&l->abort, 1);
                return NULL;
            }
        }
        atomic_store_explicit(&l->seq, want + 1, memory_order_release);
    }
    return NULL;
}

static void *rtt_helper(void *arg)
{
    struct rtt_line *l = arg;

    rtt_helper_loop(l);
    l->helper_cpu_ns = thread_cpu_ns();     /* read after the join */
    return NULL;
}

/* Block (neither spin nor poll) until the helper runs on its CPU, at
 * most wait_ns; 0 when it does. */
static int wait_started(struct rtt_line *l, uint64_t wait_ns)
{
    struct timespec ts;
    uint64_t ns;

    clock_gettime(CLOCK_REALTIME, &ts);
    ns = (uint64_t)ts.tv_nsec + wait_ns;
    ts.tv_sec += (time_t)(ns / 1000000000ull);
    ts.tv_nsec = (long)(ns % 1000000000ull);
    while (sem_timedwait(&l->up, &ts) != 0)
        if (errno != EINTR)
            return -1;
    return atomic_load(&l->started) ? 0 : -1;
}

/*
 * Time nchunks chunks of per round trips each between cpu_a (the caller,
 * pinned there for the call) and cpu_b (a helper thread); chunk[i] is the
 * mean round trip of chunk i in ns.  budget_ns 0: the helper may take up
 * to 2 s; else the caller sleeps until the helper runs and gives up when
 * that takes longer than 10 x budget_ns (sleeping costs no CPU) or the
 * bounces longer than budget_ns.  *cpu_ns (when not NULL): the CPU time
 * the caller and the helper used for it.  0, or -1 when it cannot (bad
 * CPUs, no thread, a helper stuck past the limit).
 */
static int line_rtt_chunks(int cpu_a, int cpu_b, unsigned nchunks,
                           unsigned per, double *chunk, uint64_t budget_ns,
                           uint64_t *cpu_ns)
{
    struct rtt_line *l = aligned_alloc(RCUPROF_CACHELINE, sizeof(*l));
    cpu_set_t saved;
    pthread_t th;
    uint64_t t0, i, limit;
    int rc = -1;

    if (l == NULL || cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b || per == 0) {
        free(l);
        return -1;
    }
    memset(l, 0, sizeof(*l));
    if (sem_init(&l->up, 0, 0) != 0) {
        free(l);
        return -1;
    }
    l->iters = nchunks * per;
    l->cpu = cpu_b;
    l->budget_ns = budget_ns;
    if (pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) != 0
        || pin_self(cpu_a) != 0) {
        sem_destroy(&l->up);
        free(l);
        return -1;
    }
    if (cpu_ns != NULL)
        *cpu_ns = thread_cpu_ns();
    if (pthread_create(&th, NULL, rtt_helper, l) != 0)
        goto out;
    if (budget_ns != 0 && wait_started(l, 10 * budget_ns) != 0) {
        atomic_store(&l->abort, 1);
        pthread_join(th, NULL);
        goto out;
    }
    t0 = rcuprof_time_mono_ns();
    /* a stuck helper costs 2 s (or the budget), not a hang */
    limit = t0 + (budget_ns != 0 ? budget_ns : 2000000000ull);
    for (i = 0; i < l->iters; i++) {
        uint64_t want = 2 * i + 2;
        unsigned spins = 0;

        atomic_store_explicit(&l->seq, want - 1, memory_order_release);
        while (atomic_load_explicit(&l->seq, memory_order_acquire) != want) {
            if (atomic_load_explicit(&l->abort, memory_order_relaxed)
                || ((++spins & 0x3ff) == 0 && rcuprof_time_mono_ns() > limit)) {
                atomic_store(&l->abort, 1);
                pthread_join(th, NULL);
                goto out;
            }
        }
        if ((i + 1) % per == 0) {
            uint64_t t1 = rcuprof_time_mono_ns();

            chunk[i / per] = (double)(t1 - t0) / per;
            t0 = t1;
        }
    }
    pthread_join(th, NULL);
    rc = 0;
 out:
    if (cpu_ns != NULL)
        *cpu_ns = thread_cpu_ns() - *cpu_ns + l->helper_cpu_ns;
    pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
    sem_destroy(&l->up);
    free(l);
    return rc;
}

double rcuprof_line_rtt_ns(int cpu_a, int cpu_b, unsigned iters)
{
    double mean;

    return line_rtt_chunks(cpu_a, cpu_b, 1, iters, &mean, 0, NULL) == 0
           ? mean : -1;
}

/* ---- the round trip inside the window ---------------------------------- */

/*
 * A low-rate probe pair: one thread that sleeps, and every every_ms while
 * the run's window is open times RTT_CHUNKS chunks of RTT_PER round trips
 * against a helper it starts on the second CPU, once the helper runs (it
 * sleeps until then); a sample is the median chunk, so a thread preempted
 * for a moment spoils one chunk, not the sample, and a sample whose
 * bounces take longer than RTT_BUDGET_NS (or whose helper waits ten times
 * that for its CPU, or is still spinning twice that after it started) is
 * null.
 * The window's edges come from the tool's run_window; the pair's own cost
 * is the CPU time the sampler and its helpers used for the bursts (their
 * thread CPU clocks) over the window's CPU time.
 */
#define RTT_CHUNKS 9
#define RTT_PER 32
#define RTT_MAX_SAMPLES 64
/* A sample gives up (null) when its bounces take longer than this (288 at
 * 670 ns take 0.2 ms), or its helper waits ten times as long for its CPU
 * (the sampler sleeps meanwhile). */
#define RTT_BUDGET_NS 500000ull

struct rcuprof_rtt_sampler {
    struct rcuprof_tool tool;
    int cpu[2];
    unsigned every_ms;
    pthread_t th;
    int started;
    _Atomic int open;           /* 0 before, 1 during, 2 after the window */
    _Atomic int stop;
    pthread_mutex_t mu;         /* with wake: _stop ends a sleep at once */
    pthread_cond_t wake;
    uint64_t open_ns;           /* written by run_window(1) before open */
    size_t n;
    double at_ms[RTT_MAX_SAMPLES], ns[RTT_MAX_SAMPLES];
    uint64_t cpu_ns;            /* the bursts' CPU time, both threads */
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Sleep until mono_ns on the monotonic clock, or until _stop. */
static void sleep_until(struct rcuprof_rtt_sampler *s, uint64_t mono_ns)
{
    struct timespec ts = { (time_t)(mono_ns / 1000000000ull),
                           (long)(mono_ns % 1000000000ull) };

    pthread_mutex_lock(&s->mu);
    while (!atomic_load(&s->stop) && rcuprof_time_mono_ns() < mono_ns)
        if (pthread_cond_timedwait(&s->wake, &s->mu, &ts) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&s->mu);
}

static void *rtt_sampler_main(void *arg)
{
    struct rcuprof_rtt_sampler *s = arg;
    uint64_t next = 0, period = (uint64_t)s->every_ms * 1000000ull;
    double chunk[RTT_CHUNKS];

    while (!atomic_load(&s->stop)) {
        int open = atomic_load(&s->open);
        uint64_t t0, t1, cpu = 0;

        if (open == 2 || s->n == RTT_MAX_SAMPLES)
            break;
        if (open == 0) {            /* wait for the window: 1 ms steps */
            sleep_until(s, rcuprof_time_mono_ns() + 1000000ull);
            continue;
        }
        if (next == 0)
            next = s->open_ns;
        sleep_until(s, next);
        if (atomic_load(&s->open) != 1)
            continue;
        t0 = rcuprof_time_mono_ns();
        s->at_ms[s->n] = (double)(t0 - s->open_ns) / 1e6;
        s->ns[s->n] = -1;
        if (line_rtt_chunks(s->cpu[0], s->cpu[1], RTT_CHUNKS, RTT_PER,
                            chunk, RTT_BUDGET_NS, &cpu) == 0) {
            qsort(chunk, RTT_CHUNKS, sizeof(chunk[0]), cmp_double);
            s->ns[s->n] = chunk[RTT_CHUNKS / 2];
        }
        t1 = rcuprof_time_mono_ns();
        s->cpu_ns += cpu;
        s->n++;
        next += period;
        if (next < t1)              /* a burst ran late: skip, not bunch */
            next = t1 + period - (t1 - next) % period;
    }
    return NULL;
}

static void rtt_run_window(struct rcuprof_tool *tool,
                           const struct rcuprof_run_view *run, int open)
{
    struct rcuprof_rtt_sampler *s =
        rcuprof_container_of(tool, struct rcuprof_rtt_sampler, tool);

    (void)run;
    if (open)
        s->open_ns = rcuprof_time_mono_ns();
    atomic_store(&s->open, open ? 1 : 2);
}

int rcuprof_rtt_sampler_start(struct rcuprof_run *run, int cpu_a, int cpu_b,
                              struct rcuprof_rtt_sampler **out)
{
    struct rcuprof_rtt_sampler *s;
    pthread_condattr_t ca;
    uint64_t dur = run->cfg.duration_ms;

    *out = NULL;
    if (cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b)
        return 0;
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return -1;
    s->cpu[0] = cpu_a;
    s->cpu[1] = cpu_b;
    /* About 8 samples a window: start, then every eighth; at least 20 ms
     * apart (50 ms when the window ends by --ops, its length unknown). */
    s->every_ms = run->cfg.ops != 0 || dur == 0 ? 50
                  : dur / 8 < 20 ? 20 : (unsigned)(dur / 8);
    s->tool.run_window = rtt_run_window;
    if (pthread_condattr_init(&ca) != 0) {
        free(s);
        return -1;
    }
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (rcuprof_run_add_tool(run, &s->tool) != 0
        || pthread_create(&s->th, NULL, rtt_sampler_main, s) != 0) {
        pthread_cond_destroy(&s->wake);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    s->started = 1;
    *out = s;
    return 0;
}

void rcuprof_rtt_sampler_stop(struct rcuprof_rtt_sampler *s)
{
    if (s == NULL || !s->started)
        return;
    pthread_mutex_lock(&s->mu);
    atomic_store(&s->stop, 1);
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->th, NULL);
    s->started = 0;
}

json_t *rcuprof_rtt_sampler_json(const struct rcuprof_rtt_sampler *s,
                                 uint64_t window_ns, unsigned cpus)
{
    json_t *at = json_array(), *ns = json_array();
    /* The pair runs on two CPUs, and those are the CPUs whose workers it
     * takes time from: the share is of them, not of every allowed CPU
     * (which would understate it 8x for 2 pinned threads on 16 CPUs). */
    double cap = (double)window_ns * (cpus < 2 ? cpus : 2);
    size_t i;

    for (i = 0; s != NULL && i < s->n; i++) {
        json_array_append_new(at, json_real(s->at_ms[i]));
        json_array_append_new(ns, s->ns[i] >= 0 ? json_real(s->ns[i])
                                                : json_null());
    }
    return json_pack("{s:I, s:i, s:o, s:o, s:I, s:o}",
                     "every_ms", (json_int_t)(s != NULL ? s->every_ms : 0),
                     "round_trips", RTT_CHUNKS * RTT_PER,
                     "at_ms", at, "ns", ns,
                     "cost_cpu_ns",
                     (json_int_t)(s != NULL ? s->cpu_ns : 0),
                     "cost_share", cap > 0 && s != NULL
                     ? json_real((double)s->cpu_ns / cap)
                     : json_null());
}

void rcuprof_rtt_sampler_free(struct rcuprof_rtt_sampler *s)
{
    if (s == NULL)
        return;
    rcuprof_rtt_sampler_stop(s);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
