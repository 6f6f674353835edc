/*
 * The one decoder of a driver result (schema rcuprof-run/1,
 * docs/schema/run-result.schema.json): everything sweep, compare, report,
 * explain and attribute read of a run, decoded once into a record that
 * the analysis and the writers use (google/benchmark's Run record).
 *
 * One rule for a bad value.  A member a run did not collect (absent or
 * null) is NAN (numbers), 0 (counts) or empty (text) here.  The record is a
 * measurement (ok = 1) only when run.wall_ns_per_op is a number > 0,
 * run.cpu_ns_per_op a number >= 0, both at most
 * RCUPROF_RECORD_MAX_NS_PER_OP and, where run.wall_ns, run.ops and
 * run.threads are given, equal to wall_ns x threads / ops and cpu_ns / ops
 * (what the driver computes them from), and run.threads, when present, an
 * integer >= 1; otherwise ok = 0 and why names the member and what is
 * wrong with it.  Every reader treats a record that is not ok the same
 * way: not a measurement (a results file skips the line as corrupt,
 * explain counts the run as failed, sweep records the point as failed).
 *
 * rcuprof_record_members() lists every member the decoder reads with the
 * JSON types it accepts there, so a test can hold it against the schema.
 */
#ifndef RCUPROF_RECORD_H
# define RCUPROF_RECORD_H

# include <stddef.h>
# include <jansson.h>

# define RCUPROF_RECORD_MAX_CPUS 64
/* shards of a method store the decoder keeps (4.0 has 4) */
# define RCUPROF_RECORD_MAX_SHARDS 16
# define RCUPROF_RECORD_MAX_RTT 64
/* The most ns/op a run can record: a single op in the longest run any
 * command allows (--timeout's 86,400 s) on the most threads (1,024), as
 * wall_ns_per_op is wall_ns x threads / ops: 8.64e13 ns x 1024.  A larger
 * figure did not come from a run. */
# define RCUPROF_RECORD_MAX_NS_PER_OP (86400e9 * 1024)

/* The machine state a run ran in (analysis/state.h): set by the
 * classification over a results file, never by the decoder. */
enum {
    RCUPROF_STATE_UNKNOWN = 0,  /* no round trip sampled in the window */
    RCUPROF_STATE_FAST,
    RCUPROF_STATE_SLOW,
    RCUPROF_STATE_MIXED,
    RCUPROF_STATE_COUNT
};

typedef struct rcuprof_record_st {
    int ok;                     /* a measurement (the rule above) */
    char why[160];              /* ok == 0: what is wrong, one line */

    /* build: which variant of which OpenSSL (line and version), and the
     * tree it was built in with its libcrypto's hash (the attribution
     * resolves source files there: analysis/rcuprof_attribute.h) */
    char variant[72];
    char openssl_version[32];
    char line[16];
    char tree[4096];            /* "": not recorded */
    char libcrypto_sha256[72];

    /* env */
    char host[64], kernel[64];
    unsigned cpus_allowed;      /* 0: unknown */
    unsigned cpus_online;
    int oversubscribed;
    double loadavg1;

    /* run */
    unsigned threads;           /* 0: not given */
    double wall_ns, ops, cpu_ns;
    double wall_ns_per_op, cpu_ns_per_op, ops_per_s, util;
    double runq_ns, runq_share; /* run-queue time / (wall x threads) */
    double runq_ns_per_kop, vcsw_per_kop, ivcsw_per_kop, migr_per_kop;
    double steal_ms, steal_share; /* steal over (window x CPUs online) */
    double rtt_before, rtt_after; /* run.line_rtt, ns */
    /* run.line_rtt.window: the round trip sampled inside the window (the
     * samples that are numbers, ns) and the sampler's share of the CPU */
    int have_rtt_window;
    double rtt_ns[RCUPROF_RECORD_MAX_RTT];
    size_t n_rtt;
    size_t n_rtt_stalled;       /* null samples: bursts given up on */
    double rtt_cost_share;
    int state;                  /* RCUPROF_STATE_*: analysis/state.h sets it */
    int have_churn;
    double writes_per_s;

    /* placement: planned (run.placement.cpus) against where each worker
     * started and ended its window (threads[].cpu_start, cpu_end) */
    int pinned;                 /* the plan pins at least one thread */
    int placed;                 /* 1 every pinned thread started and ended
                                 * on its planned CPU; 0 not; -1 unknown */
    unsigned misplaced;         /* threads that did not */
    int cpus_used[RCUPROF_RECORD_MAX_CPUS]; /* distinct cpu_start/cpu_end */
    size_t ncpus_used;

    /* probes: the member's summary (docs/interfaces.md 3.1) */
    int have_probes;            /* an object, not switched off */
    double probe_retries;       /* retries per acquisition */
    double probe_slow;          /* slow-path fetches per 1k fetches */
    double probe_wait;          /* writer wait ns per synchronize: spinning
                                 * + blocked (probes version 3) */
    /* the workers' read locks per shard of a sharded store (4.0:
     * probes.summary.shard_read_shares); 0 shards: a line without */
    unsigned probe_nshards;
    double probe_shard_share[RCUPROF_RECORD_MAX_SHARDS];
    double probe_shard_max;     /* the busiest shard's share, NAN: none */

    /* run.delay: the armed delay site (docs/interfaces.md 3.4); without
     * one have_delay is 0, the text empty and the figures NAN */
    int have_delay;
    char delay_site[32];
    double delay_ns;            /* asked, per call */
    double delay_calls_per_op;
    double delay_ns_per_call;   /* the delay a call really spent */
    double delay_own_ns_per_call; /* the site's own code; NAN: not timed */
    double delay_fixed_ns;      /* the build's always-on cost there */

    /* counters (probes/README.md, "The counters member") */
    int have_counters;
    int counters_hw;            /* some hardware group was counted */
    double coherence_per_kop;   /* the coherence events' sum per 1k ops */
    double cycles_per_ns;       /* cycles / CPU ns (GHz) */
    char counters_note[160];    /* the first event not counted, and why */

    /* samples: the member, borrowed from the decoded JSON (NULL when the
     * run was not sampled, and in records kept after their JSON) */
    const json_t *samples;
    /* set by the attribution, not by the decoder: NAN until then */
    double on_cpu_share, off_cpu_share;
} rcuprof_record;

/* Every figure unknown: NAN, 0, "" (what a failed run's record holds). */
void rcuprof_record_init(rcuprof_record *r);

/*
 * Decode RES (a driver result) into R.  Never fails: what is absent stays
 * unknown; R->ok and R->why say whether it is a measurement.  R->samples
 * points into RES.
 */
void rcuprof_record_decode(const json_t *res, rcuprof_record *r);

/* A member the decoder reads: its path ("run.wall_ns_per_op",
 * "threads[].cpu_start", "run.sched.*" for any key) and the JSON types it
 * accepts there, '|'-separated ("number|null"). */
struct rcuprof_record_member {
    const char *path;
    const char *types;
};
const struct rcuprof_record_member *rcuprof_record_members(size_t *n);

#endif
