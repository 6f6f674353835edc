/*
 * rcuprof sampler: per-thread perf_event sampling inside the stress driver.
 *
 * Life cycle (see probes/README.md, "sampler"):
 *
 *   rcuprof_sampler_new()      main thread: choose and try-open the event
 *                              (cpu-clock by default; any name the counters
 *                              module encodes), size the rings, allocate.
 *   rcuprof_sampler_open()     on each sampled thread (the worker's
 *                              after_pin hook): open the sampling event and
 *                              a context-switch sampler for the calling
 *                              thread (pid 0, cpu -1), disabled, and map
 *                              one ring buffer for both.
 *   rcuprof_sampler_start()    window start: enable.  No allocation.
 *   rcuprof_sampler_stop()     window end: disable, read the event's count.
 *                              No allocation.
 *   rcuprof_sampler_to_json()  after join (any thread): parse every ring
 *                              and return the run result's `samples`
 *                              member, with the process's executable
 *                              mappings and their build IDs.
 *   rcuprof_sampler_free()     unmap, close, free.
 *
 * Nothing drains the rings during the window: they are sized to hold the
 * whole window (rcuprof_sampler_ring_pages) and read once after it.  A ring
 * that fills is reported (`ring_full`), with the samples it could not hold
 * estimated from the event's own count.
 *
 * Errors are negative RCUPROF_SAMPLER_E* codes, with a message for the user
 * in errbuf.
 */
#ifndef RCUPROF_SAMPLER_H
# define RCUPROF_SAMPLER_H

# include <stddef.h>
# include <stdint.h>
# include <sys/types.h>
# include <jansson.h>

enum rcuprof_sampler_error {
    RCUPROF_SAMPLER_OK = 0,
    RCUPROF_SAMPLER_EINVAL = -1,    /* bad argument or configuration */
    RCUPROF_SAMPLER_EENCODE = -2,   /* event name not known / encodable */
    RCUPROF_SAMPLER_EOPEN = -3,     /* perf_event_open refused */
    RCUPROF_SAMPLER_EMMAP = -4,     /* the ring could not be mapped */
    RCUPROF_SAMPLER_ENOMEM = -5,
    RCUPROF_SAMPLER_ENOFILE = -6,   /* RLIMIT_NOFILE cannot be raised */
    RCUPROF_SAMPLER_EIO = -7        /* ioctl/read on an event */
};

const char *rcuprof_sampler_strerror(int err);

# define RCUPROF_SAMPLER_DEFAULT_FREQ 4999
# define RCUPROF_SAMPLER_DEFAULT_DEPTH 32
# define RCUPROF_SAMPLER_DEFAULT_SWITCHES 1000  /* per s per thread */
# define RCUPROF_SAMPLER_DEFAULT_CAP_PAGES 4096 /* data pages per thread */
# define RCUPROF_SAMPLER_TOTAL_CAP_BYTES (512ULL << 20)

struct rcuprof_sampler_config {
    /*
     * NULL, "cpu-clock" or "task-clock": the software clock, sampled FREQ
     * times per second of CPU time (works without a hardware PMU).  Any
     * other name goes through rcuprof_counters_encode (libpfm4) and is
     * sampled every PERIOD events, or at FREQ when PERIOD is 0, with the
     * highest precise_ip the kernel accepts.
     */
    const char *event;
    uint64_t freq;              /* Hz; 0: RCUPROF_SAMPLER_DEFAULT_FREQ */
    uint64_t period;            /* events per sample; 0: use freq */
    unsigned max_depth;         /* call chain entries; 0: default */
    uint64_t duration_ms;       /* window length, for ring sizing */
    uint64_t switches_per_s;    /* expected, for sizing; 0: default */
    size_t cap_pages;           /* data pages per thread; 0: default */
    size_t ring_pages;          /* force the data pages (tests); 0: size */
    int no_switch_samples;      /* 1: no call chain at switch-out */
    /*
     * 1: a hardware event that does not open here (no PMU in this VM) falls
     * back to cpu-clock, noted in the result; 0: rcuprof_sampler_new fails.
     */
    int fallback_cpu_clock;
};

struct rcuprof_sampler;

/* NTHREADS sampled threads, indexed 0 .. NTHREADS-1 (workers first). */
int rcuprof_sampler_new(struct rcuprof_sampler **out,
                        const struct rcuprof_sampler_config *cfg,
                        unsigned nthreads, char *errbuf, size_t n);
void rcuprof_sampler_free(struct rcuprof_sampler *s);

/* On the thread to sample; THREAD is its index. */
int rcuprof_sampler_open(struct rcuprof_sampler *s, unsigned thread,
                         char *errbuf, size_t n);
/* Optional role shown in the result ("worker" unless set; e.g. "writer"). */
void rcuprof_sampler_set_role(struct rcuprof_sampler *s, unsigned thread,
                              const char *role);
void rcuprof_sampler_start(struct rcuprof_sampler *s, unsigned thread);
void rcuprof_sampler_stop(struct rcuprof_sampler *s, unsigned thread);

/* The `samples` member (see probes/README.md for its layout). */
json_t *rcuprof_sampler_to_json(struct rcuprof_sampler *s);

/* Pages of one thread's ring, as chosen by rcuprof_sampler_new. */
size_t rcuprof_sampler_data_pages(const struct rcuprof_sampler *s);

/*
 * Ring sizing, pure: bytes the window needs (samples at RATE_HZ of
 * SAMPLE_BYTES each, plus SWITCHES_PER_S switch-outs costing SWITCH_BYTES
 * each, plus a quarter for margin), in pages of PAGE_SIZE, rounded up to a
 * power of two, at least 2, at most CAP_PAGES (rounded down to a power of
 * two).  *CAPPED is set when the cap cut it; *NEED_PAGES (may be NULL) gets
 * the uncapped power of two.  Returns the data pages (0 on bad input).
 */
size_t rcuprof_sampler_ring_pages(uint64_t duration_ms, uint64_t rate_hz,
                                  size_t sample_bytes,
                                  uint64_t switches_per_s,
                                  size_t switch_bytes, size_t page_size,
                                  size_t cap_pages, size_t *need_pages,
                                  int *capped);
/* Bytes of one sample record with a call chain of DEPTH entries. */
size_t rcuprof_sampler_sample_bytes(unsigned depth);

/*
 * The process's executable mappings (/proc/self/maps) with the build ID
 * and load bias of each ELF object: [{start, end, offset, path, build_id,
 * bias}], addresses as "0x..." strings, build_id as hex or null.
 */
json_t *rcuprof_sampler_maps_json(void);

/*
 * The build ID of the ELF file PATH (NT_GNU_BUILD_ID, read with libelf)
 * as lower-case hex into HEX (at least 2 * 64 + 1 bytes).  0 or -1.
 */
int rcuprof_sampler_file_build_id(const char *path, char *hex, size_t n);

#endif
