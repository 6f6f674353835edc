/*
 * What the variant's method store is, and its run-time settings: the RCU
 * store's reclaim policy and (rcu-nosync) the batch N, which --reclaim-batch
 * sets before any fetch.  Compiled against each variant's internal headers:
 * a stock tree has no internal/property_rcu.h.
 */
#include "stress.h"

#include <stdio.h>

#if defined(__has_include)
# if __has_include("internal/property_rcu.h")
#  include "internal/property_rcu.h"
# endif
#endif

/* Applies --reclaim-batch; 0 or an error (usage) with a message. */
int rcuprof_store_configure(const struct rcuprof_run *run, char *err, size_t n)
{
    if (!run->cfg.reclaim_batch_set)
        return 0;
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    ossl_method_store_set_reclaim_batch((size_t)run->cfg.reclaim_batch);
    return 0;
#else
    snprintf(err, n,
             "--reclaim-batch: this variant's method store has no reclaim batch (only rcu-nosync-style stores do): drop the option");
    return -1;
#endif
}

json_t *rcuprof_store_json(void)
{
#ifdef OSSL_METHOD_STORE_RCU
    json_t *j = json_pack("{s:s, s:s}", "kind", "rcu", "reclaim_policy",
                          ossl_method_store_reclaim_policy());

# ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
    json_object_set_new(j, "reclaim_batch",
                        json_integer((json_int_t)ossl_method_store_get_reclaim_batch()));
# else
    json_object_set_new(j, "reclaim_batch", json_null());
# endif
    return j;
#else
    return json_pack("{s:s, s:n, s:n}", "kind", "rwlock", "reclaim_policy",
                     "reclaim_batch");
#endif
}
