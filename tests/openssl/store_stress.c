/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: method-store stress for the sanitizer builds (tests/openssl/README.md).
 *
 * Reader threads fetch several operation types from a private lib ctx (the
 * `default` provider loaded explicitly first, so no fallback load happens
 * under churn) while writer threads churn the same ctx's method store:
 *
 *   query     fetch one of the readers' algorithms with a unique optional
 *             property query "?x.n=<i>": a cache miss, biglock,
 *             ossl_method_store_fetch, ossl_method_store_cache_set (and,
 *             past 500 entries, the stochastic flush of every algorithm's
 *             cache, the readers' hot entries included)
 *   provider  load `base`, fetch SEED-SRC from it ("provider=base"), unload:
 *             activation flush, ossl_method_store_add of base's RAND
 *             algorithms, ossl_method_store_remove_all_provided
 *   flush     load and unload the `null` provider: activation 0 -> 1
 *             flushes the whole cache (ossl_method_store_cache_flush_all)
 *
 * One writer thread per kind: the base provider's init writes its own
 * globals at every load, so two threads cycling it at once would race in
 * stock code that is not ours.  EVP_set_default_properties is never called
 * concurrently: it is documented as not thread-safe (a use-after-free in
 * stock OpenSSL).
 *
 * Overlap is counted honestly: every writer increments `writes_in_progress`
 * before each churn operation and decrements it after, and bumps
 * `write_events` at both ends.  A reader samples both before and after each
 * fetch; the fetch overlapped a write if a write was in progress at either
 * end or a write began or ended in between.  Those counters are relaxed
 * atomics with compiler-only fences on purpose: a seq_cst or acq/rel
 * counter would give ThreadSanitizer a happens-before edge from every
 * writer to every reader and could hide a real race in the store.
 *
 * Prints reads/s, writes/s and overlapping reads; exits 1 if any fetch or
 * write failed or no read overlapped a write.  The sanitizers' own exit
 * codes take over when they report.
 *
 * usage: store_stress [SECONDS]   (or STORE_STRESS_SECONDS; default 3)
 *        STORE_STRESS_READERS (default 2)
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>
#include "rcuprof_test_util.h"

enum kind { K_QUERY, K_PROVIDER, K_FLUSH, K_N };
static const char *const kind_names[K_N] = { "query", "provider", "flush" };

/* The readers' fetches: one per operation type, round robin. */
enum optype { OP_MD, OP_CIPHER, OP_MAC, OP_KDF, OP_RAND, OP_KEYMGMT, OP_N };
static const char *const op_algs[OP_N] = {
    "SHA2-256", "AES-128-CBC", "HMAC", "HKDF", "CTR-DRBG", "RSA"
};

static OSSL_LIB_CTX *ctx;
static atomic_int stop;
static atomic_int go;

/* Overlap bookkeeping: relaxed on purpose (see the header comment) */
static atomic_uint_fast64_t writes_in_progress;
static atomic_uint_fast64_t write_events;
static atomic_uint_fast64_t query_seq;

struct reader {
    pthread_t th;
    unsigned id;
    uint64_t reads, overlapped, failures;
    char error[200];
};

struct writer {
    pthread_t th;
    enum kind kind;
    uint64_t writes, failures;
    char error[200];
};

/* Fetch one algorithm of |op|, touch the result, free it; 1 on success */
static int fetch_op(enum optype op, const char *propq)
{
    const char *alg = op_algs[op];
    int ok = 0;

    switch (op) {
    case OP_MD: {
        EVP_MD *m = EVP_MD_fetch(ctx, alg, propq);

        ok = m != NULL && EVP_MD_get_size(m) == 32;
        EVP_MD_free(m);
        break;
    }
    case OP_CIPHER: {
        EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, alg, propq);

        ok = c != NULL && EVP_CIPHER_get_key_length(c) == 16;
        EVP_CIPHER_free(c);
        break;
    }
    case OP_MAC: {
        EVP_MAC *m = EVP_MAC_fetch(ctx, alg, propq);

        ok = m != NULL && EVP_MAC_is_a(m, alg);
        EVP_MAC_free(m);
        break;
    }
    case OP_KDF: {
        EVP_KDF *k = EVP_KDF_fetch(ctx, alg, propq);

        ok = k != NULL && EVP_KDF_is_a(k, alg);
        EVP_KDF_free(k);
        break;
    }
    case OP_RAND: {
        EVP_RAND *r = EVP_RAND_fetch(ctx, alg, propq);

        ok = r != NULL && EVP_RAND_is_a(r, alg);
        EVP_RAND_free(r);
        break;
    }
    case OP_KEYMGMT: {
        EVP_KEYMGMT *k = EVP_KEYMGMT_fetch(ctx, alg, propq);

        ok = k != NULL && EVP_KEYMGMT_is_a(k, alg);
        EVP_KEYMGMT_free(k);
        break;
    }
    default:
        break;
    }
    return ok;
}

static void wait_go(void)
{
    while (!atomic_load(&go))
        ;
}

static void *reader_main(void *arg)
{
    struct reader *r = arg;
    unsigned i = r->id;

    wait_go();
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        uint64_t p0, e0, p1, e1;
        int ok;

        p0 = atomic_load_explicit(&writes_in_progress, memory_order_relaxed);
        e0 = atomic_load_explicit(&write_events, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        ok = fetch_op((enum optype)(i++ % OP_N), NULL);
        atomic_signal_fence(memory_order_seq_cst);
        e1 = atomic_load_explicit(&write_events, memory_order_relaxed);
        p1 = atomic_load_explicit(&writes_in_progress, memory_order_relaxed);
        r->reads++;
        if (p0 != 0 || p1 != 0 || e0 != e1)
            r->overlapped++;
        if (!ok && r->failures++ == 0) {
            snprintf(r->error, sizeof(r->error), "reader %u: fetch of %s failed",
                     r->id, op_algs[(i - 1) % OP_N]);
            ERR_print_errors_fp(stderr);
        }
        ERR_clear_error();
    }
    return NULL;
}

static int write_once(struct writer *w)
{
    char q[48];

    switch (w->kind) {
    case K_QUERY: {
        uint64_t n = atomic_fetch_add_explicit(&query_seq, 1,
                                               memory_order_relaxed);

        snprintf(q, sizeof(q), "?x.n=%llu", (unsigned long long)n);
        return fetch_op((enum optype)(n % OP_N), q);
    }
    case K_PROVIDER: {
        OSSL_PROVIDER *p = OSSL_PROVIDER_try_load(ctx, "base", 1);
        EVP_RAND *r;

        if (p == NULL)
            return 0;
        r = EVP_RAND_fetch(ctx, "SEED-SRC", "provider=base");
        EVP_RAND_free(r);
        return OSSL_PROVIDER_unload(p) && r != NULL;
    }
    case K_FLUSH: {
        OSSL_PROVIDER *p = OSSL_PROVIDER_try_load(ctx, "null", 1);

        return p != NULL && OSSL_PROVIDER_unload(p);
    }
    default:
        return 0;
    }
}

static void *writer_main(void *arg)
{
    struct writer *w = arg;

    wait_go();
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        int ok;

        atomic_fetch_add_explicit(&writes_in_progress, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&write_events, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        ok = write_once(w);
        atomic_signal_fence(memory_order_seq_cst);
        atomic_fetch_add_explicit(&write_events, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&writes_in_progress, 1, memory_order_relaxed);
        w->writes++;
        if (!ok && w->failures++ == 0) {
            snprintf(w->error, sizeof(w->error), "writer %s: churn failed",
                     kind_names[w->kind]);
            ERR_print_errors_fp(stderr);
        }
        ERR_clear_error();
    }
    return NULL;
}

static double env_or(const char *name, const char *arg, double dflt)
{
    const char *s = arg != NULL ? arg : getenv(name);
    char *end;
    double v;

    if (s == NULL || *s == '\0')
        return dflt;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || v <= 0) {
        fprintf(stderr, "store_stress: bad value '%s' for %s\n", s, name);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    double secs = env_or("STORE_STRESS_SECONDS", argc > 1 ? argv[1] : NULL, 3);
    unsigned nreaders = (unsigned)env_or("STORE_STRESS_READERS", NULL, 2);
    struct reader *rd;
    struct writer wr[K_N];
    OSSL_PROVIDER *deflt;
    uint64_t reads = 0, overlapped = 0, writes = 0, rfail = 0, wfail = 0;
    const char *first_err = NULL;
    double t0, t1, wall;
    unsigned i;
    int k, ok = 1;

    if (nreaders == 0 || nreaders > 64) {
        fprintf(stderr, "store_stress: STORE_STRESS_READERS must be 1..64\n");
        return 2;
    }
    ctx = OSSL_LIB_CTX_new();
    deflt = ctx != NULL ? OSSL_PROVIDER_load(ctx, "default") : NULL;
    if (deflt == NULL) {
        fprintf(stderr, "store_stress: cannot create a lib ctx with default\n");
        ERR_print_errors_fp(stderr);
        return 1;
    }
    /* Warm up: every reader operation constructed once, before the churn */
    for (i = 0; i < OP_N; i++)
        if (!fetch_op((enum optype)i, NULL)) {
            fprintf(stderr, "store_stress: %s cannot be fetched\n", op_algs[i]);
            ERR_print_errors_fp(stderr);
            return 1;
        }

    printf("store_stress: variant %s, %u readers, %d writers (query, provider,"
           " flush), %.1f s\n", store_variant(), nreaders, K_N, secs);
    fflush(stdout);
    rd = calloc(nreaders, sizeof(*rd));
    memset(wr, 0, sizeof(wr));
    if (rd == NULL)
        return 1;
    for (i = 0; i < nreaders; i++) {
        rd[i].id = i;
        if (pthread_create(&rd[i].th, NULL, reader_main, &rd[i]) != 0) {
            fprintf(stderr, "store_stress: cannot create reader %u\n", i);
            return 1;
        }
    }
    for (k = 0; k < K_N; k++) {
        wr[k].kind = (enum kind)k;
        if (pthread_create(&wr[k].th, NULL, writer_main, &wr[k]) != 0) {
            fprintf(stderr, "store_stress: cannot create writer %d\n", k);
            return 1;
        }
    }
    t0 = now_us();
    atomic_store(&go, 1);
    {
        struct timespec ts;
        double left = secs;

        while (left > 0) {
            double step = left > 0.1 ? 0.1 : left;

            ts.tv_sec = 0;
            ts.tv_nsec = (long)(step * 1e9);
            nanosleep(&ts, NULL);
            left = secs - (now_us() - t0) / 1e6;
        }
    }
    atomic_store(&stop, 1);
    for (i = 0; i < nreaders; i++)
        pthread_join(rd[i].th, NULL);
    for (k = 0; k < K_N; k++)
        pthread_join(wr[k].th, NULL);
    t1 = now_us();
    wall = (t1 - t0) / 1e6;

    for (i = 0; i < nreaders; i++) {
        reads += rd[i].reads;
        overlapped += rd[i].overlapped;
        rfail += rd[i].failures;
        if (rd[i].failures != 0 && first_err == NULL)
            first_err = rd[i].error;
    }
    printf("  writes:");
    for (k = 0; k < K_N; k++) {
        writes += wr[k].writes;
        wfail += wr[k].failures;
        if (wr[k].failures != 0 && first_err == NULL)
            first_err = wr[k].error;
        printf(" %s %llu", kind_names[k], (unsigned long long)wr[k].writes);
    }
    printf("\n");
    printf("  reads/s %.0f  writes/s %.0f  (%.2f s: %llu reads, %llu writes)\n",
           reads / wall, writes / wall, wall, (unsigned long long)reads,
           (unsigned long long)writes);
    printf("  reads that overlapped a write: %llu (%.1f%%)\n",
           (unsigned long long)overlapped,
           reads != 0 ? 100.0 * overlapped / reads : 0.0);
    if (rfail != 0 || wfail != 0) {
        printf("  failures: %llu reads, %llu writes; first: %s\n",
               (unsigned long long)rfail, (unsigned long long)wfail, first_err);
        ok = 0;
    }
    if (overlapped == 0) {
        printf("  no read overlapped a write: this run proves nothing\n");
        ok = 0;
    }
    free(rd);
    OSSL_PROVIDER_unload(deflt);
    OSSL_LIB_CTX_free(ctx);
    OPENSSL_cleanup();
    printf("store_stress: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
