/*
 * The machine state of a run (state.h): a two-cluster split of the round
 * trip in log space, learned over a results file's samples.
 */
#include "state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[RCUPROF_STATE_COUNT] = {
    "unknown", "fast", "slow", "mixed"
};

const char *rcuprof_state_name(int state)
{
    return state >= 0 && state < RCUPROF_STATE_COUNT ? names[state] : "?";
}

int rcuprof_state_parse(const char *s)
{
    int i;

    for (i = 0; s != NULL && i < RCUPROF_STATE_COUNT; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of the sorted x[0..n). */
static double median_sorted(const double *x, size_t n)
{
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/*
 * Otsu's split of the sorted y[0..n): the k (1..n-1) that maximises the
 * between-cluster variance of y[0..k) and y[k..n); its share of the total
 * variance in *sep (0 when every y is equal).
 */
static size_t otsu(const double *y, size_t n, double *sep)
{
    double total = 0, mean, var = 0, left = 0, best = -1;
    size_t k, best_k = 1;

    for (k = 0; k < n; k++)
        total += y[k];
    mean = total / n;
    for (k = 0; k < n; k++)
        var += (y[k] - mean) * (y[k] - mean);
    var /= n;
    for (k = 1; k < n; k++) {
        double w0 = (double)k / n, w1 = 1 - w0, m0, m1, b;

        left += y[k - 1];
        m0 = left / k;
        m1 = (total - left) / (n - k);
        b = w0 * w1 * (m0 - m1) * (m0 - m1);
        if (b > best) {
            best = b;
            best_k = k;
        }
    }
    *sep = var > 0 ? best / var : 0;
    return best_k;
}

int rcuprof_state_learn(const double *ns, size_t n, rcuprof_state_split *s)
{
    static const rcuprof_state_rule rule = {
        RCUPROF_STATE_MIN_SAMPLES, RCUPROF_STATE_MIN_CLASS,
        RCUPROF_STATE_MIN_RATIO, RCUPROF_STATE_MIN_SEP
    };

    return rcuprof_state_learn_rule(ns, n, &rule, s);
}

int rcuprof_state_learn_rule(const double *ns, size_t n,
                             const rcuprof_state_rule *rule,
                             rcuprof_state_split *s)
{
    double *x, *y, sep, g0 = 0, g1 = 0;
    size_t i, m = 0, k;

    memset(s, 0, sizeof(*s));
    s->threshold_ns = s->fast_ns = s->slow_ns = s->separation = NAN;
    x = malloc((n + 1) * sizeof(*x));
    y = malloc((n + 1) * sizeof(*y));
    if (x == NULL || y == NULL) {
        free(x);
        free(y);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (ns[i] > 0 && isfinite(ns[i]))
            x[m++] = ns[i];
    qsort(x, m, sizeof(*x), cmp_double);
    s->n = s->n_fast = m;
    if (m > 0)
        s->fast_ns = median_sorted(x, m);
    /* Otsu needs 2 samples to cut, whatever the rule's minimum. */
    s->too_few = m < rule->min_samples || m < 2;
    if (!s->too_few) {
        for (i = 0; i < m; i++)
            y[i] = log(x[i]);
        k = otsu(y, m, &sep);
        s->separation = sep;
        for (i = 0; i < m; i++)
            *(i < k ? &g0 : &g1) += y[i];
        g0 /= k;
        g1 /= m - k;
        if (sep >= rule->min_sep && exp(g1 - g0) >= rule->min_ratio
            && k >= rule->min_class && m - k >= rule->min_class) {
            s->two = 1;
            s->threshold_ns = sqrt(x[k - 1] * x[k]);
            s->fast_ns = median_sorted(x, k);
            s->slow_ns = median_sorted(x + k, m - k);
            s->n_fast = k;
            s->n_slow = m - k;
        }
    }
    free(x);
    free(y);
    return 0;
}

int rcuprof_state_of_sample(const rcuprof_state_split *s, double ns)
{
    return s->two && ns > s->threshold_ns ? RCUPROF_STATE_SLOW
                                          : RCUPROF_STATE_FAST;
}

int rcuprof_state_of_run(const rcuprof_state_split *s, const double *ns,
                         size_t n, size_t stalled)
{
    size_t i, slow = stalled;

    if (n + stalled == 0)
        return RCUPROF_STATE_UNKNOWN;
    /* Every sample a stall: slow whatever was learned, since a stall is
     * the slow state itself and needs no threshold to be read. */
    if (n == 0)
        return RCUPROF_STATE_SLOW;
    /* Samples the file had too few to place: even beside a stall the run
     * is slow or mixed, and which is not known. */
    if (s->too_few)
        return RCUPROF_STATE_UNKNOWN;
    for (i = 0; i < n; i++)
        slow += rcuprof_state_of_sample(s, ns[i]) == RCUPROF_STATE_SLOW;
    return slow == 0 ? RCUPROF_STATE_FAST
           : slow == n + stalled ? RCUPROF_STATE_SLOW : RCUPROF_STATE_MIXED;
}
