/*
 * rcuprof delay readout: the stress driver's side of the library's delay
 * sites (docs/interfaces.md, section 3.4; the sites themselves are the
 * probe layer's, include/internal/rcuprof_delay.h in a variant's tree).
 *
 * Compiled into every driver: against a tree with the delay header it arms
 * the site and reads the library's counters; against one without it, the
 * variant has no library sites (rcuprof_delay_readout_sites is []) and
 * every site is refused.  Its tool (rcuprof_hooks.h) takes the library's
 * process-wide counters when the run's window opens and when it closes
 * (run_window, on the main thread), so calls are those of every thread,
 * workers and writers, inside the window.
 */
#ifndef RCUPROF_DELAY_READOUT_H
# define RCUPROF_DELAY_READOUT_H

# include <stddef.h>
# include <stdint.h>
# include <jansson.h>

# include "rcuprof_hooks.h"

struct rcuprof_delay_readout;

/* The library's site names, present here or not, in the contract's order
 * (index i: name i, NULL past the end). */
const char *rcuprof_delay_readout_site_name(unsigned i);
/* 1 when this variant's library has the site NAME, else 0. */
int rcuprof_delay_readout_present(const char *name);
/* build.delay_sites: the names of the sites this variant has ([] without
 * the delay layer); build.delay_fixed: {site, ns} of the first site with
 * an always-on cost, or null.  New references. */
json_t *rcuprof_delay_readout_sites(void);
json_t *rcuprof_delay_readout_fixed(void);
/* The sites this variant has, ", "-separated ("" for none), into buf. */
void rcuprof_delay_readout_list(char *buf, size_t n);

/*
 * Arm SITE (present: rcuprof_delay_readout_present) with NS ns per call,
 * 1 in K calls timed.  Call on the main thread before any worker or writer
 * starts.  0, or -1 with a message (*out may still need _free).
 */
int rcuprof_delay_readout_setup(struct rcuprof_delay_readout **out,
                                const char *site, uint64_t ns, unsigned k,
                                char *errbuf, size_t n);
/* The tool to register with the run (run_window only; no member). */
struct rcuprof_tool *rcuprof_delay_readout_tool(struct rcuprof_delay_readout *p);
/* run.delay (section 3.4) over OPS, the workers' ops in their windows. */
json_t *rcuprof_delay_readout_json(const struct rcuprof_delay_readout *p,
                                   uint64_t ops);
/* Disarms the site. */
void rcuprof_delay_readout_free(struct rcuprof_delay_readout *p);

#endif
