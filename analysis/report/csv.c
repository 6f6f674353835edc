/* The CSV writer: one row per variant and thread count, every figure. */
#define _GNU_SOURCE
#include "rcuprof_report.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdio.h>

static void csv_num(struct rcuprof_sb *b, double x)
{
    if (isfinite(x))
        rcuprof_sb_printf(b, ",%.10g", x);
    else
        rcuprof_sb_printf(b, ",");
}

/* The A/A pair's change at this count (--aa; the same on every variant's
 * row) and the row's doubts (rcuprof_table_row_doubt) joined by ';'. */
static void csv_aa(struct rcuprof_sb *b, const rcuprof_table *t, size_t ti)
{
    const rcuprof_change *aa = t->aa != NULL ? &t->aa[ti] : NULL;
    int d = rcuprof_table_row_doubt(t, ti), k = 0;

    if (aa == NULL) {
        rcuprof_sb_printf(b, ",,,,,,,,");
    } else {
        rcuprof_sb_printf(b, ",%s vs %s", t->variants[t->aa_b],
                          t->variants[t->aa_a]);
        if (!aa->have) {
            rcuprof_sb_printf(b, ",,,,,,,");
        } else {
            rcuprof_sb_printf(b, ",%zu", aa->n_pairs);
            csv_num(b, aa->change_pct);
            csv_num(b, aa->lo_pct);
            csv_num(b, aa->hi_pct);
            csv_num(b, aa->p);
            csv_num(b, aa->mde_pct);
            rcuprof_sb_printf(b, ",%d", aa->resolved);
        }
    }
    rcuprof_sb_printf(b, ",");
#define DOUBT(bit, name) \
    if (d & (bit)) \
        rcuprof_sb_printf(b, "%s%s", k++ ? ";" : "", name)
    DOUBT(RCUPROF_ROW_OVERSUBSCRIBED, "oversubscribed");
    DOUBT(RCUPROF_ROW_MIX, "state_mix");
    DOUBT(RCUPROF_ROW_AA, "aa");
    DOUBT(RCUPROF_ROW_AA_FLOOR, "aa_floor");
#undef DOUBT
}

char *rcuprof_table_csv(const rcuprof_table *t)
{
    struct rcuprof_sb b = { 0 };
    size_t ti, v;

    rcuprof_sb_printf(&b, "metric,threads,oversubscribed,variant,baseline,n,failed,"
              "mean_ns,centre_ns,geomean_ns,geomean_lo_ns,geomean_hi_ns,gsd,"
              "median_ns,sd_ns,mean_lo_ns,mean_hi_ns,median_lo_ns,"
              "median_hi_ns,cv,noisy,outliers,stalls,stall_ref_ns,zero_runs,ops_per_s,"
              "paired,pairs,partial,pairs_base_geomean_ns,pairs_geomean_ns,change_pct,change_lo_pct,change_hi_pct,p,p_holm,p_wilcoxon,"
              "p_wilcoxon_holm,p_welch,p_welch_holm,p_mw,p_mw_holm,mde_pct,"
              "too_few,resolved,p_min_attainable,"
              "aa,aa_pairs,aa_change_pct,aa_change_lo_pct,aa_change_hi_pct,"
              "aa_p,aa_mde_pct,aa_resolved,doubt,"
              "state,runs_fast,runs_slow,runs_mixed,runs_unknown\n");
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
            csv_num(&b, has ? c->lognormal_mean : NAN);
            csv_num(&b, has ? c->geomean : NAN);
            csv_num(&b, has ? c->geomean_lo : NAN);
            csv_num(&b, has ? c->geomean_hi : NAN);
            csv_num(&b, has ? c->gsd : NAN);
            csv_num(&b, has ? c->s.median : NAN);
            csv_num(&b, has ? c->s.sd : NAN);
            csv_num(&b, has ? c->s.mean_lo : NAN);
            csv_num(&b, has ? c->s.mean_hi : NAN);
            csv_num(&b, has ? c->s.median_lo : NAN);
            csv_num(&b, has ? c->s.median_hi : NAN);
            csv_num(&b, has ? c->s.cv : NAN);
            rcuprof_sb_printf(&b, ",%d,%zu,%zu", c->noisy, c->n_outliers,
                              c->n_stalls);
            csv_num(&b, has ? c->stall_ref : NAN);
            rcuprof_sb_printf(&b, ",%zu", c->n_nonpos);
            csv_num(&b, has ? c->tput : NAN);
            if (v == t->baseline || !ch->have) {
                rcuprof_sb_printf(&b, ",,%s,,,,,,,,,,,,,,,,,,",
                          v == t->baseline ? "" : "0");
            } else {
                rcuprof_sb_printf(&b, ",%d,%zu,%d", ch->paired, ch->n_pairs,
                                  ch->partial);
                csv_num(&b, ch->pairs_base_gm);
                csv_num(&b, ch->pairs_gm);
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
                rcuprof_sb_printf(&b, ",%d,%d", ch->too_few, ch->resolved);
                csv_num(&b, ch->p_min_attainable);
            }
            csv_aa(&b, t, ti);
            rcuprof_sb_printf(&b, ",%s,%zu,%zu,%zu,%zu\n",
                              rcuprof_table_row_state_name(t, ti),
                              c->states[RCUPROF_STATE_FAST],
                              c->states[RCUPROF_STATE_SLOW],
                              c->states[RCUPROF_STATE_MIXED],
                              c->states[RCUPROF_STATE_UNKNOWN]);
        }
    }
    return rcuprof_sb_done(&b);
}

/* ---- the scaling report ------------------------------------------------- */

char *rcuprof_scaling_csv(const rcuprof_scaling *s, size_t n)
{
    struct rcuprof_sb b = { 0 };
    size_t i, k;

    rcuprof_sb_printf(&b, "metric,threads,oversubscribed,variant,n,failed,"
                      "median_ns,lo_ns,hi_ns,interval,ops_per_s,ops_per_s_lo,"
                      "ops_per_s_hi,eff_first,eff_step,dip_vs,knee,worst,"
                      "flagged,confidence\n");
    for (i = 0; i < n; i++)
        for (k = 0; k < s[i].nrows; k++) {
            const rcuprof_scaling_row *r = &s[i].rows[k];

            rcuprof_sb_printf(&b, "%s,%u,%d,%s,%zu,%zu",
                              rcuprof_metric_name(s[i].metric), r->threads,
                              r->oversubscribed, s[i].variant, r->n,
                              r->failed);
            csv_num(&b, r->cost);
            csv_num(&b, r->lo);
            csv_num(&b, r->hi);
            rcuprof_sb_printf(&b, ",%s", r->interval);
            csv_num(&b, r->tput);
            csv_num(&b, r->tput_lo);
            csv_num(&b, r->tput_hi);
            csv_num(&b, r->eff_first);
            csv_num(&b, r->eff_step);
            if (r->dip)
                rcuprof_sb_printf(&b, ",%u", r->dip_vs);
            else
                rcuprof_sb_printf(&b, ",");
            rcuprof_sb_printf(&b, ",%d,%d,%d,%s\n", r->knee, r->worst,
                              r->flagged,
                              r->confidence != NULL ? r->confidence : "");
        }
    return rcuprof_sb_done(&b);
}
