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
 *           per op (the stop word is checked once per batch of ops).
 *   DRAIN   a worker that closed its window keeps running ops, uncounted,
 *           until every worker has closed its own: the load stays on until
 *           the last window ends.
 *   DONE    workers leave.
 *
 * --compat brings back the peer harness's artefacts, on purpose and one
 * by one, so each one's effect can be measured: a gettimeofday per op,
 * no barrier (and so no warm-up), a deadline fixed before the threads
 * start, counts[id]++ in one unpadded array.
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
#include <sys/time.h>

#define RCUPROF_WARM_OPS 64

/* PH_EDGE: the run's window is about to open; every worker waits at the
 * edge while the main thread's run_window(1) reads process-wide figures. */
enum phase { PH_WARMUP, PH_EDGE, PH_WINDOW, PH_DRAIN, PH_DONE };

/* Read by every worker once per batch: alone on its line, written 5 times.
 * done mirrors phase == PH_DONE for run->stopping (rcuprof_run_stopping). */
static struct {
    _Alignas(RCUPROF_CACHELINE) _Atomic int phase;
    _Atomic int done;
} g_phase;

/* Written once per worker: kept away from the phase word. */
static struct {
    _Alignas(RCUPROF_CACHELINE) _Atomic unsigned warm;
    _Atomic unsigned parked;    /* workers waiting at the window's edge */
    _Atomic unsigned opened;    /* workers whose window has opened */
    _Atomic unsigned closed;
    _Atomic int failed;
} g_sync;

static pthread_barrier_t g_start;

/* Per-worker window edges, read by the main thread after join. */
struct window_times {
    uint64_t start_ns, end_ns;
};
static struct window_times *g_times;

/* --compat perftools: the peer's shared state, unpadded on purpose. */
static struct {
    size_t *counts;             /* counts[id]++ on every op */
    struct timeval deadline;    /* set before the threads start */
} g_compat;

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000ull),
                           (long)(ns % 1000000000ull) };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void set_phase(int ph)
{
    if (ph == PH_DONE)
        atomic_store(&g_phase.done, 1);
    atomic_store(&g_phase.phase, ph);
}

/* from -> to, unless the run has moved on (a failure set PH_DONE). */
static int advance_phase(int from, int to)
{
    return atomic_compare_exchange_strong(&g_phase.phase, &from, to);
}

/* A worker's wait at an edge: short sleeps, so that under oversubscription
 * the threads still on their way there get the CPUs.  Until the phase is
 * no longer ph (ph >= 0), or until PH_DONE (ph < 0). */
static void park_while(int ph)
{
    int now;

    while ((now = atomic_load(&g_phase.phase)) != PH_DONE
           && (ph < 0 || now == ph))
        sleep_ns(20000);
}

int rcuprof_run_add_tool(struct rcuprof_run *run, struct rcuprof_tool *tool)
{
    if (run->ntools == RCUPROF_TOOLS_MAX)
        return -1;
    run->tools[run->ntools++] = tool;
    return 0;
}

/* Every registered tool T whose callback CB is set, in registration order. */
#define EACH_TOOL(run, t, cb) \
    for (unsigned t##_i = 0; t##_i < (run)->ntools; t##_i++) \
        if ((t = (run)->tools[t##_i])->cb != NULL)

/* after_pin (barrier 0) or before_barrier (1) of every tool; -1 at the
 * first that fails, its message in err. */
static int tools_worker_setup(struct rcuprof_worker *w, int barrier,
                              char *err, size_t n)
{
    struct rcuprof_run *run = w->run;
    struct rcuprof_tool *t;
    unsigned i;

    for (i = 0; i < run->ntools; i++) {
        t = run->tools[i];
        if (!barrier && t->after_pin != NULL
            && t->after_pin(t, &run->view, w->id, err, n) != 0)
            return -1;
        if (barrier && t->before_barrier != NULL
            && t->before_barrier(t, &run->view, w->id, err, n) != 0)
            return -1;
    }
    return 0;
}

static void tools_window(struct rcuprof_worker *w, int start)
{
    struct rcuprof_run *run = w->run;
    struct rcuprof_tool *t;

    if (start) {
        EACH_TOOL(run, t, window_start)
            t->window_start(t, &run->view, w->id);
    } else {
        EACH_TOOL(run, t, window_end)
            t->window_end(t, &run->view, w->id);
    }
}

/* The run's window opens or closes: main thread (churn counts its writes,
 * the sampler enables the writers' events). */
static void tools_run_window(struct rcuprof_run *run, int open)
{
    struct rcuprof_tool *t;

    EACH_TOOL(run, t, run_window)
        t->run_window(t, &run->view, open);
}

static void fail_run(struct rcuprof_worker *w, const char *msg)
{
    int expected = 0;

    if (atomic_compare_exchange_strong(&g_sync.failed, &expected, 1)) {
        snprintf(w->run->error, sizeof(w->run->error), "%s", msg);
        w->run->failed_thread = w->id;
    }
    w->slot->failed = 1;
    set_phase(PH_DONE);
}

/* n ops, batched if the workload can; 0 or -1 (failure reported). */
static int do_ops(struct rcuprof_worker *w, uint64_t n, char *err, size_t len)
{
    const struct rcuprof_workload *wl = w->run->workload;
    uint64_t i;

    if (wl->batch != NULL) {
        if (wl->batch(w, n, err, len) == 0)
            return 0;
    } else {
        for (i = 0; i < n; i++)
            if (wl->op(w, err, len) != 0)
                goto failed;
        return 0;
    }
 failed:
    fail_run(w, err);
    return -1;
}

static int in_phase(int ph)
{
    return atomic_load_explicit(&g_phase.phase, memory_order_relaxed) == ph;
}

static void *worker_main(void *arg)
{
    struct rcuprof_worker *w = arg;
    struct rcuprof_run *run = w->run;
    const struct rcuprof_workload *wl = run->workload;
    char err[512] = "";
    uint64_t ops = 0, warm = 0, target = run->cfg.ops;
    uint64_t b = wl->batch_ops != 0 ? wl->batch_ops : 1;
    unsigned cx = run->cfg.compat;
    uint64_t t0, t1, c0, c1;
    struct rcuprof_sched_sample s0, s1;
    int cpu0, cpu1, ok = 1;

    w->tid = (pid_t)syscall(SYS_gettid);
    if (run->plan != NULL
        && rcuprof_placement_pin_thread(run->plan, w->id, err, sizeof(err)) != 0)
        ok = 0;
    if (ok && tools_worker_setup(w, 0, err, sizeof(err)) != 0)
        ok = 0;
    if (ok && wl->thread_init != NULL && wl->thread_init(w, err, sizeof(err)))
        ok = 0;
    if (ok && tools_worker_setup(w, 1, err, sizeof(err)) != 0)
        ok = 0;
    if (!ok)
        fail_run(w, err);

    if (!(cx & RCUPROF_COMPAT_NOBARRIER)) {
        w->slot->arrive_ns = rcuprof_time_ns(CLOCK_MONOTONIC);
        pthread_barrier_wait(&g_start);
    }
    w->slot->first_op_ns = rcuprof_time_ns(CLOCK_MONOTONIC);

    while (in_phase(PH_WARMUP)) {
        if (do_ops(w, b, err, sizeof(err)) != 0)
            break;
        warm += b;
        if (warm >= RCUPROF_WARM_OPS && warm - b < RCUPROF_WARM_OPS)
            atomic_fetch_add(&g_sync.warm, 1);
    }
    if (warm < RCUPROF_WARM_OPS)
        atomic_fetch_add(&g_sync.warm, 1);  /* count once, even if cut short */
    /* The run's window opens while every worker is here: the process-wide
     * reads of run_window(1) (the library's delay-site counters) then hold
     * every warm-up op and none of a window's. */
    if (in_phase(PH_EDGE)) {
        atomic_fetch_add(&g_sync.parked, 1);
        if (!wl->coupled)
            park_while(PH_EDGE);
        else    /* the partner's op waits for ours: run on to the window */
            while (in_phase(PH_EDGE))
                if (do_ops(w, b, err, sizeof(err)) != 0)
                    break;
    }

    if (in_phase(PH_WINDOW)) {
        rcuprof_sched_sample_self(&s0);
        tools_window(w, 1);
        cpu0 = sched_getcpu();
        c0 = rcuprof_time_ns(CLOCK_THREAD_CPUTIME_ID);
        t0 = rcuprof_time_ns(CLOCK_MONOTONIC);
        atomic_fetch_add(&g_sync.opened, 1);
        if (cx != 0) {
            /* The peer's loop: op, shared count, clock, deadline. */
            struct timeval now;

            for (;;) {
                if (wl->op(w, err, sizeof(err)) != 0) {
                    fail_run(w, err);
                    break;
                }
                ops++;
                if (cx & RCUPROF_COMPAT_UNPADDED)
                    g_compat.counts[w->id]++;
                if (cx & RCUPROF_COMPAT_CLOCK) {
                    gettimeofday(&now, NULL);
                    if (!timercmp(&now, &g_compat.deadline, <))
                        break;
                } else if (!in_phase(PH_WINDOW)) {
                    break;
                }
            }
        } else if (target != 0) {
            while (ops < target) {
                uint64_t k = target - ops < b ? target - ops : b;

                if (do_ops(w, k, err, sizeof(err)) != 0)
                    break;
                ops += k;
            }
        } else {
            while (in_phase(PH_WINDOW)) {
                if (do_ops(w, b, err, sizeof(err)) != 0)
                    break;
                ops += b;
            }
        }
        t1 = rcuprof_time_ns(CLOCK_MONOTONIC);
        c1 = rcuprof_time_ns(CLOCK_THREAD_CPUTIME_ID);
        cpu1 = sched_getcpu();
        tools_window(w, 0);
        rcuprof_sched_sample_self(&s1);

        /* The one store of this worker's results. */
        w->slot->ops = ops;
        w->slot->window_ns = t1 - t0;
        w->slot->cpu_ns = c1 - c0;
        w->slot->cpu_start = cpu0;
        w->slot->cpu_end = cpu1;
#define DELTA(f) (s0.f >= 0 && s1.f >= 0 ? s1.f - s0.f : -1)
        w->slot->vcsw = DELTA(vcsw);
        w->slot->ivcsw = DELTA(ivcsw);
        w->slot->migrations = DELTA(migrations);
        w->slot->runq_ns = DELTA(runq_ns);
#undef DELTA
        g_times[w->id].start_ns = t0;
        g_times[w->id].end_ns = t1;
    }
    atomic_fetch_add(&g_sync.closed, 1);

    if (target != 0 || wl->coupled) {
        /* --ops: windows end one by one; keep the load on until every
         * window has closed (run_window(0) then counts this tail too).
         * A coupled workload's partner may still be in its window. */
        while (!in_phase(PH_DONE))
            if (do_ops(w, b, err, sizeof(err)) != 0)
                break;
    } else {
        /* Timed: every window closes within a batch of PH_DRAIN (or at
         * its own deadline, --compat clock); wait idle until the end, so
         * that run_window(0) counts no op after a window. */
        park_while(-1);
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

/* Set the --compat deadline: now + the window. */
static void set_deadline(const struct rcuprof_run *run)
{
    struct timeval now, dur = { (time_t)(run->cfg.duration_ms / 1000),
                                (suseconds_t)(run->cfg.duration_ms % 1000) * 1000 };

    gettimeofday(&now, NULL);
    timeradd(&now, &dur, &g_compat.deadline);
}

/* Until the deadline (gettimeofday clock), in short sleeps. */
static void sleep_until_deadline(void)
{
    struct timeval now, left;

    for (;;) {
        gettimeofday(&now, NULL);
        if (!timercmp(&now, &g_compat.deadline, <))
            return;
        timersub(&g_compat.deadline, &now, &left);
        sleep_ns((uint64_t)left.tv_sec * 1000000000ull
                 + (uint64_t)left.tv_usec * 1000ull);
    }
}

int rcuprof_harness_run(struct rcuprof_run *run)
{
    unsigned n = run->cfg.threads, i, started = 0;
    unsigned cx = run->cfg.compat;
    int barrier = !(cx & RCUPROF_COMPAT_NOBARRIER);
    pthread_t *tids;
    pthread_attr_t attr;
    uint64_t first = UINT64_MAX, last = 0, t;

    run->slots = aligned_alloc(RCUPROF_CACHELINE,
                               sizeof(*run->slots) * (size_t)n);
    run->workers = calloc(n, sizeof(*run->workers));
    g_times = calloc(n, sizeof(*g_times));
    tids = calloc(n, sizeof(*tids));
    run->ops = calloc(n, sizeof(*run->ops));
    g_compat.counts = calloc(n, sizeof(size_t));    /* unpadded on purpose */
    if (run->slots == NULL || run->workers == NULL || g_times == NULL
        || tids == NULL || run->ops == NULL || g_compat.counts == NULL) {
        snprintf(run->error, sizeof(run->error), "out of memory for %u threads", n);
        return RCUPROF_EXIT_SYSTEM;
    }
    memset(run->slots, 0, sizeof(*run->slots) * (size_t)n);
    /* -1 until the worker's window opens: a worker that never got there
     * (late on a loaded machine) ran on no CPU the window can speak of. */
    for (t = 0; t < n; t++)
        run->slots[t].cpu_start = run->slots[t].cpu_end = -1;
    run->stopping = &g_phase.done;
    /* Without a barrier there is no warm-up either: threads start counting
     * as they are created, as the peer harness does. */
    set_phase(barrier ? PH_WARMUP : PH_WINDOW);
    if (barrier && pthread_barrier_init(&g_start, NULL, n + 1) != 0) {
        snprintf(run->error, sizeof(run->error), "pthread_barrier_init failed");
        return RCUPROF_EXIT_SYSTEM;
    }
    if (cx & RCUPROF_COMPAT_EARLY_DEADLINE)
        set_deadline(run);
    run->start_realtime_ns = rcuprof_time_real_ns();
    if (!barrier)
        tools_run_window(run, 1);

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
         * portably: report; the process exits. */
        snprintf(run->error, sizeof(run->error),
                 "could only create %u of %u threads: lower --threads or raise the limits (ulimit -u)",
                 started, n);
        fflush(NULL);
        return RCUPROF_EXIT_SYSTEM;
    }

    if (!barrier && !(cx & RCUPROF_COMPAT_EARLY_DEADLINE))
        set_deadline(run);      /* the threads are already counting */
    if (barrier) {
        uint64_t w0;

        pthread_barrier_wait(&g_start);
        w0 = rcuprof_time_ns(CLOCK_MONOTONIC);
        sleep_ns(run->cfg.warmup_ms * 1000000ull);
        /* Every worker must be warm: under oversubscription this can take
         * far longer than --warmup-ms, and the result says how long. */
        wait_until(&g_sync.warm, n);
        run->warmup_ns = rcuprof_time_ns(CLOCK_MONOTONIC) - w0;
    }
    if (atomic_load(&g_phase.phase) != PH_DONE) {
        if (barrier && advance_phase(PH_WARMUP, PH_EDGE)) {
            wait_until(&g_sync.parked, n);
            /* --compat clock: the workers read the deadline from their
             * first op, so it is set before they are released. */
            if ((cx & RCUPROF_COMPAT_CLOCK)
                && !(cx & RCUPROF_COMPAT_EARLY_DEADLINE))
                set_deadline(run);
            tools_run_window(run, 1);
            advance_phase(PH_EDGE, PH_WINDOW);
            /* Else the duration runs from the last worker's start: on a
             * loaded machine a worker woken late still gets a whole
             * window. */
            if (!(cx & (RCUPROF_COMPAT_EARLY_DEADLINE | RCUPROF_COMPAT_CLOCK))) {
                wait_until(&g_sync.opened, n);
                set_deadline(run);
            }
        }
        if (run->cfg.ops == 0) {
            int expected = PH_WINDOW;

            /* The deadline: after the barrier, or (early-deadline) fixed
             * before the threads were created. */
            sleep_until_deadline();
            atomic_compare_exchange_strong(&g_phase.phase, &expected,
                                           PH_DRAIN);
        }
        wait_until(&g_sync.closed, n);
        tools_run_window(run, 0);
    }
    set_phase(PH_DONE);
    for (i = 0; i < n; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    if (barrier)
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
    for (i = 0; i < n; i++)
        run->ops[i] = run->slots[i].ops;
    run->view.ops = run->ops;
    return 0;
}

json_t *rcuprof_harness_json(const struct rcuprof_run *run)
{
    unsigned cx = run->cfg.compat;
    int aligned = 1;
    unsigned i;

    for (i = 0; i < run->cfg.threads; i++)
        if ((uintptr_t)&run->slots[i] % RCUPROF_CACHELINE != 0)
            aligned = 0;
    return json_pack("{s:s, s:b, s:b, s:b, s:b, s:i, s:b, s:i, s:i}",
                     "mode", cx == 0 ? "rcuprof"
                     : cx == RCUPROF_COMPAT_PERFTOOLS ? "perftools" : "mixed",
                     "start_barrier", !(cx & RCUPROF_COMPAT_NOBARRIER),
                     "warmup", !(cx & RCUPROF_COMPAT_NOBARRIER),
                     "deadline_after_barrier",
                     !(cx & (RCUPROF_COMPAT_EARLY_DEADLINE | RCUPROF_COMPAT_NOBARRIER)),
                     "clock_per_op", (cx & RCUPROF_COMPAT_CLOCK) != 0,
                     "count_stride_bytes", (cx & RCUPROF_COMPAT_UNPADDED)
                     ? (int)sizeof(size_t) : (int)sizeof(struct rcuprof_slot),
                     "counts_padded", (cx & RCUPROF_COMPAT_UNPADDED) ? 0 : aligned,
                     "batch_ops", cx != 0 ? 1
                     : (int)(run->workload->batch_ops ? run->workload->batch_ops : 1),
                     "warm_ops", RCUPROF_WARM_OPS);
}
