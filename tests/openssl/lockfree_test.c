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
 *   lockfree_test uaf-before   fetch, EVP_MD_free, OSSL_LIB_CTX_free
 *   lockfree_test uaf-after    fetch, OSSL_LIB_CTX_free, EVP_MD_free: the
 *                              question of openssl #31143.  Run under
 *                              valgrind or ASan: on lockfree@4.0 the free
 *                              reads freed memory (the object's lifetime is
 *                              its context's); see the README
 *
 * Link: -Wl,--wrap=pthread_rwlock_rdlock,--wrap=pthread_rwlock_wrlock
 * (lockfree_test.sh does).  Exit 77 if the tree is not lockfree@4.0.
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
static int growth(int argc, char **argv)
{
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
        printf("growth: %ld distinct queries (\"?rcuprof.n=<i>\", 14-19 chars): "
               "+%zu entries, +%zu entry bytes (%.1f per query), "
               "heap +%zu bytes (%.1f per query), retired %zu\n",
               n, s1.entries - s0.entries, s1.entry_bytes - s0.entry_bytes,
               (double)(s1.entry_bytes - s0.entry_bytes) / (double)n,
               m1.uordblks - m0.uordblks,
               (double)(m1.uordblks - m0.uordblks) / (double)n,
               s1.retired - s0.retired);
        /* a flush retires them all; they stay allocated until ctx free */
        if (!ossl_method_store_cache_flush_all(store))
            die("flush failed");
        ossl_method_store_cache_stats(store, &s1);
        printf("growth: after cache_flush_all: %zu live, %zu retired, "
               "%zu entry bytes still allocated\n",
               s1.entries, s1.retired, s1.entry_bytes);
        free_ctx(ctx);
    }
    return 0;
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
    pthread_t t[4];
    struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

    fctx = new_ctx();
    pthread_create(&t[0], NULL, reader, NULL);
    pthread_create(&t[1], NULL, reader, NULL);
    pthread_create(&t[2], NULL, inserter, NULL);
    pthread_create(&t[3], NULL, flusher, NULL);
    nanosleep(&ts, NULL);
    atomic_store(&stop, 1);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    free_ctx(fctx);
    printf("flush: %ld reads, %ld writes, %ld failures\n",
           atomic_load(&reads), atomic_load(&writes), atomic_load(&failures));
    return atomic_load(&failures) != 0 || atomic_load(&reads) == 0;
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
    if (strcmp(cmd, "uaf-before") != 0 && strcmp(cmd, "uaf-after") != 0) {
        printf("lockfree_test: not a lockfree@4.0 tree: skipped\n");
        return 77;
    }
#endif
    if (strcmp(cmd, "hits") == 0)
        return hits(argc > 2 ? atol(argv[2]) : 100000);
#ifdef OSSL_METHOD_STORE_LOCKFREE
    if (strcmp(cmd, "growth") == 0)
        return growth(argc - 2, argv + 2);
#endif
    if (strcmp(cmd, "flush") == 0)
        return flush(argc > 2 ? atof(argv[2]) : 2.0);
    if (strcmp(cmd, "uaf-before") == 0)
        return uaf(0);
    if (strcmp(cmd, "uaf-after") == 0)
        return uaf(1);
    fprintf(stderr, "usage: lockfree_test hits [N] | growth N... | flush [S] | uaf-before | uaf-after\n");
    return 2;
}
