/*
 * rcuprof explain, classification: one rule per cause, each reading the
 * measurements of a case (a slow thread count against its reference count,
 * under several placements and harnesses) and answering supported,
 * refuted, inconclusive or not testable, with the measurements for and
 * against.  The rules and their thresholds are documented in
 * docs/explain.md; each is unit-tested
 * (tests/unit/analysis/test_explain_rules.c).
 */
#define _GNU_SOURCE
#include "explain.h"
#include "rcuprof_stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const verdict_names[] = {
    "not testable", "refuted", "inconclusive", "supported"
};

const char *rcuprof_explain_verdict_name(int v)
{
    return v >= 0 && v <= RCUPROF_EXPLAIN_SUPPORTED ? verdict_names[v] : "?";
}

void rcuprof_explain_thresholds_default(rcuprof_explain_thresholds *th)
{
    th->excess = 0.10;
    th->same = 0.10;
    th->util_slack = 0.25;
    th->runq_expected_frac = 0.5;
    th->runq_external = 0.10;
    th->steal_share = 0.02;
    th->cpu_rise = 0.15;
    th->running_util = 0.8;
    th->rtt_slow = 1.5;
    th->rtt_jump = 2.0;
    th->rtt_state = 1.5;
    th->probe_rise = 0.5;
    th->freq_drop = 0.05;
    th->serialised = 1.5;
    th->serialised_frac = 0.5;
}

double rcuprof_explain_serialised_threshold(
    const rcuprof_explain_thresholds *th, unsigned T, unsigned R)
{
    double part;

    if (R == 0 || T <= R)
        return th->serialised;
    part = 1 + th->serialised_frac * ((double)T / (double)R - 1);
    return part < th->serialised ? part : th->serialised;
}

/* ---------------------------------------------------------------------- */

enum { PRO, CON };

static void add(rcuprof_explain_verdict *v, int side, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(rcuprof_explain_verdict *v, int side, const char *fmt, ...)
{
    va_list ap;
    char *dst;

    if (side == PRO) {
        if (v->npro >= RCUPROF_EXPLAIN_MAX_EVIDENCE)
            return;
        dst = v->pro[v->npro++];
    } else {
        if (v->ncon >= RCUPROF_EXPLAIN_MAX_EVIDENCE)
            return;
        dst = v->con[v->ncon++];
    }
    va_start(ap, fmt);
    vsnprintf(dst, RCUPROF_EXPLAIN_EVIDENCE_LEN, fmt, ap);
    va_end(ap);
}

static void not_testable(rcuprof_explain_verdict *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void not_testable(rcuprof_explain_verdict *v, const char *fmt, ...)
{
    va_list ap;

    v->verdict = RCUPROF_EXPLAIN_NOT_TESTABLE;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
    va_end(ap);
}

static int have(const rcuprof_explain_agg *a)
{
    return a->n > 0 && a->cost > 0;
}

double rcuprof_explain_excess(const rcuprof_explain_case *c, size_t i)
{
    if (!c->has_reference || i >= c->t.nplace || i >= c->r.nplace
        || !have(&c->t.agg[i]) || !have(&c->r.agg[i]))
        return NAN;
    return c->t.agg[i].cost / c->r.agg[i].cost;
}

/*
 * Every verdict rests on the interval of its ratio (issue 18): a ratio
 * "clears" a threshold when its whole 95% interval is beyond it, is
 * "within" a band when its whole interval is inside it; a straddling
 * interval decides nothing.
 */
static int wall_iv(const rcuprof_explain_agg *t, const rcuprof_explain_agg *r,
                   rcuprof_explain_iv *o)
{
    return rcuprof_explain_ratio_iv(t, r, 0, RCUPROF_EXPLAIN_LEVEL, o);
}

/* The step at placement i: cost at T over cost at R. */
static int step_iv(const rcuprof_explain_case *c, size_t i,
                   rcuprof_explain_iv *o)
{
    o->ratio = o->lo = o->hi = NAN;
    if (!c->has_reference || i >= c->t.nplace || i >= c->r.nplace)
        return -1;
    return wall_iv(&c->t.agg[i], &c->r.agg[i], o);
}

/* Within the band [1/(1 + same), 1 + same]: the two agree. */
static int iv_same(const rcuprof_explain_iv *o, double same)
{
    return isfinite(o->lo) && o->lo >= 1 / (1 + same) && o->hi <= 1 + same;
}

static int iv_above(const rcuprof_explain_iv *o, double thr)
{
    return isfinite(o->lo) && o->lo >= thr;
}

static int iv_below(const rcuprof_explain_iv *o, double thr)
{
    return isfinite(o->hi) && o->hi < thr;
}

static const char *iv_text(const rcuprof_explain_iv *o, char *buf, size_t n)
{
    if (!isfinite(o->ratio))
        snprintf(buf, n, "n/a (too few runs)");
    else
        snprintf(buf, n, "%.2fx [%.2f, %.2f]", o->ratio, o->lo, o->hi);
    return buf;
}

static int reproduced(const rcuprof_explain_case *c,
                      const rcuprof_explain_thresholds *th)
{
    rcuprof_explain_iv o;

    return step_iv(c, 0, &o) == 0 && iv_above(&o, 1 + th->excess);
}

static double pct(double x)
{
    return 100.0 * x;
}

/* Median round trip over the measured pairs whose CPUs both appear in
 * side s's placements, and how many such pairs. */
/* The median (type 7 at 0.5: the mean of the two middle values for even n). */
static double median_of(const double *v, size_t m)
{
    double q;

    return rcuprof_stats_quantile(v, m, 0.5, &q) == 0 ? q : NAN;
}

static double side_rtt(const rcuprof_explain_case *c,
                       const rcuprof_explain_side *s, size_t *npairs)
{
    double v[64];
    size_t i, p, k, m = 0;

    for (p = 0; p < c->npairs && m < 64; p++) {
        int ina = 0, inb = 0;

        if (!isfinite(c->pairs[p].ns))
            continue;
        for (i = 0; i < s->nplace; i++)
            for (k = 0; k < s->place[i].ncpus; k++) {
                ina |= s->place[i].cpus[k] == c->pairs[p].a;
                inb |= s->place[i].cpus[k] == c->pairs[p].b;
            }
        if (ina && inb)
            v[m++] = c->pairs[p].ns;
    }
    *npairs = m;
    if (m == 0)
        return NAN;
    return median_of(v, m);
}

/* ---------------------------------------------------------------------- */
/* The rules                                                               */

static void rule_oversub(const rcuprof_explain_case *c,
                         const rcuprof_explain_thresholds *th,
                         rcuprof_explain_verdict *v)
{
    const rcuprof_explain_agg *a = &c->t.agg[0];
    double T = c->t.threads, C = c->cpus_allowed, eu, er;
    int util_ok = -1, runq_ok = -1;

    if (c->cpus_allowed == 0) {
        not_testable(v, "the number of CPUs allowed is unknown");
        return;
    }
    if (!have(a)) {
        not_testable(v, "no successful run at %u threads", c->t.threads);
        return;
    }
    if (T <= C) {
        add(v, CON, "%u threads <= %u CPUs allowed: each thread could have a CPU of its own",
            c->t.threads, c->cpus_allowed);
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
        return;
    }
    eu = C / T;
    er = 1 - C / T;
    add(v, PRO, "%u threads > %u CPUs allowed", c->t.threads,
        c->cpus_allowed);
    if (isfinite(a->util)) {
        util_ok = a->util <= eu * (1 + th->util_slack);
        add(v, util_ok ? PRO : CON,
            "utilisation %.2f %s CPUs/threads %.2f", a->util,
            util_ok ? "at most" : "well above", eu);
    }
    if (isfinite(a->runq_share)) {
        runq_ok = a->runq_share >= th->runq_expected_frac * er;
        add(v, runq_ok ? PRO : CON,
            "threads waited for a CPU %s%.0f%% of the window (%.0f%% expected from %u on %u); run-queue delay %.0f us per 1k ops",
            runq_ok ? "" : "only ", pct(a->runq_share), pct(er),
            c->t.threads, c->cpus_allowed, a->runq_ns_per_kop / 1000.0);
    } else {
        add(v, CON, "run-queue delay not readable (no schedstat): the waiting is not measured");
    }
    if (c->has_reference && have(&c->r.agg[0])
        && isfinite(a->cpu_cost) && c->r.agg[0].cpu_cost > 0) {
        double cr = a->cpu_cost / c->r.agg[0].cpu_cost;

        if (cr <= 1 + th->same)
            add(v, PRO, "CPU time per op %+.0f%% vs %u threads (%.0f -> %.0f ns): the wall cost rises from waiting, not work",
                pct(cr - 1), c->r.threads, c->r.agg[0].cpu_cost,
                a->cpu_cost);
        else
            add(v, CON, "CPU time per op also rose %+.0f%% vs %u threads: waiting does not explain all of it",
                pct(cr - 1), c->r.threads);
    }
    if (runq_ok == 1 && util_ok != 0)
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (runq_ok == 0)
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    else
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
}

static double runq_extra(const rcuprof_explain_case *c,
                         const rcuprof_explain_side *s)
{
    double T = s->threads, C = c->cpus_allowed;
    double exp = C > 0 && T > C ? 1 - C / T : 0;

    return s->agg[0].runq_share - exp;
}

static void rule_external(const rcuprof_explain_case *c,
                          const rcuprof_explain_thresholds *th,
                          rcuprof_explain_verdict *v)
{
    const rcuprof_explain_agg *a = &c->t.agg[0];
    double extra = runq_extra(c, &c->t), rextra = NAN;
    int steal = 0, runq = 0, load = 0, same_at_ref = 0;

    if (!have(a)) {
        not_testable(v, "no successful run at %u threads", c->t.threads);
        return;
    }
    if (isfinite(a->steal_share)) {
        steal = a->steal_share >= th->steal_share;
        add(v, steal ? PRO : CON,
            "steal %.1f%% of the CPUs' time (%.1f ms per run)%s",
            pct(a->steal_share), a->steal_ms,
            steal ? ": the host ran something else" : "");
    }
    if (isfinite(extra)) {
        runq = extra >= th->runq_external;
        if (runq)
            add(v, PRO, "threads waited for a CPU %.0f%% of the window beyond the %.0f%% that %u threads on %u CPUs explain",
                pct(extra), pct(a->runq_share - extra), c->t.threads,
                c->cpus_allowed);
        else
            add(v, CON, "run-queue share %.0f%% is what %u threads on %u CPUs explain",
                pct(a->runq_share), c->t.threads, c->cpus_allowed);
    }
    if (isfinite(a->loadavg1)) {
        double T = c->t.threads, C = c->cpus_allowed;

        load = C > 0 && a->loadavg1 - fmin(T, C) > 0.5 * C;
        add(v, load ? PRO : CON, "1-minute load average %.1f with %u threads on %u CPUs%s",
            a->loadavg1, c->t.threads, c->cpus_allowed,
            load ? " (weak: an average over a minute)" : "");
    }
    if (c->has_reference && have(&c->r.agg[0]))
        rextra = runq_extra(c, &c->r);
    if (runq && isfinite(rextra)) {
        if (extra - rextra >= th->runq_external) {
            add(v, PRO, "%.0f%% more unexplained waiting than at %u threads (%.0f%%)",
                pct(extra - rextra), c->r.threads, pct(rextra));
        } else {
            same_at_ref = 1;
            add(v, CON, "%u threads had as much unexplained waiting or more (%.0f%%): the load hit both counts, it does not make the step",
                c->r.threads, pct(rextra));
        }
    }
    if (steal || (runq && !same_at_ref))
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (runq || load)
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
    else
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
}

static void rule_contention(const rcuprof_explain_case *c,
                            const rcuprof_explain_thresholds *th,
                            rcuprof_explain_verdict *v)
{
    const rcuprof_explain_agg *a = &c->t.agg[0], *b = &c->r.agg[0];
    double T = c->t.threads, C = c->cpus_allowed, rtt, maxu;
    rcuprof_explain_iv iv;
    char ivb[64];
    int rise, running = -1;
    size_t np;

    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    if (c->t.threads < 2) {
        not_testable(v, "one thread has nobody to contend with");
        return;
    }
    if (!have(a) || !have(b) || !(a->cpu_cost > 0) || !(b->cpu_cost > 0)) {
        not_testable(v, "CPU time per op missing at %u or %u threads",
                     c->t.threads, c->r.threads);
        return;
    }
    if (rcuprof_explain_ratio_iv(a, b, 1, RCUPROF_EXPLAIN_LEVEL, &iv) != 0) {
        not_testable(v, "fewer than 2 runs with CPU time at %u or %u threads: no interval",
                     c->t.threads, c->r.threads);
        return;
    }
    rise = iv_above(&iv, 1 + th->cpu_rise);
    if (rise)
        add(v, PRO, "CPU time per op %s that at %u threads (%.0f -> %.0f ns): each op costs more while running, beyond the noise",
            iv_text(&iv, ivb, sizeof(ivb)), c->r.threads, b->cpu_cost,
            a->cpu_cost);
    else
        add(v, CON, "CPU time per op %s that at %u threads (%.0f -> %.0f ns)%s",
            iv_text(&iv, ivb, sizeof(ivb)), c->r.threads, b->cpu_cost,
            a->cpu_cost, iv_below(&iv, 1 + th->cpu_rise) ? ""
            : ": the interval straddles the threshold");
    maxu = C > 0 ? fmin(1.0, C / T) : 1.0;
    if (isfinite(a->util)) {
        running = a->util >= th->running_util * maxu;
        add(v, running ? PRO : CON,
            "utilisation %.2f of at most %.2f: the threads were %s",
            a->util, maxu, running ? "running together" : "often off-CPU");
    }
    rtt = side_rtt(c, &c->t, &np);
    if (isfinite(rtt)) {
        if (rise)
            add(v, PRO, "a line round trip between the CPUs used costs %.0f ns (%zu pair%s): the rise is %.2f round trips per op",
                rtt, np, np == 1 ? "" : "s", (a->cpu_cost - b->cpu_cost) / rtt);
        else
            add(v, PRO, "a line round trip between the CPUs used costs %.0f ns (%zu pair%s)",
                rtt, np, np == 1 ? "" : "s");
    }
    if (isfinite(a->coherence_per_kop) && isfinite(b->coherence_per_kop)) {
        int up = a->coherence_per_kop
                 > b->coherence_per_kop * (1 + th->cpu_rise);

        add(v, up ? PRO : CON, "coherence events %.1f per 1k ops (%.1f at %u threads)",
            a->coherence_per_kop, b->coherence_per_kop, c->r.threads);
    }
    if (rise && running != 0)
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (iv_below(&iv, 1 + th->cpu_rise))
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    else
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
}

static void rule_placement(const rcuprof_explain_case *c,
                           const rcuprof_explain_thresholds *th,
                           rcuprof_explain_verdict *v)
{
    rcuprof_explain_iv s0, si, d, smin = { NAN, NAN, NAN };
    rcuprof_explain_iv dmin = smin, smax = smin, dmax = smin;
    size_t i, imin = 0, imax = 0, npinned = 0, nsame = 0, nbelow = 0;
    unsigned misplaced = 0;
    char b1[64], b2[64];
    int have0;

    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    have0 = step_iv(c, 0, &s0) == 0;
    for (i = 1; i < c->t.nplace && have0; i++) {
        if (!c->t.place[i].pinned || step_iv(c, i, &si) != 0
            || rcuprof_explain_ratio2_iv(&c->t.agg[0], &c->r.agg[0],
                                         &c->t.agg[i], &c->r.agg[i],
                                         RCUPROF_EXPLAIN_LEVEL, &d) != 0)
            continue;
        npinned++;
        /* d = the baseline's step over this placement's */
        if (imin == 0 || d.ratio > dmin.ratio) {
            dmin = d;
            smin = si;
            imin = i;
        }
        if (imax == 0 || d.ratio < dmax.ratio) {
            dmax = d;
            smax = si;
            imax = i;
        }
        nsame += iv_same(&d, th->same);
        nbelow += iv_below(&si, 1 + th->excess);
        misplaced += c->t.agg[i].misplaced + c->r.agg[i].misplaced;
    }
    if (npinned == 0 || !have0) {
        not_testable(v, "%s", !have0
                     ? "the baseline placement has no interval at both counts (fewer than 2 runs)"
                     : "no pinned placement other than the baseline ran at both counts");
        return;
    }
    add(v, iv_above(&s0, 1 + th->excess) ? PRO : CON,
        "%s: %u threads cost %s %u threads", c->t.place[0].name,
        c->t.threads, iv_text(&s0, b1, sizeof(b1)), c->r.threads);
    if (misplaced > 0)
        add(v, CON, "%u pinned thread(s) did not stay on their planned CPU: the pinned runs are weak evidence",
            misplaced);
    if (!c->t.place[0].pinned && isfinite(c->t.agg[0].migr_per_kop)
        && c->t.agg[0].migr_per_kop > 0.01)
        add(v, PRO, "unpinned threads migrated %.2f times per 1k ops",
            c->t.agg[0].migr_per_kop);
    if (iv_above(&s0, 1 + th->excess)) {
        if (iv_above(&dmin, 1 + th->excess)) {
            add(v, PRO, "the step %s under %s (%s): the baseline's step is %s that one's",
                iv_below(&smin, 1 + th->excess) ? "vanishes" : "shrinks",
                c->t.place[imin].name, iv_text(&smin, b1, sizeof(b1)),
                iv_text(&dmin, b2, sizeof(b2)));
            v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
        } else if (nsame == npinned) {
            add(v, CON, "the same step under every pinned placement (the baseline's over %s's: %s)",
                c->t.place[imin].name, iv_text(&dmin, b1, sizeof(b1)));
            v->verdict = RCUPROF_EXPLAIN_REFUTED;
        } else {
            add(v, CON, "under %s the step is %s; the baseline's is %s that: not beyond the noise (more --reps or --target-mde)",
                c->t.place[imin].name, iv_text(&smin, b1, sizeof(b1)),
                iv_text(&dmin, b2, sizeof(b2)));
            v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
        }
    } else if (iv_above(&smax, 1 + th->excess)
               && iv_below(&dmax, 1 / (1 + th->excess))) {
        add(v, PRO, "the step appears under %s (%s) but not under %s: it moves with placement",
            c->t.place[imax].name, iv_text(&smax, b1, sizeof(b1)),
            c->t.place[0].name);
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    } else if (iv_below(&s0, 1 + th->excess) && nbelow == npinned) {
        add(v, CON, "no step under any placement (each interval below %.2fx)",
            1 + th->excess);
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    } else {
        add(v, CON, "no step established under %s or a pinned placement: the intervals straddle %.2fx",
            c->t.place[0].name, 1 + th->excess);
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
    }
}

static double rtt_median_rel(const rcuprof_explain_case *c, int lo, int hi,
                             size_t *n)
{
    double v[128];
    size_t i, m = 0;

    for (i = 0; i < c->npairs && m < 128; i++)
        if (c->pairs[i].rel >= lo && c->pairs[i].rel <= hi
            && isfinite(c->pairs[i].ns))
            v[m++] = c->pairs[i].ns;
    *n = m;
    if (m == 0)
        return NAN;
    return median_of(v, m);
}

static void rule_cross_domain(const rcuprof_explain_case *c,
                              const rcuprof_explain_thresholds *th,
                              rcuprof_explain_verdict *v)
{
    double within, cross;
    rcuprof_explain_iv s0;
    size_t nw, nc, i;
    int slow = -1, confined = -1, spans = 0, have0;

    if (c->packages <= 1 && c->l3_domains <= 1) {
        not_testable(v, "one package and one L3 domain among the %u CPUs allowed: no cross-domain pair",
                     c->cpus_allowed);
        return;
    }
    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    have0 = step_iv(c, 0, &s0) == 0;
    within = rtt_median_rel(c, RCUPROF_EXPLAIN_REL_SMT,
                            RCUPROF_EXPLAIN_REL_CORE, &nw);
    cross = rtt_median_rel(c, RCUPROF_EXPLAIN_REL_L3,
                           RCUPROF_EXPLAIN_REL_PACKAGE, &nc);
    if (isfinite(within) && isfinite(cross)) {
        slow = cross >= within * th->rtt_slow;
        add(v, slow ? PRO : CON,
            "round trip across L3/package %.0f ns (%zu pairs) vs %.0f ns within an L3 (%zu pairs): %.1fx",
            cross, nc, within, nw, cross / within);
    } else {
        add(v, CON, "the round-trip matrix has no %s pair",
            isfinite(within) ? "cross-domain" : "within-L3");
    }
    for (i = 0; i < c->t.nplace && i < c->r.nplace; i++) {
        const rcuprof_explain_place *pt = &c->t.place[i], *pr = &c->r.place[i];
        rcuprof_explain_iv si, d;
        char b1[64], b2[64];

        if (!pt->pinned || step_iv(c, i, &si) != 0)
            continue;
        if ((pt->packages > pr->packages || pt->l3s > pr->l3s)
            && iv_above(&si, 1 + th->excess)) {
            spans = 1;
            add(v, PRO, "%s spans %d package(s)/%d L3 at %u threads but %d/%d at %u, and costs %s",
                pt->name, pt->packages, pt->l3s, c->t.threads, pr->packages,
                pr->l3s, c->r.threads, iv_text(&si, b1, sizeof(b1)));
        }
        if ((strncmp(pt->name, "package:", 8) == 0
             || strncmp(pt->name, "l3:", 3) == 0) && have0
            && iv_above(&s0, 1 + th->excess)
            && rcuprof_explain_ratio2_iv(&c->t.agg[0], &c->r.agg[0],
                                         &c->t.agg[i], &c->r.agg[i],
                                         RCUPROF_EXPLAIN_LEVEL, &d) == 0) {
            if (iv_below(&si, 1 + th->excess)
                && iv_above(&d, 1 + th->excess)) {
                confined = 1;
                add(v, PRO, "confined to %s the step vanishes (%s; the baseline's is %s that)",
                    pt->name, iv_text(&si, b1, sizeof(b1)),
                    iv_text(&d, b2, sizeof(b2)));
            } else if (iv_same(&d, th->same)) {
                confined = 0;
                add(v, CON, "confined to %s the step is the same (%s; the baseline's is %s that)",
                    pt->name, iv_text(&si, b1, sizeof(b1)),
                    iv_text(&d, b2, sizeof(b2)));
            }
        }
    }
    if (slow == 1 && (confined == 1 || spans))
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (slow == 0 || confined == 0)
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    else
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
}

static int find_place(const rcuprof_explain_side *s, const char *name)
{
    size_t i;

    for (i = 0; i < s->nplace; i++)
        if (strcmp(s->place[i].name, name) == 0
            || strstr(s->place[i].same_as, name) != NULL)
            return (int)i;
    return -1;
}

static void rule_smt(const rcuprof_explain_case *c,
                     const rcuprof_explain_thresholds *th,
                     rcuprof_explain_verdict *v)
{
    int ic, ik;
    double dr = NAN;
    rcuprof_explain_iv iv;
    char ivb[64];

    if (c->pus <= c->cores) {
        not_testable(v, "no SMT: %d cores, %d PUs allowed (one hardware thread per core)",
                     c->cores, c->pus);
        return;
    }
    if (c->t.threads < 2) {
        not_testable(v, "one thread cannot share a core");
        return;
    }
    ic = find_place(&c->t, "compact");
    ik = find_place(&c->t, "core");
    if (ic < 0 || ik < 0 || ic == ik) {
        not_testable(v, "%s", ic == ik && ic >= 0
                     ? "compact and core use the same CPUs at this count"
                     : "compact and core were not both run");
        return;
    }
    if (!have(&c->t.agg[ic]) || !have(&c->t.agg[ik])
        || wall_iv(&c->t.agg[ic], &c->t.agg[ik], &iv) != 0) {
        not_testable(v, "compact or core has fewer than 2 successful runs at %u threads",
                     c->t.threads);
        return;
    }
    if (c->has_reference && have(&c->r.agg[ic]) && have(&c->r.agg[ik]))
        dr = c->r.agg[ic].cost / c->r.agg[ik].cost;
    if (!c->t.place[ic].smt_shared)
        add(v, CON, "compact puts no two threads on one core at %u threads",
            c->t.threads);
    if (iv_above(&iv, 1 + th->excess) && c->t.place[ic].smt_shared) {
        add(v, PRO, "compact (siblings shared) costs %s core (one per core) at %u threads",
            iv_text(&iv, ivb, sizeof(ivb)), c->t.threads);
        if (isfinite(dr))
            add(v, dr <= 1 + th->same ? PRO : CON,
                "at %u threads compact costs %.2fx core", c->r.threads, dr);
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    } else if (iv_same(&iv, th->same)) {
        add(v, CON, "compact and core agree at %u threads (%s)",
            c->t.threads, iv_text(&iv, ivb, sizeof(ivb)));
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    } else {
        add(v, CON, "compact vs core at %u threads: %s, not beyond the noise",
            c->t.threads, iv_text(&iv, ivb, sizeof(ivb)));
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
    }
}

/*
 * A probe figure rises from R to T when every run at T is beyond every run
 * at R by probe_rise (the ranges separate: the counts are exact per run
 * but vary between runs, and a median against a threshold turns that
 * into causes).
 */
static void probe_cmp(const rcuprof_explain_case *c,
                      const rcuprof_explain_thresholds *th,
                      rcuprof_explain_verdict *v, const char *what,
                      double t, double tmin, double tmax, double r,
                      double rmax, int *rise, int *zero)
{
    if (!isfinite(t))
        return;
    if (tmin > 0 && (!(rmax > 0) || tmin / rmax >= 1 + th->probe_rise)) {
        *rise = 1;
        add(v, PRO, "%s %.3g at %u threads (%.3g at %u; every run above every one there)",
            what, t, c->t.threads, r, c->r.threads);
    } else {
        if (tmax == 0)
            (*zero)++;
        add(v, CON, "%s %.3g at %u threads (%.3g at %u)%s", what, t,
            c->t.threads, r, c->r.threads,
            t > 0 && tmin > 0 ? ": the runs' ranges overlap" : "");
    }
}

/* "Vanishes under X": the step is established at the baseline, X's step
 * lies below the threshold and the baseline's is beyond X's by more than
 * the threshold.  1 vanishes, 0 the same (within the band), -1 neither
 * or no interval; the intervals in s0, sx, d. */
static int vanishes(const rcuprof_explain_case *c,
                    const rcuprof_explain_thresholds *th,
                    const rcuprof_explain_agg *tx,
                    const rcuprof_explain_agg *rx, rcuprof_explain_iv *s0,
                    rcuprof_explain_iv *sx, rcuprof_explain_iv *d)
{
    if (step_iv(c, 0, s0) != 0 || wall_iv(tx, rx, sx) != 0
        || rcuprof_explain_ratio2_iv(&c->t.agg[0], &c->r.agg[0], tx, rx,
                                     RCUPROF_EXPLAIN_LEVEL, d) != 0)
        return -2;
    if (iv_above(s0, 1 + th->excess) && iv_below(sx, 1 + th->excess)
        && iv_above(d, 1 + th->excess))
        return 1;
    if (iv_same(d, th->same))
        return 0;
    return -1;
}

static void rule_writer(const rcuprof_explain_case *c,
                        const rcuprof_explain_thresholds *th,
                        rcuprof_explain_verdict *v)
{
    const rcuprof_explain_agg *a = &c->t.agg[0], *b = &c->r.agg[0];
    rcuprof_explain_iv s0, sx, d;
    char b1[64], b2[64];
    int rise = 0, zero = 0, nw = -1;

    if (!c->writers && !a->have_probes) {
        not_testable(v, "no writers (--writers 0) and the variant carries no probe layer (probes null)");
        return;
    }
    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    if (a->have_probes) {
        probe_cmp(c, th, v, "read-lock retries per acquisition",
                  a->probe_retries, a->probe_retries_min,
                  a->probe_retries_max, b->probe_retries,
                  b->probe_retries_max, &rise, &zero);
        probe_cmp(c, th, v, "slow-path fetches per 1k", a->probe_slow,
                  a->probe_slow_min, a->probe_slow_max, b->probe_slow,
                  b->probe_slow_max, &rise, &zero);
        probe_cmp(c, th, v, "writer wait ns per sync", a->probe_wait,
                  a->probe_wait_min, a->probe_wait_max, b->probe_wait,
                  b->probe_wait_max, &rise, &zero);
        if (!isfinite(a->probe_retries) && !isfinite(a->probe_slow)
            && !isfinite(a->probe_wait))
            add(v, CON, "the probes member has no retry, slow-path or wait figure this rule can read");
    }
    if (a->have_churn && isfinite(a->writes_per_s))
        add(v, PRO, "writers completed %.0f writes/s in the window",
            a->writes_per_s);
    nw = vanishes(c, th, &c->t.nowriters, &c->r.nowriters, &s0, &sx, &d);
    if (nw == 1)
        add(v, PRO, "without writers the step vanishes (%s; with them %s)",
            iv_text(&sx, b1, sizeof(b1)), iv_text(&s0, b2, sizeof(b2)));
    else if (nw == 0)
        add(v, CON, "without writers the step is the same (%s; with them %s)",
            iv_text(&sx, b1, sizeof(b1)), iv_text(&s0, b2, sizeof(b2)));
    if (nw == 1 || (rise && nw != 0))
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (nw == 0 || (zero > 0 && !rise))
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    else
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
}

static void rule_state(const rcuprof_explain_case *c,
                       const rcuprof_explain_thresholds *th,
                       rcuprof_explain_verdict *v)
{
    const rcuprof_explain_agg *a = &c->t.agg[0], *b = &c->r.agg[0];
    double lo = INFINITY, hi = -INFINITY, jump = NAN, tm, rm;
    int aligned = -1, moved = 0;
    const char *src;

#define TAKE(x) do { if (isfinite(x) && (x) > 0) { lo = fmin(lo, x); \
                     hi = fmax(hi, x); } } while (0)
    TAKE(c->sweep_rtt_min);
    TAKE(c->sweep_rtt_max);
    TAKE(a->rtt_min);
    TAKE(a->rtt_max);
    TAKE(b->rtt_min);
    TAKE(b->rtt_max);
#undef TAKE
    if (!isfinite(lo)) {
        not_testable(v, "no cache-line round trip was measured (--rtt off)");
        return;
    }
    jump = fmax(isfinite(c->sweep_rtt_jump) ? c->sweep_rtt_jump : 0,
                isfinite(a->rtt_jump) ? a->rtt_jump : 0);
    if (jump >= th->rtt_jump) {
        moved = 1;
        add(v, PRO, "line_rtt changed %.1fx between the start and end of one run",
            jump);
    }
    if (hi / lo >= th->rtt_jump) {
        moved = 1;
        add(v, PRO, "line_rtt ranged %.0f .. %.0f ns over the runs: the machine changed state",
            lo, hi);
    } else {
        add(v, CON, "line_rtt stable: %.0f .. %.0f ns over the runs", lo, hi);
    }
    /* Aligned: every line_rtt at one count beyond every one at the other
     * by rtt_state, the slower state at the slower count. */
    if (c->has_reference) {
        double tlo, thi, rlo, rhi, e = rcuprof_explain_excess(c, 0);

        if (isfinite(c->t.sweep_rtt) && isfinite(c->r.sweep_rtt)) {
            tm = c->t.sweep_rtt;
            rm = c->r.sweep_rtt;
            tlo = c->t.sweep_rtt_lo;
            thi = c->t.sweep_rtt_hi;
            rlo = c->r.sweep_rtt_lo;
            rhi = c->r.sweep_rtt_hi;
            src = "the sweep's";
        } else {
            tm = a->rtt_med;
            rm = b->rtt_med;
            tlo = a->rtt_min;
            thi = a->rtt_max;
            rlo = b->rtt_min;
            rhi = b->rtt_max;
            src = "these";
        }
        if (isfinite(tlo) && isfinite(rhi) && tlo > 0 && rhi > 0) {
            int slow_t = !isfinite(e) || e >= 1;

            aligned = slow_t ? tlo >= rhi * th->rtt_state
                             : rlo >= thi * th->rtt_state;
            add(v, aligned ? PRO : CON,
                "%s runs at %u threads saw line_rtt %.0f ns (%.0f .. %.0f), at %u threads %.0f ns (%.0f .. %.0f)%s",
                src, c->t.threads, tm, tlo, thi, c->r.threads, rm, rlo, rhi,
                aligned ? ": the slow count ran in the slow state"
                        : ": the states do not separate the counts");
        }
    }
    if (aligned == 1)
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (moved)
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
    else
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
}

static void rule_harness(const rcuprof_explain_case *c,
                         const rcuprof_explain_thresholds *th,
                         rcuprof_explain_verdict *v)
{
    const char *alt = c->alt_harness != NULL ? c->alt_harness : "other";
    rcuprof_explain_iv s0, sa, d;
    char b1[64], b2[64];
    int r;

    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    r = vanishes(c, th, &c->t.alt, &c->r.alt, &s0, &sa, &d);
    if (r == -2) {
        not_testable(v, "the %s harness was not run at both counts (or fewer than 2 runs each)",
                     alt);
        return;
    }
    if (r == 1) {
        add(v, PRO, "the step (%s) vanishes under the %s harness (%s): the harness makes it",
            iv_text(&s0, b1, sizeof(b1)), alt, iv_text(&sa, b2, sizeof(b2)));
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    } else if (r == 0) {
        add(v, CON, "both harnesses show the same step (%s, %s %s)",
            iv_text(&s0, b1, sizeof(b1)), alt, iv_text(&sa, b2, sizeof(b2)));
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    } else {
        add(v, d.ratio < 1 ? PRO : CON,
            "the harnesses differ (%s, %s %s) without a difference beyond the noise that removes the step",
            iv_text(&s0, b1, sizeof(b1)), alt, iv_text(&sa, b2, sizeof(b2)));
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
    }
}

static void rule_frequency(const rcuprof_explain_case *c,
                           const rcuprof_explain_thresholds *th,
                           rcuprof_explain_verdict *v)
{
    double gt = c->t.agg[0].cycles_per_ns, gr = c->r.agg[0].cycles_per_ns;

    if (!c->pmu) {
        not_testable(v, "no hardware cycles counter (%s): frequency bins cannot be seen",
                     c->pmu_reason[0] ? c->pmu_reason : "no PMU");
        return;
    }
    if (!c->has_reference || !isfinite(gt) || !isfinite(gr) || gr <= 0) {
        not_testable(v, "no cycles count at both counts (pass --events cycles)");
        return;
    }
    if (gt <= gr * (1 - th->freq_drop)) {
        add(v, PRO, "cycles per ns fell from %.2f to %.2f GHz (%u -> %u threads)",
            gr, gt, c->r.threads, c->t.threads);
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    } else {
        add(v, CON, "cycles per ns %.2f GHz at %u threads, %.2f at %u", gt,
            c->t.threads, gr, c->r.threads);
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    }
}

/* A slope with its interval, "1.02 [0.95, 1.09]" (bounds n/a under 2
 * blocks), or "n/a" without a fit. */
static const char *slope_text(const rcuprof_explain_slope *s, char *buf,
                              size_t n)
{
    if (!isfinite(s->slope))
        snprintf(buf, n, "n/a (no block with every delay)");
    else if (!isfinite(s->lo) || !isfinite(s->hi))
        snprintf(buf, n, "%.2f [n/a, %zu block]", s->slope, s->blocks);
    else
        snprintf(buf, n, "%.2f [%.2f, %.2f]", s->slope, s->lo, s->hi);
    return buf;
}

/*
 * serialised_site (issue 17 item 4): a site's slope (wall ns per ns of
 * delay put on an op) grows from R to T when threads queue behind it.
 * Per site, the ratio of T's slope over R's with Fieller's interval over
 * the paired blocks, against rcuprof_explain_serialised_threshold (a
 * perfectly serialised site's ratio tends to T/R: for T > R the
 * threshold is min(1.5, 1 + (T/R - 1)/2)): supported when the interval
 * clears it, refuted when it lies below, inconclusive when it straddles,
 * is unbounded (R's slope not distinguishable from 0), when R's slope
 * does not lie above 0 (the ratio of a negative slope means nothing) or
 * under 2 paired blocks.  The rule: supported when a site is, refuted
 * when every site is, else inconclusive.  The evidence gives each count's
 * slope over its own blocks and the two over the paired blocks, which
 * divide to the ratio.
 */
static void rule_serialised(const rcuprof_explain_case *c,
                            const rcuprof_explain_thresholds *th,
                            rcuprof_explain_verdict *v)
{
    size_t i, sup = 0, ref = 0;
    double thr;

    if (c->nwhatif == 0 || c->whatif == NULL) {
        not_testable(v, "no --whatif-site: no delay site was run");
        return;
    }
    if (!c->has_reference) {
        not_testable(v, "no reference count to compare with");
        return;
    }
    thr = rcuprof_explain_serialised_threshold(th, c->t.threads,
                                               c->r.threads);
    for (i = 0; i < c->nwhatif; i++) {
        const rcuprof_explain_whatif *w = &c->whatif[i];
        char st[48], sr[48], rt[160], pr[64] = "";
        int side;

        slope_text(&w->t, st, sizeof(st));
        slope_text(&w->r, sr, sizeof(sr));
        if (isfinite(w->paired_r) && isfinite(w->paired_t))
            snprintf(pr, sizeof(pr), " (each over its blocks); over the %zu paired: %.2f -> %.2f",
                     w->paired, w->paired_r, w->paired_t);
        if (w->ratio_rc < 0 || !isfinite(w->ratio)) {
            snprintf(rt, sizeof(rt), "n/a (%zu paired blocks: 2 needed)",
                     w->paired);
            side = CON;
        } else if (w->ratio_rc == 1) {
            snprintf(rt, sizeof(rt), "%.2fx, unbounded (the slope at %u is not distinguishable from 0)",
                     w->ratio, w->r.threads);
            side = w->ratio >= thr ? PRO : CON;
        } else if (!(w->r.lo > 0) || !(w->paired_r > 0)) {
            snprintf(rt, sizeof(rt), "%.2fx, not interpretable (the slope at %u does not lie above 0)",
                     w->ratio, w->r.threads);
            side = CON;
        } else if (!(w->lo > 0)) {
            /* A bounded Fieller interval that reaches 0 (issue 28: "1.41x
             * [-15.45, 4.82]"): the slope at T is not known above 0. */
            snprintf(rt, sizeof(rt), "%.2f, no multiple (its interval reaches 0: the slope at %u is not known above 0)%s",
                     w->ratio, w->t.threads,
                     w->hi < thr ? ", all of it below the threshold" : "");
            if (w->hi < thr)
                ref++;
            side = CON;
        } else {
            int len = snprintf(rt, sizeof(rt), "%.2fx [%.2f, %.2f]",
                               w->ratio, w->lo, w->hi);

            if (len > 0 && (size_t)len < sizeof(rt))
                snprintf(rt + len, sizeof(rt) - (size_t)len,
                         !(w->lo >= thr) && !(w->hi < thr)
                         ? " (straddles %.3g)" : " (threshold %.3g)", thr);
            if (w->lo >= thr) {
                sup++;
                side = PRO;
            } else if (w->hi < thr) {
                ref++;
                side = CON;
            } else {
                side = w->ratio >= thr ? PRO : CON;
            }
        }
        add(v, side, "%s: slope %s at %u -> %s at %u%s: ratio %s", w->label,
            sr, w->r.threads, st, w->t.threads, pr, rt);
    }
    if (sup > 0)
        v->verdict = RCUPROF_EXPLAIN_SUPPORTED;
    else if (ref == c->nwhatif)
        v->verdict = RCUPROF_EXPLAIN_REFUTED;
    else
        v->verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
}

/* Evaluated by rcuprof_explain_classify from the others' verdicts. */
static void rule_unexplained(const rcuprof_explain_case *c,
                             const rcuprof_explain_thresholds *th,
                             rcuprof_explain_verdict *v)
{
    (void)c;
    (void)th;
    (void)v;
}

const rcuprof_explain_rule rcuprof_explain_rules[] = {
    { "oversubscription", "oversubscription",
      "more threads than CPUs, utilisation at most CPUs/threads, and the run-queue delay that makes the wall cost",
      rule_oversub },
    { "external", "external load or steal",
      "steal time, or run-queue delay beyond what the thread count explains, more than at the reference",
      rule_external },
    { "contention", "contention between running threads",
      "CPU time per op rises while the threads run together; the line round trip between their CPUs",
      rule_contention },
    { "placement", "placement",
      "the step vanishes, halves or appears under a pinned placement",
      rule_placement },
    { "cross_domain", "cross-package or cross-L3 transfers",
      "round trips across L3/package slower, and the step follows the placements that span them",
      rule_cross_domain },
    { "smt", "SMT siblings sharing a core",
      "compact (siblings shared) costs more than core (one per core) at the count",
      rule_smt },
    { "writer", "writer-induced retries or waits",
      "probe retries, slow-path fetches or writer waits rise, or the step vanishes without writers",
      rule_writer },
    { "machine_state", "machine state changed",
      "line_rtt jumps (e.g. 70 vs 320 ns) and the slow count ran in the slow state",
      rule_state },
    { "harness", "harness artefact",
      "the step vanishes under the other harness (--compat perftools or not)",
      rule_harness },
    { "frequency", "frequency (turbo bins)",
      "cycles per ns fall with more active cores",
      rule_frequency },
    { "serialised_site", "serialised site",
      "a delay site's whatif slope at T is at least min(1.5, 1 + (T/R - 1)/2) times its slope at R (--whatif-site): threads queue behind it",
      rule_serialised },
    { "unexplained", "unexplained",
      "a step that no rule above supports",
      rule_unexplained },
};
const size_t rcuprof_explain_nrules =
    sizeof(rcuprof_explain_rules) / sizeof(rcuprof_explain_rules[0]);

int rcuprof_explain_rule_index(const char *id)
{
    size_t i;

    for (i = 0; i < rcuprof_explain_nrules; i++)
        if (strcmp(rcuprof_explain_rules[i].id, id) == 0)
            return (int)i;
    return -1;
}

void rcuprof_explain_classify(const rcuprof_explain_case *c,
                              const rcuprof_explain_thresholds *th,
                              rcuprof_explain_verdict *v,
                              char *summary, size_t n)
{
    size_t i, len = 0, last = rcuprof_explain_nrules - 1;
    int any = 0, rep = reproduced(c, th);

    for (i = 0; i < rcuprof_explain_nrules; i++) {
        memset(&v[i], 0, sizeof(v[i]));
        v[i].id = rcuprof_explain_rules[i].id;
        v[i].title = rcuprof_explain_rules[i].title;
        v[i].verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
        if (i != last)
            rcuprof_explain_rules[i].eval(c, th, &v[i]);
    }
    /* No step established: nothing to attribute.  A rule whose measurements
     * hold (more threads than CPUs, steal) is not a cause of a step that
     * may not exist.  Placement ("the step appears under a pinned
     * placement") and SMT (compact against core at T) compare placements
     * and rest on intervals of their own. */
    for (i = 0; i + 1 < rcuprof_explain_nrules; i++) {
        if (c->has_reference && !rep
            && v[i].verdict == RCUPROF_EXPLAIN_SUPPORTED
            && strcmp(v[i].id, "placement") != 0
            && strcmp(v[i].id, "smt") != 0) {
            rcuprof_explain_iv o;
            char b[64];

            step_iv(c, 0, &o);
            add(&v[i], CON, "but no step is established under %s (%s): nothing to attribute",
                c->t.place[0].name, iv_text(&o, b, sizeof(b)));
            v[i].verdict = RCUPROF_EXPLAIN_INCONCLUSIVE;
        }
        any |= v[i].verdict == RCUPROF_EXPLAIN_SUPPORTED;
    }
    if (!c->has_reference) {
        not_testable(&v[last], "no reference count: nothing to explain");
    } else if (!rep) {
        rcuprof_explain_iv o;
        char b[64];

        step_iv(c, 0, &o);
        not_testable(&v[last], "no step: %u threads cost %s %u threads under %s%s",
                     c->t.threads, iv_text(&o, b, sizeof(b)), c->r.threads,
                     c->t.place[0].name, iv_below(&o, 1 + th->excess)
                     ? "" : " (not established: the interval reaches below the threshold)");
    } else if (any) {
        add(&v[last], CON, "a rule above is supported");
        v[last].verdict = RCUPROF_EXPLAIN_REFUTED;
    } else {
        add(&v[last], PRO, "%u threads cost %.2fx %u threads and no rule above is supported",
            c->t.threads, rcuprof_explain_excess(c, 0), c->r.threads);
        v[last].verdict = RCUPROF_EXPLAIN_SUPPORTED;
    }
    if (n == 0)
        return;
    summary[0] = '\0';
    for (i = 0; i < rcuprof_explain_nrules; i++)
        if (v[i].verdict == RCUPROF_EXPLAIN_SUPPORTED) {
            int w = snprintf(summary + len, n - len, "%s%s",
                             len ? ", " : "", v[i].id);

            if (w < 0 || (size_t)w >= n - len)
                break;
            len += (size_t)w;
        }
    if (len == 0)
        snprintf(summary, n, "%s", !c->has_reference ? "baseline"
                 : rep ? "unexplained" : "no step");
}
