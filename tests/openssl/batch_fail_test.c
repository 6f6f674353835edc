/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rcuprof: a batch of adds that cannot be published, or cannot grow, is
 * never stranded and never lost silently (4.0's sharded RCU store; the
 * cold review of the 4.0 series).
 *
 * 4.0's store keeps the batch of adds (ossl_method_lock_store ..
 * ossl_method_unlock_store) per shard, under the shard's RCU write lock.
 * The test installs OpenSSL memory functions that refuse, while it says
 * so, the allocations made in crypto/property/property.c itself (mallocs,
 * or reallocs only, or the n-th), on standalone stores with fake methods.
 * Not refused: allocations of other files on the same paths (stack.c's
 * implementation stacks, the property parser's), and the copy paths of a
 * store that already holds published methods (every store here starts
 * empty, so a batch's writes copy only the tree they build themselves):
 *
 *   publish  three adds queued (ids 1, 2, 3: shards 1, 2, 3), then the
 *            unlock with property.c's mallocs refused: no shard's write
 *            can begin.  ossl_method_unlock_store returns 0, every queued
 *            implementation is freed (its method reference dropped), none
 *            is in the store; then, refusals off, an add from the same
 *            thread goes in at once (the batch was closed, not left open
 *            for this thread) and a new batch publishes.
 *   grow     an add under a reservation whose shard queue cannot grow
 *            (property.c's reallocs refused) fails and drops its
 *            reference; the unlock returns 1 (nothing queued was lost).
 *   apply    for n = 0, 1, 2, ...: a fresh store, nine adds queued
 *            (ids s, s + 4, s + 64 on shards s = 1, 2, 3: the second
 *            and third of a shard come after its write made a private
 *            node and algorithm, the third grows the tree by a level),
 *            the unlock with only the (n+1)-th of
 *            property.c's allocations refused, until an unlock refuses
 *            none.  So every property.c allocation of the publication of
 *            a batch on an empty store fails once in turn, those of
 *            txn_apply_adds() too, after the shard's write has made
 *            private tree nodes (txn_drop(), the batch's dropped shards,
 *            batch_done() freeing their adds).
 *            Each time: the unlock returns 1 exactly when every add is
 *            in the store, an add is in the store exactly when the store
 *            holds its reference, and after the store's free no
 *            reference is left.
 *   unload   for n = 0, 1, 2, ...: a fresh store, adds of two providers
 *            queued (ids 1, 2, 5: shards 1, 2, 1), then
 *            ossl_method_store_remove_all_provided() of the first with
 *            only the (n+1)-th of property.c's allocations refused, then
 *            the unlock, refusing nothing.  If the unload returned 1, none
 *            of the unloaded provider's adds is in the store after the
 *            batch's publication (a queued add it kept would be published
 *            after the unload); the other provider's adds are in it.
 *
 * Run under valgrind memcheck in ctest: no invalid access or double free.
 * Other lines (one batch under the store's RCU write lock) skip: exit 77.
 */
#include <string.h>
#include <stdlib.h>
#include <openssl/crypto.h>
#include "internal/property.h"
#include "rcuprof_test_util.h"

#ifdef OSSL_METHOD_STORE_RCU_SHARDED

enum { REFUSE_NONE, REFUSE_MALLOC, REFUSE_REALLOC, REFUSE_NTH };
static int refusing = REFUSE_NONE;
static long refused;
/* REFUSE_NTH: property.c allocations let through before the one refused */
static long allow_left;
static int refused_line;

/* REFUSE_NTH: is this allocation of property.c the one to refuse? */
static int refuse_nth(int line)
{
    if (allow_left-- > 0)
        return 0;
    refusing = REFUSE_NONE;     /* only that one */
    refused++;
    refused_line = line;
    return 1;
}

static char fake_prov_mem[64], fake_prov2_mem[64];
#define FAKE_PROV ((OSSL_PROVIDER *)(void *)fake_prov_mem)
#define FAKE_PROV2 ((OSSL_PROVIDER *)(void *)fake_prov2_mem)

static void *t_malloc(size_t num, const char *file, int line)
{
    if (refusing == REFUSE_MALLOC && from_file(file, "/property.c")) {
        refused++;
        return NULL;
    }
    if (refusing == REFUSE_NTH && from_file(file, "/property.c") && refuse_nth(line))
        return NULL;
    return malloc(num);
}

static void *t_realloc(void *p, size_t num, const char *file, int line)
{
    if ((refusing == REFUSE_MALLOC || refusing == REFUSE_REALLOC)
        && from_file(file, "/property.c")) {
        refused++;
        return NULL;
    }
    if (refusing == REFUSE_NTH && from_file(file, "/property.c") && refuse_nth(line))
        return NULL;
    return realloc(p, num);
}

static void t_free(void *p, const char *file, int line)
{
    (void)file;
    (void)line;
    free(p);
}

#define MAX_ID 127

/* Which of ids 1..MAX_ID the store holds a method for */
static void seen_fn(int id, void *method, void *arg)
{
    (void)method;
    if (id >= 1 && id <= MAX_ID)
        ((int *)arg)[id] = 1;
}

static int in_store(OSSL_METHOD_STORE *store, int id)
{
    int seen[MAX_ID + 1] = { 0 };

    ossl_method_store_do_all(store, seen_fn, seen);
    return seen[id];
}

static int add(OSSL_METHOD_STORE *store, int id, FAKE_METHOD *m)
{
    return ossl_method_store_add(store, FAKE_PROV, id, "", m, fake_up_ref,
                                 fake_free);
}

/*
 * apply: the unlock of a batch of nine adds with only property.c's
 * (n+1)-th allocation refused.  Returns 1 once an unlock refused nothing
 * (n is past the publication's allocations), -1 if the store could not be
 * made.
 */
static int apply_case(long n, long *failed_unlocks)
{
    static const int ids[9] = { 1, 5, 65, 2, 6, 66, 3, 7, 67 };
    FAKE_METHOD am[9];
    OSSL_METHOD_STORE *store = ossl_method_store_new(NULL);
    int i, r, all = 1;

    if (store == NULL)
        return -1;
    for (i = 0; i < 9; i++)
        am[i].refs = 1;
    CHECK(ossl_method_lock_store(store), "apply %ld: lock_store", n);
    for (i = 0; i < 9; i++)
        CHECK(add(store, ids[i], &am[i]) == 1, "apply %ld: queued add %d",
              n, ids[i]);
    refused = 0;
    refused_line = 0;
    allow_left = n;
    refusing = REFUSE_NTH;
    r = ossl_method_unlock_store(store);
    refusing = REFUSE_NONE;
    for (i = 0; i < 9; i++) {
        int in = in_store(store, ids[i]);

        all &= in;
        CHECK(fake_refs(&am[i]) == 1 + in, "apply %ld (refused at"
              " property.c:%d): add %d %s the store with %ld references", n,
              refused_line, ids[i], in ? "in" : "not in",
              fake_refs(&am[i]));
    }
    CHECK(r == all, "apply %ld (refused at property.c:%d): unlock_store"
          " returned %d, %s in the store", n, refused_line, r,
          all ? "every add" : "not every add");
    if (refused > 0)
        printf("apply %ld: property.c:%d refused, unlock_store %d\n", n,
               refused_line, r);
    if (refused > 0 && r == 0)
        ++*failed_unlocks;
    ossl_method_store_free(store);
    for (i = 0; i < 9; i++)
        CHECK(fake_refs(&am[i]) == 1, "apply %ld: method %d: %ld references"
              " after store free", n, ids[i], fake_refs(&am[i]));
    return refused == 0;
}

/*
 * unload: provider FAKE_PROV unloaded (remove_all_provided) while a batch
 * holds queued adds of it and of FAKE_PROV2, with only property.c's
 * (n+1)-th allocation refused.  Returns 1 once the unload refused
 * nothing, -1 if the store could not be made.
 */
static int unload_case(long n, long *failed_unloads)
{
    static const int ids[4] = { 1, 2, 5, 2 };
    OSSL_PROVIDER *const provs[4] = { FAKE_PROV, FAKE_PROV, FAKE_PROV,
                                      FAKE_PROV2 };
    FAKE_METHOD um[4];
    OSSL_METHOD_STORE *store = ossl_method_store_new(NULL);
    int i, r, u;

    if (store == NULL)
        return -1;
    for (i = 0; i < 4; i++)
        um[i].refs = 1;
    CHECK(ossl_method_lock_store(store), "unload %ld: lock_store", n);
    for (i = 0; i < 4; i++)
        CHECK(ossl_method_store_add(store, provs[i], ids[i], "", &um[i],
                                    fake_up_ref, fake_free) == 1,
              "unload %ld: queued add %d", n, i);
    refused = 0;
    refused_line = 0;
    allow_left = n;
    refusing = REFUSE_NTH;
    u = ossl_method_store_remove_all_provided(store, FAKE_PROV);
    refusing = REFUSE_NONE;
    r = ossl_method_unlock_store(store);
    CHECK(r == 1, "unload %ld (refused at property.c:%d): unlock_store"
          " returned %d", n, refused_line, r);
    if (u == 1)
        for (i = 0; i < 3; i++)
            CHECK(fake_refs(&um[i]) == 1, "unload %ld (refused at"
                  " property.c:%d): the unload returned 1, but the"
                  " unloaded provider's queued add %d was published after"
                  " it (%ld references)", n, refused_line, i,
                  fake_refs(&um[i]));
    CHECK(fake_refs(&um[3]) == 2, "unload %ld (refused at property.c:%d):"
          " the other provider's add: %ld references", n, refused_line,
          fake_refs(&um[3]));
    if (refused > 0)
        printf("unload %ld: property.c:%d refused, remove_all_provided"
               " %d\n", n, refused_line, u);
    if (u == 0) {
        /*
         * The unload stopped at its first failing shard (shards in order
         * 0..3; ids 1 and 5 on shard 1, id 2 on shard 2): the shards
         * before it had the provider's queued adds dropped, and that
         * shard's queue and every later one's were left as they were (the
         * batch then published them).  So shard 1's two adds went
         * together, and if shard 1's were left, so was shard 2's.
         */
        CHECK(fake_refs(&um[0]) == fake_refs(&um[2]), "unload %ld (refused"
              " at property.c:%d): shard 1's two queued adds split (%ld, %ld"
              " references)", n, refused_line, fake_refs(&um[0]),
              fake_refs(&um[2]));
        CHECK(fake_refs(&um[0]) == 1 || fake_refs(&um[1]) == 2, "unload %ld"
              " (refused at property.c:%d): the unload failed at or before"
              " shard 1, but its queued add on shard 2 was dropped: a"
              " failing shard's later queues must be left intact", n,
              refused_line);
        ++*failed_unloads;
    }
    ossl_method_store_free(store);
    for (i = 0; i < 4; i++)
        CHECK(fake_refs(&um[i]) == 1, "unload %ld: method %d: %ld"
              " references after store free", n, i, fake_refs(&um[i]));
    return refused == 0;
}

int main(void)
{
    static FAKE_METHOD m[5] = { { 1 }, { 1 }, { 1 }, { 1 }, { 1 } };
    OSSL_METHOD_STORE *store;
    long n, failed_unlocks = 0, failed_unloads = 0;
    int i, r;

    /* before OpenSSL's first allocation */
    if (!CRYPTO_set_mem_functions(t_malloc, t_realloc, t_free)) {
        fprintf(stderr, "FAIL: CRYPTO_set_mem_functions refused\n");
        return 1;
    }
    printf("batch_fail_test: variant %s\n", store_variant());
    store = ossl_method_store_new(NULL);
    CHECK(store != NULL, "ossl_method_store_new");
    if (store == NULL)
        return 1;

    /* publish: the batch's writes cannot begin */
    CHECK(ossl_method_lock_store(store), "lock_store");
    for (i = 1; i <= 3; i++)
        CHECK(add(store, i, &m[i]) == 1, "queued add %d", i);
    refusing = REFUSE_MALLOC;
    r = ossl_method_unlock_store(store);
    refusing = REFUSE_NONE;
    printf("publish: unlock_store %d, %ld allocations refused\n", r, refused);
    CHECK(refused > 0, "no allocation of property.c was refused (file names"
          " compiled out?)");
    CHECK(r == 0, "a batch that could not be published was reported as"
          " published");
    for (i = 1; i <= 3; i++) {
        CHECK(fake_refs(&m[i]) == 1, "queued add %d: %ld references (its"
              " implementation kept or leaked)", i, fake_refs(&m[i]));
        CHECK(!in_store(store, i), "queued add %d is in the store", i);
    }
    /* the batch is closed: this thread's add goes in at once */
    CHECK(add(store, 1, &m[1]) == 1, "add after the failed batch");
    CHECK(in_store(store, 1), "an add after the failed batch was not"
          " published (queued into a batch left open?)");
    /* and a new batch publishes */
    CHECK(ossl_method_lock_store(store), "lock_store again");
    CHECK(add(store, 2, &m[2]) == 1, "queued add 2 again");
    CHECK(ossl_method_unlock_store(store) == 1, "unlock_store again");
    CHECK(in_store(store, 2), "the new batch's add is not in the store");

    /* grow: the queue of id 3's shard cannot grow */
    refused = 0;
    CHECK(ossl_method_lock_store(store), "lock_store (grow)");
    refusing = REFUSE_REALLOC;
    r = add(store, 3, &m[3]);
    refusing = REFUSE_NONE;
    printf("grow: add %d, %ld allocations refused\n", r, refused);
    CHECK(refused > 0, "the queue's growth was not refused");
    CHECK(r == 0, "an add whose queue could not grow reported success");
    CHECK(fake_refs(&m[3]) == 1, "failed add: %ld references",
          fake_refs(&m[3]));
    CHECK(add(store, 4, &m[4]) == 1, "queued add 4 (another shard)");
    CHECK(ossl_method_unlock_store(store) == 1, "unlock_store (grow)");
    CHECK(!in_store(store, 3), "the failed add is in the store");
    CHECK(in_store(store, 4), "the queued add 4 is not in the store");

    ossl_method_store_free(store);
    for (i = 1; i <= 4; i++)
        CHECK(fake_refs(&m[i]) == 1, "method %d: %ld references after store"
              " free", i, fake_refs(&m[i]));

    /* apply: each allocation of the publication refused in turn */
    for (n = 0; n < 1000; n++) {
        r = apply_case(n, &failed_unlocks);
        CHECK(r >= 0, "apply %ld: ossl_method_store_new", n);
        if (r != 0)
            break;
    }
    printf("apply: %ld allocations refused in turn, %ld unlocks returned"
           " 0\n", n, failed_unlocks);
    CHECK(n < 1000, "apply: the publication never ran out of allocations"
          " to refuse");
    CHECK(failed_unlocks > 0, "apply: no refusal failed a publication");

    /* unload: each allocation of a provider unload refused in turn */
    for (n = 0; n < 1000; n++) {
        r = unload_case(n, &failed_unloads);
        CHECK(r >= 0, "unload %ld: ossl_method_store_new", n);
        if (r != 0)
            break;
    }
    printf("unload: %ld allocations refused in turn, %ld unloads returned"
           " 0\n", n, failed_unloads);
    CHECK(n > 0 && n < 1000, "unload: no allocation to refuse, or never"
          " out of them");
    CHECK(failed_unloads > 0, "unload: no refusal failed an unload (the"
          " abort path was never taken)");
    if (rcuprof_failures != 0) {
        printf("batch_fail_test: FAILED (%d)\n", rcuprof_failures);
        return 1;
    }
    printf("batch_fail_test: OK\n");
    return 0;
}

#else

int main(void)
{
    printf("batch_fail_test: SKIPPED: not 4.0's sharded RCU store\n");
    return 77;
}

#endif
