/* The JSON writer: the comparison (rcuprof-compare/1) and USL fits. */
#define _GNU_SOURCE
#include "rcuprof_report.h"
#include "explain.h"

#include <math.h>

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* A file's machine-state split (analysis/state.h). */
static json_t *state_json(const rcuprof_state_split *sp)
{
    return json_pack("{s:I, s:I, s:i, s:o, s:o, s:o, s:o, s:I, s:I}",
                     "samples", (json_int_t)sp->n,
                     "stalled_samples", (json_int_t)sp->n_stalled,
                     "clusters", sp->n == 0 || sp->too_few ? 0 : sp->two ? 2 : 1,
                     "threshold_ns", jnum(sp->threshold_ns),
                     "fast_ns", jnum(sp->fast_ns),
                     "slow_ns", jnum(sp->slow_ns),
                     "separation", jnum(sp->separation),
                     "fast_samples", (json_int_t)sp->n_fast,
                     "slow_samples", (json_int_t)sp->n_slow);
}

/* Why a row is to be trusted less (rcuprof_table_row_doubt), as names. */
static json_t *doubt_json(int d)
{
    json_t *a = json_array();

    if (d & RCUPROF_ROW_OVERSUBSCRIBED)
        json_array_append_new(a, json_string("oversubscribed"));
    if (d & RCUPROF_ROW_MIX)
        json_array_append_new(a, json_string("state_mix"));
    if (d & RCUPROF_ROW_AA)
        json_array_append_new(a, json_string("aa"));
    if (d & RCUPROF_ROW_AA_FLOOR)
        json_array_append_new(a, json_string("aa_floor"));
    return a;
}

/* A change against the baseline (or the A/A pair's), null when n/a. */
static json_t *change_json(const rcuprof_change *ch)
{
    json_t *j;

    if (!ch->have)
        return json_null();
    j = json_pack(
                "{s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                "s:o, s:o, s:o, s:o, s:b, s:b, s:o}",
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
                "mde_pct", jnum(ch->mde_pct),
                "too_few", ch->too_few, "resolved", ch->resolved,
                "p_min_attainable", jnum(ch->p_min_attainable));
    if (j != NULL)
        json_object_update_new(j, json_pack("{s:b, s:o, s:o}",
                    "partial", ch->partial,
                    "pairs_base_geomean", jnum(ch->pairs_base_gm),
                    "pairs_geomean", jnum(ch->pairs_gm)));
    return j;
}

json_t *rcuprof_table_json(const rcuprof_table *t, const rcuprof_results *rs)
{
    json_t *j, *rows = json_array(), *files = json_array(), *vars = json_array();
    size_t i, ti, v;

    for (v = 0; v < t->nvariants; v++)
        json_array_append_new(vars, json_string(t->variants[v]));
    for (i = 0; rs != NULL && i < rs->nfiles; i++) {
        const rcuprof_results_file *f = &rs->files[i];
        json_array_append_new(files, json_pack(
            "{s:s, s:O, s:O, s:s?, s:s?, s:I, s:I, s:b}", "path", f->path,
            "spec_hash", json_object_get(f->header, "spec_hash"),
            "spec", json_object_get(f->header, "spec"),
            "host", f->host, "kernel", f->kernel,
            "points", (json_int_t)f->points, "corrupt_lines",
            (json_int_t)f->n_corrupt, "torn", f->torn));
        json_object_set_new(json_array_get(files, i), "machine_state",
                            state_json(&f->state));
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
                "ops_per_s", jnum(has ? c->tput : NAN),
                "ops_per_s_lo", jnum(has ? c->tput_lo : NAN),
                "ops_per_s_hi", jnum(has ? c->tput_hi : NAN)));
            json_object_set_new(json_object_get(cells, t->variants[v]),
                                "centre", jnum(has ? c->lognormal_mean : NAN));
            json_object_update_new(json_object_get(cells, t->variants[v]),
                                   json_pack("{s:o, s:o, s:o, s:o}",
                "geomean", jnum(has ? c->geomean : NAN),
                "geomean_lo", jnum(has ? c->geomean_lo : NAN),
                "geomean_hi", jnum(has ? c->geomean_hi : NAN),
                "gsd", jnum(has ? c->gsd : NAN)));
            json_object_set_new(json_object_get(cells, t->variants[v]),
                                "stalls", json_integer((json_int_t)c->n_stalls));
            json_object_set_new(json_object_get(cells, t->variants[v]),
                                "stall_ref", jnum(has ? c->stall_ref : NAN));
            json_object_set_new(json_object_get(cells, t->variants[v]),
                                "zero_runs",
                                json_integer((json_int_t)c->n_nonpos));
            json_object_set_new(json_object_get(cells, t->variants[v]),
                                "states", json_pack(
                "{s:I, s:I, s:I, s:I}",
                "fast", (json_int_t)c->states[RCUPROF_STATE_FAST],
                "slow", (json_int_t)c->states[RCUPROF_STATE_SLOW],
                "mixed", (json_int_t)c->states[RCUPROF_STATE_MIXED],
                "unknown", (json_int_t)c->states[RCUPROF_STATE_UNKNOWN]));
            if (v == t->baseline)
                continue;
            json_object_set_new(changes, t->variants[v], change_json(ch));
        }
        json_array_append_new(rows, json_pack(
            "{s:I, s:s, s:b, s:o, s:o}", "threads", (json_int_t)t->threads[ti],
            "state", rcuprof_table_row_state_name(t, ti),
            "oversubscribed", rcuprof_table_oversubscribed(t, ti),
            "cells", cells, "changes", changes));
        if (t->aa != NULL)
            json_object_set_new(json_array_get(rows, ti), "aa",
                                change_json(&t->aa[ti]));
        json_object_set_new(json_array_get(rows, ti), "doubt",
                            doubt_json(rcuprof_table_row_doubt(t, ti)));
    }
    j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:O, s:I, s:f, s:f, "
                  "s:f}",
                  "schema", RCUPROF_COMPARE_SCHEMA,
                  "metric", rcuprof_metric_name(t->metric), "unit", "ns",
                  "baseline", t->variants[t->baseline], "variants", vars,
                  "files", files, "rows", rows, "notes", t->notes,
                  "tests", (json_int_t)t->ntests, "level", t->level,
                  "alpha", t->alpha, "power", t->power);
    if (j != NULL)
        json_object_set_new(j, "by_state", json_boolean(t->by_state));
    if (j != NULL && t->aa != NULL)
        json_object_set_new(j, "aa", json_pack("{s:s, s:s}",
                            "a", t->variants[t->aa_a],
                            "b", t->variants[t->aa_b]));
    if (j != NULL)
        json_object_set_new(j, "cpus_allowed", t->cpus_allowed
                            ? json_integer(t->cpus_allowed) : json_null());
    return j;
}

json_t *rcuprof_usl_json(const rcuprof_usl_fit *f)
{
    const rcuprof_stats_usl *m = &f->m;

    if (!f->fitted)
        return json_pack("{s:b, s:s}", "fitted", 0, "reason", f->reason);
    return json_pack("{s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                     "s:o, s:o, s:o}",
                     "fitted", 1, "points", (json_int_t)m->n_points,
                     "lambda", jnum(m->lambda), "sigma", jnum(m->sigma),
                     "kappa", jnum(m->kappa), "sigma_lo", jnum(m->sigma_lo),
                     "sigma_hi", jnum(m->sigma_hi),
                     "kappa_lo", jnum(m->kappa_lo),
                     "kappa_hi", jnum(m->kappa_hi), "r2", jnum(m->r2),
                     "peak_threads", jnum(m->n_peak),
                     "peak_ops_per_s", jnum(m->x_peak),
                     "lambda_se", jnum(m->se_lambda));
}

/* ---- the scaling report ------------------------------------------------- */

json_t *rcuprof_scaling_json_variant(const rcuprof_scaling *s)
{
    json_t *rows = json_array(), *det, *j;
    size_t k;

    for (k = 0; k < s->nrows; k++) {
        const rcuprof_scaling_row *r = &s->rows[k];

        json_array_append_new(rows, json_pack(
            "{s:I, s:b, s:I, s:I, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, "
            "s:o, s:o, s:b, s:b, s:b, s:o}",
            "threads", (json_int_t)r->threads,
            "oversubscribed", r->oversubscribed, "runs", (json_int_t)r->n,
            "failed", (json_int_t)r->failed, "cost", jnum(r->cost),
            "lo", jnum(r->lo), "hi", jnum(r->hi), "interval", r->interval,
            "ops_per_s", jnum(r->tput), "ops_per_s_lo", jnum(r->tput_lo),
            "ops_per_s_hi", jnum(r->tput_hi), "eff_first", jnum(r->eff_first),
            "eff_step", jnum(r->eff_step),
            "dip_vs", r->dip ? json_integer(r->dip_vs) : json_null(),
            "knee", r->knee, "worst", r->worst, "flagged", r->flagged,
            "confidence", r->confidence != NULL ? json_string(r->confidence)
                                                : json_null()));
    }
    det = rcuprof_explain_detection_json(&s->det);
    j = json_pack("{s:o, s:O, s:o}", "rows", rows, "findings",
                  json_object_get(det, "findings"), "usl",
                  rcuprof_usl_json(&s->usl));
    json_decref(det);
    return j;
}

json_t *rcuprof_scaling_json(const rcuprof_scaling *s, size_t n,
                             const rcuprof_table *t)
{
    json_t *vars = json_array(), *by = json_object(), *j;
    size_t i;

    for (i = 0; i < n; i++) {
        json_array_append_new(vars, json_string(s[i].variant));
        json_object_set_new(by, s[i].variant,
                            rcuprof_scaling_json_variant(&s[i]));
    }
    j = json_pack("{s:s, s:s, s:s, s:f, s:f, s:o, s:o, s:O}",
                  "schema", RCUPROF_SCALING_SCHEMA,
                  "metric", rcuprof_metric_name(t->metric), "unit", "ns",
                  "level", n > 0 ? s[0].level : t->level,
                  "min_step_eff", n > 0 ? s[0].min_step_eff : 0.0,
                  "variants", vars, "scaling", by, "notes", t->notes);
    if (j != NULL)
        json_object_set_new(j, "by_state", json_boolean(t->by_state));
    if (j != NULL && t->aa != NULL)
        json_object_set_new(j, "aa", json_pack("{s:s, s:s}",
                            "a", t->variants[t->aa_a],
                            "b", t->variants[t->aa_b]));
    if (j != NULL)
        json_object_set_new(j, "cpus_allowed", t->cpus_allowed
                            ? json_integer(t->cpus_allowed) : json_null());
    return j;
}
