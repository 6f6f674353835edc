/*
 * rcuprof sampler: per-thread perf_event sampling with call chains and
 * context-switch records, one ring per thread, read after the window.
 * See rcuprof_sampler.h and probes/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <gelf.h>
#include <libelf.h>
#include "rcuprof_sampler.h"
#include "rcuprof_counters.h"
#include "rcuprof_util.h"

#define BUILD_ID_MAX 64

/* Fixed part of a sample: header, identifier, ip, pid/tid, time, nr. */
#define SAMPLE_FIXED_BYTES (8 + 8 + 8 + 8 + 8 + 8)
/* A PERF_RECORD_SWITCH with sample_id_all: header, pid/tid, time, id. */
#define SWITCH_RECORD_BYTES (8 + 8 + 8 + 8)

struct sampler_thread {
    int fd;                     /* the sampling event (owns the ring) */
    int fd_sw;                  /* context-switch sampler, or -1 */
    uint64_t id, id_sw;         /* PERF_EVENT_IOC_ID of each */
    unsigned char *base;        /* metadata page + data pages */
    size_t map_len;
    size_t pages;               /* data pages of this thread's ring */
    pid_t tid;
    int opened;
    int stopped;
    int io_error;
    char role[16];
    uint64_t start_ns, stop_ns; /* CLOCK_MONOTONIC at enable / disable */
    uint64_t read_buf[3];       /* value, time enabled, time running */
    int read_ok;
};

struct rcuprof_sampler {
    struct perf_event_attr attr;    /* the sampling event, disabled */
    char event_name[128];
    char fallback[256];             /* why cpu-clock replaced the event */
    int software_clock;             /* cpu-clock / task-clock */
    int exclude_kernel;             /* forced by perf_event_paranoid */
    int switch_samples;             /* context-switch sampler usable */
    char switch_reason[128];        /* why not, when not */
    unsigned max_depth;
    int use_max_stack;              /* attr.sample_max_stack accepted */
    size_t page_size;
    size_t data_pages, need_pages;
    int capped;
    int shrunk;                     /* some ring was mapped smaller */
    size_t sample_bytes;
    uint64_t freq, period;
    uint64_t duration_ms, switches_per_s;
    unsigned nthreads;
    struct sampler_thread *t;
};

const char *rcuprof_sampler_strerror(int err)
{
    switch (err) {
    case RCUPROF_SAMPLER_OK:
        return "ok";
    case RCUPROF_SAMPLER_EINVAL:
        return "invalid argument";
    case RCUPROF_SAMPLER_EENCODE:
        return "unknown event";
    case RCUPROF_SAMPLER_EOPEN:
        return "perf_event_open failed";
    case RCUPROF_SAMPLER_EMMAP:
        return "cannot map the ring buffer";
    case RCUPROF_SAMPLER_ENOMEM:
        return "out of memory";
    case RCUPROF_SAMPLER_ENOFILE:
        return "too few file descriptors";
    case RCUPROF_SAMPLER_EIO:
        return "perf event I/O failed";
    }
    return "unknown error";
}

static long perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
                      int group, unsigned long flags)
{
    return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

size_t rcuprof_sampler_sample_bytes(unsigned depth)
{
    /* +1: the PERF_CONTEXT_USER marker the kernel puts first. */
    return SAMPLE_FIXED_BYTES + ((size_t)depth + 1) * 8;
}

static size_t pow2_floor(size_t v)
{
    size_t p = 1;

    while (p <= v / 2)
        p <<= 1;
    return p;
}

size_t rcuprof_sampler_ring_pages(uint64_t duration_ms, uint64_t rate_hz,
                                  size_t sample_bytes,
                                  uint64_t switches_per_s,
                                  size_t switch_bytes, size_t page_size,
                                  size_t cap_pages, size_t *need_pages,
                                  int *capped)
{
    long double bytes;
    size_t pages, p = 2;

    if (capped != NULL)
        *capped = 0;
    if (page_size == 0 || cap_pages < 1)
        return 0;
    bytes = (long double)duration_ms / 1000.0L
        * ((long double)rate_hz * sample_bytes
           + (long double)switches_per_s * switch_bytes);
    bytes *= 1.25L;
    if (bytes > (long double)SIZE_MAX / 4)
        bytes = (long double)SIZE_MAX / 4;
    pages = (size_t)((bytes + page_size - 1) / page_size);
    while (p < pages && p <= SIZE_MAX / 4)
        p <<= 1;
    if (need_pages != NULL)
        *need_pages = p;
    if (p > cap_pages) {
        p = pow2_floor(cap_pages);
        if (capped != NULL)
            *capped = 1;
    }
    return p;
}

/* The software clock the kernel samples in ns of CPU time. */
static int is_clock_name(const char *name, uint64_t *config)
{
    if (name == NULL || strcmp(name, "cpu-clock") == 0) {
        *config = PERF_COUNT_SW_CPU_CLOCK;
        return 1;
    }
    if (strcmp(name, "task-clock") == 0) {
        *config = PERF_COUNT_SW_TASK_CLOCK;
        return 1;
    }
    return 0;
}

static void set_clock(struct rcuprof_sampler *s, uint64_t config)
{
    memset(&s->attr, 0, sizeof(s->attr));
    s->attr.size = sizeof(s->attr);
    s->attr.type = PERF_TYPE_SOFTWARE;
    s->attr.config = config;
    /* In ns of CPU time: a fixed period is exact, no frequency loop. */
    s->period = 1000000000ULL / s->freq;
    if (s->period == 0)
        s->period = 1;
    s->attr.sample_period = s->period;
    s->software_clock = 1;
    snprintf(s->event_name, sizeof(s->event_name), "%s",
             config == PERF_COUNT_SW_TASK_CLOCK ? "task-clock" : "cpu-clock");
}

static void set_common(struct rcuprof_sampler *s, struct perf_event_attr *a)
{
    a->size = sizeof(*a);
    a->disabled = 1;
    a->exclude_hv = 1;
    a->exclude_kernel = s->exclude_kernel;
    a->exclude_callchain_kernel = 1;
    a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP
        | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
    a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED
        | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a->sample_id_all = 1;
    a->use_clockid = 1;
    a->clockid = CLOCK_MONOTONIC;
    if (s->use_max_stack)
        a->sample_max_stack = (uint16_t)s->max_depth;
    /* Nobody polls: wake up only when the ring is full. */
    a->watermark = 1;
    a->wakeup_watermark = (uint32_t)(s->data_pages * s->page_size);
}

/*
 * Try-open ATTR on the calling thread, adjusting what this kernel and
 * this user allow: kernel samples (EACCES: user only), sample_max_stack
 * (EINVAL on old kernels), precise_ip (highest accepted).
 */
static int try_open(struct rcuprof_sampler *s, struct perf_event_attr *a,
                    int hardware)
{
    int fd, precise = hardware ? 3 : 0;

    for (;;) {
        set_common(s, a);
        a->precise_ip = (unsigned)precise;
        fd = (int)perf_open(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0)
            return fd;
        if (errno == EACCES && !s->exclude_kernel) {
            s->exclude_kernel = 1;
            continue;
        }
        if ((errno == EINVAL || errno == EOPNOTSUPP) && precise > 0) {
            precise--;
            continue;
        }
        if (errno == EINVAL && s->use_max_stack) {
            s->use_max_stack = 0;
            continue;
        }
        return -1;
    }
}

static int choose_event(struct rcuprof_sampler *s,
                        const struct rcuprof_sampler_config *cfg,
                        char *errbuf, size_t n)
{
    struct rcuprof_counters_encoding enc;
    uint64_t config;
    char msg[256];
    int fd, hw;

    if (is_clock_name(cfg->event, &config)) {
        set_clock(s, config);
        fd = try_open(s, &s->attr, 0);
        if (fd < 0) {
            snprintf(errbuf, n, "cannot sample %s: %s: check "
                     "kernel.perf_event_paranoid (3 forbids it)",
                     s->event_name, strerror(errno));
            return RCUPROF_SAMPLER_EOPEN;
        }
        close(fd);
        return 0;
    }
    if (rcuprof_counters_encode(cfg->event, &enc, msg, sizeof(msg)) != 0) {
        snprintf(errbuf, n, "cannot sample %s: %s", cfg->event, msg);
        return RCUPROF_SAMPLER_EENCODE;
    }
    memset(&s->attr, 0, sizeof(s->attr));
    s->attr.type = enc.type;
    s->attr.config = enc.config;
    s->attr.config1 = enc.config1;
    s->attr.config2 = enc.config2;
    if (cfg->period != 0) {
        s->period = cfg->period;
        s->attr.sample_period = cfg->period;
    } else {
        s->attr.freq = 1;
        s->attr.sample_freq = s->freq;
    }
    if (enc.exclude_kernel)
        s->exclude_kernel = 1;
    snprintf(s->event_name, sizeof(s->event_name), "%s", cfg->event);
    hw = !enc.software;
    fd = try_open(s, &s->attr, hw);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    if (cfg->fallback_cpu_clock
        && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) {
        snprintf(s->fallback, sizeof(s->fallback),
                 "%s does not open here (%s: no hardware PMU in this VM?); "
                 "sampled cpu-clock instead", cfg->event, strerror(errno));
        s->exclude_kernel = 0;
        set_clock(s, PERF_COUNT_SW_CPU_CLOCK);
        fd = try_open(s, &s->attr, 0);
        if (fd >= 0) {
            close(fd);
            return 0;
        }
    }
    snprintf(errbuf, n, "cannot sample %s: %s: %s", cfg->event,
             strerror(errno), errno == ENOENT || errno == EOPNOTSUPP
             ? "no hardware PMU here; sample cpu-clock instead"
             : "check kernel.perf_event_paranoid");
    return RCUPROF_SAMPLER_EOPEN;
}

/* The sampler of call chains at switch-out: context-switches, period 1. */
static void sw_attr(struct rcuprof_sampler *s, struct perf_event_attr *a)
{
    memset(a, 0, sizeof(*a));
    a->type = PERF_TYPE_SOFTWARE;
    a->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
    a->sample_period = 1;
    set_common(s, a);
}

int rcuprof_sampler_new(struct rcuprof_sampler **out,
                        const struct rcuprof_sampler_config *cfg,
                        unsigned nthreads, char *errbuf, size_t n)
{
    struct rcuprof_sampler *s;
    struct perf_event_attr a;
    size_t cap, total_cap, sw_bytes;
    unsigned i;
    int rc, fd;

    *out = NULL;
    if (cfg == NULL || nthreads == 0) {
        snprintf(errbuf, n, "sampler: no configuration or no threads");
        return RCUPROF_SAMPLER_EINVAL;
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL || (s->t = calloc(nthreads, sizeof(*s->t))) == NULL) {
        free(s);
        snprintf(errbuf, n, "sampler: out of memory");
        return RCUPROF_SAMPLER_ENOMEM;
    }
    s->nthreads = nthreads;
    for (i = 0; i < nthreads; i++) {
        s->t[i].fd = s->t[i].fd_sw = -1;
        snprintf(s->t[i].role, sizeof(s->t[i].role), "worker");
    }
    s->freq = cfg->freq != 0 ? cfg->freq : RCUPROF_SAMPLER_DEFAULT_FREQ;
    if (s->freq > 1000000) {
        snprintf(errbuf, n, "sampler: frequency %" PRIu64 " Hz is above "
                 "1 MHz: choose a lower one", s->freq);
        rcuprof_sampler_free(s);
        return RCUPROF_SAMPLER_EINVAL;
    }
    s->max_depth = cfg->max_depth != 0 ? cfg->max_depth
        : RCUPROF_SAMPLER_DEFAULT_DEPTH;
    if (s->max_depth > 512)
        s->max_depth = 512;
    s->use_max_stack = 1;
    s->duration_ms = cfg->duration_ms;
    s->switches_per_s = cfg->switches_per_s != 0 ? cfg->switches_per_s
        : RCUPROF_SAMPLER_DEFAULT_SWITCHES;
    s->page_size = (size_t)sysconf(_SC_PAGESIZE);

    /* Size first: the watermark set by try_open uses it. */
    s->sample_bytes = rcuprof_sampler_sample_bytes(s->max_depth);
    sw_bytes = 2 * SWITCH_RECORD_BYTES
        + (cfg->no_switch_samples ? 0 : s->sample_bytes);
    cap = cfg->cap_pages != 0 ? cfg->cap_pages
        : RCUPROF_SAMPLER_DEFAULT_CAP_PAGES;
    total_cap = (size_t)(RCUPROF_SAMPLER_TOTAL_CAP_BYTES / s->page_size
                         / nthreads);
    if (total_cap < 2)
        total_cap = 2;
    if (cap > total_cap)
        cap = total_cap;
    if (cfg->ring_pages != 0) {
        s->data_pages = pow2_floor(cfg->ring_pages);
        s->need_pages = s->data_pages;
    } else {
        /* For a fixed op count the duration is a guess: 1 s. */
        s->data_pages = rcuprof_sampler_ring_pages(
            s->duration_ms != 0 ? s->duration_ms : 1000, s->freq,
            s->sample_bytes, s->switches_per_s, sw_bytes, s->page_size,
            cap, &s->need_pages, &s->capped);
    }

    rc = choose_event(s, cfg, errbuf, n);
    if (rc != 0) {
        rcuprof_sampler_free(s);
        return rc;
    }
    s->switch_samples = 0;
    if (cfg->no_switch_samples) {
        snprintf(s->switch_reason, sizeof(s->switch_reason), "not asked");
    } else if (s->exclude_kernel) {
        snprintf(s->switch_reason, sizeof(s->switch_reason),
                 "user-only sampling: context-switches fire in the kernel");
    } else {
        sw_attr(s, &a);
        fd = (int)perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0) {
            s->switch_samples = 1;
            close(fd);
        } else {
            snprintf(s->switch_reason, sizeof(s->switch_reason),
                     "context-switches does not open: %s", strerror(errno));
        }
    }
    rc = rcuprof_counters_raise_nofile(nthreads, 2, 64, errbuf, n);
    if (rc != 0) {
        rcuprof_sampler_free(s);
        return RCUPROF_SAMPLER_ENOFILE;
    }
    *out = s;
    return 0;
}

size_t rcuprof_sampler_data_pages(const struct rcuprof_sampler *s)
{
    return s->data_pages;
}

void rcuprof_sampler_set_role(struct rcuprof_sampler *s, unsigned thread,
                              const char *role)
{
    if (s != NULL && thread < s->nthreads && role != NULL)
        snprintf(s->t[thread].role, sizeof(s->t[thread].role), "%s", role);
}

static void close_thread(struct sampler_thread *t)
{
    if (t->base != NULL)
        munmap(t->base, t->map_len);
    if (t->fd_sw >= 0)
        close(t->fd_sw);
    if (t->fd >= 0)
        close(t->fd);
    t->base = NULL;
    t->fd = t->fd_sw = -1;
    t->opened = 0;
}

int rcuprof_sampler_open(struct rcuprof_sampler *s, unsigned thread,
                         char *errbuf, size_t n)
{
    struct sampler_thread *t;
    struct perf_event_attr a;
    size_t pages;
    void *p;

    if (s == NULL || thread >= s->nthreads) {
        snprintf(errbuf, n, "sampler: thread %u out of range", thread);
        return RCUPROF_SAMPLER_EINVAL;
    }
    t = &s->t[thread];
    if (t->opened)
        close_thread(t);
    t->tid = (pid_t)syscall(SYS_gettid);
    a = s->attr;
    set_common(s, &a);
    a.context_switch = 1;
    t->fd = (int)perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (t->fd < 0) {
        snprintf(errbuf, n, "sampler: cannot open %s on thread %u: %s",
                 s->event_name, thread, strerror(errno));
        return RCUPROF_SAMPLER_EOPEN;
    }
    /* Halve the ring while the locked-memory limit refuses it. */
    for (pages = s->data_pages; pages >= 1; pages /= 2) {
        t->map_len = (pages + 1) * s->page_size;
        p = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
                 t->fd, 0);
        if (p != MAP_FAILED) {
            t->base = p;
            break;
        }
        if (errno != EPERM && errno != ENOMEM)
            break;
    }
    if (t->base == NULL) {
        snprintf(errbuf, n, "sampler: cannot map a %zu-page ring on thread "
                 "%u: %s: raise RLIMIT_MEMLOCK or "
                 "kernel.perf_event_mlock_kb", s->data_pages, thread,
                 strerror(errno));
        close_thread(t);
        return RCUPROF_SAMPLER_EMMAP;
    }
    /* Workers open concurrently: the shrink is per thread. */
    t->pages = pages;
    if (pages != s->data_pages)
        __atomic_store_n(&s->shrunk, 1, __ATOMIC_RELAXED);
    if (ioctl(t->fd, PERF_EVENT_IOC_ID, &t->id) != 0)
        t->id = 0;
    if (s->switch_samples) {
        sw_attr(s, &a);
        t->fd_sw = (int)perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (t->fd_sw >= 0
            && (ioctl(t->fd_sw, PERF_EVENT_IOC_SET_OUTPUT, t->fd) != 0
                || ioctl(t->fd_sw, PERF_EVENT_IOC_ID, &t->id_sw) != 0)) {
            close(t->fd_sw);
            t->fd_sw = -1;
        }
    }
    t->opened = 1;
    t->stopped = 0;
    t->read_ok = 0;
    return 0;
}

void rcuprof_sampler_start(struct rcuprof_sampler *s, unsigned thread)
{
    struct sampler_thread *t;

    if (s == NULL || thread >= s->nthreads || !s->t[thread].opened)
        return;
    t = &s->t[thread];
    t->start_ns = rcuprof_time_mono_ns();
    if (t->fd_sw >= 0 && ioctl(t->fd_sw, PERF_EVENT_IOC_ENABLE, 0) != 0)
        t->io_error = 1;
    if (ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
        t->io_error = 1;
}

void rcuprof_sampler_stop(struct rcuprof_sampler *s, unsigned thread)
{
    struct sampler_thread *t;

    if (s == NULL || thread >= s->nthreads || !s->t[thread].opened)
        return;
    t = &s->t[thread];
    if (ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0) != 0)
        t->io_error = 1;
    if (t->fd_sw >= 0 && ioctl(t->fd_sw, PERF_EVENT_IOC_DISABLE, 0) != 0)
        t->io_error = 1;
    t->stop_ns = rcuprof_time_mono_ns();
    t->read_ok = read(t->fd, t->read_buf, sizeof(t->read_buf))
        == (ssize_t)sizeof(t->read_buf);
    t->stopped = 1;
}

void rcuprof_sampler_free(struct rcuprof_sampler *s)
{
    unsigned i;

    if (s == NULL)
        return;
    if (s->t != NULL)
        for (i = 0; i < s->nthreads; i++)
            close_thread(&s->t[i]);
    free(s->t);
    free(s);
}

/* ---- reading the rings ---- */

/* Address table: each distinct address once, samples refer by index. */
struct addr_table {
    uint64_t *keys;             /* open addressing, 0 = empty */
    uint32_t *idx;
    size_t cap, n;
    json_t *list;
};

static int addr_index(struct addr_table *at, uint64_t a, uint32_t *out)
{
    size_t h, i;
    char hex[24];

    if (at->n * 2 >= at->cap) {
        size_t ncap = at->cap ? at->cap * 2 : 4096;
        uint64_t *nk = calloc(ncap, sizeof(*nk));
        uint32_t *ni = calloc(ncap, sizeof(*ni));

        if (nk == NULL || ni == NULL) {
            free(nk);
            free(ni);
            return -1;
        }
        for (i = 0; i < at->cap; i++) {
            if (at->keys[i] == 0)
                continue;
            h = (size_t)((at->keys[i] * 0x9E3779B97F4A7C15ULL) >> 20)
                & (ncap - 1);
            while (nk[h] != 0)
                h = (h + 1) & (ncap - 1);
            nk[h] = at->keys[i];
            ni[h] = at->idx[i];
        }
        free(at->keys);
        free(at->idx);
        at->keys = nk;
        at->idx = ni;
        at->cap = ncap;
    }
    if (a == 0)
        a = 1;                  /* keep 0 as the empty key */
    h = (size_t)((a * 0x9E3779B97F4A7C15ULL) >> 20) & (at->cap - 1);
    while (at->keys[h] != 0 && at->keys[h] != a)
        h = (h + 1) & (at->cap - 1);
    if (at->keys[h] == a) {
        *out = at->idx[h];
        return 0;
    }
    at->keys[h] = a;
    at->idx[h] = (uint32_t)at->n;
    snprintf(hex, sizeof(hex), "0x%" PRIx64, a);
    if (json_array_append_new(at->list, json_string(hex)) != 0)
        return -1;
    *out = (uint32_t)at->n++;
    return 0;
}

/* Copy LEN bytes at ring offset OFF (wrapping) into DST. */
static void ring_copy(const unsigned char *data, size_t size, uint64_t off,
                      void *dst, size_t len)
{
    size_t o = (size_t)(off & (size - 1)), first = size - o;

    if (first >= len) {
        memcpy(dst, data + o, len);
    } else {
        memcpy(dst, data + o, first);
        memcpy((unsigned char *)dst + first, data, len - first);
    }
}

struct thread_tally {
    uint64_t samples, switch_samples, lost, lost_records, throttles;
    uint64_t switch_outs, preempted, off_ns, off_preempted_ns, unparsed;
    uint64_t first_ns, last_ns;
};

static int parse_ring(struct rcuprof_sampler *s, unsigned ti,
                      struct addr_table *at, json_t *rows,
                      struct thread_tally *tl, uint64_t *head_out)
{
    struct sampler_thread *t = &s->t[ti];
    struct perf_event_mmap_page *meta = (void *)t->base;
    const unsigned char *data = t->base + s->page_size;
    size_t size = t->pages * s->page_size;
    uint64_t head, off, out_ns = 0;
    int out_preempt = 0;
    unsigned char *rec;
    json_t *pending = NULL;     /* the switch sample waiting for switch-in */

    memset(tl, 0, sizeof(*tl));
    if (meta->data_offset != 0 && meta->data_size != 0) {
        data = t->base + meta->data_offset;
        size = (size_t)meta->data_size;
    }
    head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    *head_out = head;
    rec = malloc(65536);
    if (rec == NULL)
        return -1;
    for (off = meta->data_tail; off + sizeof(struct perf_event_header)
             <= head;) {
        struct perf_event_header hdr;
        const uint64_t *u;
        uint64_t id, time, nr, k;
        uint32_t tid;

        ring_copy(data, size, off, &hdr, sizeof(hdr));
        if (hdr.size < sizeof(hdr) || off + hdr.size > head)
            break;
        ring_copy(data, size, off, rec, hdr.size);
        off += hdr.size;
        u = (const uint64_t *)(rec + sizeof(hdr));
        switch (hdr.type) {
        case PERF_RECORD_SAMPLE: {
            json_t *row, *chain;
            int is_sw;
            uint32_t ix;

            if (hdr.size < SAMPLE_FIXED_BYTES) {
                tl->unparsed++;
                break;
            }
            id = u[0];
            tid = (uint32_t)(u[2] >> 32);
            time = u[3];
            nr = u[4];
            if (SAMPLE_FIXED_BYTES + nr * 8 > hdr.size) {
                tl->unparsed++;
                break;
            }
            is_sw = t->fd_sw >= 0 && id == t->id_sw;
            chain = json_array();
            /* ip first, then the chain without the context markers. */
            if (addr_index(at, u[1], &ix) != 0)
                goto oom;
            json_array_append_new(chain, json_integer(ix));
            for (k = 0; k < nr; k++) {
                uint64_t ip = u[5 + k];

                if (ip >= (uint64_t)PERF_CONTEXT_MAX)
                    continue;
                if (k <= 1 && ip == u[1] && json_array_size(chain) == 1)
                    continue;   /* chain[0] repeats the ip */
                if (addr_index(at, ip, &ix) != 0)
                    goto oom;
                json_array_append_new(chain, json_integer(ix));
            }
            /* [thread, tid, time_ns, kind, off_ns, [addr idx...]] */
            row = json_pack("[i,i,I,i,I,o]", (int)ti, (int)tid,
                            (json_int_t)time, is_sw, (json_int_t)0, chain);
            if (row == NULL || json_array_append_new(rows, row) != 0)
                goto oom;
            if (is_sw) {
                tl->switch_samples++;
                pending = row;
            } else {
                tl->samples++;
            }
            if (tl->first_ns == 0)
                tl->first_ns = time;
            tl->last_ns = time;
            break;
        }
        case PERF_RECORD_SWITCH:
            if (hdr.size < SWITCH_RECORD_BYTES) {
                tl->unparsed++;
                break;
            }
            time = u[1];
            if (hdr.misc & PERF_RECORD_MISC_SWITCH_OUT) {
                tl->switch_outs++;
                out_preempt = (hdr.misc
                               & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
                if (out_preempt)
                    tl->preempted++;
                out_ns = time;
            } else if (out_ns != 0) {
                if (time > out_ns) {
                    tl->off_ns += time - out_ns;
                    if (out_preempt)
                        tl->off_preempted_ns += time - out_ns;
                    if (pending != NULL)
                        json_array_set_new(pending, 4,
                            json_integer((json_int_t)(time - out_ns)));
                }
                out_ns = 0;
                pending = NULL;
            }
            break;
        case PERF_RECORD_LOST:
            tl->lost_records++;
            tl->lost += u[1];
            break;
        case PERF_RECORD_THROTTLE:
            tl->throttles++;
            break;
        default:
            break;
        }
    }
    free(rec);
    return 0;
 oom:
    free(rec);
    return -1;
}

static json_t *hex_json(uint64_t v)
{
    char b[24];

    snprintf(b, sizeof(b), "0x%" PRIx64, v);
    return json_string(b);
}

json_t *rcuprof_sampler_to_json(struct rcuprof_sampler *s)
{
    struct addr_table at = { 0 };
    json_t *out, *threads, *rows, *ev;
    uint64_t tot_samples = 0, tot_lost = 0;
    size_t size;
    unsigned i;
    int any_full = 0;

    if (s == NULL)
        return NULL;
    size = s->data_pages * s->page_size;
    at.list = json_array();
    threads = json_array();
    rows = json_array();
    for (i = 0; i < s->nthreads; i++) {
        struct sampler_thread *t = &s->t[i];
        struct thread_tally tl;
        uint64_t head = 0, expected = 0, est_lost = 0;
        int full;
        json_t *tj;

        if (!t->opened)
            continue;
        size = t->pages * s->page_size;
        if (parse_ring(s, i, &at, rows, &tl, &head) != 0)
            goto oom;
        /*
         * Full: not even one more sample fits.  The kernel then drops
         * silently (its LOST record needs room too): estimate the loss
         * from the clock's own count, in ns of CPU time.
         */
        full = size - (size_t)(head > size ? size : head) < s->sample_bytes;
        if (t->read_ok && s->software_clock && s->period != 0) {
            expected = t->read_buf[0] / s->period;
            if (full && expected > tl.samples)
                est_lost = expected - tl.samples;
        }
        any_full |= full;
        tot_samples += tl.samples;
        tot_lost += tl.lost + est_lost;
        tj = json_pack("{s:i, s:i, s:s, s:I, s:I, s:I, s:b, s:I, s:I, "
                       "s:I, s:I, s:I, s:I, s:I, s:I, s:b}",
                       "id", (int)i, "tid", (int)t->tid, "role", t->role,
                       "samples", (json_int_t)tl.samples,
                       "switch_samples", (json_int_t)tl.switch_samples,
                       "lost", (json_int_t)(tl.lost + est_lost),
                       "ring_full", full,
                       "lost_records", (json_int_t)tl.lost_records,
                       "throttles", (json_int_t)tl.throttles,
                       "off_cpu_ns", (json_int_t)tl.off_ns,
                       "switch_outs", (json_int_t)tl.switch_outs,
                       "preempted", (json_int_t)tl.preempted,
                       "window_start_ns", (json_int_t)t->start_ns,
                       "window_end_ns", (json_int_t)t->stop_ns,
                       "ring_bytes_used", (json_int_t)head,
                       "io_error", t->io_error);
        if (tj == NULL)
            goto oom;
        /* Preempted: runnable but descheduled; blocked: waited (slept,
         * futex, I/O), including the wait for a CPU after the wake-up. */
        json_object_set_new(tj, "off_cpu_preempted_ns",
                            json_integer((json_int_t)tl.off_preempted_ns));
        json_object_set_new(tj, "off_cpu_blocked_ns", json_integer(
            (json_int_t)(tl.off_ns - tl.off_preempted_ns)));
        /* From the clock's count (an upper bound when user-only). */
        json_object_set_new(tj, "lost_estimated", json_boolean(est_lost > 0));
        json_object_set_new(tj, "data_pages",
                            json_integer((json_int_t)t->pages));
        json_object_set_new(tj, "event_count", t->read_ok
            ? json_integer((json_int_t)t->read_buf[0]) : json_null());
        json_object_set_new(tj, "running_ns", t->read_ok
            ? json_integer((json_int_t)t->read_buf[2]) : json_null());
        json_object_set_new(tj, "expected_samples", expected != 0
            ? json_integer((json_int_t)expected) : json_null());
        json_array_append_new(threads, tj);
    }
    ev = json_pack("{s:s, s:i, s:I, s:b, s:i, s:b}",
                   "name", s->event_name, "type", (int)s->attr.type,
                   "config", (json_int_t)s->attr.config,
                   "freq_mode", (int)s->attr.freq,
                   "precise_ip", (int)s->attr.precise_ip,
                   "user_only", s->exclude_kernel);
    json_object_set_new(ev, "freq_hz", json_integer((json_int_t)s->freq));
    json_object_set_new(ev, "period", s->period != 0
        ? json_integer((json_int_t)s->period) : json_null());
    json_object_set_new(ev, "fallback", s->fallback[0] != '\0'
        ? json_string(s->fallback) : json_null());
    out = json_pack("{s:s, s:o, s:i, s:b, s:o, s:o}",
                    "schema", "rcuprof-samples/1", "event", ev,
                    "max_depth", (int)s->max_depth,
                    "switch_samples", s->switch_samples,
                    "switch_samples_reason", s->switch_samples
                        ? json_null() : json_string(s->switch_reason),
                    "clock", json_string("CLOCK_MONOTONIC"));
    json_object_set_new(out, "ring", json_pack(
        "{s:I, s:I, s:I, s:I, s:b, s:b}",
        "data_pages", (json_int_t)s->data_pages,
        "bytes_per_thread", (json_int_t)(s->data_pages * s->page_size),
        "wanted_pages", (json_int_t)s->need_pages,
        "sample_bytes_max", (json_int_t)s->sample_bytes,
        "capped", s->capped || s->shrunk, "full", any_full));
    json_object_set_new(json_object_get(out, "ring"), "shrunk_by_mlock",
                        json_boolean(s->shrunk));
    json_object_set_new(out, "totals", json_pack(
        "{s:I, s:I}", "samples", (json_int_t)tot_samples,
        "lost", (json_int_t)tot_lost));
    json_object_set_new(out, "threads", threads);
    json_object_set_new(out, "mappings", rcuprof_sampler_maps_json());
    json_object_set_new(out, "addresses", at.list);
    json_object_set_new(out, "row_format", json_pack(
        "[s,s,s,s,s,s]", "thread", "tid", "time_ns", "kind", "off_cpu_ns",
        "stack"));
    json_object_set_new(out, "rows", rows);
    free(at.keys);
    free(at.idx);
    return out;
 oom:
    free(at.keys);
    free(at.idx);
    json_decref(at.list);
    json_decref(threads);
    json_decref(rows);
    return NULL;
}

/* ---- the memory map and build IDs ---- */

static void to_hex(const unsigned char *b, size_t len, char *hex, size_t n)
{
    size_t i;

    if (n == 0)
        return;
    hex[0] = '\0';
    for (i = 0; i < len && 2 * i + 2 < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
}

/* Scan a block of ELF notes for NT_GNU_BUILD_ID. */
static int note_build_id(const unsigned char *p, size_t len, char *hex,
                         size_t n)
{
    size_t off = 0;

    while (off + 12 <= len) {
        uint32_t namesz, descsz, type;
        size_t name_off, desc_off;

        memcpy(&namesz, p + off, 4);
        memcpy(&descsz, p + off + 4, 4);
        memcpy(&type, p + off + 8, 4);
        name_off = off + 12;
        desc_off = name_off + ((namesz + 3) & ~3U);
        if (desc_off + descsz > len)
            return -1;
        if (type == NT_GNU_BUILD_ID && namesz == 4
            && memcmp(p + name_off, "GNU", 4) == 0 && descsz > 0
            && descsz <= BUILD_ID_MAX) {
            to_hex(p + desc_off, descsz, hex, n);
            return 0;
        }
        off = desc_off + ((descsz + 3) & ~3U);
    }
    return -1;
}

int rcuprof_sampler_file_build_id(const char *path, char *hex, size_t n)
{
    Elf *e;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    Elf_Data *d;
    int fd, rc = -1;

    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    e = elf_begin(fd, ELF_C_READ, NULL);
    while (e != NULL && rc != 0 && (scn = elf_nextscn(e, scn)) != NULL) {
        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
            continue;
        d = elf_getdata(scn, NULL);
        if (d != NULL && d->d_buf != NULL)
            rc = note_build_id(d->d_buf, d->d_size, hex, n);
    }
    if (e != NULL)
        elf_end(e);
    close(fd);
    return rc;
}

/* What dl_iterate_phdr knows of each loaded object. */
struct dl_obj {
    uint64_t bias;
    uint64_t lo, hi;            /* span of its PT_LOAD segments */
    char build_id[2 * BUILD_ID_MAX + 1];
};

struct dl_list {
    struct dl_obj *o;
    size_t n, cap;
};

static int dl_cb(struct dl_phdr_info *info, size_t sz, void *arg)
{
    struct dl_list *l = arg;
    struct dl_obj *o;
    int i;

    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 32;
        struct dl_obj *no = realloc(l->o, ncap * sizeof(*no));

        if (no == NULL)
            return 1;
        l->o = no;
        l->cap = ncap;
    }
    o = &l->o[l->n];
    memset(o, 0, sizeof(*o));
    o->bias = info->dlpi_addr;
    o->lo = UINT64_MAX;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

        if (ph->p_type == PT_LOAD) {
            if (info->dlpi_addr + ph->p_vaddr < o->lo)
                o->lo = info->dlpi_addr + ph->p_vaddr;
            if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > o->hi)
                o->hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        } else if (ph->p_type == PT_NOTE && o->build_id[0] == '\0') {
            note_build_id((const unsigned char *)(info->dlpi_addr
                                                  + ph->p_vaddr),
                          ph->p_memsz, o->build_id, sizeof(o->build_id));
        }
    }
    if (o->lo < o->hi)
        l->n++;
    return 0;
}

json_t *rcuprof_sampler_maps_json(void)
{
    struct dl_list dl = { 0 };
    json_t *arr = json_array();
    char line[4096 + 256];
    FILE *fp;
    size_t i;

    dl_iterate_phdr(dl_cb, &dl);
    fp = fopen("/proc/self/maps", "re");
    if (fp == NULL) {
        free(dl.o);
        return arr;
    }
    while (fgets(line, sizeof(line), fp) != NULL) {
        unsigned long long start, end, offset;
        char perms[8], path[4096];
        const struct dl_obj *o = NULL;
        char bid[2 * BUILD_ID_MAX + 1] = "";
        json_t *m;
        int k = 0;

        path[0] = '\0';
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
                   perms, &offset, &k) < 4 || strchr(perms, 'x') == NULL)
            continue;
        if (k > 0)
            sscanf(line + k, "%4095[^\n]", path);
        for (i = 0; i < dl.n; i++)
            if (start >= dl.o[i].lo && start < dl.o[i].hi) {
                o = &dl.o[i];
                break;
            }
        if (o != NULL && o->build_id[0] != '\0')
            snprintf(bid, sizeof(bid), "%s", o->build_id);
        else if (path[0] == '/')
            rcuprof_sampler_file_build_id(path, bid, sizeof(bid));
        m = json_pack("{s:o, s:o, s:o, s:s}", "start", hex_json(start),
                      "end", hex_json(end), "offset", hex_json(offset),
                      "path", path);
        json_object_set_new(m, "build_id",
                            bid[0] != '\0' ? json_string(bid) : json_null());
        json_object_set_new(m, "bias", o != NULL ? hex_json(o->bias)
                                                 : json_null());
        json_array_append_new(arr, m);
    }
    fclose(fp);
    free(dl.o);
    return arr;
}
