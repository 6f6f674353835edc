/*
 * `rcuprof whatif`: causal attribution by delay injection (issue 17;
 * docs/interfaces.md sections 3.4 and 9; docs/methodology.md, "What a
 * whatif slope means").
 *
 * A delay site adds D ns of busy work per call.  Runs at several D in
 * interleaved blocks give, per thread count, wall ns/op against x, the
 * delay really put on an op (delay_ns_per_call x calls_per_op).  The slope
 * says how an op's cost moves per ns put on it at the site: 1 the site's
 * time simply adds, above 1 threads queue behind it, below 1 it overlaps
 * waiting.  Everything here is pure (no driver, no terminal, no file
 * written); the command is src/cli/whatif.c, the writers
 * analysis/report/whatif.c.
 */
#ifndef RCUPROF_WHATIF_H
# define RCUPROF_WHATIF_H

# include <stddef.h>
# include <jansson.h>

# define RCUPROF_WHATIF_SCHEMA "rcuprof-whatif/1"
# define RCUPROF_WHATIF_DELAYS_MAX 16
# define RCUPROF_WHATIF_DELAY_NS_MAX 100000u

/* One run of a whatif: its cell (thread count, asked delay), its block,
 * and the figures of its driver result (run.delay, section 3.4). */
typedef struct rcuprof_whatif_obs_st {
    unsigned block, threads;
    int unarmed;                /* the run without --delay-site (the plan's
                                 * unarmed cell): delay_ns NAN, no x; in no
                                 * slope fit */
    double delay_ns;            /* asked (--delay-ns); NAN unarmed */
    int ok;                     /* a measurement (record.h's rule) */
    double wall_ns_per_op;
    double calls_per_op;        /* NAN: not recorded (then 1 per op) */
    double delay_ns_per_call;   /* NAN: not recorded (then delay_ns) */
    double own_ns_per_call;     /* NAN: the site's code is not timed */
    double fixed_ns;            /* the build's always-on cost, 0 without */
    int oversubscribed;
} rcuprof_whatif_obs;

/* The delay really spent per op: delay_ns_per_call (or the asked ns) x
 * calls_per_op (or 1). */
double rcuprof_whatif_x(const rcuprof_whatif_obs *o);

/*
 * A point line of a whatif results file (docs/interfaces.md section 7:
 * `block`, `threads`, `status`, `delay_ns`, `result`) into o.  The result
 * is decoded through record.c (ok only for a measurement), run.delay read
 * here.  `delay_ns` null is the unarmed cell (o->unarmed).  0, or -1 when
 * the line is not a whatif point (no delay_ns member).
 */
int rcuprof_whatif_obs_from_point(const json_t *line, rcuprof_whatif_obs *o);

/*
 * A whatif results file: the header (validated as section 7 says, through
 * rcuprof_results_read) and every valid point line.  *header is a new
 * reference; *obs malloc'ed.  0, or -1 with a one-line reason in err.
 */
int rcuprof_whatif_load(const char *path, json_t **header,
                        rcuprof_whatif_obs **obs, size_t *n, char *err,
                        size_t errlen);

/* ---------------------------------------------------------------------- */
/* The fit of one thread count (also what explain's `serialised site`
 * rule reads: docs/explain.md)                                           */

typedef struct rcuprof_whatif_fit_st {
    unsigned threads;
    size_t nblocks;             /* blocks with an ok run at every delay
                                 * (and 2 distinct x): the slopes' n */
    unsigned *block;            /* [nblocks] each one's block number */
    double *block_slope;        /* [nblocks] OLS slope of wall ns/op on x */
    double *block_intercept;    /* [nblocks] its intercept (ns/op at x=0) */
    double level;
    double slope, lo, hi;       /* mean of block_slope, Student's t
                                 * interval (NAN bounds under 2 blocks) */
    double intercept, ilo, ihi; /* likewise of block_intercept */
    size_t degenerate;          /* blocks skipped: every x equal (the site
                                 * not called, or one delay really spent) */
    /* Whether the line explains the runs: resid_sd, the SD of the runs
     * about each block's line (sqrt of the mean over blocks of its
     * residual sum of squares / (delays - 2)); signal_sd, the SD of the
     * fitted values, |slope| x the SD of x (root mean of each block's x
     * variance).  nofit: resid_sd > signal_sd (the scatter about the line
     * exceeds what the line moves: R^2 below about 1/2); 0 with 2 delays
     * (no residual) or no block (both NAN then). */
    double resid_sd, signal_sd;
    int nofit;
} rcuprof_whatif_fit;

/*
 * Fit the runs of obs[0..n) at `threads` with asked delays delays[0..nd):
 * per block that has an ok run at every delay, the least-squares line of
 * wall_ns_per_op on rcuprof_whatif_x (GSL), then the mean over blocks
 * with its t interval at `level`.  nd >= 2.  0 (even with no block:
 * nblocks 0, every figure NAN), -1 out of memory or bad arguments.
 * Free with rcuprof_whatif_fit_free.
 */
int rcuprof_whatif_fit_threads(const rcuprof_whatif_obs *obs, size_t n,
                               unsigned threads, const double *delays,
                               size_t nd, double level,
                               rcuprof_whatif_fit *out);
void rcuprof_whatif_fit_free(rcuprof_whatif_fit *f);

/*
 * The ratio of two slopes, b's over a's (e.g. the slow thread count's
 * over its reference), with Fieller's interval at `level` over the blocks
 * both fits have (paired by block number: the covariance of the two mean
 * slopes enters): the ratio's set is the rho with
 * (mb - rho ma)^2 <= t^2 (vbb - 2 rho vab + rho^2 vaa).  0 with a bounded
 * interval; 1 when a's mean slope is not distinguishable from 0 at level
 * (the set is unbounded: lo = -INF, hi = INF; the ratio still given);
 * -1 under 2 common blocks (everything NAN).  *npaired: the common blocks;
 * *ma and *mb (either may be NULL): the two mean slopes over those paired
 * blocks, the numbers whose quotient is *ratio (NAN under 1 block).
 */
int rcuprof_whatif_slope_ratio(const rcuprof_whatif_fit *a,
                               const rcuprof_whatif_fit *b, double level,
                               double *ratio, double *lo, double *hi,
                               size_t *npaired, double *ma, double *mb);

/* ---------------------------------------------------------------------- */
/* The whole analysis: one row per thread count (section 9)               */

enum {
    RCUPROF_WHATIF_ADDS = 0,    /* the slope's interval holds 1 and lies
                                 * within [ADDS_LO, ADDS_HI] */
    RCUPROF_WHATIF_AMPLIFIED,   /* above 1: threads wait behind the site */
    RCUPROF_WHATIF_OVERLAPPED,  /* below 1: it overlaps waiting */
    RCUPROF_WHATIF_UNDETERMINED,/* fewer than 2 blocks, or an interval that
                                 * holds both 0 and 1 (nothing known) */
    RCUPROF_WHATIF_NOFIT        /* the fit's nofit: no line to read */
};
const char *rcuprof_whatif_reading_name(int reading);
/* The band a slope interval holding 1 must lie within to read "adds"
 * (docs/methodology.md, whatif). */
#define RCUPROF_WHATIF_ADDS_LO 0.75
#define RCUPROF_WHATIF_ADDS_HI 1.25
/* The reading of a slope interval (NAN bounds, an interval holding both 0
 * and 1, or one holding 1 that leaves the band: undetermined). */
int rcuprof_whatif_reading(double lo, double hi);

typedef struct rcuprof_whatif_est_st {
    int have;
    double value, lo, hi;       /* mean over blocks, t interval */
    size_t n;
} rcuprof_whatif_est;

typedef struct rcuprof_whatif_cell_st {
    double delay_ns;            /* NAN: the unarmed cell */
    double x_ns_per_op;         /* median over the ok runs; NAN if none */
    size_t runs, failed;
    double mean, lo, hi;        /* wall ns/op; Cox interval on logs (NAN
                                 * bounds under 2 runs) */
} rcuprof_whatif_cell;

typedef struct rcuprof_whatif_row_st {
    unsigned threads;
    int oversubscribed;
    double calls_per_op;        /* median over the ok runs at the lowest
                                 * delay (what the prediction uses); NAN */
    double own_ns_per_call;     /* likewise; NAN when not timed */
    rcuprof_whatif_cell cells[RCUPROF_WHATIF_DELAYS_MAX];
    size_t ncells;
    rcuprof_whatif_cell unarmed;      /* the runs without --delay-site
                                       * (runs 0: none, e.g. an old file) */
    rcuprof_whatif_fit fit;
    int reading;
    /* The predictions: none (have 0) under nofit, or when the interval
     * reaches 0 ns/op or below (a cost is positive: the line does not
     * hold that far; a note says so). */
    rcuprof_whatif_est without_site;  /* line at x0 - own x calls */
    rcuprof_whatif_est without_fixed; /* line at x0 - fixed x calls */
    rcuprof_whatif_est mechanism;     /* per block: wall at the lowest
                                       * delay - wall unarmed */
    rcuprof_whatif_est without_site_unarmed; /* per block: without_site's
                                              * - mechanism's */
} rcuprof_whatif_row;

typedef struct rcuprof_whatif_st {
    double delays[RCUPROF_WHATIF_DELAYS_MAX];
    size_t ndelays;
    rcuprof_whatif_row *rows;
    size_t nrows;
    double fixed_ns;            /* the largest over the ok runs; 0 */
    size_t runs, failed;        /* unarmed runs included */
    size_t unarmed_runs;        /* runs of the unarmed cell, any status */
    unsigned blocks;            /* distinct blocks run */
    json_t *notes;              /* one-line strings */
} rcuprof_whatif;

/*
 * Every row of threads[0..nt) over delays[0..nd) (2..16 distinct), at
 * 95%.  0, or -1 with a one-line reason (bad arguments, memory).
 */
int rcuprof_whatif_analyse(const rcuprof_whatif_obs *obs, size_t n,
                           const double *delays, size_t nd,
                           const unsigned *threads, size_t nt,
                           rcuprof_whatif *w, char *err, size_t errlen);
void rcuprof_whatif_free(rcuprof_whatif *w);

/*
 * The adaptive rule of `whatif --target-mde` (as sweep's for one variant:
 * docs/methodology.md, "Adaptive repetitions"): every (thread count,
 * delay) cell's (the unarmed cell's too: worst_delay_ns NAN) MDE against a like cell from its first-stage spread
 * (blocks below reps; Stein's two-stage on the logs), the worst one, and
 * the blocks that bring every cell to target_pct (max + 1 when max is not
 * enough).  0, or -1 when no cell has 2 first-stage runs.
 */
typedef struct rcuprof_whatif_need_st {
    double worst_mde_pct;
    unsigned worst_threads;
    double worst_delay_ns;
    size_t blocks;
    size_t unknown;             /* cells without 2 first-stage runs */
} rcuprof_whatif_need;

int rcuprof_whatif_adaptive(const rcuprof_whatif_obs *obs, size_t n,
                            unsigned reps,
                            double target_pct, size_t max,
                            rcuprof_whatif_need *out);

#endif
