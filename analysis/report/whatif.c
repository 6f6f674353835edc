/*
 * The whatif writers (docs/interfaces.md section 9): whatif.json (schema
 * rcuprof-whatif/1) from the analysis, and whatif.md, whatif.csv and the
 * gnuplot script from that JSON, so every output carries the same figures.
 * ns/op is the unit everywhere.
 */
#define _GNU_SOURCE
#include "rcuprof_report.h"
#include "whatif.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *interval(double v, double lo, double hi)
{
    return json_pack("{s:o, s:o, s:o}", "value", num(v), "lo", num(lo),
                     "hi", num(hi));
}

static json_t *est_json(const rcuprof_whatif_est *e)
{
    json_t *j;

    if (!e->have)
        return json_null();
    j = interval(e->value, e->lo, e->hi);
    if (j != NULL) {
        json_object_set_new(j, "blocks", json_integer((json_int_t)e->n));
        json_object_set_new(j, "method", json_string("linear extrapolation"));
    }
    return j != NULL ? j : json_null();
}

/* A paired difference over blocks: {value, lo, hi, blocks}; null. */
static json_t *diff_json(const rcuprof_whatif_est *e)
{
    json_t *j;

    if (!e->have)
        return json_null();
    j = interval(e->value, e->lo, e->hi);
    if (j != NULL)
        json_object_set_new(j, "blocks", json_integer((json_int_t)e->n));
    return j != NULL ? j : json_null();
}

/* The unarmed cell: {mean, lo, hi, runs, failed}; null without a run. */
static json_t *unarmed_json(const rcuprof_whatif_cell *c)
{
    json_t *j;

    if (c->runs == 0 && c->failed == 0)
        return json_null();
    j = json_pack("{s:o, s:o, s:o, s:I, s:I}", "mean", num(c->mean),
                  "lo", num(c->lo), "hi", num(c->hi),
                  "runs", (json_int_t)c->runs, "failed", (json_int_t)c->failed);
    return j != NULL ? j : json_null();
}

json_t *rcuprof_whatif_json(const rcuprof_whatif *w, const json_t *meta)
{
    json_t *j = json_deep_copy(meta), *rows = json_array(),
        *dl = json_array();
    size_t i, d;

    if (j == NULL || rows == NULL || dl == NULL) {
        json_decref(j);
        json_decref(rows);
        json_decref(dl);
        return NULL;
    }
    json_object_set_new(j, "schema", json_string(RCUPROF_WHATIF_SCHEMA));
    for (d = 0; d < w->ndelays; d++)
        json_array_append_new(dl, json_integer((json_int_t)w->delays[d]));
    json_object_set_new(j, "delays_ns", dl);
    json_object_set_new(j, "blocks", json_integer(w->blocks));
    json_object_set_new(j, "fixed_ns", json_real(w->fixed_ns));
    json_object_set_new(j, "runs", json_pack("{s:I, s:I}", "total",
                                             (json_int_t)w->runs, "failed",
                                             (json_int_t)w->failed));
    for (i = 0; i < w->nrows; i++) {
        const rcuprof_whatif_row *r = &w->rows[i];
        json_t *row, *cells = json_array();

        for (d = 0; cells != NULL && d < r->ncells; d++) {
            const rcuprof_whatif_cell *c = &r->cells[d];

            json_array_append_new(cells, json_pack(
                "{s:I, s:o, s:I, s:I, s:o, s:o, s:o}",
                "delay_ns", (json_int_t)c->delay_ns,
                "x_ns_per_op", num(c->x_ns_per_op),
                "runs", (json_int_t)c->runs, "failed", (json_int_t)c->failed,
                "mean", num(c->mean), "lo", num(c->lo), "hi", num(c->hi)));
        }
        row = json_pack("{s:i, s:b, s:I, s:o, s:o, s:o, s:o, s:s, s:o, s:o}",
                        "threads", (int)r->threads,
                        "oversubscribed", r->oversubscribed,
                        "blocks", (json_int_t)r->fit.nblocks,
                        "calls_per_op", num(r->calls_per_op),
                        "own_ns_per_call", num(r->own_ns_per_call),
                        "cells", cells != NULL ? cells : json_array(),
                        "slope", interval(r->fit.slope, r->fit.lo, r->fit.hi),
                        "reading", rcuprof_whatif_reading_name(r->reading),
                        "intercept", interval(r->fit.intercept, r->fit.ilo,
                                              r->fit.ihi),
                        "predicted_without_site",
                        est_json(&r->without_site));
        if (row != NULL) {
            json_object_set_new(row, "unarmed", unarmed_json(&r->unarmed));
            json_object_set_new(row, "mechanism", diff_json(&r->mechanism));
            json_object_set_new(row, "predicted_without_site_unarmed",
                                est_json(&r->without_site_unarmed));
        }
        if (row != NULL) {
            json_object_set_new(row, "residual_sd", num(r->fit.resid_sd));
            json_object_set_new(row, "signal_sd", num(r->fit.signal_sd));
        }
        if (row != NULL && w->fixed_ns > 0)
            json_object_set_new(row, "predicted_without_fixed",
                                est_json(&r->without_fixed));
        if (row == NULL) {
            json_decref(j);
            json_decref(rows);
            return NULL;
        }
        json_array_append_new(rows, row);
    }
    json_object_set_new(j, "rows", rows);
    json_object_set(j, "notes", w->notes != NULL ? w->notes : json_array());
    return j;
}

/* ---------------------------------------------------------------------- */
/* Text from the JSON                                                      */

static double jnum(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "1.02 [0.97, 1.07]", "1.02" without bounds, "-" without a value. */
static void fmt_iv(FILE *f, const json_t *iv, int prec)
{
    double v = jnum(iv, "value"), lo = jnum(iv, "lo"), hi = jnum(iv, "hi");

    if (!isfinite(v))
        fputs("-", f);
    else if (!isfinite(lo) || !isfinite(hi))
        fprintf(f, "%.*f", prec, v);
    else
        fprintf(f, "%.*f [%.*f, %.*f]", prec, v, prec, lo, prec, hi);
}

static void fmt_num(FILE *f, double v, int prec)
{
    if (isfinite(v))
        fprintf(f, "%.*f", prec, v);
    else
        fputs("-", f);
}

/* A row whose line explains less than its scatter (analysis' nofit). */
static int nofit(const json_t *r)
{
    const char *rd = json_string_value(json_object_get(r, "reading"));

    return rd != NULL && strcmp(rd, "no fit") == 0;
}

static char *close_text(FILE *f, char **buf)
{
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *rcuprof_whatif_markdown(const json_t *rep)
{
    char *buf = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&buf, &len);
    const json_t *rows = json_object_get(rep, "rows"), *r, *d, *n;
    int fixed = jnum(rep, "fixed_ns") > 0;

    if (f == NULL)
        return NULL;
    fprintf(f, "# whatif: %s at %s (%s)\n\n",
            json_string_value(json_object_get(rep, "site")) ?: "?",
            json_string_value(json_object_get(rep, "variant")) ?: "?",
            json_string_value(json_object_get(rep, "where")) ?: "?");
    fprintf(f, "Delays (ns per call):");
    json_array_foreach(json_object_get(rep, "delays_ns"), i, d)
        fprintf(f, "%s %lld", i ? "," : "", (long long)json_integer_value(d));
    fprintf(f, "; %lld blocks; seed %lld.  Slope: ns/op of cost per ns/op of delay put on each op (adds: the interval holds 1 and lies within [0.75, 1.25], the site's time adds; amplified: above 1, threads wait behind it; overlapped: below 1, it overlaps waiting; undetermined: none of these; no fit: the runs scatter about the line (SD) more than the line moves over the delays, so no slope is given).\n\n",
            (long long)json_integer_value(json_object_get(rep, "blocks")),
            (long long)json_integer_value(json_object_get(rep, "seed")));
    fprintf(f, "| threads | calls/op | ns/op at %lld ns | slope [95%% CI] | reading | own ns/call | predicted ns/op without the site [95%% CI] [^x] |%s\n",
            (long long)json_integer_value(json_array_get(
                json_object_get(rep, "delays_ns"), 0)),
            fixed ? " predicted ns/op without the fixed cost [95% CI] [^x] |" : "");
    fprintf(f, "|--:|--:|--:|--:|---|--:|--:|%s\n", fixed ? "--:|" : "");
    json_array_foreach(rows, i, r) {
        const json_t *c0 = json_array_get(json_object_get(r, "cells"), 0);

        fprintf(f, "| %lld%s | ",
                (long long)json_integer_value(json_object_get(r, "threads")),
                json_is_true(json_object_get(r, "oversubscribed")) ? " [^o]"
                                                                    : "");
        fmt_num(f, jnum(r, "calls_per_op"), 2);
        fputs(" | ", f);
        fmt_num(f, jnum(c0, "mean"), 1);
        fputs(" | ", f);
        if (nofit(r))
            fprintf(f, "- | no fit (scatter %.0f > line %.0f ns/op) | ",
                    jnum(r, "residual_sd"), jnum(r, "signal_sd"));
        else {
            fmt_iv(f, json_object_get(r, "slope"), 2);
            fprintf(f, " | %s | ",
                    json_string_value(json_object_get(r, "reading")) ?: "?");
        }
        fmt_num(f, jnum(r, "own_ns_per_call"), 1);
        fputs(" | ", f);
        fmt_iv(f, json_object_get(r, "predicted_without_site"), 1);
        fputs(" |", f);
        if (fixed) {
            fputc(' ', f);
            fmt_iv(f, json_object_get(r, "predicted_without_fixed"), 1);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fprintf(f, "\nThe figures above are for the armed build (the site's call into its wait, its bookkeeping and timer reads cost at every call).  Unarmed (the run without --delay-site, in every block):\n\n");
    fprintf(f, "| threads | unarmed ns/op [95%% CI] | mechanism ns/op [95%% CI] | predicted ns/op without the site, unarmed [95%% CI] [^x] |\n");
    fprintf(f, "|--:|--:|--:|--:|\n");
    json_array_foreach(rows, i, r) {
        const json_t *u = json_object_get(r, "unarmed");

        fprintf(f, "| %lld | ",
                (long long)json_integer_value(json_object_get(r, "threads")));
        if (json_is_object(u) && isfinite(jnum(u, "mean"))) {
            json_t *iv = json_pack("{s:o, s:o, s:o}", "value",
                                   json_real(jnum(u, "mean")),
                                   "lo", isfinite(jnum(u, "lo"))
                                   ? json_real(jnum(u, "lo")) : json_null(),
                                   "hi", isfinite(jnum(u, "hi"))
                                   ? json_real(jnum(u, "hi")) : json_null());

            fmt_iv(f, iv, 1);
            json_decref(iv);
        } else {
            fputs("-", f);
        }
        fputs(" | ", f);
        fmt_iv(f, json_object_get(r, "mechanism"), 1);
        fputs(" | ", f);
        fmt_iv(f, json_object_get(r, "predicted_without_site_unarmed"), 1);
        fputs(" |\n", f);
    }
    fprintf(f, "\nmechanism: ns/op at the lowest delay less ns/op unarmed, paired per block; predicted without the site, unarmed: the prediction less the mechanism, per block.\n");
    fprintf(f, "\n[^x]: linear extrapolation: removing a serialised section can move the bottleneck elsewhere.\n");
    json_array_foreach(rows, i, r)
        if (json_is_true(json_object_get(r, "oversubscribed"))) {
            fprintf(f, "[^o]: oversubscribed: more threads than allowed CPUs.\n");
            break;
        }
    if (json_array_size(json_object_get(rep, "notes")) > 0) {
        fprintf(f, "\nNotes:\n\n");
        json_array_foreach(json_object_get(rep, "notes"), i, n)
            fprintf(f, "* %s\n", json_string_value(n) ?: "");
    }
    return close_text(f, &buf);
}

char *rcuprof_whatif_csv(const json_t *rep)
{
    char *buf = NULL;
    size_t len = 0, i, k;
    FILE *f = open_memstream(&buf, &len);
    const json_t *r, *c;

    if (f == NULL)
        return NULL;
    fprintf(f, "threads,delay_ns,x_ns_per_op,runs,failed,mean_ns_per_op,lo_ns_per_op,hi_ns_per_op,calls_per_op,own_ns_per_call,slope,slope_lo,slope_hi,reading,intercept_ns_per_op,predicted_without_site_ns_per_op,predicted_lo,predicted_hi,unarmed_ns_per_op,mechanism_ns_per_op,mechanism_lo,mechanism_hi,predicted_without_site_unarmed_ns_per_op,predicted_unarmed_lo,predicted_unarmed_hi\n");
    json_array_foreach(json_object_get(rep, "rows"), i, r) {
        const json_t *s = json_object_get(r, "slope"),
            *p = json_object_get(r, "predicted_without_site");

        json_array_foreach(json_object_get(r, "cells"), k, c) {
            double v[] = { jnum(c, "x_ns_per_op"), NAN, NAN, jnum(c, "mean"),
                           jnum(c, "lo"), jnum(c, "hi"),
                           jnum(r, "calls_per_op"), jnum(r, "own_ns_per_call"),
                           jnum(s, "value"), jnum(s, "lo"), jnum(s, "hi") };
            size_t m;

            fprintf(f, "%lld,%lld",
                    (long long)json_integer_value(json_object_get(r, "threads")),
                    (long long)json_integer_value(json_object_get(c, "delay_ns")));
            for (m = 0; m < sizeof(v) / sizeof(v[0]); m++) {
                fputc(',', f);
                if (m == 1 || m == 2)
                    fprintf(f, "%lld", (long long)json_integer_value(
                        json_object_get(c, m == 1 ? "runs" : "failed")));
                else if (isfinite(v[m]))
                    fprintf(f, "%.9g", v[m]);
            }
            fprintf(f, ",%s,", json_string_value(json_object_get(r, "reading")) ?: "");
            if (isfinite(jnum(json_object_get(r, "intercept"), "value")))
                fprintf(f, "%.9g", jnum(json_object_get(r, "intercept"), "value"));
            fputc(',', f);
            if (isfinite(jnum(p, "value")))
                fprintf(f, "%.9g", jnum(p, "value"));
            fputc(',', f);
            if (isfinite(jnum(p, "lo")))
                fprintf(f, "%.9g", jnum(p, "lo"));
            fputc(',', f);
            if (isfinite(jnum(p, "hi")))
                fprintf(f, "%.9g", jnum(p, "hi"));
            {
                const json_t *me = json_object_get(r, "mechanism"),
                    *pu = json_object_get(r, "predicted_without_site_unarmed");
                double u[] = { jnum(json_object_get(r, "unarmed"), "mean"),
                               jnum(me, "value"), jnum(me, "lo"),
                               jnum(me, "hi"), jnum(pu, "value"),
                               jnum(pu, "lo"), jnum(pu, "hi") };
                size_t m;

                for (m = 0; m < sizeof(u) / sizeof(u[0]); m++) {
                    fputc(',', f);
                    if (isfinite(u[m]))
                        fprintf(f, "%.9g", u[m]);
                }
            }
            fputc('\n', f);
        }
    }
    return close_text(f, &buf);
}

const char *const *rcuprof_whatif_plots(void)
{
    static const char *const outs[] = { "whatif.png", "whatif.svg", NULL };

    return outs;
}

/* The smallest (hi 0) or largest (hi 1) delay per op of a row's cells. */
static double row_x(const json_t *r, int hi)
{
    const json_t *c;
    double v = NAN;
    size_t k;

    json_array_foreach(json_object_get(r, "cells"), k, c) {
        double x = jnum(c, "x_ns_per_op");

        if (isfinite(x) && isfinite(jnum(c, "mean"))
            && (!isfinite(v) || (hi ? x > v : x < v)))
            v = x;
    }
    return v;
}

/* One thread count's series in the whatif plot: its cells with their
 * intervals, the fitted line (not with no fit) and the unarmed level; k
 * is the series' place in the plot (0: the first). */
static void gp_row(FILE *f, const json_t *r, size_t i, size_t k)
{
    const json_t *s = json_object_get(r, "slope"),
        *ic = json_object_get(r, "intercept");
    double sv = jnum(s, "value"), iv = jnum(ic, "value");
    char key[160];
    long long nt = (long long)json_integer_value(json_object_get(r, "threads"));
    const char *tw = nt == 1 ? "thread" : "threads";

    if (nofit(r))
        snprintf(key, sizeof(key), "%lld %s: no fit (scatter %.0f > line %.0f ns/op)",
                 nt, tw, jnum(r, "residual_sd"), jnum(r, "signal_sd"));
    else if (isfinite(jnum(s, "lo")))
        snprintf(key, sizeof(key), "%lld %s: slope %.2f [%.2f, %.2f] %s",
                 nt, tw, sv, jnum(s, "lo"), jnum(s, "hi"),
                 json_string_value(json_object_get(r, "reading")) ?: "");
    else if (isfinite(sv))
        snprintf(key, sizeof(key), "%lld %s: slope %.2f, undetermined",
                 nt, tw, sv);
    else
        snprintf(key, sizeof(key), "%lld %s", nt, tw);
    fprintf(f, "%s $w%zu using 1:2:3:4 with yerrorbars lc %zu pt 7 title ",
            k ? ", \\\n    " : " ", i, i + 1);
    rcuprof_report_gp_quote(f, key);
    if (isfinite(sv) && isfinite(iv) && !nofit(r)
        && isfinite(row_x(r, 0)) && isfinite(row_x(r, 1)))
        /* over the delays run, not beyond them */
        fprintf(f, ", \\\n    (x >= %.9g && x <= %.9g ? %.12g + %.12g * x : NaN) lc %zu dt 2 notitle",
                row_x(r, 0), row_x(r, 1), iv, sv, i + 1);
    if (isfinite(jnum(json_object_get(r, "unarmed"), "mean"))) {
        char ukey[80];

        snprintf(ukey, sizeof(ukey), "%lld %s unarmed", nt, tw);
        fprintf(f, ", \\\n    %.12g lc %zu dt 3 title ",
                jnum(json_object_get(r, "unarmed"), "mean"), i + 1);
        rcuprof_report_gp_quote(f, ukey);
    }
}

char *rcuprof_whatif_gnuplot(const json_t *rep, const char *dir)
{
    char *buf = NULL, title[256], out[4200];
    size_t len = 0, i, k, nrows = json_array_size(json_object_get(rep, "rows"));
    FILE *f = open_memstream(&buf, &len);
    const json_t *r, *c;
    double xmax = 0, top_lo = INFINITY, top_hi = 0;
    int fmt, panels;

    if (f == NULL)
        return NULL;
    fprintf(f, "# rcuprof whatif: wall ns/op against the delay put on each op, per thread count (dotted: unarmed)\n");
    json_array_foreach(json_object_get(rep, "rows"), i, r) {
        double rmax = 0;

        fprintf(f, "$w%zu << EOD\n# x_ns_per_op mean lo hi\n", i);
        json_array_foreach(json_object_get(r, "cells"), k, c) {
            double x = jnum(c, "x_ns_per_op"), m = jnum(c, "mean");
            double lo = jnum(c, "lo"), hi = jnum(c, "hi");

            if (!isfinite(x) || !isfinite(m))
                continue;
            fprintf(f, "%.9g %.9g %.9g %.9g\n", x, m,
                    isfinite(lo) ? lo : m, isfinite(hi) ? hi : m);
            xmax = fmax(xmax, x);
            rmax = fmax(rmax, isfinite(hi) ? hi : m);
        }
        fprintf(f, "EOD\n");
        if (rmax > 0) {
            top_hi = fmax(top_hi, rmax);
            top_lo = fmin(top_lo, rmax);
        }
    }
    /* Thread counts whose costs differ by more than a factor 4 get a panel
     * each: on one linear axis the cheaper one lay flat at the bottom. */
    panels = nrows > 1 && top_lo > 0 && top_hi / top_lo > 4;
    snprintf(title, sizeof(title), "whatif: %s at %s",
             json_string_value(json_object_get(rep, "site")) ?: "?",
             json_string_value(json_object_get(rep, "variant")) ?: "?");
    for (fmt = 0; fmt < 2; fmt++) {
        fprintf(f, "\nset terminal %s\n", fmt == 0
                ? "pngcairo size 900,600 noenhanced"
                : "svg size 900,600 noenhanced");
        snprintf(out, sizeof(out), "%s/whatif.%s.tmp", dir,
                 fmt == 0 ? "png" : "svg");
        fprintf(f, "set output ");
        rcuprof_report_gp_quote(f, out);
        fprintf(f, "\nset title ");
        rcuprof_report_gp_quote(f, title);
        fprintf(f, "\nset xlabel 'delay put on each op (ns/op)'\n"
                   "set ylabel 'wall time per op (ns/op)'\n"
                   "set key outside below center vertical\nset grid\n"
                   "set yrange [0:*]\n");
        /* from 0: a delay below 0 means nothing (the axis ran from -20);
         * the key below: inside, it sat on the error bars */
        if (xmax > 0)
            fprintf(f, "set xrange [0:%.6g]\n", xmax * 1.05);
        if (panels) {
            fprintf(f, "set multiplot layout 1,%zu title ", nrows);
            rcuprof_report_gp_quote(f, title);
            fprintf(f, "\nunset title\n");
        } else {
            fprintf(f, "plot");
        }
        json_array_foreach(json_object_get(rep, "rows"), i, r) {
            if (panels && isfinite(row_x(r, 1)))
                fprintf(f, "%sset xrange [0:%.6g]\n", i ? "\n" : "",
                        row_x(r, 1) * 1.05);
            if (panels)
                fprintf(f, "plot");
            gp_row(f, r, i, panels ? 0 : i);
        }
        if (panels)
            fprintf(f, "\nunset multiplot");
        if (nrows == 0)
            fprintf(f, " 0 notitle");
        fprintf(f, "\nunset output\n");
    }
    return close_text(f, &buf);
}
