/*
 * rcuprof attribution: the `samples` member of a run result, symbolized
 * (probes/rcuprof_symbolize.h), into shares of on-CPU time per read-path
 * bucket, per-line shares inside get_hold_current_qp with the skid flag,
 * off-CPU time per thread and where threads left the CPU, top functions
 * and lines, folded stacks (probes/README.md, "Buckets and precedence").
 * The report's text form is analysis/report/'s (rcuprof_attribute_print).
 */
#ifndef RCUPROF_ATTRIBUTE_H
# define RCUPROF_ATTRIBUTE_H

# include <stddef.h>
# include <jansson.h>

# include "rcuprof_symbolize.h"


enum rcuprof_bucket {
    RCUPROF_BUCKET_GET_HOLD_QP = 0, /* get_hold_current_qp (inline scope) */
    RCUPROF_BUCKET_RCU_READ,        /* rest of ossl_rcu_read_lock/unlock */
    RCUPROF_BUCKET_SYNC_RCU,        /* ossl_synchronize_rcu, RCU writers */
    RCUPROF_BUCKET_RWLOCK,          /* pthread rwlock, CRYPTO_THREAD_* */
    RCUPROF_BUCKET_BIGLOCK,         /* the method store's lock path */
    RCUPROF_BUCKET_REFCOUNT,        /* up_ref/free reference counts */
    RCUPROF_BUCKET_NAMEHASH,        /* namemap, hashtable, string hashes */
    RCUPROF_BUCKET_OTHER,
    RCUPROF_BUCKET_N
};

const char *rcuprof_attribute_bucket_name(int bucket);
/* The bucket a function name denotes by itself, or -1. */
int rcuprof_attribute_match(const char *function);
/*
 * The bucket of one sample from its frame names, innermost first (the
 * sampled address's inline chain, then each caller's): the first name
 * that denotes a bucket decides, except that rwlock becomes biglock when
 * an outer frame is on the biglock path.
 */
int rcuprof_attribute_classify(const char *const *names, size_t n);

/*
 * The build a result was measured on, as far as the attribution needs it:
 * source files are resolved in build.tree only while that tree's
 * build.json still has the result's libcrypto hash (the report's
 * source_tree member: ok, missing, changed, not_recorded, unknown).
 * NULL or "" members: not recorded.
 */
struct rcuprof_attribute_build {
    const char *variant;            /* build.variant */
    const char *tree;               /* build.tree */
    const char *libcrypto_sha256;   /* build.libcrypto_sha256 */
};

struct rcuprof_attribute_opts {
    unsigned top;               /* rows of the top lists; 0: 20 */
    int folded;                 /* include folded stacks */
    /* the result's build; NULL: read from a whole result's build member,
     * or unknown for a bare samples member */
    const struct rcuprof_attribute_build *build;
};

/*
 * The attribution report of a `samples` member (or of a whole run result:
 * its `samples` member is used, and its build when O gives none).  S may
 * be NULL: one is made from the member's mappings.  NULL with a message
 * on error.
 */
json_t *rcuprof_attribute(const json_t *samples, struct rcuprof_symbolize *s,
                          const struct rcuprof_attribute_opts *o,
                          char *errbuf, size_t n);

#endif
