/*
 * Attribution buckets and their precedence, on frame names (innermost
 * first), without sampling: the rules of probes/README.md, "Buckets".
 */
#include "sampler_test_util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_match(void **state)
{
    static const struct {
        const char *fn;
        int bucket;
    } t[] = {
        { "get_hold_current_qp", RCUPROF_BUCKET_GET_HOLD_QP },
        { "get_hold_current_qp.isra.0", RCUPROF_BUCKET_GET_HOLD_QP },
        { "ossl_rcu_read_lock", RCUPROF_BUCKET_RCU_READ },
        { "ossl_rcu_read_unlock", RCUPROF_BUCKET_RCU_READ },
        { "ossl_synchronize_rcu", RCUPROF_BUCKET_SYNC_RCU },
        { "update_qp", RCUPROF_BUCKET_SYNC_RCU },
        { "pthread_rwlock_rdlock", RCUPROF_BUCKET_RWLOCK },
        { "___pthread_rwlock_rdlock", RCUPROF_BUCKET_RWLOCK },
        { "__pthread_rwlock_unlock", RCUPROF_BUCKET_RWLOCK },
        { "CRYPTO_THREAD_read_lock", RCUPROF_BUCKET_RWLOCK },
        { "ossl_property_read_lock", RCUPROF_BUCKET_BIGLOCK },
        { "ossl_method_lock_store", RCUPROF_BUCKET_BIGLOCK },
        { "ossl_method_unlock_store", RCUPROF_BUCKET_BIGLOCK },
        { "EVP_MD_up_ref", RCUPROF_BUCKET_REFCOUNT },
        { "EVP_CIPHER_free", RCUPROF_BUCKET_REFCOUNT },
        { "evp_md_up_ref", RCUPROF_BUCKET_REFCOUNT },
        { "CRYPTO_DOWN_REF", RCUPROF_BUCKET_REFCOUNT },
        { "ossl_method_up_ref", RCUPROF_BUCKET_REFCOUNT },
        { "ossl_namemap_name2num", RCUPROF_BUCKET_NAMEHASH },
        { "ossl_ht_get", RCUPROF_BUCKET_NAMEHASH },
        { "ossl_lh_strcasehash", RCUPROF_BUCKET_NAMEHASH },
        { "OPENSSL_LH_retrieve", RCUPROF_BUCKET_NAMEHASH },
        { "EVP_MD_CTX_free", -1 },      /* a context, not a refcount */
        { "EVP_MD_fetch", -1 },
        { "ossl_method_store_fetch", -1 },
        { "memcpy", -1 },
    };
    size_t i;

    for (i = 0; i < N(t); i++) {
        printf("%-30s -> %s\n", t[i].fn,
               t[i].bucket < 0 ? "(none)"
                               : rcuprof_attribute_bucket_name(t[i].bucket));
        assert_int_equal(rcuprof_attribute_match(t[i].fn), t[i].bucket);
    }
    assert_null(NULL);
    assert_int_equal(rcuprof_attribute_match(NULL), -1);
    assert_string_equal(rcuprof_attribute_bucket_name(RCUPROF_BUCKET_OTHER),
                        "other");
}

static void test_precedence(void **state)
{
    /* Inline scope first: the inlined body inside ossl_rcu_read_lock. */
    const char *a[] = { "get_hold_current_qp", "ossl_rcu_read_lock",
                        "ossl_ht_read_lock", "ossl_namemap_name2num",
                        "EVP_MD_fetch" };
    /* The rest of the read lock, and what it calls. */
    const char *b[] = { "__pthread_getspecific", "ossl_rcu_read_lock",
                        "ossl_ht_read_lock" };
    /* The store's lock is an rwlock: its wait is the biglock path. */
    const char *c[] = { "__futex_abstimed_wait_common",
                        "___pthread_rwlock_wrlock",
                        "CRYPTO_THREAD_write_lock",
                        "ossl_property_write_lock",
                        "ossl_method_store_cache_set" };
    /* An rwlock elsewhere stays an rwlock. */
    const char *d[] = { "___pthread_rwlock_rdlock", "CRYPTO_THREAD_read_lock",
                        "ossl_provider_activate", "main" };
    /* Reference counts inlined into EVP_MD_free. */
    const char *e[] = { "CRYPTO_DOWN_REF", "EVP_MD_free", "worker_op" };
    /* Unclassified callees take the bucket of the nearest caller. */
    const char *f[] = { "memcmp", "ossl_ht_get", "ossl_namemap_name2num" };
    const char *g[] = { "[kernel]", "clock_nanosleep", "sleep_ms", "main" };
    const char *h[] = { "spin", "ossl_synchronize_rcu", "writer_main" };

    assert_int_equal(rcuprof_attribute_classify(a, N(a)),
                     RCUPROF_BUCKET_GET_HOLD_QP);
    assert_int_equal(rcuprof_attribute_classify(b, N(b)),
                     RCUPROF_BUCKET_RCU_READ);
    assert_int_equal(rcuprof_attribute_classify(c, N(c)),
                     RCUPROF_BUCKET_BIGLOCK);
    assert_int_equal(rcuprof_attribute_classify(d, N(d)),
                     RCUPROF_BUCKET_RWLOCK);
    assert_int_equal(rcuprof_attribute_classify(e, N(e)),
                     RCUPROF_BUCKET_REFCOUNT);
    assert_int_equal(rcuprof_attribute_classify(f, N(f)),
                     RCUPROF_BUCKET_NAMEHASH);
    assert_int_equal(rcuprof_attribute_classify(g, N(g)),
                     RCUPROF_BUCKET_OTHER);
    assert_int_equal(rcuprof_attribute_classify(h, N(h)),
                     RCUPROF_BUCKET_SYNC_RCU);
    assert_int_equal(rcuprof_attribute_classify(NULL, 0),
                     RCUPROF_BUCKET_OTHER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_precedence),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
