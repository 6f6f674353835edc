/*
 * The fetch workload: one op = EVP_<TYPE>_fetch + EVP_<TYPE>_free, cycling
 * over the --fetch list, as OpenSSL's evp_fetch benchmark does (but without
 * its per-op clock call).
 */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>

typedef void *(*fetch_fn)(OSSL_LIB_CTX *, const char *, const char *);
typedef void (*free_fn)(void *);
typedef int (*is_a_fn)(const void *, const char *);
typedef const OSSL_PROVIDER *(*prov_fn)(const void *);

struct fetch_type {
    const char *name;
    fetch_fn fetch;
    free_fn free;
    is_a_fn is_a;
    prov_fn provider;
};

/* Every EVP fetch type of 3.5: data, not code. */
#define T(n, f, fr, isa, prov) \
    { n, (fetch_fn)f, (free_fn)fr, (is_a_fn)isa, (prov_fn)prov }
static const struct fetch_type fetch_types[] = {
    T("MD", EVP_MD_fetch, EVP_MD_free, EVP_MD_is_a, EVP_MD_get0_provider),
    T("CIPHER", EVP_CIPHER_fetch, EVP_CIPHER_free, EVP_CIPHER_is_a,
      EVP_CIPHER_get0_provider),
    T("MAC", EVP_MAC_fetch, EVP_MAC_free, EVP_MAC_is_a, EVP_MAC_get0_provider),
    T("KDF", EVP_KDF_fetch, EVP_KDF_free, EVP_KDF_is_a, EVP_KDF_get0_provider),
    T("RAND", EVP_RAND_fetch, EVP_RAND_free, EVP_RAND_is_a,
      EVP_RAND_get0_provider),
    T("KEM", EVP_KEM_fetch, EVP_KEM_free, EVP_KEM_is_a, EVP_KEM_get0_provider),
    T("SIGNATURE", EVP_SIGNATURE_fetch, EVP_SIGNATURE_free, EVP_SIGNATURE_is_a,
      EVP_SIGNATURE_get0_provider),
    T("KEYMGMT", EVP_KEYMGMT_fetch, EVP_KEYMGMT_free, EVP_KEYMGMT_is_a,
      EVP_KEYMGMT_get0_provider),
    T("KEYEXCH", EVP_KEYEXCH_fetch, EVP_KEYEXCH_free, EVP_KEYEXCH_is_a,
      EVP_KEYEXCH_get0_provider),
    T("ASYM_CIPHER", EVP_ASYM_CIPHER_fetch, EVP_ASYM_CIPHER_free,
      EVP_ASYM_CIPHER_is_a, EVP_ASYM_CIPHER_get0_provider),
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
    T("SKEYMGMT", EVP_SKEYMGMT_fetch, EVP_SKEYMGMT_free, EVP_SKEYMGMT_is_a,
      EVP_SKEYMGMT_get0_provider),
#endif
};

/*
 * --fetch all: one of each fetch type, post-quantum algorithms included,
 * as the default cycle.
 */
static const char fetch_all[] =
    "MD:SHA256,MD:SHA3-256,CIPHER:AES-128-GCM,CIPHER:CHACHA20-POLY1305,"
    "MAC:HMAC,KDF:HKDF,RAND:CTR-DRBG,KEYMGMT:RSA,KEYMGMT:EC,"
    "KEYMGMT:ML-KEM-768,KEYMGMT:ML-DSA-65,SIGNATURE:ECDSA,"
    "SIGNATURE:ML-DSA-65,SIGNATURE:SLH-DSA-SHA2-128s,KEM:ML-KEM-768,"
    "KEYEXCH:X25519,ASYM_CIPHER:RSA"
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
    ",SKEYMGMT:GENERIC-SECRET"
#endif
    ;
#undef T
#define N_TYPES (sizeof(fetch_types) / sizeof(fetch_types[0]))

#define MAX_ITEMS 64

struct fetch_item {
    const struct fetch_type *type;
    char alg[64];
    char provider[64];          /* the provider that answered at setup */
};

struct fetch_state {
    OSSL_LIB_CTX *ctx;
    OSSL_PROVIDER *deflt;
    const char *propq;          /* NULL for no query */
    struct fetch_item items[MAX_ITEMS];
    unsigned nitems;
};

/* Per-thread: where in the cycle this worker is. */
struct fetch_thread {
    unsigned next;
    uint64_t inject;            /* fail the op after this many (tests) */
};

static const struct fetch_type *find_type(const char *name)
{
    size_t i;

    for (i = 0; i < N_TYPES; i++)
        if (strcasecmp(fetch_types[i].name, name) == 0)
            return &fetch_types[i];
    return NULL;
}

static int parse_list(struct fetch_state *st, const char *list,
                      char *err, size_t n)
{
    char buf[sizeof(((struct rcuprof_config *)0)->fetch)];
    char *save = NULL, *tok, *colon;

    if (rcuprof_list_check("fetch", list, err, n) != 0)
        return -1;
    snprintf(buf, sizeof(buf), "%s", strcmp(list, "all") == 0 ? fetch_all : list);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        struct fetch_item *it;

        if (st->nitems == MAX_ITEMS) {
            snprintf(err, n, "--fetch lists more than %d items: shorten it",
                     MAX_ITEMS);
            return -1;
        }
        colon = strchr(tok, ':');
        if (colon == NULL || colon == tok || colon[1] == '\0') {
            snprintf(err, n, "--fetch item '%s' is not TYPE:ALG (e.g. MD:SHA256)",
                     tok);
            return -1;
        }
        *colon = '\0';
        it = &st->items[st->nitems];
        it->type = find_type(tok);
        if (it->type == NULL) {
            snprintf(err, n,
                     "unknown fetch type '%s': use MD, CIPHER, MAC, KDF, RAND, KEM, SIGNATURE, KEYMGMT, KEYEXCH, ASYM_CIPHER or SKEYMGMT (or --fetch all)",
                     tok);
            return -1;
        }
        snprintf(it->alg, sizeof(it->alg), "%s", colon + 1);
        st->nitems++;
    }
    if (st->nitems == 0) {
        snprintf(err, n, "--fetch is empty: give TYPE:ALG, e.g. MD:SHA256");
        return -1;
    }
    return 0;
}

static int fetch_setup(struct rcuprof_run *run, char *err, size_t n)
{
    struct fetch_state *st = calloc(1, sizeof(*st));
    unsigned i;

    if (st == NULL) {
        snprintf(err, n, "out of memory");
        return RCUPROF_EXIT_SYSTEM;
    }
    run->workload_state = st;
    if (parse_list(st, run->cfg.fetch, err, n) != 0)
        return RCUPROF_EXIT_USAGE;
    st->propq = run->cfg.propq[0] != '\0' ? run->cfg.propq : NULL;
    if (run->cfg.own_libctx) {
        st->ctx = OSSL_LIB_CTX_new();
        if (st->ctx == NULL) {
            snprintf(err, n, "OSSL_LIB_CTX_new failed");
            return RCUPROF_EXIT_SETUP;
        }
    }
    /* Load default explicitly: a later provider load (churn) would
     * otherwise disable its fallback loading. */
    st->deflt = OSSL_PROVIDER_load(st->ctx, "default");
    if (st->deflt == NULL) {
        snprintf(err, n, "cannot load the default provider");
        return RCUPROF_EXIT_SETUP;
    }
    for (i = 0; i < st->nitems; i++) {
        struct fetch_item *it = &st->items[i];
        void *obj = it->type->fetch(st->ctx, it->alg, st->propq);
        const OSSL_PROVIDER *prov;

        if (obj == NULL) {
            snprintf(err, n,
                     "cannot fetch %s %s%s%s: check the name (openssl list) and the property query",
                     it->type->name, it->alg, st->propq ? " with query " : "",
                     st->propq ? st->propq : "");
            return RCUPROF_EXIT_SETUP;
        }
        if (!it->type->is_a(obj, it->alg)) {
            snprintf(err, n, "fetch of %s %s returned another algorithm",
                     it->type->name, it->alg);
            it->type->free(obj);
            return RCUPROF_EXIT_SETUP;
        }
        prov = it->type->provider(obj);
        snprintf(it->provider, sizeof(it->provider), "%s",
                 prov != NULL ? OSSL_PROVIDER_get0_name(prov) : "?");
        it->type->free(obj);
    }
    return 0;
}

static int fetch_thread_init(struct rcuprof_worker *w, char *err, size_t n)
{
    struct fetch_state *st = w->run->workload_state;
    struct fetch_thread *t = calloc(1, sizeof(*t));

    if (t == NULL) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    /* Start threads at different points of the cycle. */
    t->next = w->id % st->nitems;
    /* Fault injection for the failure-path test (docs/interfaces.md):
     * worker 0's Nth fetch behaves as if it returned NULL. */
    if (w->id == 0 && getenv("RCUPROF_INJECT_FETCH_FAILURE") != NULL)
        t->inject = strtoull(getenv("RCUPROF_INJECT_FETCH_FAILURE"), NULL, 10);
    w->workload_state = t;
    return 0;
}

static int fetch_op(struct rcuprof_worker *w, char *err, size_t n)
{
    struct fetch_state *st = w->run->workload_state;
    struct fetch_thread *t = w->workload_state;
    const struct fetch_item *it = &st->items[t->next];
    void *obj = it->type->fetch(st->ctx, it->alg, st->propq);

    if (t->inject != 0 && --t->inject == 0) {
        it->type->free(obj);
        obj = NULL;
    }
    if (obj == NULL) {
        snprintf(err, n, "fetch of %s %s failed during the run",
                 it->type->name, it->alg);
        return -1;
    }
    it->type->free(obj);
    if (++t->next == st->nitems)
        t->next = 0;
    return 0;
}

static void fetch_thread_done(struct rcuprof_worker *w)
{
    free(w->workload_state);
    w->workload_state = NULL;
}

static json_t *fetch_describe(struct rcuprof_run *run)
{
    struct fetch_state *st = run->workload_state;
    json_t *items = json_array();
    unsigned i;

    for (i = 0; st != NULL && i < st->nitems; i++)
        json_array_append_new(items,
            json_pack("{s:s, s:s, s:s}", "type", st->items[i].type->name,
                      "alg", st->items[i].alg,
                      "provider", st->items[i].provider));
    return json_pack("{s:s, s:o, s:s?, s:s}", "kind", "fetch",
                     "items", items, "propq", st ? st->propq : NULL,
                     "libctx", run->cfg.own_libctx ? "own" : "default");
}

static void fetch_teardown(struct rcuprof_run *run)
{
    struct fetch_state *st = run->workload_state;

    if (st == NULL)
        return;
    if (st->deflt != NULL)
        OSSL_PROVIDER_unload(st->deflt);
    OSSL_LIB_CTX_free(st->ctx);
    free(st);
    run->workload_state = NULL;
}

/* For write churn: the lib ctx the readers fetch from. */
static OSSL_LIB_CTX *fetch_churn_libctx(const struct rcuprof_run *run)
{
    const struct fetch_state *st = run->workload_state;

    return st != NULL ? st->ctx : NULL;
}

/* For write churn: the first item, fetched with another query. */
static int fetch_churn_fetch(const struct rcuprof_run *run, const char *propq,
                             char *err, size_t n)
{
    const struct fetch_state *st = run->workload_state;
    const struct fetch_item *it = &st->items[0];
    void *obj = it->type->fetch(st->ctx, it->alg, propq);

    if (obj == NULL) {
        snprintf(err, n, "churn fetch of %s %s with query %s failed",
                 it->type->name, it->alg, propq);
        return -1;
    }
    it->type->free(obj);
    return 0;
}

const struct rcuprof_workload rcuprof_workload_fetch = {
    .name = "fetch", .setup = fetch_setup, .thread_init = fetch_thread_init,
    .op = fetch_op, .batch_ops = 1, .thread_done = fetch_thread_done,
    .describe = fetch_describe, .teardown = fetch_teardown,
    .churn_libctx = fetch_churn_libctx, .churn_fetch = fetch_churn_fetch
};
