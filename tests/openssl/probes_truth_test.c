/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * The probe layer's figures mean what docs/methodology.md says they mean
 * (issue 14).  Linked statically against a variant's libcrypto.a that
 * carries the probe layer (stock, rcu-sync, rcu-nosync):
 *
 *   writer waits   two writers synchronizing one RCU lock at once, a reader
 *                  holding one read section until both are in: blocked
 *                  waits (update_qp's alloc_signal, in-order retirement)
 *                  are counted and timed beside the spin; one writer alone
 *                  never blocks; free-running writers' counts add up.
 *   store writes   a known number of store writes (add, add queued under
 *                  ossl_method_lock_store, cache_set, remove, flush_all)
 *                  gives exactly that many write_locks, and one biglock,
 *                  on every variant.
 *   store kinds    fetches and a decoder side by side in one lib ctx give two
 *                  separate sets of counts: the EVP store's and the decoder
 *                  store's (and, on the RCU store, two lock names).
 *   whole waits    a writer that finds the RCU write lock held at
 *                  synchronize entry blocks there, and that wait is part of
 *                  the synchronize's blocked time; a store writer's wait in
 *                  ossl_rcu_write_lock is timed as its own figure.
 *   measured store two lib ctxs fetched side by side, one of them measured:
 *                  the measured counts hold only its store's events (and,
 *                  on the RCU store, only its lock's read sections).
 *   publications   the same known writes publish a known number of
 *                  versions (RCU; 0 on stock), and rcu-sync synchronizes
 *                  once per publication.
 *   ticks          the fenced timer pair resolves a known short delay (a
 *                  chain of dependent multiplies) and scales with it; the
 *                  quantum is the finest step consecutive reads show.
 *   shards         (a sharded store: 4.0) each shard's counts sum to the
 *                  store's; an EVP method id's shard is its operation id's
 *                  low 2 bits (name_id << 8 | operation_id, & 3): N fetches
 *                  of a digest count N cache gets on shard 1 alone, of a
 *                  cipher on shard 2, a MAC 3, a KDF 0; all four together
 *                  spread the read locks over every shard.
 *   frees          (RCU store) a method that a batch publication drops is
 *                  freed with no store lock held: its free function can
 *                  reserve the store itself (patches/README.md).
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>
#include "internal/property.h"
#include "internal/cryptlib.h"
#include "internal/rcu.h"
#include "../../probes/rcuprof_rcu_read.h"
#include "internal/rcuprof_probes.h"
#include "rcuprof_test_util.h"
#if defined(__has_include)
# if __has_include("internal/property_lockfree.h")
#  include "internal/property_lockfree.h"  /* OSSL_METHOD_STORE_LOCKFREE */
# endif
#endif

static char fake_prov_mem[64];
#define FAKE_PROV ((OSSL_PROVIDER *)(void *)fake_prov_mem)

static struct rcuprof_probes_rcu slot0_process(void)
{
    struct rcuprof_probes_counters c;

    c.size = sizeof(c);
    rcuprof_probes_read_process(&c);
    return c.rcu[0];
}

/* ---- writer waits ---- */

static CRYPTO_RCU_LOCK *wlock;
static volatile int stop_reader, go;
static int syncs_per_writer = 200;

static void *reader(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE)) {
        /*
         * A read section that sleeps 200 us: every grace period lasts that
         * long, and leaves both CPUs to the writers, so that the second
         * writer reaches ossl_synchronize_rcu while the first one's grace
         * period runs (it then has to block: the lock has two qps).
         */
        if (!rcuprof_rcu_read_lock(wlock)) {
            fprintf(stderr, "probes_truth: a reader's read lock failed\n");
            abort();
        }
        usleep(200);
        ossl_rcu_read_unlock(wlock);
    }
    return NULL;
}

static void *writer(void *arg)
{
    int i;

    (void)arg;
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        ;
    for (i = 0; i < syncs_per_writer; i++)
        ossl_synchronize_rcu(wlock);
    return NULL;
}

/* b - a, member by member: every member is a uint64_t sum but the max_*
 * one, the process's longest wait so far (b's). */
static void rcu_delta(const struct rcuprof_probes_rcu *a,
                      const struct rcuprof_probes_rcu *b,
                      struct rcuprof_probes_rcu *delta)
{
    uint64_t *d = (uint64_t *)delta;
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    size_t k;

    for (k = 0; k < sizeof(*delta) / 8; k++)
        d[k] = y[k] - x[k];
    delta->max_blocked_ticks = b->max_blocked_ticks;
}

static void writers_run(int nwriters, struct rcuprof_probes_rcu *delta)
{
    pthread_t r, w[2];
    struct rcuprof_probes_rcu a, b;
    int i;

    wlock = ossl_rcu_lock_new(1, NULL);     /* unnamed: slot 0, "other" */
    stop_reader = go = 0;
    a = slot0_process();
    pthread_create(&r, NULL, reader, NULL);
    for (i = 0; i < nwriters; i++)
        pthread_create(&w[i], NULL, writer, NULL);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    for (i = 0; i < nwriters; i++)
        pthread_join(w[i], NULL);
    __atomic_store_n(&stop_reader, 1, __ATOMIC_RELEASE);
    pthread_join(r, NULL);
    b = slot0_process();                /* before the free's own synchronize */
    ossl_rcu_lock_free(wlock);
    rcu_delta(&a, &b, delta);
}

/*
 * Two writers that must overlap, whatever the load: a reader holds its read
 * section until both writers have had `hold_ms` each to reach
 * ossl_synchronize_rcu, so the first writer's grace period cannot end
 * before the second writer enters its own, which then has to block (the
 * lock has two qps: it waits for a qp or for the prior grace period).
 */
static volatile int held, release_reader;

static void *holding_reader(void *arg)
{
    (void)arg;
    if (!rcuprof_rcu_read_lock(wlock)) {
        fprintf(stderr, "probes_truth: a reader's read lock failed\n");
        abort();
    }
    __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&release_reader, __ATOMIC_ACQUIRE))
        usleep(1000);
    ossl_rcu_read_unlock(wlock);
    return NULL;
}

static void *writer_once(void *arg)
{
    (void)arg;
    ossl_synchronize_rcu(wlock);
    return NULL;
}

static void writers_held(unsigned hold_ms, struct rcuprof_probes_rcu *delta)
{
    pthread_t r, w[2];
    struct rcuprof_probes_rcu a, b;
    int i;

    wlock = ossl_rcu_lock_new(1, NULL);     /* unnamed: slot 0, "other" */
    held = release_reader = 0;
    a = slot0_process();
    pthread_create(&r, NULL, holding_reader, NULL);
    while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
        usleep(100);
    for (i = 0; i < 2; i++) {
        pthread_create(&w[i], NULL, writer_once, NULL);
        usleep(hold_ms * 1000);
    }
    __atomic_store_n(&release_reader, 1, __ATOMIC_RELEASE);
    for (i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    pthread_join(r, NULL);
    b = slot0_process();
    ossl_rcu_lock_free(wlock);
    rcu_delta(&a, &b, delta);
}

static void test_writer_waits(void)
{
    struct rcuprof_probes_rcu one, two;
    uint64_t blocked;
    int tries;

    writers_run(1, &one);
    printf("writer waits, 1 writer: %llu syncs, spin %llu ticks, "
           "alloc waits %llu (%llu ticks), prior waits %llu (%llu ticks)\n",
           (unsigned long long)one.syncs, (unsigned long long)one.wait_ticks,
           (unsigned long long)one.alloc_waits,
           (unsigned long long)one.alloc_wait_ticks,
           (unsigned long long)one.prior_waits,
           (unsigned long long)one.prior_wait_ticks);
    CHECK(one.syncs == (uint64_t)syncs_per_writer, "syncs %llu",
          (unsigned long long)one.syncs);
    CHECK(one.wait_ticks > 0, "one writer spun 0 ticks");
    CHECK(one.alloc_waits == 0 && one.prior_waits == 0,
          "a lone writer blocked: alloc %llu prior %llu",
          (unsigned long long)one.alloc_waits,
          (unsigned long long)one.prior_waits);

    /* The second writer must reach synchronize within hold_ms of the
     * first: up to 4 tries, 20 ms to 160 ms. */
    for (tries = 1; tries <= 4; tries++) {
        writers_held(20u << (tries - 1), &two);
        if (two.alloc_waits + two.prior_waits > 0)
            break;
        printf("writer waits: the second writer did not reach synchronize within %u ms (try %d)\n",
               20u << (tries - 1), tries);
    }
    blocked = two.alloc_wait_ticks + two.prior_wait_ticks;
    printf("writer waits, 2 writers: %llu syncs, spin %llu ticks, "
           "alloc waits %llu (%llu ticks), prior waits %llu (%llu ticks), "
           "longest %llu\n",
           (unsigned long long)two.syncs, (unsigned long long)two.wait_ticks,
           (unsigned long long)two.alloc_waits,
           (unsigned long long)two.alloc_wait_ticks,
           (unsigned long long)two.prior_waits,
           (unsigned long long)two.prior_wait_ticks,
           (unsigned long long)two.max_blocked_ticks);
    CHECK(two.syncs == 2, "held: syncs %llu", (unsigned long long)two.syncs);
    CHECK(two.alloc_waits + two.prior_waits > 0,
          "two writers synchronizing at once never blocked");
    CHECK(blocked > 0, "blocked time is 0");
    CHECK(two.alloc_waits + two.prior_waits <= two.syncs,
          "more blocked waits (%llu) than synchronize calls",
          (unsigned long long)(two.alloc_waits + two.prior_waits));
    CHECK(two.max_blocked_ticks > 0 && two.max_blocked_ticks <= blocked,
          "longest blocked wait %llu of %llu",
          (unsigned long long)two.max_blocked_ticks,
          (unsigned long long)blocked);

    /*
     * Two writers at once, free-running: the counts.  Whether they overlap
     * depends on the scheduler (on a loaded machine one writer can run all
     * its calls before the other gets a CPU: 8 tries up to 25,600 calls
     * each never overlapped with two other builds on both CPUs), so the
     * blocking is checked on writers_held's run above, where it is
     * certain.  After it: max_blocked_ticks is the process's longest wait
     * so far (no delta), so the held run's check must come first.
     */
    writers_run(2, &two);
    printf("writer waits, 2 free-running writers: %llu syncs, alloc waits %llu,"
           " prior waits %llu\n", (unsigned long long)two.syncs,
           (unsigned long long)two.alloc_waits,
           (unsigned long long)two.prior_waits);
    CHECK(two.syncs == 2 * (uint64_t)syncs_per_writer, "syncs %llu",
          (unsigned long long)two.syncs);
    CHECK(two.alloc_waits + two.prior_waits <= two.syncs,
          "more blocked waits (%llu) than synchronize calls",
          (unsigned long long)(two.alloc_waits + two.prior_waits));
}

/* ---- store writes: write_locks and biglock mean the same everywhere ---- */

static struct rcuprof_probes_store store_now(void)
{
    struct rcuprof_probes_counters c;

    c.size = sizeof(c);
    rcuprof_probes_read(&c);
    return c.store[RCUPROF_STORE_KIND_EVP];
}

static void test_store_writes(void)
{
    static FAKE_METHOD m1 = { 1 }, m2 = { 1 }, m3 = { 1 }, m4 = { 1 };
    OSSL_METHOD_STORE *store = ossl_method_store_new(NULL);
    struct rcuprof_probes_store a, b;
#if RCUPROF_PROBES_VERSION >= 4 && defined(OSSL_METHOD_STORE_RCU)
    struct rcuprof_probes_counters ca, cb;
#endif
    char q[32];
    int i, writes = 0, ncache = 37;

    CHECK(store != NULL, "ossl_method_store_new");
    if (store == NULL)
        return;
    /* a standalone store counts as "other" unless its creator names it */
    rcuprof_probes_store_set_kind(store, RCUPROF_STORE_KIND_EVP);
#if RCUPROF_PROBES_VERSION >= 4 && defined(OSSL_METHOD_STORE_RCU)
    /* measured: its own lock's synchronize calls, apart from every other */
    rcuprof_probes_store_measure(store);
    ca.size = cb.size = sizeof(ca);
    rcuprof_probes_read(&ca);
#endif
    a = store_now();
    CHECK(ossl_method_store_add(store, FAKE_PROV, 1, "", &m1, fake_up_ref,
                                fake_free), "add");
    writes++;
    /* Three adds under the reservation: queued, published as one batch */
    CHECK(ossl_method_lock_store(store), "lock_store");
    CHECK(ossl_method_store_add(store, FAKE_PROV, 2, "", &m2, fake_up_ref,
                                fake_free), "add 2");
    CHECK(ossl_method_store_add(store, FAKE_PROV, 3, "", &m3, fake_up_ref,
                                fake_free), "add 3");
    CHECK(ossl_method_store_add(store, FAKE_PROV, 4, "", &m4, fake_up_ref,
                                fake_free), "add 4");
    writes += 3;
    CHECK(ossl_method_unlock_store(store), "unlock_store");
    for (i = 0; i < ncache; i++) {
        snprintf(q, sizeof(q), "x.n=%d", i);
        CHECK(ossl_method_store_cache_set(store, FAKE_PROV, 1, q, &m1,
                                          fake_up_ref, fake_free), "cache_set");
        writes++;
    }
    CHECK(ossl_method_store_remove(store, 4, &m4), "remove");
    writes++;
    CHECK(ossl_method_store_cache_flush_all(store), "flush_all");
    writes++;
    /* an empty cache: a store write that changes nothing */
    CHECK(ossl_method_store_cache_flush_all(store), "flush_all again");
    writes++;
    b = store_now();
    printf("store writes (%s): %d made, write_locks %llu, biglock %llu, "
           "cache_sets %llu\n", store_variant(), writes,
           (unsigned long long)(b.write_locks - a.write_locks),
           (unsigned long long)(b.biglock - a.biglock),
           (unsigned long long)(b.cache_sets - a.cache_sets));
#ifdef RCUPROF_STORE_SHARDS
    /*
     * A sharded store's flush_all takes every shard's write lock: each of
     * the two counts RCUPROF_STORE_SHARDS write locks, not one.
     */
    writes += 2 * (RCUPROF_STORE_SHARDS - 1);
#endif
    CHECK(b.write_locks - a.write_locks == (uint64_t)writes,
          "write_locks %llu, store writes made %d",
          (unsigned long long)(b.write_locks - a.write_locks), writes);
    CHECK(b.biglock - a.biglock == 1, "biglock %llu, reserved once",
          (unsigned long long)(b.biglock - a.biglock));
    CHECK(b.cache_sets - a.cache_sets == (uint64_t)ncache, "cache_sets %llu",
          (unsigned long long)(b.cache_sets - a.cache_sets));
#if RCUPROF_PROBES_VERSION >= 4
    {
        /*
         * Publications: every write that changed the store publishes one
         * version (the add, the batch of three, 37 cache sets, the remove,
         * the first flush), the second flush none; stock publishes nothing.
         */
# if defined(OSSL_METHOD_STORE_RCU) && defined(RCUPROF_STORE_SHARDS)
        /*
         * A sharded RCU store publishes a batch once per shard it touches:
         * method ids 2, 3 and 4 are on shards 2, 3 and 0 (id & 3).
         */
        uint64_t want = 1 + 3 + (uint64_t)ncache + 1 + 1;
# elif defined(OSSL_METHOD_STORE_RCU)
        uint64_t want = 1 + 1 + (uint64_t)ncache + 1 + 1;
# else
        uint64_t want = 0;
# endif
        uint64_t pubs = b.publications - a.publications;

        printf("store writes (%s): publications %llu (expected %llu)\n",
               store_variant(), (unsigned long long)pubs,
               (unsigned long long)want);
        CHECK(pubs == want, "publications %llu, expected %llu",
              (unsigned long long)pubs, (unsigned long long)want);
# ifdef OSSL_METHOD_STORE_RCU
        rcuprof_probes_read(&cb);
        if (strcmp(store_variant(), "sync") == 0) {
            uint64_t syncs = cb.measured_rcu.syncs - ca.measured_rcu.syncs;

            printf("store writes (sync): %llu synchronize calls on the "
                   "store's lock for %llu publications\n",
                   (unsigned long long)syncs, (unsigned long long)pubs);
            CHECK(syncs == pubs, "rcu-sync: %llu syncs for %llu publications",
                  (unsigned long long)syncs, (unsigned long long)pubs);
        }
        rcuprof_probes_store_measure(NULL);
# endif
    }
#else
    CHECK(0, "no publication count in this probe layer (version %d)",
          RCUPROF_PROBES_VERSION);
#endif
    ossl_method_store_free(store);
}

/* One fetch (and free) of an algorithm of operation |op| */
static __attribute__((unused)) int fetch_one(OSSL_LIB_CTX *ctx, int op)
{
    switch (op) {
    case OSSL_OP_DIGEST: {
        EVP_MD *m = EVP_MD_fetch(ctx, "SHA2-256", NULL);

        EVP_MD_free(m);
        return m != NULL;
    }
    case OSSL_OP_CIPHER: {
        EVP_CIPHER *m = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL);

        EVP_CIPHER_free(m);
        return m != NULL;
    }
    case OSSL_OP_MAC: {
        EVP_MAC *m = EVP_MAC_fetch(ctx, "HMAC", NULL);

        EVP_MAC_free(m);
        return m != NULL;
    }
    case OSSL_OP_KDF: {
        EVP_KDF *m = EVP_KDF_fetch(ctx, "HKDF", NULL);

        EVP_KDF_free(m);
        return m != NULL;
    }
    }
    return 0;
}

/* ---- shards: each shard's lock counted on its own (4.0) ---- */

#ifdef RCUPROF_STORE_SHARDS
/* Every shard's counts of kind |k| (and of the measured store) sum to the
 * store's, member by member. */
static void check_shard_sums(const struct rcuprof_probes_counters *c,
                             const char *what)
{
    unsigned k, i;

    for (k = 0; k <= RCUPROF_STORE_KINDS; k++) {
        const struct rcuprof_probes_store *st = k < RCUPROF_STORE_KINDS
            ? &c->store[k] : &c->measured_store;
        const struct rcuprof_probes_shard *sh = k < RCUPROF_STORE_KINDS
            ? c->shard[k] : c->measured_shard;
        struct rcuprof_probes_shard t;

        memset(&t, 0, sizeof(t));
        for (i = 0; i < RCUPROF_STORE_SHARDS; i++) {
            t.rwlock_reads += sh[i].rwlock_reads;
            t.write_locks += sh[i].write_locks;
            t.cache_gets += sh[i].cache_gets;
            t.cache_misses += sh[i].cache_misses;
            t.cache_sets += sh[i].cache_sets;
        }
        CHECK(t.rwlock_reads == st->rwlock_reads
              && t.write_locks == st->write_locks
              && t.cache_gets == st->cache_gets
              && t.cache_misses == st->cache_misses
              && t.cache_sets == st->cache_sets,
              "%s, kind %u: shards sum to reads %llu writes %llu gets %llu "
              "misses %llu sets %llu; the store's %llu %llu %llu %llu %llu",
              what, k, (unsigned long long)t.rwlock_reads,
              (unsigned long long)t.write_locks,
              (unsigned long long)t.cache_gets,
              (unsigned long long)t.cache_misses,
              (unsigned long long)t.cache_sets,
              (unsigned long long)st->rwlock_reads,
              (unsigned long long)st->write_locks,
              (unsigned long long)st->cache_gets,
              (unsigned long long)st->cache_misses,
              (unsigned long long)st->cache_sets);
    }
}

/*
 * A shard's read locks: stock's rwlock reads, or the RCU store's read
 * sections (rcu_reads); the other kind must be 0 (*other).
 */
static uint64_t shard_reads(const struct rcuprof_probes_shard *b,
                            const struct rcuprof_probes_shard *a,
                            uint64_t *other)
{
# ifdef OSSL_METHOD_STORE_RCU
    *other = b->rwlock_reads - a->rwlock_reads;
    return b->rcu_reads - a->rcu_reads;
# else
    *other = b->rcu_reads - a->rcu_reads;
    return b->rwlock_reads - a->rwlock_reads;
# endif
}

static void test_shards(void)
{
    static const int ops[] = { OSSL_OP_DIGEST, OSSL_OP_CIPHER, OSSL_OP_MAC,
                               OSSL_OP_KDF };
    static const char *const names[] = { "digest", "cipher", "MAC", "KDF" };
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *def = OSSL_PROVIDER_load(ctx, "default");
    struct rcuprof_probes_counters a, b, proc;
    unsigned i, j, used;
    int n = 200, o;

    CHECK(ctx != NULL && def != NULL, "lib ctx with default");
    a.size = b.size = proc.size = sizeof(a);
    for (o = 0; o < 4; o++)
        CHECK(fetch_one(ctx, ops[o]), "fetch a %s", names[o]); /* warm */
    /*
     * Exactly where 4.0 puts them: a method id is name_id << 8 |
     * operation_id, its shard id & (NUM_SHARDS - 1), so one operation's
     * algorithms all share the shard operation_id & 3.
     */
    for (o = 0; o < 4; o++) {
        unsigned want = (unsigned)ops[o] & (RCUPROF_STORE_SHARDS - 1);

        rcuprof_probes_read(&a);
        for (i = 0; i < (unsigned)n; i++)
            fetch_one(ctx, ops[o]);
        rcuprof_probes_read(&b);
        for (j = 0; j < RCUPROF_STORE_SHARDS; j++) {
            uint64_t gets = b.shard[RCUPROF_STORE_KIND_EVP][j].cache_gets
                            - a.shard[RCUPROF_STORE_KIND_EVP][j].cache_gets;
            uint64_t other;
            uint64_t reads = shard_reads(&b.shard[RCUPROF_STORE_KIND_EVP][j],
                                         &a.shard[RCUPROF_STORE_KIND_EVP][j],
                                         &other);

# ifdef OSSL_METHOD_STORE_LOCKFREE
            /* the lock-free lookup: n lookups, no lock, >= 1 node each */
            uint64_t nodes = b.shard[RCUPROF_STORE_KIND_EVP][j].list_nodes
                             - a.shard[RCUPROF_STORE_KIND_EVP][j].list_nodes;

            CHECK(gets == (j == want ? (uint64_t)n : 0) && reads == 0
                  && (j == want ? nodes >= (uint64_t)n : nodes == 0),
                  "%d %s fetches: shard %u has %llu lookups, %llu nodes "
                  "visited, %llu rwlock reads; expected %d lookups and "
                  ">= %d nodes on shard %u only, no read lock",
                  n, names[o], j, (unsigned long long)gets,
                  (unsigned long long)nodes, (unsigned long long)reads, n, n,
                  want);
            reads = gets;       /* below: the lookups stand for the reads */
# endif
            CHECK(gets == (j == want ? (uint64_t)n : 0)
                  && (j == want ? reads >= (uint64_t)n : reads == 0)
                  && other == 0,
                  "%d %s fetches (operation %d): shard %u has %llu cache "
                  "gets, %llu read locks (%llu of the other kind); expected "
                  "them all on shard %u (%s)",
                  n, names[o], ops[o], j, (unsigned long long)gets,
                  (unsigned long long)reads, (unsigned long long)other, want,
# ifdef OSSL_METHOD_STORE_RCU
                  "RCU read sections"
# else
                  "rwlock reads"
# endif
                  );
        }
        printf("shards: %d %s fetches, all on shard %u\n", n, names[o],
               want);
        check_shard_sums(&b, "this thread");
    }
    /* all four operations at once: the read locks spread over the shards */
    rcuprof_probes_read(&a);
    for (i = 0; i < (unsigned)n; i++)
        for (o = 0; o < 4; o++)
            fetch_one(ctx, ops[o]);
    rcuprof_probes_read(&b);
    printf("shards: %d fetches of each of 4 operations, read locks by shard:",
           n);
    for (j = 0, used = 0; j < RCUPROF_STORE_SHARDS; j++) {
        uint64_t other;
        uint64_t reads = shard_reads(&b.shard[RCUPROF_STORE_KIND_EVP][j],
                                     &a.shard[RCUPROF_STORE_KIND_EVP][j],
                                     &other);

# ifdef OSSL_METHOD_STORE_LOCKFREE
        /* no read lock on a cached fetch: the lookups spread instead */
        CHECK(reads == 0, "lockfree: %llu read locks on shard %u",
              (unsigned long long)reads, j);
        reads = b.shard[RCUPROF_STORE_KIND_EVP][j].cache_gets
                - a.shard[RCUPROF_STORE_KIND_EVP][j].cache_gets;
# endif
        printf(" %llu", (unsigned long long)reads);
        used += reads >= (uint64_t)n;
    }
    printf("\n");
    CHECK(used == 4, "4 operations on 4 shards: only %u shards had %d read "
          "locks", used, n);
    check_shard_sums(&b, "this thread");
    rcuprof_probes_read_process(&proc);
    check_shard_sums(&proc, "the process");
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
}
#else
static void test_shards(void)
{
    printf("shards: SKIPPED (this line's method store has no shards: "
           "RCUPROF_STORE_SHARDS is 4.0's)\n");
}
#endif

/* ---- shared-line operations per cached fetch+free (issue 26, item 2) ---- */

#ifdef RCUPROF_PROBES_OPS
static uint64_t rcu_acq(const struct rcuprof_probes_counters *c)
{
    uint64_t t = 0;
    unsigned s;

    for (s = 0; s < RCUPROF_PROBES_MAX_LOCKS; s++)
        t += c->rcu[s].acquisitions;
    return t;
}

/*
 * n cached fetch+free of one type, and what the layer counted: the read
 * locks and the reference count RMWs per op must be what this store's
 * design implies, and exactly n up_refs and n down_refs where there are
 * any (the count is the layer's; this test only bounds it).
 */
static void test_shared_ops(void)
{
    static const char *const names[] = { "digest", "cipher", "MAC", "KDF" };
    static const int ops[] = { OSSL_OP_DIGEST, OSSL_OP_CIPHER, OSSL_OP_MAC,
                               OSSL_OP_KDF };
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *def = OSSL_PROVIDER_load(ctx, "default");
    struct rcuprof_probes_counters a, b;
    const uint64_t n = 500;
    unsigned i;
    int o;

    CHECK(ctx != NULL && def != NULL, "lib ctx with default");
    a.size = b.size = sizeof(a);
    for (o = 0; o < 4; o++) {
        uint64_t rw, rcu, up, down, wr;
        /* store-owned (lockfree: digests and ciphers): no reference */
        int owned = 0;

        CHECK(fetch_one(ctx, ops[o]), "fetch a %s", names[o]); /* cache it */
# ifdef OSSL_METHOD_STORE_LOCKFREE
        owned = ops[o] == OSSL_OP_DIGEST || ops[o] == OSSL_OP_CIPHER;
# endif
        rcuprof_probes_read(&a);
        for (i = 0; i < n; i++)
            fetch_one(ctx, ops[o]);
        rcuprof_probes_read(&b);
        rw = b.ops.rwlock_reads - a.ops.rwlock_reads;
        wr = b.ops.rwlock_writes - a.ops.rwlock_writes;
        rcu = rcu_acq(&b) - rcu_acq(&a);
        up = b.ops.ref_ups - a.ops.ref_ups;
        down = b.ops.ref_downs - a.ops.ref_downs;
        printf("shared ops: %llu cached %s fetch+free: %llu rwlock reads, "
               "%llu RCU reads, %llu write locks, %llu up_refs, %llu "
               "down_refs\n", (unsigned long long)n, names[o],
               (unsigned long long)rw, (unsigned long long)rcu,
               (unsigned long long)wr, (unsigned long long)up,
               (unsigned long long)down);
        CHECK(wr == 0, "%s: %llu write locks on a cached fetch", names[o],
              (unsigned long long)wr);
        CHECK(owned ? up == 0 && down == 0 : up == n && down == n,
              "%s: %llu up_refs, %llu down_refs for %llu fetch+free (%s)",
              names[o], (unsigned long long)up, (unsigned long long)down,
              (unsigned long long)n,
              owned ? "store-owned: expected none" : "expected one each");
# if defined(OSSL_METHOD_STORE_LOCKFREE)
        CHECK(rw == 0 && rcu == 0, "lockfree %s: %llu rwlock reads, %llu RCU "
              "reads on the cached path", names[o], (unsigned long long)rw,
              (unsigned long long)rcu);
# elif defined(OSSL_METHOD_STORE_RCU)
        CHECK(rcu >= n && rw == 0, "RCU store %s: %llu RCU reads (>= %llu), "
              "%llu rwlock reads (expected 0)", names[o],
              (unsigned long long)rcu, (unsigned long long)n,
              (unsigned long long)rw);
# else
        CHECK(rw >= n && rcu == 0, "stock %s: %llu rwlock reads (>= %llu), "
              "%llu RCU reads (expected 0)", names[o], (unsigned long long)rw,
              (unsigned long long)n, (unsigned long long)rcu);
# endif
    }
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
}
#else
static void test_shared_ops(void)
{
    printf("shared ops: SKIPPED (this layer has no RCUPROF_PROBES_OPS)\n");
}
#endif

/* ---- frees at batch publication: after biglock is released ---- */

#ifdef OSSL_METHOD_STORE_RCU
static OSSL_METHOD_STORE *free_store;
static int free_could_reserve = -1;

static void reserving_free(void *p)
{
    fake_free(p);
    if (free_store == NULL)
        return;
    /* biglock is a rwlock: taking it again on this thread fails (EDEADLK) */
    free_could_reserve = ossl_method_lock_store(free_store);
    if (free_could_reserve)
        ossl_method_unlock_store(free_store);
}

static void test_frees_outside_biglock(void)
{
    static FAKE_METHOD a = { 1 }, dup = { 1 };
    OSSL_METHOD_STORE *store = ossl_method_store_new(NULL);

    CHECK(store != NULL, "ossl_method_store_new");
    if (store == NULL)
        return;
    CHECK(ossl_method_store_add(store, FAKE_PROV, 7, "", &a, fake_up_ref,
                                fake_free), "add");
    free_store = store;
    CHECK(ossl_method_lock_store(store), "lock_store");
    /* the same provider and properties again: dropped at publication */
    CHECK(ossl_method_store_add(store, FAKE_PROV, 7, "", &dup, fake_up_ref,
                                reserving_free), "queued duplicate");
    CHECK(ossl_method_unlock_store(store), "unlock_store");
    free_store = NULL;
    printf("frees: the dropped duplicate was freed %s biglock\n",
           free_could_reserve == 1 ? "after" : free_could_reserve == 0
           ? "UNDER" : "(never)");
    CHECK(fake_refs(&dup) == 1, "duplicate's reference not dropped (%ld)",
          fake_refs(&dup));
    CHECK(free_could_reserve == 1,
          "a method free at batch publication ran with biglock held");
    ossl_method_store_free(store);
}
#endif

/* ---- store kinds: one lock, one name ---- */

static uint64_t store_events(const struct rcuprof_probes_store *s)
{
    return s->rwlock_reads + s->write_locks + s->biglock + s->cache_gets
        + s->cache_sets + s->flush_alls + s->remove_all_provided;
}

static int slot_of(const char *name)
{
    unsigned i;

    for (i = 0; i < RCUPROF_PROBES_MAX_LOCKS; i++) {
        struct rcuprof_probes_lockinfo li;

        li.size = sizeof(li);
        if (rcuprof_probes_lock_info(i, &li) == 0 && li.name != NULL
            && strcmp(li.name, name) == 0)
            return (int)i;
    }
    return -1;
}

static void test_store_kinds(void)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *def = OSSL_PROVIDER_load(ctx, "default");
    struct rcuprof_probes_counters a, b, c;
    OSSL_DECODER_CTX *dctx;
    EVP_PKEY *pkey = NULL;
    EVP_MD *md;
    int i, nfetch = 100, evp, dec;
    uint64_t d1_evp, d1_dec, d2_dec, d1_other;

    CHECK(ctx != NULL && def != NULL, "lib ctx with default");
    md = EVP_MD_fetch(ctx, "SHA2-256", NULL);   /* warm the EVP store */
    EVP_MD_free(md);
    a.size = b.size = c.size = sizeof(a);
    rcuprof_probes_read(&a);
    for (i = 0; i < nfetch; i++) {
        md = EVP_MD_fetch(ctx, "SHA2-256", NULL);
        CHECK(md != NULL, "fetch");
        EVP_MD_free(md);
    }
    rcuprof_probes_read(&b);
    /* the first decoder context of this lib ctx: decoder store work */
    dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, "DER", NULL, "RSA",
                                         EVP_PKEY_KEYPAIR, ctx, NULL);
    CHECK(dctx != NULL, "OSSL_DECODER_CTX_new_for_pkey");
    CHECK(OSSL_DECODER_CTX_get_num_decoders(dctx) > 0, "no decoder found");
    OSSL_DECODER_CTX_free(dctx);
    rcuprof_probes_read(&c);
#define D(x, y, k, f) ((y).store[k].f - (x).store[k].f)
    d1_evp = D(a, b, RCUPROF_STORE_KIND_EVP, cache_gets);
    d1_dec = store_events(&b.store[RCUPROF_STORE_KIND_DECODER])
             - store_events(&a.store[RCUPROF_STORE_KIND_DECODER]);
    d1_other = store_events(&b.store[RCUPROF_STORE_KIND_OTHER])
               - store_events(&a.store[RCUPROF_STORE_KIND_OTHER]);
    d2_dec = store_events(&c.store[RCUPROF_STORE_KIND_DECODER])
             - store_events(&b.store[RCUPROF_STORE_KIND_DECODER]);
#undef D
    printf("store kinds: %d fetches -> evp cache_gets %llu, decoder events "
           "%llu, other %llu; one decoder context -> decoder events %llu\n",
           nfetch, (unsigned long long)d1_evp, (unsigned long long)d1_dec,
           (unsigned long long)d1_other, (unsigned long long)d2_dec);
    CHECK(d1_evp == (uint64_t)nfetch, "evp cache_gets %llu for %d fetches",
          (unsigned long long)d1_evp, nfetch);
    CHECK(d1_dec == 0 && d1_other == 0,
          "fetches counted in the decoder (%llu) or other (%llu) store",
          (unsigned long long)d1_dec, (unsigned long long)d1_other);
    CHECK(d2_dec > 0, "the decoder's store work was not counted as decoder");
#ifdef OSSL_METHOD_STORE_RCU
    /* The RCU stores' read sections: under two lock names */
    evp = slot_of("method_store");
    dec = slot_of("decoder_store");
    CHECK(evp > 0 && dec > 0 && evp != dec, "slots method_store %d decoder_store %d",
          evp, dec);
    if (evp > 0 && dec > 0) {
        uint64_t e1 = b.rcu[evp].acquisitions - a.rcu[evp].acquisitions;
        uint64_t k1 = b.rcu[dec].acquisitions - a.rcu[dec].acquisitions;
        uint64_t k2 = c.rcu[dec].acquisitions - b.rcu[dec].acquisitions;

        printf("store kinds (RCU): fetches -> method_store %llu, decoder_store "
               "%llu acquisitions; decoder context -> decoder_store %llu\n",
               (unsigned long long)e1, (unsigned long long)k1,
               (unsigned long long)k2);
        CHECK(e1 >= (uint64_t)nfetch && k1 == 0 && k2 > 0,
              "read sections not separated by store kind");
    }
    {
        struct rcuprof_probes_storeinfo si;
        void *st = ossl_lib_ctx_get_data(ctx, OSSL_LIB_CTX_DECODER_STORE_INDEX);

        si.size = sizeof(si);
        CHECK(st != NULL && rcuprof_probes_store_info(st, &si) == 0
              && si.kind == RCUPROF_STORE_KIND_DECODER
              && si.lock == (uintptr_t)ossl_method_store_rcu_lock(st),
              "decoder store info");
    }
#else
    (void)evp;
    (void)dec;
    (void)slot_of;
#endif
    EVP_PKEY_free(pkey);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
}

/* ---- whole waits: synchronize entry, and a store writer's write lock ---- */

static CRYPTO_RCU_LOCK *hlock;
static volatile int holding;

/* Holds the lock's write lock for 50 ms */
static void *write_lock_holder(void *arg)
{
    (void)arg;
    ossl_rcu_write_lock(hlock);
    __atomic_store_n(&holding, 1, __ATOMIC_RELEASE);
    usleep(50000);
    ossl_rcu_write_unlock(hlock);
    return NULL;
}

static void hold_write_lock(pthread_t *t)
{
    holding = 0;
    pthread_create(t, NULL, write_lock_holder, NULL);
    while (!__atomic_load_n(&holding, __ATOMIC_ACQUIRE))
        usleep(100);
}

static void test_whole_waits(void)
{
    struct rcuprof_probes_rcu a, b, c;
    double tpu = rcuprof_probes_ticks_per_us(), sync_us, t0;
    uint64_t floor_ticks = (uint64_t)(40000 * tpu); /* 40 of the 50 ms */
    uint64_t blocked, spin;
    pthread_t t;

    hlock = ossl_rcu_lock_new(1, NULL);     /* unnamed: slot 0 */
    a = slot0_process();
    hold_write_lock(&t);
    t0 = now_us();
    ossl_synchronize_rcu(hlock);            /* finds write_lock held */
    sync_us = now_us() - t0;
    pthread_join(t, NULL);
    b = slot0_process();
    hold_write_lock(&t);
    ossl_rcu_write_lock(hlock);             /* a store writer's wait */
    ossl_rcu_write_unlock(hlock);
    pthread_join(t, NULL);
    c = slot0_process();
    ossl_rcu_lock_free(hlock);
    spin = b.wait_ticks - a.wait_ticks;
#if RCUPROF_PROBES_VERSION >= 4
    blocked = (b.alloc_wait_ticks + b.prior_wait_ticks + b.entry_wait_ticks)
              - (a.alloc_wait_ticks + a.prior_wait_ticks + a.entry_wait_ticks);
    printf("whole waits: a synchronize of %.0f us (outside) blocked %.0f us "
           "at entry (%llu wait), spun %.1f us, blocked_syncs %llu; a write "
           "lock wait of %.0f us (%llu wait)\n", sync_us,
           (b.entry_wait_ticks - a.entry_wait_ticks) / tpu,
           (unsigned long long)(b.entry_waits - a.entry_waits), spin / tpu,
           (unsigned long long)(b.blocked_syncs - a.blocked_syncs),
           (c.write_lock_wait_ticks - b.write_lock_wait_ticks) / tpu,
           (unsigned long long)(c.write_lock_waits - b.write_lock_waits));
    CHECK(b.syncs - a.syncs == 1, "syncs %llu",
          (unsigned long long)(b.syncs - a.syncs));
    CHECK(b.entry_waits - a.entry_waits == 1
          && b.entry_wait_ticks - a.entry_wait_ticks >= floor_ticks,
          "the wait for write_lock at synchronize entry was not counted");
    CHECK(b.blocked_syncs - a.blocked_syncs == 1, "blocked_syncs %llu",
          (unsigned long long)(b.blocked_syncs - a.blocked_syncs));
    /* spinning + blocked: the synchronize's whole wait, within what it took */
    CHECK((blocked + spin) / tpu <= sync_us + 1
          && (blocked + spin) / tpu >= 0.5 * sync_us,
          "spin + blocked %.0f us of a %.0f us synchronize",
          (blocked + spin) / tpu, sync_us);
    CHECK(c.write_lock_waits - b.write_lock_waits == 1
          && c.write_lock_wait_ticks - b.write_lock_wait_ticks >= floor_ticks,
          "the store writer's wait for the write lock was not timed");
    CHECK(c.syncs == b.syncs && c.blocked_syncs == b.blocked_syncs,
          "a write lock wait counted as a synchronize's");
#else
    blocked = (b.alloc_wait_ticks + b.prior_wait_ticks)
              - (a.alloc_wait_ticks + a.prior_wait_ticks);
    printf("whole waits: a synchronize of %.0f us (outside): blocked %.0f us, "
           "spun %.1f us\n", sync_us, blocked / tpu, spin / tpu);
    (void)c;
    (void)floor_ticks;
    CHECK((blocked + spin) / tpu >= 0.5 * sync_us,
          "spin + blocked %.0f us of a %.0f us synchronize",
          (blocked + spin) / tpu, sync_us);
#endif
}

/* ---- the measured store: two lib ctxs, one of them measured ---- */

static void test_measured_store(void)
{
    OSSL_LIB_CTX *c1 = OSSL_LIB_CTX_new(), *c2 = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *d1 = OSSL_PROVIDER_load(c1, "default");
    OSSL_PROVIDER *d2 = OSSL_PROVIDER_load(c2, "default");
    void *s1 = ossl_lib_ctx_get_data(c1, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
    struct rcuprof_probes_counters a, b;
    int i, n1 = 100, n2 = 50;
    EVP_MD *md;

    CHECK(c1 != NULL && c2 != NULL && d1 != NULL && d2 != NULL && s1 != NULL,
          "two lib ctxs with default");
    md = EVP_MD_fetch(c1, "SHA2-256", NULL);    /* warm both */
    EVP_MD_free(md);
    md = EVP_MD_fetch(c2, "SHA2-256", NULL);
    EVP_MD_free(md);
#if RCUPROF_PROBES_VERSION >= 4
    CHECK(rcuprof_probes_store_measure(s1) == 0, "store_measure");
#endif
    a.size = b.size = sizeof(a);
    rcuprof_probes_read(&a);
    for (i = 0; i < n1; i++) {
        md = EVP_MD_fetch(c1, "SHA2-256", NULL);
        EVP_MD_free(md);
        if (i < n2) {
            md = EVP_MD_fetch(c2, "SHA2-256", NULL);
            EVP_MD_free(md);
        }
    }
    rcuprof_probes_read(&b);
    {
        uint64_t evp = b.store[RCUPROF_STORE_KIND_EVP].cache_gets
                       - a.store[RCUPROF_STORE_KIND_EVP].cache_gets;
#if RCUPROF_PROBES_VERSION >= 4
        uint64_t mine = b.measured_store.cache_gets
                        - a.measured_store.cache_gets;
        uint64_t acq = b.measured_rcu.acquisitions
                       - a.measured_rcu.acquisitions;
        struct rcuprof_probes_lockinfo li;
        struct rcuprof_probes_storeinfo si;

        printf("measured store: %d + %d fetches from two lib ctxs: evp cache "
               "gets %llu, the measured store's %llu, its lock's read "
               "sections %llu\n", n1, n2, (unsigned long long)evp,
               (unsigned long long)mine, (unsigned long long)acq);
        CHECK(evp == (uint64_t)(n1 + n2), "evp cache gets %llu",
              (unsigned long long)evp);
        CHECK(mine == (uint64_t)n1, "measured store cache gets %llu for %d",
              (unsigned long long)mine, n1);
# ifdef OSSL_METHOD_STORE_RCU
        CHECK(acq == (uint64_t)n1, "measured lock acquisitions %llu for %d",
              (unsigned long long)acq, n1);
        li.size = sizeof(li);
        si.size = sizeof(si);
        CHECK(rcuprof_probes_measured_lock_info(&li) == 0
              && rcuprof_probes_store_info(s1, &si) == 0
              && li.lock == si.lock && li.qp_group != 0
              && li.name != NULL && strcmp(li.name, "method_store") == 0,
              "the measured lock is not the measured store's");
# else
        (void)acq;
        (void)li;
        (void)si;
        CHECK(b.measured_rcu.acquisitions == a.measured_rcu.acquisitions,
              "stock: RCU read sections on the measured store");
# endif
        rcuprof_probes_store_measure(NULL);
#else
        printf("measured store: evp cache gets %llu for %d fetches of the "
               "measured lib ctx\n", (unsigned long long)evp, n1);
        CHECK(evp == (uint64_t)n1, "the summary's store counts %llu events "
              "for %d fetches of the measured lib ctx",
              (unsigned long long)evp, n1);
#endif
    }
    OSSL_PROVIDER_unload(d1);
    OSSL_PROVIDER_unload(d2);
    OSSL_LIB_CTX_free(c1);
    OSSL_LIB_CTX_free(c2);
}

/* ---- ticks: the timer pair resolves a known short delay ---- */

static uint64_t chain(uint64_t x, int n)
{
    int i;

    for (i = 0; i < n; i++)
        __asm__ volatile("imul %0, %0" : "+r"(x));
    return x;
}

static uint64_t least_ticks(int n, uint64_t *sink)
{
    uint64_t best = UINT64_MAX, t0, t1, x = *sink | 3;
    int i;

    for (i = 0; i < 20000; i++) {
        t0 = RCUPROF_PROBES_TICKS_BEGIN();
        x = chain(x, n);
        t1 = RCUPROF_PROBES_TICKS_END();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    *sink = x;
    return best;
}

/*
 * The smallest non-zero difference of consecutive reads seen in at least
 * 1 in 1,000 of |n| reads (as the layer's calibration, on more reads)
 */
static uint64_t own_quantum(int n)
{
    static unsigned int seen[1024];
    uint64_t q = UINT64_MAX, a = RCUPROF_PROBES_TICKS(), b;
    int i;

    for (i = 0; i < n; i++) {
        b = RCUPROF_PROBES_TICKS();
        if (b != a && b - a < 1024 && ++seen[b - a] == (unsigned)n / 1000
            && b - a < q)
            q = b - a;
        a = b;
    }
    return q;
}

static void test_quantum(void)
{
    uint64_t m = own_quantum(200000), cost = rcuprof_probes_timer_cost();
#if RCUPROF_PROBES_VERSION >= 4
    uint64_t q = rcuprof_probes_timer_quantum();

    printf("quantum: the library's %llu ticks, this test's over 200,000 "
           "reads %llu; fenced pair cost %llu\n", (unsigned long long)q,
           (unsigned long long)m, (unsigned long long)cost);
    CHECK(q > 0 && q <= cost, "quantum %llu, pair cost %llu",
          (unsigned long long)q, (unsigned long long)cost);
    CHECK(2 * q >= m && q <= 2 * m, "quantum %llu, measured here %llu",
          (unsigned long long)q, (unsigned long long)m);
#else
    printf("quantum: %llu ticks measured here; the layer reports none "
           "(pair cost %llu)\n", (unsigned long long)m,
           (unsigned long long)cost);
    CHECK(0, "no timer quantum reported (version %d)", RCUPROF_PROBES_VERSION);
#endif
}

static void test_ticks(void)
{
#if defined(__x86_64__)
    uint64_t sink = 3, cost, d32, d64, d128;

    cost = rcuprof_probes_timer_cost();     /* calibrated at enable */
    d32 = least_ticks(32, &sink);
    d64 = least_ticks(64, &sink);
    d128 = least_ticks(128, &sink);
    d32 = d32 > cost ? d32 - cost : 0;
    d64 = d64 > cost ? d64 - cost : 0;
    d128 = d128 > cost ? d128 - cost : 0;
    printf("ticks: timer pair cost %llu; dependent imul chains of 32/64/128 "
           "(96/192/384 cycles): %llu/%llu/%llu ticks beyond it (sink %llu)\n",
           (unsigned long long)cost, (unsigned long long)d32,
           (unsigned long long)d64, (unsigned long long)d128,
           (unsigned long long)(sink & 1));
    CHECK(cost > 0, "timer cost 0: calibration did not run");
    /* ~96 cycles must show: an unfenced pair reports 0 here */
    CHECK(d32 > 0, "a 96-cycle delay measured 0 ticks");
    CHECK(d64 > d32 && d128 > d64, "not monotonic in the delay");
    /* linear within 35%: twice the chain, about twice the ticks */
    CHECK(d128 * 100 >= d64 * 2 * 65 && d128 * 100 <= d64 * 2 * 135,
          "128-chain %llu ticks vs 64-chain %llu: not linear",
          (unsigned long long)d128, (unsigned long long)d64);
#else
    printf("ticks: not x86-64, clock_gettime timer: nothing to fence\n");
#endif
}

int main(void)
{
    if (getenv("PROBES_TRUTH_SYNCS") != NULL)
        syncs_per_writer = atoi(getenv("PROBES_TRUTH_SYNCS"));
    rcuprof_probes_enable(1);
    rcuprof_probes_set_sample_every(1);
    test_ticks();
    test_quantum();
    test_store_writes();
    test_store_kinds();
    test_measured_store();
    test_shards();
    test_shared_ops();
#ifdef OSSL_METHOD_STORE_RCU
    test_frees_outside_biglock();
#endif
    test_writer_waits();
    /* after test_writer_waits: its longest-wait check reads the process max */
    test_whole_waits();
    rcuprof_probes_enable(0);
    printf("%s: %s\n", store_variant(), rcuprof_failures ? "FAILED" : "ok");
    return rcuprof_failures ? 1 : 0;
}
