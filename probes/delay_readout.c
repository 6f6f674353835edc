/*
 * rcuprof delay readout (rcuprof_delay_readout.h; docs/interfaces.md,
 * section 3.4): arms one of the library's delay sites and reports, as
 * run.delay, the library's counters over the run's window.
 *
 * Like store.c, it is compiled against each variant's internal headers and
 * finds out by __has_include whether the tree has the delay layer
 * (include/internal/rcuprof_delay.h, part of the probe layer; its ticks
 * are the probe layer's timer).  Without it the variant has no library
 * site: the names are still known, so that a site can be refused as
 * absent rather than unknown.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
# if __has_include("internal/rcuprof_delay.h") \
     && __has_include("internal/rcuprof_probes.h")
#  include "internal/rcuprof_delay.h"
#  include "internal/rcuprof_probes.h"
#  define HAVE_DELAY 1
# endif
#endif

#include "rcuprof_delay_readout.h"

#ifndef HAVE_DELAY
/* The contract's names, for a tree without the layer (section 3.4). */
static const char *const known_sites[] = {
    "rcu_read_lock", "rcu_read_unlock", "store_read_lock", "method_refcount",
    "name_lookup", "synchronize",
};
# define NKNOWN (sizeof(known_sites) / sizeof(known_sites[0]))
#endif

struct rcuprof_delay_readout {
    struct rcuprof_tool tool;
    unsigned site;
    const char *name;
    uint64_t ns;
    int armed;
#ifdef HAVE_DELAY
    struct rcuprof_delay_counters c0, c1;       /* window open, close */
    int have0, have1;
#endif
};

const char *rcuprof_delay_readout_site_name(unsigned i)
{
#ifdef HAVE_DELAY
    return rcuprof_delay_site_name(i);
#else
    return i < NKNOWN ? known_sites[i] : NULL;
#endif
}

/* The site's index when this variant has it, else -1. */
static int present_index(const char *name)
{
#ifdef HAVE_DELAY
    const char *s;
    unsigned i;

    for (i = 0; (s = rcuprof_delay_site_name(i)) != NULL; i++)
        if (strcmp(s, name) == 0)
            return rcuprof_delay_site_present(i) ? (int)i : -1;
#else
    (void)name;
#endif
    return -1;
}

int rcuprof_delay_readout_present(const char *name)
{
    return present_index(name) >= 0;
}

json_t *rcuprof_delay_readout_sites(void)
{
    json_t *a = json_array();
#ifdef HAVE_DELAY
    const char *s;
    unsigned i;

    for (i = 0; (s = rcuprof_delay_site_name(i)) != NULL; i++)
        if (rcuprof_delay_site_present(i))
            json_array_append_new(a, json_string(s));
#endif
    return a;
}

json_t *rcuprof_delay_readout_fixed(void)
{
#ifdef HAVE_DELAY
    const char *s;
    unsigned i;

    for (i = 0; (s = rcuprof_delay_site_name(i)) != NULL; i++)
        if (rcuprof_delay_fixed_ns(i) != 0)
            return json_pack("{s:s, s:I}", "site", s, "ns",
                             (json_int_t)rcuprof_delay_fixed_ns(i));
#endif
    return json_null();
}

void rcuprof_delay_readout_list(char *buf, size_t n)
{
    json_t *a = rcuprof_delay_readout_sites(), *v;
    size_t i;

    if (n == 0)
        return;
    buf[0] = '\0';
    json_array_foreach(a, i, v)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "",
                 json_string_value(v));
    json_decref(a);
}

#ifdef HAVE_DELAY
static struct rcuprof_delay_readout *readout_of(struct rcuprof_tool *tool)
{
    return rcuprof_container_of(tool, struct rcuprof_delay_readout, tool);
}
#endif

/* The run's window opens (1) or closes (0): the process's counters, every
 * thread's.  No allocation. */
static void hook_run_window(struct rcuprof_tool *tool,
                            const struct rcuprof_run_view *run, int open)
{
#ifdef HAVE_DELAY
    struct rcuprof_delay_readout *p = readout_of(tool);
    struct rcuprof_delay_counters *c = open ? &p->c0 : &p->c1;

    c->size = sizeof(*c);
    if (rcuprof_delay_read_process(c) == 0) {
        if (open)
            p->have0 = 1;
        else
            p->have1 = 1;
    }
#else
    (void)tool;
#endif
    (void)run;
}

int rcuprof_delay_readout_setup(struct rcuprof_delay_readout **out,
                                const char *site, uint64_t ns, unsigned k,
                                char *errbuf, size_t n)
{
    struct rcuprof_delay_readout *p = calloc(1, sizeof(*p));
    int i = present_index(site);

    *out = p;
    if (p == NULL) {
        snprintf(errbuf, n, "delay site: out of memory");
        return -1;
    }
    p->tool.run_window = hook_run_window;
    p->name = site;
    p->ns = ns;
    if (i < 0) {
        snprintf(errbuf, n, "--delay-site %s: this variant's library has no such site", site);
        return -1;
    }
    p->site = (unsigned)i;
#ifdef HAVE_DELAY
    rcuprof_delay_set_sample_every(k);
    if (rcuprof_delay_arm(p->site, ns) != 0) {
        snprintf(errbuf, n, "--delay-site %s --delay-ns %llu: the library refused to arm it (at most %u ns)",
                 site, (unsigned long long)ns, (unsigned)RCUPROF_DELAY_MAX_NS);
        return -1;
    }
    p->armed = 1;
#else
    (void)k;
#endif
    return 0;
}

struct rcuprof_tool *rcuprof_delay_readout_tool(struct rcuprof_delay_readout *p)
{
    return &p->tool;
}

#ifdef HAVE_DELAY
static json_t *ns_per(uint64_t ticks, uint64_t n, double tpu)
{
    return n != 0 && tpu > 0
           ? json_real((double)ticks / tpu * 1000.0 / (double)n)
           : json_null();
}
#endif

json_t *rcuprof_delay_readout_json(const struct rcuprof_delay_readout *p,
                                   uint64_t ops)
{
    json_t *j = json_pack("{s:s, s:s, s:I}", "site", p->name, "where",
                          "library", "ns", (json_int_t)p->ns);
#ifdef HAVE_DELAY
    double tpu = rcuprof_probes_ticks_per_us();
    unsigned s = p->site;
    uint64_t calls = 0, timed = 0, own = 0, delay = 0;
    int known = p->have0 && p->have1 && s < p->c0.nsites && s < p->c1.nsites;

    if (known) {
        calls = p->c1.calls[s] - p->c0.calls[s];
        timed = p->c1.timed[s] - p->c0.timed[s];
        own = p->c1.own_ticks[s] - p->c0.own_ticks[s];
        delay = p->c1.delay_ticks[s] - p->c0.delay_ticks[s];
    }
    /* The library's busy wait, from the probe layer's calibration. */
    json_object_set_new(j, "ticks", tpu > 0
        ? json_integer((json_int_t)ceil((double)p->ns * tpu / 1000.0))
        : json_null());
    json_object_set_new(j, "calls", known ? json_integer((json_int_t)calls)
                                          : json_null());
    json_object_set_new(j, "calls_per_op", known && ops > 0
                        ? json_real((double)calls / (double)ops)
                        : json_null());
    /* measured at 0 ns too: the wait's code runs (no loop), and at the
     * option fixed's site it waits the fixed cost */
    json_object_set_new(j, "delay_ns_per_call", ns_per(delay, timed, tpu));
    json_object_set_new(j, "own_ns_per_call", ns_per(own, timed, tpu));
    json_object_set_new(j, "timed", known ? json_integer((json_int_t)timed)
                                          : json_null());
    json_object_set_new(j, "fixed_ns",
                        json_integer((json_int_t)rcuprof_delay_fixed_ns(s)));
#else
    (void)ops;
    json_object_set_new(j, "ticks", json_null());
    json_object_set_new(j, "calls", json_null());
    json_object_set_new(j, "calls_per_op", json_null());
    json_object_set_new(j, "delay_ns_per_call", json_null());
    json_object_set_new(j, "own_ns_per_call", json_null());
    json_object_set_new(j, "timed", json_null());
    json_object_set_new(j, "fixed_ns", json_integer(0));
#endif
    return j;
}

void rcuprof_delay_readout_free(struct rcuprof_delay_readout *p)
{
#ifdef HAVE_DELAY
    if (p != NULL && p->armed)
        rcuprof_delay_disarm();
#endif
    free(p);
}
