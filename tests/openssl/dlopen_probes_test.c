/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: the probe layer loads with dlopen (issue 14, item 10).
 *
 * argv[1] is a shared module built from the variant tree's
 * crypto/rcuprof_probes.c (what every probed libcrypto.so carries).  A
 * layer that kept its ~7 KiB of counters in initial-exec TLS made
 * dlopen() fail with "cannot allocate memory in static TLS block" (as does
 * OpenSSL's test_evp_extra, which dlopens engines/dasync.so, linked to
 * libcrypto.so).  Then the per-thread blocks behind the one TLS pointer
 * count exactly: 3 threads record 1,000 acquisitions and 1,000 retries
 * each and exit (their blocks are folded in and freed); the process total
 * is exactly 3,000 of each.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal/rcuprof_probes.h"

#define NTHREADS 3
#define NACQ 1000

static void (*p_enable)(int);
static void (*p_every)(unsigned int);
static uint64_t (*p_begin)(void);
static void (*p_end)(unsigned int, uint64_t, uint64_t, uint64_t, const void *,
                     const void *, const void *, const void *);
static void (*p_retry)(unsigned int);
static int (*p_process)(struct rcuprof_probes_counters *);

static void *worker(void *arg)
{
    static int dummy[4];
    int i;

    (void)arg;
    for (i = 0; i < NACQ; i++) {
        uint64_t tok = p_begin();

        p_retry(0);
        p_end(0, tok, 1, 1, dummy, dummy, dummy + 1, dummy + 2);
    }
    return NULL;
}

#define SYM(v, name)                                                     \
    do {                                                                 \
        *(void **)&(v) = dlsym(h, name);                                 \
        if ((v) == NULL) {                                               \
            printf("FAIL: %s not found: %s\n", name, dlerror());         \
            return 1;                                                    \
        }                                                                \
    } while (0)

int main(int argc, char **argv)
{
    struct rcuprof_probes_counters c;
    pthread_t th[NTHREADS];
    void *h;
    int i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s MODULE.so\n", argv[0]);
        return 2;
    }
    h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    printf("dlopen %s: ok\n", argv[1]);
    SYM(p_enable, "rcuprof_probes_enable");
    SYM(p_every, "rcuprof_probes_set_sample_every");
    SYM(p_begin, "rcuprof_probes_read_begin");
    SYM(p_end, "rcuprof_probes_read_end");
    SYM(p_retry, "rcuprof_probes_retry");
    SYM(p_process, "rcuprof_probes_read_process");
    p_enable(1);
    p_every(4);
    for (i = 0; i < NTHREADS; i++)
        pthread_create(&th[i], NULL, worker, NULL);
    for (i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    memset(&c, 0, sizeof(c));
    c.size = sizeof(c);
    if (p_process(&c) != 0) {
        printf("FAIL: rcuprof_probes_read_process\n");
        return 1;
    }
    printf("after %d exited threads: %llu acquisitions, %llu retries, %llu timed\n",
           NTHREADS, (unsigned long long)c.rcu[0].acquisitions,
           (unsigned long long)c.rcu[0].retries,
           (unsigned long long)c.rcu[0].timed);
    if (c.rcu[0].acquisitions != NTHREADS * NACQ
        || c.rcu[0].retries != NTHREADS * NACQ
        || c.rcu[0].timed != NTHREADS * NACQ / 4) {
        printf("FAIL: counts are not exact\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}
