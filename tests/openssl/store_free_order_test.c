/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: the sharded RCU store's free keeps every shard whole while any
 * shard's pending reclaim runs (4.0, rcu-nosync; the cold review of the 4.0
 * series).
 *
 * A reclaim callback frees methods, and a method free can run provider
 * code that writes to the same store, on any shard.  Here a method cached
 * on shard 1 (id 1) and then uncached is pending reclaim at store free;
 * its free function writes a cache entry on shard 0 (id 4) of the store
 * being freed.  ossl_method_store_free must drain every shard before it
 * frees any shard's contents or locks: freeing shard by shard (shard 0
 * emptied and its lock freed before shard 1's callbacks ran) made that
 * write use shard 0's freed lock and snapshot.  Then every method's
 * reference must be back to 1.  Run under valgrind memcheck in ctest: no
 * invalid access.
 *
 * rcu-sync reclaims at every write (nothing is pending at store free) and
 * other lines have no shards: they skip (77).
 */
#include <string.h>
#include <openssl/crypto.h>
#include "internal/property.h"
#include "rcuprof_test_util.h"

#if defined(OSSL_METHOD_STORE_RCU_SHARDED) \
    && defined(OSSL_METHOD_STORE_HAVE_RECLAIM_BOUNDS)

static char fake_prov_mem[64];
#define FAKE_PROV ((OSSL_PROVIDER *)(void *)fake_prov_mem)

static FAKE_METHOD ma = { 1 }, mb = { 1 }, mw = { 1 }, m0 = { 1 };
static OSSL_METHOD_STORE *free_store;   /* set: the store being freed */
static int wrote = -1;                  /* the write from the free */

/* mw's free: at store free, write to shard 0 of the store being freed */
static void writer_free(void *p)
{
    fake_free(p);
    if (free_store != NULL && wrote < 0)
        wrote = ossl_method_store_cache_set(free_store, FAKE_PROV, 4, "y",
                                            &m0, fake_up_ref, fake_free);
}

int main(void)
{
    OSSL_METHOD_STORE *store;

    printf("store_free_order_test: variant %s\n", store_variant());
    /* nothing drains before store free */
    ossl_method_store_set_reclaim_batch(1000);
    ossl_method_store_set_reclaim_bytes(0);
    ossl_method_store_set_reclaim_age_ms(0);
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL, "ossl_method_store_new");
    if (store == NULL)
        return 1;
    CHECK(ossl_method_store_add(store, FAKE_PROV, 1, "", &ma, fake_up_ref,
                                fake_free), "add id 1 (shard 1)");
    CHECK(ossl_method_store_add(store, FAKE_PROV, 4, "", &mb, fake_up_ref,
                                fake_free), "add id 4 (shard 0)");
    CHECK(ossl_method_store_cache_set(store, FAKE_PROV, 1, "x", &mw,
                                      fake_up_ref, writer_free), "cache mw");
    CHECK(ossl_method_store_cache_set(store, FAKE_PROV, 1, "x", NULL, NULL,
                                      NULL), "uncache mw");
    CHECK(fake_refs(&mw) == 2, "mw: %ld references before store free (its"
          " retired cache entry should be pending)", fake_refs(&mw));
    CHECK(ossl_method_store_pending_reclaim(store) > 0, "nothing pending");

    free_store = store;
    ossl_method_store_free(store);
    free_store = NULL;
    printf("store free: the pending entry's free wrote to shard 0: %d\n",
           wrote);
    CHECK(wrote == 1, "the write from the pending entry's free (%d)", wrote);
    CHECK(fake_refs(&ma) == 1 && fake_refs(&mb) == 1 && fake_refs(&mw) == 1
          && fake_refs(&m0) == 1, "references after store free: %ld %ld %ld"
          " %ld", fake_refs(&ma), fake_refs(&mb), fake_refs(&mw),
          fake_refs(&m0));
    if (rcuprof_failures != 0) {
        printf("store_free_order_test: FAILED (%d)\n", rcuprof_failures);
        return 1;
    }
    printf("store_free_order_test: OK\n");
    return 0;
}

#else

int main(void)
{
    printf("store_free_order_test: SKIPPED: not 4.0's sharded store with"
           " deferred reclaim (rcu-nosync)\n");
    return 77;
}

#endif
