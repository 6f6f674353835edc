/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: thread-stop handlers against lib ctx frees (issue 14, item 6).
 *
 * The race patch 0004 fixes: ossl_init_thread_start() (crypto/initthread.c)
 * pushes a handler onto the calling thread's list (*hands = hand) without
 * the global handler lock gtr->lock, while init_thread_deregister() walks
 * and edits every thread's list under that lock.
 *
 * Which calls reach which, read in OpenSSL 3.6.3 and 4.0.2:
 *  - the push: a thread's first ossl_rcu_read_lock() of an RCU lock of a
 *    lib ctx (its per-thread data for that ctx is created, then
 *    ossl_init_thread_start(NULL, ctx, ossl_rcu_free_local_data)); with the
 *    method store on RCU, a thread's first fetch in each lib ctx does that.
 *  - the deregister: only ossl_provider_free() dropping a provider's last
 *    reference (crypto/provider_core.c, ossl_init_thread_deregister(prov)),
 *    and at OPENSSL_cleanup.  A provider loaded or activated in a lib ctx
 *    is referenced by the ctx's provider store until the ctx is freed:
 *    OSSL_PROVIDER_unload() drops only the caller's reference, and
 *    OSSL_LIB_CTX_free() (ossl_provider_store_free, provider_deactivate_free)
 *    drops the last one.  A lib ctx with no provider in its store frees
 *    none, and so deregisters nothing.
 *  - on 3.5, 0004 also deregisters the ctx's RCU handlers at every lib ctx
 *    free (ossl_rcu_ctx_free_thread_data), provider or not.
 *
 * So each round: make fresh lib ctxs, load and activate the built-in `null`
 * provider in each (OSSL_PROVIDER_load; OSSL_PROVIDER_available must say
 * so), then take this thread's first RCU read lock in each (one push per
 * ctx, back to back), then unload the providers and free the ctxs: each
 * free frees the ctx's `null` provider, whose ossl_provider_free() runs
 * init_thread_deregister() over every thread's list while the other
 * workers push onto theirs.  Every third round uses two ctxs, so that the
 * list holds two ctxs' handlers when the frees come.  Every few rounds a
 * worker exits (its handlers run) and a new one starts.
 *
 * Why `null` and not `default`: a provider init that writes no globals.
 * default's init on 3.5/3.6 stores core function pointers in file-scope
 * globals at every activation (providers/defltprov.c), a stock race TSan
 * reports when two ctxs activate it at once, which would hide this one.
 *
 * Run under ThreadSanitizer (sanitizer-ctest.sh tsan): clean with 0004
 * (the push holds gtr->lock); without it, TSan reports the push
 * (ossl_init_thread_start) against init_thread_deregister.  Also run plain
 * (ctest), where it only checks that it completes.
 * Usage: thread_handlers_stress [SECONDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/provider.h>
#include "internal/rcu.h"
#include "../../probes/rcuprof_rcu_read.h"
#include "rcuprof_test_util.h"

#define WORKERS 4
#define ROUNDS_PER_THREAD 25
#define MAX_CTX 2

static volatile int stop;
static long rounds_done, threads_made;

/* One round on |n| fresh lib ctxs; 1 if every step worked */
static int one_round(int n)
{
    OSSL_LIB_CTX *ctx[MAX_CTX] = { NULL };
    OSSL_PROVIDER *prov[MAX_CTX] = { NULL };
    CRYPTO_RCU_LOCK *lock[MAX_CTX] = { NULL };
    int i, ok = 1;

    /* Everything that takes global locks (provider load) first ... */
    for (i = 0; i < n && ok; i++) {
        ok = (ctx[i] = OSSL_LIB_CTX_new()) != NULL
             && (prov[i] = OSSL_PROVIDER_load(ctx[i], "null")) != NULL
             && OSSL_PROVIDER_available(ctx[i], "null")
             && (lock[i] = ossl_rcu_lock_new(1, ctx[i])) != NULL;
    }
    /*
     * ... then this thread's first read lock in each ctx: its data and a
     * handler push per ctx, back to back.  A read lock that fails (3.6+:
     * no per-thread data) is held by nobody: the round fails, nothing
     * unlocks it.
     */
    for (i = 0; i < n && ok; i++) {
        ok = rcuprof_rcu_read_lock(lock[i]);
        if (ok)
            ossl_rcu_read_unlock(lock[i]);
    }
    /* The ctx free frees its `null` provider: the deregister */
    for (i = 0; i < n; i++) {
        ossl_rcu_lock_free(lock[i]);
        if (prov[i] != NULL && !OSSL_PROVIDER_unload(prov[i]))
            ok = 0;
        OSSL_LIB_CTX_free(ctx[i]);
    }
    return ok;
}

static void *worker(void *arg)
{
    int i;

    (void)arg;
    for (i = 0; i < ROUNDS_PER_THREAD
                && !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
        if (!one_round(i % 3 == 0 ? 2 : 1)) {
            fprintf(stderr, "lib ctx, null provider or RCU lock: a step failed\n");
            return (void *)1;
        }
        __atomic_add_fetch(&rounds_done, 1, __ATOMIC_RELAXED);
    }
    return NULL;   /* thread exit: its remaining handlers run */
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 2.0, t0 = now_us();
    pthread_t th[WORKERS];
    int i, failed = 0;

    /*
     * One round on the main thread first: OpenSSL's own initialisation
     * (CRYPTO_malloc's first call writes allow_customize unlocked, a stock
     * race out of scope) happens before any worker starts.
     */
    if (!one_round(1)) {
        fprintf(stderr, "lib ctx, null provider or RCU lock: a step failed\n");
        return 1;
    }
    for (i = 0; i < WORKERS; i++) {
        pthread_create(&th[i], NULL, worker, NULL);
        threads_made++;
    }
    /* Replace each worker as it finishes, until the time is up */
    while (now_us() - t0 < secs * 1e6) {
        for (i = 0; i < WORKERS; i++) {
            void *rv;

            pthread_join(th[i], &rv);
            failed |= rv != NULL;
            pthread_create(&th[i], NULL, worker, NULL);
            threads_made++;
        }
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (i = 0; i < WORKERS; i++) {
        void *rv;

        pthread_join(th[i], &rv);
        failed |= rv != NULL;
    }
    printf("thread_handlers_stress: %ld rounds (fresh lib ctx, null "
           "provider, first read lock, free) on %ld threads in %.1f s%s\n", rounds_done,
           threads_made, (now_us() - t0) / 1e6, failed ? ": FAILED" : "");
    CHECK(rounds_done > 0 && !failed, "no round completed");
    return rcuprof_failures != 0;
}
