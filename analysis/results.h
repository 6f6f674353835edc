/*
 * Sweep results files (docs/interfaces.md, "Results file") and the
 * comparison table built from them (rcuprof compare, rcuprof report).
 * Everything here is pure (no driver, no terminal) so unit tests reach it;
 * the writers of the table are analysis/report/rcuprof_report.h's.
 */
#ifndef RCUPROF_RESULTS_H
# define RCUPROF_RESULTS_H

# include <stddef.h>
# include <stdint.h>
# include <jansson.h>

# include "rcuprof_stats.h"
# include "record.h"
# include "state.h"

# define RCUPROF_RESULTS_SCHEMA "rcuprof-results/1"
# define RCUPROF_COMPARE_SCHEMA "rcuprof-compare/1"

/* ---------------------------------------------------------------------- */
/* Hashing and the sweep spec                                              */

/* SHA-256 of data as 64 lowercase hex digits plus NUL. */
void rcuprof_sha256_hex(const void *data, size_t len, char hex[65]);

/*
 * The canonical text of a spec (compact JSON, keys sorted) and its hash:
 * two specs are the same sweep exactly when their hashes are equal.
 * Returns 0, or -1 when spec is not an object or memory ran out.
 */
int rcuprof_spec_hash(const json_t *spec, char hex[65]);

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

enum {
    RCUPROF_POINT_OK = 0,
    RCUPROF_POINT_FAILED,
    RCUPROF_POINT_TIMEOUT,
    RCUPROF_POINT_CRASHED
};

/* "ok", "failed", "timeout", "crashed"; -1 from _parse for anything else. */
const char *rcuprof_point_status_name(int status);
int rcuprof_point_status_parse(const char *s);

typedef struct rcuprof_point_st {
    size_t file;                /* index into rcuprof_results.files */
    unsigned block, threads, order, seq;
    size_t variant;             /* index into rcuprof_results.variants */
    int status;
    /* The point's driver result, decoded (record.h); an ok point's is a
     * measurement, every other's holds no figure. */
    rcuprof_record result;
    char *message;              /* failed runs: the driver's message */
} rcuprof_point;

typedef struct rcuprof_results_file_st {
    char *path;
    json_t *header;             /* the header line */
    size_t lines;               /* complete lines, header included */
    size_t n_corrupt;           /* point lines skipped (not JSON, bad) */
    size_t first_corrupt;       /* 1-based line number of the first */
    char corrupt_why[256];      /* what is wrong with the first */
    int torn;                   /* the last line had no newline: ignored */
    uint64_t good_len;          /* bytes up to the end of the last
                                 * complete line */
    size_t points;              /* point lines read (valid ones) */
    char *host;                 /* env of the first ok point, or NULL */
    char *kernel;
    /* The machine-state split learned over this file's ok runs (state.h);
     * each ok point's result.state is tagged with it. */
    rcuprof_state_split state;
} rcuprof_results_file;

typedef struct rcuprof_results_st {
    rcuprof_results_file *files;
    size_t nfiles;
    char **variants;            /* in first-seen order (spec order) */
    size_t nvariants;
    rcuprof_point *points;
    size_t npoints, cap;
} rcuprof_results;

/*
 * Read one results file and add it to rs (zero-initialise rs first).
 * A missing, unreadable or empty file, a first line that is not a valid
 * header (JSON object, type "header", schema RCUPROF_RESULTS_SCHEMA, a
 * spec whose hash is spec_hash): -1 with a one-line reason in err.  A
 * later line that is not a valid point (an ok point's result must decode
 * as a measurement, record.h) is skipped and counted (n_corrupt, the
 * first's line and reason kept); a last line without its newline is
 * ignored (torn).  The commands that analyse refuse a file with a corrupt
 * line (src/cli/command.c); sweep --resume runs its points again.
 */
int rcuprof_results_read(rcuprof_results *rs, const char *path,
                         char *err, size_t errlen);
void rcuprof_results_free(rcuprof_results *rs);
/* Index of variant name, adding it when add is set; -1 if absent. */
long rcuprof_results_variant(rcuprof_results *rs, const char *name, int add);

/* ---------------------------------------------------------------------- */
/* The comparison table                                                    */

enum { RCUPROF_METRIC_WALL = 0, RCUPROF_METRIC_CPU = 1 };
const char *rcuprof_metric_name(int metric);
int rcuprof_metric_parse(const char *s);

typedef struct rcuprof_cell_st {
    size_t n;                   /* ok runs */
    size_t failed;              /* runs recorded failed/timeout/crashed */
    /* Runs of 0 ns/op (cpu_ns_per_op may be 0: record.h): with any, the
     * cell has no geometric mean; geomean holds the arithmetic mean, the
     * writers mark the cell "has 0" and a note says why. */
    size_t n_nonpos;
    rcuprof_stats_summary s;    /* valid when n >= 1; s.mean is the
                                 * arithmetic mean */
    /* The cell's centre, what the tables print and the cost plot draws:
     * the geometric mean exp(m) of the runs (m, s: the mean and SD of
     * their logs), with Student's t interval on the logs mapped back,
     * exp(m -+ t s / sqrt(n)) (rcuprof_stats_geomean), and the geometric
     * SD exp(s), the spread md-wide prints beside it.  The change column
     * is a ratio of such means: of these two cells' exactly when every
     * run of both is paired; a paired change from fewer blocks than a
     * cell's n is the ratio over the common blocks only (rcuprof_change
     * partial, pairs_base_gm, pairs_gm), which can differ from the
     * cells' even in sign, and the writers mark it.  The
     * one value when n == 1 (no interval, no spread); the arithmetic mean
     * (no interval) when some value is not above 0. */
    double geomean, geomean_lo, geomean_hi, gsd;
    /* The log-normal mean exp(m + s^2/2), the estimate of the arithmetic
     * mean the Cox interval s.mean_lo..s.mean_hi is built around (CSV
     * centre_ns, JSON centre; not printed: at small n and wide spread it
     * lies above most runs, and its expectation is infinite when the
     * true log variance sigma^2 (not the sample's s^2) is at least
     * n - 1, as E exp(s^2/2) is then); the one value when n == 1; the
     * arithmetic mean when some
     * value is not above 0. */
    double lognormal_mean;
    /* Runs above RCUPROF_STALL_FACTOR times stall_ref, the cell's
     * ceil(n/4)-th fastest run (rcuprof_stats_stalls): a stalled or
     * preempted run rather than spread, counted even when most runs
     * stall. */
    size_t n_stalls;
    double stall_ref;
    /* Cells of 5 to 8 runs, where the heavy-tail check (the geometric
     * mean outside the median's distribution-free interval, from 9 runs)
     * cannot fire: 1 when the geometric mean lies above every run but
     * the slowest. */
    int gm_above_rest;
    /* ops_per_s on the same scale as the cost: the geometric mean of the
     * runs' throughput with Student's t interval on the logs
     * (rcuprof_stats_geomean).  For the wall metric exactly threads x 1e9
     * over geomean, and the interval that of the cost inverted, as
     * ops_per_s = threads x 1e9 / wall_ns_per_op run by run.  NAN without
     * a run above 0; no interval under 2. */
    double tput, tput_lo, tput_hi;
    size_t n_outliers;          /* modified z beyond 3.5 */
    int noisy;                  /* CV above RCUPROF_STATS_NOISY_CV */
    /* Medians over the runs of the probe figures (record.h); NAN when no
     * run carries them. */
    double probe_retries, probe_slow;
    /* The spread of ln cost over the first stage (an adaptive sweep's
     * blocks below spec.reps; every run otherwise) and the MDE of this
     * cell against a like one (same n and spread; Stein's two-stage on the
     * logs).  NAN when n0 < 2. */
    size_t n0;
    double sd0_log, mde_pct;
    /* The ok runs by machine state (RCUPROF_STATE_*, state.h). */
    size_t states[RCUPROF_STATE_COUNT];
} rcuprof_cell;

/*
 * One variant against the baseline at one thread count.  One coherent test
 * per row (docs/methodology.md, section 3): the change, its interval, p and
 * the MDE all come from Student's t on logs (paired over blocks: the
 * per-block log ratios; unpaired: Welch on the log values).  The interval
 * is per row (unadjusted, 95%): it excludes zero exactly when the raw p is
 * below alpha.  The decision (rcuprof_change_resolved) uses Holm's p over
 * the table.  Wilcoxon and Mann-Whitney are robustness columns.
 */
typedef struct rcuprof_change_st {
    int have;                   /* computable: both cells have n >= 2 */
    int paired;                 /* from >= 2 common blocks, else unpaired */
    size_t n_pairs;
    /* Paired from fewer blocks than either cell's n (a block where one
     * variant has no ok run, or by state a run of another state): the
     * change is the ratio of the geometric means over the common blocks,
     * pairs_gm over pairs_base_gm, not of the printed cells (each the
     * geometric mean of all its runs), and may differ from theirs even
     * in sign; the writers mark it and print both means.  The means are
     * set on every paired row (NAN otherwise). */
    int partial;
    double pairs_base_gm, pairs_gm;
    double change_pct, lo_pct, hi_pct; /* B relative to the baseline A:
                                 * geometric means, t interval on logs */
    double sd_log;              /* paired: SD of the log ratios */
    double p_wilcoxon, p_welch, p_mw;  /* raw, two-sided; NAN if n/a;
                                 * p_welch: Welch on the raw values */
    double p_wilcoxon_holm, p_welch_holm, p_mw_holm;
    double p, p_holm;           /* the primary test, the interval's: paired
                                 * t on the log ratios, or Welch's t on the
                                 * logs when unpaired */
    double mde_pct;             /* alpha 0.05, power 0.8, t quantiles */
    /* Fewer blocks (or runs a side, unpaired) than RCUPROF_CHANGE_MIN_N:
     * the row is shown but decides nothing. */
    int too_few;
    /* The smallest p the robustness rank test (Wilcoxon paired, Mann-
     * Whitney unpaired) can give at this n; above alpha it can never
     * reject (n <= 5 blocks for Wilcoxon).  NAN if n/a. */
    double p_min_attainable;
    int resolved;               /* rcuprof_change_resolved() */
    /* An adaptive sweep's row (docs/methodology.md, "Adaptive
     * repetitions"): Stein's two-stage t, the mean over all n_pairs
     * blocks, the spread (sd_log) of the first n_stage1 only; the interval,
     * p and MDE stay valid although the sweep chose n from that spread. */
    int two_stage;
    size_t n_stage1;
    /* An adaptive row whose first stage cannot carry Stein's interval
     * (under 2 pairs, or every first-stage ratio equal): too_few is set,
     * the row decides nothing, and a note says why. */
    int two_stage_na;
} rcuprof_change;

/* A run above this many times its cell's fast reference, the ceil(n/4)-th
 * fastest run (rcuprof_stats_stalls), is a stall.  The rule ignores the
 * cell's spread: plain log-normal spread of log SD 0.8 flags under 2.5%
 * of cells of 2 to 40 runs (exactly 0.44% at 2) but 3.9% at 80, and far
 * more at wider spread; at 4 runs or fewer the reference is the fastest
 * run, so one abnormally fast run makes the others stalls
 * (test_stats_desc, docs/methodology.md section 3, "Stalls"). */
# define RCUPROF_STALL_FACTOR 25.0

/* Fewest blocks (paired) or runs per side (unpaired) a row decides from:
 * the t test then has at least 2 degrees of freedom. */
# define RCUPROF_CHANGE_MIN_N 3

typedef struct rcuprof_table_st {
    int metric;
    size_t nvariants;
    const char **variants;      /* borrowed from the results */
    size_t baseline;
    size_t nthreads;            /* rows: thread counts, or with by_state
                                 * (thread count, state) pairs */
    unsigned *threads;          /* each row's thread count */
    int by_state;               /* rows stratified by machine state */
    int *row_state;             /* each row's state, or -1: every run */
    int have_states;            /* some ok run has a known state */
    unsigned cpus_allowed;      /* smallest over the ok runs; 0 unknown */
    rcuprof_cell *cells;        /* [t * nvariants + v] */
    rcuprof_change *changes;    /* [t * nvariants + v]; v != baseline */
    json_t *notes;              /* array of one-line strings */
    double level, alpha, power; /* of the intervals, the tests, the MDE */
    size_t ntests;              /* changes with a p-value (Holm's m) */
    size_t runs_min, runs_max;  /* ok runs per cell, least and most */
    double target_mde_pct;      /* the adaptive sweep's target, or NAN */
    size_t n_two_stage;         /* rows computed by the two-stage rule */
    int have_probes;            /* some cell has a probe figure: */
    int have_retries, have_slow;    /* retries; slow-path fetches */
    /* Rows where some variant's runs ran in another machine-state mix
     * than the baseline's (total variation distance of the fast, slow
     * and mixed shares 0.25 or more): 1 per such row; NULL without
     * changes. */
    int *row_mix;
    /* The A/A pair (rcuprof_table_aa): variant aa_b against aa_a, two
     * builds of the same code; aa[ti] per row (the change as against the
     * baseline, its resolved set when the interval excludes 0 at the
     * raw p: a check errs towards the alarm), NULL when none is set. */
    size_t aa_a, aa_b;
    rcuprof_change *aa;
    /* Variants of more than one OpenSSL version: "stock 3.5.7 (line
     * 3.5), stock@4.0 4.0.1 (line 4.0)", else NULL. */
    char *lines;
} rcuprof_table;

/* One variant's Universal Scalability Law fit over its ok runs at or
 * below the CPU count (at least 5 distinct counts there). */
typedef struct rcuprof_usl_fit_st {
    int fitted;
    char reason[160];           /* not fitted: why */
    rcuprof_stats_usl m;
} rcuprof_usl_fit;

/*
 * baseline: a variant name, or NULL for the first variant.  -1 with err on
 * an unknown baseline, fewer than 2 variants, or no ok runs.
 */
int rcuprof_table_build(const rcuprof_results *rs, const char *baseline,
                        int metric, rcuprof_table *t, char *err,
                        size_t errlen);
/*
 * As rcuprof_table_build; with by_state, one row per thread count and
 * machine state that has runs (state.h), each comparing only the runs of
 * that state (blocks pair where both runs are in it).
 */
int rcuprof_table_build_states(const rcuprof_results *rs,
                               const char *baseline, int metric, int by_state,
                               rcuprof_table *t, char *err, size_t errlen);
/* Row ti's label: "2", or with by_state "2 fast". */
void rcuprof_table_row_label(const rcuprof_table *t, size_t ti, char *buf,
                             size_t n);
/* Row ti's state name, or "all" when the rows are not stratified. */
const char *rcuprof_table_row_state_name(const rcuprof_table *t, size_t ti);
/* A cell's state mix, "6f 2s 1m 1?" (zero counts left out), or "-". */
void rcuprof_cell_state_mix(const rcuprof_cell *c, char *buf, size_t n);
/* The cells only, of any number of variants (no baseline, no changes):
 * what the scaling report of each variant is made from. */
int rcuprof_table_describe(const rcuprof_results *rs, int metric,
                           rcuprof_table *t, char *err, size_t errlen);
void rcuprof_table_free(rcuprof_table *t);
/*
 * The A/A pair of a built comparison (compare --aa A,B): B against A per
 * row, from rs (the results t was built from), outside the table's Holm
 * family.  0, or -1 with err when A or B is not a variant of t or they
 * are the same.
 */
int rcuprof_table_aa(rcuprof_table *t, const rcuprof_results *rs,
                     const char *a, const char *b, char *err, size_t errlen);
/*
 * Whether row ti is to be trusted less, as the compact table marks it:
 * an RCUPROF_ROW_* mask (0: nothing known against it).  Oversubscribed:
 * more threads than CPUs; mix: row_mix; aa: the A/A pair's interval
 * excludes 0; floor: a resolved change in the row is smaller than the
 * A/A pair's interval reaches (its larger end, either side of 0).
 */
enum {
    RCUPROF_ROW_OVERSUBSCRIBED = 1,
    RCUPROF_ROW_MIX = 2,
    RCUPROF_ROW_AA = 4,
    RCUPROF_ROW_AA_FLOOR = 8
};
int rcuprof_table_row_doubt(const rcuprof_table *t, size_t ti);
int rcuprof_table_oversubscribed(const rcuprof_table *t, size_t ti);

/*
 * The one decision of a row, "is this change resolved": computable, not
 * too few, and Holm's p of the primary test below the table's alpha.  1 or
 * 0.  Every writer and command asks this function.
 */
int rcuprof_change_resolved(const rcuprof_table *t, const rcuprof_change *c);
/* What rcuprof_change_resolved checks, in words, for the writers'
 * footnotes. */
void rcuprof_change_resolved_rule(const rcuprof_table *t, char *buf,
                                  size_t n);
/*
 * The adaptive sweep's figures (issue 18) from a table of what has run:
 * the worst MDE now (over the changes against the baseline, or over the
 * cells when the table has one variant or no changes), where it is, and
 * the fewest blocks that bring every one to target_pct (Stein: from the
 * first stage's spread only; max + 1 when max blocks are not enough).
 * Rows or cells without 2 first-stage values are skipped and counted in
 * unknown.  0, or -1 when nothing has an MDE yet.
 */
typedef struct rcuprof_adaptive_need_st {
    double worst_mde_pct;
    size_t worst_ti, worst_v;
    size_t blocks;              /* needed in all */
    size_t unknown;
} rcuprof_adaptive_need;

int rcuprof_table_adaptive(const rcuprof_table *t, double target_pct,
                           size_t max, rcuprof_adaptive_need *out);

/* A results file's adaptive target (its spec's target_mde_pct), or NAN;
 * its first stage is then the blocks below spec.reps. */
double rcuprof_results_target_mde(const rcuprof_results *rs, size_t file);

/* Variant v's fit into f: 0 (fitted or not, f says), -1 out of memory. */
int rcuprof_table_usl(const rcuprof_results *rs, const rcuprof_table *t,
                      size_t v, rcuprof_usl_fit *f);

#endif
