/*
 * Small helpers every room shares, each written once: the limits, the
 * clocks, the seeded shuffle of sweep and explain, sort comparators, a
 * growable string, atomic file writes and number, list and thread-list
 * parsing.
 * Nothing here knows OpenSSL, the driver or the CLI (src/common is the
 * bottom layer: DEVELOPERS.md, "Layers").
 */
#ifndef RCUPROF_UTIL_H
# define RCUPROF_UTIL_H

# include <stddef.h>
# include <stdint.h>
# include <time.h>

/* Worker threads of one run, for the driver and every CLI thread list. */
# define RCUPROF_THREADS_MAX 1024
/* The line size every padded slot and shared word is aligned to. */
# define RCUPROF_CACHELINE 64

/* ---- clocks ---------------------------------------------------------- */

/* CLOCK's time in ns (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...). */
uint64_t rcuprof_time_ns(clockid_t clock);
/* CLOCK_MONOTONIC in ns, and in seconds. */
uint64_t rcuprof_time_mono_ns(void);
double rcuprof_time_mono_s(void);
/* CLOCK_REALTIME in ns since the epoch. */
int64_t rcuprof_time_real_ns(void);

/* ---- seeded shuffle (sweep's plan, explain's interleaving) ----------- */

/* splitmix64: the next number of the stream in *state. */
uint64_t rcuprof_rand_next(uint64_t *state);
/*
 * Fisher-Yates over a[0..n): for j = n down to 2, swap a[j-1] with
 * a[next % j].  One stream (*state) may run over many shuffles, so a
 * whole plan is a function of its seed.
 */
void rcuprof_rand_shuffle(size_t *a, size_t n, uint64_t *state);

/* ---- sorting ---------------------------------------------------------- */

/* qsort comparators, ascending. */
int rcuprof_sort_cmp_uint(const void *a, const void *b);
int rcuprof_sort_cmp_int(const void *a, const void *b);
int rcuprof_sort_cmp_double(const void *a, const void *b);
/* Sorts a[0..n) ascending and drops repeats; returns the new count. */
size_t rcuprof_sort_uniq_uint(unsigned *a, size_t n);

/* ---- a growable string ------------------------------------------------ */

/*
 * Zero-initialise; on allocation failure oom is set and later calls do
 * nothing (the caller frees p and reports).
 */
struct rcuprof_sb {
    char *p;
    size_t len, cap;
    int oom;
};
void rcuprof_sb_printf(struct rcuprof_sb *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text (the caller frees it), or NULL when memory ran out (freed). */
char *rcuprof_sb_done(struct rcuprof_sb *b);

/* ---- files ------------------------------------------------------------ */

/* Write data to path atomically: temp file in the same folder, fsync,
 * rename.  0, or -1 with errno set (no temp file left). */
int rcuprof_write_atomic(const char *path, const char *data, size_t len);
/* Write all of data to fd, then fsync it: 0 or -1 with errno. */
int rcuprof_write_synced(int fd, const char *data, size_t len);

/* ---- parsing ---------------------------------------------------------- */

/* A whole decimal number in [lo, hi] (no sign, no blanks): 0 or -1. */
int rcuprof_parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/*
 * Comma-separated option lists (--fetch, --churn, --compat, --events,
 * sweep's --variants): one rule for every list the driver and the CLI
 * take, so that none silently skips an empty item ("a,,b", "a,", ",a"),
 * as strtok_r would.  0 when every item of LIST has a character other
 * than a blank; else -1 with "--OPT 'LIST': item K is empty: remove the
 * extra comma" in err.  An empty LIST is left to the caller (each has its
 * own message for it).
 */
int rcuprof_list_check(const char *opt, const char *list, char *err,
                       size_t n);

/*
 * Thread lists (threadlist.c), as sweeps take them: "1,2,4,8", "4-8",
 * "1-64:x2", "2-16:+2" -> sorted counts, each in 1..RCUPROF_THREADS_MAX
 * and given once (a count given twice is refused).  0, or -1 with a
 * one-line reason in err.
 */
int rcuprof_parse_threads(const char *s, unsigned *out, size_t cap,
                          size_t *n, char *err, size_t errlen);

#endif
