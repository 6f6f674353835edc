/*
 * rcuprof explain: why a thread count is slow (docs/explain.md).
 *
 * The pure parts, reachable from unit tests: detection of dips and knees
 * over a sweep (explain_detect.c), the metrics of one driver result and
 * their aggregation over repetitions (explain_metrics.c), the CPU pairs of
 * the round-trip matrix (explain_pairs.c), the classification rules
 * (explain_rules.c) and the markdown/JSON output (explain_render.c).  The
 * command itself (explain.c) plans placements, spawns the drivers and feeds
 * these.
 */
#ifndef RCUPROF_EXPLAIN_H
# define RCUPROF_EXPLAIN_H

# include <stddef.h>
# include <stdint.h>
# include <jansson.h>

# include "record.h"
# include "results.h"

# define RCUPROF_EXPLAIN_SCHEMA "rcuprof-explain/1"

/* ---------------------------------------------------------------------- */
/* Detection                                                               */

enum { RCUPROF_EXPLAIN_DIP = 0, RCUPROF_EXPLAIN_KNEE = 1 };

/* One thread count of one variant: its runs' per-op cost. */
typedef struct rcuprof_explain_count_st {
    unsigned threads;
    size_t n;                   /* ok runs */
    double cost;                /* median */
    double lo, hi;              /* interval of the median; NAN if none */
    const char *interval;       /* "median" (distribution-free), "mean-t"
                                 * (n < 6: Student t on the logs, the Cox
                                 * interval of the mean, widened to hold
                                 * the median; always positive), "none" */
    double coverage;            /* the interval's coverage (>= level) */
} rcuprof_explain_count;

typedef struct rcuprof_explain_finding_st {
    int kind;                   /* RCUPROF_EXPLAIN_DIP / _KNEE */
    unsigned threads;           /* the slow count */
    unsigned vs;                /* dip: the higher count that costs less;
                                 * knee: the count before the step */
    double cost, lo, hi;        /* at threads: median, its interval (they
                                 * find the step) */
    double vs_cost, vs_lo, vs_hi;
    double ratio;               /* geometric mean at threads over at vs
                                 * (rcuprof_explain_gm_ratio) */
    double ratio_lo, ratio_hi;  /* Welch's t on the logs; NAN under 2 runs */
    double step_eff;            /* knee: vs_cost / cost; dip: NAN */
    int separated;              /* the two intervals are disjoint */
    double p, p_holm;           /* Mann-Whitney two-sided, raw and Holm
                                 * over the variant's findings; NAN if n/a */
    double effect;              /* P(a run at threads costs more than one
                                 * at vs), ties 1/2 */
    int worst;                  /* knee: the step whose efficiency falls
                                 * most */
    const char *confidence;     /* "high", "medium", "low" */
} rcuprof_explain_finding;

typedef struct rcuprof_explain_detection_st {
    double level;
    double min_step_eff;
    rcuprof_explain_count *counts;
    size_t ncounts;
    rcuprof_explain_finding *findings;
    size_t nfindings;
} rcuprof_explain_detection;

/* Defaults of the detection (docs/explain.md). */
# define RCUPROF_EXPLAIN_LEVEL        0.95
# define RCUPROF_EXPLAIN_MIN_STEP_EFF 0.80

/*
 * threads[i], cost[i]: n runs of one variant in any order (cost > 0, e.g.
 * wall_ns_per_op).  Fills det (free with _detection_free).  Dips: a count
 * whose interval lies wholly above a higher count's (rcuprof_stats_dips);
 * knees: steps whose efficiency (rcuprof_stats_knees) is below
 * min_step_eff.  Counts with no interval (one run) take part in no
 * finding.  Returns 0, or -1 on bad input or no memory.
 */
int rcuprof_explain_detect(const unsigned *threads, const double *cost,
                           size_t n, double level, double min_step_eff,
                           rcuprof_explain_detection *det);
void rcuprof_explain_detection_free(rcuprof_explain_detection *det);

/*
 * One count's cost and interval from its n runs x[] (threads is left as
 * it is): the median with its distribution-free interval from 6 runs, else
 * (2-5 runs) the t interval of the mean widened to hold the median, else
 * none.
 */
void rcuprof_explain_count_interval(const double *x, size_t n, double level,
                                    rcuprof_explain_count *c);

/* A finding the experiments should explain: every dip, and knees whose
 * intervals are separated. */
int rcuprof_explain_finding_flagged(const rcuprof_explain_finding *f);

/* The ok runs of variant vi of a results set, detected (metric WALL/CPU). */
int rcuprof_explain_detect_results(const rcuprof_results *rs, size_t vi,
                                   int metric, rcuprof_explain_detection *det);

/* ---------------------------------------------------------------------- */
/* Metrics of one run and their aggregate                                  */

# define RCUPROF_EXPLAIN_MAX_CPUS_USED RCUPROF_RECORD_MAX_CPUS

/* One run's figures: the decoded driver result (record.h), whose ok is
 * the one rule of a measurement. */
typedef rcuprof_record rcuprof_explain_run;

/* rcuprof_record_decode: never fails; what is absent stays NAN / 0. */
void rcuprof_explain_run_from_json(const json_t *res,
                                   rcuprof_explain_run *out);

/* The attribution report's on/off-CPU shares into r. */
void rcuprof_explain_run_samples(const json_t *attribution,
                                 rcuprof_explain_run *r);

/* Medians over the ok runs of one (count, placement, harness) cell. */
typedef struct rcuprof_explain_agg_st {
    size_t n, failed;
    double cost, lo, hi;        /* wall ns/op: geometric mean and its t
                                 * interval on the logs */
    const char *interval;       /* "geomean-t" (from 2 runs), "none" */
    double cpu_cost;
    double util, runq_share, runq_ns_per_kop;
    double vcsw_per_kop, ivcsw_per_kop, migr_per_kop;
    double steal_ms, steal_share, loadavg1;
    int placed;                 /* 1 all runs placed as planned, 0 some
                                 * not, -1 unpinned/unknown */
    unsigned misplaced;         /* summed over runs */
    double rtt_med, rtt_min, rtt_max; /* over before and after of all runs */
    double rtt_jump;            /* largest after/before (or inverse) */
    int have_probes;
    double probe_retries, probe_slow, probe_wait;
    int have_churn;
    double writes_per_s;
    int have_counters, counters_hw;
    double coherence_per_kop, cycles_per_ns;
    double on_cpu_share, off_cpu_share;
    /* What the rules' ratio intervals are made of (issue 18): ln wall and
     * ln CPU ns/op over the ok runs, the mean of all of them and the SD of
     * the first stage's (explain's first --reps blocks; Stein's two-stage
     * rule when explain added blocks), n0 the ok runs of the first stage;
     * NAN / 0 when absent. */
    double lmean, lsd0, cpu_lmean, cpu_lsd0;
    size_t n0, cpu_n, cpu_n0;
    /* The probe figures' smallest and largest over the runs. */
    double probe_retries_min, probe_retries_max;
    double probe_slow_min, probe_slow_max;
    double probe_wait_min, probe_wait_max;
} rcuprof_explain_agg;

void rcuprof_explain_agg_init(rcuprof_explain_agg *a);
/* runs[]: n runs (failed ones counted in failed). */
void rcuprof_explain_aggregate(const rcuprof_explain_run *runs, size_t n,
                               double level, rcuprof_explain_agg *a);
/* The same, the first n_first runs being the first stage (one run per
 * block, in block order). */
void rcuprof_explain_aggregate_staged(const rcuprof_explain_run *runs,
                                      size_t n, size_t n_first, double level,
                                      rcuprof_explain_agg *a);

/*
 * The interval of the ratio t/r of two cells' geometric-mean costs (cpu:
 * CPU ns/op, else wall): Welch's t on the logs with the first stages'
 * spreads (Chapman's two-stage form of Stein's rule), mean over every
 * run.  The ratio of ratios (t1/r1)/(t2/r2) likewise, over four cells.
 * 0, or -1 when a cell has fewer than 2 first-stage runs (NAN out).
 */
typedef struct rcuprof_explain_iv_st {
    double ratio, lo, hi;
} rcuprof_explain_iv;

int rcuprof_explain_ratio_iv(const rcuprof_explain_agg *t,
                             const rcuprof_explain_agg *r, int cpu,
                             double level, rcuprof_explain_iv *out);
/* The same over two sets of runs (detection): the ratio of their geometric
 * means, Welch's t on the logs; bounds positive and around the ratio.  0,
 * or -1 (ratio only, or NAN) when a side has under 2 runs or a run <= 0. */
int rcuprof_explain_gm_ratio(const double *t, size_t nt, const double *r,
                             size_t nr, double level, rcuprof_explain_iv *out);
int rcuprof_explain_ratio2_iv(const rcuprof_explain_agg *t1,
                              const rcuprof_explain_agg *r1,
                              const rcuprof_explain_agg *t2,
                              const rcuprof_explain_agg *r2, double level,
                              rcuprof_explain_iv *out);

/* A cell's MDE against a like one (two-stage on ln wall: sqrt 2 lsd0),
 * and the runs that bring it to target_pct (max + 1: not enough).  0, or
 * -1 with fewer than 2 first-stage runs. */
int rcuprof_explain_agg_need(const rcuprof_explain_agg *a, double target_pct,
                             size_t max, double *mde_pct, size_t *need);

/* ---------------------------------------------------------------------- */
/* CPU pairs of the round-trip matrix                                      */

enum {
    RCUPROF_EXPLAIN_REL_SMT = 0, /* siblings of one core */
    RCUPROF_EXPLAIN_REL_CORE,    /* other core, same L3 */
    RCUPROF_EXPLAIN_REL_L3,      /* other L3, same package */
    RCUPROF_EXPLAIN_REL_PACKAGE, /* other package */
    RCUPROF_EXPLAIN_REL_N
};
const char *rcuprof_explain_rel_name(int rel);

/* Where one CPU (OS index) sits; -1 where the topology has no level. */
typedef struct rcuprof_explain_cpu_st {
    int cpu, package, l3, core;
} rcuprof_explain_cpu;

typedef struct rcuprof_explain_pair_st {
    int a, b;                   /* a < b, OS indexes */
    int rel;
    double ns;                  /* fastest run's round trip (the line's
                                 * cost; preemption only adds), NAN if not
                                 * measured */
    double median_ns;           /* median over the runs */
    size_t n;
} rcuprof_explain_pair;

int rcuprof_explain_relation(const rcuprof_explain_cpu *x,
                             const rcuprof_explain_cpu *y);

/*
 * The distinct pairs of cpus[] (n entries, any order, duplicates ignored),
 * at most cap of them: when there are more, pairs are taken round-robin
 * over the relations (package, L3, core, SMT), evenly spread inside each.
 * topo[] describes every CPU (ntopo entries).  *out is malloc'ed; *total
 * receives the number of distinct pairs before the cap.  0 or -1.
 */
int rcuprof_explain_pairs(const int *cpus, size_t n,
                          const rcuprof_explain_cpu *topo, size_t ntopo,
                          size_t cap, rcuprof_explain_pair **out,
                          size_t *nout, size_t *total);

/* ---------------------------------------------------------------------- */
/* Classification                                                          */

# define RCUPROF_EXPLAIN_MAX_PLACE 8
# define RCUPROF_EXPLAIN_MAX_EVIDENCE 8
# define RCUPROF_EXPLAIN_EVIDENCE_LEN 320

/* One placement as planned at one thread count. */
typedef struct rcuprof_explain_place_st {
    char name[48];              /* policy string */
    char same_as[96];           /* other policies with the same CPUs */
    int pinned;
    int packages, l3s, cores;   /* distinct ones used (0 when unpinned) */
    int smt_shared;             /* two threads on siblings of one core */
    int shared_cpu;             /* some CPU runs two threads */
    int cpus[RCUPROF_EXPLAIN_MAX_CPUS_USED];
    size_t ncpus;
} rcuprof_explain_place;

/* One thread count: its placements (index 0 is the baseline placement). */
typedef struct rcuprof_explain_side_st {
    unsigned threads;
    size_t nplace;
    rcuprof_explain_place place[RCUPROF_EXPLAIN_MAX_PLACE];
    rcuprof_explain_agg agg[RCUPROF_EXPLAIN_MAX_PLACE];
    rcuprof_explain_agg alt;    /* baseline placement, the other harness */
    rcuprof_explain_agg nowriters; /* baseline placement, writers 0 */
    double sweep_rtt;           /* median line_rtt of the sweep's runs at
                                 * this count; NAN without a sweep */
    double sweep_rtt_lo, sweep_rtt_hi; /* their smallest and largest */
    double sweep_cost;          /* the sweep's median per-op cost; NAN */
} rcuprof_explain_side;

/* One delay site's whatif at both counts (issue 17 item 4;
 * analysis/explain_whatif.c): its slope per ns put on an op at T and at
 * R (analysis/whatif.h's fit over the blocks) and the ratio T over R with
 * Fieller's interval over the blocks both have. */
# define RCUPROF_EXPLAIN_MAX_WHATIF 8

typedef struct rcuprof_explain_slope_st {
    unsigned threads;
    size_t blocks;              /* blocks with an ok run at every delay */
    double slope, lo, hi;       /* NAN: no block (bounds: under 2) */
} rcuprof_explain_slope;

typedef struct rcuprof_explain_whatif_st {
    char site[32];
    char label[64];             /* how evidence names it ("rwlock
                                 * write_hold"); the site by default */
    rcuprof_explain_slope t, r;
    int has_reference;
    int ratio_rc;               /* rcuprof_whatif_slope_ratio's: 0 bounded,
                                 * 1 unbounded (lo -INF, hi INF), -1 under 2
                                 * paired blocks (NAN) */
    double ratio, lo, hi;
    size_t paired;              /* the blocks both fits have */
    double paired_t, paired_r;  /* the mean slopes at T and at R over those
                                 * paired blocks: ratio = paired_t /
                                 * paired_r (t.slope and r.slope are each
                                 * over its own blocks); NAN */
} rcuprof_explain_whatif;

typedef struct rcuprof_explain_case_st {
    const char *kind;           /* "dip", "knee", "listed" */
    int has_reference;
    rcuprof_explain_side t;     /* the slow (or listed) count */
    rcuprof_explain_side r;     /* the count it is compared with */
    unsigned cpus_allowed;
    int packages, l3_domains, cores, pus; /* among the allowed CPUs */
    int pmu;                    /* hardware counters available */
    char pmu_reason[160];
    const char *alt_harness;    /* "perftools" or "rcuprof" */
    int writers;                /* the workload runs writers */
    const rcuprof_explain_pair *pairs;
    size_t npairs;
    double sweep_rtt_min, sweep_rtt_max, sweep_rtt_jump; /* NAN: no sweep */
    const rcuprof_explain_whatif *whatif; /* --whatif-site: one per site */
    size_t nwhatif;
} rcuprof_explain_case;

enum {
    RCUPROF_EXPLAIN_NOT_TESTABLE = 0,
    RCUPROF_EXPLAIN_REFUTED,
    RCUPROF_EXPLAIN_INCONCLUSIVE,
    RCUPROF_EXPLAIN_SUPPORTED
};
const char *rcuprof_explain_verdict_name(int v);

typedef struct rcuprof_explain_verdict_st {
    const char *id;
    const char *title;
    int verdict;
    char reason[RCUPROF_EXPLAIN_EVIDENCE_LEN];   /* not testable: why */
    char pro[RCUPROF_EXPLAIN_MAX_EVIDENCE][RCUPROF_EXPLAIN_EVIDENCE_LEN];
    size_t npro;
    char con[RCUPROF_EXPLAIN_MAX_EVIDENCE][RCUPROF_EXPLAIN_EVIDENCE_LEN];
    size_t ncon;
} rcuprof_explain_verdict;

/* Thresholds of the rules; rcuprof_explain_thresholds_default() fills the
 * documented defaults (docs/explain.md). */
typedef struct rcuprof_explain_thresholds_st {
    double excess;              /* a step exists: cost ratio >= 1 + excess */
    double same;                /* two figures agree within this fraction */
    double util_slack;          /* utilisation <= CPUs/threads x (1+this) */
    double runq_expected_frac;  /* runq share >= this x (1 - CPUs/threads) */
    double runq_external;       /* unexplained runq share: external load */
    double steal_share;         /* steal over CPU time: external */
    double cpu_rise;            /* CPU ns/op ratio: contention */
    double running_util;        /* utilisation >= this x min(1, C/T) */
    double rtt_slow;            /* cross-domain vs within: slower */
    double rtt_jump;            /* line_rtt after/before: state change */
    double rtt_state;           /* median rtt at T vs R: other state */
    double probe_rise;          /* probe figures rise by this fraction */
    double freq_drop;           /* cycles per ns falls by this fraction */
    double serialised;          /* a site's slope at T over at R: at most
                                 * this (1.5) */
    double serialised_frac;     /* ... and, for T > R, 1 + this (0.5) x
                                 * (T/R - 1): part of the way to the T/R a
                                 * perfectly serialised site tends to */
} rcuprof_explain_thresholds;

void rcuprof_explain_thresholds_default(rcuprof_explain_thresholds *th);

/*
 * serialised_site's threshold for the slope ratio T over R: for T > R
 * min(serialised, 1 + serialised_frac x (T/R - 1)) (a perfectly
 * serialised site's ratio tends to T/R, so a knee 3 vs 2 asks for 1.25);
 * for T <= R (a dip's reference is the higher count) `serialised`.
 */
double rcuprof_explain_serialised_threshold(
    const rcuprof_explain_thresholds *th, unsigned T, unsigned R);

typedef void (*rcuprof_explain_rule_fn)(const rcuprof_explain_case *c,
                                        const rcuprof_explain_thresholds *th,
                                        rcuprof_explain_verdict *v);

typedef struct rcuprof_explain_rule_st {
    const char *id;
    const char *title;
    const char *question;       /* what the rule asks of the measurements */
    rcuprof_explain_rule_fn eval;
} rcuprof_explain_rule;

/* The rules, in the order they are reported; "unexplained" is last. */
extern const rcuprof_explain_rule rcuprof_explain_rules[];
extern const size_t rcuprof_explain_nrules;

/* Index of a rule id, or -1. */
int rcuprof_explain_rule_index(const char *id);

/*
 * Every rule on c into v[rcuprof_explain_nrules].  The summary: ids of the
 * supported causes, comma separated ("unexplained" when there is a step and
 * none is supported, "no step" when the step did not reproduce, "baseline"
 * for a count without a reference).
 */
void rcuprof_explain_classify(const rcuprof_explain_case *c,
                              const rcuprof_explain_thresholds *th,
                              rcuprof_explain_verdict *v,
                              char *summary, size_t n);

/* cost ratio target/reference of placement i (NAN if either missing). */
double rcuprof_explain_excess(const rcuprof_explain_case *c, size_t i);

/*
 * explain_whatif.c: one run of a whatif cell (site at delay_ns, block,
 * threads) as analysis/whatif.h's observation: the record's run.delay
 * figures (NAN when absent), ok by the record's rule.
 */
struct rcuprof_whatif_obs_st;
void rcuprof_explain_whatif_obs(const rcuprof_record *rec, unsigned block,
                                unsigned threads, double delay_ns,
                                struct rcuprof_whatif_obs_st *o);
/*
 * One site's figures from its runs obs[0..n) (both counts, blocks
 * numbered alike at both: block i of every cell is the same block) over
 * delays[0..nd): the fit at T and, with a reference, at R
 * (rcuprof_whatif_fit_threads), and the ratio of T's slope over R's with
 * its Fieller interval at RCUPROF_EXPLAIN_LEVEL
 * (rcuprof_whatif_slope_ratio).  0, or -1 (memory, bad arguments).
 */
int rcuprof_explain_whatif_fit(const char *site,
                               const struct rcuprof_whatif_obs_st *obs,
                               size_t n, unsigned T, unsigned R,
                               int has_reference, const double *delays,
                               size_t nd, rcuprof_explain_whatif *out);

/* ---------------------------------------------------------------------- */
/* What one explain run was, for its report                                */

struct rcuprof_placement_topo_summary;

typedef struct rcuprof_explain_meta_st {
    const char *version;        /* rcuprof's */
    int64_t created_unix_ns;
    const char *mode;           /* "results" or "threads" */
    const json_t *inputs;       /* the results files (array) */
    const char *variant;
    const char *openssl_version, *line; /* the variant's ("" if no run said) */
    const json_t *options;      /* the driver options every run got */
    const char *options_text;
    unsigned reps;
    uint64_t seed;
    const char *host, *kernel;
    const struct rcuprof_placement_topo_summary *topo;
    int pmu;
    const char *pmu_reason, *counters;
    const char (*pnames)[48];   /* the placements run, nplace of them */
    const char (*psame)[96];
    size_t nplace;
    const rcuprof_explain_pair *pairs;  /* the round-trip matrix's */
    size_t npairs, total_pairs;
    size_t runs_total, runs_failed;
    const json_t *detection;    /* per variant, or NULL */
    const json_t *whatif;       /* {sites, delays_ns, where}, or NULL */
    const json_t *cases, *notes;
} rcuprof_explain_meta;

/* The output, explain.json (rcuprof_explain_report_json) and explain.md:
 * analysis/report/explain.c (rcuprof_report.h). */

#endif
