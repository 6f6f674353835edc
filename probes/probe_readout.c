/*
 * rcuprof probe readout (see rcuprof_probe_readout.h and probes/README.md):
 * per-worker window counters of the in-library probe layer, their sum over
 * the workers, the whole process's totals (writers included), the store
 * lock's layout and the layer's own cost, as the `probes` member.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include "internal/cryptlib.h"
#include "internal/rcu.h"
#include "internal/rcuprof_probes.h"
#include "rcuprof_rcu_read.h"

#include "rcuprof_util.h"
#include "rcuprof_probe_readout.h"

struct rcuprof_probe_readout {
    struct rcuprof_tool tool;
    int on;
    int measured;                           /* a store is measured */
    unsigned k;
    unsigned nthreads;
    struct rcuprof_probes_counters *win;    /* one per worker */
    double cost_off_ns, cost_on_ns;         /* per read lock + unlock */
    OSSL_LIB_CTX *ctx;          /* the measured lib ctx (NULL: default) */
    int ctx_known;              /* 0: one the readout cannot see */
};

static const struct rcuprof_tool probe_readout_tool;

/*
 * Least time of 5 rounds of |n| read lock/unlock pairs, ns per pair; -1
 * when a read lock failed (3.6+: no per-thread data), as "not measured".
 */
static double pair_ns(CRYPTO_RCU_LOCK *l, unsigned n)
{
    double best = 1e30;
    unsigned r, i;

    for (r = 0; r < 5; r++) {
        uint64_t t0 = rcuprof_time_mono_ns();

        for (i = 0; i < n; i++) {
            if (!rcuprof_rcu_read_lock(l))
                return -1;
            ossl_rcu_read_unlock(l);
        }
        t0 = rcuprof_time_mono_ns() - t0;
        if ((double)t0 / n < best)
            best = (double)t0 / n;
    }
    return best;
}

int rcuprof_probe_readout_setup(struct rcuprof_probe_readout **out,
                                unsigned threads, int on, unsigned k,
                                char *errbuf, size_t n)
{
    struct rcuprof_probe_readout *p = calloc(1, sizeof(*p));
    CRYPTO_RCU_LOCK *l;

    *out = p;
    if (p != NULL)
        p->win = calloc(threads, sizeof(*p->win));
    if (p == NULL || p->win == NULL) {
        snprintf(errbuf, n, "probes: out of memory");
        return -1;
    }
    p->tool = probe_readout_tool;
    p->on = on;
    p->k = k;
    p->nthreads = threads;
    rcuprof_probes_set_sample_every(k);
    /*
     * The layer's own cost, on this (main) thread, on a private unnamed
     * lock: uncontended read lock + unlock with the probes off and on.  The
     * counts it makes are then forgotten (rcuprof_probes_forget_thread).
     */
    p->cost_off_ns = p->cost_on_ns = -1;
    if ((l = ossl_rcu_lock_new(1, NULL)) != NULL) {
        rcuprof_probes_enable(0);
        pair_ns(l, 2000);
        p->cost_off_ns = pair_ns(l, 20000);
        rcuprof_probes_enable(1);
        p->cost_on_ns = pair_ns(l, 20000);
        ossl_rcu_lock_free(l);
        rcuprof_probes_forget_thread();
    }
    rcuprof_probes_enable(on);
    return 0;
}

struct rcuprof_tool *rcuprof_probe_readout_tool(struct rcuprof_probe_readout *p)
{
    return &p->tool;
}

/* The measured lib ctx's EVP method store (NULL: one it cannot see). */
static void *measured_store(const struct rcuprof_probe_readout *p)
{
    if (!p->ctx_known)
        return NULL;
    return ossl_lib_ctx_get_data(p->ctx, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
}

/*
 * Called on the main thread before any worker or writer starts: from here
 * the measured store's events, and its lock's, count apart.
 */
void rcuprof_probe_readout_measures(struct rcuprof_probe_readout *p,
                                    struct ossl_lib_ctx_st *ctx, int known)
{
    void *store;

    p->ctx = ctx;
    p->ctx_known = known;
    store = measured_store(p);
    p->measured = store != NULL && rcuprof_probes_store_measure(store) == 0;
}

void rcuprof_probe_readout_free(struct rcuprof_probe_readout *p)
{
    if (p != NULL)
        free(p->win);
    free(p);
}

static struct rcuprof_probe_readout *readout_of(struct rcuprof_tool *tool)
{
    return rcuprof_container_of(tool, struct rcuprof_probe_readout, tool);
}

static void hook_window_start(struct rcuprof_tool *tool,
                              const struct rcuprof_run_view *run,
                              unsigned worker)
{
    if (readout_of(tool)->on)
        rcuprof_probes_reset();
}

static void hook_window_end(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run,
                            unsigned worker)
{
    struct rcuprof_probe_readout *p = readout_of(tool);

    if (p->on && worker < p->nthreads) {
        p->win[worker].size = sizeof(p->win[worker]);
        rcuprof_probes_read(&p->win[worker]);
    }
}

/* Upper bound of the bucket holding the q-quantile (log2 buckets). */
static json_t *hist_quantile(const uint64_t *h, double q)
{
    uint64_t tot = 0, acc = 0, want;
    unsigned i;

    for (i = 0; i < RCUPROF_PROBES_HIST; i++)
        tot += h[i];
    if (tot == 0)
        return json_null();
    want = (uint64_t)(q * (double)tot + 0.999999);
    if (want == 0)
        want = 1;
    for (i = 0; i < RCUPROF_PROBES_HIST; i++) {
        acc += h[i];
        if (acc >= want)
            break;
    }
    return json_integer(i >= 62 ? INT64_MAX : (json_int_t)((1ull << (i + 1)) - 1));
}

static json_t *hist_json(const uint64_t *h)
{
    json_t *b = json_object();
    unsigned i;
    char key[8];

    for (i = 0; i < RCUPROF_PROBES_HIST; i++) {
        if (h[i] == 0)
            continue;
        snprintf(key, sizeof(key), "%u", i);
        json_object_set_new(b, key, json_integer((json_int_t)h[i]));
    }
    return json_pack("{s:o, s:o, s:o, s:o}", "log2_buckets", b,
                     "p50", hist_quantile(h, 0.50), "p99", hist_quantile(h, 0.99),
                     "max_bucket", hist_quantile(h, 1.0));
}

static json_t *ratio(uint64_t a, uint64_t b, double scale)
{
    return b != 0 ? json_real((double)a * scale / (double)b) : json_null();
}

static json_t *rcu_json(const struct rcuprof_probes_rcu *r)
{
    json_t *j = json_object();

#define U(k) json_object_set_new(j, #k, json_integer((json_int_t)r->k))
    U(acquisitions); U(retries); U(max_retries); U(timed);
    U(acquire_ticks); U(lock_ticks);
    U(syncs); U(flips); U(spins); U(wait_ticks); U(max_wait_ticks);
    U(alloc_waits); U(alloc_wait_ticks); U(prior_waits); U(prior_wait_ticks);
    U(entry_waits); U(entry_wait_ticks); U(blocked_syncs);
    U(max_blocked_ticks); U(write_lock_waits); U(write_lock_wait_ticks);
#undef U
    json_object_set_new(j, "retries_per_acquisition",
                        ratio(r->retries, r->acquisitions, 1));
    json_object_set_new(j, "acquire_ticks_per_acquisition",
                        ratio(r->acquire_ticks, r->timed, 1));
    json_object_set_new(j, "lock_ticks_per_acquisition",
                        ratio(r->lock_ticks, r->timed, 1));
    json_object_set_new(j, "wait_ticks_per_sync",
                        ratio(r->wait_ticks, r->syncs, 1));
    json_object_set_new(j, "blocked_ticks_per_sync",
                        ratio(r->alloc_wait_ticks + r->prior_wait_ticks
                              + r->entry_wait_ticks, r->syncs, 1));
    json_object_set_new(j, "acquire_hist", hist_json(r->acquire_hist));
    json_object_set_new(j, "wait_hist", hist_json(r->wait_hist));
    json_object_set_new(j, "blocked_hist", hist_json(r->blocked_hist));
    return j;
}

/*
 * A line whose method store has shards (4.0: RCUPROF_STORE_SHARDS in the
 * layer's header) counts each shard's lock events apart: "shards" of a
 * store object, one entry per shard; null on lines without shards.
 */
#ifdef RCUPROF_STORE_SHARDS
typedef struct rcuprof_probes_shard shard_counts;
# define SHARDS_OF_KIND(c, kind) ((c)->shard[kind])
# define SHARDS_MEASURED(c) ((c)->measured_shard)
#else
typedef int shard_counts;
# define SHARDS_OF_KIND(c, kind) ((const shard_counts *)NULL)
# define SHARDS_MEASURED(c) ((const shard_counts *)NULL)
#endif

static json_t *shards_json(const shard_counts *sh)
{
#ifdef RCUPROF_STORE_SHARDS
    json_t *a;
    unsigned i;

    if (sh == NULL)
        return json_null();
    a = json_array();
    for (i = 0; i < RCUPROF_STORE_SHARDS; i++)
    {
        json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I}",
            "shard", (int)i,
            "rwlock_reads", (json_int_t)sh[i].rwlock_reads,
            "rcu_reads", (json_int_t)sh[i].rcu_reads,
            "write_locks", (json_int_t)sh[i].write_locks,
            "cache_gets", (json_int_t)sh[i].cache_gets,
            "cache_misses", (json_int_t)sh[i].cache_misses,
            "cache_sets", (json_int_t)sh[i].cache_sets);
#ifdef RCUPROF_PROBES_OPS
        /* the lock-free cache's walk (0 on the other stores: no walk) */
        json_object_set_new(o, "list_nodes",
                            json_integer((json_int_t)sh[i].list_nodes));
        json_object_set_new(o, "nodes_per_lookup",
                            ratio(sh[i].list_nodes, sh[i].cache_gets, 1));
#else
        json_object_set_new(o, "list_nodes", json_null());
        json_object_set_new(o, "nodes_per_lookup", json_null());
#endif
        json_array_append_new(a, o);
    }
    return a;
#else
    (void)sh;
    return json_null();
#endif
}

/*
 * Each shard's share of the read locks (null: no shards, or no reads):
 * stock's rwlock reads, the RCU store's read sections (rcu_reads); a
 * variant has only one of the two.
 */
static json_t *shard_read_shares(const shard_counts *sh)
{
#ifdef RCUPROF_STORE_SHARDS
    uint64_t tot = 0;
    json_t *a;
    unsigned i;

    if (sh == NULL)
        return json_null();
    for (i = 0; i < RCUPROF_STORE_SHARDS; i++)
        tot += sh[i].rwlock_reads + sh[i].rcu_reads;
    if (tot == 0)
        return json_null();
    a = json_array();
    for (i = 0; i < RCUPROF_STORE_SHARDS; i++)
        json_array_append_new(a, json_real((double)(sh[i].rwlock_reads
                                                     + sh[i].rcu_reads)
                                           / (double)tot));
    return a;
#else
    (void)sh;
    return json_null();
#endif
}

static json_t *store_json(const struct rcuprof_probes_store *s,
                          const shard_counts *sh)
{
    json_t *j = json_object();

#define U(k) json_object_set_new(j, #k, json_integer((json_int_t)s->k))
    U(rwlock_reads); U(write_locks); U(biglock); U(cache_gets);
    U(cache_misses); U(cache_sets); U(flush_alls); U(remove_all_provided);
    U(publications);
#undef U
    json_object_set_new(j, "misses_per_kget",
                        ratio(s->cache_misses, s->cache_gets, 1000));
    json_object_set_new(j, "shards", shards_json(sh));
    return j;
}

static const char *slot_name(unsigned s)
{
    struct rcuprof_probes_lockinfo li;

    li.size = sizeof(li);
    if (rcuprof_probes_lock_info(s, &li) != 0)
        return NULL;
    return li.name;
}

/*
 * {"rcu": {name: {...}, ...}, "store": {...}, "stores": {kind: {...}}}:
 * named slots only; "store" is the EVP stores' counts, "stores" every kind.
 */
static json_t *counters_json(const struct rcuprof_probe_readout *p,
                             const struct rcuprof_probes_counters *c)
{
    json_t *rcu = json_object(), *stores = json_object();
    unsigned s;

    for (s = 0; s < RCUPROF_PROBES_MAX_LOCKS && s < c->nslots; s++) {
        const char *name = slot_name(s);

        if (name != NULL)
            json_object_set_new(rcu, name, rcu_json(&c->rcu[s]));
    }
    for (s = 0; s < RCUPROF_STORE_KINDS; s++)
        json_object_set_new(stores, rcuprof_probes_store_kind_name(s),
                            store_json(&c->store[s], SHARDS_OF_KIND(c, s)));
    /* the measured store alone (its kind's and its lock name's counts
     * hold every store of that kind) */
    return json_pack("{s:o, s:o, s:o, s:o}", "rcu", rcu,
                     "store", store_json(&c->store[RCUPROF_STORE_KIND_EVP],
                                         SHARDS_OF_KIND(c, RCUPROF_STORE_KIND_EVP)),
                     "stores", stores,
                     "measured", p->measured
                     ? json_pack("{s:o, s:o}", "rcu", rcu_json(&c->measured_rcu),
                                 "store", store_json(&c->measured_store,
                                                     SHARDS_MEASURED(c)))
                     : json_null());
}

static void add_rcu(struct rcuprof_probes_rcu *d,
                    const struct rcuprof_probes_rcu *x)
{
    uint64_t *a = (uint64_t *)d;
    const uint64_t *b = (const uint64_t *)x;
    size_t i;

    for (i = 0; i < sizeof(*d) / 8; i++) {
        if (&a[i] == &d->max_retries || &a[i] == &d->max_wait_ticks
            || &a[i] == &d->max_blocked_ticks)
            a[i] = b[i] > a[i] ? b[i] : a[i];
        else
            a[i] += b[i];
    }
}

static void add_into(struct rcuprof_probes_counters *d,
                     const struct rcuprof_probes_counters *x)
{
    size_t s, i;

    for (s = 0; s < RCUPROF_PROBES_MAX_LOCKS; s++)
        add_rcu(&d->rcu[s], &x->rcu[s]);
    add_rcu(&d->measured_rcu, &x->measured_rcu);
    /* every kind's counters: all sums */
    for (i = 0; i < sizeof(d->store) / 8; i++)
        ((uint64_t *)d->store)[i] += ((const uint64_t *)x->store)[i];
    for (i = 0; i < sizeof(d->measured_store) / 8; i++)
        ((uint64_t *)&d->measured_store)[i]
            += ((const uint64_t *)&x->measured_store)[i];
#ifdef RCUPROF_PROBES_OPS
    for (i = 0; i < sizeof(d->ops) / 8; i++)
        ((uint64_t *)&d->ops)[i] += ((const uint64_t *)&x->ops)[i];
#endif
#ifdef RCUPROF_STORE_SHARDS
    for (i = 0; i < sizeof(d->shard) / 8; i++)
        ((uint64_t *)d->shard)[i] += ((const uint64_t *)x->shard)[i];
    for (i = 0; i < sizeof(d->measured_shard) / 8; i++)
        ((uint64_t *)d->measured_shard)[i]
            += ((const uint64_t *)x->measured_shard)[i];
#endif
}

static json_t *addr_json(uintptr_t a)
{
    char buf[32];

    if (a == 0)
        return json_null();
    snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)a);
    return json_pack("{s:s, s:i}", "addr", buf, "line_offset",
                     (int)(a % RCUPROF_CACHELINE));
}

/*
 * Addresses only for slots some thread acquired in this run (|proc|).  The
 * slot of the measured store's lock describes that lock (measured true);
 * any other, the lock of its name most recently timed (4.0: a named slot's
 * first lock timed, recorded once; "other" the most recent).
 */
static json_t *locks_json(const struct rcuprof_probe_readout *p,
                          const struct rcuprof_probes_counters *proc)
{
    json_t *a = json_array();
    struct rcuprof_probes_lockinfo ml;
    unsigned s;

    ml.size = sizeof(ml);
    if (!p->measured || rcuprof_probes_measured_lock_info(&ml) != 0)
        ml.lock = 0;
    for (s = 0; s < RCUPROF_PROBES_MAX_LOCKS; s++) {
        struct rcuprof_probes_lockinfo li;
        int is_measured = 0;
        json_t *o;

        li.size = sizeof(li);
        if (rcuprof_probes_lock_info(s, &li) != 0 || li.name == NULL)
            continue;
        if (ml.lock != 0 && ml.name != NULL && strcmp(ml.name, li.name) == 0) {
            li = ml;
            is_measured = 1;
        }
        /* The set-up's self-cost lock was timed too: not a lock of the run */
        if (proc == NULL || proc->rcu[s].acquisitions == 0)
            li.lock = li.qp_group = li.reader_idx = li.write_lock = 0;
        o = json_pack("{s:i, s:s, s:o, s:o, s:o, s:o}", "slot", (int)s,
                      "name", li.name, "lock", addr_json(li.lock),
                      "qp_group", addr_json(li.qp_group),
                      "reader_idx", addr_json(li.reader_idx),
                      "write_lock", addr_json(li.write_lock));
        json_object_set_new(o, "reader_idx_shares_line_with_write_lock",
            li.lock == 0 ? json_null()
            : json_boolean(li.reader_idx / RCUPROF_CACHELINE
                           == li.write_lock / RCUPROF_CACHELINE));
        json_object_set_new(o, "measured", json_boolean(is_measured));
        json_object_set_new(o, "qp_group_bytes",
            is_measured && li.lock != 0
            ? json_integer((json_int_t)li.qp_group_bytes) : json_null());
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *ticks_ns_per(uint64_t ticks, uint64_t n, double tpu)
{
    return n != 0 && tpu > 0 ? json_real((double)ticks / tpu * 1000.0
                                         / (double)n)
                             : json_null();
}

/*
 * The figures rcuprof's summary prints: of the measured store (its lock,
 * its events) when the workers took its lock, else of one lock name (every
 * lock of that name) and the EVP kind.
 */
static json_t *summary_json(const struct rcuprof_probe_readout *p,
                            const struct rcuprof_probes_counters *sum,
                            const struct rcuprof_probes_counters *proc)
{
    unsigned s, pick = 0;
    double tpu = rcuprof_probes_ticks_per_us();
    const struct rcuprof_probes_rcu *r, *pr;
    const struct rcuprof_probes_store *st, *pst;
    const shard_counts *sh;
    const char *lock_name, *scope = "lock_name";
    struct rcuprof_probes_lockinfo ml;
    json_t *j;

    /* The store's lock when the workers took it, else the busiest slot. */
    for (s = 1; s < RCUPROF_PROBES_MAX_LOCKS; s++)
        if (sum->rcu[s].acquisitions > sum->rcu[pick].acquisitions)
            pick = s;
    for (s = 1; s < RCUPROF_PROBES_MAX_LOCKS; s++) {
        const char *name = slot_name(s);

        if (name != NULL && strcmp(name, "method_store") == 0
            && sum->rcu[s].acquisitions > 0)
            pick = s;
    }
    r = &sum->rcu[pick];
    pr = &proc->rcu[pick];
    lock_name = slot_name(pick);
    st = &sum->store[RCUPROF_STORE_KIND_EVP];
    pst = &proc->store[RCUPROF_STORE_KIND_EVP];
    sh = SHARDS_OF_KIND(sum, RCUPROF_STORE_KIND_EVP);
    ml.size = sizeof(ml);
    if (p->measured) {
        /* the measured store's own events; its lock's if the workers took it */
        st = &sum->measured_store;
        pst = &proc->measured_store;
        sh = SHARDS_MEASURED(sum);
        scope = "measured_store";
        if (sum->measured_rcu.acquisitions > 0
            && rcuprof_probes_measured_lock_info(&ml) == 0 && ml.name != NULL) {
            r = &sum->measured_rcu;
            pr = &proc->measured_rcu;
            lock_name = ml.name;
        }
    }
    j = json_pack("{s:s, s:s}", "lock", lock_name, "scope", scope);
    json_object_set_new(j, "acquisitions", json_integer((json_int_t)r->acquisitions));
    json_object_set_new(j, "retries_per_acquisition",
                        ratio(r->retries, r->acquisitions, 1));
    json_object_set_new(j, "acquire_ticks_per_acquisition",
                        ratio(r->acquire_ticks, r->timed, 1));
    json_object_set_new(j, "lock_ticks_per_acquisition",
                        ratio(r->lock_ticks, r->timed, 1));
    json_object_set_new(j, "slow_fetches_per_kfetch",
                        ratio(st->cache_misses, st->cache_gets, 1000));
    /* the workers' read locks, shard by shard (lines with a sharded store) */
    json_object_set_new(j, "shard_read_shares", shard_read_shares(sh));
    json_object_set_new(j, "syncs", json_integer((json_int_t)pr->syncs));
    json_object_set_new(j, "publications",
                        json_integer((json_int_t)pst->publications));
    json_object_set_new(j, "syncs_per_publication",
                        ratio(pr->syncs, pst->publications, 1));
    /*
     * A writer's wait in ossl_synchronize_rcu: spinning on the old qp's
     * readers, blocked (asleep) for a free qp or for earlier grace periods,
     * and the two together; per synchronize, over every thread.
     */
    json_object_set_new(j, "writer_spin_ns_per_sync",
                        ticks_ns_per(pr->wait_ticks, pr->syncs, tpu));
    json_object_set_new(j, "writer_blocked_ns_per_sync",
                        ticks_ns_per(pr->alloc_wait_ticks + pr->prior_wait_ticks
                                     + pr->entry_wait_ticks, pr->syncs, tpu));
    json_object_set_new(j, "writer_wait_ns_per_sync",
                        ticks_ns_per(pr->wait_ticks + pr->alloc_wait_ticks
                                     + pr->prior_wait_ticks
                                     + pr->entry_wait_ticks, pr->syncs, tpu));
    json_object_set_new(j, "blocked_syncs",
                        json_integer((json_int_t)pr->blocked_syncs));
    /* store writers' waits for the RCU write lock (not in a synchronize) */
    json_object_set_new(j, "write_lock_wait_ns_per_write",
                        ticks_ns_per(pr->write_lock_wait_ticks,
                                     pst->write_locks, tpu));
    return j;
}

/*
 * The measured lib ctx's EVP method store: its locks (the summary's store).
 * The driver says which lib ctx the workload fetches from
 * (rcuprof_probe_readout_measures); a lib ctx it cannot see is null.
 */
static json_t *measured_store_json(const struct rcuprof_probe_readout *p)
{
    struct rcuprof_probes_storeinfo si;
    void *store = measured_store(p);

    si.size = sizeof(si);
    if (store == NULL || rcuprof_probes_store_info(store, &si) != 0)
        return json_null();
    return json_pack("{s:s, s:s, s:o, s:o}",
                     "kind", rcuprof_probes_store_kind_name((unsigned)si.kind),
                     "libctx", p->ctx != NULL ? "own" : "default",
                     "lock", addr_json(si.lock),
                     "biglock", addr_json(si.biglock));
}

/*
 * Shared-line operations per op of the workers' windows (issue 26 item 2),
 * as the probe layer counted them, never from the design: read-lock
 * acquisitions (rwlock reads of any CRYPTO_RWLOCK, RCU read sections of any
 * RCU lock), write-lock acquisitions, and the reference count RMWs
 * (CRYPTO_UP_REF / CRYPTO_DOWN_REF of the fetchable method types and
 * providers).  null on a layer without these counters (RCUPROF_PROBES_OPS).
 */
static json_t *shared_ops_json(const struct rcuprof_probes_counters *sum,
                               const struct rcuprof_probes_counters *proc,
                               const struct rcuprof_run_view *run,
                               unsigned nthreads)
{
#ifdef RCUPROF_PROBES_OPS
    uint64_t ops = 0, rcu = 0, rd, rmw;
    unsigned i;
    json_t *j;

    for (i = 0; run != NULL && run->ops != NULL && i < nthreads; i++)
        ops += run->ops[i];
    for (i = 0; i < RCUPROF_PROBES_MAX_LOCKS; i++)
        rcu += sum->rcu[i].acquisitions;
    rd = sum->ops.rwlock_reads + rcu;
    /*
     * Each read-lock acquisition is two RMWs on its lock's shared line
     * (rwlock: the reader count's add and the unlock's; RCU: the users
     * counter's add and sub), each reference count operation one.
     */
    rmw = 2 * rd + 2 * sum->ops.rwlock_writes + sum->ops.ref_ups
          + sum->ops.ref_downs;
    j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                  "ops", (json_int_t)ops,
                  "read_locks", (json_int_t)rd,
                  "rwlock_reads", (json_int_t)sum->ops.rwlock_reads,
                  "rcu_reads", (json_int_t)rcu,
                  "write_locks", (json_int_t)sum->ops.rwlock_writes,
                  "ref_ups", (json_int_t)sum->ops.ref_ups,
                  "ref_downs", (json_int_t)sum->ops.ref_downs);
    json_object_set_new(j, "read_locks_per_op", ratio(rd, ops, 1));
    json_object_set_new(j, "write_locks_per_op",
                        ratio(sum->ops.rwlock_writes, ops, 1));
    json_object_set_new(j, "refcount_ops_per_op",
                        ratio(sum->ops.ref_ups + sum->ops.ref_downs, ops, 1));
    json_object_set_new(j, "shared_rmw_per_op", ratio(rmw, ops, 1));
    /* every thread since the probes went on (set-up, warm-up, writers) */
    for (i = 0, rcu = 0; i < RCUPROF_PROBES_MAX_LOCKS; i++)
        rcu += proc->rcu[i].acquisitions;
    json_object_set_new(j, "process", json_pack("{s:I, s:I, s:I, s:I, s:I}",
        "rwlock_reads", (json_int_t)proc->ops.rwlock_reads,
        "rcu_reads", (json_int_t)rcu,
        "write_locks", (json_int_t)proc->ops.rwlock_writes,
        "ref_ups", (json_int_t)proc->ops.ref_ups,
        "ref_downs", (json_int_t)proc->ops.ref_downs));
    return j;
#else
    (void)sum;
    (void)proc;
    (void)run;
    (void)nthreads;
    return json_null();
#endif
}

static json_t *hook_to_json(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run)
{
    struct rcuprof_probe_readout *p = readout_of(tool);
    struct rcuprof_probes_counters sum, proc;
    json_t *j, *threads;
    unsigned i;

    j = json_pack("{s:i, s:b, s:i, s:s, s:I, s:I, s:f}",
                  "version", RCUPROF_PROBES_VERSION, "enabled", p->on,
                  "sample_every", (int)rcuprof_probes_get_sample_every(),
                  "clock", rcuprof_probes_clock(),
                  "timer_cost_ticks", (json_int_t)rcuprof_probes_timer_cost(),
                  "timer_quantum_ticks",
                  (json_int_t)rcuprof_probes_timer_quantum(),
                  "ticks_per_us", rcuprof_probes_ticks_per_us());
    json_object_set_new(j, "self_cost", json_pack("{s:o, s:o, s:o}",
        "read_pair_ns_off", p->cost_off_ns >= 0 ? json_real(p->cost_off_ns) : json_null(),
        "read_pair_ns_on", p->cost_on_ns >= 0 ? json_real(p->cost_on_ns) : json_null(),
        "added_ns", p->cost_on_ns >= 0 ? json_real(p->cost_on_ns - p->cost_off_ns)
                                       : json_null()));
    if (!p->on) {
        json_object_set_new(j, "locks", locks_json(p, NULL));
        json_object_set_new(j, "threads", json_null());
        json_object_set_new(j, "sum", json_null());
        json_object_set_new(j, "process", json_null());
        json_object_set_new(j, "summary", json_null());
        json_object_set_new(j, "shared_ops", json_null());
        return j;
    }
    memset(&sum, 0, sizeof(sum));
    sum.size = sizeof(sum);
    sum.nslots = RCUPROF_PROBES_MAX_LOCKS;
    threads = json_array();
    for (i = 0; i < p->nthreads; i++) {
        json_t *t = counters_json(p, &p->win[i]);

        json_object_set_new(t, "id", json_integer((json_int_t)i));
        json_array_append_new(threads, t);
        add_into(&sum, &p->win[i]);
    }
    proc.size = sizeof(proc);
    rcuprof_probes_read_process(&proc);
    json_object_set_new(j, "locks", locks_json(p, &proc));
    json_object_set_new(j, "threads", threads);
    json_object_set_new(j, "sum", counters_json(p, &sum));
    json_object_set_new(j, "process", counters_json(p, &proc));
    json_object_set_new(j, "summary", summary_json(p, &sum, &proc));
    json_object_set_new(j, "shared_ops", shared_ops_json(&sum, &proc, run, p->nthreads));
    json_object_set_new(json_object_get(j, "summary"), "store",
                        measured_store_json(p));
    return j;
}

static const struct rcuprof_tool probe_readout_tool = {
    .member = "probes",
    .window_start = hook_window_start,
    .window_end = hook_window_end,
    .to_json = hook_to_json,
};
