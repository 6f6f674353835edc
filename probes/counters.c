/*
 * rcuprof counters: per-thread perf_event groups named through libpfm4.
 *
 * Design (probes/README.md has the long form):
 *
 * - Names are encoded by libpfm4 into a struct perf_event_attr; the full
 *   string libpfm4 resolved (fstr) is kept for the record.
 * - Whether an event counts here is decided by opening it once, never by
 *   libpfm4's is_present flag: on a KVM guest without a virtual PMU libpfm4
 *   can still claim the host's PMU while perf_event_open fails with ENOENT.
 * - Where the kernel refuses kernel-mode counting (unprivileged, paranoid
 *   >= 2) the event is retried with exclude_kernel; software events that
 *   only the kernel raises would then read 0, so they are reported as
 *   unavailable instead.
 * - Available events are opened per worker thread (pid 0, cpu -1) as
 *   groups, disabled; start() resets and enables, stop() disables and reads
 *   each group once.  Values of groups that ran only part of the time
 *   (multiplexing) are scaled by enabled / running and marked as scaled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "rcuprof_util.h"
#include "rcuprof_counters.h"
#include "counters_internal.h"

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED \
                     | PERF_FORMAT_TOTAL_TIME_RUNNING \
                     | PERF_FORMAT_GROUP | PERF_FORMAT_ID)
/* Raw read words per thread: nr, enabled, running per group + value, id. */
#define RAW_WORDS (3 * RCUPROF_COUNTERS_MAX_GROUPS \
                   + 2 * RCUPROF_COUNTERS_MAX_EVENTS)
#define REASON_MAX 320

struct event {
    char name[RCUPROF_COUNTERS_NAME_MAX];
    const char *preset;             /* preset it came from, or NULL */
    int verified;                   /* preset rows; -1 for user names */
    const char *note;
    struct perf_event_attr attr;
    char fstr[RCUPROF_COUNTERS_FSTR_MAX];
    char pmu[64];
    int software;
    int user_only;                  /* exclude_kernel forced by the kernel */
    int available;
    char reason[REASON_MAX];
    int group, pos;                 /* pos: index inside the group */
};

struct group {
    int software;
    uint32_t type;                  /* perf PMU type of the hw group */
    unsigned nev;
    unsigned ev[RCUPROF_COUNTERS_MAX_EVENTS];
    unsigned off;                   /* first raw word of this group */
};

struct thread_state {
    _Alignas(64) int fd[RCUPROF_COUNTERS_MAX_EVENTS];
    uint64_t id[RCUPROF_COUNTERS_MAX_EVENTS];
    uint64_t raw[RAW_WORDS];
    int opened;
    int started;
    int read_done;                  /* stop() read every group */
    int read_errno;                 /* first read/ioctl failure */
};

struct rcuprof_counters {
    unsigned flags;
    unsigned nthreads;
    unsigned nev, ngroups;
    struct event ev[RCUPROF_COUNTERS_MAX_EVENTS];
    struct group grp[RCUPROF_COUNTERS_MAX_GROUPS];
    /* Machine facts found by new(). */
    char core_pmu[64];
    int hw_ok;                      /* a cycles event opened */
    int hw_errno;
    char hw_reason[REASON_MAX];
    int hypervisor;
    int paranoid;
    int user_only;                  /* some event had exclude_kernel forced */
    /* Presets that resolved to nothing for this PMU. */
    char empty_presets[256];
    struct thread_state *thr;
};

const char *rcuprof_counters_strerror(int err)
{
    switch (err) {
    case RCUPROF_COUNTERS_OK:
        return "success";
    case RCUPROF_COUNTERS_EUNKNOWN:
        return "unknown event or preset (`rcuprof events` lists them)";
    case RCUPROF_COUNTERS_EENCODE:
        return "event cannot be encoded";
    case RCUPROF_COUNTERS_ETOOMANY:
        return "too many events";
    case RCUPROF_COUNTERS_EOPEN:
        return "cannot open a counter";
    case RCUPROF_COUNTERS_ENOHW:
        return "hardware counters required but not available";
    case RCUPROF_COUNTERS_EPFM:
        return "libpfm4 failed to initialise";
    case RCUPROF_COUNTERS_ENOMEM:
        return "out of memory";
    case RCUPROF_COUNTERS_EINVAL:
        return "invalid argument";
    case RCUPROF_COUNTERS_ENOFILE:
        return "not enough file descriptors (RLIMIT_NOFILE)";
    case RCUPROF_COUNTERS_EIO:
        return "cannot read a counter";
    }
    return "unknown error";
}

static int seterr(char *errbuf, size_t n, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int seterr(char *errbuf, size_t n, int code, const char *fmt, ...)
{
    va_list ap;

    if (errbuf != NULL && n > 0) {
        va_start(ap, fmt);
        vsnprintf(errbuf, n, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int perf_open(struct perf_event_attr *attr, int group_fd)
{
    return (int)syscall(SYS_perf_event_open, attr, 0, -1, group_fd,
                        PERF_FLAG_FD_CLOEXEC);
}

static const char *errno_name(int e)
{
    const char *s = strerrorname_np(e);

    return s != NULL ? s : "errno";
}

static int read_paranoid(void)
{
    FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 2;

    if (fp == NULL)
        return v;
    if (fscanf(fp, "%d", &v) != 1)
        v = 2;
    fclose(fp);
    return v;
}

static int running_under_hypervisor(void)
{
    FILE *fp = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int found = 0;

    if (fp == NULL)
        return 0;
    while (!found && fgets(line, sizeof(line), fp) != NULL)
        if (strncmp(line, "flags", 5) == 0)
            found = strstr(line, " hypervisor") != NULL ? 1 : 2;
    fclose(fp);
    return found == 1;
}

static int pfm_ready(char *errbuf, size_t n)
{
    int ret = pfm_initialize();

    if (ret != PFM_SUCCESS)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EPFM,
                      "libpfm4 failed to initialise: %s", pfm_strerror(ret));
    return 0;
}

const char *rcuprof_counters_core_pmu(void)
{
    static char name[64];
    pfm_pmu_info_t pi;
    int p, best = -1;

    if (pfm_initialize() != PFM_SUCCESS)
        return "perf";
    name[0] = '\0';
    pfm_for_all_pmus(p) {
        memset(&pi, 0, sizeof(pi));
        pi.size = sizeof(pi);
        if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present
            || pi.type != PFM_PMU_TYPE_CORE)
            continue;
        /* The architectural fallback only if nothing more specific. */
        if (best < 2 && pi.is_dfl) {
            best = 2;
            snprintf(name, sizeof(name), "%s", pi.name);
        } else if (best < 1 && strcmp(pi.name, "ix86arch") != 0) {
            best = 1;
            snprintf(name, sizeof(name), "%s", pi.name);
        } else if (best < 0) {
            best = 0;
            snprintf(name, sizeof(name), "%s", pi.name);
        }
    }
    return best >= 0 ? name : "perf";
}

/* ---- presets ---------------------------------------------------------- */

int rcuprof_counters_is_preset(const char *name)
{
    size_t i;

    for (i = 0; i < rcuprof_counters_npreset_names; i++)
        if (strcmp(name, rcuprof_counters_preset_names[i]) == 0)
            return 1;
    return 0;
}

static int pmu_in_list(const char *list, const char *pmu)
{
    size_t len = strlen(pmu);
    const char *p = list;

    while ((p = strstr(p, pmu)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return 1;
        p += len;
    }
    return 0;
}

int rcuprof_counters_preset_resolve(const char *preset, const char *pmu_name,
                                    const char **names, int *verified,
                                    size_t max)
{
    const struct rcuprof_counters_preset_row *r;
    size_t i, cnt = 0;
    int specific = 0, pass;

    if (!rcuprof_counters_is_preset(preset))
        return RCUPROF_COUNTERS_EUNKNOWN;
    if (pmu_name == NULL)
        pmu_name = "perf";
    for (i = 0; i < rcuprof_counters_npreset_rows; i++) {
        r = &rcuprof_counters_preset_rows[i];
        if (strcmp(r->preset, preset) == 0 && strcmp(r->pmus, "*") != 0
            && strcmp(r->pmus, "perf") != 0 && pmu_in_list(r->pmus, pmu_name))
            specific = 1;
    }
    /* Pass 0: rows for every PMU; pass 1: this PMU's rows or the fallback. */
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < rcuprof_counters_npreset_rows; i++) {
            int take;

            r = &rcuprof_counters_preset_rows[i];
            if (strcmp(r->preset, preset) != 0)
                continue;
            if (pass == 0)
                take = strcmp(r->pmus, "*") == 0;
            else if (specific)
                take = strcmp(r->pmus, "*") != 0
                       && pmu_in_list(r->pmus, pmu_name);
            else
                take = strcmp(r->pmus, "perf") == 0;
            if (!take)
                continue;
            if (cnt >= max)
                return RCUPROF_COUNTERS_ETOOMANY;
            names[cnt] = r->event;
            if (verified != NULL)
                verified[cnt] = r->verified;
            cnt++;
        }
    }
    return (int)cnt;
}

static const struct rcuprof_counters_preset_row *preset_row(const char *p,
                                                            const char *ev)
{
    size_t i;

    for (i = 0; i < rcuprof_counters_npreset_rows; i++)
        if (strcmp(rcuprof_counters_preset_rows[i].preset, p) == 0
            && strcmp(rcuprof_counters_preset_rows[i].event, ev) == 0)
            return &rcuprof_counters_preset_rows[i];
    return NULL;
}

/* ---- encoding --------------------------------------------------------- */

static int encode(const char *name, struct perf_event_attr *attr,
                  char *fstr, size_t fstr_len, char *pmu, size_t pmu_len,
                  char *errbuf, size_t n)
{
    pfm_perf_encode_arg_t arg;
    pfm_event_info_t ei;
    pfm_pmu_info_t pi;
    char *f = NULL;
    int ret;

    memset(attr, 0, sizeof(*attr));
    memset(&arg, 0, sizeof(arg));
    arg.attr = attr;
    arg.fstr = &f;
    arg.size = sizeof(arg);
    ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
                                    PFM_OS_PERF_EVENT_EXT, &arg);
    if (ret == PFM_ERR_NOTFOUND)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EUNKNOWN,
                      "unknown event '%s' (libpfm4 PMU here: %s): "
                      "`rcuprof events` lists the events and presets",
                      name, rcuprof_counters_core_pmu());
    if (ret != PFM_SUCCESS) {
        free(f);
        return seterr(errbuf, n, RCUPROF_COUNTERS_EENCODE,
                      "cannot encode event '%s': %s: check its unit masks "
                      "and modifiers with `rcuprof events`",
                      name, pfm_strerror(ret));
    }
    attr->size = sizeof(*attr);
    snprintf(fstr, fstr_len, "%s", f != NULL ? f : name);
    free(f);

    snprintf(pmu, pmu_len, "?");
    memset(&ei, 0, sizeof(ei));
    ei.size = sizeof(ei);
    if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &ei)
        == PFM_SUCCESS) {
        memset(&pi, 0, sizeof(pi));
        pi.size = sizeof(pi);
        if (pfm_get_pmu_info(ei.pmu, &pi) == PFM_SUCCESS)
            snprintf(pmu, pmu_len, "%s", pi.name);
    }
    return 0;
}

int rcuprof_counters_encode(const char *name,
                            struct rcuprof_counters_encoding *out,
                            char *errbuf, size_t n)
{
    struct perf_event_attr attr;
    int ret;

    if (name == NULL || out == NULL || *name == '\0')
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                      "no event name given");
    if ((ret = pfm_ready(errbuf, n)) != 0)
        return ret;
    memset(out, 0, sizeof(*out));
    ret = encode(name, &attr, out->fstr, sizeof(out->fstr), out->pmu,
                 sizeof(out->pmu), errbuf, n);
    if (ret != 0)
        return ret;
    snprintf(out->name, sizeof(out->name), "%s", name);
    out->type = attr.type;
    out->config = attr.config;
    out->config1 = attr.config1;
    out->config2 = attr.config2;
    out->exclude_user = attr.exclude_user;
    out->exclude_kernel = attr.exclude_kernel;
    out->exclude_hv = attr.exclude_hv;
    out->software = attr.type == PERF_TYPE_SOFTWARE;
    return 0;
}

static json_t *hex64(uint64_t v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
    return json_string(buf);
}

json_t *rcuprof_counters_encoding_json(
    const struct rcuprof_counters_encoding *e)
{
    return json_pack("{s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:b, s:b, s:b,"
                     " s:b}",
                     "name", e->name, "fstr", e->fstr, "pmu", e->pmu,
                     "type", (json_int_t)e->type,
                     "config", hex64(e->config),
                     "config1", hex64(e->config1),
                     "config2", hex64(e->config2),
                     "exclude_user", e->exclude_user,
                     "exclude_kernel", e->exclude_kernel,
                     "exclude_hv", e->exclude_hv,
                     "software", e->software);
}

/* ---- try-open --------------------------------------------------------- */

static int kernel_only_sw(const struct perf_event_attr *a)
{
    size_t i;

    if (a->type != PERF_TYPE_SOFTWARE)
        return 0;
    for (i = 0; i < rcuprof_counters_nkernel_only_sw; i++)
        if (a->config == rcuprof_counters_kernel_only_sw[i])
            return 1;
    return 0;
}

/*
 * Open ATTR on this thread once.  On EACCES/EPERM with kernel counting,
 * retry user-only (the kernel's rule for unprivileged users) and say so in
 * *user_only.  Returns 0 or the errno of the (last) failure.
 */
static int try_open(struct perf_event_attr *attr, int *user_only)
{
    struct perf_event_attr a = *attr;
    int fd, e;

    *user_only = 0;
    a.disabled = 1;
    a.read_format = READ_FORMAT;
    fd = perf_open(&a, -1);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    e = errno;
    if ((e == EACCES || e == EPERM) && !a.exclude_kernel) {
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd = perf_open(&a, -1);
        if (fd >= 0) {
            close(fd);
            attr->exclude_kernel = 1;
            attr->exclude_hv = 1;
            *user_only = 1;
            return 0;
        }
        e = errno;
    }
    return e;
}

static void open_reason(const struct rcuprof_counters *c, int software,
                        int e, char *buf, size_t n)
{
    switch (e) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
        if (!software && !c->hw_ok)
            snprintf(buf, n, "no hardware PMU %s(%s)",
                     c->hypervisor ? "in this VM " : "available ",
                     errno_name(e));
        else
            snprintf(buf, n, "the kernel does not support this event on "
                     "this PMU (%s)", errno_name(e));
        break;
    case EACCES:
    case EPERM:
        snprintf(buf, n, "permission denied (perf_event_paranoid=%d): run "
                 "as root, grant CAP_PERFMON or lower "
                 "kernel.perf_event_paranoid (%s)", c->paranoid,
                 errno_name(e));
        break;
    case EMFILE:
    case ENFILE:
        snprintf(buf, n, "too many open files: raise RLIMIT_NOFILE "
                 "(ulimit -n) (%s)", errno_name(e));
        break;
    case EINVAL:
        snprintf(buf, n, "the kernel rejects this encoding (%s)",
                 errno_name(e));
        break;
    default:
        snprintf(buf, n, "%s (%s)", strerror(e), errno_name(e));
        break;
    }
}

static void detect_hw(struct rcuprof_counters *c)
{
    struct perf_event_attr a;
    int user_only;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.exclude_hv = 1;
    c->hw_errno = try_open(&a, &user_only);
    c->hw_ok = c->hw_errno == 0;
    if (c->hw_ok)
        snprintf(c->hw_reason, sizeof(c->hw_reason),
                 "cycles opened%s", user_only ? " (user space only)" : "");
    else
        open_reason(c, 0, c->hw_errno, c->hw_reason, sizeof(c->hw_reason));
}

static void probe_event(struct rcuprof_counters *c, struct event *ev)
{
    int e;

    e = try_open(&ev->attr, &ev->user_only);
    if (e != 0) {
        ev->available = 0;
        open_reason(c, ev->software, e, ev->reason, sizeof(ev->reason));
        return;
    }
    if (ev->user_only)
        c->user_only = 1;
    if (ev->user_only && kernel_only_sw(&ev->attr)) {
        ev->available = 0;
        snprintf(ev->reason, sizeof(ev->reason),
                 "the kernel forces exclude_kernel for this user "
                 "(perf_event_paranoid=%d) and this event then always "
                 "reads 0: run as root, grant CAP_PERFMON or set "
                 "kernel.perf_event_paranoid <= 1", c->paranoid);
        return;
    }
    ev->available = 1;
}

/* ---- parsing and set-up ----------------------------------------------- */

static int have_event(const struct rcuprof_counters *c, const char *name)
{
    unsigned i;

    for (i = 0; i < c->nev; i++)
        if (strcmp(c->ev[i].name, name) == 0)
            return 1;
    return 0;
}

static int add_event(struct rcuprof_counters *c, const char *name,
                     const char *preset, char *errbuf, size_t n)
{
    const struct rcuprof_counters_preset_row *row;
    struct event *ev;
    int ret;

    if (have_event(c, name))
        return 0;
    if (strlen(name) >= RCUPROF_COUNTERS_NAME_MAX)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                      "event name '%.40s...' is too long", name);
    if (c->nev >= RCUPROF_COUNTERS_MAX_EVENTS)
        return seterr(errbuf, n, RCUPROF_COUNTERS_ETOOMANY,
                      "too many events: at most %d (after expanding "
                      "presets); '%s' is one too many",
                      RCUPROF_COUNTERS_MAX_EVENTS, name);
    ev = &c->ev[c->nev];
    memset(ev, 0, sizeof(*ev));
    snprintf(ev->name, sizeof(ev->name), "%s", name);
    ev->preset = preset;
    ev->verified = -1;
    if (preset != NULL && (row = preset_row(preset, name)) != NULL) {
        ev->verified = row->verified;
        ev->note = row->note;
    }
    ev->group = -1;
    ret = encode(name, &ev->attr, ev->fstr, sizeof(ev->fstr), ev->pmu,
                 sizeof(ev->pmu), errbuf, n);
    if (ret != 0)
        return ret;
    ev->software = ev->attr.type == PERF_TYPE_SOFTWARE;
    c->nev++;
    return 0;
}

static int add_preset(struct rcuprof_counters *c, const char *preset,
                      char *errbuf, size_t n)
{
    const char *names[RCUPROF_COUNTERS_MAX_EVENTS];
    const char *canon = NULL;
    size_t i;
    int cnt, ret;

    for (i = 0; i < rcuprof_counters_npreset_names; i++)
        if (strcmp(preset, rcuprof_counters_preset_names[i]) == 0)
            canon = rcuprof_counters_preset_names[i];
    cnt = rcuprof_counters_preset_resolve(preset, c->core_pmu, names, NULL,
                                          RCUPROF_COUNTERS_MAX_EVENTS);
    if (cnt < 0)
        return seterr(errbuf, n, cnt, "preset '%s' cannot be resolved: %s",
                      preset, rcuprof_counters_strerror(cnt));
    if (cnt == 0) {
        size_t len = strlen(c->empty_presets);

        snprintf(c->empty_presets + len, sizeof(c->empty_presets) - len,
                 "%s%s", len > 0 ? "," : "", preset);
        return 0;
    }
    for (i = 0; i < (size_t)cnt; i++)
        if ((ret = add_event(c, names[i], canon, errbuf, n)) != 0)
            return ret;
    return 0;
}

static int parse_list(struct rcuprof_counters *c, const char *list,
                      char *errbuf, size_t n)
{
    char item[RCUPROF_COUNTERS_NAME_MAX + 1], msg[512];
    const char *p = list, *end;
    size_t len;
    int ret, any = 0;

    /* "cycles,,task-clock": refused like every malformed list. */
    if (rcuprof_list_check("events", list, msg, sizeof(msg)) != 0)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL, "%s", msg);
    while (*p != '\0') {
        end = strchr(p, ',');
        len = end != NULL ? (size_t)(end - p) : strlen(p);
        while (len > 0 && (*p == ' ' || *p == '\t')) {
            p++;
            len--;
        }
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len >= sizeof(item))
            return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                          "event name '%.40s...' is too long", p);
        memcpy(item, p, len);
        item[len] = '\0';
        if (rcuprof_counters_is_preset(item))
            ret = add_preset(c, item, errbuf, n);
        else
            ret = add_event(c, item, NULL, errbuf, n);
        if (ret != 0)
            return ret;
        any = 1;
        if (end == NULL)
            break;
        p = end + 1;
    }
    if (!any)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                      "empty event list: name events or a preset "
                      "(default, cache, coherence); `rcuprof events` "
                      "lists them");
    return 0;
}

static int same_hw_pmu(uint32_t a, uint32_t b)
{
    /* Generic hw, hw-cache and raw events all go to the core PMU. */
    int ca = a == PERF_TYPE_HARDWARE || a == PERF_TYPE_HW_CACHE
             || a == PERF_TYPE_RAW;
    int cb = b == PERF_TYPE_HARDWARE || b == PERF_TYPE_HW_CACHE
             || b == PERF_TYPE_RAW;

    return (ca && cb) || a == b;
}

static int build_groups(struct rcuprof_counters *c, char *errbuf, size_t n)
{
    unsigned i, g, off = 0;
    struct group *gr;

    for (i = 0; i < c->nev; i++) {
        struct event *ev = &c->ev[i];

        if (!ev->available)
            continue;
        for (g = 0; g < c->ngroups; g++) {
            gr = &c->grp[g];
            if (ev->software && gr->software)
                break;
            if (!ev->software && !gr->software
                && same_hw_pmu(gr->type, ev->attr.type)
                && gr->nev < RCUPROF_COUNTERS_HW_GROUP_MAX)
                break;
        }
        if (g == c->ngroups) {
            if (c->ngroups >= RCUPROF_COUNTERS_MAX_GROUPS)
                return seterr(errbuf, n, RCUPROF_COUNTERS_ETOOMANY,
                              "too many counter groups (at most %d): name "
                              "fewer hardware events",
                              RCUPROF_COUNTERS_MAX_GROUPS);
            gr = &c->grp[c->ngroups++];
            memset(gr, 0, sizeof(*gr));
            gr->software = ev->software;
            gr->type = ev->attr.type;
        }
        gr = &c->grp[g];
        ev->group = (int)g;
        ev->pos = (int)gr->nev;
        gr->ev[gr->nev++] = i;
    }
    for (g = 0; g < c->ngroups; g++) {
        c->grp[g].off = off;
        off += 3 + 2 * c->grp[g].nev;
    }
    return 0;
}

int rcuprof_counters_new(struct rcuprof_counters **out, const char *list,
                         unsigned flags, unsigned nthreads,
                         char *errbuf, size_t n)
{
    struct rcuprof_counters *c;
    unsigned i, t;
    int ret;

    *out = NULL;
    if (list == NULL || nthreads == 0)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                      "counters need an event list and at least 1 thread");
    if ((ret = pfm_ready(errbuf, n)) != 0)
        return ret;
    c = calloc(1, sizeof(*c));
    if (c == NULL)
        return seterr(errbuf, n, RCUPROF_COUNTERS_ENOMEM, "out of memory");
    c->flags = flags;
    c->nthreads = nthreads;
    c->paranoid = read_paranoid();
    c->hypervisor = running_under_hypervisor();
    snprintf(c->core_pmu, sizeof(c->core_pmu), "%s",
             rcuprof_counters_core_pmu());
    detect_hw(c);

    if ((ret = parse_list(c, list, errbuf, n)) != 0)
        goto err;
    for (i = 0; i < c->nev; i++)
        probe_event(c, &c->ev[i]);

    if (flags & RCUPROF_COUNTERS_REQUIRE_HW) {
        if (!c->hw_ok) {
            ret = seterr(errbuf, n, RCUPROF_COUNTERS_ENOHW,
                         "hardware counters required (--require-hw) but "
                         "none count here: %s", c->hw_reason);
            goto err;
        }
        for (i = 0; i < c->nev; i++)
            if (!c->ev[i].software && !c->ev[i].available) {
                ret = seterr(errbuf, n, RCUPROF_COUNTERS_ENOHW,
                             "hardware event '%s' required (--require-hw) "
                             "but unavailable: %s", c->ev[i].name,
                             c->ev[i].reason);
                goto err;
            }
    }
    if ((ret = build_groups(c, errbuf, n)) != 0)
        goto err;

    c->thr = aligned_alloc(64, sizeof(*c->thr) * nthreads);
    if (c->thr == NULL) {
        ret = seterr(errbuf, n, RCUPROF_COUNTERS_ENOMEM,
                     "out of memory for %u threads' counters", nthreads);
        goto err;
    }
    memset(c->thr, 0, sizeof(*c->thr) * nthreads);
    for (t = 0; t < nthreads; t++)
        for (i = 0; i < RCUPROF_COUNTERS_MAX_EVENTS; i++)
            c->thr[t].fd[i] = -1;
    *out = c;
    return 0;

 err:
    free(c);
    return ret;
}

void rcuprof_counters_close(struct rcuprof_counters *c, unsigned thread)
{
    struct thread_state *ts;
    unsigned i;

    if (c == NULL || c->thr == NULL || thread >= c->nthreads)
        return;
    ts = &c->thr[thread];
    /* Members first, then leaders (closing a leader detaches members). */
    for (i = 0; i < c->nev; i++)
        if (ts->fd[i] >= 0 && c->ev[i].pos != 0) {
            close(ts->fd[i]);
            ts->fd[i] = -1;
        }
    for (i = 0; i < c->nev; i++)
        if (ts->fd[i] >= 0) {
            close(ts->fd[i]);
            ts->fd[i] = -1;
        }
    ts->opened = 0;
}

void rcuprof_counters_free(struct rcuprof_counters *c)
{
    unsigned t;

    if (c == NULL)
        return;
    if (c->thr != NULL)
        for (t = 0; t < c->nthreads; t++)
            rcuprof_counters_close(c, t);
    free(c->thr);
    free(c);
}

unsigned rcuprof_counters_nevents(const struct rcuprof_counters *c)
{
    return c->nev;
}

unsigned rcuprof_counters_nopen(const struct rcuprof_counters *c)
{
    unsigned i, k = 0;

    for (i = 0; i < c->nev; i++)
        k += c->ev[i].available;
    return k;
}

unsigned rcuprof_counters_ngroups(const struct rcuprof_counters *c)
{
    return c->ngroups;
}

const char *rcuprof_counters_event_name(const struct rcuprof_counters *c,
                                        unsigned idx)
{
    return idx < c->nev ? c->ev[idx].name : NULL;
}

/* ---- per thread ------------------------------------------------------- */

int rcuprof_counters_open(struct rcuprof_counters *c, unsigned thread,
                          char *errbuf, size_t n)
{
    struct thread_state *ts;
    struct perf_event_attr a;
    unsigned g, k;
    int fd, leader, e;

    if (c == NULL || thread >= c->nthreads)
        return seterr(errbuf, n, RCUPROF_COUNTERS_EINVAL,
                      "counters: thread %u out of range", thread);
    ts = &c->thr[thread];
    if (ts->opened)
        return 0;
    ts->started = ts->read_done = ts->read_errno = 0;
    for (g = 0; g < c->ngroups; g++) {
        leader = -1;
        for (k = 0; k < c->grp[g].nev; k++) {
            struct event *ev = &c->ev[c->grp[g].ev[k]];

            a = ev->attr;
            a.read_format = READ_FORMAT;
            a.disabled = k == 0;        /* members follow their leader */
            a.inherit = 0;
            fd = perf_open(&a, leader);
            if (fd < 0) {
                char why[REASON_MAX];

                e = errno;
                open_reason(c, ev->software, e, why, sizeof(why));
                rcuprof_counters_close(c, thread);
                return seterr(errbuf, n, RCUPROF_COUNTERS_EOPEN,
                              "cannot open counter '%s' on thread %u: %s",
                              ev->name, thread, why);
            }
            ts->fd[c->grp[g].ev[k]] = fd;
            if (ioctl(fd, PERF_EVENT_IOC_ID, &ts->id[c->grp[g].ev[k]]) != 0) {
                e = errno;
                rcuprof_counters_close(c, thread);
                return seterr(errbuf, n, RCUPROF_COUNTERS_EOPEN,
                              "cannot get the id of counter '%s': %s",
                              ev->name, strerror(e));
            }
            if (k == 0)
                leader = fd;
        }
    }
    ts->opened = 1;
    return 0;
}

static int leader_fd(const struct rcuprof_counters *c,
                     const struct thread_state *ts, unsigned g)
{
    return ts->fd[c->grp[g].ev[0]];
}

void rcuprof_counters_start(struct rcuprof_counters *c, unsigned thread)
{
    struct thread_state *ts;
    unsigned g;
    int fd;

    if (c == NULL || thread >= c->nthreads || !c->thr[thread].opened)
        return;
    ts = &c->thr[thread];
    for (g = 0; g < c->ngroups; g++) {
        fd = leader_fd(c, ts, g);
        if (ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) != 0
            || ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
            if (ts->read_errno == 0)
                ts->read_errno = errno;
        }
    }
    ts->started = 1;
}

void rcuprof_counters_stop(struct rcuprof_counters *c, unsigned thread)
{
    struct thread_state *ts;
    unsigned g;
    size_t want;
    ssize_t got;
    int fd;

    if (c == NULL || thread >= c->nthreads || !c->thr[thread].opened
        || !c->thr[thread].started)
        return;
    ts = &c->thr[thread];
    /* Disable every group first so that all stop at the same point. */
    for (g = 0; g < c->ngroups; g++)
        if (ioctl(leader_fd(c, ts, g), PERF_EVENT_IOC_DISABLE,
                  PERF_IOC_FLAG_GROUP) != 0 && ts->read_errno == 0)
            ts->read_errno = errno;
    for (g = 0; g < c->ngroups; g++) {
        fd = leader_fd(c, ts, g);
        want = (3 + 2 * (size_t)c->grp[g].nev) * sizeof(uint64_t);
        got = read(fd, &ts->raw[c->grp[g].off], want);
        if (got != (ssize_t)want && ts->read_errno == 0)
            ts->read_errno = got < 0 ? errno : EIO;
    }
    ts->started = 0;
    ts->read_done = ts->read_errno == 0;
}

int rcuprof_counters_inject_read(struct rcuprof_counters *c, unsigned thread,
                                 unsigned group, const uint64_t *buf,
                                 size_t nwords)
{
    if (c == NULL || thread >= c->nthreads || group >= c->ngroups
        || nwords != 3 + 2 * (size_t)c->grp[group].nev)
        return RCUPROF_COUNTERS_EINVAL;
    memcpy(&c->thr[thread].raw[c->grp[group].off], buf,
           nwords * sizeof(*buf));
    c->thr[thread].read_done = 1;
    c->thr[thread].read_errno = 0;
    return 0;
}

int rcuprof_counters_group_ids(const struct rcuprof_counters *c,
                               unsigned thread, unsigned group,
                               uint64_t *ids, size_t max)
{
    unsigned k;

    if (c == NULL || thread >= c->nthreads || group >= c->ngroups
        || max < c->grp[group].nev)
        return RCUPROF_COUNTERS_EINVAL;
    for (k = 0; k < c->grp[group].nev; k++)
        ids[k] = c->thr[thread].id[c->grp[group].ev[k]];
    return (int)c->grp[group].nev;
}

int rcuprof_counters_value(const struct rcuprof_counters *c, unsigned thread,
                           unsigned idx, struct rcuprof_counters_value *out)
{
    const struct thread_state *ts;
    const struct event *ev;
    const uint64_t *r;
    uint64_t nr, k;

    if (c == NULL || thread >= c->nthreads || idx >= c->nev || out == NULL)
        return RCUPROF_COUNTERS_EINVAL;
    memset(out, 0, sizeof(*out));
    ev = &c->ev[idx];
    ts = &c->thr[thread];
    if (!ev->available) {
        out->reason = ev->reason;
        return 0;
    }
    out->available = 1;
    if (!ts->read_done) {
        out->reason = ts->read_errno != 0 ? strerror(ts->read_errno)
                                          : "not read (the window never ran)";
        return ts->read_errno != 0 ? RCUPROF_COUNTERS_EIO : 0;
    }
    r = &ts->raw[c->grp[ev->group].off];
    nr = r[0];
    out->enabled_ns = r[1];
    out->running_ns = r[2];
    for (k = 0; k < nr && k < c->grp[ev->group].nev; k++)
        if (r[4 + 2 * k] == ts->id[idx])
            break;
    if (k == nr || k >= c->grp[ev->group].nev) {
        /* The id was not in the read: fall back to the group position. */
        k = (uint64_t)ev->pos;
        if (k >= nr) {
            out->reason = "missing from the group read";
            return RCUPROF_COUNTERS_EIO;
        }
    }
    out->raw = r[3 + 2 * k];
    if (out->running_ns == 0) {
        out->counted = 0;
        out->reason = "the group never ran (no counter was free)";
        return 0;
    }
    out->counted = 1;
    if (out->running_ns < out->enabled_ns) {
        out->scaled = 1;
        out->value = (double)out->raw
                     * ((double)out->enabled_ns / (double)out->running_ns);
    } else {
        out->value = (double)out->raw;
    }
    return 0;
}

/* ---- JSON ------------------------------------------------------------- */

static json_t *event_json(const struct rcuprof_counters *c,
                          const struct event *ev)
{
    json_t *o;

    o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:b, s:b}",
                  "name", ev->name, "fstr", ev->fstr, "pmu", ev->pmu,
                  "kind", ev->software ? "software" : "hardware",
                  "type", (json_int_t)ev->attr.type,
                  "config", hex64(ev->attr.config),
                  "config1", hex64(ev->attr.config1),
                  "config2", hex64(ev->attr.config2),
                  "available", ev->available,
                  "user_only", ev->user_only);
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "preset", ev->preset != NULL
                        ? json_string(ev->preset) : json_null());
    json_object_set_new(o, "verified", ev->verified < 0 ? json_null()
                        : json_boolean(ev->verified));
    json_object_set_new(o, "group", ev->group >= 0
                        ? json_integer(ev->group) : json_null());
    if (!ev->available)
        json_object_set_new(o, "reason", json_string(ev->reason));
    return o;
}

static json_t *pmu_json(const struct rcuprof_counters *c)
{
    return json_pack("{s:s, s:b, s:s, s:b, s:i, s:b}",
                     "libpfm_core_pmu", c->core_pmu,
                     "hardware", c->hw_ok,
                     "reason", c->hw_reason,
                     "hypervisor", c->hypervisor,
                     "perf_event_paranoid", c->paranoid,
                     "user_only", c->user_only);
}

json_t *rcuprof_counters_to_json(const struct rcuprof_counters *c,
                                 const uint64_t *ops)
{
    json_t *root, *events, *unavail, *groups, *threads, *sums;
    struct rcuprof_counters_value v;
    double sum[RCUPROF_COUNTERS_MAX_EVENTS];
    int sum_scaled[RCUPROF_COUNTERS_MAX_EVENTS];
    unsigned sum_threads[RCUPROF_COUNTERS_MAX_EVENTS];
    uint64_t ops_total = 0;
    unsigned i, g, t, k;
    int any_scaled = 0;

    if (c == NULL)
        return json_null();
    memset(sum, 0, sizeof(sum));
    memset(sum_scaled, 0, sizeof(sum_scaled));
    memset(sum_threads, 0, sizeof(sum_threads));

    events = json_array();
    unavail = json_array();
    for (i = 0; i < c->nev; i++) {
        json_array_append_new(events, event_json(c, &c->ev[i]));
        if (!c->ev[i].available)
            json_array_append_new(unavail,
                                  json_pack("{s:s, s:s}",
                                            "name", c->ev[i].name,
                                            "reason", c->ev[i].reason));
    }
    if (c->empty_presets[0] != '\0')
        json_array_append_new(unavail, json_pack(
            "{s:s, s:s++}", "name", c->empty_presets,
            "reason", "no events known for libpfm4 PMU '", c->core_pmu,
            "' (`rcuprof events` shows the presets per PMU)"));

    groups = json_array();
    for (g = 0; g < c->ngroups; g++) {
        json_t *names = json_array();

        for (k = 0; k < c->grp[g].nev; k++)
            json_array_append_new(names,
                                  json_string(c->ev[c->grp[g].ev[k]].name));
        json_array_append_new(groups, json_pack(
            "{s:i, s:s, s:o}", "id", (int)g,
            "kind", c->grp[g].software ? "software" : "hardware",
            "events", names));
    }

    threads = json_array();
    for (t = 0; t < c->nthreads; t++) {
        const struct thread_state *ts = &c->thr[t];
        json_t *tj, *vals, *gl;

        if (ops != NULL)
            ops_total += ops[t];
        tj = json_pack("{s:i}", "id", (int)t);
        if (!ts->read_done) {
            json_object_set_new(tj, "values", json_null());
            json_object_set_new(tj, "error", json_string(
                ts->read_errno != 0 ? strerror(ts->read_errno)
                : ts->opened ? "window never ran" : "counters not opened"));
            json_array_append_new(threads, tj);
            continue;
        }
        gl = json_array();
        for (g = 0; g < c->ngroups; g++) {
            const uint64_t *r = &ts->raw[c->grp[g].off];
            double pct = r[1] > 0 ? 100.0 * (double)r[2] / (double)r[1]
                                  : 0.0;

            json_array_append_new(gl, json_pack(
                "{s:i, s:I, s:I, s:f}", "group", (int)g,
                "enabled_ns", (json_int_t)r[1],
                "running_ns", (json_int_t)r[2], "running_pct", pct));
        }
        json_object_set_new(tj, "groups", gl);
        vals = json_object();
        for (i = 0; i < c->nev; i++) {
            json_t *vj;

            if (!c->ev[i].available)
                continue;
            if (rcuprof_counters_value(c, t, i, &v) != 0 || !v.counted) {
                json_object_set_new(vals, c->ev[i].name, json_pack(
                    "{s:n, s:s}", "value", "reason",
                    v.reason != NULL ? v.reason : "not counted"));
                continue;
            }
            vj = json_pack("{s:f, s:I, s:b, s:f}", "value", v.value,
                           "raw", (json_int_t)v.raw, "scaled", v.scaled,
                           "running_pct", v.enabled_ns > 0
                           ? 100.0 * (double)v.running_ns
                             / (double)v.enabled_ns : 0.0);
            if (ops != NULL && ops[t] > 0)
                json_object_set_new(vj, "per_op",
                                    json_real(v.value / (double)ops[t]));
            json_object_set_new(vals, c->ev[i].name, vj);
            sum[i] += v.value;
            sum_scaled[i] |= v.scaled;
            sum_threads[i]++;
            any_scaled |= v.scaled;
        }
        json_object_set_new(tj, "values", vals);
        json_array_append_new(threads, tj);
    }

    sums = json_object();
    for (i = 0; i < c->nev; i++) {
        json_t *sj;

        if (!c->ev[i].available)
            continue;
        if (sum_threads[i] == 0) {
            json_object_set_new(sums, c->ev[i].name, json_null());
            continue;
        }
        sj = json_pack("{s:f, s:b, s:i}", "value", sum[i],
                       "scaled", sum_scaled[i],
                       "threads", (int)sum_threads[i]);
        if (ops != NULL && ops_total > 0)
            json_object_set_new(sj, "per_op",
                                json_real(sum[i] / (double)ops_total));
        json_object_set_new(sums, c->ev[i].name, sj);
    }

    root = json_pack("{s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:b}",
                     "pmu", pmu_json(c),
                     "require_hw",
                     (c->flags & RCUPROF_COUNTERS_REQUIRE_HW) != 0,
                     "events", events, "unavailable", unavail,
                     "groups", groups, "threads", threads, "sums", sums,
                     "scaled", any_scaled);
    return root;
}

/* ---- `rcuprof events` ------------------------------------------------- */

json_t *rcuprof_counters_list_json(char *errbuf, size_t n)
{
    struct rcuprof_counters *c;
    const char *names[RCUPROF_COUNTERS_MAX_EVENTS];
    int verified[RCUPROF_COUNTERS_MAX_EVENTS];
    json_t *root, *pmus, *presets;
    pfm_pmu_info_t pi;
    size_t i;
    int p, cnt, k;

    if (pfm_ready(errbuf, n) != 0)
        return NULL;
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        seterr(errbuf, n, RCUPROF_COUNTERS_ENOMEM, "out of memory");
        return NULL;
    }
    c->paranoid = read_paranoid();
    c->hypervisor = running_under_hypervisor();
    snprintf(c->core_pmu, sizeof(c->core_pmu), "%s",
             rcuprof_counters_core_pmu());
    detect_hw(c);

    pmus = json_array();
    pfm_for_all_pmus(p) {
        const char *type;

        memset(&pi, 0, sizeof(pi));
        pi.size = sizeof(pi);
        if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present)
            continue;
        type = pi.type == PFM_PMU_TYPE_CORE ? "core"
               : pi.type == PFM_PMU_TYPE_UNCORE ? "uncore"
               : pi.type == PFM_PMU_TYPE_OS_GENERIC ? "os" : "other";
        json_array_append_new(pmus, json_pack(
            "{s:s, s:s, s:s, s:i, s:i, s:i, s:b}", "name", pi.name,
            "desc", pi.desc != NULL ? pi.desc : "", "type", type,
            "events", pi.nevents, "counters", pi.num_cntrs,
            "fixed_counters", pi.num_fixed_cntrs,
            "libpfm_says_present", 1));
    }

    presets = json_object();
    for (i = 0; i < rcuprof_counters_npreset_names; i++) {
        const char *pname = rcuprof_counters_preset_names[i];
        json_t *arr = json_array();

        cnt = rcuprof_counters_preset_resolve(pname, c->core_pmu, names,
                                              verified,
                                              RCUPROF_COUNTERS_MAX_EVENTS);
        for (k = 0; k < cnt; k++) {
            const struct rcuprof_counters_preset_row *row;
            struct event ev;
            char why[256];
            json_t *ej;

            memset(&ev, 0, sizeof(ev));
            row = preset_row(pname, names[k]);
            ej = json_pack("{s:s, s:b, s:s}", "name", names[k],
                           "verified", verified[k],
                           "note", row != NULL ? row->note : "");
            if (encode(names[k], &ev.attr, ev.fstr, sizeof(ev.fstr), ev.pmu,
                       sizeof(ev.pmu), why, sizeof(why)) != 0) {
                json_object_set_new(ej, "opens", json_false());
                json_object_set_new(ej, "reason", json_string(why));
            } else {
                ev.software = ev.attr.type == PERF_TYPE_SOFTWARE;
                probe_event(c, &ev);
                json_object_set_new(ej, "fstr", json_string(ev.fstr));
                json_object_set_new(ej, "opens",
                                    json_boolean(ev.available));
                if (!ev.available)
                    json_object_set_new(ej, "reason",
                                        json_string(ev.reason));
                else if (ev.user_only)
                    json_object_set_new(ej, "user_only", json_true());
            }
            json_array_append_new(arr, ej);
        }
        json_object_set_new(presets, pname, arr);
    }

    root = json_pack("{s:i, s:o, s:o, s:o}",
                     "libpfm_version", pfm_get_version(),
                     "pmu", pmu_json(c), "pmus", pmus, "presets", presets);
    free(c);
    return root;
}

void rcuprof_counters_list_print(FILE *fp, const json_t *list)
{
    const json_t *pmu = json_object_get(list, "pmu");
    const json_t *arr, *ev;
    const char *key;
    size_t i;

    fprintf(fp, "PMU (libpfm4): %s\n",
            json_string_value(json_object_get(pmu, "libpfm_core_pmu")));
    fprintf(fp, "hardware counters: %s (%s)\n",
            json_is_true(json_object_get(pmu, "hardware")) ? "yes" : "no",
            json_string_value(json_object_get(pmu, "reason")));
    fprintf(fp, "perf_event_paranoid: %d%s\n",
            (int)json_integer_value(json_object_get(pmu,
                                                    "perf_event_paranoid")),
            json_is_true(json_object_get(pmu, "hypervisor"))
            ? ", running under a hypervisor" : "");
    fprintf(fp, "\nlibpfm4 PMUs:\n");
    json_array_foreach(json_object_get(list, "pmus"), i, ev)
        fprintf(fp, "  %-20s %-7s %4d events  %s\n",
                json_string_value(json_object_get(ev, "name")),
                json_string_value(json_object_get(ev, "type")),
                (int)json_integer_value(json_object_get(ev, "events")),
                json_string_value(json_object_get(ev, "desc")));
    fprintf(fp, "\npresets:\n");
    json_object_foreach((json_t *)json_object_get(list, "presets"), key,
                        arr) {
        fprintf(fp, "  %s:%s\n", key,
                json_array_size(arr) == 0 ? " (no events for this PMU)"
                                          : "");
        json_array_foreach(arr, i, ev)
            fprintf(fp, "    %-40s %-5s %s%s%s\n",
                    json_string_value(json_object_get(ev, "name")),
                    json_is_true(json_object_get(ev, "opens")) ? "opens"
                                                               : "NO",
                    json_is_true(json_object_get(ev, "verified"))
                    ? "" : "[unverified] ",
                    json_is_true(json_object_get(ev, "opens")) ? ""
                    : json_string_value(json_object_get(ev, "reason")),
                    json_is_true(json_object_get(ev, "user_only"))
                    ? "user space only" : "");
    }
}

/* ---- RLIMIT_NOFILE ---------------------------------------------------- */

int rcuprof_counters_raise_nofile(unsigned nthreads, unsigned nevents,
                                  unsigned reserve, char *errbuf, size_t n)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)nthreads * nevents + reserve;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return seterr(errbuf, n, RCUPROF_COUNTERS_ENOFILE,
                      "cannot read RLIMIT_NOFILE: %s", strerror(errno));
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
        return seterr(errbuf, n, RCUPROF_COUNTERS_ENOFILE,
                      "%u threads x %u counters need %llu file descriptors "
                      "(with %u others) but the hard limit is %llu: raise it "
                      "(ulimit -Hn, limits.conf) or count fewer events or "
                      "threads", nthreads, nevents,
                      (unsigned long long)need, reserve,
                      (unsigned long long)rl.rlim_max);
    rl.rlim_cur = rl.rlim_max != RLIM_INFINITY ? rl.rlim_max : need;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        return seterr(errbuf, n, RCUPROF_COUNTERS_ENOFILE,
                      "cannot raise RLIMIT_NOFILE to %llu: %s",
                      (unsigned long long)rl.rlim_cur, strerror(errno));
    return 0;
}
