/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: what a method-store write costs, in stock, rcu-sync and
 * rcu-nosync builds (link against the variant's libcrypto.a).
 *
 * Single thread, no concurrent readers: this is the writer's own cost
 * (copy-on-write, publication, reclaim), not contention.  Prints one
 * "name value" line per figure (microseconds), mean and median over the
 * repetitions:
 *
 *   cache_set_store_us   ossl_method_store_cache_set on a standalone store
 *                        holding one algorithm, same query (replace)
 *   cache_set_unique_us  same, a new query each time (the cache grows to the
 *                        flush threshold, 500 entries, then is halved)
 *   cache_set_ctx_us     cache_set on a lib ctx's EVP store after the
 *                        default provider's digests and ciphers were added
 *   fetch_miss_us        EVP_MD_fetch(SHA2-256, "?x.n=<i>"), a new optional
 *                        query each time: biglock + fetch + cache_set
 *   fetch_hit_us         EVP_MD_fetch(SHA2-256, NULL), cached (read path)
 *   first_fetch_rand_base_us    fresh lib ctx, load "base", time the first
 *                        EVP_RAND_fetch(SEED-SRC): constructs and adds the
 *                        RAND operation's algorithms, then caches
 *   first_fetch_cipher_default_us  fresh lib ctx, load "default", time the
 *                        first EVP_CIPHER_fetch(AES-128-CBC): adds every
 *                        cipher of the default provider (~100)
 *   first_fetch_md_default_us     same with EVP_MD_fetch(SHA2-256)
 *
 * usage: bench_store_writes [reps]   (default 2000 for the per-op figures,
 *        reps/20 for the first-fetch ones)
 *
 * Build: gcc -O2 -I$TREE/include -I$TREE bench_store_writes.c \
 *            $TREE/libcrypto.a -lpthread -ldl -o bench_store_writes
 */
#include <string.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/provider.h>
#include <openssl/core_dispatch.h>
#include "internal/property.h"
#include "internal/cryptlib.h"
#include "internal/namemap.h"
#include "rcuprof_test_util.h"

static char fake_prov_mem[64];
#define FAKE_PROV ((OSSL_PROVIDER *)(void *)fake_prov_mem)

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static void report(const char *name, double *v, int n)
{
    double sum = 0;
    int i;

    if (n <= 0) {
        printf("%-32s n/a\n", name);
        return;
    }
    for (i = 0; i < n; i++)
        sum += v[i];
    qsort(v, n, sizeof(*v), cmp_d);
    printf("%-32s mean %10.3f  median %10.3f  (n=%d)\n", name, sum / n,
        v[n / 2], n);
}

static void bench_cache_set(OSSL_METHOD_STORE *store, int nid, int unique,
    const char *name, int reps)
{
    FAKE_METHOD m = { 1 };
    double *v = calloc(reps, sizeof(*v)), t0;
    char q[32];
    int i, n = 0;

    for (i = 0; i < reps; i++) {
        snprintf(q, sizeof(q), "?bench.n=%d", unique ? i : 0);
        t0 = now_us();
        if (!ossl_method_store_cache_set(store, FAKE_PROV, nid, q, &m,
                fake_up_ref, fake_free))
            break;
        v[n++] = now_us() - t0;
    }
    /* drop our entries again (a delete is a write too, not timed) */
    for (i = 0; i < reps; i++) {
        snprintf(q, sizeof(q), "?bench.n=%d", unique ? i : 0);
        ossl_method_store_cache_set(store, FAKE_PROV, nid, q, NULL, NULL, NULL);
        if (!unique)
            break;
    }
    report(name, v, n);
    free(v);
}

static void bench_standalone(int reps)
{
    FAKE_METHOD m = { 1 };
    OSSL_METHOD_STORE *store = ossl_method_store_new(NULL);

    ossl_method_store_add(store, FAKE_PROV, 42, "x.n=1", &m, fake_up_ref,
        fake_free);
    bench_cache_set(store, 42, 0, "cache_set_store_us", reps);
    bench_cache_set(store, 42, 1, "cache_set_unique_us", reps);
    ossl_method_store_free(store);
}

static void bench_ctx(int reps)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *prov = OSSL_PROVIDER_load(ctx, "default");
    EVP_MD *md = EVP_MD_fetch(ctx, "SHA2-256", NULL);
    EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL);
    OSSL_METHOD_STORE *store
        = ossl_lib_ctx_get_data(ctx, OSSL_LIB_CTX_EVP_METHOD_STORE_INDEX);
    int name_id = ossl_namemap_name2num(ossl_namemap_stored(ctx), "SHA2-256");
    /* crypto/evp/evp_fetch.c: evp_method_id() */
    int nid = (name_id << 8) | OSSL_OP_DIGEST;
    double *v = calloc(reps, sizeof(*v)), t0;
    char q[32];
    int i, n = 0;
    EVP_MD *m;

    if (prov == NULL || md == NULL || c == NULL || name_id == 0) {
        printf("ctx benchmarks: setup failed\n");
        return;
    }
    bench_cache_set(store, nid, 0, "cache_set_ctx_us", reps);

    for (i = 0; i < reps; i++) {
        snprintf(q, sizeof(q), "?x.n=%d", i);
        t0 = now_us();
        m = EVP_MD_fetch(ctx, "SHA2-256", q);
        v[n] = now_us() - t0;
        if (m == NULL)
            break;
        n++;
        EVP_MD_free(m);
    }
    report("fetch_miss_us", v, n);

    n = 0;
    for (i = 0; i < reps; i++) {
        t0 = now_us();
        m = EVP_MD_fetch(ctx, "SHA2-256", NULL);
        v[n] = now_us() - t0;
        if (m == NULL)
            break;
        n++;
        EVP_MD_free(m);
    }
    report("fetch_hit_us", v, n);
    free(v);
    EVP_MD_free(md);
    EVP_CIPHER_free(c);
    OSSL_PROVIDER_unload(prov);
    OSSL_LIB_CTX_free(ctx);
}

enum { FF_RAND_BASE, FF_CIPHER_DEFAULT, FF_MD_DEFAULT };

static void bench_first_fetch(int what, const char *name, int reps)
{
    double *v = calloc(reps, sizeof(*v)), *vfree = calloc(reps, sizeof(*v));
    double t0;
    int i, n = 0, ok;

    for (i = 0; i < reps; i++) {
        OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
        OSSL_PROVIDER *prov = OSSL_PROVIDER_load(ctx,
            what == FF_RAND_BASE ? "base" : "default");

        if (ctx == NULL || prov == NULL)
            break;
        t0 = now_us();
        switch (what) {
        case FF_RAND_BASE: {
            EVP_RAND *r = EVP_RAND_fetch(ctx, "SEED-SRC", NULL);

            v[n] = now_us() - t0;
            ok = r != NULL;
            EVP_RAND_free(r);
            break;
        }
        case FF_CIPHER_DEFAULT: {
            EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, "AES-128-CBC", NULL);

            v[n] = now_us() - t0;
            ok = c != NULL;
            EVP_CIPHER_free(c);
            break;
        }
        default: {
            EVP_MD *m = EVP_MD_fetch(ctx, "SHA2-256", NULL);

            v[n] = now_us() - t0;
            ok = m != NULL;
            EVP_MD_free(m);
            break;
        }
        }
        OSSL_PROVIDER_unload(prov);
        t0 = now_us();
        OSSL_LIB_CTX_free(ctx);
        vfree[n] = now_us() - t0;
        if (!ok)
            break;
        n++;
    }
    report(name, v, n);
    if (what == FF_CIPHER_DEFAULT)
        report("libctx_free_after_cipher_us", vfree, n);
    free(v);
    free(vfree);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 2000;
    int freps = reps / 20 < 5 ? 5 : reps / 20;

    printf("bench_store_writes: variant %s", store_variant());
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    printf(" reclaim_batch %zu", ossl_method_store_get_reclaim_batch());
#endif
    printf(" reps %d first-fetch reps %d\n", reps, freps);
    bench_standalone(reps);
    bench_ctx(reps);
    bench_first_fetch(FF_RAND_BASE, "first_fetch_rand_base_us", freps);
    bench_first_fetch(FF_CIPHER_DEFAULT, "first_fetch_cipher_default_us", freps);
    bench_first_fetch(FF_MD_DEFAULT, "first_fetch_md_default_us", freps);
    return 0;
}
