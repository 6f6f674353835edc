#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

void rcuprof_err(const char *fmt, ...)
{
    va_list ap;

    fputs("rcuprof: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int rcuprof_write_atomic(const char *path, const char *data, size_t len)
{
    char tmp[PATH_MAX];
    int fd;
    size_t off = 0;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || fchmod(fd, 0644) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
 fail:
    {
        int e = errno;

        if (fd >= 0)
            close(fd);
        unlink(tmp);
        errno = e;
    }
    return -1;
}

const char *rcuprof_bindir(void)
{
    static char dir[PATH_MAX];
    const char *env = getenv("RCUPROF_BINDIR");
    ssize_t n;

    if (env != NULL && env[0] != '\0')
        return env;
    if (dir[0] != '\0')
        return dir;
    n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    if (n <= 0)
        return ".";
    dir[n] = '\0';
    return dirname(dir);
}

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
