/*
 * rcuprof placement planner: where each worker thread runs.
 *
 * A policy string names a placement; a plan maps it onto a topology (hwloc)
 * and the CPUs this process may use, for a given thread count.  Workers pin
 * themselves from the plan on their own thread, after creation and before
 * the start barrier.
 *
 * Policies (likwid-pin style; indexes are hwloc logical indexes, CPUs are
 * OS indexes as the kernel numbers them):
 *
 *   none         unpinned: every thread gets CPU -1 and the scheduler decides.
 *   compact      fill the SMT siblings of a core first, then the next core of
 *                the same L3 domain, then the next L3 domain, then the next
 *                package (hwloc's logical PU order).
 *   scatter      one thread per core before any SMT sibling; within each
 *                such round, alternate across packages first and, inside a
 *                package, across its L3 domains; cores in compact order.
 *   core         one thread per physical core, on the first allowed PU of
 *                each core, cores in compact order.
 *   package:N    only the PUs of package N, compact within it.
 *   l3:N         only the PUs under L3 cache domain N, compact within it.
 *   cpus:LIST    exactly the CPUs of LIST, in that order, e.g. 0,2,4-7.
 *                A CPU may be listed twice (deliberate sharing).
 *
 * Only CPUs that are both in the topology and in the allowed set
 * (sched_getaffinity) are used.  When a policy yields fewer CPUs than
 * threads, threads wrap around: thread i gets CPU seq[i % len].  This holds
 * for "core" too: with more threads than cores the second round reuses the
 * first PU of each core again (not its SMT sibling), so "core" never places
 * two threads on siblings of one core.  A plan is "oversubscribed" when some
 * CPU receives more than one thread; for "none", when there are more threads
 * than allowed CPUs.
 *
 * Errors: every function that can fail returns one of the codes below and
 * writes a one-line message (no trailing newline) into errbuf.
 *
 * Use from a driver: on the main thread, before creating workers,
 *     rcuprof_placement_topology_load(RCUPROF_PLACEMENT_SRC_SYSTEM, NULL, ..)
 *     rcuprof_placement_allowed_get(&allowed, ..)
 *     rcuprof_placement_plan_from_string(topo, allowed, "--pin value",
 *                                        threads, &plan, ..)
 * then on each worker, first thing, before any per-thread set-up:
 *     rcuprof_placement_pin_thread(plan, worker_id, err, sizeof(err))
 * and rcuprof_placement_plan_to_json(plan) for the result file.  The plan
 * is read-only once built, so workers may share it.
 */
#ifndef RCUPROF_PLACEMENT_H
# define RCUPROF_PLACEMENT_H

# include <stddef.h>
# include <hwloc.h>
# include <jansson.h>

# define RCUPROF_PLACEMENT_OK             0
# define RCUPROF_PLACEMENT_ERR_SYNTAX     1  /* policy string malformed */
# define RCUPROF_PLACEMENT_ERR_RANGE      2  /* N or CPU not in topology */
# define RCUPROF_PLACEMENT_ERR_NOTALLOWED 3  /* CPU(s) outside allowed set */
# define RCUPROF_PLACEMENT_ERR_ARG        4  /* bad argument (0 threads) */
# define RCUPROF_PLACEMENT_ERR_SYSTEM     5  /* hwloc, memory, syscall */

/* Highest CPU OS index a cpus: list may name. */
# define RCUPROF_PLACEMENT_MAX_CPU        65535

enum rcuprof_placement_kind {
    RCUPROF_PLACEMENT_NONE,
    RCUPROF_PLACEMENT_COMPACT,
    RCUPROF_PLACEMENT_SCATTER,
    RCUPROF_PLACEMENT_CORE,
    RCUPROF_PLACEMENT_PACKAGE,
    RCUPROF_PLACEMENT_L3,
    RCUPROF_PLACEMENT_CPUS
};

/* A parsed policy string; topology-independent until a plan is built. */
struct rcuprof_placement_policy {
    enum rcuprof_placement_kind kind;
    unsigned index;             /* package:N, l3:N */
    int *cpus;                  /* cpus:LIST, in order */
    size_t ncpus;
};

/*
 * Where one thread goes.  All members are -1 for an unpinned thread, and a
 * member is -1 when the topology has no such object (e.g. no L3).
 * package, l3 and core are hwloc logical indexes; smt is the PU's rank
 * among the PUs of its core (0 = first sibling); round is the wrap-around
 * pass this thread belongs to (0 = first).
 */
struct rcuprof_placement_thread {
    int cpu;                    /* OS index to pin to, -1 = unpinned */
    int pu;                     /* PU logical index */
    int package;
    int l3;
    int core;
    int smt;
    int round;
};

/* What the topology looked like when the plan was made. */
struct rcuprof_placement_topo_summary {
    int packages;               /* 0 when the topology has no such level */
    int l3_domains;
    int cores;
    int pus;
    int allowed_pus;            /* usable: in topology and allowed set */
    int this_system;            /* loaded from this machine, not XML/synth */
    char allowed[256];          /* allowed CPUs as a list, e.g. "0-3,8" */
};

struct rcuprof_placement_plan {
    char *policy;               /* canonical policy string, lists as ranges */
    enum rcuprof_placement_kind kind;
    unsigned nthreads;
    unsigned slots;             /* length of one round of the sequence */
    unsigned rounds;            /* passes over the sequence (1 = no wrap) */
    unsigned max_per_cpu;       /* most threads given one CPU (0 if none) */
    int oversubscribed;
    struct rcuprof_placement_topo_summary topo;
    struct rcuprof_placement_thread *threads;  /* nthreads entries */
};

enum rcuprof_placement_source {
    RCUPROF_PLACEMENT_SRC_SYSTEM,      /* arg ignored */
    RCUPROF_PLACEMENT_SRC_XML,         /* arg = path of an hwloc XML file */
    RCUPROF_PLACEMENT_SRC_SYNTHETIC    /* arg = "package:2 core:10 pu:2" */
};

/*
 * Load a topology.  The caller owns *out and releases it with
 * hwloc_topology_destroy().
 */
int rcuprof_placement_topology_load(enum rcuprof_placement_source src,
                                    const char *arg, hwloc_topology_t *out,
                                    char *errbuf, size_t errlen);

/*
 * The calling thread's CPU affinity (sched_getaffinity) as an hwloc bitmap.
 * Call it from the main thread before any worker is pinned.  The caller
 * frees *out with hwloc_bitmap_free().
 */
int rcuprof_placement_allowed_get(hwloc_bitmap_t *out,
                                  char *errbuf, size_t errlen);

/*
 * Parse a policy string.  Only syntax (and CPU indexes above
 * RCUPROF_PLACEMENT_MAX_CPU) is checked here; the topology is checked when
 * the plan is built.  Release with rcuprof_placement_policy_clear().
 */
int rcuprof_placement_policy_parse(const char *text,
                                   struct rcuprof_placement_policy *out,
                                   char *errbuf, size_t errlen);
void rcuprof_placement_policy_clear(struct rcuprof_placement_policy *p);

/*
 * Build the plan for nthreads threads (>= 1).  allowed may be NULL, meaning
 * the topology's own allowed set (what a synthetic or XML topology
 * declares).  Fails when package:N / l3:N names an object the topology does
 * not have, when a listed CPU is not in the topology or not allowed, and
 * when a policy leaves no allowed CPU.  Free with
 * rcuprof_placement_plan_free().
 */
int rcuprof_placement_plan_build(hwloc_topology_t topo,
                                 hwloc_const_bitmap_t allowed,
                                 const struct rcuprof_placement_policy *pol,
                                 unsigned nthreads,
                                 struct rcuprof_placement_plan **out,
                                 char *errbuf, size_t errlen);

/* Parse and build in one step. */
int rcuprof_placement_plan_from_string(hwloc_topology_t topo,
                                       hwloc_const_bitmap_t allowed,
                                       const char *policy, unsigned nthreads,
                                       struct rcuprof_placement_plan **out,
                                       char *errbuf, size_t errlen);

void rcuprof_placement_plan_free(struct rcuprof_placement_plan *plan);

/*
 * The plan as JSON for the result file (a new reference):
 *   { "policy", "kind", "threads", "slots", "rounds", "max_threads_per_cpu",
 *     "oversubscribed", "cpus": [cpu|null per thread],
 *     "topology": { "packages", "l3_domains", "cores", "pus",
 *                   "allowed_pus", "allowed", "this_system" },
 *     "placement": [ { "thread", "cpu", "pu", "package", "l3", "core",
 *                      "smt", "round" }, ... ] }
 * with null for every -1.  Returns NULL only when out of memory.
 */
json_t *rcuprof_placement_plan_to_json(const struct rcuprof_placement_plan
                                       *plan);

/*
 * Pin the calling thread to one CPU (OS index).  cpu == -1 does nothing and
 * succeeds.  Thread scope only: other threads keep their affinity.
 */
int rcuprof_placement_pin_self(int cpu, char *errbuf, size_t errlen);

/* Pin the calling thread as the plan says for thread number idx. */
int rcuprof_placement_pin_thread(const struct rcuprof_placement_plan *plan,
                                 unsigned idx, char *errbuf, size_t errlen);

/* "none", "compact", ...: the policy kind's name. */
const char *rcuprof_placement_kind_name(enum rcuprof_placement_kind kind);

#endif
