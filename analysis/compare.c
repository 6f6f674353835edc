/*
 * The comparison table of rcuprof compare and rcuprof report: per variant
 * and thread count the descriptives; per variant against the baseline the
 * change from paired blocks (per-block ratios; Wilcoxon signed-rank), the
 * unpaired Welch and Mann-Whitney tests, Holm's correction over the table
 * and the minimum detectable effect.  The statistics are analysis/'s
 * (rcuprof_stats); this file pairs, tabulates and formats.
 */
#define _GNU_SOURCE
#include "rcuprof_util.h"
#include "results.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL 0.95
#define ALPHA 0.05
#define POWER 0.8
#define OUTLIER_Z 3.5

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

static void cell_stats(rcuprof_table *t, const rcuprof_results *rs,
                       size_t ti, size_t v, const size_t *idx, size_t n,
                       double *x, double *y, struct rcuprof_sb *noisy,
                       struct rcuprof_sb *outl)
{
    rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
    rcuprof_stats_summary ts;
    size_t i, k = 0;

    c->n = n;
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
    if (n >= 2) {
        c->noisy = rcuprof_stats_noisy(&c->s, RCUPROF_STATS_NOISY_CV) == 1;
        if (c->noisy)
            rcuprof_sb_printf(noisy, "%s%s@%u %.1f%%", noisy->len ? ", " : "",
                      t->variants[v], t->threads[ti], 100 * c->s.cv);
    }
    if (n >= 3) {
        int *flags = calloc(n, sizeof(*flags));
        double *z = calloc(n, sizeof(*z));

        if (flags != NULL && z != NULL
            && rcuprof_stats_modified_z(x, n, OUTLIER_Z, flags, z,
                                        &c->n_outliers) == RCUPROF_STATS_OK) {
            for (i = 0; i < n; i++)
                if (flags[i] != 0)
                    rcuprof_sb_printf(outl, "%s%s@%u block %u%s%.0zu (z %+.1f)",
                              outl->len ? ", " : "", t->variants[v],
                              t->threads[ti], rs->points[idx[i]].block,
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

int rcuprof_table_build(const rcuprof_results *rs, const char *baseline,
                        int metric, rcuprof_table *t, char *err,
                        size_t errlen)
{
    size_t i, ti, v, nok = 0, cap = rs->npoints + 1, unpaired = 0;
    size_t *ia = NULL, *ib = NULL;
    double *x = NULL, *y = NULL, *buf = NULL;
    struct rcuprof_sb noisy = { 0 }, outl = { 0 }, failed = { 0 };
    int rc = -1;

    memset(t, 0, sizeof(*t));
    t->metric = metric;
    t->notes = json_array();
    if (rs->nvariants < 2) {
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
    t->threads = malloc(cap * sizeof(*t->threads));
    ia = malloc(cap * sizeof(*ia));
    ib = malloc(cap * sizeof(*ib));
    x = malloc(cap * sizeof(*x));
    y = malloc(cap * sizeof(*y));
    buf = malloc(cap * rs->nvariants * sizeof(*buf));
    if (t->threads == NULL || ia == NULL || ib == NULL || x == NULL
        || y == NULL || buf == NULL || t->notes == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
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
        goto out;
    }
    t->nthreads = rcuprof_sort_uniq_uint(t->threads, t->nthreads);
    t->cells = calloc(t->nthreads * t->nvariants, sizeof(*t->cells));
    t->changes = calloc(t->nthreads * t->nvariants, sizeof(*t->changes));
    if (t->cells == NULL || t->changes == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }

    for (ti = 0; ti < t->nthreads; ti++) {
        size_t na, nb, fa;

        for (v = 0; v < t->nvariants; v++) {
            size_t nf, n = gather(rs, v, t->threads[ti], ia, &nf);

            t->cells[ti * t->nvariants + v].failed = nf;
            if (nf > 0)
                rcuprof_sb_printf(&failed, "%s%s@%u x%zu", failed.len ? ", " : "",
                          t->variants[v], t->threads[ti], nf);
            cell_stats(t, rs, ti, v, ia, n, x, y, &noisy, &outl);
        }
        na = gather(rs, t->baseline, t->threads[ti], ia, &fa);
        for (v = 0; v < t->nvariants; v++) {
            if (v == t->baseline)
                continue;
            nb = gather(rs, v, t->threads[ti], ib, &fa);
            change_stats(t, rs, ti, v, ia, na, ib, nb, x, y);
            if (t->changes[ti * t->nvariants + v].have
                && !t->changes[ti * t->nvariants + v].paired)
                unpaired++;
        }
    }
    holm_column(t, offsetof(rcuprof_change, p_wilcoxon),
                offsetof(rcuprof_change, p_wilcoxon_holm), buf);
    holm_column(t, offsetof(rcuprof_change, p_welch),
                offsetof(rcuprof_change, p_welch_holm), buf);
    holm_column(t, offsetof(rcuprof_change, p_mw),
                offsetof(rcuprof_change, p_mw_holm), buf);
    holm_column(t, offsetof(rcuprof_change, p),
                offsetof(rcuprof_change, p_holm), buf);

    /* Notes: what a reader must know before trusting a row. */
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
    if (failed.len > 0)
        note(t, "failed runs, left out: %s", failed.p);
    if (noisy.len > 0)
        note(t, "noisy (CV above %.0f%%; changes below the MDE are not resolved): %s",
             100 * RCUPROF_STATS_NOISY_CV, noisy.p);
    if (outl.len > 0)
        note(t, "outliers (modified z-score beyond %.1f; kept in the figures): %s",
             OUTLIER_Z, outl.p);
    if (unpaired > 0)
        note(t, "%zu row(s) have no common blocks: change from the means with Welch's interval, p from Mann-Whitney",
             unpaired);
    if (failed.oom || noisy.oom || outl.oom) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = 0;
 out:
    free(ia);
    free(ib);
    free(x);
    free(y);
    free(buf);
    free(noisy.p);
    free(outl.p);
    free(failed.p);
    if (rc != 0)
        rcuprof_table_free(t);
    return rc;
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
/* Formatting                                                              */

static size_t n_tests(const rcuprof_table *t)
{
    size_t i, m = 0;

    for (i = 0; i < t->nthreads * t->nvariants; i++)
        if (i % t->nvariants != t->baseline && isfinite(t->changes[i].p))
            m++;
    return m;
}

static void fmt_p(struct rcuprof_sb *b, double p)
{
    if (!isfinite(p))
        rcuprof_sb_printf(b, "n/a");
    else if (p < 0.001)
        rcuprof_sb_printf(b, "<0.001");
    else
        rcuprof_sb_printf(b, "%.3f", p);
}

char *rcuprof_table_markdown(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    const char *bl = t->variants[t->baseline];
    size_t ti, v, k, nmin = (size_t)-1, nmax = 0, os = 0;

    for (k = 0; k < t->nthreads * t->nvariants; k++) {
        if (t->cells[k].n < nmin)
            nmin = t->cells[k].n;
        if (t->cells[k].n > nmax)
            nmax = t->cells[k].n;
    }
    rcuprof_sb_printf(&b, "%s per op in usecs (%s / 1000): mean and std dev over ",
              t->metric == RCUPROF_METRIC_CPU ? "CPU time" : "Wall time",
              rcuprof_metric_name(t->metric));
    if (nmin == nmax)
        rcuprof_sb_printf(&b, "%zu runs", nmin);
    else
        rcuprof_sb_printf(&b, "%zu to %zu runs", nmin, nmax);
    rcuprof_sb_printf(&b, " per cell; baseline %s.\n\n| threads |", bl);
    /* Columns: the baseline first, then every other variant in order. */
    for (k = 0; k < t->nvariants; k++) {
        v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
        rcuprof_sb_printf(&b, " %s usecs | %s std dev |", t->variants[v],
                  t->variants[v]);
    }
    for (k = 1; k < t->nvariants; k++) {
        v = k <= t->baseline ? k - 1 : k;
        if (t->nvariants > 2)
            rcuprof_sb_printf(&b, " %s change %% [95%% CI] | %s p (Holm) | %s MDE |",
                      t->variants[v], t->variants[v], t->variants[v]);
        else
            rcuprof_sb_printf(&b, " change %% [95%% CI] | p (Holm) | MDE |");
    }
    rcuprof_sb_printf(&b, "\n|--:|");
    for (k = 0; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, "--:|--:|");
    for (k = 1; k < t->nvariants; k++)
        rcuprof_sb_printf(&b, "--:|--:|--:|");
    rcuprof_sb_printf(&b, "\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        int over = rcuprof_table_oversubscribed(t, ti);

        os += over;
        rcuprof_sb_printf(&b, "| %u%s |", t->threads[ti], over ? " [^os]" : "");
        for (k = 0; k < t->nvariants; k++) {
            const rcuprof_cell *c;

            v = k == 0 ? t->baseline : (k <= t->baseline ? k - 1 : k);
            c = &t->cells[ti * t->nvariants + v];
            if (c->n == 0)
                rcuprof_sb_printf(&b, " n/a | n/a |");
            else if (!isfinite(c->s.sd))
                rcuprof_sb_printf(&b, " %.4f | n/a |", c->s.mean / 1000);
            else
                rcuprof_sb_printf(&b, " %.4f | %.4f |", c->s.mean / 1000,
                          c->s.sd / 1000);
        }
        for (k = 1; k < t->nvariants; k++) {
            const rcuprof_change *ch;

            v = k <= t->baseline ? k - 1 : k;
            ch = &t->changes[ti * t->nvariants + v];
            if (!ch->have) {
                rcuprof_sb_printf(&b, " n/a | n/a | n/a |");
                continue;
            }
            rcuprof_sb_printf(&b, " %+.1f", ch->change_pct);
            if (isfinite(ch->lo_pct) && isfinite(ch->hi_pct))
                rcuprof_sb_printf(&b, " [%+.1f, %+.1f]", ch->lo_pct, ch->hi_pct);
            rcuprof_sb_printf(&b, "%s | ", ch->paired ? "" : " (unpaired)");
            fmt_p(&b, ch->p_holm);
            if (isfinite(ch->mde_pct))
                rcuprof_sb_printf(&b, " | %.1f%% |", ch->mde_pct);
            else
                rcuprof_sb_printf(&b, " | n/a |");
        }
        rcuprof_sb_printf(&b, "\n");
    }
    rcuprof_sb_printf(&b, "\nchange %%: the variant's per-op cost relative to %s "
              "(negative = faster), the geometric mean of per-block ratios "
              "with its 95%% t interval.  p: Wilcoxon signed-rank test on "
              "those ratios, Holm-corrected over the table's %zu tests.  "
              "MDE: the smallest change this noise and n detect "
              "(alpha 0.05, power 0.8); a change below it is not resolved.\n",
              bl, n_tests(t));
    if (os > 0)
        rcuprof_sb_printf(&b, "\n[^os]: More threads than the %u CPUs allowed: "
                  "threads wait for a CPU, so the per-op wall time "
                  "includes the wait.\n", t->cpus_allowed);
    if (json_array_size(t->notes) > 0) {
        json_t *n;

        rcuprof_sb_printf(&b, "\nNotes:\n");
        json_array_foreach(t->notes, k, n)
            rcuprof_sb_printf(&b, "- %s\n", json_string_value(n));
    }
    return rcuprof_sb_done(&b);
}

static void csv_num(struct rcuprof_sb *b, double x)
{
    if (isfinite(x))
        rcuprof_sb_printf(b, ",%.10g", x);
    else
        rcuprof_sb_printf(b, ",");
}

char *rcuprof_table_csv(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    size_t ti, v;

    rcuprof_sb_printf(&b, "metric,threads,oversubscribed,variant,baseline,n,failed,"
              "mean_ns,median_ns,sd_ns,mean_lo_ns,mean_hi_ns,median_lo_ns,"
              "median_hi_ns,cv,noisy,outliers,ops_per_s,paired,pairs,"
              "change_pct,change_lo_pct,change_hi_pct,p,p_holm,p_wilcoxon,"
              "p_wilcoxon_holm,p_welch,p_welch_holm,p_mw,p_mw_holm,mde_pct\n");
    for (ti = 0; ti < t->nthreads; ti++) {
        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            const rcuprof_change *ch = &t->changes[ti * t->nvariants + v];
            int has = c->n > 0;

            rcuprof_sb_printf(&b, "%s,%u,%d,%s,%s,%zu,%zu",
                      rcuprof_metric_name(t->metric), t->threads[ti],
                      rcuprof_table_oversubscribed(t, ti), t->variants[v],
                      t->variants[t->baseline], c->n, c->failed);
            csv_num(&b, has ? c->s.mean : NAN);
            csv_num(&b, has ? c->s.median : NAN);
            csv_num(&b, has ? c->s.sd : NAN);
            csv_num(&b, has ? c->s.mean_lo : NAN);
            csv_num(&b, has ? c->s.mean_hi : NAN);
            csv_num(&b, has ? c->s.median_lo : NAN);
            csv_num(&b, has ? c->s.median_hi : NAN);
            csv_num(&b, has ? c->s.cv : NAN);
            rcuprof_sb_printf(&b, ",%d,%zu", c->noisy, c->n_outliers);
            csv_num(&b, has ? c->tput_mean : NAN);
            if (v == t->baseline || !ch->have) {
                rcuprof_sb_printf(&b, ",,%s,,,,,,,,,,,,\n",
                          v == t->baseline ? "" : "0");
                continue;
            }
            rcuprof_sb_printf(&b, ",%d,%zu", ch->paired, ch->n_pairs);
            csv_num(&b, ch->change_pct);
            csv_num(&b, ch->lo_pct);
            csv_num(&b, ch->hi_pct);
            csv_num(&b, ch->p);
            csv_num(&b, ch->p_holm);
            csv_num(&b, ch->p_wilcoxon);
            csv_num(&b, ch->p_wilcoxon_holm);
            csv_num(&b, ch->p_welch);
            csv_num(&b, ch->p_welch_holm);
            csv_num(&b, ch->p_mw);
            csv_num(&b, ch->p_mw_holm);
            csv_num(&b, ch->mde_pct);
            rcuprof_sb_printf(&b, "\n");
        }
    }
    return rcuprof_sb_done(&b);
}

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

json_t *rcuprof_table_json(const rcuprof_table *t, const rcuprof_results *rs)
{
    json_t *j, *rows = json_array(), *files = json_array(), *vars = json_array();
    size_t i, ti, v;

    for (v = 0; v < t->nvariants; v++)
        json_array_append_new(vars, json_string(t->variants[v]));
    for (i = 0; rs != NULL && i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i];
        size_t np = 0, k;

        for (k = 0; k < rs->npoints; k++)
            np += rs->points[k].file == i;
        json_array_append_new(files, json_pack(
            "{s:s, s:O, s:O, s:s?, s:s?, s:I, s:I, s:b}", "path", f->path,
            "spec_hash", json_object_get(f->header, "spec_hash"),
            "spec", json_object_get(f->header, "spec"),
            "host", f->host, "kernel", f->kernel,
            "points", (json_int_t)np, "corrupt_lines",
            (json_int_t)f->n_corrupt, "torn", f->torn));
    }
    for (ti = 0; ti < t->nthreads; ti++) {
        json_t *cells = json_object(), *changes = json_object();

        for (v = 0; v < t->nvariants; v++) {
            const rcuprof_cell *c = &t->cells[ti * t->nvariants + v];
            const rcuprof_change *ch = &t->changes[ti * t->nvariants + v];
            int has = c->n > 0;

            json_object_set_new(cells, t->variants[v], json_pack(
                "{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, "
                "s:I, s:o, s:o, s:o}",
                "n", (json_int_t)c->n, "failed", (json_int_t)c->failed,
                "mean", jnum(has ? c->s.mean : NAN),
                "median", jnum(has ? c->s.median : NAN),
                "sd", jnum(has ? c->s.sd : NAN),
                "mean_lo", jnum(has ? c->s.mean_lo : NAN),
                "mean_hi", jnum(has ? c->s.mean_hi : NAN),
                "median_lo", jnum(has ? c->s.median_lo : NAN),
                "median_hi", jnum(has ? c->s.median_hi : NAN),
                "cv", jnum(has ? c->s.cv : NAN), "noisy", c->noisy,
                "outliers", (json_int_t)c->n_outliers,
                "ops_per_s", jnum(has ? c->tput_mean : NAN),
                "ops_per_s_lo", jnum(has ? c->tput_lo : NAN),
                "ops_per_s_hi", jnum(has ? c->tput_hi : NAN)));
            if (v == t->baseline)
                continue;
            json_object_set_new(changes, t->variants[v], !ch->have
                ? json_null() : json_pack(
                "{s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                "s:o, s:o, s:o, s:o}",
                "paired", ch->paired, "pairs", (json_int_t)ch->n_pairs,
                "change_pct", jnum(ch->change_pct),
                "change_lo_pct", jnum(ch->lo_pct),
                "change_hi_pct", jnum(ch->hi_pct),
                "sd_log", jnum(ch->sd_log),
                "p", jnum(ch->p), "p_holm", jnum(ch->p_holm),
                "p_wilcoxon", jnum(ch->p_wilcoxon),
                "p_wilcoxon_holm", jnum(ch->p_wilcoxon_holm),
                "p_welch", jnum(ch->p_welch),
                "p_welch_holm", jnum(ch->p_welch_holm),
                "p_mw", jnum(ch->p_mw), "p_mw_holm", jnum(ch->p_mw_holm),
                "mde_pct", jnum(ch->mde_pct)));
        }
        json_array_append_new(rows, json_pack(
            "{s:I, s:b, s:o, s:o}", "threads", (json_int_t)t->threads[ti],
            "oversubscribed", rcuprof_table_oversubscribed(t, ti),
            "cells", cells, "changes", changes));
    }
    j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:O, s:I, s:f, s:f, "
                  "s:f}",
                  "schema", RCUPROF_COMPARE_SCHEMA,
                  "metric", rcuprof_metric_name(t->metric), "unit", "ns",
                  "baseline", t->variants[t->baseline], "variants", vars,
                  "files", files, "rows", rows, "notes", t->notes,
                  "tests", (json_int_t)n_tests(t), "level", LEVEL,
                  "alpha", ALPHA, "power", POWER);
    if (j != NULL)
        json_object_set_new(j, "cpus_allowed", t->cpus_allowed
                            ? json_integer(t->cpus_allowed) : json_null());
    return j;
}
