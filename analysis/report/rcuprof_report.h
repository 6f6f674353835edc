/*
 * The writers, one per format (analysis/report/): each formats what the
 * analysis computed (the comparison table, explain's report, the
 * attribution) and computes nothing itself.  Text is malloc'ed and
 * NUL-terminated; NULL means memory ran out.
 */
#ifndef RCUPROF_REPORT_H
# define RCUPROF_REPORT_H

# include <stdio.h>
# include <jansson.h>

# include "results.h"
# include "scaling.h"

# define RCUPROF_SCALING_SCHEMA "rcuprof-scaling/1"

/* md.c: the comparison table, compact (one column per variant: ns/op, and
 * beside the baseline the change, its interval and the resolved mark,
 * then the row's MDE) or wide (ns/op with its interval,
 * geometric SD, change, p and MDE in columns of their own: --format
 * md-wide). */
char *rcuprof_table_markdown(const rcuprof_table *t);
/* The compact table as compare --format md prints it: the table (with the
 * A/A column when t has the pair, and the row's MDE), its one-line legend,
 * one line on the rows not to be trusted (more threads than CPUs, state
 * mixes that differ, the A/A pair), the state mix of the rows where it
 * differs, and with notes set the notes (rcuprof_table_markdown: none). */
char *rcuprof_table_markdown_notes(const rcuprof_table *t, int notes);
char *rcuprof_table_markdown_wide(const rcuprof_table *t);

/*
 * md.c: the scaling report of n variants (each s[i] built on t): one
 * block per variant; with sections, under "## Scaling of each variant"
 * and a heading per variant (beside a comparison), else with t's notes.
 */
char *rcuprof_scaling_markdown(const rcuprof_scaling *s, size_t n,
                               const rcuprof_table *t, int sections);

/* csv.c: one row per variant and thread count. */
char *rcuprof_table_csv(const rcuprof_table *t);
char *rcuprof_scaling_csv(const rcuprof_scaling *s, size_t n);

/* json.c: the comparison (schema rcuprof-compare/1) and a USL fit. */
json_t *rcuprof_table_json(const rcuprof_table *t, const rcuprof_results *rs);
json_t *rcuprof_usl_json(const rcuprof_usl_fit *f);
/* The scaling report (schema rcuprof-scaling/1), and one variant's part of
 * it ({rows, findings, usl}). */
json_t *rcuprof_scaling_json(const rcuprof_scaling *s, size_t n,
                             const rcuprof_table *t);
json_t *rcuprof_scaling_json_variant(const rcuprof_scaling *s);

/*
 * gnuplot.c: the script that draws DIR/cost, throughput (with the USL fit
 * of each variant whose scaling s[v] has one fitted), efficiency (from
 * s[v], one per variant of t) and, when the table has probe figures,
 * probes, each as .png.tmp and .svg.tmp for the caller to rename.
 */
char *rcuprof_report_gnuplot(const rcuprof_table *t, const rcuprof_scaling *s,
                             const char *dir);
/* The plots that script makes, NULL-terminated. */
const char *const *rcuprof_report_plots(const rcuprof_table *t);
/* Write |s| to |f| as a gnuplot single-quoted string (' doubled). */
void rcuprof_report_gp_quote(FILE *f, const char *s);

/* summary.c: what rcuprof run prints of a driver result. */
void rcuprof_run_summary_print(FILE *f, const json_t *res);

/* attribute.c: the attribution report (analysis/attribute.c) as text. */
void rcuprof_attribute_print(FILE *fp, const json_t *report);
/* The short form `rcuprof run --sample on` prints: each bucket's share and
 * where the whole report is (result_file: the run's --output, or NULL). */
void rcuprof_attribute_print_brief(FILE *fp, const json_t *report,
                                   const char *result_file);

/* explain.c: explain's JSON pieces and its markdown (from the JSON). */
struct rcuprof_explain_agg_st;
struct rcuprof_explain_case_st;
struct rcuprof_explain_verdict_st;
struct rcuprof_explain_detection_st;
json_t *rcuprof_explain_agg_json(const struct rcuprof_explain_agg_st *a);
json_t *rcuprof_explain_case_json(const struct rcuprof_explain_case_st *c,
                                  const struct rcuprof_explain_verdict_st *v,
                                  const char *summary);
json_t *rcuprof_explain_detection_json(
    const struct rcuprof_explain_detection_st *d);
/* The whole explain.json (schema rcuprof-explain/1). */
struct rcuprof_explain_meta_st;
json_t *rcuprof_explain_report_json(const struct rcuprof_explain_meta_st *m);
/* explain.md from explain.json (everything the markdown shows is in it). */
char *rcuprof_explain_markdown(const json_t *report);

/*
 * whatif.c (docs/interfaces.md section 9): whatif.json (schema
 * rcuprof-whatif/1) is the analysis (analysis/whatif.h) merged into meta
 * (variant, site, where, threads, reps, seed, options, inputs,
 * rcuprof_version, created_unix_ns: copied as given); whatif.md, whatif.csv
 * (one row per thread count and delay) and the gnuplot script (DIR/whatif
 * .png.tmp and .svg.tmp for the caller to rename) are rendered from that
 * JSON, so they carry the same figures.
 */
struct rcuprof_whatif_st;
json_t *rcuprof_whatif_json(const struct rcuprof_whatif_st *w,
                            const json_t *meta);
char *rcuprof_whatif_markdown(const json_t *report);
char *rcuprof_whatif_csv(const json_t *report);
char *rcuprof_whatif_gnuplot(const json_t *report, const char *dir);
const char *const *rcuprof_whatif_plots(void);

#endif
