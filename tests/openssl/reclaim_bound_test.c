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
 * Part 3 (issue 14): rcu-nosync's other bounds.  With N = 1000, a byte
 * bound B keeps the pending bytes at most B plus one write's; an age bound
 * reclaims at the next write once the oldest pending version is older; the
 * pending count is exact (one external synchronize takes it to 0); and a
 * provider unloaded under N = 1000 gets its methods back at the unload,
 * not after N more writes: the store's references to its EVP_MD (held by
 * the retired versions, each holding a reference to the provider) are all
 * dropped when OSSL_PROVIDER_unload returns.  The provider part runs on
 * every variant.
 *
 * On rcu-sync the pending count must stay 0; on stock there is nothing to
 * check.  Returns 0 on success.
 *
 * Build: gcc -I$TREE/include -I$TREE reclaim_bound_test.c $TREE/libcrypto.a \
 *            -lpthread -ldl -o reclaim_bound_test
 */
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "internal/property.h"
#include "internal/cryptlib.h"
#include "internal/refcount.h"
#include "crypto/evp.h"
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

/* ---- Part 3: a provider whose teardown the test can see ---- */

static int teardown_ran;
static char tp_ctx_mem[16];

static void *tp_newctx(void *provctx)
{
    (void)provctx;
    return tp_ctx_mem;
}

static void tp_freectx(void *vctx)
{
    (void)vctx;
}

static int tp_init(void *vctx, const OSSL_PARAM params[])
{
    (void)vctx;
    (void)params;
    return 1;
}

static int tp_update(void *vctx, const unsigned char *in, size_t inl)
{
    (void)vctx;
    (void)in;
    (void)inl;
    return 1;
}

static int tp_final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    (void)vctx;
    if (outsz < 16)
        return 0;
    memset(out, 0, 16);
    *outl = 16;
    return 1;
}

static int tp_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, 64))
        return 0;
    return 1;
}

static const OSSL_DISPATCH tp_md_functions[] = {
    { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))tp_newctx },
    { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))tp_freectx },
    { OSSL_FUNC_DIGEST_INIT, (void (*)(void))tp_init },
    { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))tp_update },
    { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))tp_final },
    { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))tp_get_params },
    OSSL_DISPATCH_END
};

static const OSSL_ALGORITHM tp_digests[] = {
    { "RCUPROF-TESTMD", "provider=rcuproftest", tp_md_functions, "test" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *tp_query(void *provctx, int op, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    return op == OSSL_OP_DIGEST ? tp_digests : NULL;
}

static void tp_teardown(void *provctx)
{
    (void)provctx;
    __atomic_store_n(&teardown_ran, 1, __ATOMIC_RELEASE);
}

static const OSSL_DISPATCH tp_dispatch[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))tp_teardown },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))tp_query },
    OSSL_DISPATCH_END
};

static int tp_provider_init(const OSSL_CORE_HANDLE *handle,
    const OSSL_DISPATCH *in, const OSSL_DISPATCH **out, void **provctx)
{
    (void)handle;
    (void)in;
    *out = tp_dispatch;
    *provctx = tp_ctx_mem;
    return 1;
}

static int md_refs(EVP_MD *md)
{
    int r = 0;

    CRYPTO_GET_REF(&md->refcnt, &r);
    return r;
}

/*
 * Load the test provider, fetch its digest with several queries (a store
 * add, cache sets), keep one reference of our own, unload the provider:
 * when the unload returns, the store must hold no reference to the digest
 * (ours is the only one left), before any other write to the store.  Then
 * the provider's teardown runs at lib ctx free.
 */
static void run_provider_unload(size_t batch)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *prov;
    EVP_MD *md = NULL, *m;
    char q[48];
    int i, ok = 1, before = 0, after = 0;

#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    ossl_method_store_set_reclaim_batch(batch);
#else
    (void)batch;
#endif
    teardown_ran = 0;
    CHECK(ctx != NULL
          && OSSL_PROVIDER_add_builtin(ctx, "rcuproftest", tp_provider_init),
          "add the builtin test provider");
    prov = OSSL_PROVIDER_load(ctx, "rcuproftest");
    CHECK(prov != NULL, "load the test provider");
    for (i = 0; prov != NULL && i < 20; i++) {
        snprintf(q, sizeof(q), "?x.n=%d", i);
        m = EVP_MD_fetch(ctx, "RCUPROF-TESTMD", i == 0 ? NULL : q);
        if (m == NULL) {
            ok = 0;
            break;
        }
        if (md == NULL)
            md = m;         /* keep this one */
        else
            EVP_MD_free(m);
    }
    CHECK(ok && md != NULL, "fetch RCUPROF-TESTMD from the test provider");
    if (md != NULL)
        before = md_refs(md);
    OSSL_PROVIDER_unload(prov);
    if (md != NULL)
        after = md_refs(md);
    printf("  provider unload (N=%zu): references to its digest %d before,"
           " %d when the unload returned (1 = only ours)\n", batch, before,
           after);
    CHECK(before > 1, "the store held no reference to the digest");
    CHECK(after == 1, "N=%zu: %d store references to the unloaded provider's"
          " digest wait for later writes", batch, after - 1);
    EVP_MD_free(md);
    CHECK(!__atomic_load_n(&teardown_ran, __ATOMIC_ACQUIRE),
          "teardown before lib ctx free: the test no longer sees the store");
    OSSL_LIB_CTX_free(ctx);
    CHECK(__atomic_load_n(&teardown_ran, __ATOMIC_ACQUIRE),
          "the provider's teardown never ran, not even at lib ctx free");
}

#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
static void bounds(size_t batch, size_t bytes, size_t age_ms)
{
    ossl_method_store_set_reclaim_batch(batch);
    ossl_method_store_set_reclaim_bytes(bytes);
    ossl_method_store_set_reclaim_age_ms(age_ms);
}

static int cache_set_q(OSSL_METHOD_STORE *store, FAKE_METHOD *m, int i)
{
    char q[32];

    snprintf(q, sizeof(q), "?x.n=%d", i);
    return ossl_method_store_cache_set(store, FAKE_PROV, NID, q, m,
                                       fake_up_ref, fake_free);
}

/* Byte bound: pending bytes stay at most B plus one write's */
static void run_bytes(size_t b)
{
    FAKE_METHOD m = { 1 };
    OSSL_METHOD_STORE *store;
    size_t pb, prev = 0, maxpb = 0, maxwrite = 0, maxn = 0, n;
    int i, drains = 0;

    bounds(1000, b, 0);
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL && ossl_method_store_add(store, FAKE_PROV, NID, "x.n=1",
                                                 &m, fake_up_ref, fake_free),
          "store, add");
    for (i = 0; i < 5000; i++) {
        if (!cache_set_q(store, &m, i)) {
            CHECK(0, "cache_set %d", i);
            break;
        }
        pb = ossl_method_store_pending_reclaim_bytes(store);
        n = ossl_method_store_pending_reclaim(store);
        if (pb > prev && pb - prev > maxwrite)
            maxwrite = pb - prev;
        if (pb < prev)
            drains++;
        if (pb > maxpb)
            maxpb = pb;
        if (n > maxn)
            maxn = n;
        prev = pb;
    }
    printf("  bytes bound B=%zu (N=1000, no age bound): max pending %zu bytes"
           " (%zu versions), largest write %zu bytes, %d drains in 5000 writes\n",
           b, maxpb, maxn, maxwrite, drains);
    CHECK(maxpb <= b + maxwrite, "pending bytes %zu > B %zu + one write %zu",
          maxpb, b, maxwrite);
    CHECK(drains > 0 && maxn < 1000, "the byte bound never reclaimed");
    ossl_method_store_free(store);
    CHECK(fake_refs(&m) == 1, "references left: %ld", fake_refs(&m) - 1);
}

/* Age bound: a write after the oldest pending version aged reclaims it */
static void run_age(size_t age_ms)
{
    FAKE_METHOD m = { 1 };
    OSSL_METHOD_STORE *store;
    size_t p1, p2;

    bounds(1000, 0, age_ms);
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL && ossl_method_store_add(store, FAKE_PROV, NID, "x.n=1",
                                                 &m, fake_up_ref, fake_free),
          "store, add");
    CHECK(cache_set_q(store, &m, 1), "cache_set");
    p1 = ossl_method_store_pending_reclaim(store);
    usleep((useconds_t)(age_ms == 0 ? 30 : 2 * age_ms) * 1000);
    CHECK(cache_set_q(store, &m, 2), "cache_set");
    p2 = ossl_method_store_pending_reclaim(store);
    printf("  age bound %zu ms (N=1000, no byte bound): pending %zu, then after"
           " a pause and one more write %zu\n", age_ms, p1, p2);
    if (age_ms == 0)
        CHECK(p2 == p1 + 1, "no age bound, yet the old versions went");
    else
        CHECK(p2 == 1, "the aged versions were not reclaimed by the write");
    ossl_method_store_free(store);
    CHECK(fake_refs(&m) == 1, "references left: %ld", fake_refs(&m) - 1);
}

/* The pending count is exact: a synchronize elsewhere takes it to 0 */
static void run_exact(void)
{
    FAKE_METHOD m = { 1 };
    OSSL_METHOD_STORE *store;
    size_t p1, p2, b1, b2;
    int i;

    bounds(0, 0, 0);
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL && ossl_method_store_add(store, FAKE_PROV, NID, "x.n=1",
                                                 &m, fake_up_ref, fake_free),
          "store, add");
    for (i = 0; i < 50; i++)
        CHECK(cache_set_q(store, &m, i), "cache_set");
    p1 = ossl_method_store_pending_reclaim(store);
    b1 = ossl_method_store_pending_reclaim_bytes(store);
    ossl_synchronize_rcu(store_lock_of(store, NID));
    p2 = ossl_method_store_pending_reclaim(store);
    b2 = ossl_method_store_pending_reclaim_bytes(store);
    printf("  exact count: %zu pending (%zu bytes); after one synchronize by"
           " another caller %zu (%zu bytes)\n", p1, b1, p2, b2);
    CHECK(p1 == 51 && b1 > 0, "pending %zu after 51 writes", p1);
    CHECK(p2 == 0 && b2 == 0, "reclaimed versions still counted: %zu (%zu bytes)",
          p2, b2);
    ossl_method_store_free(store);
    CHECK(fake_refs(&m) == 1, "references left: %ld", fake_refs(&m) - 1);
}
#endif

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
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
    {
        size_t b0 = ossl_method_store_get_reclaim_bytes();
        size_t a0 = ossl_method_store_get_reclaim_age_ms();

        printf("  initial bytes bound %zu, age bound %zu ms\n", b0, a0);
        if (getenv("RCUPROF_RECLAIM_BYTES") == NULL)
            CHECK(b0 == 1024 * 1024, "default byte bound %zu", b0);
        if (getenv("RCUPROF_RECLAIM_AGE_MS") == NULL)
            CHECK(a0 == 100, "default age bound %zu", a0);
        /* Parts 1 and 2 check the count bound alone */
        ossl_method_store_set_reclaim_bytes(0);
        ossl_method_store_set_reclaim_age_ms(0);
    }
#endif
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
# ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
    run_bytes(64 * 1024);
    run_age(0);
    run_age(20);
    run_exact();
    bounds(1000, 0, 0);
# endif
    run_provider_unload(1000);
    ossl_method_store_set_reclaim_batch(64);
#else
    (void)env;
    run_store((size_t)-1, NWRITES, 1, 2);
    run_fetch(0, 20000);
    run_provider_unload(1000);
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
