/*
 * rcuprof stress driver: shared declarations.
 *
 * The driver is the instrument.  Its harness (harness.c) keeps itself out of
 * the measurement: threads are created and pinned, then meet at a start
 * barrier; every thread warms up, meets a second barrier, and only then does
 * the timed window open; counts live in locals and are stored once into
 * 64-byte aligned per-thread slots; no clock is read per op.
 */
#ifndef RCUPROF_STRESS_H
# define RCUPROF_STRESS_H

# include <stdint.h>
# include <stddef.h>
# include <stdatomic.h>
# include <pthread.h>
# include <jansson.h>

# include "rcuprof_hooks.h"
# include "rcuprof_util.h"

/* OpenSSL's types, by their tags: this header needs no OpenSSL header. */
struct ossl_lib_ctx_st;         /* OSSL_LIB_CTX */
struct rcu_lock_st;             /* CRYPTO_RCU_LOCK (internal/rcu.h) */

/* Exit codes and protocol version: rcuprof_protocol.h. */
#include "rcuprof_protocol.h"

/* --compat: perftools' harness artefacts, each switchable on its own. */
# define RCUPROF_COMPAT_CLOCK          0x1  /* gettimeofday per op */
# define RCUPROF_COMPAT_NOBARRIER      0x2  /* no start barrier, no warm-up */
# define RCUPROF_COMPAT_EARLY_DEADLINE 0x4  /* deadline before threads start */
# define RCUPROF_COMPAT_UNPADDED       0x8  /* counts[id]++ in one array */
# define RCUPROF_COMPAT_PERFTOOLS      0xf

/* The driver's options: one field per row of src/common/rcuprof_opts.def. */
struct rcuprof_config {
    unsigned threads;
    uint64_t duration_ms;
    uint64_t warmup_ms;
    uint64_t ops;               /* per thread; 0 = fixed duration */
    char fetch[1024];           /* TYPE:ALG[,TYPE:ALG...] */
    char propq[256];
    int own_libctx;
    int libctx_set;             /* --libctx given (mac, cipher: else default) */
    char pin[256];              /* placement policy (src/placement) */
    char workload[32];
    int isolated;               /* mac/cipher: --mode isolated */
    unsigned updates;           /* mac/cipher: updates per op */
    unsigned writers;           /* churn threads */
    uint64_t write_rate;        /* writes/s over all writers, 0 = unpaced */
    char churn[128];            /* query,provider,flush */
    unsigned compat;            /* RCUPROF_COMPAT_* artefacts, on purpose */
    int rtt;
    char events[1024];          /* --events, empty = no counters */
    int require_hw;
    int sample;                 /* --sample on */
    uint64_t sample_freq;
    char sample_event[128];
    uint64_t reclaim_batch;     /* --reclaim-batch, if reclaim_batch_set */
    int reclaim_batch_set;
    uint64_t reclaim_bytes;     /* --reclaim-bytes, if reclaim_bytes_set */
    int reclaim_bytes_set;
    uint64_t reclaim_age_ms;    /* --reclaim-age-ms, if reclaim_age_ms_set */
    int reclaim_age_ms_set;
    int probes;                 /* --probes on (probes/probe_readout.c) */
    unsigned probe_every;       /* --probe-every K */
    char delay_site[32];        /* --delay-site ("": none; section 3.4) */
    uint64_t delay_ns;          /* --delay-ns */
    int delay_ns_set;           /* --delay-ns given */
};

/*
 * One worker's results: written by that worker only, once at the end of its
 * window, and read by the main thread after join.  Aligned and padded to a
 * cache line so that no two workers ever share one.
 */
struct rcuprof_slot {
    /* The alignment rounds sizeof up to a whole number of lines. */
    _Alignas(RCUPROF_CACHELINE) uint64_t ops;
    uint64_t window_ns;         /* this thread's own window, monotonic */
    uint64_t cpu_ns;            /* thread CPU time inside the window */
    int cpu_start, cpu_end;     /* sched_getcpu() at window start and end */
    int failed;
    /* Scheduler view of the window (deltas; -1 where not available). */
    int64_t vcsw, ivcsw;        /* voluntary, involuntary switches */
    int64_t migrations;         /* se.nr_migrations (/proc/thread-self/sched) */
    int64_t runq_ns;            /* time runnable but waiting (schedstat) */
    /* Barrier check: when this worker reached the start barrier, and when
     * it began its first op (CLOCK_MONOTONIC; 0 = not recorded). */
    uint64_t arrive_ns, first_op_ns;
};

struct rcuprof_worker {
    unsigned id;
    pid_t tid;
    struct rcuprof_run *run;
    struct rcuprof_slot *slot;
    void *workload_state;       /* per-thread state of the workload */
};

/*
 * A delay site of the driver's own (docs/interfaces.md, section 3.4): its
 * name and the op and batch that call it, in place of the workload's own,
 * chosen once at setup (the workload without a site keeps its loop).
 */
struct rcuprof_workload_site {
    const char *name;
    int (*op)(struct rcuprof_worker *w, char *errbuf, size_t n);
    int (*batch)(struct rcuprof_worker *w, uint64_t n, char *errbuf,
                 size_t len);
};

/* A workload: set up once, then op() in a loop on every worker. */
struct rcuprof_workload {
    const char *name;
    int (*setup)(struct rcuprof_run *run, char *errbuf, size_t n);
    int (*thread_init)(struct rcuprof_worker *w, char *errbuf, size_t n);
    /* One op; returns 0, or non-zero on failure (message in errbuf). */
    int (*op)(struct rcuprof_worker *w, char *errbuf, size_t n);
    /*
     * Optional: n ops in a tight loop (the harness checks its stop flag
     * between batches).  For ops of a few ns, where an indirect call per op
     * would be the measurement.  Returns 0 or non-zero on failure.
     */
    int (*batch)(struct rcuprof_worker *w, uint64_t n, char *errbuf, size_t len);
    unsigned batch_ops;         /* ops per batch call (1 if no batch) */
    unsigned fixed_threads;     /* 0, or the only thread count it runs at */
    void (*thread_done)(struct rcuprof_worker *w);
    json_t *(*describe)(struct rcuprof_run *run);
    void (*teardown)(struct rcuprof_run *run);
    /*
     * What write churn (churn.c) acts on; NULL where the workload takes
     * no writers.  The fetch workload: its lib ctx, and one fetch of its
     * first item with another property query (0, or -1 with a message).
     * The rcu baseline: its lock, for the writers' synchronize.
     */
    struct ossl_lib_ctx_st *(*churn_libctx)(const struct rcuprof_run *run);
    int (*churn_fetch)(const struct rcuprof_run *run, const char *propq,
                       char *err, size_t n);
    struct rcu_lock_st *(*churn_rcu_lock)(const struct rcuprof_run *run);
    /*
     * Delay sites (section 3.4): the workload's own driver sites (a NULL
     * name ends the list; NULL: none), and no_library_sites 1 where the
     * library's sites cannot be reached (baselines that never call into
     * OpenSSL: empty, padded, urcu, pingpong).  A workload with driver
     * sites takes only those.
     */
    const struct rcuprof_workload_site *delay_sites;
    int no_library_sites;
    /*
     * 1 where a worker's op waits for another worker's (pingpong): its
     * workers never wait at the window's edges (section 5), which would
     * leave the partner waiting; run_window then reads while they run.
     */
    int coupled;
};

struct rcuprof_placement_plan;
struct rcuprof_dsite;           /* delay.h: the driver sites' state */

struct rcuprof_run {
    struct rcuprof_config cfg;
    const struct rcuprof_workload *workload;
    void *workload_state;
    /* Registered tools (rcuprof_hooks.h), called in this order. */
    struct rcuprof_tool *tools[RCUPROF_TOOLS_MAX];
    unsigned ntools;
    struct rcuprof_run_view view;       /* what the tools see */
    const struct rcuprof_placement_plan *plan;  /* read-only, shared */
    /* The armed driver delay site's per-worker counters (delay.h), or
     * NULL: read by the site's op and batch only. */
    struct rcuprof_dsite *dsite;

    struct rcuprof_worker *workers;
    struct rcuprof_slot *slots;
    uint64_t *ops;              /* after join: slots[i].ops (view.ops) */
    /* Set by the harness: non-zero once workers must leave. */
    const _Atomic int *stopping;

    /* Harness results. */
    uint64_t wall_ns;           /* main thread: window open to last close */
    uint64_t warmup_ns;         /* barrier release to window open */
    int64_t start_realtime_ns;
    char error[512];            /* first failure, if any */
    unsigned failed_thread;
};

/* Non-zero once workers must leave (for ops that wait on each other). */
static inline int rcuprof_run_stopping(const struct rcuprof_run *run)
{
    return run->stopping != NULL
           && atomic_load_explicit(run->stopping, memory_order_relaxed);
}

/* Register a tool; -1 when RCUPROF_TOOLS_MAX are already registered. */
int rcuprof_run_add_tool(struct rcuprof_run *run, struct rcuprof_tool *tool);

/* harness.c */
int rcuprof_harness_run(struct rcuprof_run *run);
json_t *rcuprof_harness_json(const struct rcuprof_run *run);

/* store.c: the variant's method store and its run-time settings. */
int rcuprof_store_configure(const struct rcuprof_run *run, char *err, size_t n);
json_t *rcuprof_store_json(void);

/*
 * churn.c: writer threads (--writers, --write-rate, --churn).  _start
 * checks --churn against the workload, starts the writers (no writers
 * asked: *out stays NULL) and registers churn's tool, whose run_window
 * counts the writes inside the window.  _stop joins the writers; _json is
 * run.churn (null without writers); _free after both.
 */
struct rcuprof_churn;
int rcuprof_churn_start(struct rcuprof_run *run, struct rcuprof_churn **out,
                        char *errbuf, size_t n);
void rcuprof_churn_stop(struct rcuprof_churn *c);
json_t *rcuprof_churn_json(const struct rcuprof_churn *c);
void rcuprof_churn_free(struct rcuprof_churn *c);

/* sched.c: per-thread scheduler figures, steal, line round trip. */
struct rcuprof_sched_sample {
    int64_t vcsw, ivcsw, migrations, runq_ns;
};
void rcuprof_sched_sample_self(struct rcuprof_sched_sample *s);
int64_t rcuprof_steal_ticks(void);
/* Round trip of one cache line between CPUs a and b, in ns (-1: cannot). */
double rcuprof_line_rtt_ns(int cpu_a, int cpu_b, unsigned iters);
/*
 * The round trip inside the window (run.line_rtt.window): _start registers
 * a tool and starts a thread that samples the round trip between cpu_a and
 * cpu_b about 8 times while the window is open (a pair of distinct CPUs,
 * else *out stays NULL); _stop joins it (after the harness); _json is the
 * window member with the pair's own cost over window_ns x cpus.  -1: no
 * memory or thread.
 */
struct rcuprof_rtt_sampler;
int rcuprof_rtt_sampler_start(struct rcuprof_run *run, int cpu_a, int cpu_b,
                              struct rcuprof_rtt_sampler **out);
void rcuprof_rtt_sampler_stop(struct rcuprof_rtt_sampler *s);
json_t *rcuprof_rtt_sampler_json(const struct rcuprof_rtt_sampler *s,
                                 uint64_t window_ns, unsigned cpus);
void rcuprof_rtt_sampler_free(struct rcuprof_rtt_sampler *s);

/* env.c */
json_t *rcuprof_env_json(const struct rcuprof_run *run);

/* Generated per variant from its build.json (cmake/EmbedBuildInfo.cmake). */
extern const char rcuprof_build_json[];

/* main.c: one JSON error line on stderr. */
void rcuprof_stress_error(const char *code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
