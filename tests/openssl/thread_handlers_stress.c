/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: thread-stop handlers against lib ctx frees (issue 14, item 6).
 *
 * Worker threads each loop: make a fresh lib ctx, take the first RCU read
 * lock of this thread in it (which allocates the thread's RCU data and
 * pushes a thread-stop handler onto this thread's list,
 * ossl_init_thread_start), then free the ctx (which, with patch 0004,
 * drops that ctx's handlers from every thread's list,
 * ossl_init_thread_deregister, and frees the data its threads left).  So
 * pushes on one thread's list run while other threads' frees edit it.
 * Every few rounds a worker exits (its handlers run) and a new one starts.
 * Every third round the thread also read-locks a second fresh ctx, so that
 * its handler list holds two ctxs' handlers when the frees come.
 *
 * Run under ThreadSanitizer (sanitizer-ctest.sh tsan): it must be clean.
 * Without the lock around the push in ossl_init_thread_start, TSan reports
 * the race between the push and deregister.  Also run plain (ctest), where
 * it only checks that it completes.  Usage: thread_handlers_stress [SECONDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include "internal/rcu.h"
#include "../../probes/rcuprof_rcu_read.h"
#include "rcuprof_test_util.h"

#define WORKERS 4
#define ROUNDS_PER_THREAD 25

static volatile int stop;
static long rounds_done, threads_made;

static int one_round(int keep_other)
{
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new(), *other = NULL;
    CRYPTO_RCU_LOCK *lock, *olock = NULL;

    if (ctx == NULL || (lock = ossl_rcu_lock_new(1, ctx)) == NULL) {
        OSSL_LIB_CTX_free(ctx);
        return 0;
    }
    /*
     * The first read lock of this thread in |ctx|: data + handler.  A read
     * lock that fails (3.6+: no per-thread data) is held by nobody: the
     * round fails, nothing unlocks it.
     */
    int ok = rcuprof_rcu_read_lock(lock);

    if (ok)
        ossl_rcu_read_unlock(lock);
    if (ok && keep_other && (other = OSSL_LIB_CTX_new()) != NULL
        && (olock = ossl_rcu_lock_new(1, other)) != NULL) {
        ok = rcuprof_rcu_read_lock(olock);
        if (ok)
            ossl_rcu_read_unlock(olock);
    }
    ossl_rcu_lock_free(lock);
    OSSL_LIB_CTX_free(ctx);
    ossl_rcu_lock_free(olock);
    OSSL_LIB_CTX_free(other);
    return ok;
}

static void *worker(void *arg)
{
    int i;

    (void)arg;
    for (i = 0; i < ROUNDS_PER_THREAD
                && !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
        if (!one_round(i % 3 == 0)) {
            fprintf(stderr, "lib ctx or RCU lock: allocation failed, or a read lock failed\n");
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
    if (!one_round(0)) {
        fprintf(stderr, "lib ctx or RCU lock: allocation failed\n");
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
    printf("thread_handlers_stress: %ld rounds (fresh lib ctx, first read "
           "lock, free) on %ld threads in %.1f s%s\n", rounds_done,
           threads_made, (now_us() - t0) / 1e6, failed ? ": FAILED" : "");
    CHECK(rounds_done > 0 && !failed, "no round completed");
    return rcuprof_failures != 0;
}
