/*
 * The driver's own delay sites (delay.h; docs/interfaces.md, section 3.4):
 * the timer's choice and calibration, the window hooks that take each
 * worker's counters at its window's edges, and run.delay.
 */
#define _GNU_SOURCE
#include "delay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
# include <cpuid.h>
#endif

/* rdtsc only where the TSC is invariant (CPUID 0x80000007, EDX bit 8):
 * it then ticks at one rate on every CPU, whatever the frequency. */
static int tsc_usable(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;

    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) == 0 || a < 0x80000007u)
        return 0;
    if (__get_cpuid(0x80000007u, &a, &b, &c, &d) == 0)
        return 0;
    return (d >> 8) & 1;
#else
    return 0;
#endif
}

/* Ticks per ns of the timer against CLOCK_MONOTONIC, over about 20 ms
 * (the best of 3 tries: the one whose clock reads were closest). */
static double calibrate(int tsc)
{
    double best = 0, best_gap = 1e30;
    unsigned r;

    if (!tsc)
        return 1.0;
    for (r = 0; r < 3; r++) {
        struct timespec ts = { 0, 20000000L };
        uint64_t m0, c0, m0b, m1, c1, m1b;

        m0 = rcuprof_time_mono_ns();
        c0 = rcuprof_dsite_now(1);
        m0b = rcuprof_time_mono_ns();
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        m1 = rcuprof_time_mono_ns();
        c1 = rcuprof_dsite_now(1);
        m1b = rcuprof_time_mono_ns();
        if (m1b - m1 + (m0b - m0) < best_gap && m1 > m0b) {
            best_gap = (double)(m1b - m1 + (m0b - m0));
            best = (double)(c1 - c0)
                   / ((double)(m1 + m1b) / 2 - (double)(m0 + m0b) / 2);
        }
    }
    return best > 0 ? best : 1.0;
}

/* The least back-to-back pair of timer reads: what every timed wait holds
 * besides its loop, subtracted from it. */
static uint64_t pair_cost(int tsc)
{
    uint64_t best = UINT64_MAX, a, b;
    int i;

    for (i = 0; i < 2000; i++) {
        a = rcuprof_dsite_now(tsc);
        b = rcuprof_dsite_now(tsc);
        if (b - a < best)
            best = b - a;
    }
    return best == UINT64_MAX ? 0 : best;
}

static struct rcuprof_dsite *dsite_of(struct rcuprof_tool *tool)
{
    return rcuprof_container_of(tool, struct rcuprof_dsite, tool);
}

/* A worker's counters now, into one edge of its window. */
static void snap(const struct rcuprof_dsite_thread *t, uint64_t *calls,
                 uint64_t *passes, uint64_t *timed, uint64_t *ticks)
{
    *calls = t->calls;
    *passes = t->passes;
    *timed = t->timed;
    *ticks = t->delay_ticks;
}

/* On the worker's own thread, between its batches: exact. */
static void hook_window_start(struct rcuprof_tool *tool,
                              const struct rcuprof_run_view *run,
                              unsigned worker)
{
    struct rcuprof_dsite *d = dsite_of(tool);
    struct rcuprof_dsite_thread *t;

    if (worker >= d->nthreads)
        return;
    t = &d->t[worker];
    snap(t, &t->calls0, &t->passes0, &t->timed0, &t->ticks0);
}

static void hook_window_end(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run,
                            unsigned worker)
{
    struct rcuprof_dsite *d = dsite_of(tool);
    struct rcuprof_dsite_thread *t;

    if (worker >= d->nthreads)
        return;
    t = &d->t[worker];
    snap(t, &t->calls1, &t->passes1, &t->timed1, &t->ticks1);
}

int rcuprof_dsite_new(struct rcuprof_run *run, const char *site, uint64_t ns,
                      unsigned every, char *err, size_t n)
{
    struct rcuprof_dsite *d = calloc(1, sizeof(*d));
    unsigned i;

    if (d != NULL)
        d->t = aligned_alloc(RCUPROF_CACHELINE,
                             sizeof(*d->t) * (size_t)run->cfg.threads);
    if (d == NULL || d->t == NULL) {
        free(d);
        snprintf(err, n, "delay site: out of memory");
        return -1;
    }
    memset(d->t, 0, sizeof(*d->t) * (size_t)run->cfg.threads);
    d->tool.window_start = hook_window_start;
    d->tool.window_end = hook_window_end;
    d->site = site;
    d->ns = ns;
    d->every = every != 0 ? every : 1;
    d->nthreads = run->cfg.threads;
    for (i = 0; i < d->nthreads; i++)
        d->t[i].countdown = d->every;
    d->tsc = tsc_usable();
    /* At 0 ns too: the wait's code still runs and is timed (delay.h) */
    d->ticks_per_ns = calibrate(d->tsc);
    d->pair_ticks = pair_cost(d->tsc);
    /* Rounded up, and one tick more: a wait of d->ticks is never shorter
     * than ns, whatever the rounding of the calibration's figure. */
    d->ticks = ns != 0 ? (uint64_t)ceil((double)ns * d->ticks_per_ns) + 1 : 0;
    d->ticks_cap = d->ticks
                   + (uint64_t)(RCUPROF_DSITE_PREEMPTED_NS * d->ticks_per_ns);
    if (rcuprof_run_add_tool(run, &d->tool) != 0) {
        rcuprof_dsite_free(d);
        snprintf(err, n, "delay site: too many tools registered");
        return -1;
    }
    run->dsite = d;
    return 0;
}

json_t *rcuprof_dsite_json(const struct rcuprof_dsite *d, uint64_t ops)
{
    uint64_t calls = 0, passes = 0, timed = 0, ticks = 0;
    json_t *j;
    unsigned i;

    for (i = 0; i < d->nthreads; i++) {
        calls += d->t[i].calls1 - d->t[i].calls0;
        passes += d->t[i].passes1 - d->t[i].passes0;
        timed += d->t[i].timed1 - d->t[i].timed0;
        ticks += d->t[i].ticks1 - d->t[i].ticks0;
    }
    j = json_pack("{s:s, s:s, s:I, s:I, s:I}", "site", d->site,
                  "where", "driver", "ns", (json_int_t)d->ns,
                  "ticks", (json_int_t)d->ticks, "calls", (json_int_t)calls);
    json_object_set_new(j, "calls_per_op", ops > 0
                        ? json_real((double)calls / (double)ops)
                        : json_null());
    json_object_set_new(j, "delay_ns_per_call",
                        timed > 0 ? json_real((double)ticks
                                                / d->ticks_per_ns
                                                / (double)timed)
                        : json_null());
    /* A driver site is only its delay: no code of its own to time. */
    json_object_set_new(j, "own_ns_per_call", json_null());
    json_object_set_new(j, "timed", json_integer((json_int_t)timed));
    json_object_set_new(j, "passes", json_integer((json_int_t)passes));
    json_object_set_new(j, "passes_per_call", calls > 0
                        ? json_real((double)passes / (double)calls)
                        : json_null());
    json_object_set_new(j, "fixed_ns", json_integer(0));
    return j;
}

void rcuprof_dsite_free(struct rcuprof_dsite *d)
{
    if (d != NULL)
        free(d->t);
    free(d);
}
