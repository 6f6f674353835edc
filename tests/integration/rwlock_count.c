/*
 * rwlock_count: an LD_PRELOAD shim counting pthread_rwlock_rdlock and
 * pthread_rwlock_wrlock calls that succeeded, in the whole process, from
 * outside OpenSSL's code (test_shared_ops: the probe layer's read-lock
 * counts checked against libc's).  At exit it appends "rd WR" (two
 * numbers) to the file named by $RWLOCK_COUNT_OUT.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rd, wr;
static int (*real_rd)(pthread_rwlock_t *);
static int (*real_wr)(pthread_rwlock_t *);

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
    int rc;

    if (real_rd == NULL)
        real_rd = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_rdlock");
    rc = real_rd(l);
    if (rc == 0)
        __atomic_add_fetch(&rd, 1, __ATOMIC_RELAXED);
    return rc;
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
    int rc;

    if (real_wr == NULL)
        real_wr = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
    rc = real_wr(l);
    if (rc == 0)
        __atomic_add_fetch(&wr, 1, __ATOMIC_RELAXED);
    return rc;
}

__attribute__((destructor)) static void report(void)
{
    const char *p = getenv("RWLOCK_COUNT_OUT");
    FILE *f;

    if (p == NULL || (f = fopen(p, "a")) == NULL)
        return;
    fprintf(f, "%llu %llu\n", __atomic_load_n(&rd, __ATOMIC_RELAXED),
            __atomic_load_n(&wr, __ATOMIC_RELAXED));
    fclose(f);
}
