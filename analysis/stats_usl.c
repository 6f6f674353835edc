/*
 * The Universal Scalability Law (Gunther): X(N) = lambda N / (1 +
 * sigma (N - 1) + kappa N (N - 1)), fitted by nonlinear least squares.
 */
#include "rcuprof_stats.h"
#include "stats_local.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#define USL_MAXITER 500

struct usl_data {
    const double *n;
    const double *y;            /* throughput / scale */
    size_t count;
};

static double usl_den(double n, double sigma, double kappa)
{
    return 1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0);
}

static int usl_f(const gsl_vector *p, void *arg, gsl_vector *f)
{
    const struct usl_data *d = arg;
    double l = gsl_vector_get(p, 0), s = gsl_vector_get(p, 1);
    double k = gsl_vector_get(p, 2);
    size_t i;

    for (i = 0; i < d->count; i++)
        gsl_vector_set(f, i, l * d->n[i] / usl_den(d->n[i], s, k) - d->y[i]);
    return GSL_SUCCESS;
}

static int usl_df(const gsl_vector *p, void *arg, gsl_matrix *J)
{
    const struct usl_data *d = arg;
    double l = gsl_vector_get(p, 0), s = gsl_vector_get(p, 1);
    double k = gsl_vector_get(p, 2);
    size_t i;

    for (i = 0; i < d->count; i++) {
        double n = d->n[i], den = usl_den(n, s, k);
        double g = -l * n / (den * den);

        gsl_matrix_set(J, i, 0, n / den);
        gsl_matrix_set(J, i, 1, g * (n - 1.0));
        gsl_matrix_set(J, i, 2, g * n * (n - 1.0));
    }
    return GSL_SUCCESS;
}

/*
 * Starting point: N/X is the quadratic (1 - sigma)/lambda + (sigma -
 * kappa)/lambda N + kappa/lambda N^2, so a linear least-squares fit of
 * N/y on (1, N, N^2) by the normal equations gives a, b, c, and then
 * lambda = 1/(a + b + c), kappa = c lambda, sigma = b lambda + kappa.
 */
static void usl_start(const struct usl_data *d, double start[3])
{
    double m[9] = { 0 }, r[3] = { 0 }, sol[3];
    size_t i, j, k;
    gsl_matrix_view mv = gsl_matrix_view_array(m, 3, 3);
    gsl_vector_view rv = gsl_vector_view_array(r, 3);
    gsl_vector_view sv = gsl_vector_view_array(sol, 3);
    int ok;

    for (i = 0; i < d->count; i++) {
        double row[3] = { 1.0, d->n[i], d->n[i] * d->n[i] };
        double t = d->n[i] / d->y[i];

        for (j = 0; j < 3; j++) {
            r[j] += row[j] * t;
            for (k = 0; k < 3; k++)
                m[j * 3 + k] += row[j] * row[k];
        }
    }
    ok = gsl_linalg_HH_solve(&mv.matrix, &rv.vector, &sv.vector)
         == GSL_SUCCESS;
    start[0] = ok ? 1.0 / (sol[0] + sol[1] + sol[2]) : NAN;
    if (ok && isfinite(start[0]) && start[0] > 0.0) {
        start[2] = sol[2] * start[0];
        start[1] = sol[1] * start[0] + start[2];
        if (!isfinite(start[1]) || start[1] < 0.0)
            start[1] = 0.0;
        if (!isfinite(start[2]) || start[2] < 0.0)
            start[2] = 0.0;
        return;
    }
    /* fall back on the best per-thread throughput, no contention */
    start[0] = 0.0;
    for (i = 0; i < d->count; i++)
        if (d->y[i] / d->n[i] > start[0])
            start[0] = d->y[i] / d->n[i];
    start[1] = start[2] = 0.0;
}

static void usl_clear(rcuprof_stats_usl *out, size_t n, double level)
{
    out->n_points = n;
    out->level = level;
    out->lambda = out->sigma = out->kappa = NAN;
    out->se_lambda = out->se_sigma = out->se_kappa = NAN;
    out->lambda_lo = out->lambda_hi = out->sigma_lo = out->sigma_hi = NAN;
    out->kappa_lo = out->kappa_hi = NAN;
    out->r2 = out->n_peak = out->x_peak = NAN;
    out->iterations = 0;
}

static size_t distinct(const double *x, size_t n)
{
    double *s = rcuprof_stats__sorted_copy(x, n);
    size_t i, d = 1;

    if (s == NULL)
        return 0;
    for (i = 1; i < n; i++)
        d += s[i] != s[i - 1];
    free(s);
    return d;
}

static int usl_solve(struct usl_data *d, double scale, double level,
                     rcuprof_stats_usl *out)
{
    gsl_multifit_nlinear_parameters par =
        gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_fdf fdf;
    gsl_multifit_nlinear_workspace *w;
    gsl_matrix *covar = gsl_matrix_alloc(3, 3);
    double start[3], ssr = 0.0, sst = 0.0, ymean = 0.0, s2, q;
    gsl_vector_view x0 = gsl_vector_view_array(start, 3);
    const gsl_vector *x, *f;
    size_t i;
    int info, status;

    if (covar == NULL)
        return RCUPROF_STATS_ENOMEM;
    fdf.f = usl_f;
    fdf.df = usl_df;
    fdf.fvv = NULL;
    fdf.n = d->count;
    fdf.p = 3;
    fdf.params = d;
    w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par,
                                   d->count, 3);
    if (w == NULL) {
        gsl_matrix_free(covar);
        return RCUPROF_STATS_ENOMEM;
    }
    usl_start(d, start);
    status = gsl_multifit_nlinear_init(&x0.vector, &fdf, w);
    if (status == GSL_SUCCESS)
        status = gsl_multifit_nlinear_driver(USL_MAXITER, 1e-12, 1e-12, 0.0,
                                             NULL, NULL, &info, w);
    /*
     * A start that is already the optimum (exact data) makes the first
     * iteration report "no progress"; accept it if the gradient test holds.
     */
    if (status != GSL_SUCCESS
        && gsl_multifit_nlinear_test(1e-10, 1e-10, 0.0, &info, w)
           == GSL_SUCCESS)
        status = GSL_SUCCESS;
    x = gsl_multifit_nlinear_position(w);
    f = gsl_multifit_nlinear_residual(w);
    for (i = 0; i < 3; i++)
        if (!isfinite(gsl_vector_get(x, i)))
            status = GSL_EFAILED;
    if (status != GSL_SUCCESS) {
        gsl_multifit_nlinear_free(w);
        gsl_matrix_free(covar);
        return RCUPROF_STATS_ENOCONV;
    }

    out->iterations = (int)gsl_multifit_nlinear_niter(w);
    out->lambda = gsl_vector_get(x, 0) * scale;
    out->sigma = gsl_vector_get(x, 1);
    out->kappa = gsl_vector_get(x, 2);
    for (i = 0; i < d->count; i++) {
        double r = gsl_vector_get(f, i);

        ssr += r * r;
        ymean += d->y[i];
    }
    ymean /= (double)d->count;
    for (i = 0; i < d->count; i++)
        sst += (d->y[i] - ymean) * (d->y[i] - ymean);
    out->r2 = sst > 0.0 ? 1.0 - ssr / sst : NAN;

    /* covariance of the estimates: s^2 (J'J)^-1, s^2 = SSR / (n - 3) */
    s2 = ssr / (double)(d->count - 3);
    if (gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar)
        == GSL_SUCCESS) {
        out->se_lambda = sqrt(s2 * gsl_matrix_get(covar, 0, 0)) * scale;
        out->se_sigma = sqrt(s2 * gsl_matrix_get(covar, 1, 1));
        out->se_kappa = sqrt(s2 * gsl_matrix_get(covar, 2, 2));
        q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0,
                               (double)(d->count - 3));
        out->lambda_lo = out->lambda - q * out->se_lambda;
        out->lambda_hi = out->lambda + q * out->se_lambda;
        out->sigma_lo = out->sigma - q * out->se_sigma;
        out->sigma_hi = out->sigma + q * out->se_sigma;
        out->kappa_lo = out->kappa - q * out->se_kappa;
        out->kappa_hi = out->kappa + q * out->se_kappa;
    }
    if (out->kappa > 0.0 && out->sigma < 1.0) {
        out->n_peak = sqrt((1.0 - out->sigma) / out->kappa);
        out->x_peak = rcuprof_stats_usl_eval(out, out->n_peak);
    }
    gsl_multifit_nlinear_free(w);
    gsl_matrix_free(covar);
    return RCUPROF_STATS_OK;
}

int rcuprof_stats_usl_fit(const double *threads, const double *tput,
                          size_t n, double level, rcuprof_stats_usl *out)
{
    struct usl_data d;
    double *y, scale = 0.0;
    gsl_error_handler_t *old;
    size_t i, nd;
    int rc;

    if (out == NULL)
        return RCUPROF_STATS_EINVAL;
    usl_clear(out, n, level);
    if (threads == NULL || tput == NULL || !rcuprof_stats__open_unit(level)
        || !rcuprof_stats__all_finite(threads, n)
        || !rcuprof_stats__all_finite(tput, n))
        return RCUPROF_STATS_EINVAL;
    for (i = 0; i < n; i++)
        if (!(threads[i] >= 1.0) || !(tput[i] > 0.0))
            return RCUPROF_STATS_EINVAL;
    if (n < RCUPROF_STATS_USL_MIN_POINTS)
        return RCUPROF_STATS_ETOOFEW;
    if ((nd = distinct(threads, n)) == 0)
        return RCUPROF_STATS_ENOMEM;
    if (nd < 3)
        return RCUPROF_STATS_EDEGENERATE;

    /* work in units of the best per-thread throughput: lambda near 1 */
    for (i = 0; i < n; i++)
        if (tput[i] / threads[i] > scale)
            scale = tput[i] / threads[i];
    if ((y = malloc(n * sizeof(*y))) == NULL)
        return RCUPROF_STATS_ENOMEM;
    for (i = 0; i < n; i++)
        y[i] = tput[i] / scale;
    d.n = threads;
    d.y = y;
    d.count = n;

    old = gsl_set_error_handler_off();
    rc = usl_solve(&d, scale, level, out);
    gsl_set_error_handler(old);
    free(y);
    return rc;
}

double rcuprof_stats_usl_eval(const rcuprof_stats_usl *m, double n_threads)
{
    if (m == NULL)
        return NAN;
    return m->lambda * n_threads / usl_den(n_threads, m->sigma, m->kappa);
}
