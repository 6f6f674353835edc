/*
 * rcuprof placement planner (see rcuprof_placement.h for the policies).
 *
 * A plan is a sequence of PUs ("one round"); thread i gets seq[i % len].
 * Every sequence starts from the usable PUs (in the topology and in the
 * allowed set) in hwloc logical order, which is the compact order: the PUs
 * of a core are consecutive, cores of an L3 domain are consecutive, and so
 * on up to packages.
 */
#define _GNU_SOURCE
#include "rcuprof_placement.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLICY_HELP \
    "none, compact, scatter, core, package:N, l3:N or cpus:LIST"

static int fail(int code, char *errbuf, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(int code, char *errbuf, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (errbuf != NULL && errlen > 0) {
        va_start(ap, fmt);
        vsnprintf(errbuf, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

static const char *err_text(int err, char *buf, size_t n)
{
    /* GNU strerror_r: thread-safe, returns the message. */
    return strerror_r(err, buf, n);
}

const char *rcuprof_placement_kind_name(enum rcuprof_placement_kind kind)
{
    switch (kind) {
    case RCUPROF_PLACEMENT_NONE:
        return "none";
    case RCUPROF_PLACEMENT_COMPACT:
        return "compact";
    case RCUPROF_PLACEMENT_SCATTER:
        return "scatter";
    case RCUPROF_PLACEMENT_CORE:
        return "core";
    case RCUPROF_PLACEMENT_PACKAGE:
        return "package";
    case RCUPROF_PLACEMENT_L3:
        return "l3";
    case RCUPROF_PLACEMENT_CPUS:
        return "cpus";
    }
    return "?";
}

/* ---------------------------------------------------------------------- */
/* Topology and allowed set                                               */

int rcuprof_placement_topology_load(enum rcuprof_placement_source src,
                                    const char *arg, hwloc_topology_t *out,
                                    char *errbuf, size_t errlen)
{
    hwloc_topology_t t;
    char eb[128];

    *out = NULL;
    if (src != RCUPROF_PLACEMENT_SRC_SYSTEM && (arg == NULL || *arg == '\0'))
        return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                    "topology: %s source needs a %s",
                    src == RCUPROF_PLACEMENT_SRC_XML ? "XML" : "synthetic",
                    src == RCUPROF_PLACEMENT_SRC_XML ? "file name"
                                                     : "description");
    if (hwloc_topology_init(&t) != 0)
        return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                    "topology: hwloc_topology_init failed: %s",
                    err_text(errno, eb, sizeof(eb)));
    switch (src) {
    case RCUPROF_PLACEMENT_SRC_SYSTEM:
        break;
    case RCUPROF_PLACEMENT_SRC_XML:
        if (hwloc_topology_set_xml(t, arg) != 0) {
            int e = errno;

            hwloc_topology_destroy(t);
            return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                        "topology: cannot read XML file '%s': %s", arg,
                        err_text(e, eb, sizeof(eb)));
        }
        break;
    case RCUPROF_PLACEMENT_SRC_SYNTHETIC:
        if (hwloc_topology_set_synthetic(t, arg) != 0) {
            hwloc_topology_destroy(t);
            return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                        "topology: invalid synthetic description '%s'", arg);
        }
        break;
    }
    if (hwloc_topology_load(t) != 0) {
        int e = errno;

        hwloc_topology_destroy(t);
        if (src == RCUPROF_PLACEMENT_SRC_SYSTEM)
            return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                        "topology: cannot load this machine's topology: %s",
                        err_text(e, eb, sizeof(eb)));
        return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                    "topology: cannot load %s '%s': %s",
                    src == RCUPROF_PLACEMENT_SRC_XML ? "XML file"
                                                     : "synthetic topology",
                    arg, err_text(e, eb, sizeof(eb)));
    }
    *out = t;
    return RCUPROF_PLACEMENT_OK;
}

int rcuprof_placement_allowed_get(hwloc_bitmap_t *out,
                                  char *errbuf, size_t errlen)
{
    hwloc_bitmap_t bm;
    cpu_set_t *set = NULL;
    size_t size = 0, i;
    int ncpu;
    char eb[128];

    *out = NULL;
    for (ncpu = 1024; ncpu <= (1 << 22); ncpu *= 2) {
        set = CPU_ALLOC(ncpu);
        if (set == NULL)
            return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                        "allowed CPUs: out of memory");
        size = CPU_ALLOC_SIZE(ncpu);
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) == 0)
            break;
        CPU_FREE(set);
        set = NULL;
        if (errno != EINVAL)
            break;
    }
    if (set == NULL)
        return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                    "allowed CPUs: sched_getaffinity failed: %s",
                    err_text(errno, eb, sizeof(eb)));
    bm = hwloc_bitmap_alloc();
    if (bm == NULL) {
        CPU_FREE(set);
        return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                    "allowed CPUs: out of memory");
    }
    for (i = 0; i < size * 8; i++)
        if (CPU_ISSET_S(i, size, set))
            hwloc_bitmap_set(bm, (unsigned)i);
    CPU_FREE(set);
    *out = bm;
    return RCUPROF_PLACEMENT_OK;
}

/* ---------------------------------------------------------------------- */
/* Policy strings                                                         */

/* Decimal digits only, at least one, value <= max. */
static int parse_uint(const char *s, const char **end, unsigned long max,
                      unsigned long *val)
{
    unsigned long v = 0;
    const char *p = s;

    if (*p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9') {
        if (v > (ULONG_MAX - 9) / 10)
            v = ULONG_MAX;      /* saturate; caught by max below */
        else
            v = v * 10 + (unsigned long)(*p - '0');
        p++;
    }
    *end = p;
    *val = v;
    return v <= max ? 1 : 2;
}

static int parse_index(const char *text, const char *name, const char *s,
                       unsigned *index, char *errbuf, size_t errlen)
{
    const char *end;
    unsigned long v;
    int r;

    if (*s == '\0')
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "placement '%s': %s needs an index, e.g. %s:0",
                    text, name, name);
    r = parse_uint(s, &end, INT_MAX, &v);
    if (r == 0 || *end != '\0')
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "placement '%s': %s index must be a non-negative "
                    "number", text, name);
    if (r == 2)
        return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                    "placement '%s': %s index is too large", text, name);
    *index = (unsigned)v;
    return RCUPROF_PLACEMENT_OK;
}

static int list_push(struct rcuprof_placement_policy *p, size_t *cap, int v)
{
    int *n;

    if (p->ncpus == *cap) {
        *cap = *cap == 0 ? 16 : *cap * 2;
        n = realloc(p->cpus, *cap * sizeof(*n));
        if (n == NULL)
            return 0;
        p->cpus = n;
    }
    p->cpus[p->ncpus++] = v;
    return 1;
}

/* Cap on the expanded length of a cpus: list (duplicates count). */
#define MAX_LIST_LEN (4 * (RCUPROF_PLACEMENT_MAX_CPU + 1))

static int parse_list(const char *text, const char *s,
                      struct rcuprof_placement_policy *p,
                      char *errbuf, size_t errlen)
{
    size_t cap = 0;
    unsigned long a, b, v;
    const char *end;
    int r;

    if (*s == '\0')
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "placement '%s': empty CPU list (e.g. cpus:0,2,4-7)",
                    text);
    for (;;) {
        r = parse_uint(s, &end, RCUPROF_PLACEMENT_MAX_CPU, &a);
        if (r == 0 && *s == '\0')
            return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                        "placement '%s': CPU list ends with a comma", text);
        if (r == 0)
            return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                        "placement '%s': expected a CPU number at '%s'",
                        text, s);
        if (r == 2)
            return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                        "placement '%s': CPU %.*s is above the limit %d",
                        text, (int)(end - s), s, RCUPROF_PLACEMENT_MAX_CPU);
        b = a;
        s = end;
        if (*s == '-') {
            r = parse_uint(s + 1, &end, RCUPROF_PLACEMENT_MAX_CPU, &b);
            if (r == 0)
                return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                            "placement '%s': range %lu- has no end", text,
                            a);
            if (r == 2)
                return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                            "placement '%s': CPU %.*s is above the limit "
                            "%d", text, (int)(end - s - 1), s + 1,
                            RCUPROF_PLACEMENT_MAX_CPU);
            if (b < a)
                return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                            "placement '%s': range %lu-%lu is reversed",
                            text, a, b);
            s = end;
        }
        if (p->ncpus + (b - a + 1) > MAX_LIST_LEN)
            return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                        "placement '%s': CPU list longer than %d entries",
                        text, MAX_LIST_LEN);
        for (v = a; v <= b; v++)
            if (!list_push(p, &cap, (int)v))
                return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                            "placement '%s': out of memory", text);
        if (*s == '\0')
            return RCUPROF_PLACEMENT_OK;
        if (*s != ',')
            return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                        "placement '%s': unexpected '%c' in CPU list "
                        "(use numbers, ranges a-b and commas)", text, *s);
        s++;
    }
}

int rcuprof_placement_policy_parse(const char *text,
                                   struct rcuprof_placement_policy *out,
                                   char *errbuf, size_t errlen)
{
    static const struct {
        const char *name;
        enum rcuprof_placement_kind kind;
    } plain[] = {
        { "none", RCUPROF_PLACEMENT_NONE },
        { "compact", RCUPROF_PLACEMENT_COMPACT },
        { "scatter", RCUPROF_PLACEMENT_SCATTER },
        { "core", RCUPROF_PLACEMENT_CORE },
    };
    size_t i;
    int rc;

    memset(out, 0, sizeof(*out));
    if (text == NULL || *text == '\0')
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "empty placement policy (expected " POLICY_HELP ")");
    for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
        if (strcmp(text, plain[i].name) == 0) {
            out->kind = plain[i].kind;
            return RCUPROF_PLACEMENT_OK;
        }
    if (strncmp(text, "package:", 8) == 0) {
        out->kind = RCUPROF_PLACEMENT_PACKAGE;
        return parse_index(text, "package", text + 8, &out->index,
                           errbuf, errlen);
    }
    if (strncmp(text, "l3:", 3) == 0) {
        out->kind = RCUPROF_PLACEMENT_L3;
        return parse_index(text, "l3", text + 3, &out->index,
                           errbuf, errlen);
    }
    if (strncmp(text, "cpus:", 5) == 0) {
        out->kind = RCUPROF_PLACEMENT_CPUS;
        rc = parse_list(text, text + 5, out, errbuf, errlen);
        if (rc != RCUPROF_PLACEMENT_OK)
            rcuprof_placement_policy_clear(out);
        return rc;
    }
    if (strcmp(text, "package") == 0 || strcmp(text, "l3") == 0)
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "placement '%s' needs an index, e.g. %s:0", text, text);
    if (strcmp(text, "cpus") == 0)
        return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                    "placement 'cpus' needs a list, e.g. cpus:0,2,4-7");
    return fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                "unknown placement policy '%s' (expected " POLICY_HELP ")",
                text);
}

void rcuprof_placement_policy_clear(struct rcuprof_placement_policy *p)
{
    if (p == NULL)
        return;
    free(p->cpus);
    memset(p, 0, sizeof(*p));
}

/* "cpus:0,2,4-7" from the list, consecutive ascending runs as ranges. */
static char *policy_string(const struct rcuprof_placement_policy *pol)
{
    char *s, *n;
    size_t len, cap, i, j;
    int w;

    if (pol->kind == RCUPROF_PLACEMENT_PACKAGE
        || pol->kind == RCUPROF_PLACEMENT_L3) {
        s = malloc(32);
        if (s != NULL)
            snprintf(s, 32, "%s:%u", rcuprof_placement_kind_name(pol->kind),
                     pol->index);
        return s;
    }
    if (pol->kind != RCUPROF_PLACEMENT_CPUS)
        return strdup(rcuprof_placement_kind_name(pol->kind));
    cap = 64;
    s = malloc(cap);
    if (s == NULL)
        return NULL;
    len = (size_t)snprintf(s, cap, "cpus:");
    for (i = 0; i < pol->ncpus; i = j + 1) {
        for (j = i; j + 1 < pol->ncpus && pol->cpus[j + 1] == pol->cpus[j] + 1;
             j++)
            continue;
        if (cap - len < 32) {
            cap *= 2;
            n = realloc(s, cap);
            if (n == NULL) {
                free(s);
                return NULL;
            }
            s = n;
        }
        if (j == i)
            w = snprintf(s + len, cap - len, "%s%d", i ? "," : "",
                         pol->cpus[i]);
        else if (j == i + 1)
            w = snprintf(s + len, cap - len, "%s%d,%d", i ? "," : "",
                         pol->cpus[i], pol->cpus[j]);
        else
            w = snprintf(s + len, cap - len, "%s%d-%d", i ? "," : "",
                         pol->cpus[i], pol->cpus[j]);
        len += (size_t)w;
    }
    return s;
}

/* ---------------------------------------------------------------------- */
/* Plans                                                                  */

static hwloc_obj_t core_of(hwloc_topology_t topo, hwloc_obj_t pu)
{
    return hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
}

static void describe(hwloc_topology_t topo, hwloc_obj_t pu,
                     struct rcuprof_placement_thread *t)
{
    hwloc_obj_t o, core;
    int rank = 0;

    t->cpu = (int)pu->os_index;
    t->pu = (int)pu->logical_index;
    o = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
    t->package = o != NULL ? (int)o->logical_index : -1;
    o = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L3CACHE, pu);
    t->l3 = o != NULL ? (int)o->logical_index : -1;
    core = core_of(topo, pu);
    t->core = core != NULL ? (int)core->logical_index : -1;
    t->smt = -1;
    if (core != NULL) {
        o = NULL;
        while ((o = hwloc_get_next_obj_inside_cpuset_by_type(topo,
                        core->cpuset, HWLOC_OBJ_PU, o)) != NULL) {
            if (o == pu) {
                t->smt = rank;
                break;
            }
            rank++;
        }
    }
}

/* Number of objects of a type, 0 when absent (or at several depths). */
static int count_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);

    return n < 0 ? 0 : n;
}

/*
 * Round-robin over the contiguous runs of equal key in items[0..n): the
 * first of every run, then the second of every run, ...  Result in out.
 */
static void interleave(hwloc_obj_t *items, const int *keys, size_t n,
                       hwloc_obj_t *out, size_t *starts)
{
    size_t nruns = 0, i, k, o = 0, len;
    int more = 1;

    for (i = 0; i < n; i++)
        if (i == 0 || keys[i] != keys[i - 1])
            starts[nruns++] = i;
    starts[nruns] = n;
    for (k = 0; more; k++) {
        more = 0;
        for (i = 0; i < nruns; i++) {
            len = starts[i + 1] - starts[i];
            if (k < len) {
                out[o++] = items[starts[i] + k];
                if (k + 1 < len)
                    more = 1;
            }
        }
    }
}

static int ancestor_index(hwloc_topology_t topo, hwloc_obj_type_t type,
                          hwloc_obj_t pu)
{
    hwloc_obj_t o = hwloc_get_ancestor_obj_by_type(topo, type, pu);

    return o != NULL ? (int)o->logical_index : -1;
}

/*
 * Scatter: round s holds the s-th usable PU of every core; within a round,
 * L3 domains of a package alternate, then packages alternate.
 */
static int build_scatter(hwloc_topology_t topo, hwloc_obj_t *cand, size_t n,
                         hwloc_obj_t *seq)
{
    hwloc_obj_t *round = NULL, *tmp = NULL, core, prev_core = NULL;
    int *rank = NULL, *keys = NULL;
    size_t *starts = NULL, i, j, m, pstart, out = 0;
    int s, maxrank = 0, r = 0;

    round = malloc(n * sizeof(*round));
    tmp = malloc(n * sizeof(*tmp));
    rank = malloc(n * sizeof(*rank));
    keys = malloc(n * sizeof(*keys));
    starts = malloc((n + 1) * sizeof(*starts));
    if (round == NULL || tmp == NULL || rank == NULL || keys == NULL
        || starts == NULL)
        goto end;

    /* cand is in logical order: a core's PUs are consecutive. */
    for (i = 0; i < n; i++) {
        core = core_of(topo, cand[i]);
        if (core == NULL || core != prev_core)
            r = 0;
        else
            r++;
        prev_core = core;
        rank[i] = r;
        if (r > maxrank)
            maxrank = r;
    }
    for (s = 0; s <= maxrank; s++) {
        for (i = 0, m = 0; i < n; i++)
            if (rank[i] == s)
                round[m++] = cand[i];
        /* Interleave L3 domains inside each package run, in place. */
        for (pstart = 0; pstart < m; pstart = j) {
            int pkg = ancestor_index(topo, HWLOC_OBJ_PACKAGE, round[pstart]);

            for (j = pstart; j < m
                 && ancestor_index(topo, HWLOC_OBJ_PACKAGE, round[j]) == pkg;
                 j++)
                keys[j - pstart] = ancestor_index(topo, HWLOC_OBJ_L3CACHE,
                                                  round[j]);
            interleave(round + pstart, keys, j - pstart, tmp, starts);
            memcpy(round + pstart, tmp, (j - pstart) * sizeof(*tmp));
        }
        /* Then interleave the packages. */
        for (i = 0; i < m; i++)
            keys[i] = ancestor_index(topo, HWLOC_OBJ_PACKAGE, round[i]);
        interleave(round, keys, m, seq + out, starts);
        out += m;
    }
 end:
    free(round);
    free(tmp);
    free(rank);
    free(keys);
    free(starts);
    return out == n;
}

/* The object package:N or l3:N names, with a message if there is none. */
static int domain_object(hwloc_topology_t topo,
                         const struct rcuprof_placement_policy *pol,
                         const char *policy, hwloc_obj_t *obj,
                         char *errbuf, size_t errlen)
{
    hwloc_obj_type_t type = pol->kind == RCUPROF_PLACEMENT_PACKAGE
                            ? HWLOC_OBJ_PACKAGE : HWLOC_OBJ_L3CACHE;
    const char *what = pol->kind == RCUPROF_PLACEMENT_PACKAGE
                       ? "package" : "L3 domain";
    int n = count_type(topo, type);

    if (n == 0)
        return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                    "placement '%s': this topology has no %s level",
                    policy, what);
    if (pol->index >= (unsigned)n)
        return fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                    "placement '%s': no %s %u (this topology has %d, "
                    "numbered 0 to %d)", policy, what, pol->index, n,
                    n - 1);
    *obj = hwloc_get_obj_by_type(topo, type, pol->index);
    return RCUPROF_PLACEMENT_OK;
}

int rcuprof_placement_plan_build(hwloc_topology_t topo,
                                 hwloc_const_bitmap_t allowed,
                                 const struct rcuprof_placement_policy *pol,
                                 unsigned nthreads,
                                 struct rcuprof_placement_plan **out,
                                 char *errbuf, size_t errlen)
{
    struct rcuprof_placement_plan *plan = NULL;
    hwloc_bitmap_t usable = NULL;
    hwloc_obj_t *cand = NULL, *seq = NULL, obj, core, last_core = NULL;
    unsigned *per_pu = NULL;
    char topo_list[256], *policy = NULL;
    size_t ncand = 0, nseq = 0, cap;
    unsigned i;
    int npus, k, rc = RCUPROF_PLACEMENT_ERR_SYSTEM;

    *out = NULL;
    if (nthreads == 0)
        return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                    "placement: the thread count must be at least 1");
    policy = policy_string(pol);
    plan = calloc(1, sizeof(*plan));
    usable = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo));
    npus = count_type(topo, HWLOC_OBJ_PU);
    cap = (size_t)npus + pol->ncpus + 1;
    cand = calloc(cap, sizeof(*cand));
    seq = calloc(cap, sizeof(*seq));
    per_pu = calloc((size_t)npus + 1, sizeof(*per_pu));
    if (policy == NULL || plan == NULL || usable == NULL || cand == NULL
        || seq == NULL || per_pu == NULL) {
        fail(rc, errbuf, errlen, "placement: out of memory");
        goto err;
    }
    plan->policy = policy;
    policy = NULL;
    plan->kind = pol->kind;
    plan->nthreads = nthreads;
    hwloc_bitmap_and(usable, usable,
                     allowed != NULL ? allowed
                     : hwloc_topology_get_allowed_cpuset(topo));

    plan->topo.packages = count_type(topo, HWLOC_OBJ_PACKAGE);
    plan->topo.l3_domains = count_type(topo, HWLOC_OBJ_L3CACHE);
    plan->topo.cores = count_type(topo, HWLOC_OBJ_CORE);
    plan->topo.pus = npus;
    plan->topo.allowed_pus = hwloc_bitmap_weight(usable);
    plan->topo.this_system = hwloc_topology_is_thissystem(topo);
    hwloc_bitmap_list_snprintf(plan->topo.allowed,
                               sizeof(plan->topo.allowed), usable);
    hwloc_bitmap_list_snprintf(topo_list, sizeof(topo_list),
                               hwloc_topology_get_topology_cpuset(topo));

    /* Usable PUs in logical (compact) order. */
    for (k = 0; k < npus; k++) {
        obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)k);
        if (hwloc_bitmap_isset(usable, obj->os_index))
            cand[ncand++] = obj;
    }
    if (ncand == 0) {
        rc = fail(RCUPROF_PLACEMENT_ERR_NOTALLOWED, errbuf, errlen,
                  "placement '%s': no CPU of this topology (%s) is in the "
                  "allowed set", plan->policy, topo_list);
        goto err;
    }

    switch (pol->kind) {
    case RCUPROF_PLACEMENT_NONE:
        break;
    case RCUPROF_PLACEMENT_COMPACT:
        memcpy(seq, cand, ncand * sizeof(*seq));
        nseq = ncand;
        break;
    case RCUPROF_PLACEMENT_SCATTER:
        if (!build_scatter(topo, cand, ncand, seq)) {
            fail(rc, errbuf, errlen, "placement: out of memory");
            goto err;
        }
        nseq = ncand;
        break;
    case RCUPROF_PLACEMENT_CORE:
        for (i = 0; i < ncand; i++) {
            core = core_of(topo, cand[i]);
            if (core == NULL || core != last_core)
                seq[nseq++] = cand[i];
            last_core = core;
        }
        break;
    case RCUPROF_PLACEMENT_PACKAGE:
    case RCUPROF_PLACEMENT_L3:
        rc = domain_object(topo, pol, plan->policy, &obj, errbuf, errlen);
        if (rc != RCUPROF_PLACEMENT_OK)
            goto err;
        for (i = 0; i < ncand; i++)
            if (hwloc_bitmap_isset(obj->cpuset, cand[i]->os_index))
                seq[nseq++] = cand[i];
        if (nseq == 0) {
            char own[256];

            hwloc_bitmap_list_snprintf(own, sizeof(own), obj->cpuset);
            rc = fail(RCUPROF_PLACEMENT_ERR_NOTALLOWED, errbuf, errlen,
                      "placement '%s': none of its CPUs (%s) is in the "
                      "allowed set (%s)", plan->policy, own,
                      plan->topo.allowed);
            goto err;
        }
        break;
    case RCUPROF_PLACEMENT_CPUS:
        if (pol->ncpus == 0) {
            rc = fail(RCUPROF_PLACEMENT_ERR_SYNTAX, errbuf, errlen,
                      "placement 'cpus:': empty CPU list");
            goto err;
        }
        for (i = 0; i < pol->ncpus; i++) {
            obj = hwloc_get_pu_obj_by_os_index(topo,
                                               (unsigned)pol->cpus[i]);
            if (obj == NULL) {
                rc = fail(RCUPROF_PLACEMENT_ERR_RANGE, errbuf, errlen,
                          "placement '%s': CPU %d is not in this topology "
                          "(CPUs %s)", plan->policy, pol->cpus[i],
                          topo_list);
                goto err;
            }
            if (!hwloc_bitmap_isset(usable, obj->os_index)) {
                rc = fail(RCUPROF_PLACEMENT_ERR_NOTALLOWED, errbuf, errlen,
                          "placement '%s': CPU %d is not in the allowed "
                          "set (%s)", plan->policy, pol->cpus[i],
                          plan->topo.allowed);
                goto err;
            }
            seq[nseq++] = obj;
        }
        break;
    }

    plan->threads = calloc(nthreads, sizeof(*plan->threads));
    if (plan->threads == NULL) {
        rc = fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                  "placement: out of memory for %u threads", nthreads);
        goto err;
    }
    for (i = 0; i < nthreads; i++) {
        struct rcuprof_placement_thread *t = &plan->threads[i];

        if (nseq == 0) {
            t->cpu = t->pu = t->package = t->l3 = t->core = t->smt = -1;
            t->round = -1;
            continue;
        }
        obj = seq[i % nseq];
        describe(topo, obj, t);
        t->round = (int)(i / nseq);
        if (++per_pu[obj->logical_index] > plan->max_per_cpu)
            plan->max_per_cpu = per_pu[obj->logical_index];
    }
    plan->slots = (unsigned)nseq;
    if (nseq == 0) {
        plan->rounds = 1;
        plan->oversubscribed = nthreads > (unsigned)plan->topo.allowed_pus;
    } else {
        plan->rounds = (unsigned)((nthreads + nseq - 1) / nseq);
        plan->oversubscribed = plan->max_per_cpu > 1;
    }
    rc = RCUPROF_PLACEMENT_OK;
    *out = plan;
    plan = NULL;

 err:
    rcuprof_placement_plan_free(plan);
    free(policy);
    hwloc_bitmap_free(usable);
    free(cand);
    free(seq);
    free(per_pu);
    return rc;
}

int rcuprof_placement_plan_from_string(hwloc_topology_t topo,
                                       hwloc_const_bitmap_t allowed,
                                       const char *policy, unsigned nthreads,
                                       struct rcuprof_placement_plan **out,
                                       char *errbuf, size_t errlen)
{
    struct rcuprof_placement_policy pol;
    int rc;

    *out = NULL;
    rc = rcuprof_placement_policy_parse(policy, &pol, errbuf, errlen);
    if (rc != RCUPROF_PLACEMENT_OK)
        return rc;
    rc = rcuprof_placement_plan_build(topo, allowed, &pol, nthreads, out,
                                      errbuf, errlen);
    rcuprof_placement_policy_clear(&pol);
    return rc;
}

void rcuprof_placement_plan_free(struct rcuprof_placement_plan *plan)
{
    if (plan == NULL)
        return;
    free(plan->policy);
    free(plan->threads);
    free(plan);
}

/* ---------------------------------------------------------------------- */
/* JSON                                                                   */

static json_t *int_or_null(int v)
{
    return v < 0 ? json_null() : json_integer(v);
}

json_t *rcuprof_placement_plan_to_json(const struct rcuprof_placement_plan
                                       *plan)
{
    json_t *root, *cpus, *placement, *topo, *t;
    unsigned i;
    int bad = 0;

    root = json_object();
    cpus = json_array();
    placement = json_array();
    topo = json_pack("{s:i, s:i, s:i, s:i, s:i, s:s, s:b}",
                     "packages", plan->topo.packages,
                     "l3_domains", plan->topo.l3_domains,
                     "cores", plan->topo.cores,
                     "pus", plan->topo.pus,
                     "allowed_pus", plan->topo.allowed_pus,
                     "allowed", plan->topo.allowed,
                     "this_system", plan->topo.this_system);
    if (root == NULL || cpus == NULL || placement == NULL || topo == NULL)
        goto err;
    for (i = 0; i < plan->nthreads && !bad; i++) {
        const struct rcuprof_placement_thread *p = &plan->threads[i];

        bad |= json_array_append_new(cpus, int_or_null(p->cpu));
        t = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                      "thread", (json_int_t)i,
                      "cpu", int_or_null(p->cpu),
                      "pu", int_or_null(p->pu),
                      "package", int_or_null(p->package),
                      "l3", int_or_null(p->l3),
                      "core", int_or_null(p->core),
                      "smt", int_or_null(p->smt),
                      "round", int_or_null(p->round));
        bad |= json_array_append_new(placement, t);
    }
    if (bad)
        goto err;
    if (json_object_set_new(root, "policy", json_string(plan->policy))
        || json_object_set_new(root, "kind",
                               json_string(rcuprof_placement_kind_name(
                                               plan->kind)))
        || json_object_set_new(root, "threads",
                               json_integer(plan->nthreads))
        || json_object_set_new(root, "slots", json_integer(plan->slots))
        || json_object_set_new(root, "rounds", json_integer(plan->rounds))
        || json_object_set_new(root, "max_threads_per_cpu",
                               json_integer(plan->max_per_cpu))
        || json_object_set_new(root, "oversubscribed",
                               json_boolean(plan->oversubscribed)))
        goto err;
    /* set_new takes the reference even when it fails. */
    bad |= json_object_set_new(root, "topology", topo);
    bad |= json_object_set_new(root, "cpus", cpus);
    bad |= json_object_set_new(root, "placement", placement);
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;

 err:
    json_decref(root);
    json_decref(cpus);
    json_decref(placement);
    json_decref(topo);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Pinning                                                                */

int rcuprof_placement_pin_self(int cpu, char *errbuf, size_t errlen)
{
    cpu_set_t *set;
    size_t size;
    char eb[128];
    int rc;

    if (cpu == -1)
        return RCUPROF_PLACEMENT_OK;
    if (cpu < 0 || cpu > RCUPROF_PLACEMENT_MAX_CPU)
        return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                    "pin: CPU %d is out of range", cpu);
    set = CPU_ALLOC(cpu + 1);
    if (set == NULL)
        return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                    "pin: out of memory");
    size = CPU_ALLOC_SIZE(cpu + 1);
    CPU_ZERO_S(size, set);
    CPU_SET_S((size_t)cpu, size, set);
    rc = pthread_setaffinity_np(pthread_self(), size, set);
    CPU_FREE(set);
    if (rc != 0)
        return fail(RCUPROF_PLACEMENT_ERR_SYSTEM, errbuf, errlen,
                    "pin: cannot pin thread to CPU %d: %s%s", cpu,
                    err_text(rc, eb, sizeof(eb)),
                    rc == EINVAL ? " (CPU offline or outside this "
                                   "process's cpuset)" : "");
    return RCUPROF_PLACEMENT_OK;
}

int rcuprof_placement_pin_thread(const struct rcuprof_placement_plan *plan,
                                 unsigned idx, char *errbuf, size_t errlen)
{
    int rc;

    if (idx >= plan->nthreads)
        return fail(RCUPROF_PLACEMENT_ERR_ARG, errbuf, errlen,
                    "pin: thread %u is not in the plan (%u threads)", idx,
                    plan->nthreads);
    rc = rcuprof_placement_pin_self(plan->threads[idx].cpu, errbuf, errlen);
    if (rc != RCUPROF_PLACEMENT_OK && errbuf != NULL && errlen > 0) {
        char tmp[256];

        snprintf(tmp, sizeof(tmp), "%s", errbuf);
        snprintf(errbuf, errlen, "thread %u (placement %s): %s", idx,
                 plan->policy, tmp);
    }
    return rc;
}
