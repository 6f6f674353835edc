/*
 * The machine state a run ran in, from the cache-line round trip sampled
 * inside its window (run.line_rtt.window, record.h): on a VM the host moves
 * virtual CPUs and the round trip jumps between levels (80 and 670 ns on
 * the project's 2-CPU VM), and with it every figure of the run.
 *
 * The rule (docs/methodology.md, "Machine state"):
 *
 *  - The threshold is learned over the samples of every ok run of one
 *    results file (one sweep, one machine), so the runs of a sweep are
 *    tagged against the same line; a run alone cannot tell fast from slow
 *    when it stayed in one state.
 *  - Under RCUPROF_STATE_MIN_SAMPLES samples nothing is learned (too_few):
 *    every run is unknown.  Otsu splits any few samples: under the rest
 *    of the rule a single state of 4 to 8 samples is cut in two in about
 *    a fifth of simulated files (docs/methodology.md, "Machine state as
 *    a stratum"; test_state.c prints the table).
 *  - In log space the sorted samples are split in two where the
 *    between-cluster variance is largest (Otsu's rule).  Two clusters when
 *    the slow cluster's geometric mean is at least RCUPROF_STATE_MIN_RATIO
 *    times the fast one's, each cluster has at least
 *    RCUPROF_STATE_MIN_CLASS samples (one sample far out is a tail, not a
 *    state), and the split explains at least RCUPROF_STATE_MIN_SEP of the
 *    variance (one normal cluster split at its best explains 2/pi, 0.64).
 *    These three conditions are one acceptance rule of the one cut: no
 *    separate test of bimodality is made.
 *    The threshold is then the geometric midpoint between the fast
 *    cluster's largest sample and the slow cluster's smallest.
 *  - Otherwise one cluster: no threshold, every sample is fast (the
 *    states are relative to the sweep: it showed no slow state).
 *  - A sample above the threshold is slow, else fast.  A run is fast when
 *    all its samples are fast, slow when all are slow, mixed otherwise
 *    (a null sample, a stalled burst, counts as slow, whatever the
 *    split); unknown without samples (results written before the
 *    sampler, --rtt off, fewer than 2 CPUs), or when the file had too few
 *    to learn from and the run has a sample that did not stall (it is
 *    then slow or mixed, or fast, and which is not known).  A run whose
 *    every sample stalled is slow even then: that needs no threshold.
 */
#ifndef RCUPROF_STATE_H
# define RCUPROF_STATE_H

# include <stddef.h>

# include "record.h"

# define RCUPROF_STATE_MIN_SAMPLES 30
# define RCUPROF_STATE_MIN_CLASS 2
# define RCUPROF_STATE_MIN_RATIO 1.5
# define RCUPROF_STATE_MIN_SEP 0.8

typedef struct rcuprof_state_split_st {
    size_t n;                   /* samples learned from */
    int too_few;                /* n below RCUPROF_STATE_MIN_SAMPLES: no
                                 * split, every run unknown */
    int two;                    /* two clusters: threshold is set */
    double threshold_ns;        /* NAN with one cluster (or none) */
    double fast_ns, slow_ns;    /* each cluster's median; slow NAN if one */
    double separation;          /* share of the log variance the split
                                 * explains; NAN below MIN_SAMPLES */
    size_t n_fast, n_slow;      /* samples on each side */
    size_t n_stalled;           /* null samples of the file's runs (not
                                 * learned from: each is slow); set by
                                 * results.c */
} rcuprof_state_split;

/* "unknown", "fast", "slow", "mixed"; -1 from _parse otherwise. */
const char *rcuprof_state_name(int state);
int rcuprof_state_parse(const char *s);

/*
 * Learn the split from n samples (ns, each > 0; others are ignored).
 * 0, or -1 when memory ran out.
 */
int rcuprof_state_learn(const double *ns, size_t n, rcuprof_state_split *s);

/*
 * The rule's numbers, one acceptance rule of Otsu's cut: under min_samples
 * nothing is learned (too_few); the cut is two states when the slow
 * cluster's geometric mean is at least min_ratio times the fast one's,
 * each cluster has at least min_class samples and the cut explains at
 * least min_sep of the log variance.  rcuprof_state_learn uses
 * RCUPROF_STATE_MIN_SAMPLES, _MIN_CLASS, _MIN_RATIO and _MIN_SEP; the
 * simulation behind them (tests/unit/analysis/test_state.c,
 * docs/methodology.md) varies them.
 */
typedef struct rcuprof_state_rule_st {
    size_t min_samples, min_class;
    double min_ratio, min_sep;
} rcuprof_state_rule;

int rcuprof_state_learn_rule(const double *ns, size_t n,
                             const rcuprof_state_rule *rule,
                             rcuprof_state_split *s);

/* A sample's state under the split: fast or slow. */
int rcuprof_state_of_sample(const rcuprof_state_split *s, double ns);

/*
 * A run's state from its n samples and its `stalled` null samples (bursts
 * the sampler gave up on: the pair could not get its CPUs in time, or its
 * round trips ran far beyond the budget, which is the preempted-vCPU state
 * itself): each stalled sample counts as slow.  Fast, slow, mixed;
 * slow when every sample stalled, whatever the split (even too_few);
 * unknown if the run has no sample at all, or has one that did not stall
 * while the split is too_few.
 */
int rcuprof_state_of_run(const rcuprof_state_split *s, const double *ns,
                         size_t n, size_t stalled);

#endif
