/*
 * rcuprof attribution: symbolized samples -> shares of on-CPU samples per
 * read-path bucket, per-line shares inside get_hold_current_qp with the
 * skid flag, off-CPU time per thread and where threads left the CPU, top
 * functions and lines, folded stacks; OpenSSL's source files named
 * relative to the measured variant's tree and resolved in it when that
 * tree is still the one measured.  See rcuprof_symbolize.h and
 * probes/README.md ("Buckets and precedence").
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rcuprof_attribute.h"

#define MAX_NAMES 512

static const char *const bucket_names[RCUPROF_BUCKET_N] = {
    "get_hold_current_qp",
    "rcu_read_lock_unlock",
    "synchronize_rcu",
    "pthread_rwlock",
    "store_biglock",
    "refcount",
    "name_hashing",
    "other"
};

const char *rcuprof_attribute_bucket_name(int bucket)
{
    if (bucket < 0 || bucket >= RCUPROF_BUCKET_N)
        return "?";
    return bucket_names[bucket];
}

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int has_suffix(const char *s, const char *x)
{
    size_t ls = strlen(s), lx = strlen(x);

    return ls >= lx && strcmp(s + ls - lx, x) == 0;
}

/* PREFIX followed by one run of [A-Za-z0-9] then SUFFIX: EVP_MD_up_ref. */
static int one_segment(const char *s, const char *prefix, const char *suffix)
{
    size_t lp = strlen(prefix), ls = strlen(s), lx = strlen(suffix), i;

    if (!has_prefix(s, prefix) || !has_suffix(s, suffix) || ls <= lp + lx)
        return 0;
    for (i = lp; i < ls - lx; i++)
        if (!isalnum((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Strip compiler clone suffixes: foo.constprop.0, foo.part.1, foo.isra. */
static void base_name(const char *fn, char *out, size_t n)
{
    const char *dot = strchr(fn, '.');
    size_t len = dot != NULL ? (size_t)(dot - fn) : strlen(fn);

    if (len >= n)
        len = n - 1;
    memcpy(out, fn, len);
    out[len] = '\0';
}

int rcuprof_attribute_match(const char *function)
{
    static const char *const rcu_read[] = {
        "ossl_rcu_read_lock", "ossl_rcu_read_unlock", NULL
    };
    static const char *const sync[] = {
        "ossl_synchronize_rcu", "update_qp", "retire_qp",
        "ossl_rcu_write_lock", "ossl_rcu_write_unlock", NULL
    };
    static const char *const biglock[] = {
        /* crypto/property/property.c */
        "ossl_property_read_lock", "ossl_property_write_lock",
        "ossl_property_unlock", "ossl_method_lock_store",
        "ossl_method_unlock_store",
        /* crypto/evp/evp_fetch.c */
        "reserve_evp_method_store", "unreserve_evp_method_store", NULL
    };
    static const char *const refcount[] = {
        "ossl_method_up_ref", "ossl_method_free", "CRYPTO_UP_REF",
        "CRYPTO_DOWN_REF", "CRYPTO_GET_REF", "ossl_provider_up_ref",
        "ossl_provider_free", "CRYPTO_atomic_add", NULL
    };
    static const char *const hash_prefix[] = {
        "ossl_namemap_", "ossl_ht_", "OPENSSL_LH_", "ossl_lh_",
        "ossl_fnv1a_hash", "namemap_", "numname_", NULL
    };
    static const char *const rwlock_prefix[] = {
        "pthread_rwlock_", "__pthread_rwlock_", "___pthread_rwlock_",
        "__GI___pthread_rwlock_", "CRYPTO_THREAD_read_lock",
        "CRYPTO_THREAD_write_lock", "CRYPTO_THREAD_unlock", NULL
    };
    char fn[256];
    int i;

    if (function == NULL)
        return -1;
    base_name(function, fn, sizeof(fn));
    if (strcmp(fn, "get_hold_current_qp") == 0)
        return RCUPROF_BUCKET_GET_HOLD_QP;
    for (i = 0; rcu_read[i] != NULL; i++)
        if (strcmp(fn, rcu_read[i]) == 0)
            return RCUPROF_BUCKET_RCU_READ;
    for (i = 0; sync[i] != NULL; i++)
        if (strcmp(fn, sync[i]) == 0)
            return RCUPROF_BUCKET_SYNC_RCU;
    for (i = 0; biglock[i] != NULL; i++)
        if (strcmp(fn, biglock[i]) == 0)
            return RCUPROF_BUCKET_BIGLOCK;
    for (i = 0; rwlock_prefix[i] != NULL; i++)
        if (has_prefix(fn, rwlock_prefix[i]))
            return RCUPROF_BUCKET_RWLOCK;
    for (i = 0; refcount[i] != NULL; i++)
        if (strcmp(fn, refcount[i]) == 0)
            return RCUPROF_BUCKET_REFCOUNT;
    if (one_segment(fn, "EVP_", "_up_ref") || one_segment(fn, "EVP_", "_free")
        || one_segment(fn, "evp_", "_up_ref")
        || one_segment(fn, "evp_", "_free"))
        return RCUPROF_BUCKET_REFCOUNT;
    for (i = 0; hash_prefix[i] != NULL; i++)
        if (has_prefix(fn, hash_prefix[i]))
            return RCUPROF_BUCKET_NAMEHASH;
    if (strcmp(fn, "OPENSSL_strcasecmp") == 0
        || strcmp(fn, "OPENSSL_strncasecmp") == 0)
        return RCUPROF_BUCKET_NAMEHASH;
    return -1;
}

int rcuprof_attribute_classify(const char *const *names, size_t n)
{
    size_t i, j;
    int b;

    for (i = 0; i < n; i++) {
        b = rcuprof_attribute_match(names[i]);
        if (b < 0)
            continue;
        /* The store's lock is an rwlock: its wait is the biglock path. */
        if (b == RCUPROF_BUCKET_RWLOCK)
            for (j = i + 1; j < n; j++)
                if (rcuprof_attribute_match(names[j])
                    == RCUPROF_BUCKET_BIGLOCK)
                    return RCUPROF_BUCKET_BIGLOCK;
        return b;
    }
    return RCUPROF_BUCKET_OTHER;
}

/* ---- source files: resolved in the measured variant's own tree ---- */

/*
 * Variant trees are built with -ffile-prefix-map=TREE=. (build.json
 * "debug_paths": "tree-relative"), so DWARF names OpenSSL's sources
 * relative to the tree the driver was built from, recorded as build.tree.
 * A path is resolved there only when that tree is still the one measured
 * (its build.json has the result's libcrypto hash); otherwise the report
 * says why and shows the tree-relative names, never a guess.
 */
struct srctree {
    const char *tree;           /* usable tree, or NULL */
    char exe[256];              /* the driver's file name, "" if unknown */
    json_t *info;               /* the report's source_tree member */
};

static int is_dir(const char *p)
{
    struct stat sb;

    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The build of a whole result (BUF is filled from its build member), or
 * NULL when only a samples member was given. */
static const struct rcuprof_attribute_build *
result_build(const json_t *result, struct rcuprof_attribute_build *buf)
{
    const json_t *build = json_object_get(result, "build");

    if (!json_is_object(build))
        return NULL;
    buf->variant = json_string_value(json_object_get(build, "variant"));
    buf->tree = json_string_value(json_object_get(build, "tree"));
    buf->libcrypto_sha256 = json_string_value(json_object_get(build,
                                                 "libcrypto_sha256"));
    return buf;
}

/* Whether TREE is still the tree of a libcrypto with hash LIB: its
 * build.json, next to it, records that hash. */
static int tree_is_measured(const char *tree, const char *lib)
{
    char bj[4096];
    size_t len = strlen(tree);
    const char *now;
    json_t *rec;
    int same;

    while (len > 1 && tree[len - 1] == '/')
        len--;
    while (len > 0 && tree[len - 1] != '/')
        len--;
    if (snprintf(bj, sizeof(bj), "%.*sbuild.json", (int)len, tree)
        >= (int)sizeof(bj))
        return 0;
    rec = json_load_file(bj, 0, NULL);
    now = json_string_value(json_object_get(rec, "libcrypto_sha256"));
    same = lib != NULL && now != NULL && strcmp(lib, now) == 0;
    json_decref(rec);
    return same;
}

static void srctree_open(struct srctree *t,
                         const struct rcuprof_attribute_build *b)
{
    const char *variant = b != NULL && b->variant != NULL
                          && b->variant[0] != '\0' ? b->variant : NULL;
    const char *tree = b != NULL && b->tree != NULL && b->tree[0] != '\0'
                       ? b->tree : NULL;
    const char *status = "ok";
    char msg[1024] = "";

    t->tree = NULL;
    /* Only the driver's relative names are the tree's (libcrypto.a is
     * linked into it); another module's are its own build's. */
    snprintf(t->exe, sizeof(t->exe), "%s%s", variant != NULL
             ? "rcuprof-stress-" : "", variant != NULL ? variant : "");
    if (b == NULL) {
        status = "unknown";
        snprintf(msg, sizeof(msg), "only a samples member was given, no "
                 "build: source files are named as the binary's debug "
                 "information names them");
    } else if (tree == NULL) {
        status = "not_recorded";
        snprintf(msg, sizeof(msg), "the result does not record its "
                 "variant's tree (a driver built before rcuprof did): source "
                 "files are named as the binary's debug information names "
                 "them, which may be another variant's tree; rebuild and "
                 "run again to resolve them");
    } else if (!is_dir(tree)) {
        status = "missing";
        snprintf(msg, sizeof(msg), "variant %s's tree %s is not on this "
                 "machine (deleted, or the result was made elsewhere): "
                 "source files are named relative to it and not opened",
                 variant != NULL ? variant : "?", tree);
    } else if (!tree_is_measured(tree, b->libcrypto_sha256)) {
        status = "changed";
        snprintf(msg, sizeof(msg), "variant %s's tree %s was rebuilt "
                 "since the run (its libcrypto.a is not the one "
                 "measured): source files are named relative to it and "
                 "not opened", variant != NULL ? variant : "?", tree);
    } else {
        t->tree = tree;
    }
    t->info = json_pack("{s:s?, s:s?, s:s, s:s?}", "variant", variant,
                        "tree", tree, "status", status,
                        "message", msg[0] != '\0' ? msg : NULL);
}

/*
 * FILE of SYM as the report names it: the driver's tree-relative names
 * without "./"; another module's relative name behind its file name
 * ("[libc.so.6]nptl/x.c"), so that it is never looked up in the tree.
 */
static const char *src_name(const struct srctree *t,
                            const struct rcuprof_symbol *sym,
                            const char *file, char *buf, size_t n)
{
    const char *base;

    if (file == NULL)
        return "?";
    while (file[0] == '.' && file[1] == '/')
        file += 2;
    if (file[0] == '/' || sym == NULL || sym->module == NULL)
        return file;
    base = strrchr(sym->module, '/');
    base = base != NULL ? base + 1 : sym->module;
    if (t->exe[0] != '\0' && strcmp(base, t->exe) == 0)
        return file;
    snprintf(buf, n, "[%s]%s", base, file);
    return buf;
}

/*
 * Where NAME (src_name's form) is on this machine: under the usable tree
 * for a relative name; itself for an absolute one that exists; else null.
 */
static json_t *src_path(const struct srctree *t, const char *name)
{
    struct stat sb;
    char p[4096];

    if (name[0] == '/')
        return stat(name, &sb) == 0 ? json_string(name) : json_null();
    if (t->tree == NULL || name[0] == '[' || strcmp(name, "?") == 0)
        return json_null();
    if (snprintf(p, sizeof(p), "%s/%s", t->tree, name) >= (int)sizeof(p))
        return json_null();
    return stat(p, &sb) == 0 ? json_string(p) : json_null();
}

/* The path of a "FILE:LINE..." key (up to the last ':' before LINE). */
static json_t *key_path(const struct srctree *t, const char *key, size_t klen)
{
    char name[4096];
    size_t i = klen;

    while (i > 0 && key[i - 1] != ':')
        i--;
    if (i == 0 || i - 1 >= sizeof(name))
        return json_null();
    memcpy(name, key, i - 1);
    name[i - 1] = '\0';
    return src_path(t, name);
}

/* ---- the report ---- */

static int parse_hex(const json_t *j, uint64_t *v)
{
    const char *s = json_string_value(j);
    char *end;

    if (s == NULL)
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 16);
    return errno != 0 || *end != '\0' ? -1 : 0;
}

static void add_count(json_t *map, const char *key, json_int_t by)
{
    json_t *v = json_object_get(map, key);

    if (v == NULL)
        json_object_set_new(map, key, json_integer(by));
    else
        json_integer_set(v, json_integer_value(v) + by);
}

/*
 * A name for an address with no inline chain: its symbol, else "[module]"
 * ("[vdso]", "[libfoo.so]"), "[kernel]" or "[unknown]".  Module labels
 * live in LABELS (a JSON object used as a string pool).
 */
static const char *sym_label(const struct rcuprof_symbol *sym, json_t *labels)
{
    const char *base;
    char buf[300];
    json_t *v;

    if (sym == NULL)
        return "[unknown]";
    if (sym->status == RCUPROF_SYM_KERNEL)
        return "[kernel]";
    if (sym->symbol != NULL)
        return sym->symbol;
    if (sym->module == NULL || labels == NULL)
        return "[unknown]";
    base = strrchr(sym->module, '/');
    base = base != NULL ? base + 1 : sym->module;
    snprintf(buf, sizeof(buf), base[0] == '[' ? "%s" : "[%s]", base);
    v = json_object_get(labels, buf);
    if (v == NULL) {
        json_object_set_new(labels, buf, json_string(buf));
        v = json_object_get(labels, buf);
    }
    return json_string_value(v);
}

struct kv {
    const char *key;
    json_int_t v;
};

static int kv_cmp(const void *a, const void *b)
{
    const struct kv *x = a, *y = b;

    if (x->v != y->v)
        return x->v < y->v ? 1 : -1;
    return strcmp(x->key, y->key);
}

/* Sorted (descending) view of a {key: integer} map; caller frees. */
static struct kv *sorted(json_t *map, size_t *n)
{
    struct kv *a = calloc(json_object_size(map) + 1, sizeof(*a));
    const char *k;
    json_t *v;
    size_t i = 0;

    if (a == NULL) {
        *n = 0;
        return NULL;
    }
    json_object_foreach(map, k, v) {
        a[i].key = k;
        a[i].v = json_integer_value(v);
        i++;
    }
    qsort(a, i, sizeof(*a), kv_cmp);
    *n = i;
    return a;
}

static double share(json_int_t part, json_int_t whole)
{
    return whole > 0 ? (double)part / (double)whole : 0.0;
}

/* One attribution in the making: the symbolizer, the source tree and
 * every count. */
struct attribution {
    const json_t *samples;
    struct srctree tree;
    struct rcuprof_symbolize *s, *own;
    uint64_t *addr;             /* the member's addresses, parsed */
    size_t naddr;
    unsigned top;
    int folded;
    json_int_t on_total, unresolved, kernel, gh_total;
    /* Samples of the get_hold_current_qp bucket whose sampled address is
     * not in its body (a function it called, the kernel): the bucket's
     * samples are gh_total + gh_callees, exactly. */
    json_int_t gh_callees;
    json_int_t bucket_on[RCUPROF_BUCKET_N];
    json_int_t bucket_off[RCUPROF_BUCKET_N];
    json_int_t bucket_sw[RCUPROF_BUCKET_N];
    /* {key: count} maps: functions, lines, folded stacks, the lines and
     * addresses inside get_hold_current_qp and their skid, where threads
     * left the CPU, on-CPU samples per thread; labels: a string pool */
    json_t *fn_map, *line_map, *folded_map, *gh_lines, *gh_addrs, *gh_skid;
    json_t *where, *thr_on, *labels;
};

static void attr_free(struct attribution *a)
{
    json_decref(a->fn_map);
    json_decref(a->line_map);
    json_decref(a->folded_map);
    json_decref(a->gh_lines);
    json_decref(a->gh_addrs);
    json_decref(a->gh_skid);
    json_decref(a->where);
    json_decref(a->thr_on);
    json_decref(a->labels);
    json_decref(a->tree.info);
    rcuprof_symbolize_free(a->own);
    free(a->addr);
}

/* The member's addresses, the symbolizer (S, or one of its own) and the
 * source tree (O's build, else a whole result's). */
static int attr_start(struct attribution *a, const json_t *samples,
                      struct rcuprof_symbolize *s,
                      const struct rcuprof_attribute_opts *o, char *errbuf,
                      size_t n)
{
    const struct rcuprof_attribute_build *build = o != NULL ? o->build
                                                            : NULL;
    struct rcuprof_attribute_build rb;
    const json_t *addrs;
    size_t i;

    memset(a, 0, sizeof(*a));
    if (json_is_object(json_object_get(samples, "samples"))) {
        if (build == NULL)
            build = result_build(samples, &rb);
        samples = json_object_get(samples, "samples");
    }
    a->samples = samples;
    a->top = o != NULL && o->top != 0 ? o->top : 20;
    a->folded = o != NULL && o->folded;
    addrs = json_object_get(samples, "addresses");
    if (!json_is_array(addrs) || !json_is_array(json_object_get(samples,
                                                                "rows"))) {
        snprintf(errbuf, n, "samples: no \"addresses\"/\"rows\": not a "
                 "result of a run with --sample (member `samples` is null?)");
        return -1;
    }
    a->naddr = json_array_size(addrs);
    a->addr = calloc(a->naddr + 1, sizeof(*a->addr));
    if (a->addr == NULL) {
        snprintf(errbuf, n, "attribution: out of memory");
        return -1;
    }
    for (i = 0; i < a->naddr; i++)
        if (parse_hex(json_array_get(addrs, i), &a->addr[i]) != 0) {
            snprintf(errbuf, n, "samples: address %zu is not a hex string",
                     i);
            return -1;
        }
    if (s == NULL) {
        if (rcuprof_symbolize_from_json(&a->own, samples, errbuf, n) != 0)
            return -1;
        s = a->own;
    }
    a->s = s;
    srctree_open(&a->tree, build);
    a->fn_map = json_object();
    a->line_map = json_object();
    a->folded_map = json_object();
    a->gh_lines = json_object();
    a->gh_addrs = json_object();
    a->gh_skid = json_object();
    a->where = json_object();
    a->thr_on = json_object();
    a->labels = json_object();
    return 0;
}

/*
 * A row's frame names, innermost first (the sampled address's inline
 * chain, then each return address's), into names[]; *leaf the sampled
 * address's symbol, *first_user the innermost one outside the kernel.
 */
static size_t row_names(struct attribution *a, const json_t *stack,
                        const char **names,
                        const struct rcuprof_symbol **leaf,
                        const struct rcuprof_symbol **first_user)
{
    size_t j, nn = 0;

    *leaf = *first_user = NULL;
    for (j = 0; j < json_array_size(stack) && nn < MAX_NAMES; j++) {
        json_int_t ix = json_integer_value(json_array_get(stack, j));
        const struct rcuprof_symbol *sym;
        unsigned f;

        if (ix < 0 || (size_t)ix >= a->naddr)
            continue;
        /* Return addresses: resolve the call, not what follows it. */
        sym = rcuprof_symbolize_addr(a->s, j == 0 ? a->addr[ix]
                                                  : a->addr[ix] - 1);
        if (j == 0)
            *leaf = sym;
        if (sym == NULL)
            continue;
        if (*first_user == NULL && sym->status != RCUPROF_SYM_KERNEL)
            *first_user = sym;
        if (sym->nframes == 0) {
            names[nn++] = sym_label(sym, a->labels);
            continue;
        }
        for (f = 0; f < sym->nframes && nn < MAX_NAMES; f++)
            names[nn++] = sym->frames[f].function;
    }
    return nn;
}

/*
 * An on-CPU sample of the get_hold_current_qp bucket: by line when its
 * sampled address is inside the inlined body, else counted as in a callee
 * (the bucket holds every sample with get_hold_current_qp the innermost
 * named frame, a kernel leaf or a called function's included).
 */
static void count_get_hold(struct attribution *a,
                           const struct rcuprof_symbol *leaf)
{
    char key[1024], nb[512];
    unsigned f = 0;

    if (leaf != NULL && leaf->status == RCUPROF_SYM_OK)
        for (f = 0; f < leaf->nframes; f++)
            if (rcuprof_attribute_match(leaf->frames[f].function)
                == RCUPROF_BUCKET_GET_HOLD_QP)
                break;
    if (leaf == NULL || leaf->status != RCUPROF_SYM_OK
        || f == leaf->nframes) {
        a->gh_callees++;
        return;
    }
    a->gh_total++;
    snprintf(key, sizeof(key), "%s:%d",
             src_name(&a->tree, leaf, leaf->frames[f].file, nb, sizeof(nb)),
             leaf->frames[f].line);
    add_count(a->gh_lines, key, 1);
    snprintf(key, sizeof(key), "0x%" PRIx64, leaf->addr);
    add_count(a->gh_addrs, key, 1);
}

/* The folded stack of names[0..nn), outermost first. */
static void count_folded(struct attribution *a, const char *const *names,
                         size_t nn)
{
    char key[1024];
    size_t len = 0, fl;

    key[0] = '\0';
    for (fl = nn; fl > 0 && len + 2 < sizeof(key); fl--) {
        int w = snprintf(key + len, sizeof(key) - len, "%s%s",
                         len > 0 ? ";" : "", names[fl - 1]);

        if (w < 0 || (size_t)w >= sizeof(key) - len)
            break;
        len += (size_t)w;
    }
    add_count(a->folded_map, key, 1);
}

/* One sample row: its bucket, and every count it adds to. */
static void attr_row(struct attribution *a, const json_t *row)
{
    const json_t *stack = json_array_get(row, 5);
    json_int_t kind = json_integer_value(json_array_get(row, 3));
    json_int_t off_ns = json_integer_value(json_array_get(row, 4));
    json_int_t thread = json_integer_value(json_array_get(row, 0));
    const struct rcuprof_symbol *leaf, *first_user;
    const char *names[MAX_NAMES];
    char key[1024], nb[512];
    size_t nn;
    int b;

    if (!json_is_array(stack))
        return;
    nn = row_names(a, stack, names, &leaf, &first_user);
    b = rcuprof_attribute_classify(names, nn);
    if (kind != 0) {
        /* A switch-out: where the thread left the CPU, for how long. */
        a->bucket_off[b] += off_ns;
        a->bucket_sw[b]++;
        snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT "\t%s\t%s",
                 thread, rcuprof_attribute_bucket_name(b),
                 first_user != NULL && first_user->nframes > 0
                 ? first_user->frames[0].function
                 : sym_label(first_user, a->labels));
        add_count(a->where, key, off_ns);
        return;
    }
    a->on_total++;
    a->bucket_on[b]++;
    snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT, thread);
    add_count(a->thr_on, key, 1);
    if (leaf != NULL && leaf->status == RCUPROF_SYM_KERNEL)
        a->kernel++;
    else if (leaf == NULL || leaf->status != RCUPROF_SYM_OK)
        a->unresolved++;
    /* self: innermost scope of the sampled address */
    add_count(a->fn_map, nn > 0 ? names[0] : "[unknown]", 1);
    if (leaf != NULL && leaf->file != NULL) {
        snprintf(key, sizeof(key), "%s:%d\t%s",
                 src_name(&a->tree, leaf, leaf->file, nb, sizeof(nb)),
                 leaf->line, nn > 0 ? names[0] : "?");
        add_count(a->line_map, key, 1);
    }
    if (b == RCUPROF_BUCKET_GET_HOLD_QP)
        count_get_hold(a, leaf);
    if (a->folded)
        count_folded(a, names, nn);
}

/* The report's head: totals, event, modules, the source tree, and the
 * warnings of both. */
static json_t *attr_head(const struct attribution *a)
{
    json_t *rep, *errors, *mods, *m;
    size_t i;

    rep = json_pack("{s:s, s:I, s:I, s:I}",
                    "schema", "rcuprof-attribution/1",
                    "on_cpu_samples", a->on_total,
                    "kernel_samples", a->kernel,
                    "unresolved_samples", a->unresolved);
    json_object_set(rep, "event", json_object_get(a->samples, "event"));
    json_object_set(rep, "totals", json_object_get(a->samples, "totals"));
    json_object_set_new(rep, "modules", rcuprof_symbolize_modules_json(a->s));
    json_object_set(rep, "source_tree", a->tree.info);
    errors = json_array();
    if (json_is_string(json_object_get(a->tree.info, "message")))
        json_array_append(errors, json_object_get(a->tree.info, "message"));
    mods = json_object_get(rep, "modules");
    json_array_foreach(mods, i, m)
        if (!json_is_null(json_object_get(m, "message")))
            json_array_append(errors, json_object_get(m, "message"));
    json_object_set_new(rep, "errors", errors);
    json_object_set_new(rep, "distinct_addresses", json_integer(
        (json_int_t)rcuprof_symbolize_resolved(a->s)));
    return rep;
}

static json_t *attr_buckets(const struct attribution *a)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < RCUPROF_BUCKET_N; i++)
        json_array_append_new(arr, json_pack(
            "{s:s, s:I, s:f, s:I, s:I}",
            "bucket", rcuprof_attribute_bucket_name((int)i),
            "samples", a->bucket_on[i],
            "share", share(a->bucket_on[i], a->on_total),
            "off_cpu_ns", a->bucket_off[i], "switch_outs", a->bucket_sw[i]));
    return arr;
}

/* get_hold_current_qp's lines and addresses, with the skid flag. */
static json_t *attr_get_hold(struct attribution *a)
{
    json_t *gh = json_pack("{s:I, s:I, s:f}", "samples", a->gh_total,
                           "in_callees", a->gh_callees,
                           "share_of_on_cpu", share(a->gh_total, a->on_total));
    json_t *la = json_array(), *aa = json_array();
    char key[1024], nb[512], nb2[512];
    size_t i, nkv;
    struct kv *kv;

    kv = sorted(a->gh_addrs, &nkv);
    for (i = 0; i < nkv; i++) {
        uint64_t ad = strtoull(kv[i].key, NULL, 16);
        const struct rcuprof_symbol *sym = rcuprof_symbolize_addr(a->s, ad);
        int skid = rcuprof_symbolize_likely_skid(a->s, ad);
        unsigned f;
        const char *lf = "?";
        int ll = 0;

        for (f = 0; sym != NULL && f < sym->nframes; f++)
            if (rcuprof_attribute_match(sym->frames[f].function)
                == RCUPROF_BUCKET_GET_HOLD_QP) {
                lf = src_name(&a->tree, sym, sym->frames[f].file, nb,
                              sizeof(nb));
                ll = sym->frames[f].line;
                break;
            }
        json_array_append_new(aa, json_pack(
            "{s:s, s:s, s:i, s:s, s:i, s:I, s:f, s:o}", "addr", kv[i].key,
            "file", lf, "line", ll,
            "innermost_file", src_name(&a->tree, sym, sym != NULL
                                       ? sym->file : NULL, nb2, sizeof(nb2)),
            "innermost_line", sym != NULL ? sym->line : 0,
            "samples", kv[i].v, "share", share(kv[i].v, a->gh_total),
            "likely_skid", skid < 0 ? json_null() : json_boolean(skid)));
        if (skid == 1) {
            snprintf(key, sizeof(key), "%s:%d", lf, ll);
            add_count(a->gh_skid, key, kv[i].v);
        }
    }
    free(kv);
    kv = sorted(a->gh_lines, &nkv);
    for (i = 0; i < nkv; i++) {
        json_t *sk = json_object_get(a->gh_skid, kv[i].key);

        json_array_append_new(la, json_pack(
            "{s:s, s:o, s:I, s:f, s:I}", "line", kv[i].key,
            "path", key_path(&a->tree, kv[i].key, strlen(kv[i].key)),
            "samples", kv[i].v, "share", share(kv[i].v, a->gh_total),
            "likely_skid_samples",
            sk != NULL ? json_integer_value(sk) : (json_int_t)0));
    }
    free(kv);
    json_object_set_new(gh, "lines", la);
    json_object_set_new(gh, "addresses", aa);
    return gh;
}

/* Where thread ID left the CPU, by off-CPU time, at most top entries. */
static json_t *left_cpu_at(const struct attribution *a, json_int_t id)
{
    json_t *wl = json_array();
    char pre[32];
    size_t j, nkv, plen;
    struct kv *kv;

    snprintf(pre, sizeof(pre), "%" JSON_INTEGER_FORMAT "\t", id);
    plen = strlen(pre);
    kv = sorted(a->where, &nkv);
    for (j = 0; j < nkv && json_array_size(wl) < a->top; j++) {
        const char *k = kv[j].key, *tab;

        if (strncmp(k, pre, plen) != 0)
            continue;
        tab = strchr(k + plen, '\t');
        if (tab == NULL)
            continue;
        json_array_append_new(wl, json_pack(
            "{s:s%, s:s, s:I}", "bucket", k + plen,
            (size_t)(tab - k - plen), "function", tab + 1,
            "off_cpu_ns", kv[j].v));
    }
    free(kv);
    return wl;
}

/* threads: on-CPU samples, off-CPU time, where they left the CPU. */
static json_t *attr_threads(const struct attribution *a)
{
    json_t *arr = json_array();
    const json_t *t;
    char key[32];
    size_t i;

    json_array_foreach(json_object_get(a->samples, "threads"), i, t) {
        json_int_t id = json_integer_value(json_object_get(t, "id"));
        json_int_t ws = json_integer_value(
            json_object_get(t, "window_start_ns"));
        json_int_t we = json_integer_value(
            json_object_get(t, "window_end_ns"));
        json_int_t off = json_integer_value(
            json_object_get(t, "off_cpu_ns"));
        json_t *on, *tj;

        snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT, id);
        on = json_object_get(a->thr_on, key);
        tj = json_pack("{s:I, s:O?, s:O?, s:I, s:I, s:O?, s:O?, s:I, s:f, "
                       "s:o}", "id", id,
                       "tid", json_object_get(t, "tid"),
                       "role", json_object_get(t, "role"),
                       "on_cpu_samples",
                       on != NULL ? json_integer_value(on) : 0,
                       "off_cpu_ns", off,
                       "switch_outs", json_object_get(t, "switch_outs"),
                       "preempted", json_object_get(t, "preempted"),
                       "window_ns", we > ws ? we - ws : 0,
                       "off_cpu_share", we > ws
                           ? (double)off / (double)(we - ws) : 0.0,
                       "left_cpu_at", left_cpu_at(a, id));
        if (tj != NULL) {
            json_object_set(tj, "off_cpu_blocked_ns",
                            json_object_get(t, "off_cpu_blocked_ns"));
            json_object_set(tj, "off_cpu_preempted_ns",
                            json_object_get(t, "off_cpu_preempted_ns"));
            json_array_append_new(arr, tj);
        }
    }
    return arr;
}

/* The top functions (by innermost scope) and the top lines. */
static json_t *attr_top_functions(const struct attribution *a)
{
    json_t *arr = json_array();
    size_t i, nkv;
    struct kv *kv = sorted(a->fn_map, &nkv);

    for (i = 0; i < nkv && i < a->top; i++)
        json_array_append_new(arr, json_pack(
            "{s:s, s:I, s:f}", "function", kv[i].key, "samples", kv[i].v,
            "share", share(kv[i].v, a->on_total)));
    free(kv);
    return arr;
}

static json_t *attr_top_lines(const struct attribution *a)
{
    json_t *arr = json_array();
    size_t i, nkv;
    struct kv *kv = sorted(a->line_map, &nkv);

    for (i = 0; i < nkv && i < a->top; i++) {
        const char *tab = strchr(kv[i].key, '\t');
        size_t kl = tab != NULL ? (size_t)(tab - kv[i].key)
                                : strlen(kv[i].key);

        json_array_append_new(arr, json_pack(
            "{s:s%, s:o, s:s, s:I, s:f}", "line", kv[i].key, kl,
            "path", key_path(&a->tree, kv[i].key, kl),
            "function", tab != NULL ? tab + 1 : "?", "samples", kv[i].v,
            "share", share(kv[i].v, a->on_total)));
    }
    free(kv);
    return arr;
}

/* Folded stacks, "outer;...;inner count", for flame graph tools. */
static json_t *attr_folded(const struct attribution *a)
{
    json_t *arr = json_array();
    size_t i, nkv;
    struct kv *kv = sorted(a->folded_map, &nkv);

    for (i = 0; i < nkv; i++) {
        char *line = NULL;

        if (asprintf(&line, "%s %" JSON_INTEGER_FORMAT, kv[i].key,
                     kv[i].v) >= 0) {
            json_array_append_new(arr, json_string(line));
            free(line);
        }
    }
    free(kv);
    return arr;
}

json_t *rcuprof_attribute(const json_t *samples, struct rcuprof_symbolize *s,
                          const struct rcuprof_attribute_opts *o,
                          char *errbuf, size_t n)
{
    struct attribution a;
    const json_t *row;
    json_t *rep;
    size_t i;

    if (attr_start(&a, samples, s, o, errbuf, n) != 0) {
        attr_free(&a);
        return NULL;
    }
    json_array_foreach(json_object_get(a.samples, "rows"), i, row)
        attr_row(&a, row);
    rep = attr_head(&a);
    json_object_set_new(rep, "buckets", attr_buckets(&a));
    json_object_set_new(rep, "get_hold_current_qp", attr_get_hold(&a));
    json_object_set_new(rep, "threads", attr_threads(&a));
    json_object_set_new(rep, "top_functions", attr_top_functions(&a));
    json_object_set_new(rep, "top_lines", attr_top_lines(&a));
    if (a.folded)
        json_object_set_new(rep, "folded", attr_folded(&a));
    attr_free(&a);
    return rep;
}
