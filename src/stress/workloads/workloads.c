/* The registry behind --workload. */
#include "workloads.h"

#include <string.h>

const struct rcuprof_workload *rcuprof_workload_find(const char *name)
{
    size_t i;

    if (strcmp(name, "fetch") == 0)
        return &rcuprof_workload_fetch;
    if (strcmp(name, "mac") == 0)
        return &rcuprof_workload_mac;
    if (strcmp(name, "cipher") == 0)
        return &rcuprof_workload_cipher;
    if (strcmp(name, "mac-rekey") == 0)
        return &rcuprof_workload_mac_rekey;
    if (strcmp(name, "cipher-rekey") == 0)
        return &rcuprof_workload_cipher_rekey;
    for (i = 0; i < rcuprof_nbaselines; i++)
        if (strcmp(name, rcuprof_baselines[i].name) == 0)
            return &rcuprof_baselines[i];
    return NULL;
}

const char *rcuprof_workload_names(void)
{
    return "fetch, mac, cipher, mac-rekey, cipher-rekey, empty, atomic, padded, rwlock, rcu, urcu, pingpong";
}
