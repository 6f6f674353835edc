/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: a failed RCU read lock fails the store read cleanly (3.6+).
 *
 * From OpenSSL 3.6 on ossl_rcu_read_lock() returns int: it fails when the
 * calling thread's per-ctx RCU data cannot be allocated (its first read
 * lock of that lib ctx).  The RCU method store's readers (cache_get, fetch,
 * do_all) must then read nothing: no snapshot dereference without a hold,
 * no unlock without a lock.
 *
 * The test installs OpenSSL memory functions that refuse, on one thread
 * and only while it says so, every allocation made in
 * crypto/threads_pthread.c (the per-thread RCU data's is the one a read
 * lock makes; RCU locks and callback items also come from there: their
 * callers fail cleanly too).  That thread, in a lib ctx it never used
 * (main loaded `default` in it and fetched both methods once: a provider
 * activation whose lock was refused would stay failed in stock OpenSSL,
 * which is not what this test is about), fetches a digest and a cipher
 * and lists the digests; each may fail or
 * work (construction can still build a method), nothing may crash, and a
 * method it got must work.  It checks that allocations were refused (the
 * read lock's path was taken).  Then refusals stop and the same thread
 * fetches again: everything works (no hold was left behind).  Run under
 * valgrind in ctest: no invalid access.
 *
 * On 3.5 (void ossl_rcu_read_lock) there is nothing to test: exit 77.
 */
#include <string.h>
#include <stdlib.h>
#include <pthread.h>
#include <openssl/opensslv.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "rcuprof_test_util.h"

#if OPENSSL_VERSION_NUMBER >= 0x30600000L

static __thread int refusing;     /* this thread refuses threads_pthread.c */
static long refused;              /* allocations refused (one thread only) */

static void *t_malloc(size_t num, const char *file, int line)
{
    (void)line;
    if (refusing && from_file(file, "threads_pthread.c")) {
        refused++;
        return NULL;
    }
    return malloc(num);
}

static void *t_realloc(void *p, size_t num, const char *file, int line)
{
    (void)line;
    if (refusing && from_file(file, "threads_pthread.c")) {
        refused++;
        return NULL;
    }
    return realloc(p, num);
}

static void t_free(void *p, const char *file, int line)
{
    (void)file;
    (void)line;
    free(p);
}

static void count_md(EVP_MD *md, void *arg)
{
    (void)md;
    ++*(int *)arg;
}

static int digest_ok(EVP_MD *md)
{
    static const unsigned char abc_sha256[4] = { 0xba, 0x78, 0x16, 0xbf };
    unsigned char out[32];
    unsigned int outl = 0;

    return EVP_Digest("abc", 3, out, &outl, md, NULL) && outl == 32
        && memcmp(out, abc_sha256, 4) == 0;
}

typedef struct {
    OSSL_LIB_CTX *ctx;
    int ok;
} ARG;

static void *worker(void *varg)
{
    ARG *a = varg;
    EVP_MD *md;
    EVP_CIPHER *c;
    int n = 0;

    /* 1. refusing: whatever the fetches return, nothing crashes */
    refusing = 1;
    md = EVP_MD_fetch(a->ctx, "SHA2-256", NULL);
    c = EVP_CIPHER_fetch(a->ctx, "AES-128-CBC", NULL);
    EVP_MD_do_all_provided(a->ctx, count_md, &n);
    refusing = 0;
    printf("  refusing: SHA2-256 %s, AES-128-CBC %s, %d digests listed,"
           " %ld allocations refused\n", md != NULL ? "fetched" : "not fetched",
        c != NULL ? "fetched" : "not fetched", n, refused);
    if (md != NULL && !digest_ok(md)) {
        fprintf(stderr, "FAIL: the digest fetched while refusing is wrong\n");
        a->ok = 0;
    }
    EVP_MD_free(md);
    EVP_CIPHER_free(c);

    /* 2. no longer refusing: the same thread, the same ctx, all works */
    n = 0;
    md = EVP_MD_fetch(a->ctx, "SHA2-256", NULL);
    c = EVP_CIPHER_fetch(a->ctx, "AES-128-CBC", NULL);
    EVP_MD_do_all_provided(a->ctx, count_md, &n);
    if (md == NULL || c == NULL || !digest_ok(md) || n == 0) {
        fprintf(stderr, "FAIL: after the refusals: md %p cipher %p digests %d\n",
            (void *)md, (void *)c, n);
        a->ok = 0;
    }
    printf("  afterwards: SHA2-256 and AES-128-CBC fetched, %d digests listed\n", n);
    EVP_MD_free(md);
    EVP_CIPHER_free(c);
    return NULL;
}

int main(void)
{
    ARG a;
    pthread_t th;

    /* before OpenSSL's first allocation */
    if (!CRYPTO_set_mem_functions(t_malloc, t_realloc, t_free)) {
        fprintf(stderr, "FAIL: CRYPTO_set_mem_functions refused\n");
        return 1;
    }
    printf("read_lock_fail_test: variant %s\n", store_variant());
    a.ctx = OSSL_LIB_CTX_new();
    a.ok = 1;
    CHECK(a.ctx != NULL, "OSSL_LIB_CTX_new");
    if (a.ctx == NULL)
        return 1;
    {
        OSSL_PROVIDER *p = OSSL_PROVIDER_load(a.ctx, "default");
        EVP_MD *md = EVP_MD_fetch(a.ctx, "SHA2-256", NULL);
        EVP_CIPHER *c = EVP_CIPHER_fetch(a.ctx, "AES-128-CBC", NULL);

        CHECK(p != NULL && md != NULL && c != NULL, "set-up fetches in main");
        EVP_MD_free(md);
        EVP_CIPHER_free(c);
        /* default stays loaded in the ctx until it is freed */
    }
    pthread_create(&th, NULL, worker, &a);
    pthread_join(th, NULL);
    OSSL_LIB_CTX_free(a.ctx);
    CHECK(a.ok, "a fetch misbehaved (above)");
    CHECK(refused > 0, "no allocation of crypto/threads_pthread.c was refused:"
          " the read lock's failure path was not taken (file names compiled"
          " out, or the per-thread data allocated elsewhere?)");
    OPENSSL_cleanup();
    if (rcuprof_failures != 0) {
        printf("read_lock_fail_test: FAILED (%d)\n", rcuprof_failures);
        return 1;
    }
    printf("read_lock_fail_test: OK\n");
    return 0;
}

#else

int main(void)
{
    printf("read_lock_fail_test: SKIPPED: ossl_rcu_read_lock cannot fail"
           " before OpenSSL 3.6\n");
    return 77;
}

#endif
