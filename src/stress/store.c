/*
 * What the variant's method store is, and its run-time settings: the RCU
 * store's reclaim policy and (rcu-nosync) its bounds: the batch N, the
 * pending bytes and the age of the oldest pending version, which
 * --reclaim-batch, --reclaim-bytes and --reclaim-age-ms set before any
 * fetch.  Compiled against each variant's internal headers:
 * a stock tree has no internal/property_rcu.h.
 */
#include "stress.h"

#include <stdio.h>

#if defined(__has_include)
# if __has_include("internal/property_rcu.h")
#  include "internal/property_rcu.h"
# endif
#endif

/* Applies the --reclaim-* options; 0 or an error (usage) with a message. */
int rcuprof_store_configure(const struct rcuprof_run *run, char *err, size_t n)
{
    const struct rcuprof_config *c = &run->cfg;

    if (c->reclaim_batch_set) {
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BATCH
        ossl_method_store_set_reclaim_batch((size_t)c->reclaim_batch);
#else
        snprintf(err, n,
                 "--reclaim-batch: this variant's method store has no reclaim batch (only rcu-nosync-style stores do): drop the option");
        return -1;
#endif
    }
    if (c->reclaim_bytes_set || c->reclaim_age_ms_set) {
#ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
        if (c->reclaim_bytes_set)
            ossl_method_store_set_reclaim_bytes((size_t)c->reclaim_bytes);
        if (c->reclaim_age_ms_set)
            ossl_method_store_set_reclaim_age_ms((size_t)c->reclaim_age_ms);
#else
        snprintf(err, n,
                 "--%s: this variant's method store has no reclaim bounds (only rcu-nosync-style stores do): drop the option",
                 c->reclaim_bytes_set ? "reclaim-bytes" : "reclaim-age-ms");
        return -1;
#endif
    }
    return 0;
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
# ifdef OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS
    json_object_set_new(j, "reclaim_bytes",
                        json_integer((json_int_t)ossl_method_store_get_reclaim_bytes()));
    json_object_set_new(j, "reclaim_age_ms",
                        json_integer((json_int_t)ossl_method_store_get_reclaim_age_ms()));
# else
    json_object_set_new(j, "reclaim_bytes", json_null());
    json_object_set_new(j, "reclaim_age_ms", json_null());
# endif
    return j;
#else
    return json_pack("{s:s, s:n, s:n, s:n, s:n}", "kind", "rwlock",
                     "reclaim_policy", "reclaim_batch", "reclaim_bytes",
                     "reclaim_age_ms");
#endif
}
