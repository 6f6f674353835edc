/*
 * The harness: threads, barriers, the timed window.
 *
 * Phases, driven by the main thread through one read-mostly word:
 *   WARMUP  workers run ops uncounted; each says "warm" after its first
 *           RCUPROF_WARM_OPS ops.  The window opens only when every worker
 *           is warm and --warmup-ms has passed, so a late-scheduled thread
 *           (oversubscription) does not start cold inside the window.
 *   WINDOW  workers count ops in a local; the deadline is the main
 *           thread's, taken after the barrier, so no worker reads a clock
 *           per op.
 *   DRAIN   a worker that closed its window keeps running ops, uncounted,
 *           until every worker has closed its own: the load stays on until
 *           the last window ends.
 *   DONE    workers leave.
 */
#define _GNU_SOURCE
#include "stress.h"
#include "rcuprof_placement.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#define RCUPROF_WARM_OPS 64

enum phase { PH_WARMUP, PH_WINDOW, PH_DRAIN, PH_DONE };

/* Read by every worker on every op: alone on its line, written 3 times. */
static struct {
    _Alignas(RCUPROF_CACHELINE) _Atomic int phase;
} g_phase;

/* Written once per worker: kept away from the phase word. */
static struct {
    _Alignas(RCUPROF_CACHELINE) _Atomic unsigned warm;
    _Atomic unsigned closed;
    _Atomic int failed;
} g_sync;

static pthread_barrier_t g_start;

static uint64_t now_ns(clockid_t c)
{
    struct timespec ts;

    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000ull),
                           (long)(ns % 1000000000ull) };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void fail_run(struct rcuprof_worker *w, const char *msg)
{
    int expected = 0;

    if (atomic_compare_exchange_strong(&g_sync.failed, &expected, 1)) {
        snprintf(w->run->error, sizeof(w->run->error), "%s", msg);
        w->run->failed_thread = w->id;
    }
    w->slot->failed = 1;
    atomic_store(&g_phase.phase, PH_DONE);
}

/* Per-worker window bookkeeping the main thread reads after join. */
struct window_times {
    uint64_t start_ns, end_ns;
};
static struct window_times *g_times;

static void *worker_main(void *arg)
{
    struct rcuprof_worker *w = arg;
    struct rcuprof_run *run = w->run;
    const struct rcuprof_workload *wl = run->workload;
    char err[512] = "";
    uint64_t ops = 0, warm = 0, target = run->cfg.ops;
    uint64_t t0, t1, c0, c1;
    int cpu0, cpu1, ok = 1;
    unsigned h;

    w->tid = (pid_t)syscall(SYS_gettid);
    if (run->plan != NULL
        && rcuprof_placement_pin_thread(run->plan, w->id, err, sizeof(err)) != 0)
        ok = 0;
    for (h = 0; h < run->nhooks && ok; h++)
        if (run->hooks[h]->after_pin != NULL
            && run->hooks[h]->after_pin(w, err, sizeof(err)) != 0)
            ok = 0;
    if (ok && wl->thread_init != NULL && wl->thread_init(w, err, sizeof(err)))
        ok = 0;
    for (h = 0; h < run->nhooks && ok; h++)
        if (run->hooks[h]->before_barrier != NULL
            && run->hooks[h]->before_barrier(w, err, sizeof(err)) != 0)
            ok = 0;
    if (!ok)
        fail_run(w, err);

    pthread_barrier_wait(&g_start);

    while (atomic_load_explicit(&g_phase.phase, memory_order_relaxed)
           == PH_WARMUP) {
        if (wl->op(w, err, sizeof(err)) != 0) {
            fail_run(w, err);
            break;
        }
        if (++warm == RCUPROF_WARM_OPS)
            atomic_fetch_add(&g_sync.warm, 1);
    }
    if (warm < RCUPROF_WARM_OPS)
        atomic_fetch_add(&g_sync.warm, 1);  /* count once, even if cut short */

    if (atomic_load(&g_phase.phase) == PH_WINDOW) {
        for (h = 0; h < run->nhooks; h++)
            if (run->hooks[h]->window_start != NULL)
                run->hooks[h]->window_start(w);
        cpu0 = sched_getcpu();
        c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        t0 = now_ns(CLOCK_MONOTONIC);
        if (target != 0) {
            while (ops < target) {
                if (wl->op(w, err, sizeof(err)) != 0) {
                    fail_run(w, err);
                    break;
                }
                ops++;
            }
        } else {
            while (atomic_load_explicit(&g_phase.phase, memory_order_relaxed)
                   == PH_WINDOW) {
                if (wl->op(w, err, sizeof(err)) != 0) {
                    fail_run(w, err);
                    break;
                }
                ops++;
            }
        }
        t1 = now_ns(CLOCK_MONOTONIC);
        c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        cpu1 = sched_getcpu();
        for (h = 0; h < run->nhooks; h++)
            if (run->hooks[h]->window_end != NULL)
                run->hooks[h]->window_end(w);

        /* The one store of this worker's results. */
        w->slot->ops = ops;
        w->slot->window_ns = t1 - t0;
        w->slot->cpu_ns = c1 - c0;
        w->slot->cpu_start = cpu0;
        w->slot->cpu_end = cpu1;
        g_times[w->id].start_ns = t0;
        g_times[w->id].end_ns = t1;
    }
    atomic_fetch_add(&g_sync.closed, 1);

    /* Keep the load on until every window has closed. */
    while (atomic_load_explicit(&g_phase.phase, memory_order_relaxed)
           < PH_DONE) {
        if (wl->op(w, err, sizeof(err)) != 0)
            break;
    }
    if (wl->thread_done != NULL)
        wl->thread_done(w);
    return NULL;
}

static void wait_until(_Atomic unsigned *ctr, unsigned n)
{
    while (atomic_load(ctr) < n && atomic_load(&g_phase.phase) != PH_DONE)
        sleep_ns(100000);
}

int rcuprof_harness_run(struct rcuprof_run *run)
{
    unsigned n = run->cfg.threads, i, started = 0;
    pthread_t *tids;
    pthread_attr_t attr;
    struct timespec rt;
    uint64_t first = UINT64_MAX, last = 0, t;
    int rc = 0;

    run->slots = aligned_alloc(RCUPROF_CACHELINE,
                               sizeof(*run->slots) * (size_t)n);
    run->workers = calloc(n, sizeof(*run->workers));
    g_times = calloc(n, sizeof(*g_times));
    tids = calloc(n, sizeof(*tids));
    if (run->slots == NULL || run->workers == NULL || g_times == NULL
        || tids == NULL) {
        snprintf(run->error, sizeof(run->error), "out of memory for %u threads", n);
        return RCUPROF_EXIT_SYSTEM;
    }
    memset(run->slots, 0, sizeof(*run->slots) * (size_t)n);
    atomic_store(&g_phase.phase, PH_WARMUP);
    if (pthread_barrier_init(&g_start, NULL, n + 1) != 0) {
        snprintf(run->error, sizeof(run->error), "pthread_barrier_init failed");
        return RCUPROF_EXIT_SYSTEM;
    }
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);
    for (i = 0; i < n; i++) {
        run->workers[i].id = i;
        run->workers[i].run = run;
        run->workers[i].slot = &run->slots[i];
        if (pthread_create(&tids[i], &attr, worker_main, &run->workers[i]) != 0)
            break;
        started++;
    }
    pthread_attr_destroy(&attr);
    if (started < n) {
        /* Threads already waiting at the barrier cannot be released
         * portably: report and leave; the process exits. */
        snprintf(run->error, sizeof(run->error),
                 "could only create %u of %u threads: lower --threads or raise the limits (ulimit -u)",
                 started, n);
        fflush(NULL);
        return RCUPROF_EXIT_SYSTEM;
    }

    pthread_barrier_wait(&g_start);
    clock_gettime(CLOCK_REALTIME, &rt);
    run->start_realtime_ns = (int64_t)rt.tv_sec * 1000000000ll + rt.tv_nsec;

    sleep_ns(run->cfg.warmup_ms * 1000000ull);
    wait_until(&g_sync.warm, n);
    if (atomic_load(&g_phase.phase) == PH_WARMUP) {
        atomic_store(&g_phase.phase, PH_WINDOW);
        if (run->cfg.ops == 0) {
            sleep_ns(run->cfg.duration_ms * 1000000ull);
            int expected = PH_WINDOW;

            atomic_compare_exchange_strong(&g_phase.phase, &expected, PH_DRAIN);
        }
        wait_until(&g_sync.closed, n);
    }
    atomic_store(&g_phase.phase, PH_DONE);
    for (i = 0; i < n; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    pthread_barrier_destroy(&g_start);

    if (atomic_load(&g_sync.failed))
        return RCUPROF_EXIT_RUN;
    for (i = 0; i < n; i++) {
        t = g_times[i].start_ns;
        if (t != 0 && t < first)
            first = t;
        if (g_times[i].end_ns > last)
            last = g_times[i].end_ns;
    }
    run->wall_ns = last > first ? last - first : 0;
    return rc;
}
