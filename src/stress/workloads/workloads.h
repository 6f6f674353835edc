/*
 * The workloads behind --workload (src/stress/workloads/): each implements
 * struct rcuprof_workload (stress.h); workloads.c is the registry.  The
 * driver core finds a workload by name and calls it through that struct
 * only; a workload never calls into the core.
 */
#ifndef RCUPROF_WORKLOADS_H
# define RCUPROF_WORKLOADS_H

# include <stddef.h>

# include "stress.h"

/* workloads.c: the registry. */
const struct rcuprof_workload *rcuprof_workload_find(const char *name);
const char *rcuprof_workload_names(void);

/* The workloads it lists. */
extern const struct rcuprof_workload rcuprof_workload_fetch;   /* fetch.c */
extern const struct rcuprof_workload rcuprof_workload_mac;     /* crypto_ops.c */
extern const struct rcuprof_workload rcuprof_workload_cipher;
extern const struct rcuprof_workload rcuprof_workload_mac_rekey;
extern const struct rcuprof_workload rcuprof_workload_cipher_rekey;
extern const struct rcuprof_workload rcuprof_baselines[];      /* baselines.c */
extern const size_t rcuprof_nbaselines;

#endif
