/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * Evidence for sanitizer-ctest.sh's `define OSSL_TSAN_BUILD` in the TSan
 * trees (tests/openssl/README.md, "Sanitizers"); not part of the build.
 *
 * OpenSSL's CRYPTO_DOWN_REF (include/internal/refcount.h) is a release
 * decrement followed, on the last reference, by an acquire fence.  gcc 12's
 * ThreadSanitizer does not model atomic_thread_fence (gcc says so: -Wtsan),
 * so the free by the last owner is reported as racing with another owner's
 * earlier write: a false positive.  OpenSSL itself switches to an acq_rel
 * decrement when it detects TSan, but detects it with __has_feature, which
 * gcc 12 lacks.
 *
 *   gcc -g -O1 -fsanitize=thread tsan_refcount_fence.c -o a -lpthread
 *   setarch -R ./a      # WARNING: ThreadSanitizer: data race (free vs write)
 *   gcc -g -O1 -DACQ_REL -fsanitize=thread tsan_refcount_fence.c -o b -lpthread
 *   setarch -R ./b      # clean
 */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
typedef struct { _Atomic int refs; int field[2]; } OBJ;
static void down(OBJ *o) {
#ifdef ACQ_REL
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) == 1)
        free(o);
#else
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_release) == 1) {
        atomic_thread_fence(memory_order_acquire);
        free(o);
    }
#endif
}
struct arg { OBJ *o; int i; };
static void *th(void *a) { struct arg *g = a; g->o->field[g->i] = 1; down(g->o); return NULL; }
int main(void) {
    for (int i = 0; i < 200; i++) {
        OBJ *o = calloc(1, sizeof(*o)); pthread_t t[2];
        o->refs = 2;
        struct arg g0 = { o, 0 }, g1 = { o, 1 }; pthread_create(&t[0], 0, th, &g0); pthread_create(&t[1], 0, th, &g1);
        pthread_join(t[0], 0); pthread_join(t[1], 0);
    }
    return 0;
}
