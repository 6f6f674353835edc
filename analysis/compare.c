/*
 * The comparison table of rcuprof compare and rcuprof report: per variant
 * and thread count the descriptives; per variant against the baseline the
 * change from paired blocks (per-block ratios; Wilcoxon signed-rank), the
 * unpaired Welch and Mann-Whitney tests, Holm's correction over the table
 * and the minimum detectable effect; the medians of the probe figures and
 * each variant's Universal Scalability Law fit.  The statistics are
 * rcuprof_stats's; this file pairs and tabulates.  The writers
 * (analysis/report/) format what it computed.
 */
#define _GNU_SOURCE
#include "rcuprof_util.h"
#include "results.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A cell in a note is VARIANT@THREADS; a variant of another OpenSSL line
 * (NAME@LINE) is put in parentheses: (stock-pristine@4.0)@2.
 */
#define CELL_OPEN(v) (strchr((v), '@') != NULL ? "(" : "")
#define CELL_CLOSE(v) (strchr((v), '@') != NULL ? ")" : "")

#define LEVEL 0.95
#define ALPHA 0.05
#define POWER 0.8
#define OUTLIER_Z 3.5
#define USL_MIN_COUNTS 5

const char *rcuprof_metric_name(int metric)
{
    return metric == RCUPROF_METRIC_CPU ? "cpu_ns_per_op" : "wall_ns_per_op";
}

int rcuprof_metric_parse(const char *s)
{
    if (s != NULL && strcmp(s, "wall_ns_per_op") == 0)
        return RCUPROF_METRIC_WALL;
    if (s != NULL && strcmp(s, "cpu_ns_per_op") == 0)
        return RCUPROF_METRIC_CPU;
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Building                                                                */

static double metric_of(const rcuprof_point *p, int metric)
{
    return metric == RCUPROF_METRIC_CPU ? p->result.cpu_ns_per_op
                                     : p->result.wall_ns_per_op;
}

int rcuprof_table_oversubscribed(const rcuprof_table *t, size_t ti)
{
    return t->cpus_allowed > 0 && t->threads[ti] > t->cpus_allowed;
}

int rcuprof_change_resolved(const rcuprof_table *t, const rcuprof_change *ch)
{
    return ch->have && isfinite(ch->lo_pct) && isfinite(ch->hi_pct)
           && (ch->lo_pct > 0 || ch->hi_pct < 0) && isfinite(ch->p_holm)
           && ch->p_holm < t->alpha;
}

void rcuprof_change_resolved_rule(const rcuprof_table *t, char *buf, size_t n)
{
    snprintf(buf, n, "its %.0f%% interval excludes 0 and its p, "
             "Holm-adjusted over the table's %zu tests, is below %g",
             100 * t->level, t->ntests, t->alpha);
}

static void note(rcuprof_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(rcuprof_table *t, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) >= 0) {
        json_array_append_new(t->notes, json_string(s));
        free(s);
    }
    va_end(ap);
}

/* Points of (variant, threads) that are ok, as indices into rs->points. */
static size_t gather(const rcuprof_results *rs, size_t v, unsigned threads,
                     size_t *idx, size_t *failed)
{
    size_t i, n = 0;

    *failed = 0;
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant != v || p->threads != threads)
            continue;
        if (p->status == RCUPROF_POINT_OK)
            idx[n++] = i;
        else
            (*failed)++;
    }
    return n;
}

static void holm_column(rcuprof_table *t, size_t off_raw, size_t off_adj,
                        double *buf)
{
    size_t ti, v, m = 0;

    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++)
            if (v != t->baseline)
                buf[m++] = *(double *)((char *)&t->changes[ti * t->nvariants + v]
                                       + off_raw);
    if (m == 0 || rcuprof_stats_holm(buf, m, buf) != RCUPROF_STATS_OK) {
        for (ti = 0; ti < m; ti++)
            buf[ti] = NAN;
    }
    m = 0;
    for (ti = 0; ti < t->nthreads; ti++)
        for (v = 0; v < t->nvariants; v++)
            if (v != t->baseline)
                *(double *)((char *)&t->changes[ti * t->nvariants + v]
                            + off_adj) = buf[m++];
}

/*
 * Median over the points idx[0..n) of a probe figure (0: retries per
 * acquisition, 1: slow-path fetches per 1k); NAN if none carries it.
 */
static double probe_median(const rcuprof_results *rs, const size_t *idx,
                           size_t n, int which, double *buf)
{
    size_t i, m = 0;
    double q;

    for (i = 0; i < n; i++) {
        const rcuprof_record *r = &rs->points[idx[i]].result;
        double x = which == 0 ? r->probe_retries : r->probe_slow;

        if (isfinite(x))
            buf[m++] = x;
    }
    if (m == 0 || rcuprof_stats_quantile(buf, m, 0.5, &q) != RCUPROF_STATS_OK)
        return NAN;
    return q;
}

static void cell_stats(rcuprof_table *t, const rcuprof_results *rs,
                       size_t ti, size_t v, const size_t *idx, size_t n,
                       double *x, double *y, struct rcuprof_sb *noisy,
                       struct rcuprof_sb *outl)
{
    rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
    rcuprof_stats_summary ts;
    size_t i, k = 0;

    c->n = n;
    c->probe_retries = c->probe_slow = NAN;
    if (n == 0)
        return;
    for (i = 0; i < n; i++) {
        x[i] = metric_of(&rs->points[idx[i]], t->metric);
        if (isfinite(rs->points[idx[i]].result.ops_per_s))
            y[k++] = rs->points[idx[i]].result.ops_per_s;
    }
    rcuprof_stats_describe(x, n, LEVEL, &c->s);
    c->tput_mean = c->tput_lo = c->tput_hi = NAN;
    if (k > 0 && rcuprof_stats_describe(y, k, LEVEL, &ts) == RCUPROF_STATS_OK) {
        c->tput_mean = ts.mean;
        c->tput_lo = ts.mean_lo;
        c->tput_hi = ts.mean_hi;
    }
    c->probe_retries = probe_median(rs, idx, n, 0, y);
    c->probe_slow = probe_median(rs, idx, n, 1, y);
    t->have_retries |= isfinite(c->probe_retries);
    t->have_slow |= isfinite(c->probe_slow);
    t->have_probes = t->have_retries || t->have_slow;
    if (n >= 2) {
        c->noisy = rcuprof_stats_noisy(&c->s, RCUPROF_STATS_NOISY_CV) == 1;
        if (c->noisy)
            rcuprof_sb_printf(noisy, "%s%s%s%s@%u %.1f%%",
                      noisy->len ? ", " : "", CELL_OPEN(t->variants[v]),
                      t->variants[v], CELL_CLOSE(t->variants[v]),
                      t->threads[ti], 100 * c->s.cv);
    }
    if (n >= 3) {
        int *flags = calloc(n, sizeof(*flags));
        double *z = calloc(n, sizeof(*z));

        if (flags != NULL && z != NULL
            && rcuprof_stats_modified_z(x, n, OUTLIER_Z, flags, z,
                                        &c->n_outliers) == RCUPROF_STATS_OK) {
            for (i = 0; i < n; i++)
                if (flags[i] != 0)
                    rcuprof_sb_printf(outl, "%s%s%s%s@%u block %u%s%.0zu (z %+.1f)",
                              outl->len ? ", " : "",
                              CELL_OPEN(t->variants[v]), t->variants[v],
                              CELL_CLOSE(t->variants[v]), t->threads[ti], rs->points[idx[i]].block,
                              rs->nfiles > 1 ? " of file " : "",
                              rs->nfiles > 1 ? rs->points[idx[i]].file + 1
                                             : 0, z[i]);
        } else {
            c->n_outliers = 0;
        }
        free(flags);
        free(z);
    }
}

static void change_stats(rcuprof_table *t, const rcuprof_results *rs,
                         size_t ti, size_t v, const size_t *ia, size_t na,
                         const size_t *ib, size_t nb, double *a, double *b)
{
    rcuprof_change *ch = &t->changes[ti * t->nvariants + v];
    const rcuprof_cell *ca = &t->cells[ti * t->nvariants + t->baseline];
    const rcuprof_cell *cb = &t->cells[ti * t->nvariants + v];
    rcuprof_stats_paired pc;
    rcuprof_stats_welch w;
    rcuprof_stats_rank_test mw;
    size_t i, j, n = 0;

    ch->change_pct = ch->lo_pct = ch->hi_pct = ch->sd_log = NAN;
    ch->p_wilcoxon = ch->p_welch = ch->p_mw = ch->p = ch->mde_pct = NAN;
    /* Pairs: the baseline's and v's runs of the same block of a file. */
    for (j = 0; j < nb; j++) {
        const rcuprof_point *q = &rs->points[ib[j]];

        for (i = 0; i < na; i++) {
            const rcuprof_point *p = &rs->points[ia[i]];

            if (p->file == q->file && p->block == q->block) {
                a[n] = metric_of(p, t->metric);
                b[n] = metric_of(q, t->metric);
                n++;
                break;
            }
        }
    }
    ch->n_pairs = n;
    if (n >= 2 && rcuprof_stats_paired_compare(a, b, n, LEVEL, NULL, &pc)
                  == RCUPROF_STATS_OK) {
        ch->paired = 1;
        ch->have = 1;
        ch->change_pct = pc.change_pct;
        ch->lo_pct = pc.change_lo_pct;
        ch->hi_pct = pc.change_hi_pct;
        ch->sd_log = pc.sd_log;
        ch->p_wilcoxon = pc.wilcoxon.p;
        if (rcuprof_stats_mde_paired(pc.sd_log, n, ALPHA, POWER,
                                     &ch->mde_pct) != RCUPROF_STATS_OK)
            ch->mde_pct = NAN;
    }
    /* Unpaired: v's runs (x) against the baseline's (y). */
    for (i = 0; i < na; i++)
        a[i] = metric_of(&rs->points[ia[i]], t->metric);
    for (i = 0; i < nb; i++)
        b[i] = metric_of(&rs->points[ib[i]], t->metric);
    if (na >= 1 && nb >= 1
        && rcuprof_stats_mann_whitney(b, nb, a, na, &mw) == RCUPROF_STATS_OK)
        ch->p_mw = mw.p;
    if (na >= 2 && nb >= 2
        && rcuprof_stats_welch_test(b, nb, a, na, LEVEL, &w)
           == RCUPROF_STATS_OK) {
        ch->p_welch = w.p;
        if (!ch->paired) {
            ch->change_pct = 100 * (cb->s.mean / ca->s.mean - 1);
            ch->lo_pct = 100 * w.lo / ca->s.mean;
            ch->hi_pct = 100 * w.hi / ca->s.mean;
        }
    }
    if (!ch->paired && na >= 2 && nb >= 2) {
        ch->have = 1;
        if (!isfinite(ch->change_pct))
            ch->change_pct = 100 * (cb->s.mean / ca->s.mean - 1);
        if (rcuprof_stats_mde_unpaired(ca->s.mean, ca->s.sd, na, cb->s.sd, nb,
                                       ALPHA, POWER, &ch->mde_pct)
            != RCUPROF_STATS_OK)
            ch->mde_pct = NAN;
    }
    ch->p = ch->paired ? ch->p_wilcoxon : ch->have ? ch->p_mw : NAN;
}

static size_t n_tests(const rcuprof_table *t)
{
    size_t i, m = 0;

    for (i = 0; i < t->nthreads * t->nvariants; i++)
        if (i % t->nvariants != t->baseline && isfinite(t->changes[i].p))
            m++;
    return m;
}

/* The scratch space of one build. */
struct build {
    size_t *ia, *ib;
    double *x, *y, *buf;
    struct rcuprof_sb noisy, outl, failed;
    size_t unpaired;
};

/* The variants and the baseline; -1 with err on bad input. */
static int table_start(rcuprof_table *t, const rcuprof_results *rs,
                       const char *baseline, int compare, char *err,
                       size_t errlen)
{
    size_t v;

    if (compare && rs->nvariants < 2) {
        snprintf(err, errlen, "the results hold %zu variant(s): a comparison needs two",
                 rs->nvariants);
        return -1;
    }
    t->nvariants = rs->nvariants;
    t->variants = (const char **)rs->variants;
    t->baseline = 0;
    if (baseline != NULL) {
        for (v = 0; v < rs->nvariants; v++)
            if (strcmp(rs->variants[v], baseline) == 0)
                break;
        if (v == rs->nvariants) {
            snprintf(err, errlen, "--baseline '%s' is not in the results: give one of their variants",
                     baseline);
            return -1;
        }
        t->baseline = v;
    }
    return 0;
}

/* The thread counts and the CPUs (the fewest any ok run had). */
static int table_counts(rcuprof_table *t, const rcuprof_results *rs,
                        char *err, size_t errlen)
{
    size_t i, nok = 0;

    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        t->threads[t->nthreads++] = p->threads;
        if (p->status == RCUPROF_POINT_OK) {
            nok++;
            if (p->result.cpus_allowed > 0
                && (t->cpus_allowed == 0
                    || p->result.cpus_allowed < t->cpus_allowed))
                t->cpus_allowed = p->result.cpus_allowed;
        }
    }
    if (nok == 0) {
        snprintf(err, errlen, "the results hold no successful run: run (or resume) the sweep");
        return -1;
    }
    t->nthreads = rcuprof_sort_uniq_uint(t->threads, t->nthreads);
    return 0;
}

/* Every cell, and (compare) every change against the baseline. */
static void table_cells(rcuprof_table *t, const rcuprof_results *rs,
                        int compare, struct build *b)
{
    size_t ti, v;

    for (ti = 0; ti < t->nthreads; ti++) {
        size_t na, nb, fa;

        for (v = 0; v < t->nvariants; v++) {
            size_t nf, n = gather(rs, v, t->threads[ti], b->ia, &nf);

            t->cells[ti * t->nvariants + v].failed = nf;
            if (nf > 0)
                rcuprof_sb_printf(&b->failed, "%s%s%s%s@%u x%zu",
                                  b->failed.len ? ", " : "",
                                  CELL_OPEN(t->variants[v]), t->variants[v],
                                  CELL_CLOSE(t->variants[v]), t->threads[ti],
                                  nf);
            cell_stats(t, rs, ti, v, b->ia, n, b->x, b->y, &b->noisy,
                       &b->outl);
        }
        if (!compare)
            continue;
        na = gather(rs, t->baseline, t->threads[ti], b->ia, &fa);
        for (v = 0; v < t->nvariants; v++) {
            if (v == t->baseline)
                continue;
            nb = gather(rs, v, t->threads[ti], b->ib, &fa);
            change_stats(t, rs, ti, v, b->ia, na, b->ib, nb, b->x, b->y);
            if (t->changes[ti * t->nvariants + v].have
                && !t->changes[ti * t->nvariants + v].paired)
                b->unpaired++;
        }
    }
}

/* Holm over the table's tests, per test; the counts the writers show. */
static void table_tests(rcuprof_table *t, struct build *b)
{
    size_t i;

    holm_column(t, offsetof(rcuprof_change, p_wilcoxon),
                offsetof(rcuprof_change, p_wilcoxon_holm), b->buf);
    holm_column(t, offsetof(rcuprof_change, p_welch),
                offsetof(rcuprof_change, p_welch_holm), b->buf);
    holm_column(t, offsetof(rcuprof_change, p_mw),
                offsetof(rcuprof_change, p_mw_holm), b->buf);
    holm_column(t, offsetof(rcuprof_change, p),
                offsetof(rcuprof_change, p_holm), b->buf);
    t->ntests = n_tests(t);
    t->runs_min = (size_t)-1;
    for (i = 0; i < t->nthreads * t->nvariants; i++) {
        if (t->cells[i].n < t->runs_min)
            t->runs_min = t->cells[i].n;
        if (t->cells[i].n > t->runs_max)
            t->runs_max = t->cells[i].n;
    }
}

/*
 * Variants of more than one OpenSSL (lines, or versions of a line): each
 * variant's version and line, from its first ok run, so a cross-line table
 * names what every column measured.
 */
static void table_note_lines(rcuprof_table *t, const rcuprof_results *rs)
{
    struct rcuprof_sb s = { 0 };
    const char *first = NULL;
    int differ = 0;
    size_t v, i;

    for (v = 0; v < rs->nvariants; v++) {
        const rcuprof_record *r = NULL;

        for (i = 0; i < rs->npoints && r == NULL; i++)
            if (rs->points[i].variant == v && rs->points[i].result.ok
                && rs->points[i].result.openssl_version[0] != '\0')
                r = &rs->points[i].result;
        if (r == NULL)
            continue;
        if (first == NULL)
            first = r->openssl_version;
        else if (strcmp(first, r->openssl_version) != 0)
            differ = 1;
        rcuprof_sb_printf(&s, "%s%s %s (line %s)", s.len > 0 ? ", " : "",
                          rs->variants[v], r->openssl_version,
                          r->line[0] != '\0' ? r->line : "unknown");
    }
    if (differ && s.p != NULL)
        note(t, "OpenSSL of each variant: %s", s.p);
    free(s.p);
}

/* Notes: what a reader must know before trusting a row. */
static void table_notes(rcuprof_table *t, const rcuprof_results *rs,
                        struct build *b)
{
    size_t i;

    for (i = 0; i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i];

        if (f->n_corrupt > 0)
            note(t, "%s: %zu corrupt line(s) skipped, the first at line %zu",
                 f->path, f->n_corrupt, f->first_corrupt);
        if (f->torn)
            note(t, "%s: torn last line ignored (an interrupted sweep: --resume completes it)",
                 f->path);
    }
    for (i = 1; i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i], *f0 = &rs->files[0];
        json_t *o0 = json_object_get(json_object_get(f0->header, "spec"),
                                     "options");
        json_t *o = json_object_get(json_object_get(f->header, "spec"),
                                    "options");

        if (f->host != NULL && f0->host != NULL
            && (strcmp(f->host, f0->host) != 0
                || strcmp(f->kernel, f0->kernel) != 0))
            note(t, "different environments: %s ran on %s (kernel %s), %s on %s (kernel %s)",
                 f0->path, f0->host, f0->kernel, f->path, f->host, f->kernel);
        if (!json_equal(o0, o))
            note(t, "different driver options: %s and %s were swept with other run options",
                 f0->path, f->path);
    }
    table_note_lines(t, rs);
    if (b->failed.len > 0)
        note(t, "failed runs, left out: %s", b->failed.p);
    if (b->noisy.len > 0)
        note(t, "noisy (CV above %.0f%%; changes below the MDE are not resolved): %s",
             100 * RCUPROF_STATS_NOISY_CV, b->noisy.p);
    if (b->outl.len > 0)
        note(t, "outliers (modified z-score beyond %.1f; kept in the figures): %s",
             OUTLIER_Z, b->outl.p);
    if (b->unpaired > 0)
        note(t, "%zu row(s) have no common blocks: change from the means with Welch's interval, p from Mann-Whitney",
             b->unpaired);
}

/* The table: cells always, changes when compare is set. */
static int table_make(const rcuprof_results *rs, const char *baseline,
                      int metric, int compare, rcuprof_table *t, char *err,
                      size_t errlen)
{
    size_t cap = rs->npoints + 1;
    struct build b;
    int rc = -1;

    memset(t, 0, sizeof(*t));
    memset(&b, 0, sizeof(b));
    t->metric = metric;
    t->level = LEVEL;
    t->alpha = ALPHA;
    t->power = POWER;
    t->notes = json_array();
    if (table_start(t, rs, baseline, compare, err, errlen) != 0)
        goto out;
    t->threads = malloc(cap * sizeof(*t->threads));
    b.ia = malloc(cap * sizeof(*b.ia));
    b.ib = malloc(cap * sizeof(*b.ib));
    b.x = malloc(cap * sizeof(*b.x));
    b.y = malloc(cap * sizeof(*b.y));
    b.buf = malloc(cap * rs->nvariants * sizeof(*b.buf));
    if (t->threads == NULL || b.ia == NULL || b.ib == NULL || b.x == NULL
        || b.y == NULL || b.buf == NULL || t->notes == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (table_counts(t, rs, err, errlen) != 0)
        goto out;
    t->cells = calloc(t->nthreads * t->nvariants, sizeof(*t->cells));
    t->changes = calloc(t->nthreads * t->nvariants, sizeof(*t->changes));
    if (t->cells == NULL || t->changes == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    table_cells(t, rs, compare, &b);
    table_tests(t, &b);
    table_notes(t, rs, &b);
    if (b.failed.oom || b.noisy.oom || b.outl.oom) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = 0;
 out:
    free(b.ia);
    free(b.ib);
    free(b.x);
    free(b.y);
    free(b.buf);
    free(b.noisy.p);
    free(b.outl.p);
    free(b.failed.p);
    if (rc != 0)
        rcuprof_table_free(t);
    return rc;
}

int rcuprof_table_build(const rcuprof_results *rs, const char *baseline,
                        int metric, rcuprof_table *t, char *err,
                        size_t errlen)
{
    return table_make(rs, baseline, metric, 1, t, err, errlen);
}

int rcuprof_table_describe(const rcuprof_results *rs, int metric,
                           rcuprof_table *t, char *err, size_t errlen)
{
    return table_make(rs, NULL, metric, 0, t, err, errlen);
}

void rcuprof_table_free(rcuprof_table *t)
{
    free(t->threads);
    free(t->cells);
    free(t->changes);
    json_decref(t->notes);
    memset(t, 0, sizeof(*t));
}

/* ---------------------------------------------------------------------- */
/* The Universal Scalability Law, per variant                              */

int rcuprof_table_usl(const rcuprof_results *rs, const rcuprof_table *t,
                      size_t v, rcuprof_usl_fit *f)
{
    double *x, *y;
    size_t i, n = 0, counts = 0;
    int rc;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < t->nthreads; i++)
        counts += t->cpus_allowed > 0 && t->threads[i] <= t->cpus_allowed
                  && t->cells[i * t->nvariants + v].n > 0;
    if (t->cpus_allowed == 0) {
        snprintf(f->reason, sizeof(f->reason),
                 "not fitted: the CPU count is not in the results");
        return 0;
    }
    if (counts < USL_MIN_COUNTS) {
        snprintf(f->reason, sizeof(f->reason),
                 "not fitted: needs %d distinct thread counts at or below the %u CPUs, has %zu",
                 USL_MIN_COUNTS, t->cpus_allowed, counts);
        return 0;
    }
    x = malloc((rs->npoints + 1) * sizeof(*x));
    y = malloc((rs->npoints + 1) * sizeof(*y));
    if (x == NULL || y == NULL) {
        free(x);
        free(y);
        snprintf(f->reason, sizeof(f->reason), "out of memory");
        return -1;
    }
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_point *p = &rs->points[i];

        if (p->variant == v && p->status == RCUPROF_POINT_OK
            && p->threads <= t->cpus_allowed && p->result.ops_per_s > 0) {
            x[n] = p->threads;
            y[n++] = p->result.ops_per_s;
        }
    }
    rc = rcuprof_stats_usl_fit(x, y, n, 0.95, &f->m);
    free(x);
    free(y);
    if (rc != RCUPROF_STATS_OK) {
        snprintf(f->reason, sizeof(f->reason), "not fitted: %s",
                 rcuprof_stats_strerror(rc));
        return 0;
    }
    f->fitted = 1;
    return 0;
}
