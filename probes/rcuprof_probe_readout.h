/*
 * rcuprof probe readout: the stress driver's tool for the in-library probe
 * layer (patches/3.5/probes, include/internal/rcuprof_probes.h).
 *
 * Compiled into a variant's driver only when the variant carries the layer
 * (src/CMakeLists.txt defines RCUPROF_HAVE_PROBES=1 then); every other
 * driver reports "probes": null.  Its tool (rcuprof_hooks.h): window_start
 * resets the calling worker's counters, window_end reads them; to_json
 * returns the `probes` member (docs/interfaces.md, section 3).
 */
#ifndef RCUPROF_PROBE_READOUT_H
# define RCUPROF_PROBE_READOUT_H

# include <stddef.h>

# include "rcuprof_hooks.h"

struct rcuprof_probe_readout;

/*
 * Switch the library's probes on or off for this run (on: also time 1 in
 * |k| read acquisitions) and measure their cost on this thread; *out holds
 * one window slot per worker (THREADS of them).  Call once, on the main
 * thread, before any worker or writer starts.  Returns 0, or non-zero with
 * a message in errbuf (*out may still need rcuprof_probe_readout_free).
 */
int rcuprof_probe_readout_setup(struct rcuprof_probe_readout **out,
                                unsigned threads, int on, unsigned k,
                                char *errbuf, size_t n);
/*
 * The lib ctx whose EVP method store the run measures, for the summary's
 * store: CTX (NULL: the default one), or KNOWN 0 for a lib ctx the readout
 * cannot see (the summary's store is then null).  Unknown until called.
 */
struct ossl_lib_ctx_st;         /* OSSL_LIB_CTX */
void rcuprof_probe_readout_measures(struct rcuprof_probe_readout *p,
                                    struct ossl_lib_ctx_st *ctx, int known);
/* The tool to register with the run. */
struct rcuprof_tool *rcuprof_probe_readout_tool(struct rcuprof_probe_readout *p);
void rcuprof_probe_readout_free(struct rcuprof_probe_readout *p);

#endif
