/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lockfree@4.0 checks (patches/4.0/README.md, "lockfree@4.0"), on a
 * variant's libcrypto.a and internal headers:
 *
 *   lockfree_test hits [N]     after warm-up, N cached fetch+free of a
 *                              digest and a cipher take no read lock and no
 *                              write lock (pthread_rwlock_* calls counted by
 *                              --wrap), and N fetches without a free leave
 *                              the method's reference count unchanged (so
 *                              no up_ref happened); exit 1 if not
 *   lockfree_test growth N...  N distinct property queries of one digest in
 *                              a fresh library context: cache entries, the
 *                              bytes the entries allocated (store's count)
 *                              and the heap growth (mallinfo2), per query
 *   lockfree_test flush [S]    readers fetch cached methods for S seconds
 *                              (default 2) while writers insert unique
 *                              queries and flush (provider load/unload,
 *                              remove_all_provided): every fetch must
 *                              succeed and give a usable method
 *                              (readers also fetch and use SEED-SRC of
 *                              `base` while that provider is cycled)
 *   lockfree_test lists        the cache list of every digest's and
 *                              cipher's method id: each operation's ids
 *                              must spread over >= 4 of the 8 lists, none
 *                              holding more than half of them
 *   lockfree_test cycles N B   N load/unload cycles of `null`, 4 digests
 *                              re-fetched after each: heap growth per
 *                              cycle must be <= B bytes
 *   lockfree_test teardown     a built-in provider owning a child library
 *                              context (as `legacy` does) offers a cipher;
 *                              the child draws random bytes (its DRBG uses
 *                              the parent's AES), then the parent is freed:
 *                              run under valgrind, must be clean
 *   lockfree_test uaf-before   fetch, EVP_MD_free, OSSL_LIB_CTX_free
 *   lockfree_test uaf-after    fetch, OSSL_LIB_CTX_free, EVP_MD_free: the
 *                              question of openssl #31143.  Run under
 *                              valgrind or ASan: on lockfree@4.0 the free
 *                              reads freed memory (the object's lifetime is
 *                              its context's); see the README
 *
 * Link: -Wl,--wrap=pthread_rwlock_rdlock,--wrap=pthread_rwlock_wrlock
 * (lockfree_test.sh does).  Exit 77 if the tree is not lockfree@4.0
 * (uaf-before and uaf-after run on any 4.0 tree).
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "internal/cryptlib.h"
#include "internal/refcount.h"
#include "crypto/evp.h"
#if defined(__has_include)
#if __has_include("internal/property_lockfree.h")
#include "internal/property_lockfree.h"
#endif
#endif

static atomic_ulong rdlocks, wrlocks;

int __real_pthread_rwlock_rdlock(pthread_rwlock_t *l);
int __real_pthread_rwlock_wrlock(pthread_rwlock_t *l);

int __wrap_pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
    atomic_fetch_add_explicit(&rdlocks, 1, memory_order_relaxed);
    return __real_pthread_rwlock_rdlock(l);
}

int __wrap_pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
    atomic_fetch_add_explicit(&wrlocks, 1, memory_order_relaxed);
    return __real_pthread_rwlock_wrlock(l);
}

static void die(const char *what)
{
    fprintf(stderr, "lockfree_test: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static OSSL_PROVIDER *defprov;

static OSSL_LIB_CTX *new_ctx(void)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();

    if (ctx == NULL || (defprov = OSSL_PROVIDER_load(ctx, "default")) == NULL)
        die("no library context with the default provider");
    return ctx;
}

/* the provider loaded by new_ctx() is unloaded first (LSan) */
static void free_ctx(OSSL_LIB_CTX *ctx)
{
    OSSL_PROVIDER_unload(defprov);
    defprov = NULL;
    OSSL_LIB_CTX_free(ctx);
}

static int get_ref(CRYPTO_REF_COUNT *r)
{
    int v = 0;

    CRYPTO_GET_REF(r, &v);
    return v;
}

static int hits(long n)
{
    OSSL_LIB_CTX *ctx = new_ctx();
    EVP_MD *md, *m;
    EVP_CIPHER *c, *cc;
    unsigned long rd, wr;
    int ref0, ref1, cref0, cref1, bad = 0;
    long i;

    /* warm-up: the slow path once, then the entry is cached */
    if ((md = EVP_MD_fetch(ctx, "SHA2-256", NULL)) == NULL
        || (c = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL)) == NULL)
        die("warm-up fetch failed");
    EVP_MD_free(md);
    EVP_CIPHER_free(c);

    rd = atomic_load(&rdlocks);
    wr = atomic_load(&wrlocks);
    for (i = 0; i < n; i++) {
        if ((m = EVP_MD_fetch(ctx, "SHA2-256", NULL)) != md
            || (cc = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL)) != c)
            die("a cached fetch returned another object");
        EVP_MD_free(m);
        EVP_CIPHER_free(cc);
    }
    rd = atomic_load(&rdlocks) - rd;
    wr = atomic_load(&wrlocks) - wr;
    printf("hits: %ld cached fetch+free of SHA2-256 and AES-128-CBC: "
           "%lu read locks, %lu write locks\n", n, rd, wr);
    if (rd != 0 || wr != 0)
        bad = 1;

    ref0 = get_ref(&md->refcnt);
    cref0 = get_ref(&c->refcnt);
    for (i = 0; i < n; i++) {
        (void)EVP_MD_fetch(ctx, "SHA2-256", NULL);
        (void)EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL);
    }
    ref1 = get_ref(&md->refcnt);
    cref1 = get_ref(&c->refcnt);
    printf("hits: %ld fetches without free: digest refcount %d -> %d, "
           "cipher refcount %d -> %d\n", n, ref0, ref1, cref0, cref1);
    if (ref0 != ref1 || cref0 != cref1)
        bad = 1;
    for (i = 0; i < n; i++) {
        EVP_MD_free(md);
        EVP_CIPHER_free(c);
    }
    if (get_ref(&md->refcnt) != ref0 || get_ref(&c->refcnt) != cref0)
        bad = 1;
    printf("hits: after %ld frees: digest refcount %d, cipher refcount %d\n",
           n, get_ref(&md->refcnt), get_ref(&c->refcnt));
    free_ctx(ctx);
    printf("hits: %s\n", bad ? "FAIL" : "ok");
    return bad;
}

#ifdef OSSL_METHOD_STORE_LOCKFREE
/* bytes of heap per distinct query the README states as the bound */
#define GROWTH_MAX_PER_QUERY 128

static int growth(int argc, char **argv)
{
    int bad = 0;

    for (int a = 0; a < argc; a++) {
        long n = atol(argv[a]);
        OSSL_LIB_CTX *ctx = new_ctx();
        OSSL_METHOD_STORE *store;
        OSSL_METHOD_STORE_CACHE_STATS s0, s1;
        struct mallinfo2 m0, m1;
        char q[64];
        EVP_MD *md;

        store = ossl_lib_ctx_get_data(ctx, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
        if ((md = EVP_MD_fetch(ctx, "SHA2-256", NULL)) == NULL)
            die("fetch failed");
        EVP_MD_free(md);
        ossl_method_store_cache_stats(store, &s0);
        m0 = mallinfo2();
        for (long i = 0; i < n; i++) {
            snprintf(q, sizeof(q), "?rcuprof.n=%ld", i);
            if ((md = EVP_MD_fetch(ctx, "SHA2-256", q)) == NULL)
                die("fetch with a unique query failed");
            EVP_MD_free(md);
        }
        m1 = mallinfo2();
        ossl_method_store_cache_stats(store, &s1);
        printf("growth: %ld distinct queries (\"?rcuprof.n=<i>\", 12-16 chars): "
               "+%zu entries, +%zu entry bytes (%.1f per query), "
               "heap +%zu bytes (%.1f per query), retired %zu\n",
               n, s1.entries - s0.entries, s1.entry_bytes - s0.entry_bytes,
               (double)(s1.entry_bytes - s0.entry_bytes) / (double)n,
               m1.uordblks - m0.uordblks,
               (double)(m1.uordblks - m0.uordblks) / (double)n,
               s1.retired - s0.retired);
        /* one entry per distinct query, and the bound the README states */
        if (s1.entries - s0.entries != (size_t)n
            || (double)(m1.uordblks - m0.uordblks) / (double)n > GROWTH_MAX_PER_QUERY) {
            printf("growth: FAIL: expected %ld new entries and <= %d heap bytes "
                   "per query\n", n, GROWTH_MAX_PER_QUERY);
            bad = 1;
        }
        /* a flush retires them all; they stay allocated until ctx free */
        if (!ossl_method_store_cache_flush_all(store))
            die("flush failed");
        ossl_method_store_cache_stats(store, &s1);
        printf("growth: after cache_flush_all: %zu live, %zu retired, "
               "%zu entry bytes still allocated\n",
               s1.entries, s1.retired, s1.entry_bytes);
        free_ctx(ctx);
    }
    return bad;
}

static int lists_of(const char *what, const int *ids, int n)
{
    int per[4][OSSL_METHOD_STORE_CACHE_LISTS] = { { 0 } };
    int used = 0, most = 0;

    for (int i = 0; i < n; i++)
        per[ids[i] & 3][ossl_method_store_cache_list_of(ids[i])]++;
    for (int sh = 0; sh < 4; sh++)
        for (int l = 0; l < OSSL_METHOD_STORE_CACHE_LISTS; l++) {
            used += per[sh][l] != 0;
            most = per[sh][l] > most ? per[sh][l] : most;
        }
    printf("lists: %d %s method ids on %d lists, at most %d on one\n",
           n, what, used, most);
    return n < 8 || used < 4 || most > n / 2;
}

#define MAX_IDS 256
static int md_ids[MAX_IDS], n_md, cipher_ids[MAX_IDS], n_cipher;

static void add_md(EVP_MD *md, void *arg)
{
    (void)arg;
    if (n_md < MAX_IDS)
        md_ids[n_md++] = md->name_id << 8 | OSSL_OP_DIGEST;
}

static void add_cipher(EVP_CIPHER *c, void *arg)
{
    (void)arg;
    if (n_cipher < MAX_IDS)
        cipher_ids[n_cipher++] = c->name_id << 8 | OSSL_OP_CIPHER;
}

/*
 * The method id is name_id << 8 | operation (evp_fetch.c); its low bits
 * name only the operation, so the list must come from all of its bits.
 */
static int lists(void)
{
    OSSL_LIB_CTX *ctx = new_ctx();
    EVP_MD *a = EVP_MD_fetch(ctx, "SHA2-256", NULL);
    EVP_MD *b = EVP_MD_fetch(ctx, "SHA2-512", NULL);
    int bad;

    if (a == NULL || b == NULL)
        die("fetch failed");
    EVP_MD_do_all_provided(ctx, add_md, NULL);
    EVP_CIPHER_do_all_provided(ctx, add_cipher, NULL);
    bad = lists_of("digest", md_ids, n_md);
    bad |= lists_of("cipher", cipher_ids, n_cipher);
    printf("lists: SHA2-256 on list %u, SHA2-512 on list %u\n",
           ossl_method_store_cache_list_of(a->name_id << 8 | OSSL_OP_DIGEST),
           ossl_method_store_cache_list_of(b->name_id << 8 | OSSL_OP_DIGEST));
    EVP_MD_free(a);
    EVP_MD_free(b);
    free_ctx(ctx);
    printf("lists: %s\n", bad ? "FAIL" : "ok");
    return bad;
}

/*
 * Growth per flush: each load of a provider retires every cache entry, and
 * each re-fetch then allocates a new one; retired ones stay until the
 * context is freed.
 */
static int cycles(long n, double bound)
{
    static const char *mds[] = { "SHA2-256", "SHA2-512", "SHA3-256", "SHA1" };
    OSSL_LIB_CTX *ctx = new_ctx();
    OSSL_METHOD_STORE *store;
    OSSL_METHOD_STORE_CACHE_STATS s0, s1;
    struct mallinfo2 m0, m1;
    double per;

    store = ossl_lib_ctx_get_data(ctx, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
    for (long i = -2; i < n; i++) {
        OSSL_PROVIDER *p;

        if (i == 0) {   /* after two warm-up cycles */
            ossl_method_store_cache_stats(store, &s0);
            m0 = mallinfo2();
        }
        if ((p = OSSL_PROVIDER_load(ctx, "null")) == NULL)
            die("cannot load null");
        OSSL_PROVIDER_unload(p);
        for (int a = 0; a < 4; a++) {
            EVP_MD *md = EVP_MD_fetch(ctx, mds[a], NULL);

            if (md == NULL)
                die("re-fetch failed");
            EVP_MD_free(md);
        }
    }
    m1 = mallinfo2();
    ossl_method_store_cache_stats(store, &s1);
    per = (double)((long)m1.uordblks - (long)m0.uordblks) / (double)n;
    printf("cycles: %ld load/unload cycles of null, 4 digests re-fetched "
           "each: heap %+ld bytes (%.1f per cycle, bound %.0f), "
           "+%zu retired entries, +%zu entry bytes\n",
           n, (long)m1.uordblks - (long)m0.uordblks, per, bound,
           s1.retired - s0.retired, s1.entry_bytes - s0.entry_bytes);
    free_ctx(ctx);
    printf("cycles: %s\n", per > bound ? "FAIL" : "ok");
    return per > bound;
}
#endif

/* ---- flush: readers against inserts and flushes */
static OSSL_LIB_CTX *fctx;
static atomic_int stop;
static atomic_long reads, writes, failures;

static void *reader(void *arg)
{
    static const char *mds[] = { "SHA2-256", "SHA2-512", "SHA3-256", "MD5" };
    static const char *ciphers[] = { "AES-128-CBC", "AES-256-GCM", "CHACHA20" };
    unsigned char out[64];
    unsigned int outl;
    long i = 0;

    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        EVP_MD *md = EVP_MD_fetch(fctx, mds[i & 3], NULL);
        EVP_CIPHER *c = EVP_CIPHER_fetch(fctx, ciphers[i % 3], NULL);

        /* use them: a freed or half-published method would crash here */
        if (md == NULL || c == NULL
            || !EVP_Digest("abc", 3, out, &outl, md, NULL)
            || EVP_CIPHER_get_key_length(c) <= 0)
            atomic_fetch_add(&failures, 1);
        EVP_MD_free(md);
        EVP_CIPHER_free(c);
        atomic_fetch_add_explicit(&reads, 1, memory_order_relaxed);
        i++;
    }
    return NULL;
}

/*
 * A reader of the provider being cycled: SEED-SRC of `base`, fetched while
 * the flusher loads and unloads it.  A fetch may find nothing (base is
 * unloaded); one that returns a method must give a working one.
 */
static atomic_long seed_hits, seed_misses;

static void *seed_reader(void *arg)
{
    unsigned char out[16];

    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        EVP_RAND *r = EVP_RAND_fetch(fctx, "SEED-SRC", "provider=base");
        EVP_RAND_CTX *rc;

        if (r == NULL) {
            atomic_fetch_add_explicit(&seed_misses, 1, memory_order_relaxed);
            ERR_clear_error();
            continue;
        }
        rc = EVP_RAND_CTX_new(r, NULL);
        if (rc == NULL || !EVP_RAND_instantiate(rc, 0, 0, NULL, 0, NULL)
            || !EVP_RAND_generate(rc, out, sizeof(out), 0, 0, NULL, 0))
            atomic_fetch_add(&failures, 1);
        EVP_RAND_CTX_free(rc);
        EVP_RAND_free(r);
        atomic_fetch_add_explicit(&seed_hits, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&reads, 1, memory_order_relaxed);
    }
    return NULL;
}

static void *inserter(void *arg)
{
    char q[64];
    long i = 0;

    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        EVP_MD *md;

        snprintf(q, sizeof(q), "?rcuprof.w=%ld", i++);
        md = EVP_MD_fetch(fctx, (i & 1) ? "SHA2-256" : "SHA2-512", q);
        if (md == NULL)
            atomic_fetch_add(&failures, 1);
        EVP_MD_free(md);
        atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
    }
    return NULL;
}

static void *flusher(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        /* load: cache_flush_all; unload: remove_all_provided (null has none,
         * base adds its own and removes them) */
        OSSL_PROVIDER *p = OSSL_PROVIDER_load(fctx, "null");
        OSSL_PROVIDER *b = OSSL_PROVIDER_load(fctx, "base");
        EVP_RAND *r = b != NULL ? EVP_RAND_fetch(fctx, "SEED-SRC", "provider=base") : NULL;

        EVP_RAND_free(r);
        if (b != NULL)
            OSSL_PROVIDER_unload(b);
        if (p != NULL)
            OSSL_PROVIDER_unload(p);
        atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
    }
    return NULL;
}

static int flush(double secs)
{
    pthread_t t[5];
    struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

    fctx = new_ctx();
    pthread_create(&t[0], NULL, reader, NULL);
    pthread_create(&t[1], NULL, reader, NULL);
    pthread_create(&t[2], NULL, inserter, NULL);
    pthread_create(&t[3], NULL, flusher, NULL);
    pthread_create(&t[4], NULL, seed_reader, NULL);
    nanosleep(&ts, NULL);
    atomic_store(&stop, 1);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    free_ctx(fctx);
    printf("flush: %ld reads, %ld writes, %ld failures; SEED-SRC of the "
           "cycled base: %ld fetched and used, %ld not found (unloaded)\n",
           atomic_load(&reads), atomic_load(&writes), atomic_load(&failures),
           atomic_load(&seed_hits), atomic_load(&seed_misses));
    return atomic_load(&failures) != 0 || atomic_load(&reads) == 0
        || atomic_load(&seed_hits) == 0;
}

/*
 * teardown: a provider that owns a child library context, as `legacy`
 * does.  Its one cipher (store-owned in the parent's store) holds the
 * last reference to it once it is unloaded, so the parent's store free
 * tears it down; the teardown frees the child context, whose DRBG holds
 * AES-256-CTR of the parent's store (store-owned too).
 */
static OSSL_LIB_CTX *child_ctx;

static void *tc_newctx(void *provctx)
{
    (void)provctx;
    return OPENSSL_zalloc(16);
}

static void tc_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static int tc_init(void *vctx, const unsigned char *key, size_t keylen,
                   const unsigned char *iv, size_t ivlen, const OSSL_PARAM p[])
{
    (void)vctx; (void)key; (void)keylen; (void)iv; (void)ivlen; (void)p;
    return 1;
}

static int tc_update(void *vctx, unsigned char *out, size_t *outl,
                     size_t outsize, const unsigned char *in, size_t inl)
{
    (void)vctx;
    if (outsize < inl)
        return 0;
    memmove(out, in, inl);
    *outl = inl;
    return 1;
}

static int tc_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    (void)vctx; (void)out; (void)outsize;
    *outl = 0;
    return 1;
}

static int tc_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, 1))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, 0))
        return 0;
    return 1;
}

static const OSSL_DISPATCH tc_cipher_fns[] = {
    { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))tc_newctx },
    { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))tc_freectx },
    { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))tc_init },
    { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))tc_init },
    { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))tc_update },
    { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))tc_final },
    { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))tc_get_params },
    OSSL_DISPATCH_END
};

static const OSSL_ALGORITHM tc_ciphers[] = {
    { "RCUPROF-CHILD-COPY", "provider=rcuprof-child", tc_cipher_fns, NULL },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *tc_query(void *provctx, int op, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    return op == OSSL_OP_CIPHER ? tc_ciphers : NULL;
}

static void tc_teardown(void *provctx)
{
    OSSL_LIB_CTX_free(provctx);     /* the child context, and its DRBG */
    child_ctx = NULL;
}

static const OSSL_DISPATCH tc_provider_fns[] = {
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))tc_query },
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))tc_teardown },
    OSSL_DISPATCH_END
};

static int tc_provider_init(const OSSL_CORE_HANDLE *handle,
                            const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                            void **provctx)
{
    if ((child_ctx = OSSL_LIB_CTX_new_child(handle, in)) == NULL)
        return 0;
    *out = tc_provider_fns;
    *provctx = child_ctx;
    return 1;
}

static int teardown(void)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *def, *child;
    EVP_CIPHER *aes, *own;
    unsigned char buf[32];

    if (ctx == NULL
        || !OSSL_PROVIDER_add_builtin(ctx, "rcuprof-child", tc_provider_init)
        || (def = OSSL_PROVIDER_load(ctx, "default")) == NULL
        || (child = OSSL_PROVIDER_load(ctx, "rcuprof-child")) == NULL)
        die("teardown: cannot set up the provider with a child context");
    if ((aes = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL)) == NULL
        || (own = EVP_CIPHER_fetch(ctx, "RCUPROF-CHILD-COPY", NULL)) == NULL)
        die("teardown: fetch failed");
    /* the child's DRBG: CTR-DRBG of the parent's default, AES of the parent */
    if (RAND_bytes_ex(child_ctx, buf, sizeof(buf), 0) <= 0)
        die("teardown: the child context drew no random bytes");
    EVP_CIPHER_free(aes);
    EVP_CIPHER_free(own);
    OSSL_PROVIDER_unload(child);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
    printf("teardown: the context with a provider owning a child context "
           "was freed (child %s)\n", child_ctx == NULL ? "torn down" : "LEFT");
    return child_ctx != NULL;
}

static int uaf(int after)
{
    OSSL_LIB_CTX *ctx = new_ctx();
    EVP_MD *md = EVP_MD_fetch(ctx, "SHA2-256", NULL);

    if (md == NULL)
        die("fetch failed");
    if (after) {
        free_ctx(ctx);
        EVP_MD_free(md);        /* lockfree@4.0: reads the freed digest */
    } else {
        EVP_MD_free(md);
        free_ctx(ctx);
    }
    printf("uaf-%s: returned\n", after ? "after" : "before");
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "hits";

#ifndef OSSL_METHOD_STORE_LOCKFREE
    if (strcmp(cmd, "uaf-before") != 0 && strcmp(cmd, "uaf-after") != 0
        && strcmp(cmd, "teardown") != 0) {
        printf("lockfree_test: not a lockfree@4.0 tree: skipped\n");
        return 77;
    }
#endif
    if (strcmp(cmd, "hits") == 0)
        return hits(argc > 2 ? atol(argv[2]) : 100000);
#ifdef OSSL_METHOD_STORE_LOCKFREE
    if (strcmp(cmd, "growth") == 0)
        return growth(argc - 2, argv + 2);
    if (strcmp(cmd, "lists") == 0)
        return lists();
    if (strcmp(cmd, "cycles") == 0 && argc == 4)
        return cycles(atol(argv[2]), atof(argv[3]));
#endif
    if (strcmp(cmd, "teardown") == 0)
        return teardown();
    if (strcmp(cmd, "flush") == 0)
        return flush(argc > 2 ? atof(argv[2]) : 2.0);
    if (strcmp(cmd, "uaf-before") == 0)
        return uaf(0);
    if (strcmp(cmd, "uaf-after") == 0)
        return uaf(1);
    fprintf(stderr, "usage: lockfree_test hits [N] | growth N... | flush [S] | lists | cycles N B | teardown | uaf-before | uaf-after\n");
    return 2;
}
