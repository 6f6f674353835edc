/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: the reclaim bound of the rcu-nosync method store.
 *
 * Over 100,000 store writes (ossl_method_store_cache_set with unique query
 * strings, which also drives the stochastic flush every ~250 writes), the
 * number of old versions handed to ossl_rcu_call() and not yet reclaimed
 * (ossl_method_store_pending_reclaim) never exceeds N, for several N
 * including the default; it does reach N (so reclaim really is batched).
 * N = 0 defers everything to store free: the pending count then equals the
 * number of writes, and after ossl_method_store_free() every method
 * reference the store took has been dropped (run under ASan/LSan for "no
 * leak" on top of that).  Reader threads run cache_get concurrently
 * throughout (run under ASan: no use-after-free).  Part 2 drives writes
 * through the real fetch path (EVP_MD_fetch with unique optional queries
 * "?x.n=<i>": biglock + ossl_method_store_fetch + cache_set) and checks the
 * bound on the lib ctx's EVP method store.
 *
 * On rcu-sync the pending count must stay 0; on stock there is nothing to
 * check.  Returns 0 on success.
 *
 * Build: gcc -I$TREE/include -I$TREE reclaim_bound_test.c $TREE/libcrypto.a \
 *            -lpthread -ldl -o reclaim_bound_test
 */
#include <string.h>
#include <pthread.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "internal/property.h"
#include "internal/cryptlib.h"
#include "rcuprof_test_util.h"

#define NWRITES 100000
#define NID 42

static char fake_prov_mem[64];
#define FAKE_PROV ((OSSL_PROVIDER *)(void *)fake_prov_mem)

typedef struct {
    OSSL_METHOD_STORE *store;
    int stop;
    long hits, lookups;
} READER_ARG;

static void *reader(void *varg)
{
    READER_ARG *a = varg;
    char q[32];
    void *m;
    unsigned int i = 0;

    while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
        snprintf(q, sizeof(q), "?x.n=%u", (i++ * 7919u) % 4000u);
        a->lookups++;
        if (ossl_method_store_cache_get(a->store, NULL, NID, q, &m)) {
            fake_free(m);
            a->hits++;
        }
    }
    return NULL;
}

/*
 * |batch| == (size_t)-1: leave the current setting alone.  Returns the
 * largest pending count seen.
 */
static size_t run_store(size_t batch, int nwrites, int unique, int nreaders)
{
    FAKE_METHOD m = { 1 };
    OSSL_METHOD_STORE *store;
    READER_ARG ra[4];
    pthread_t th[4];
    long lookups = 0, hits = 0;
    size_t pending, maxpending = 0, n;
    char q[32];
    int i, reached = 0;
    double t0, t1;

#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    if (batch != (size_t)-1)
        ossl_method_store_set_reclaim_batch(batch);
    n = ossl_method_store_get_reclaim_batch();
#else
    n = 0;
#endif
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL, "store_new");
    if (store == NULL)
        return 0;
    CHECK(ossl_method_store_add(store, FAKE_PROV, NID, "x.n=1", &m,
              fake_up_ref, fake_free),
        "add");
    for (i = 0; i < nreaders; i++) {
        memset(&ra[i], 0, sizeof(ra[i]));
        ra[i].store = store;
        pthread_create(&th[i], NULL, reader, &ra[i]);
    }

    t0 = now_us();
    for (i = 0; i < nwrites; i++) {
        snprintf(q, sizeof(q), "?x.n=%d", unique ? i : 0);
        if (!ossl_method_store_cache_set(store, FAKE_PROV, NID, q, &m,
                fake_up_ref, fake_free)) {
            CHECK(0, "cache_set %d failed", i);
            break;
        }
#ifdef OSSL_METHOD_STORE_RCU
        pending = ossl_method_store_pending_reclaim(store);
#else
        pending = 0;
#endif
        if (pending > maxpending)
            maxpending = pending;
        /*
         * The write that queues the N-th item drains all N after its unlock:
         * between two writes the count is at most N - 1, and it does get
         * there if reclaim is batched rather than per write.
         */
        if (n != 0 && pending == n - 1)
            reached = 1;
        if (n != 0 && pending > n) {
            CHECK(0, "write %d: pending %zu > N %zu", i, pending, n);
            break;
        }
    }
    t1 = now_us();
    for (i = 0; i < nreaders; i++)
        __atomic_store_n(&ra[i].stop, 1, __ATOMIC_RELEASE);
    for (i = 0; i < nreaders; i++) {
        pthread_join(th[i], NULL);
        lookups += ra[i].lookups;
        hits += ra[i].hits;
    }

    printf("  N=%-6zu writes=%d %s readers=%d: max pending %zu, %.2f us/write,"
           " reader lookups %ld (hits %ld)\n",
        n, nwrites, unique ? "unique-queries" : "same-query", nreaders,
        maxpending, (t1 - t0) / nwrites, lookups, hits);
    if (strcmp(store_variant(), "nosync") == 0) {
        if (n == 0)
            /* + 1: the ossl_method_store_add() is a write too */
            CHECK(maxpending == (size_t)nwrites + 1,
                "N=0: all %d writes must stay pending until store free, saw %zu",
                nwrites + 1, maxpending);
        else
            CHECK(reached || (size_t)nwrites < n,
                "N=%zu: pending never reached N - 1: reclaim is not batched", n);
    } else if (strcmp(store_variant(), "sync") == 0) {
        CHECK(maxpending == 0, "sync: pending %zu", maxpending);
    }
    ossl_method_store_free(store);
    CHECK(fake_refs(&m) == 1,
        "after store free the store still holds %ld method references",
        fake_refs(&m) - 1);
    return maxpending;
}

/* Part 2: writes through the real fetch path */
static void run_fetch(size_t batch, int nfetches)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *prov;
    OSSL_METHOD_STORE *store;
    EVP_MD *md;
    char q[32];
    size_t pending, maxpending = 0, n = 0;
    int i, ok = 1;
    double t0, t1;

#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    ossl_method_store_set_reclaim_batch(batch);
    n = ossl_method_store_get_reclaim_batch();
#endif
    prov = OSSL_PROVIDER_load(ctx, "default");
    CHECK(ctx != NULL && prov != NULL, "ctx/default provider");
    store = ossl_lib_ctx_get_data(ctx, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
    (void)store;
    t0 = now_us();
    for (i = 0; i < nfetches; i++) {
        snprintf(q, sizeof(q), "?x.n=%d", i);
        md = EVP_MD_fetch(ctx, "SHA2-256", q);
        if (md == NULL) {
            ok = 0;
            break;
        }
        EVP_MD_free(md);
#ifdef OSSL_METHOD_STORE_RCU
        pending = ossl_method_store_pending_reclaim(store);
#else
        pending = 0;
#endif
        if (pending > maxpending)
            maxpending = pending;
        if (n != 0 && pending > n) {
            CHECK(0, "fetch %d: pending %zu > N %zu", i, pending, n);
            break;
        }
    }
    t1 = now_us();
    CHECK(ok, "EVP_MD_fetch(SHA2-256, %s) failed", q);
    printf("  fetch path: N=%zu fetches=%d (unique ?x.n=<i>): max pending %zu,"
           " %.2f us/fetch\n", n, nfetches, maxpending, (t1 - t0) / nfetches);
    OSSL_PROVIDER_unload(prov);
    OSSL_LIB_CTX_free(ctx);
}

int main(int argc, char **argv)
{
    const char *env = getenv("RCUPROF_RECLAIM_BATCH");

    printf("reclaim_bound_test: variant %s\n", store_variant());
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    {
        size_t n0 = ossl_method_store_get_reclaim_batch();

        printf("  initial N = %zu (RCUPROF_RECLAIM_BATCH=%s)\n", n0,
            env == NULL ? "unset" : env);
        if (env == NULL)
            CHECK(n0 == 64, "default N is %zu, expected 64", n0);
        else
            CHECK(n0 == strtoull(env, NULL, 10), "N %zu != env %s", n0, env);
    }
    /* the initial (default or environment) value, with 2 concurrent readers */
    if (ossl_method_store_get_reclaim_batch() != 0)
        run_store((size_t)-1, NWRITES, 1, 2);
    else /* everything stays until store free: keep the memory small */
        run_store((size_t)-1, 20000, 0, 2);
    run_store(1, NWRITES, 1, 0);
    run_store(7, NWRITES, 1, 1);
    run_store(64, NWRITES, 1, 0);
    run_store(1000, NWRITES, 1, 0);
    /* 0: nothing reclaimed before store free (small caches: memory) */
    run_store(0, 20000, 0, 0);
    run_fetch(16, 20000);
    ossl_method_store_set_reclaim_batch(64);
#else
    (void)env;
    run_store((size_t)-1, NWRITES, 1, 2);
    run_fetch(0, 20000);
#endif
    (void)argc;
    (void)argv;
    if (rcuprof_failures != 0) {
        printf("reclaim_bound_test: FAILED (%d)\n", rcuprof_failures);
        return 1;
    }
    printf("reclaim_bound_test: OK\n");
    return 0;
}
