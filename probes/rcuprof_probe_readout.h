/*
 * rcuprof probe readout: the stress driver's hook module for the in-library
 * probe layer (patches/3.5/probes, include/internal/rcuprof_probes.h).
 *
 * Compiled into a variant's driver only when the variant carries the layer
 * (src/CMakeLists.txt defines RCUPROF_HAVE_PROBES=1 then); every other
 * driver reports "probes": null.  window_start resets the calling worker's
 * counters, window_end reads them; to_json returns the `probes` member
 * (docs/interfaces.md, section 3).
 */
#ifndef RCUPROF_PROBE_READOUT_H
# define RCUPROF_PROBE_READOUT_H

struct rcuprof_hooks;
struct rcuprof_run;

extern const struct rcuprof_hooks rcuprof_probe_readout_hooks;

/*
 * Switch the library's probes on or off for this run (on: also time 1 in
 * |k| read acquisitions) and measure their cost on this thread.  Call once,
 * on the main thread, before any worker or writer starts.  Returns 0, or
 * non-zero with a message in errbuf.
 */
int rcuprof_probe_readout_setup(struct rcuprof_run *run, int on, unsigned k,
                                char *errbuf, unsigned long n);

#endif
