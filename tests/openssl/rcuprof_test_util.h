/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * Small helpers shared by rcuprof's OpenSSL method-store tests.  These
 * programs link statically against a variant's libcrypto.a and use its
 * internal headers (ossl_method_store_* are hidden in libcrypto.so).
 */
#ifndef RCUPROF_TEST_UTIL_H
#define RCUPROF_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include("internal/property_rcu.h")
#include "internal/property_rcu.h"
#endif
#endif

static int rcuprof_failures __attribute__((unused)) = 0;

#define CHECK(cond, ...)                                             \
    do {                                                             \
        if (!(cond)) {                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                            \
            fprintf(stderr, "\n");                                   \
            rcuprof_failures++;                                      \
        }                                                            \
    } while (0)

static inline double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* 1 when an allocation's |file| (OPENSSL_malloc's, may be NULL) ends in
 * |suffix|: the allocation-refusing tests pick one source file's calls. */
static inline int from_file(const char *file, const char *suffix)
{
    size_t n, m = strlen(suffix);

    if (file == NULL)
        return 0;
    n = strlen(file);
    return n >= m && strcmp(file + n - m, suffix) == 0;
}

static inline const char *store_variant(void)
{
#ifdef OSSL_METHOD_STORE_RCU
    return ossl_method_store_reclaim_policy();
#else
    return "stock";
#endif
}

#ifdef OSSL_METHOD_STORE_RCU
/*
 * The RCU lock that guards method id |nid| of |store|: the store's one lock,
 * or on a sharded store (4.0) the lock of the id's shard.
 */
static inline CRYPTO_RCU_LOCK *store_lock_of(OSSL_METHOD_STORE *store, int nid)
{
# ifdef OSSL_METHOD_STORE_RCU_SHARDED
    return ossl_method_store_shard_rcu_lock(store,
                                            nid & (ossl_method_store_shards() - 1));
# else
    (void)nid;
    return ossl_method_store_rcu_lock(store);
# endif
}
#endif

/* A fake method: a reference counter (tests check it returns to 1) */
typedef struct {
    long refs;
} FAKE_METHOD;

__attribute__((unused)) static int fake_up_ref(void *p)
{
    __atomic_add_fetch(&((FAKE_METHOD *)p)->refs, 1, __ATOMIC_RELAXED);
    return 1;
}

__attribute__((unused)) static void fake_free(void *p)
{
    __atomic_sub_fetch(&((FAKE_METHOD *)p)->refs, 1, __ATOMIC_RELAXED);
}

static inline long fake_refs(FAKE_METHOD *m)
{
    return __atomic_load_n(&m->refs, __ATOMIC_RELAXED);
}

#endif
