/*
 * The driver's own delay sites (docs/interfaces.md, section 3.4): a
 * calibrated busy delay of --delay-ns ns at every call of a baseline's
 * site, each call counted, 1 in K timed.
 *
 * The timer is a fenced rdtsc on x86 with an invariant TSC, else
 * CLOCK_MONOTONIC (ticks are then ns); it is calibrated once, at set-up,
 * against CLOCK_MONOTONIC.  The counters are per worker, each on its own
 * line, written only by that worker (a site's batch keeps them in locals
 * and stores them when it returns), so the window hooks, which run on the
 * worker's own thread between batches, read them exactly: calls inside the
 * window are counted like ops.
 */
#ifndef RCUPROF_DELAY_H
# define RCUPROF_DELAY_H

# include <stdint.h>
# include <time.h>

# include "stress.h"

/* Beyond the wait, a timed wait this much longer was descheduled. */
# define RCUPROF_DSITE_PREEMPTED_NS 10000

/* One worker's counters (its own line). */
struct rcuprof_dsite_thread {
    _Alignas(RCUPROF_CACHELINE) uint64_t calls;
    uint64_t passes;            /* delays waited: calls, plus repeats */
    uint64_t timed;             /* calls timed (their first pass) */
    uint64_t delay_ticks;       /* sum over the timed: the delay spent */
    uint64_t countdown;         /* calls until the next timed one */
    /* The window's edges (window_start, window_end hooks). */
    uint64_t calls0, passes0, timed0, ticks0;
    uint64_t calls1, passes1, timed1, ticks1;
};

struct rcuprof_dsite {
    struct rcuprof_tool tool;   /* window_start, window_end */
    const char *site;
    uint64_t ns;                /* asked */
    uint64_t ticks;             /* the busy wait, in timer ticks */
    uint64_t pair_ticks;        /* two back-to-back timer reads: taken
                                 * off every timed wait */
    uint64_t ticks_cap;         /* a timed wait longer than this was
                                 * descheduled: left out of the figure */
    uint64_t every;             /* 1 in K calls timed */
    int tsc;                    /* the timer: 1 rdtsc, 0 CLOCK_MONOTONIC */
    double ticks_per_ns;
    unsigned nthreads;
    struct rcuprof_dsite_thread *t;     /* one per worker */
};

static inline uint64_t rcuprof_dsite_now(int tsc)
{
# if defined(__x86_64__) || defined(__i386__)
    if (tsc) {
        uint32_t lo, hi;

        __asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
                             : "=a"(lo), "=d"(hi) : : "memory");
        return ((uint64_t)hi << 32) | lo;
    }
# endif
    {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
}

static inline void rcuprof_dsite_relax(void)
{
# if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("" ::: "memory");
# else
    __asm__ __volatile__("" ::: "memory");
# endif
}

/* The calling worker's counters, loaded into locals for one batch. */
struct rcuprof_dsite_local {
    uint64_t calls, passes, timed, delay_ticks, countdown;
};

static inline void rcuprof_dsite_load(const struct rcuprof_dsite *d,
                                      unsigned id,
                                      struct rcuprof_dsite_local *l)
{
    const struct rcuprof_dsite_thread *t = &d->t[id];

    l->calls = t->calls;
    l->passes = t->passes;
    l->timed = t->timed;
    l->delay_ticks = t->delay_ticks;
    l->countdown = t->countdown;
}

static inline void rcuprof_dsite_store(struct rcuprof_dsite *d, unsigned id,
                                       const struct rcuprof_dsite_local *l)
{
    struct rcuprof_dsite_thread *t = &d->t[id];

    t->calls = l->calls;
    t->passes = l->passes;
    t->timed = l->timed;
    t->delay_ticks = l->delay_ticks;
    t->countdown = l->countdown;
}

/*
 * The site's wait: a busy wait of d->ticks between two timer reads (at
 * 0 ns the loop does not iterate but both reads run, so that every armed
 * call pays the same for the wait's code whatever the delay and a
 * whatif's cells differ by the loop alone).  Returns the interval.
 */
static inline uint64_t rcuprof_dsite_wait(const struct rcuprof_dsite *d)
{
    uint64_t t0 = rcuprof_dsite_now(d->tsc), t = rcuprof_dsite_now(d->tsc);

    while (t - t0 < d->ticks) {
        rcuprof_dsite_relax();
        t = rcuprof_dsite_now(d->tsc);
    }
    return t - t0;
}

/*
 * One call of the site (an op entering it): counted, and its first pass
 * through the wait.  Every d->every-th call is timed: its first pass's
 * interval less two back-to-back reads' cost (d->pair_ticks), as the
 * library's sites time theirs.  A timed wait longer than d->ticks_cap
 * (RCUPROF_DSITE_PREEMPTED_NS beyond the wait) had the thread descheduled:
 * that time is not the delay's, and one such wait among 1 in K would swamp
 * the mean, so the call is left out (not timed).
 */
static inline void rcuprof_dsite_call(const struct rcuprof_dsite *d,
                                      struct rcuprof_dsite_local *l)
{
    uint64_t w;

    l->calls++;
    l->passes++;
    w = rcuprof_dsite_wait(d);
    if (--l->countdown == 0) {
        l->countdown = d->every;
        if (w <= d->ticks_cap) {
            l->timed++;
            l->delay_ticks += w > d->pair_ticks ? w - d->pair_ticks : 0;
        }
    }
}

/*
 * A repeat of the wait inside the same call (a site inside a retry loop,
 * cas_window): waited and counted as a pass, never timed.  The call is
 * counted once: the repeats are what contention adds, so they show in the
 * slope, not in the calls.
 */
static inline void rcuprof_dsite_pass(const struct rcuprof_dsite *d,
                                      struct rcuprof_dsite_local *l)
{
    l->passes++;
    (void)rcuprof_dsite_wait(d);
}

/*
 * delay.c.  _new: the site's state for THREADS workers (the timer chosen
 * and calibrated when NS > 0), its tool registered with the run and
 * run->dsite set; 0, or -1 with a message.  _json: run.delay (section
 * 3.4) over the workers' window ops.  _free.
 */
int rcuprof_dsite_new(struct rcuprof_run *run, const char *site, uint64_t ns,
                      unsigned every, char *err, size_t n);
json_t *rcuprof_dsite_json(const struct rcuprof_dsite *d, uint64_t ops);
void rcuprof_dsite_free(struct rcuprof_dsite *d);

#endif
