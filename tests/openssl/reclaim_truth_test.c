/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * When the RCU store frees what it retired, and with which locks held
 * (patches/README.md, "Nothing is freed under a store lock" and 0003's
 * provider unload).  Linked statically against an RCU variant's
 * libcrypto.a; every check runs on rcu-sync and rcu-nosync alike (rcu-sync
 * frees at every write, so it passes them by construction; rcu-nosync's
 * batched reclaim is what they are about).  From the cold review of the 3.5
 * series (issue 14 follow-up):
 *
 *   batch      a batch publication (ossl_method_unlock_store) that finds a
 *              reclaim bound passed (here the age bound) publishes under
 *              biglock but reclaims after biglock is released: a method
 *              free run by that reclaim can reserve the store itself.
 *   unchanged  the urgent reclaim of a provider unload happens even when
 *              the unload changes nothing (the provider's method was only
 *              cached, and the cache entry already retired).
 *   race       the unload returns only when every version queued before it
 *              is freed, also those another thread's synchronize took and
 *              still runs (a slow method destructor holds it up).
 *   nested     a method free that unloads a provider from inside a reclaim
 *              callback (the thread runs the rest of its batch later) does
 *              not wait for itself: it returns.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include "internal/property.h"
#include "internal/cryptlib.h"
#include "internal/rcu.h"
#include "rcuprof_test_util.h"

#ifndef OSSL_METHOD_STORE_RCU
int main(void)
{
    printf("SKIPPED: not an RCU store variant\n");
    return 77;
}
#else

static char prov_a_mem[64], prov_p_mem[64], prov_q_mem[64];
#define PA ((OSSL_PROVIDER *)(void *)prov_a_mem)
#define PP ((OSSL_PROVIDER *)(void *)prov_p_mem)
#define PQ ((OSSL_PROVIDER *)(void *)prov_q_mem)

/* rcu-nosync's bounds; rcu-sync has none (it reclaims at every write) */
static void bounds(size_t n, size_t bytes, size_t age_ms)
{
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
    ossl_method_store_set_reclaim_batch(n);
    ossl_method_store_set_reclaim_bytes(bytes);
    ossl_method_store_set_reclaim_age_ms(age_ms);
#else
    (void)n, (void)bytes, (void)age_ms;
#endif
}

/* ---- batch: reclaim after biglock ---- */

static OSSL_METHOD_STORE *bstore;
static int reserve_ok = -1, reserving_frees;

/* A method destructor that reserves the store (as a provider teardown may) */
static void reserving_free(void *p)
{
    reserving_frees++;
    reserve_ok = ossl_method_lock_store(bstore);
    if (reserve_ok)
        ossl_method_unlock_store(bstore);
    fake_free(p);
}

static void test_batch_reclaims_after_biglock(void)
{
    static FAKE_METHOD a = { 1 }, q = { 1 }, b = { 1 };
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    size_t pending_before, pending_after;
    /*
     * The queued add's id: another algorithm, in the same RCU store as 42
     * (a sharded store's bounds are per shard: a write to another shard
     * does not reclaim shard 42's versions).
     */
#ifdef OSSL_METHOD_STORE_RCU_SHARDED
    int nid2 = 42 + ossl_method_store_shards();
#else
    int nid2 = 43;
#endif

    bstore = ossl_method_store_new(ctx);
    CHECK(bstore != NULL, "store");
    if (bstore == NULL)
        return;
    bounds(1000, 0, 1);         /* no count or byte bound; 1 ms of age */
    CHECK(ossl_method_store_add(bstore, PA, 42, "", &a, fake_up_ref, fake_free),
          "add");
    CHECK(ossl_method_store_cache_set(bstore, PA, 42, "x", &q, fake_up_ref,
                                      reserving_free), "cache_set");
    /* replaces the entry: the old one (and its reserving free) retires */
    CHECK(ossl_method_store_cache_set(bstore, PA, 42, "x", &q, fake_up_ref,
                                      fake_free), "cache_set again");
    pending_before = ossl_method_store_pending_reclaim(bstore);
    usleep(5000);               /* idle for 5 ms: the age bound has passed */
    CHECK(ossl_method_lock_store(bstore), "lock_store");
    CHECK(ossl_method_store_add(bstore, PA, nid2, "", &b, fake_up_ref,
                                fake_free), "queued add");
    CHECK(ossl_method_unlock_store(bstore), "unlock_store");
    pending_after = ossl_method_store_pending_reclaim(bstore);
    printf("batch (%s): pending %zu before the reservation, %zu after; the "
           "retired entry's free ran %d time(s), could reserve: %d\n",
           store_variant(), pending_before, pending_after, reserving_frees,
           reserve_ok);
    CHECK(reserving_frees == 1, "the retired entry was freed %d times",
          reserving_frees);
    CHECK(reserve_ok == 1,
          "a method free ran while biglock was held (reserve returned %d)",
          reserve_ok);
    CHECK(pending_after == 0, "the batch did not reclaim: %zu pending",
          pending_after);
    ossl_method_store_free(bstore);
    bstore = NULL;
    OSSL_LIB_CTX_free(ctx);
    CHECK(fake_refs(&a) == 1 && fake_refs(&b) == 1 && fake_refs(&q) == 1,
          "refs %ld %ld %ld", fake_refs(&a), fake_refs(&b), fake_refs(&q));
}

/* ---- unchanged: an unload that changes nothing still reclaims ---- */

static void test_urgent_unchanged(void)
{
    static FAKE_METHOD a = { 1 }, p = { 1 };
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_METHOD_STORE *s = ossl_method_store_new(ctx);
    long refs_cached, refs_after;

    CHECK(s != NULL, "store");
    if (s == NULL)
        return;
    bounds(1000, 0, 0);         /* only the unload can reclaim */
    /*
     * A implements nid 42; P's method is only cached (as a no_store
     * provider's method is, by inner_evp_generic_fetch), then the cache is
     * flushed: the retired entry, pending, holds P's method.
     */
    CHECK(ossl_method_store_add(s, PA, 42, "", &a, fake_up_ref, fake_free),
          "add");
    CHECK(ossl_method_store_cache_set(s, PP, 42, "x", &p, fake_up_ref,
                                      fake_free), "cache_set");
    CHECK(ossl_method_store_cache_flush_all(s), "flush_all");
    refs_cached = fake_refs(&p);
    /* P has no implementation in the store: the write changes nothing */
    CHECK(ossl_method_store_remove_all_provided(s, PP), "remove_all_provided");
    refs_after = fake_refs(&p);
    printf("unchanged (%s): P's method refs %ld after the flush, %ld after "
           "P's unload (1 = only ours); pending %zu\n", store_variant(),
           refs_cached, refs_after, ossl_method_store_pending_reclaim(s));
    CHECK(refs_after == 1,
          "P's method still referenced (%ld) after its unload", refs_after);
    ossl_method_store_free(s);
    OSSL_LIB_CTX_free(ctx);
    CHECK(fake_refs(&p) == 1 && fake_refs(&a) == 1, "refs at the end");
}

/* ---- race: another thread's synchronize holds older versions ---- */

static OSSL_METHOD_STORE *rstore;
static volatile int in_slow_free;
static FAKE_METHOD slow = { 1 }, pm = { 1 };

static void slow_free(void *p)
{
    __atomic_store_n(&in_slow_free, 1, __ATOMIC_RELEASE);
    usleep(300000);             /* a slow method destructor */
    fake_free(p);
}

static void *other_synchronize(void *arg)
{
    (void)arg;
    /* a drain of another writer: it takes every callback queued so far */
    ossl_synchronize_rcu(store_lock_of(rstore, 42));
    return NULL;
}

static void test_urgent_race(void)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    pthread_t t;
    long refs_at_return;
    double t0, waited_ms;

    rstore = ossl_method_store_new(ctx);
    CHECK(rstore != NULL, "store");
    if (rstore == NULL)
        return;
    bounds(1000, 0, 0);
    CHECK(ossl_method_store_add(rstore, PP, 42, "", &pm, fake_up_ref,
                                fake_free), "add");
    /* a retired entry holding P's method, then a retired slow entry */
    ossl_method_store_cache_set(rstore, PP, 42, "b", &pm, fake_up_ref,
                                fake_free);
    ossl_method_store_cache_set(rstore, PP, 42, "b", &pm, fake_up_ref,
                                fake_free);
    ossl_method_store_cache_set(rstore, PP, 42, "a", &slow, fake_up_ref,
                                slow_free);
    ossl_method_store_cache_set(rstore, PP, 42, "a", &pm, fake_up_ref,
                                fake_free);
    in_slow_free = 0;
    CHECK(pthread_create(&t, NULL, other_synchronize, NULL) == 0, "thread");
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    /* the other thread's callbacks run, newest first: the slow one */
    while (!__atomic_load_n(&in_slow_free, __ATOMIC_ACQUIRE))
        usleep(1000);
#endif
    /* (rcu-sync freed both entries at their writes: nothing to race) */
    t0 = now_us();
    CHECK(ossl_method_store_remove_all_provided(rstore, PP),
          "remove_all_provided");     /* P's unload: urgent */
    waited_ms = (now_us() - t0) / 1000.0;
    refs_at_return = fake_refs(&pm);
    pthread_join(t, NULL);
    printf("race (%s): P's unload returned after %.1f ms with P's method "
           "refs %ld (1 = only ours); %ld after the other thread's "
           "callbacks\n", store_variant(), waited_ms, refs_at_return,
           fake_refs(&pm));
    CHECK(refs_at_return == 1,
          "the unload returned while a version holding P's method was "
          "still pending (refs %ld)", refs_at_return);
    ossl_method_store_free(rstore);
    rstore = NULL;
    OSSL_LIB_CTX_free(ctx);
    CHECK(fake_refs(&pm) == 1 && fake_refs(&slow) == 1, "refs at the end");
}

/* ---- nested: an unload inside a reclaim callback returns ---- */

static OSSL_METHOD_STORE *nstore;
static int nested_returned;

/* A method free that unloads provider Q from the same store */
static void unloading_free(void *p)
{
    fake_free(p);
    if (nstore != NULL) {
        ossl_method_store_remove_all_provided(nstore, PQ);
        nested_returned++;
    }
}

static void test_urgent_nested(void)
{
    static FAKE_METHOD a = { 1 }, u = { 1 }, q = { 1 }, x = { 1 };
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();

    nstore = ossl_method_store_new(ctx);
    CHECK(nstore != NULL, "store");
    if (nstore == NULL)
        return;
    bounds(1000, 0, 0);
    CHECK(ossl_method_store_add(nstore, PA, 42, "", &a, fake_up_ref,
                                fake_free), "add A");
    CHECK(ossl_method_store_add(nstore, PQ, 43, "", &q, fake_up_ref,
                                fake_free), "add Q");
    /* pending: an entry whose free unloads Q, and an older plain one */
    ossl_method_store_cache_set(nstore, PA, 42, "y", &x, fake_up_ref,
                                fake_free);
    ossl_method_store_cache_set(nstore, PA, 42, "y", &x, fake_up_ref,
                                fake_free);
    ossl_method_store_cache_set(nstore, PA, 42, "z", &u, fake_up_ref,
                                unloading_free);
    ossl_method_store_cache_set(nstore, PA, 42, "z", &x, fake_up_ref,
                                fake_free);
    /* A's unload reclaims everything: the callbacks unload Q, nested */
    alarm(60);                  /* a deadlock fails the test, not ctest */
    CHECK(ossl_method_store_remove_all_provided(nstore, PA),
          "remove_all_provided(A)");
    alarm(0);
    printf("nested (%s): the unload inside a reclaim callback returned %d "
           "time(s); pending %zu\n", store_variant(), nested_returned,
           ossl_method_store_pending_reclaim(nstore));
    CHECK(nested_returned == 1, "nested unload returned %d times",
          nested_returned);
    CHECK(fake_refs(&q) == 1, "Q's method refs %ld after Q's unload",
          fake_refs(&q));
    {
        OSSL_METHOD_STORE *s = nstore;

        nstore = NULL;
        ossl_method_store_free(s);
    }
    OSSL_LIB_CTX_free(ctx);
}

int main(void)
{
    test_batch_reclaims_after_biglock();
    test_urgent_unchanged();
    test_urgent_race();
    test_urgent_nested();
    printf("%s: %s\n", store_variant(), rcuprof_failures ? "FAILED" : "ok");
    return rcuprof_failures ? 1 : 0;
}
#endif
