/*
 * rcuprof explain, output: explain.json (schema rcuprof-explain/1, see
 * docs/explain.md) and explain.md, the markdown rendered from that JSON so
 * the two never disagree.
 */
#define _GNU_SOURCE
#include "explain.h"
#include "rcuprof_placement.h"
#include "rcuprof_report.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

json_t *rcuprof_explain_agg_json(const rcuprof_explain_agg *a)
{
    json_t *j = json_object();

#define N(k, x) json_object_set_new(j, k, jnum(x))
    json_object_set_new(j, "runs", json_integer((json_int_t)a->n));
    json_object_set_new(j, "failed", json_integer((json_int_t)a->failed));
    N("wall_ns_per_op", a->cost);
    N("wall_lo", a->lo);
    N("wall_hi", a->hi);
    json_object_set_new(j, "wall_interval",
                        json_string(a->interval != NULL ? a->interval
                                                        : "none"));
    N("cpu_ns_per_op", a->cpu_cost);
    N("utilisation", a->util);
    N("runq_share", a->runq_share);
    N("runq_ns_per_kop", a->runq_ns_per_kop);
    N("vcsw_per_kop", a->vcsw_per_kop);
    N("ivcsw_per_kop", a->ivcsw_per_kop);
    N("migrations_per_kop", a->migr_per_kop);
    N("steal_ms", a->steal_ms);
    N("steal_share", a->steal_share);
    N("loadavg1", a->loadavg1);
    json_object_set_new(j, "placed", a->placed < 0 ? json_null()
                                     : json_boolean(a->placed));
    json_object_set_new(j, "misplaced_threads",
                        json_integer((json_int_t)a->misplaced));
    N("line_rtt_ns", a->rtt_med);
    N("line_rtt_min_ns", a->rtt_min);
    N("line_rtt_max_ns", a->rtt_max);
    N("line_rtt_jump", a->rtt_jump);
    if (a->have_probes)
        json_object_set_new(j, "probes", json_pack("{s:o, s:o, s:o}",
            "retries_per_acquisition", jnum(a->probe_retries),
            "slow_fetches_per_kfetch", jnum(a->probe_slow),
            "writer_wait_ns_per_sync", jnum(a->probe_wait)));
    else
        json_object_set_new(j, "probes", json_null());
    json_object_set_new(j, "writes_per_s", a->have_churn
                        ? jnum(a->writes_per_s) : json_null());
    if (a->have_counters)
        json_object_set_new(j, "counters", json_pack("{s:b, s:o, s:o}",
            "hardware", a->counters_hw,
            "coherence_per_kop", jnum(a->coherence_per_kop),
            "cycles_per_ns", jnum(a->cycles_per_ns)));
    else
        json_object_set_new(j, "counters", json_null());
    N("on_cpu_share", a->on_cpu_share);
    N("off_cpu_share", a->off_cpu_share);
#undef N
    return j;
}

static json_t *cpus_json(const rcuprof_explain_place *p)
{
    json_t *a;
    size_t i;

    if (!p->pinned)
        return json_null();
    a = json_array();
    for (i = 0; i < p->ncpus; i++)
        json_array_append_new(a, json_integer(p->cpus[i]));
    return a;
}

static void side_json(json_t *arr, const rcuprof_explain_side *s,
                      const char *alt)
{
    size_t i;

    for (i = 0; i < s->nplace; i++) {
        const rcuprof_explain_place *p = &s->place[i];
        json_t *m = json_pack("{s:i, s:s, s:s, s:s, s:o, s:b}",
                              "threads", (int)s->threads,
                              "placement", p->name, "same_as", p->same_as,
                              "harness", "main", "planned_cpus",
                              cpus_json(p), "baseline", i == 0);

        json_object_set_new(m, "packages", json_integer(p->packages));
        json_object_set_new(m, "l3_domains", json_integer(p->l3s));
        json_object_set_new(m, "cores", json_integer(p->cores));
        json_object_set_new(m, "smt_shared", json_boolean(p->smt_shared));
        json_object_set_new(m, "shared_cpu", json_boolean(p->shared_cpu));
        json_object_set_new(m, "metrics", rcuprof_explain_agg_json(&s->agg[i]));
        json_array_append_new(arr, m);
    }
    if (s->nplace > 0 && (s->alt.n > 0 || s->alt.failed > 0))
        json_array_append_new(arr, json_pack(
            "{s:i, s:s, s:s, s:s, s:o, s:b, s:o}", "threads", (int)s->threads,
            "placement", s->place[0].name, "same_as", "", "harness", alt,
            "planned_cpus", cpus_json(&s->place[0]), "baseline", 0,
            "metrics", rcuprof_explain_agg_json(&s->alt)));
    if (s->nplace > 0 && (s->nowriters.n > 0 || s->nowriters.failed > 0))
        json_array_append_new(arr, json_pack(
            "{s:i, s:s, s:s, s:s, s:o, s:b, s:o}", "threads", (int)s->threads,
            "placement", s->place[0].name, "same_as", "",
            "harness", "no writers", "planned_cpus",
            cpus_json(&s->place[0]), "baseline", 0,
            "metrics", rcuprof_explain_agg_json(&s->nowriters)));
}

/* A slope and its interval (null figures when absent). */
static json_t *slope_json(const rcuprof_explain_slope *s)
{
    return json_pack("{s:i, s:i, s:o, s:o, s:o}", "threads", (int)s->threads,
                     "blocks", (int)s->blocks, "slope", jnum(s->slope),
                     "lo", jnum(s->lo), "hi", jnum(s->hi));
}

/* whatif[]: per site, the slopes at both counts and their ratio. */
static json_t *whatif_json(const rcuprof_explain_case *c)
{
    json_t *arr = json_array();
    rcuprof_explain_thresholds th;
    size_t i;

    rcuprof_explain_thresholds_default(&th);
    for (i = 0; i < c->nwhatif; i++) {
        const rcuprof_explain_whatif *w = &c->whatif[i];
        int have = w->has_reference && w->ratio_rc >= 0;

        json_array_append_new(arr, json_pack(
            "{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:i, s:o, s:o, s:o}",
            "site", w->site, "label", w->label, "t", slope_json(&w->t),
            "r", w->has_reference ? slope_json(&w->r) : json_null(),
            "ratio", have ? jnum(w->ratio) : json_null(),
            "ratio_lo", have ? jnum(w->lo) : json_null(),
            "ratio_hi", have ? jnum(w->hi) : json_null(),
            "bounded", have && w->ratio_rc == 0,
            "blocks_paired", (int)w->paired,
            "paired_slope_t", w->has_reference ? jnum(w->paired_t)
                                               : json_null(),
            "paired_slope_r", w->has_reference ? jnum(w->paired_r)
                                               : json_null(),
            "threshold", w->has_reference
                ? jnum(rcuprof_explain_serialised_threshold(
                           &th, w->t.threads, w->r.threads))
                : json_null()));
    }
    return arr;
}

json_t *rcuprof_explain_case_json(const rcuprof_explain_case *c,
                                  const rcuprof_explain_verdict *v,
                                  const char *summary)
{
    json_t *j, *meas = json_array(), *rules = json_array(), *causes;
    size_t i, k;

    causes = json_array();
    j = json_pack("{s:s, s:i, s:o, s:s, s:o}", "kind", c->kind,
                  "threads", (int)c->t.threads, "reference",
                  c->has_reference ? json_integer(c->r.threads) : json_null(),
                  "summary", summary,
                  "ratio", jnum(rcuprof_explain_excess(c, 0)));
    json_object_set_new(j, "sweep_wall_ns_per_op", jnum(c->t.sweep_cost));
    json_object_set_new(j, "sweep_reference_wall_ns_per_op",
                        jnum(c->r.sweep_cost));
    side_json(meas, &c->t, c->alt_harness != NULL ? c->alt_harness : "other");
    if (c->has_reference)
        side_json(meas, &c->r,
                  c->alt_harness != NULL ? c->alt_harness : "other");
    for (i = 0; i < rcuprof_explain_nrules; i++) {
        json_t *pro = json_array(), *con = json_array();

        for (k = 0; k < v[i].npro; k++)
            json_array_append_new(pro, json_string(v[i].pro[k]));
        for (k = 0; k < v[i].ncon; k++)
            json_array_append_new(con, json_string(v[i].con[k]));
        json_array_append_new(rules, json_pack(
            "{s:s, s:s, s:s, s:o, s:o, s:o}", "id", v[i].id,
            "title", v[i].title,
            "verdict", rcuprof_explain_verdict_name(v[i].verdict),
            "for", pro, "against", con,
            "reason", v[i].verdict == RCUPROF_EXPLAIN_NOT_TESTABLE
                      ? json_string(v[i].reason) : json_null()));
        if (v[i].verdict == RCUPROF_EXPLAIN_SUPPORTED)
            json_array_append_new(causes, json_string(v[i].id));
    }
    json_object_set_new(j, "causes", causes);
    json_object_set_new(j, "measurements", meas);
    json_object_set_new(j, "rules", rules);
    json_object_set_new(j, "whatif", whatif_json(c));
    return j;
}

json_t *rcuprof_explain_detection_json(const rcuprof_explain_detection *d)
{
    json_t *counts = json_array(), *fs = json_array();
    size_t i;

    for (i = 0; i < d->ncounts; i++) {
        const rcuprof_explain_count *c = &d->counts[i];

        json_array_append_new(counts, json_pack(
            "{s:i, s:I, s:o, s:o, s:o, s:s, s:o}", "threads", (int)c->threads,
            "runs", (json_int_t)c->n, "cost", jnum(c->cost), "lo",
            jnum(c->lo), "hi", jnum(c->hi), "interval", c->interval,
            "coverage", jnum(c->coverage)));
    }
    for (i = 0; i < d->nfindings; i++) {
        const rcuprof_explain_finding *f = &d->findings[i];
        json_t *o = json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
                              "kind", f->kind == RCUPROF_EXPLAIN_DIP
                                      ? "dip" : "knee",
                              "threads", (int)f->threads, "vs", (int)f->vs,
                              "cost", jnum(f->cost), "lo", jnum(f->lo),
                              "hi", jnum(f->hi), "vs_cost", jnum(f->vs_cost),
                              "vs_lo", jnum(f->vs_lo), "vs_hi",
                              jnum(f->vs_hi));

        json_object_set_new(o, "ratio", jnum(f->ratio));
        json_object_set_new(o, "ratio_lo", jnum(f->ratio_lo));
        json_object_set_new(o, "ratio_hi", jnum(f->ratio_hi));
        json_object_set_new(o, "step_eff", jnum(f->step_eff));
        json_object_set_new(o, "separated", json_boolean(f->separated));
        json_object_set_new(o, "p", jnum(f->p));
        json_object_set_new(o, "p_holm", jnum(f->p_holm));
        json_object_set_new(o, "effect", jnum(f->effect));
        json_object_set_new(o, "worst", json_boolean(f->worst));
        json_object_set_new(o, "confidence", json_string(f->confidence));
        json_object_set_new(o, "flagged",
                            json_boolean(rcuprof_explain_finding_flagged(f)));
        json_array_append_new(fs, o);
    }
    return json_pack("{s:f, s:f, s:o, s:o}", "level", d->level,
                     "min_step_eff", d->min_step_eff, "counts", counts,
                     "findings", fs);
}

/* ---------------------------------------------------------------------- */
/* Markdown                                                                */

static void sb_cell(struct rcuprof_sb *b, const char *s)
{
    for (; s != NULL && *s; s++) {
        if (*s == '|')
            rcuprof_sb_printf(b, "\\|");
        else if (*s == '\n')
            rcuprof_sb_printf(b, " ");
        else
            rcuprof_sb_printf(b, "%c", *s);
    }
}

static double gnum(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void sb_num(struct rcuprof_sb *b, double x, const char *fmt)
{
    if (isfinite(x))
        rcuprof_sb_printf(b, fmt, x);
    else
        rcuprof_sb_printf(b, "-");
}

static void md_measurements(struct rcuprof_sb *b, const json_t *meas)
{
    const json_t *m;
    size_t i;
    int probes = 0, counters = 0, samples = 0;

    json_array_foreach(meas, i, m) {
        const json_t *x = json_object_get(m, "metrics");

        probes |= json_is_object(json_object_get(x, "probes"));
        counters |= json_is_object(json_object_get(x, "counters"));
        samples |= isfinite(gnum(x, "on_cpu_share"));
    }
    rcuprof_sb_printf(b, "| threads | placement | harness | runs | wall ns/op [interval] | cpu ns/op | util | runq %% | runq ns/op | vcsw/1k | ivcsw/1k | migr/1k | steal ms | placed | line_rtt ns |%s%s%s\n",
              probes ? " retries/acq | slow/1k fetch | wait ns/sync |" : "",
              counters ? " coherence/1k ops | GHz |" : "",
              samples ? " on-CPU % |" : "");
    rcuprof_sb_printf(b, "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|%s%s%s\n",
              probes ? "---:|---:|---:|" : "", counters ? "---:|---:|" : "",
              samples ? "---:|" : "");
    json_array_foreach(meas, i, m) {
        const json_t *x = json_object_get(m, "metrics");
        const json_t *pl = json_object_get(x, "placed");
        const char *same = json_string_value(json_object_get(m, "same_as"));
        const json_t *cpus = json_object_get(m, "planned_cpus"), *c;
        size_t k;

        rcuprof_sb_printf(b, "| %d | %s", (int)json_integer_value(
                      json_object_get(m, "threads")),
                  json_string_value(json_object_get(m, "placement")));
        if (same != NULL && same[0])
            rcuprof_sb_printf(b, " (= %s)", same);
        if (json_is_array(cpus)) {
            rcuprof_sb_printf(b, " cpus ");
            json_array_foreach(cpus, k, c)
                rcuprof_sb_printf(b, "%s%d", k ? "," : "", (int)json_integer_value(c));
        }
        rcuprof_sb_printf(b, " | %s | %d", json_string_value(json_object_get(m, "harness")),
                  (int)json_integer_value(json_object_get(x, "runs")));
        if (json_integer_value(json_object_get(x, "failed")) > 0)
            rcuprof_sb_printf(b, " (+%d failed)",
                      (int)json_integer_value(json_object_get(x, "failed")));
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "wall_ns_per_op"), "%.1f");
        if (isfinite(gnum(x, "wall_lo")))
            rcuprof_sb_printf(b, " [%.1f, %.1f]", gnum(x, "wall_lo"),
                      gnum(x, "wall_hi"));
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "cpu_ns_per_op"), "%.1f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "utilisation"), "%.2f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, 100 * gnum(x, "runq_share"), "%.0f");
        rcuprof_sb_printf(b, " | ");
        /* ns per 1k ops / 1000 = ns per op: the unit every cost has */
        sb_num(b, gnum(x, "runq_ns_per_kop") / 1000, "%.1f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "vcsw_per_kop"), "%.3f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "ivcsw_per_kop"), "%.3f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "migrations_per_kop"), "%.3f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(x, "steal_ms"), "%.1f");
        rcuprof_sb_printf(b, " | %s | ", json_is_null(pl) ? "unpinned"
                  : json_is_true(pl) ? "as planned" : "NO");
        sb_num(b, gnum(x, "line_rtt_ns"), "%.0f");
        rcuprof_sb_printf(b, " |");
        if (probes) {
            const json_t *p = json_object_get(x, "probes");

            rcuprof_sb_printf(b, " ");
            sb_num(b, gnum(p, "retries_per_acquisition"), "%.3g");
            rcuprof_sb_printf(b, " | ");
            sb_num(b, gnum(p, "slow_fetches_per_kfetch"), "%.3g");
            rcuprof_sb_printf(b, " | ");
            sb_num(b, gnum(p, "writer_wait_ns_per_sync"), "%.0f");
            rcuprof_sb_printf(b, " |");
        }
        if (counters) {
            const json_t *p = json_object_get(x, "counters");

            rcuprof_sb_printf(b, " ");
            sb_num(b, gnum(p, "coherence_per_kop"), "%.1f");
            rcuprof_sb_printf(b, " | ");
            sb_num(b, gnum(p, "cycles_per_ns"), "%.2f");
            rcuprof_sb_printf(b, " |");
        }
        if (samples) {
            rcuprof_sb_printf(b, " ");
            sb_num(b, 100 * gnum(x, "on_cpu_share"), "%.0f");
            rcuprof_sb_printf(b, " |");
        }
        rcuprof_sb_printf(b, "\n");
    }
}

static void md_list(struct rcuprof_sb *b, const json_t *arr)
{
    const json_t *s;
    size_t i;

    if (json_array_size(arr) == 0) {
        rcuprof_sb_printf(b, "-");
        return;
    }
    json_array_foreach(arr, i, s) {
        if (i)
            rcuprof_sb_printf(b, "; ");
        sb_cell(b, json_string_value(s));
    }
}

static void md_rules(struct rcuprof_sb *b, const json_t *rules)
{
    const json_t *r;
    size_t i;

    rcuprof_sb_printf(b, "| cause | verdict | for | against |\n|---|---|---|---|\n");
    json_array_foreach(rules, i, r) {
        const char *verdict = json_string_value(json_object_get(r, "verdict"));
        int sup = verdict != NULL && strcmp(verdict, "supported") == 0;

        rcuprof_sb_printf(b, "| %s | %s%s%s | ",
                  json_string_value(json_object_get(r, "title")),
                  sup ? "**" : "", verdict, sup ? "**" : "");
        if (json_is_string(json_object_get(r, "reason"))) {
            rcuprof_sb_printf(b, "not testable here: ");
            sb_cell(b, json_string_value(json_object_get(r, "reason")));
            rcuprof_sb_printf(b, " | - |\n");
            continue;
        }
        md_list(b, json_object_get(r, "for"));
        rcuprof_sb_printf(b, " | ");
        md_list(b, json_object_get(r, "against"));
        rcuprof_sb_printf(b, " |\n");
    }
}

/* A ratio cell "2.62x [2.41, 2.85]" (positive bounds around it) or "2.62x". */
static void md_ratio(struct rcuprof_sb *b, const json_t *o, const char *k,
                     const char *klo, const char *khi)
{
    double r = gnum(o, k), lo = gnum(o, klo), hi = gnum(o, khi);

    if (!isfinite(r)) {
        rcuprof_sb_printf(b, "-");
        return;
    }
    rcuprof_sb_printf(b, "%.2fx", r);
    if (lo > 0 && lo <= r && r <= hi && isfinite(hi))
        rcuprof_sb_printf(b, " [%.2f, %.2f]", lo, hi);
}

/* A slope cell "1.02 [0.95, 1.09]" from whatif[]'s t or r. */
static void md_slope(struct rcuprof_sb *b, const json_t *s)
{
    if (!json_is_number(json_object_get(s, "slope"))) {
        rcuprof_sb_printf(b, "-");
        return;
    }
    rcuprof_sb_printf(b, "%.2f", gnum(s, "slope"));
    if (json_is_number(json_object_get(s, "lo")))
        rcuprof_sb_printf(b, " [%.2f, %.2f]", gnum(s, "lo"), gnum(s, "hi"));
}

/* The whatif table of a case: one row per site. */
static void md_whatif(struct rcuprof_sb *b, const json_t *c)
{
    const json_t *wa = json_object_get(c, "whatif"), *w;
    size_t i;

    if (json_array_size(wa) == 0)
        return;
    rcuprof_sb_printf(b, "Whatif (wall ns/op per ns of delay put on an op, 95%% intervals over the blocks):\n\n| site | slope at %d | slope at ",
                      (int)json_integer_value(json_object_get(c, "threads")));
    if (json_is_integer(json_object_get(c, "reference")))
        rcuprof_sb_printf(b, "%d", (int)json_integer_value(
                              json_object_get(c, "reference")));
    else
        rcuprof_sb_printf(b, "-");
    rcuprof_sb_printf(b, " | over the paired blocks (reference -> slow) | ratio | threshold |\n|---|---:|---:|---:|---:|---:|\n");
    json_array_foreach(wa, i, w) {
        rcuprof_sb_printf(b, "| ");
        sb_cell(b, json_string_value(json_object_get(w, "label")));
        rcuprof_sb_printf(b, " | ");
        md_slope(b, json_object_get(w, "t"));
        rcuprof_sb_printf(b, " | ");
        md_slope(b, json_object_get(w, "r"));
        rcuprof_sb_printf(b, " | ");
        if (json_is_number(json_object_get(w, "paired_slope_t"))
            && json_is_number(json_object_get(w, "paired_slope_r")))
            rcuprof_sb_printf(b, "%d blocks: %.2f -> %.2f",
                              (int)json_integer_value(json_object_get(
                                  w, "blocks_paired")),
                              gnum(w, "paired_slope_r"),
                              gnum(w, "paired_slope_t"));
        else
            rcuprof_sb_printf(b, "%d blocks",
                              (int)json_integer_value(json_object_get(
                                  w, "blocks_paired")));
        rcuprof_sb_printf(b, " | ");
        if (!json_is_number(json_object_get(w, "ratio")))
            rcuprof_sb_printf(b, "-");
        else if (!json_is_true(json_object_get(w, "bounded")))
            rcuprof_sb_printf(b, "%.2fx (unbounded)", gnum(w, "ratio"));
        else if (!(gnum(w, "ratio_lo") > 0))
            /* Fieller's interval reaches 0: one slope is not known to lie
             * above 0, and a multiple of it means nothing (issue 28: was
             * "1.41x [-15.45, 4.82]") */
            rcuprof_sb_printf(b, "no multiple (interval reaches 0)");
        else
            rcuprof_sb_printf(b, "%.2fx [%.2f, %.2f]", gnum(w, "ratio"),
                              gnum(w, "ratio_lo"), gnum(w, "ratio_hi"));
        if (json_is_number(json_object_get(w, "threshold")))
            rcuprof_sb_printf(b, " | %.3g |\n", gnum(w, "threshold"));
        else
            rcuprof_sb_printf(b, " | - |\n");
    }
    rcuprof_sb_printf(b, "\n");
}

static void md_detection(struct rcuprof_sb *b, const json_t *det)
{
    const char *variant;
    const json_t *d, *f;
    size_t i;

    json_object_foreach((json_t *)det, variant, d) {
        rcuprof_sb_printf(b, "### %s\n\n", variant);
        if (json_array_size(json_object_get(d, "findings")) == 0) {
            rcuprof_sb_printf(b, "No dip, and no step below %.0f%% scaling efficiency.\n\n",
                      100 * gnum(d, "min_step_eff"));
            continue;
        }
        rcuprof_sb_printf(b, "| finding | threads | vs | median ns/op [interval] | vs median ns/op [interval] | ratio of geometric means [95%%] | step eff | p (Holm) | confidence | explained |\n"
                     "|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        json_array_foreach(json_object_get(d, "findings"), i, f) {
            rcuprof_sb_printf(b, "| %s%s | %d | %d | %.1f [",
                      json_string_value(json_object_get(f, "kind")),
                      json_is_true(json_object_get(f, "worst"))
                      ? " (worst step)" : "",
                      (int)json_integer_value(json_object_get(f, "threads")),
                      (int)json_integer_value(json_object_get(f, "vs")),
                      gnum(f, "cost"));
            sb_num(b, gnum(f, "lo"), "%.1f");
            rcuprof_sb_printf(b, ", ");
            sb_num(b, gnum(f, "hi"), "%.1f");
            rcuprof_sb_printf(b, "] | %.1f [", gnum(f, "vs_cost"));
            sb_num(b, gnum(f, "vs_lo"), "%.1f");
            rcuprof_sb_printf(b, ", ");
            sb_num(b, gnum(f, "vs_hi"), "%.1f");
            rcuprof_sb_printf(b, "] | ");
            md_ratio(b, f, "ratio", "ratio_lo", "ratio_hi");
            rcuprof_sb_printf(b, " | ");
            sb_num(b, gnum(f, "step_eff"), "%.2f");
            rcuprof_sb_printf(b, " | ");
            sb_num(b, gnum(f, "p_holm"), "%.3g");
            rcuprof_sb_printf(b, " | %s | %s |\n",
                      json_string_value(json_object_get(f, "confidence")),
                      json_is_true(json_object_get(f, "flagged"))
                      ? "yes" : "no (intervals overlap)");
        }
        rcuprof_sb_printf(b, "\n");
    }
}

static void md_rtt(struct rcuprof_sb *b, const json_t *rtt)
{
    const json_t *p, *row, *cpus = json_object_get(rtt, "cpus"), *cell;
    size_t i, k;

    rcuprof_sb_printf(b, "## Cache-line round trips between the CPUs used\n\n");
    if (json_array_size(json_object_get(rtt, "pairs")) == 0) {
        rcuprof_sb_printf(b, "No pair of distinct CPUs to measure.\n\n");
        return;
    }
    rcuprof_sb_printf(b, "Measured with `--workload pingpong --threads 2 --pin cpus:A,B` (an op is one round trip; the matrix shows each pair's fastest run); %d of %d distinct pairs%s.\n\n",
              (int)json_array_size(json_object_get(rtt, "pairs")),
              (int)json_integer_value(json_object_get(rtt, "total_pairs")),
              json_is_true(json_object_get(rtt, "capped"))
              ? ", sampled across packages, L3 domains and cores" : "");
    rcuprof_sb_printf(b, "| cpu a | cpu b | relation | round trip ns (fastest run) | median ns | runs |\n|---:|---:|---|---:|---:|---:|\n");
    json_array_foreach(json_object_get(rtt, "pairs"), i, p) {
        rcuprof_sb_printf(b, "| %d | %d | %s | ",
                  (int)json_integer_value(json_object_get(p, "a")),
                  (int)json_integer_value(json_object_get(p, "b")),
                  json_string_value(json_object_get(p, "relation")));
        sb_num(b, gnum(p, "ns"), "%.0f");
        rcuprof_sb_printf(b, " | ");
        sb_num(b, gnum(p, "median_ns"), "%.0f");
        rcuprof_sb_printf(b, " | %d |\n",
                  (int)json_integer_value(json_object_get(p, "runs")));
    }
    rcuprof_sb_printf(b, "\n");
    if (json_array_size(cpus) >= 2 && json_array_size(cpus) <= 16) {
        rcuprof_sb_printf(b, "| ns |");
        json_array_foreach(cpus, i, cell)
            rcuprof_sb_printf(b, " %d |", (int)json_integer_value(cell));
        rcuprof_sb_printf(b, "\n|---:|");
        for (i = 0; i < json_array_size(cpus); i++)
            rcuprof_sb_printf(b, "---:|");
        rcuprof_sb_printf(b, "\n");
        json_array_foreach(json_object_get(rtt, "matrix"), i, row) {
            rcuprof_sb_printf(b, "| **%d** |",
                      (int)json_integer_value(json_array_get(cpus, i)));
            json_array_foreach(row, k, cell) {
                rcuprof_sb_printf(b, " ");
                sb_num(b, json_is_number(cell) ? json_number_value(cell) : NAN,
                       "%.0f");
                rcuprof_sb_printf(b, " |");
            }
            rcuprof_sb_printf(b, "\n");
        }
        rcuprof_sb_printf(b, "\n");
    }
}

char *rcuprof_explain_markdown(const json_t *rep)
{
    struct rcuprof_sb b = { 0 };
    const json_t *m = json_object_get(rep, "machine"), *c, *n, *cases;
    const json_t *det = json_object_get(rep, "detection");
    size_t i;

    rcuprof_sb_printf(&b, "# rcuprof explain: %s\n\n",
              json_string_value(json_object_get(rep, "variant")));
    if (json_is_string(json_object_get(rep, "openssl_version")))
        rcuprof_sb_printf(&b, "OpenSSL %s (line %s).\n\n",
                  json_string_value(json_object_get(rep, "openssl_version")),
                  json_is_string(json_object_get(rep, "line"))
                  ? json_string_value(json_object_get(rep, "line")) : "?");
    rcuprof_sb_printf(&b, "Machine: %s, kernel %s; %d CPUs allowed (%s): %d package(s), %d L3 domain(s), %d cores, %d PUs (%s); hardware counters: %s.\n\n",
              json_string_value(json_object_get(m, "host")),
              json_string_value(json_object_get(m, "kernel")),
              (int)json_integer_value(json_object_get(m, "cpus_allowed")),
              json_string_value(json_object_get(m, "allowed")),
              (int)json_integer_value(json_object_get(m, "packages")),
              (int)json_integer_value(json_object_get(m, "l3_domains")),
              (int)json_integer_value(json_object_get(m, "cores")),
              (int)json_integer_value(json_object_get(m, "pus")),
              json_is_true(json_object_get(m, "smt")) ? "SMT" : "no SMT",
              json_string_value(json_object_get(m, "counters")));
    rcuprof_sb_printf(&b, "Runs: %d repetitions, interleaved (seed %lld), %d driver runs (%d failed); options: %s.\n\n",
              (int)json_integer_value(json_object_get(rep, "reps")),
              (long long)json_integer_value(json_object_get(rep, "seed")),
              (int)json_integer_value(json_object_get(
                  json_object_get(rep, "runs"), "total")),
              (int)json_integer_value(json_object_get(
                  json_object_get(rep, "runs"), "failed")),
              json_string_value(json_object_get(rep, "options_text")));
    if (json_is_object(det)) {
        rcuprof_sb_printf(&b, "## Detection\n\n");
        md_detection(&b, det);
    }
    cases = json_object_get(rep, "cases");
    if (json_array_size(cases) > 0) {
        rcuprof_sb_printf(&b, "## Summary\n\n| threads | vs | found by | ratio (baseline placement) | causes |\n|---:|---:|---|---:|---|\n");
        json_array_foreach(cases, i, c) {
            rcuprof_sb_printf(&b, "| %d | ", (int)json_integer_value(
                          json_object_get(c, "threads")));
            if (json_is_integer(json_object_get(c, "reference")))
                rcuprof_sb_printf(&b, "%d", (int)json_integer_value(
                              json_object_get(c, "reference")));
            else
                rcuprof_sb_printf(&b, "-");
            rcuprof_sb_printf(&b, " | %s | ",
                      json_string_value(json_object_get(c, "kind")));
            sb_num(&b, gnum(c, "ratio"), "%.2fx");
            rcuprof_sb_printf(&b, " | %s |\n",
                      json_string_value(json_object_get(c, "summary")));
        }
        rcuprof_sb_printf(&b, "\n");
    }
    json_array_foreach(cases, i, c) {
        rcuprof_sb_printf(&b, "## %d threads", (int)json_integer_value(
                      json_object_get(c, "threads")));
        if (json_is_integer(json_object_get(c, "reference")))
            rcuprof_sb_printf(&b, " vs %d", (int)json_integer_value(
                          json_object_get(c, "reference")));
        rcuprof_sb_printf(&b, " (%s): %s\n\n",
                  json_string_value(json_object_get(c, "kind")),
                  json_string_value(json_object_get(c, "summary")));
        md_measurements(&b, json_object_get(c, "measurements"));
        rcuprof_sb_printf(&b, "\n");
        md_whatif(&b, c);
        md_rules(&b, json_object_get(c, "rules"));
        rcuprof_sb_printf(&b, "\n");
    }
    md_rtt(&b, json_object_get(rep, "rtt"));
    if (json_array_size(json_object_get(rep, "notes")) > 0) {
        rcuprof_sb_printf(&b, "## Notes\n\n");
        json_array_foreach(json_object_get(rep, "notes"), i, n)
            rcuprof_sb_printf(&b, "* %s\n", json_string_value(n));
        rcuprof_sb_printf(&b, "\n");
    }
    return rcuprof_sb_done(&b);
}

/* ---------------------------------------------------------------------- */
/* The whole report                                                        */

static json_t *rtt_json(const rcuprof_explain_meta *x)
{
    json_t *pairs = json_array(), *cpus = json_array(), *matrix = json_array();
    int used[RCUPROF_EXPLAIN_MAX_CPUS_USED * 4];
    size_t nu = 0, i, k;

    for (i = 0; i < x->npairs; i++) {
        const rcuprof_explain_pair *p = &x->pairs[i];

        json_array_append_new(pairs, json_pack(
            "{s:i, s:i, s:s, s:o, s:o, s:i}", "a", p->a, "b", p->b,
            "relation", rcuprof_explain_rel_name(p->rel),
            "ns", isfinite(p->ns) ? json_real(p->ns) : json_null(),
            "median_ns", isfinite(p->median_ns) ? json_real(p->median_ns)
                                                : json_null(),
            "runs", (int)p->n));
        for (k = 0; k < nu && used[k] != p->a; k++)
            ;
        if (k == nu && nu < sizeof(used) / sizeof(used[0]))
            used[nu++] = p->a;
        for (k = 0; k < nu && used[k] != p->b; k++)
            ;
        if (k == nu && nu < sizeof(used) / sizeof(used[0]))
            used[nu++] = p->b;
    }
    qsort(used, nu, sizeof(used[0]), rcuprof_sort_cmp_int);
    for (i = 0; i < nu; i++) {
        json_t *row = json_array();

        json_array_append_new(cpus, json_integer(used[i]));
        for (k = 0; k < nu; k++) {
            json_t *cell = json_null();
            size_t p;

            for (p = 0; p < x->npairs; p++) {
                const rcuprof_explain_pair *pr = &x->pairs[p];

                if (((pr->a == used[i] && pr->b == used[k])
                     || (pr->b == used[i] && pr->a == used[k]))
                    && isfinite(pr->ns))
                    cell = json_real(pr->ns);
            }
            json_array_append_new(row, cell);
        }
        json_array_append_new(matrix, row);
    }
    return json_pack("{s:o, s:o, s:o, s:i, s:b, s:s}", "pairs", pairs,
                     "cpus", cpus, "matrix", matrix, "total_pairs",
                     (int)x->total_pairs, "capped",
                     x->total_pairs > x->npairs, "method",
                     "rcuprof-stress --workload pingpong --threads 2 --pin cpus:A,B; a run's figure is thread 0's window / its round trips; ns is the fastest run's, median_ns the median");
}

json_t *rcuprof_explain_report_json(const rcuprof_explain_meta *m)
{
    json_t *places = json_array(), *machine, *report, *rules = json_array();
    size_t i;

    for (i = 0; i < m->nplace; i++)
        json_array_append_new(places, json_pack("{s:s, s:s, s:b}",
            "name", m->pnames[i], "same_as", m->psame[i],
            "baseline", i == 0));
    machine = json_pack("{s:s, s:s, s:i, s:s, s:i, s:i, s:i, s:i, s:b, s:b, s:s, s:s}",
                        "host", m->host[0] ? m->host : "?",
                        "kernel", m->kernel[0] ? m->kernel : "?",
                        "cpus_allowed", m->topo->allowed_pus,
                        "allowed", m->topo->allowed,
                        "packages", m->topo->packages,
                        "l3_domains", m->topo->l3_domains,
                        "cores", m->topo->cores, "pus", m->topo->pus,
                        "smt", m->topo->pus > m->topo->cores,
                        "pmu", m->pmu, "pmu_reason", m->pmu_reason,
                        "counters", m->counters);
    report = json_pack("{s:s, s:s, s:I, s:s, s:O, s:s, s:O, s:s, s:i, s:I, s:o, s:o}",
                       "schema", RCUPROF_EXPLAIN_SCHEMA,
                       "rcuprof_version", m->version,
                       "created_unix_ns", (json_int_t)m->created_unix_ns,
                       "mode", m->mode, "inputs", m->inputs,
                       "variant", m->variant, "options", m->options,
                       "options_text", m->options_text,
                       "reps", (int)m->reps, "seed", (json_int_t)m->seed,
                       "machine", machine, "placements", places);
    if (report == NULL) {
        json_decref(rules);
        return NULL;
    }
    json_object_set_new(report, "openssl_version",
                        m->openssl_version != NULL && m->openssl_version[0]
                        ? json_string(m->openssl_version) : json_null());
    json_object_set_new(report, "line", m->line != NULL && m->line[0]
                        ? json_string(m->line) : json_null());
    json_object_set_new(report, "detection", m->detection != NULL
                        ? json_incref((json_t *)m->detection) : json_null());
    json_object_set_new(report, "whatif", m->whatif != NULL
                        ? json_incref((json_t *)m->whatif) : json_null());
    json_object_set(report, "cases", (json_t *)m->cases);
    json_object_set_new(report, "rtt", rtt_json(m));
    json_object_set_new(report, "runs", json_pack("{s:i, s:i}",
        "total", (int)m->runs_total, "failed", (int)m->runs_failed));
    for (i = 0; i < rcuprof_explain_nrules; i++)
        json_array_append_new(rules, json_pack("{s:s, s:s, s:s}",
            "id", rcuprof_explain_rules[i].id,
            "title", rcuprof_explain_rules[i].title,
            "question", rcuprof_explain_rules[i].question));
    json_object_set_new(report, "rules", rules);
    json_object_set(report, "notes", (json_t *)m->notes);
    return report;
}
