/*
 * rcuprof explain, the round-trip matrix's CPU pairs: every distinct pair of
 * the CPUs a placement uses, capped, sampling across packages, L3 domains,
 * cores and SMT siblings when there are more pairs than the cap.
 */
#include "explain.h"
#include "rcuprof_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const rel_names[RCUPROF_EXPLAIN_REL_N] = {
    "smt", "core", "l3", "package"
};

const char *rcuprof_explain_rel_name(int rel)
{
    return rel >= 0 && rel < RCUPROF_EXPLAIN_REL_N ? rel_names[rel] : "?";
}

int rcuprof_explain_relation(const rcuprof_explain_cpu *x,
                             const rcuprof_explain_cpu *y)
{
    if (x->package != y->package)
        return RCUPROF_EXPLAIN_REL_PACKAGE;
    if (x->l3 != y->l3)
        return RCUPROF_EXPLAIN_REL_L3;
    if (x->core != y->core || x->core < 0)
        return RCUPROF_EXPLAIN_REL_CORE;
    return RCUPROF_EXPLAIN_REL_SMT;
}

static const rcuprof_explain_cpu *lookup(const rcuprof_explain_cpu *topo,
                                         size_t ntopo, int cpu)
{
    size_t i;

    for (i = 0; i < ntopo; i++)
        if (topo[i].cpu == cpu)
            return &topo[i];
    return NULL;
}

int rcuprof_explain_pairs(const int *cpus, size_t n,
                          const rcuprof_explain_cpu *topo, size_t ntopo,
                          size_t cap, rcuprof_explain_pair **out,
                          size_t *nout, size_t *total)
{
    int *u = NULL;
    size_t nu = 0, i, j, np = 0, k;
    rcuprof_explain_pair *all = NULL, *sel = NULL;
    size_t cnt[RCUPROF_EXPLAIN_REL_N] = { 0 }, taken[RCUPROF_EXPLAIN_REL_N];
    size_t nsel = 0;

    *out = NULL;
    *nout = 0;
    *total = 0;
    if (n == 0)
        return 0;
    if ((u = malloc(n * sizeof(*u))) == NULL)
        return -1;
    memcpy(u, cpus, n * sizeof(*u));
    qsort(u, n, sizeof(*u), rcuprof_sort_cmp_int);
    for (i = 0; i < n; i++)
        if (u[i] >= 0 && (nu == 0 || u[nu - 1] != u[i]))
            u[nu++] = u[i];
    if (nu < 2) {
        free(u);
        return 0;
    }
    all = calloc(nu * (nu - 1) / 2, sizeof(*all));
    if (all == NULL) {
        free(u);
        return -1;
    }
    for (i = 0; i < nu; i++)
        for (j = i + 1; j < nu; j++) {
            const rcuprof_explain_cpu *x = lookup(topo, ntopo, u[i]);
            const rcuprof_explain_cpu *y = lookup(topo, ntopo, u[j]);

            all[np].a = u[i];
            all[np].b = u[j];
            all[np].rel = x != NULL && y != NULL
                          ? rcuprof_explain_relation(x, y)
                          : RCUPROF_EXPLAIN_REL_CORE;
            all[np].ns = NAN;
            cnt[all[np].rel]++;
            np++;
        }
    free(u);
    *total = np;
    if (cap == 0 || np <= cap) {
        *out = all;
        *nout = np;
        return 0;
    }

    /* Round-robin over the relations, farthest first; inside one relation
     * the k-th pick is the pair at position floor(k * count / quota). */
    {
        size_t quota[RCUPROF_EXPLAIN_REL_N] = { 0 }, left = cap;
        int r, progress = 1;

        while (left > 0 && progress) {
            progress = 0;
            for (r = RCUPROF_EXPLAIN_REL_N - 1; r >= 0 && left > 0; r--)
                if (quota[r] < cnt[r]) {
                    quota[r]++;
                    left--;
                    progress = 1;
                }
        }
        if ((sel = calloc(cap, sizeof(*sel))) == NULL) {
            free(all);
            return -1;
        }
        memset(taken, 0, sizeof(taken));
        for (r = RCUPROF_EXPLAIN_REL_N - 1; r >= 0; r--) {
            size_t seen = 0;

            if (quota[r] == 0)
                continue;
            for (k = 0; k < np && taken[r] < quota[r]; k++) {
                if (all[k].rel != r)
                    continue;
                if (seen == taken[r] * cnt[r] / quota[r]) {
                    sel[nsel++] = all[k];
                    taken[r]++;
                }
                seen++;
            }
        }
    }
    free(all);
    *out = sel;
    *nout = nsel;
    return 0;
}
