/*
 * Thread lists, as sweeps take them:
 *   "1,2,4,8"     explicit counts
 *   "4-8"         a range, every count
 *   "1-64:x2"     a range, doubling (1,2,4,...,64)
 *   "2-16:+2"     a range with a step
 * Result: sorted, each in 1..RCUPROF_THREADS_MAX.  A count given twice
 * ("1,1", "1-4,2") is refused: a sweep of it would not be the one asked.
 */
#include "rcuprof_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int num(const char **p, unsigned *out)
{
    unsigned long v = 0;
    const char *s = *p;

    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > 1000000)
            return -1;
        s++;
    }
    *p = s;
    *out = (unsigned)v;
    return 0;
}

int rcuprof_parse_threads(const char *s, unsigned *out, size_t cap,
                          size_t *n, char *err, size_t errlen)
{
    const char *p = s;
    size_t k = 0;

    if (s == NULL || *s == '\0') {
        snprintf(err, errlen, "empty thread list: give counts like 1,2,4 or 1-64:x2");
        return -1;
    }
    while (*p != '\0') {
        unsigned a, b, step = 1, v;
        int mul = 0;
        const char *item = p;

        if (num(&p, &a) != 0)
            goto bad;
        b = a;
        if (*p == '-') {
            p++;
            if (num(&p, &b) != 0)
                goto bad;
            if (*p == ':') {
                p++;
                if (*p == 'x')
                    mul = 1;
                else if (*p != '+')
                    goto bad;
                p++;
                if (num(&p, &step) != 0 || step < (mul ? 2u : 1u))
                    goto bad;
            }
        }
        if (*p != ',' && *p != '\0')
            goto bad;
        if (a < 1 || b < 1 || a > RCUPROF_THREADS_MAX || b > RCUPROF_THREADS_MAX) {
            snprintf(err, errlen,
                     "thread count out of range in '%.*s': each must be 1 to %d",
                     (int)(p - item), item, RCUPROF_THREADS_MAX);
            return -1;
        }
        if (b < a) {
            snprintf(err, errlen, "range '%.*s' runs backwards: write low-high",
                     (int)(p - item), item);
            return -1;
        }
        for (v = a; v <= b; v = mul ? v * step : v + step) {
            if (k == cap) {
                snprintf(err, errlen, "thread list has more than %zu counts", cap);
                return -1;
            }
            out[k++] = v;
        }
        if (*p == ',') {
            p++;
            if (*p == '\0')
                goto bad;
        }
        continue;
 bad:
        snprintf(err, errlen,
                 "bad thread list '%s' near '%s': use counts like 1,2,4, ranges like 4-8, or 1-64:x2",
                 s, item);
        return -1;
    }
    qsort(out, k, sizeof(*out), rcuprof_sort_cmp_uint);
    for (*n = 1; *n < k; (*n)++)
        if (out[*n] == out[*n - 1]) {
            snprintf(err, errlen,
                     "thread list '%s': %u is given twice: give each count once",
                     s, out[*n]);
            return -1;
        }
    *n = k;
    return 0;
}
