/*
 * rcuprof counters: per-thread perf_event counters named through libpfm4.
 *
 * Life cycle (see probes/README.md):
 *
 *   rcuprof_counters_new()      main thread: parse the event list, expand
 *                               presets, encode every name with libpfm4,
 *                               try-open each event once to learn whether it
 *                               counts here, build the groups, allocate
 *                               everything the workers will need.
 *   rcuprof_counters_open()     on each worker, after pinning: open the
 *                               groups for the calling thread, disabled.
 *   rcuprof_counters_start()    right before the window: reset + enable.
 *   rcuprof_counters_stop()     right after the window: disable + read.
 *                               Neither start nor stop allocates.
 *   rcuprof_counters_to_json()  main thread, after join: the `counters`
 *                               member of the run result.
 *   rcuprof_counters_free()     closes every descriptor, frees.
 *
 * Errors are negative RCUPROF_COUNTERS_E* codes; functions that can fail
 * also write a message for the user (naming the event, saying what to do)
 * into errbuf.  rcuprof_counters_strerror() gives the short text of a code.
 */
#ifndef RCUPROF_COUNTERS_H
# define RCUPROF_COUNTERS_H

# include <stddef.h>
# include <stdio.h>
# include <stdint.h>
# include <jansson.h>

# define RCUPROF_COUNTERS_MAX_EVENTS 32     /* after preset expansion */
# define RCUPROF_COUNTERS_MAX_GROUPS 16
# define RCUPROF_COUNTERS_HW_GROUP_MAX 4    /* hw events per group */
# define RCUPROF_COUNTERS_FSTR_MAX 384
# define RCUPROF_COUNTERS_NAME_MAX 128

enum rcuprof_counters_error {
    RCUPROF_COUNTERS_OK = 0,
    RCUPROF_COUNTERS_EUNKNOWN = -1,     /* no such event or preset */
    RCUPROF_COUNTERS_EENCODE = -2,      /* libpfm4 knows it, cannot encode */
    RCUPROF_COUNTERS_ETOOMANY = -3,     /* more than ..._MAX_EVENTS */
    RCUPROF_COUNTERS_EOPEN = -4,        /* perf_event_open failed */
    RCUPROF_COUNTERS_ENOHW = -5,        /* require_hw, but no hw counting */
    RCUPROF_COUNTERS_EPFM = -6,         /* libpfm4 did not initialise */
    RCUPROF_COUNTERS_ENOMEM = -7,
    RCUPROF_COUNTERS_EINVAL = -8,       /* bad argument, empty list */
    RCUPROF_COUNTERS_ENOFILE = -9,      /* RLIMIT_NOFILE cannot be raised */
    RCUPROF_COUNTERS_EIO = -10          /* read()/ioctl() on a counter */
};

const char *rcuprof_counters_strerror(int err);

/* Flags of rcuprof_counters_new(). */
# define RCUPROF_COUNTERS_REQUIRE_HW 0x1   /* --require-hw */

struct rcuprof_counters;

/*
 * Parse LIST (comma separated: event names as libpfm4 spells them, perf's
 * generic names, raw codes rNNNN, presets default/cache/coherence), encode,
 * try-open and group the events for NTHREADS worker threads.
 *
 * Events that do not open here are kept as "unavailable" with the reason;
 * the result is still usable unless FLAGS has RCUPROF_COUNTERS_REQUIRE_HW
 * and a hardware event is unavailable (then RCUPROF_COUNTERS_ENOHW).
 */
int rcuprof_counters_new(struct rcuprof_counters **out, const char *list,
                         unsigned flags, unsigned nthreads,
                         char *errbuf, size_t n);
void rcuprof_counters_free(struct rcuprof_counters *c);

/* Events that will be opened on each thread (available ones). */
unsigned rcuprof_counters_nopen(const struct rcuprof_counters *c);
/* Every event asked for, including unavailable ones. */
unsigned rcuprof_counters_nevents(const struct rcuprof_counters *c);

/*
 * Per worker, on the worker's own thread.  THREAD is the worker's index
 * (0 .. nthreads-1).  open: after pinning, may fail (EOPEN with the errno
 * text).  start/stop: allocation free; stop records an EIO failure for
 * to_json and rcuprof_counters_value() to report.
 */
int rcuprof_counters_open(struct rcuprof_counters *c, unsigned thread,
                          char *errbuf, size_t n);
void rcuprof_counters_start(struct rcuprof_counters *c, unsigned thread);
void rcuprof_counters_stop(struct rcuprof_counters *c, unsigned thread);
/* Close one thread's descriptors (free() closes whatever is left). */
void rcuprof_counters_close(struct rcuprof_counters *c, unsigned thread);

/* One event's reading on one thread (after stop). */
struct rcuprof_counters_value {
    int available;          /* 0: not counted, see reason */
    const char *reason;     /* why unavailable (static or owned by c) */
    int counted;            /* the group ran at least once */
    int scaled;             /* value = raw * enabled / running */
    uint64_t raw;
    double value;
    uint64_t enabled_ns, running_ns;
};

/* Event IDX in the order of rcuprof_counters_event_name(). */
const char *rcuprof_counters_event_name(const struct rcuprof_counters *c,
                                        unsigned idx);
int rcuprof_counters_value(const struct rcuprof_counters *c, unsigned thread,
                           unsigned idx, struct rcuprof_counters_value *out);

/*
 * The run result's `counters` member.  OPS, if not NULL, holds the ops each
 * thread completed in its window (for per-op figures).
 */
json_t *rcuprof_counters_to_json(const struct rcuprof_counters *c,
                                 const uint64_t *ops);

/*
 * Test seam: replace the raw group read of THREAD / GROUP (the
 * PERF_FORMAT_GROUP|ID|TOTAL_TIME_* layout: nr, enabled, running, then
 * value,id pairs) as if stop() had read it.  Used to fake multiplexing.
 */
int rcuprof_counters_inject_read(struct rcuprof_counters *c, unsigned thread,
                                 unsigned group, const uint64_t *buf,
                                 size_t nwords);
unsigned rcuprof_counters_ngroups(const struct rcuprof_counters *c);
/* The perf ids (PERF_EVENT_IOC_ID) of a group's events, in group order. */
int rcuprof_counters_group_ids(const struct rcuprof_counters *c,
                               unsigned thread, unsigned group,
                               uint64_t *ids, size_t max);

/* `rcuprof events --encode NAME`. */
struct rcuprof_counters_encoding {
    char name[RCUPROF_COUNTERS_NAME_MAX];
    char fstr[RCUPROF_COUNTERS_FSTR_MAX];   /* libpfm4's full string */
    char pmu[64];                           /* libpfm4 PMU name */
    uint32_t type;
    uint64_t config, config1, config2;
    int exclude_user, exclude_kernel, exclude_hv;
    int software;                           /* PERF_TYPE_SOFTWARE */
};
int rcuprof_counters_encode(const char *name,
                            struct rcuprof_counters_encoding *out,
                            char *errbuf, size_t n);
json_t *rcuprof_counters_encoding_json(
    const struct rcuprof_counters_encoding *e);

/*
 * `rcuprof events`: libpfm4's PMUs (with what libpfm4 claims and what a
 * try-open found), the presets as resolved for this machine's PMU, and for
 * every preset event whether it opens here.
 */
json_t *rcuprof_counters_list_json(char *errbuf, size_t n);
/* The same as text, for a terminal. */
void rcuprof_counters_list_print(FILE *fp, const json_t *list);

/* Presets (the table is data: probes/counter_presets.c). */
int rcuprof_counters_is_preset(const char *name);
/*
 * The events of PRESET for libpfm4 PMU PMU_NAME (e.g. "skl", or NULL /
 * "perf" for none detected): up to MAX rows into NAMES, VERIFIED (may be
 * NULL).  Returns the count, or a negative error.
 */
int rcuprof_counters_preset_resolve(const char *preset, const char *pmu_name,
                                    const char **names, int *verified,
                                    size_t max);

/*
 * The libpfm4 core PMU this machine claims (or the forced one), "perf" when
 * libpfm4 knows no core PMU here.  Initialises libpfm4.
 */
const char *rcuprof_counters_core_pmu(void);

/*
 * Make room for NTHREADS * NEVENTS perf descriptors plus RESERVE others:
 * raise the soft RLIMIT_NOFILE to the hard limit if needed.  ENOFILE with
 * a message when even the hard limit is too low.
 */
int rcuprof_counters_raise_nofile(unsigned nthreads, unsigned nevents,
                                  unsigned reserve, char *errbuf, size_t n);

#endif
