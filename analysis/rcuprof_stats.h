/*
 * rcuprof statistics core: descriptives, paired and unpaired comparisons,
 * rank tests, Holm's correction, minimum detectable effect, outliers, the
 * Universal Scalability Law fit and dip/knee helpers.  See analysis/README.md
 * for what each statistic is, why it was chosen and the references.
 *
 * Conventions
 *   - Every function that can fail returns an int: RCUPROF_STATS_OK (0) or a
 *     negative RCUPROF_STATS_E* code; it never aborts and never prints.
 *     On an error the output structure's contents are unspecified (the
 *     functions fill what they can with NAN).
 *   - A field that is not computable while the rest of the result is (for
 *     example the median interval for n < 6) is set to NAN and the function
 *     still returns RCUPROF_STATS_OK; each field says when.
 *   - Input arrays are never modified and need not be sorted.  Non-finite
 *     input values (NaN, +-Inf) are rejected with RCUPROF_STATS_EINVAL.
 *   - "level" is a confidence level in (0, 1), e.g. 0.95.
 *   - p-values are two-sided.
 *   - Thread safety: every function is reentrant except
 *     rcuprof_stats_usl_fit(), which switches GSL's global error handler off
 *     for the duration of the fit (GSL would otherwise abort the process).
 */
#ifndef RCUPROF_STATS_H
# define RCUPROF_STATS_H

# include <stddef.h>

# define RCUPROF_STATS_OK            0
/* A NULL pointer, a non-finite value, a level/alpha/power out of range. */
# define RCUPROF_STATS_EINVAL       -1
/* Too few observations for the statistic (the function says how many). */
# define RCUPROF_STATS_ETOOFEW      -2
/*
 * The data admit no answer: zero variance where a ratio by it is needed,
 * a value <= 0 where a logarithm is taken, MAD == 0 for modified z-scores,
 * fewer than 3 distinct thread counts for the USL.
 */
# define RCUPROF_STATS_EDEGENERATE  -3
# define RCUPROF_STATS_ENOMEM       -4
/* The nonlinear fit did not converge. */
# define RCUPROF_STATS_ENOCONV      -5

/* A one-line English description of an RCUPROF_STATS_* code. */
const char *rcuprof_stats_strerror(int err);

/* ---------------------------------------------------------------------- */
/* 1. Descriptives                                                         */

typedef struct rcuprof_stats_summary_st {
    size_t n;
    double mean;
    double median;
    double sd;                  /* sample SD (n - 1); NAN if n < 2 */
    double min, max;
    double q1, q3, iqr;         /* type-7 quartiles (see _quantile) */
    double cv;                  /* sd / |mean|; NAN if n < 2 or mean == 0 */
    double level;               /* level of both intervals */
    double mean_lo, mean_hi;    /* Student t interval; NAN if n < 2 */
    /*
     * Distribution-free interval for the median: order statistics
     * x(k) and x(n+1-k) with the largest k whose exact binomial coverage
     * 1 - 2 P(Bin(n, 1/2) <= k - 1) is still >= level.  NAN (both, and
     * median_coverage) when even k = 1 falls short: n < 6 at 0.95.
     */
    double median_lo, median_hi;
    double median_coverage;     /* that exact coverage, >= level */
} rcuprof_stats_summary;

/* n >= 1 (else ETOOFEW). */
int rcuprof_stats_describe(const double *x, size_t n, double level,
                           rcuprof_stats_summary *out);

/*
 * The p-quantile, p in [0, 1], by linear interpolation between order
 * statistics (Hyndman & Fan type 7; R's and NumPy's default):
 * h = (n - 1) p, q = x(floor h) + (h - floor h)(x(floor h + 1) - x(floor h))
 * with 0-based order statistics.  n >= 1.
 */
int rcuprof_stats_quantile(const double *x, size_t n, double p, double *q);

/*
 * An interval of the arithmetic mean of a positive quantity that stays
 * positive: computed on the logs (the modified Cox interval, Armstrong
 * 1992; Zhou & Gao 1997), with y = ln x of mean m and variance s^2:
 * exp(m + s^2/2 -+ t(1 - (1 - level)/2, n - 1) sqrt(s^2/n + s^4/(2(n - 1)))).
 * Exact for log-normal data in the limit, and what timing data (skewed,
 * multiplicative noise) are closer to than normal.  Every x > 0
 * (EDEGENERATE), n >= 2 (ETOOFEW).
 */
int rcuprof_stats_mean_ci_log(const double *x, size_t n, double level,
                              double *lo, double *hi);

/*
 * The geometric mean of a positive quantity and its interval, both on the
 * logs: with y = ln x of mean m and sample SD s, the geometric mean exp(m)
 * and exp(m -+ t(1 - (1 - level)/2, n - 1) s / sqrt(n)), Student's t
 * interval of m mapped back.  Under log-normality exp(m) estimates the
 * median; it is the centre the ratio of two cells' geometric means (a
 * change on the logs) is built from, and it has finite moments at any n,
 * unlike the log-normal mean exp(m + s^2/2).  gsd = exp(s), the geometric
 * standard deviation (a factor: one SD of ln x either side is gm / gsd to
 * gm * gsd).
 */
typedef struct rcuprof_stats_geo_st {
    size_t n;
    double gm;                  /* exp(m) */
    double sd_log;              /* s; NAN if n < 2 */
    double gsd;                 /* exp(s); NAN if n < 2 */
    double level;
    double lo, hi;              /* exp(m -+ t s / sqrt(n)); NAN if n < 2 */
} rcuprof_stats_geo;

/* Every x > 0 (EDEGENERATE), n >= 1 (ETOOFEW). */
int rcuprof_stats_geomean(const double *x, size_t n, double level,
                          rcuprof_stats_geo *out);

/* The interval of rcuprof_stats_summary.median_lo/hi on its own. */
int rcuprof_stats_median_ci(const double *x, size_t n, double level,
                            double *lo, double *hi, double *coverage);

/* ---------------------------------------------------------------------- */
/* Ranks and the rank tests                                                */

/*
 * Mid-ranks (1-based; tied values share the mean of their ranks).
 * *tie_sum (optional) receives sum over tie groups of (t^3 - t).
 */
int rcuprof_stats_rank(const double *x, size_t n, double *ranks,
                       double *tie_sum);

typedef struct rcuprof_stats_rank_test_st {
    /*
     * Signed-rank: V = sum of the ranks of |d| over d > 0 (R's V).
     * Mann-Whitney: W = U of x = rank sum of x - nx(nx+1)/2 (R's W), the
     * number of pairs with x > y, ties counting 1/2.
     */
    double statistic;
    double p;                   /* two-sided */
    double z;                   /* normal score; NAN when exact */
    /*
     * V / (n_used (n_used + 1) / 2), NAN if n_used == 0; or W / (nx ny),
     * the probability that an x exceeds a y (ties 1/2).  0.5 = no effect.
     */
    double effect;
    size_t n_used;              /* signed-rank: nonzero d; MW: nx + ny */
    size_t n_zero;              /* signed-rank: zeros dropped; MW: 0 */
    int exact;                  /* 1 exact null distribution, 0 normal */
    int ties;                   /* 1 if the ranked values had ties */
} rcuprof_stats_rank_test;

/* Signed-rank is exact with at most this many nonzero d and no ties. */
# define RCUPROF_STATS_SIGNRANK_EXACT_MAX 30
/* Exact Mann-Whitney when both samples are at or below it, no ties. */
# define RCUPROF_STATS_MW_EXACT_MAX       49

/*
 * Wilcoxon signed-rank test of "d symmetric about 0".  Zeros are dropped
 * (Wilcoxon's original method, as R) and counted in n_zero; the rest are
 * ranked by |d|.  Exact null distribution (conditional on the zeros
 * dropped) when n_used <= RCUPROF_STATS_SIGNRANK_EXACT_MAX and no ties;
 * otherwise the normal approximation with tie-corrected variance and a
 * continuity correction of 1/2 (as R's wilcox.test).  Note: R also falls
 * back to the normal approximation when zeros were dropped; we use the exact
 * conditional distribution of the remaining n_used, which is valid.
 * If every d is zero: statistic 0, p = 1, effect NAN, n_used = 0, exact 1,
 * returns OK.
 * n >= 1.
 */
int rcuprof_stats_signed_rank(const double *d, size_t n,
                              rcuprof_stats_rank_test *out);

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test of x against y.  Exact when both
 * nx, ny <= RCUPROF_STATS_MW_EXACT_MAX and there are no ties; otherwise the
 * normal approximation with tie-corrected variance and continuity
 * correction (as R's wilcox.test).  nx, ny >= 1.  If every value is tied
 * (zero variance) p = 1, z = 0.
 */
int rcuprof_stats_mann_whitney(const double *x, size_t nx,
                               const double *y, size_t ny,
                               rcuprof_stats_rank_test *out);

/*
 * The exact null CDFs: P(V <= v) for the signed-rank statistic with n
 * untied nonzero values (1 <= n <= 200) and P(W <= w) for Mann-Whitney
 * with sample sizes m, n (m, n >= 1, m * n <= 2500).  NAN on bad arguments
 * or no memory.  Non-integer v, w are floored.
 */
double rcuprof_stats_psignrank(double v, size_t n);
double rcuprof_stats_pwilcox(double w, size_t m, size_t n);

/* ---------------------------------------------------------------------- */
/* 2. Paired comparison over blocks                                        */

typedef struct rcuprof_stats_paired_st {
    size_t n;                   /* blocks */
    double level;
    double mean_log, sd_log;    /* of the log ratios ln(b/a) */
    double gm_ratio;            /* exp(mean_log): geometric-mean b/a */
    double change_pct;          /* 100 (gm_ratio - 1) */
    /* exp(t interval of mean_log) as % change; equal to change_pct if sd 0 */
    double change_lo_pct, change_hi_pct;
    double t_p;                 /* paired t-test p on the log ratios; NAN
                                 * if sd_log == 0 */
    rcuprof_stats_rank_test wilcoxon; /* signed-rank on the log ratios */
} rcuprof_stats_paired;

/*
 * a[i], b[i]: the same block's value for A (baseline) and B; all > 0 (else
 * EDEGENERATE, since logs are taken), n >= 2 (else ETOOFEW).  ratios
 * (optional, n elements) receives b[i] / a[i].
 */
int rcuprof_stats_paired_compare(const double *a, const double *b, size_t n,
                                 double level, double *ratios,
                                 rcuprof_stats_paired *out);

/*
 * Stein's two-stage t (Stein 1945): n values d[0..n) of which the first
 * n0 are the first stage.  The mean is over all n; the spread is the first
 * stage's SD sd0 only, with n0 - 1 degrees of freedom: interval mean -+
 * t(1 - (1 - level)/2, n0 - 1) sd0 / sqrt(n), t = mean / (sd0 / sqrt n)
 * and its two-sided p.  Exact under normal d for any n chosen from sd0
 * (and from anything independent of the values after the first stage):
 * what keeps the adaptive sweep's intervals valid although it chose how
 * many blocks to run.  n0 >= 2 and n >= n0 (else ETOOFEW).  sd0 == 0:
 * lo = hi = mean, p NAN.
 */
typedef struct rcuprof_stats_two_stage_st {
    size_t n, n0;
    double level;
    double mean, sd0, df;
    double lo, hi;
    double t, p;
} rcuprof_stats_two_stage;

int rcuprof_stats_two_stage_t(const double *d, size_t n, size_t n0,
                              double level, rcuprof_stats_two_stage *out);

/*
 * Its minimum detectable effect on log values, in %:
 * 100 (exp((t(1 - alpha/2, n0 - 1) + t(power, n0 - 1)) sd0 / sqrt(n)) - 1);
 * and the fewest n >= n0 whose MDE is at or below target_pct (*n = max + 1
 * when even max is not enough).  n0 >= 2, n >= n0.
 */
int rcuprof_stats_mde_two_stage(double sd0, size_t n0, size_t n,
                                double alpha, double power, double *mde_pct);
int rcuprof_stats_two_stage_n(double sd0, size_t n0, double target_pct,
                              double alpha, double power, size_t max,
                              size_t *n);

/* ---------------------------------------------------------------------- */
/* 3. Unpaired                                                             */

typedef struct rcuprof_stats_welch_st {
    double mean_x, mean_y;
    double diff;                /* mean_x - mean_y (R's t.test(x, y)) */
    double se, t, df, p;        /* df by Welch-Satterthwaite */
    double level, lo, hi;       /* interval of diff */
} rcuprof_stats_welch;

/*
 * nx, ny >= 2 (ETOOFEW); both variances zero -> EDEGENERATE.
 */
int rcuprof_stats_welch_test(const double *x, size_t nx,
                             const double *y, size_t ny, double level,
                             rcuprof_stats_welch *out);

/* ---------------------------------------------------------------------- */
/* 4. Holm's step-down correction                                          */

/*
 * adj[i] = Holm-adjusted p[i]: with p sorted ascending p(1) <= ... <= p(m),
 * adj(j) = min(1, max over i <= j of (m - i + 1) p(i)).  NaN entries are
 * left NaN and not counted in m (as R's p.adjust).  p in [0, 1] else EINVAL.
 * adj may be the same array as p.  n >= 1.
 */
int rcuprof_stats_holm(const double *p, size_t n, double *adj);

/* ---------------------------------------------------------------------- */
/* 5. Minimum detectable effect (normal approximation)                     */

/*
 * Paired: the smallest true geometric-mean change, in %, that a two-sided
 * test at level alpha detects with the given power from n blocks whose log
 * ratios have SD sd_log: 100 (exp((z(1-alpha/2) + z(power)) sd_log /
 * sqrt(n)) - 1).  The normal quantiles stand in for t ones, so for small n
 * the true MDE is larger (t quantiles in their place: +12% at n = 10,
 * +5% at n = 20).
 * sd_log >= 0, n >= 2, alpha and power in (0, 1).
 */
int rcuprof_stats_mde_paired(double sd_log, size_t n, double alpha,
                             double power, double *mde_pct);

/*
 * Paired, with Student t quantiles in place of the normal ones:
 * 100 (exp((t(1-alpha/2, n-1) + t(power, n-1)) sd_log / sqrt(n)) - 1), the
 * usual approximation of the paired t test's power that stays honest at
 * small n (at n = 2 the quantiles are 12.71 and 1.38 instead of 1.96 and
 * 0.84).  What the comparison table shows.  Arguments as _mde_paired.
 */
int rcuprof_stats_mde_paired_t(double sd_log, size_t n, double alpha,
                               double power, double *mde_pct);

/*
 * Unpaired on logs, the MDE of Welch's t test on ln x: 100 (exp((t(1 -
 * alpha/2, df) + t(power, df)) sqrt(sd_la^2/na + sd_lb^2/nb)) - 1) with
 * the Welch-Satterthwaite df; sd_la, sd_lb the SDs of ln x.  na, nb >= 2;
 * both SDs 0 gives 0.
 */
int rcuprof_stats_mde_unpaired_log(double sd_la, size_t na, double sd_lb,
                                   size_t nb, double alpha, double power,
                                   double *mde_pct);

/*
 * The smallest two-sided p an exact rank test can give: the signed-rank
 * test on n nonzero untied values, min(1, 2 / 2^n); Mann-Whitney on nx and
 * ny values, min(1, 2 / C(nx + ny, nx)).  NAN for n (nx, ny) of 0.
 */
double rcuprof_stats_signrank_min_p(size_t n);
double rcuprof_stats_mw_min_p(size_t nx, size_t ny);

/*
 * Unpaired: 100 (z(1-alpha/2) + z(power)) sqrt(sd_a^2/na + sd_b^2/nb)
 * / |mean_a|, the smallest difference of means relative to A's mean.
 * mean_a != 0 (EDEGENERATE).
 */
int rcuprof_stats_mde_unpaired(double mean_a, double sd_a, size_t na,
                               double sd_b, size_t nb, double alpha,
                               double power, double *mde_pct);

/* ---------------------------------------------------------------------- */
/* 6. Outliers, stalls and noise                                           */

/*
 * Tukey's fences with k (1.5 is the classic): flags[i] = -1 below
 * Q1 - k IQR, +1 above Q3 + k IQR, 0 otherwise (type-7 quartiles).
 * n_out, lo_fence, hi_fence optional.  n >= 1, k >= 0.
 */
int rcuprof_stats_tukey(const double *x, size_t n, double k, int *flags,
                        size_t *n_out, double *lo_fence, double *hi_fence);

/*
 * Iglewicz & Hoaglin's modified z-score M = 0.6745 (x - median) / MAD;
 * flags[i] = -1 / +1 when M < -threshold / M > threshold (3.5 is theirs).
 * z (optional) receives M.  MAD == 0 -> EDEGENERATE with flags zeroed and z
 * NAN.  n >= 1.
 */
int rcuprof_stats_modified_z(const double *x, size_t n, double threshold,
                             int *flags, double *z, size_t *n_out);

/* A heuristic default for the noise warning: CV above 5%. */
# define RCUPROF_STATS_NOISY_CV 0.05

/*
 * 1 if s->cv > cv_max or the CV is not defined (n < 2, mean 0): the
 * measurement is too noisy to read small changes; 0 otherwise; EINVAL on
 * NULL or cv_max < 0.
 */
int rcuprof_stats_noisy(const rcuprof_stats_summary *s, double cv_max);

/*
 * Stalls: values far above the fast ones.  The reference is the
 * ceil(n/4)-th smallest value (the lower quartile as an order statistic,
 * Hyndman & Fan type 1): at n = 2 the faster value, and a fast one as long
 * as at least ceil(n/4) values are fast, so a majority of stalls (up to
 * n - ceil(n/4)) is still counted.  A value above factor x reference is a
 * stall; *count of them, *ref the reference (NAN on error).  factor > 1
 * and finite; n >= 1 (ETOOFEW); a reference not above 0 is EDEGENERATE
 * (count 0).  Which factor keeps plain log-normal spread from being
 * flagged: docs/methodology.md, section 3 ("Stalls").
 */
int rcuprof_stats_stalls(const double *x, size_t n, double factor,
                         size_t *count, double *ref);

/* ---------------------------------------------------------------------- */
/* 7. Universal Scalability Law                                            */

typedef struct rcuprof_stats_usl_st {
    size_t n_points;
    double lambda, sigma, kappa;
    double se_lambda, se_sigma, se_kappa;
    double level;
    /* est -+ t(level, n_points - 3) se */
    double lambda_lo, lambda_hi, sigma_lo, sigma_hi, kappa_lo, kappa_hi;
    double r2;                  /* 1 - SSR/SST on throughput; NAN if SST 0 */
    double n_peak;              /* sqrt((1 - sigma)/kappa) if kappa > 0 and
                                 * sigma < 1, else NAN */
    double x_peak;              /* the model's throughput at n_peak */
    int iterations;
} rcuprof_stats_usl;

/* Fewest points the fit takes (one residual degree of freedom). */
# define RCUPROF_STATS_USL_MIN_POINTS 4

/*
 * Fits X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) to the
 * points (threads[i], tput[i]) by unweighted nonlinear least squares
 * (GSL multifit_nlinear, Levenberg-Marquardt) started from the linear
 * least-squares fit of N/X = a + b N + c N^2.  Repeated thread counts (one
 * point per repetition) are fine.  threads >= 1, tput > 0 (EINVAL);
 * n < RCUPROF_STATS_USL_MIN_POINTS -> ETOOFEW; fewer than 3 distinct
 * thread counts -> EDEGENERATE; no convergence -> ENOCONV.
 * The CLI policy (at least 5 points at or below the CPU count) is
 * the caller's to apply.
 */
int rcuprof_stats_usl_fit(const double *threads, const double *tput,
                          size_t n, double level, rcuprof_stats_usl *out);

/* The fitted model's throughput at N threads. */
double rcuprof_stats_usl_eval(const rcuprof_stats_usl *m, double n_threads);

/* ---------------------------------------------------------------------- */
/* 8. Dips and knees over thread counts                                    */

/*
 * threads[] strictly increasing; cost[i] the per-op cost at threads[i]
 * (e.g. the median of wall_ns_per_op, a per-thread figure: ideal scaling
 * keeps it constant) with its interval lo[i] <= cost[i] <= hi[i].
 *
 * Dip: count i costs more than some higher count j > i beyond both
 * intervals, lo[i] > hi[j].  dip_vs[i] = the j with the smallest hi[j]
 * (the clearest contrast; the lowest such j on equal hi), -1 if none.
 * n_dips optional.  n >= 1.
 */
int rcuprof_stats_dips(const double *threads, const double *cost,
                       const double *lo, const double *hi, size_t n,
                       int *dip_vs, size_t *n_dips);

/*
 * Scaling efficiency from per-thread costs (cost > 0):
 *   eff[i]      = cost[0] / cost[i]: the fraction of ideal speedup over
 *                 the first count kept at count i (1 at i = 0);
 *   step_eff[i] = cost[i-1] / cost[i]: the fraction of the ideal speedup
 *                 threads[i]/threads[i-1] that step delivered (NAN at 0).
 * knee[i] = 1 when step_eff[i] < min_step_eff (a knee: that step lost more
 * than 1 - min_step_eff of its ideal gain), else 0.  *first_knee = the
 * first such i, or n if none.  Any output may be NULL.  For throughput X
 * pass cost = threads / X.  min_step_eff in (0, 1].
 */
int rcuprof_stats_knees(const double *threads, const double *cost, size_t n,
                        double min_step_eff, double *eff, double *step_eff,
                        int *knee, size_t *first_knee);

#endif
