/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: per-thread RCU data must not outlive its lib ctx.
 *
 * With the method store on RCU, every thread that fetches from a lib ctx
 * takes an RCU read lock on that ctx's store, which allocates per-thread RCU
 * data and registers a thread-stop handler holding the ctx pointer.  This
 * test frees the lib ctx while such threads are still alive, then lets them
 * exit: their exit must not read the freed ctx (ossl_rcu_free_local_data).
 * The check is ASan's (heap-use-after-free at thread exit, leaks at process
 * exit): build the tree and this test with -fsanitize=address.  Without
 * ASan the test still runs the scenario and checks the fetches worked.
 *
 * Scenarios:
 *  1. 4 threads fetch from ctx A, park; main frees A; threads exit.
 *  2. a thread fetches from ctx A and ctx B, A is freed, the thread fetches
 *     again from B (its data for B must be intact) and exits; B freed last.
 *  3. a thread fetches from ctx A, A is freed, the thread creates, uses and
 *     frees its own ctx C (may reuse A's thread-local key), then exits.
 *  4. a thread fetches from ctx A, A is freed, main makes a new ctx N (the
 *     allocator often gives it A's address: on 3.6+, whose per-thread RCU
 *     data is keyed by the ctx pointer's value, the thread's entry for A is
 *     then found for N), the thread fetches from N (must work) and exits;
 *     N is freed last.  Prints whether N reused A's address; with the
 *     argument "reuse" the scenario is repeated until it does (at most 64
 *     times; the test fails if it never does: the case was not exercised).
 *     Run without valgrind/ASan for that: their quarantine delays reuse.
 *
 * Build: gcc -fsanitize=address -I$TREE/include -I$TREE \
 *            libctx_thread_exit_test.c $TREE/libcrypto.a -lpthread -ldl
 */
#include <string.h>
#include <pthread.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/provider.h>
#include "rcuprof_test_util.h"

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int fetched;   /* threads that have fetched */
    int go;        /* main: the ctx is freed, carry on */
} SYNC;

static SYNC sync_ = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

typedef struct {
    OSSL_LIB_CTX *a, *b;
    OSSL_LIB_CTX *next; /* scenario 4: the ctx made after A's free */
    int ok;
    int scenario;
} ARG;

static int fetch_some(OSSL_LIB_CTX *ctx)
{
    EVP_MD *md = EVP_MD_fetch(ctx, "SHA2-256", NULL);
    EVP_CIPHER *c = EVP_CIPHER_fetch(ctx, "AES-128-CBC", "?provider=default");
    unsigned char out[32];
    unsigned int outl = 0;
    int ok = md != NULL && c != NULL
        && EVP_Digest("abc", 3, out, &outl, md, NULL) && outl == 32;

    EVP_MD_free(md);
    EVP_CIPHER_free(c);
    return ok;
}

static void arrive_and_wait(void)
{
    pthread_mutex_lock(&sync_.mu);
    sync_.fetched++;
    pthread_cond_broadcast(&sync_.cv);
    while (!sync_.go)
        pthread_cond_wait(&sync_.cv, &sync_.mu);
    pthread_mutex_unlock(&sync_.mu);
}

static void *worker(void *varg)
{
    ARG *arg = varg;
    OSSL_LIB_CTX *c;

    arg->ok = fetch_some(arg->a);
    if (arg->b != NULL)
        arg->ok &= fetch_some(arg->b);
    arrive_and_wait();
    /* ctx A is gone now */
    if (arg->scenario == 2)
        arg->ok &= fetch_some(arg->b);
    if (arg->scenario == 4)
        arg->ok &= fetch_some(arg->next) && fetch_some(arg->next);
    if (arg->scenario == 3) {
        c = OSSL_LIB_CTX_new();
        arg->ok &= c != NULL && fetch_some(c);
        OSSL_LIB_CTX_free(c);
    }
    return NULL; /* thread exit: the thread-stop handlers run here */
}

/* Scenario 4: whether the new ctx got A's address */
static int reused_address;

static void run(int scenario, int nthreads)
{
    OSSL_LIB_CTX *a = OSSL_LIB_CTX_new();
    OSSL_LIB_CTX *b = scenario == 2 ? OSSL_LIB_CTX_new() : NULL;
    OSSL_LIB_CTX *next = NULL;
    uintptr_t a_addr = (uintptr_t)a;
    pthread_t th[8];
    ARG args[8];
    int i, ok = 1;

    CHECK(a != NULL, "OSSL_LIB_CTX_new");
    sync_.fetched = 0;
    sync_.go = 0;
    for (i = 0; i < nthreads; i++) {
        args[i].a = a;
        args[i].b = b;
        args[i].next = NULL;
        args[i].ok = 0;
        args[i].scenario = scenario;
        pthread_create(&th[i], NULL, worker, &args[i]);
    }
    pthread_mutex_lock(&sync_.mu);
    while (sync_.fetched < nthreads)
        pthread_cond_wait(&sync_.cv, &sync_.mu);
    pthread_mutex_unlock(&sync_.mu);

    /* Every thread fetched from A and is alive: free A under them */
    OSSL_LIB_CTX_free(a);
    if (scenario == 4) {
        /* the first allocation of its size since A's struct was freed */
        next = OSSL_LIB_CTX_new();
        CHECK(next != NULL, "OSSL_LIB_CTX_new after the free");
        reused_address = (uintptr_t)next == a_addr;
        for (i = 0; i < nthreads; i++)
            args[i].next = next;
    }

    pthread_mutex_lock(&sync_.mu);
    sync_.go = 1;
    pthread_cond_broadcast(&sync_.cv);
    pthread_mutex_unlock(&sync_.mu);
    for (i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        ok &= args[i].ok;
    }
    OSSL_LIB_CTX_free(b);
    OSSL_LIB_CTX_free(next);
    CHECK(ok, "scenario %d: a fetch failed", scenario);
    if (scenario == 4)
        printf("  scenario 4: the new ctx %s the freed ctx's address\n",
            reused_address ? "reused" : "did not reuse");
    printf("  scenario %d (%d thread%s): lib ctx freed while the thread%s"
           " lived, thread%s exited: %s\n", scenario, nthreads,
        nthreads > 1 ? "s" : "", nthreads > 1 ? "s" : "",
        nthreads > 1 ? "s" : "", ok ? "ok" : "FAILED");
}

int main(int argc, char **argv)
{
    int tries = 0;

    printf("libctx_thread_exit_test: variant %s\n", store_variant());
    if (argc > 1 && strcmp(argv[1], "reuse") == 0) {
        do
            run(4, 1);
        while (!reused_address && ++tries < 64 && rcuprof_failures == 0);
        CHECK(reused_address, "no new ctx reused a freed ctx's address in %d"
              " tries: the stale-entry case was not exercised", tries);
    } else {
        run(1, 4);
        run(2, 1);
        run(3, 2);
        run(4, 1);
    }
    /* and once more on the default ctx from the main thread, for LSan */
    CHECK(fetch_some(NULL), "default ctx fetch");
    OPENSSL_cleanup();
    if (rcuprof_failures != 0) {
        printf("libctx_thread_exit_test: FAILED (%d)\n", rcuprof_failures);
        return 1;
    }
    printf("libctx_thread_exit_test: OK (run under ASan for the memory check)\n");
    return 0;
}
