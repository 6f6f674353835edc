/* The shared helpers of rcuprof_util.h. */
#define _GNU_SOURCE
#include "rcuprof_util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* ---- clocks ---------------------------------------------------------- */

uint64_t rcuprof_time_ns(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t rcuprof_time_mono_ns(void)
{
    return rcuprof_time_ns(CLOCK_MONOTONIC);
}

double rcuprof_time_mono_s(void)
{
    return (double)rcuprof_time_mono_ns() * 1e-9;
}

int64_t rcuprof_time_real_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* ---- seeded shuffle --------------------------------------------------- */

uint64_t rcuprof_rand_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rcuprof_rand_shuffle(size_t *a, size_t n, uint64_t *state)
{
    size_t j;

    for (j = n; j > 1; j--) {
        size_t r = (size_t)(rcuprof_rand_next(state) % j), t = a[j - 1];

        a[j - 1] = a[r];
        a[r] = t;
    }
}

/* ---- sorting ---------------------------------------------------------- */

int rcuprof_sort_cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

    return x < y ? -1 : x > y;
}

int rcuprof_sort_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return x < y ? -1 : x > y;
}

int rcuprof_sort_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

size_t rcuprof_sort_uniq_uint(unsigned *a, size_t n)
{
    size_t i, j;

    qsort(a, n, sizeof(*a), rcuprof_sort_cmp_uint);
    for (i = j = 0; i < n; i++)
        if (j == 0 || a[j - 1] != a[i])
            a[j++] = a[i];
    return j;
}

/* ---- a growable string ------------------------------------------------ */

void rcuprof_sb_printf(struct rcuprof_sb *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (b->oom)
        return;
    for (;;) {
        size_t room = b->cap - b->len;

        va_start(ap, fmt);
        /* A fresh buffer is NULL with room 0: vsnprintf only measures. */
        n = vsnprintf(b->p != NULL ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        {
            size_t cap = (b->cap + (size_t)n + 1) * 2;
            char *p = realloc(b->p, cap);

            if (p == NULL) {
                b->oom = 1;
                return;
            }
            b->p = p;
            b->cap = cap;
        }
    }
}

char *rcuprof_sb_done(struct rcuprof_sb *b)
{
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    return b->p != NULL ? b->p : strdup("");
}

/* ---- files ------------------------------------------------------------ */

int rcuprof_write_synced(int fd, const char *data, size_t len)
{
    size_t off = 0;

    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        off += (size_t)w;
    }
    return fsync(fd);
}

int rcuprof_write_atomic(const char *path, const char *data, size_t len)
{
    char tmp[PATH_MAX];
    int fd, e;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    if (rcuprof_write_synced(fd, data, len) != 0 || fchmod(fd, 0644) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
 fail:
    e = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    errno = e;
    return -1;
}

/* ---- parsing ---------------------------------------------------------- */

int rcuprof_parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int rcuprof_list_check(const char *opt, const char *list, char *err,
                       size_t n)
{
    const char *p;
    unsigned item = 1;
    int blank = 1;

    if (list[0] == '\0')
        return 0;
    for (p = list;; p++) {
        if (*p == ',' || *p == '\0') {
            if (blank) {
                snprintf(err, n, "--%s '%s': item %u is empty: remove the "
                         "extra comma", opt, list, item);
                return -1;
            }
            if (*p == '\0')
                return 0;
            item++;
            blank = 1;
        } else if (*p != ' ' && *p != '\t') {
            blank = 0;
        }
    }
}
