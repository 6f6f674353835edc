/*
 * mac and cipher: the ops of perftools' evp_mac and evp_cipher, call for
 * call and byte for byte, so the peer's figures can be reproduced on this
 * harness; mac-rekey and cipher-rekey: ops that key the context again every
 * op (the MAC's init then also fetches its digest: they exercise the fetch
 * path).  Every call below is per op unless marked "setup" (untimed); U is
 * --updates.
 *
 *   mac, shared      setup: fetch HMAC; per thread EVP_MAC_CTX_new and
 *                    EVP_MAC_init(key 64 B, digest=SHA256).  Op:
 *                    EVP_MAC_update(32 B) x U, EVP_MAC_final,
 *                    EVP_MAC_init(ctx, NULL, 0, NULL) (the reset).
 *   mac, isolated    EVP_MAC_fetch(HMAC), EVP_MAC_CTX_new,
 *                    EVP_MAC_init(key 64 B, digest=SHA256), update(32 B) x U,
 *                    final, EVP_MAC_CTX_free, EVP_MAC_free.
 *   cipher, shared   setup: per thread EVP_CIPHER_CTX_new and
 *                    EVP_CipherInit_ex2(key, iv, encrypt).  Op:
 *                    EVP_CipherUpdate(16 B) x U, EVP_CipherFinal_ex; no reset
 *                    (the CBC chain runs on from op to op).
 *   cipher, isolated EVP_CIPHER_CTX_new, EVP_CipherInit_ex2 with the built-in
 *                    cipher object (EVP_aes_128_cbc() for AES-128-CBC: the
 *                    init fetches the implementation), update(16 B) x U,
 *                    final, EVP_CIPHER_CTX_free.
 *   mac-rekey        EVP_MAC_init(key 32 B, digest=SHA256) (fetches SHA256),
 *                    EVP_MAC_update(64 B) x U, EVP_MAC_final; isolated adds
 *                    fetch, CTX_new and the frees.
 *   cipher-rekey     EVP_EncryptInit_ex2(key, iv), EVP_EncryptUpdate(64 B)
 *                    x U, EVP_EncryptFinal_ex; isolated adds EVP_CIPHER_fetch,
 *                    CTX_new and the frees.
 *
 * Library context: perftools' evp_mac and evp_cipher use the default one
 * and load no provider, so mac and cipher do the same unless --libctx is
 * given; with --libctx own, cipher isolated fetches from that ctx itself
 * (a built-in cipher object always fetches from the default one).  The
 * rekey ops keep rcuprof's earlier behaviour (--libctx, default own; the
 * default provider loaded explicitly).
 *
 * Keys and data are fixed (docs/interfaces.md), not random as in perftools:
 * the cost does not depend on them, and the first op's output of worker 0
 * is recorded (run.workload.check) so that a test can recompute it.
 */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* The peer's sizes (perftools evp_mac.c, evp_cipher.c). */
#define PEER_MAC_KEY 64
#define PEER_MAC_DATA 32
#define PEER_CIPHER_DATA 16
/* What the check records of the first op's output, at most. */
#define CHECK_MAX 64

/* rekey: rcuprof's earlier ops, unchanged. */
static const unsigned char key[32] = "rcuprof key, 32 bytes, not real";
static const unsigned char iv[16] = "rcuprof iv 16 b";
static const unsigned char data[64] = { 1 };

struct crypto_state {
    OSSL_LIB_CTX *ctx;
    OSSL_PROVIDER *deflt;
    int mac_op;                 /* mac or mac-rekey */
    int rekey;                  /* mac-rekey or cipher-rekey */
    char alg[64];
    char digest[32];
    EVP_MAC *mac;               /* shared mode, and the MAC's name check */
    EVP_CIPHER *cipher;         /* fetched: own ctx, or the rekey op */
    const EVP_CIPHER *builtin;  /* peer cipher, default ctx */
    /* The peer ops' inputs: key[i] = i, iv[i] = 0x40 + i, data[i] = 0x80 + i */
    unsigned char pkey[PEER_MAC_KEY];
    unsigned char piv[EVP_MAX_IV_LENGTH];
    unsigned char pdata[PEER_MAC_DATA];
    size_t outmax;              /* output buffer per thread */
    /* Worker 0's first op (written by worker 0 before the barrier). */
    unsigned char check[CHECK_MAX];
    size_t check_len, check_total;
};

struct crypto_thread {
    EVP_MAC_CTX *mctx;
    EVP_CIPHER_CTX *cctx;
    unsigned char *out;         /* outmax bytes, on lines of its own */
};

static int crypto_setup(struct rcuprof_run *run, char *err, size_t n)
{
    struct crypto_state *st = calloc(1, sizeof(*st));
    const char *name = run->workload->name;
    const char *f = run->cfg.fetch, *colon = strchr(f, ':');
    const char *want;
    int own;
    size_t i;

    if (st == NULL) {
        snprintf(err, n, "out of memory");
        return RCUPROF_EXIT_SYSTEM;
    }
    run->workload_state = st;
    st->mac_op = strncmp(name, "mac", 3) == 0;
    st->rekey = strstr(name, "-rekey") != NULL;
    want = st->mac_op ? "MAC" : "CIPHER";
    if (rcuprof_list_check("fetch", f, err, n) != 0)
        return RCUPROF_EXIT_USAGE;
    /* --fetch TYPE:ALG picks the algorithm when its TYPE matches. */
    if (colon != NULL && (size_t)(colon - f) == strlen(want)
        && strncasecmp(f, want, strlen(want)) == 0)
        snprintf(st->alg, sizeof(st->alg), "%.*s", (int)strcspn(colon + 1, ","),
                 colon + 1);
    else
        snprintf(st->alg, sizeof(st->alg), "%s",
                 st->mac_op ? "HMAC"
                 : st->rekey ? "AES-256-CBC" : "AES-128-CBC");
    snprintf(st->digest, sizeof(st->digest), "SHA256");
    for (i = 0; i < sizeof(st->pkey); i++)
        st->pkey[i] = (unsigned char)i;
    for (i = 0; i < sizeof(st->piv); i++)
        st->piv[i] = (unsigned char)(0x40 + i);
    for (i = 0; i < sizeof(st->pdata); i++)
        st->pdata[i] = (unsigned char)(0x80 + i);

    own = st->rekey || run->cfg.libctx_set ? run->cfg.own_libctx : 0;
    if (own && (st->ctx = OSSL_LIB_CTX_new()) == NULL) {
        snprintf(err, n, "OSSL_LIB_CTX_new failed");
        return RCUPROF_EXIT_SETUP;
    }
    if (st->rekey)
        st->deflt = OSSL_PROVIDER_load(st->ctx, "default");
    if (st->mac_op) {
        st->mac = EVP_MAC_fetch(st->ctx, st->alg, NULL);
    } else if (!st->rekey && !own) {
        /* perftools: EVP_aes_128_cbc() / EVP_aes_256_cbc(). */
        st->builtin = EVP_get_cipherbyname(st->alg);
        if (st->builtin == NULL) {
            snprintf(err, n, "cipher %s has no built-in EVP_CIPHER object, which perftools' evp_cipher op uses: pick AES-128-CBC or AES-256-CBC, or add --libctx own",
                     st->alg);
            return RCUPROF_EXIT_SETUP;
        }
    } else {
        st->cipher = EVP_CIPHER_fetch(st->ctx, st->alg, NULL);
    }
    if (st->mac == NULL && st->cipher == NULL && st->builtin == NULL) {
        snprintf(err, n, "cannot fetch %s %s: check the name (openssl list)",
                 want, st->alg);
        return RCUPROF_EXIT_SETUP;
    }
    if (st->cipher != NULL || st->builtin != NULL) {
        const EVP_CIPHER *c = st->cipher != NULL ? st->cipher : st->builtin;
        size_t kl = (size_t)EVP_CIPHER_get_key_length(c);
        size_t il = (size_t)EVP_CIPHER_get_iv_length(c);

        if (kl > (st->rekey ? sizeof(key) : sizeof(st->pkey))
            || il > (st->rekey ? sizeof(iv) : sizeof(st->piv))) {
            snprintf(err, n,
                     "cipher %s needs a key or iv longer than %zu bytes",
                     st->alg, st->rekey ? sizeof(key) : sizeof(st->pkey));
            return RCUPROF_EXIT_SETUP;
        }
    }
    /* Every update's output, then the final block (the peer accumulates). */
    st->outmax = st->mac_op ? EVP_MAX_MD_SIZE
                 : st->rekey ? sizeof(data) + 32
                 : ((size_t)run->cfg.updates + 1) * 2 * EVP_MAX_BLOCK_LENGTH;
    return 0;
}

/* The peer's MAC op on a keyed context: updates, final, reset. */
static int mac_peer_once(const struct crypto_state *st, EVP_MAC_CTX *c,
                         unsigned updates, unsigned char *out, size_t *outl)
{
    unsigned i;

    for (i = 0; i < updates; i++)
        if (!EVP_MAC_update(c, st->pdata, PEER_MAC_DATA))
            return -1;
    if (!EVP_MAC_final(c, out, outl, EVP_MAX_MD_SIZE))
        return -1;
    return 0;
}

static int mac_peer_init(const struct crypto_state *st, EVP_MAC_CTX *c)
{
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 (char *)st->digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(c, st->pkey, PEER_MAC_KEY, params) ? 0 : -1;
}

/* The peer's cipher op on an initialised context: updates, final. */
static int cipher_peer_once(const struct crypto_state *st, EVP_CIPHER_CTX *c,
                            unsigned updates, unsigned char *out,
                            size_t *outl)
{
    int tmp, len = 0;
    unsigned i;

    for (i = 0; i < updates; i++) {
        if (!EVP_CipherUpdate(c, out + len, &tmp, st->pdata,
                              PEER_CIPHER_DATA))
            return -1;
        len += tmp;
    }
    if (!EVP_CipherFinal_ex(c, out + len, &tmp))
        return -1;
    *outl = (size_t)(len + tmp);
    return 0;
}

static int mac_once(struct crypto_state *st, EVP_MAC_CTX *c, unsigned updates,
                    unsigned char *out, size_t *outl)
{
    OSSL_PARAM params[2];
    unsigned i;

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 st->digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(c, key, sizeof(key), params))
        return -1;
    for (i = 0; i < updates; i++)
        if (!EVP_MAC_update(c, data, sizeof(data)))
            return -1;
    return EVP_MAC_final(c, out, outl, EVP_MAX_MD_SIZE) ? 0 : -1;
}

/* OUT: at least sizeof(data) + 32 bytes; each update overwrites it. */
static int cipher_once(const EVP_CIPHER *ci, EVP_CIPHER_CTX *c,
                       unsigned updates, unsigned char *out, size_t *outl)
{
    int ul = 0, fl;
    unsigned i;

    if (!EVP_EncryptInit_ex2(c, ci, key, iv, NULL))
        return -1;
    for (i = 0; i < updates; i++)
        if (!EVP_EncryptUpdate(c, out, &ul, data, sizeof(data)))
            return -1;
    if (!EVP_EncryptFinal_ex(c, out + ul, &fl))
        return -1;
    *outl = (size_t)(ul + fl);
    return 0;
}

/* One op of any of the four, into T's output buffer. */
static int crypto_do(struct crypto_state *st, struct crypto_thread *t,
                     int isolated, unsigned u, size_t *outl)
{
    int rc = -1;

    if (st->mac_op && !isolated) {
        if (st->rekey)
            return mac_once(st, t->mctx, u, t->out, outl);
        if (mac_peer_once(st, t->mctx, u, t->out, outl) != 0)
            return -1;
        return EVP_MAC_init(t->mctx, NULL, 0, NULL) ? 0 : -1;
    }
    if (!isolated) {
        if (st->rekey)
            return cipher_once(st->cipher, t->cctx, u, t->out, outl);
        return cipher_peer_once(st, t->cctx, u, t->out, outl);
    }
    if (st->mac_op) {
        EVP_MAC *m = EVP_MAC_fetch(st->ctx, st->alg, NULL);
        EVP_MAC_CTX *c = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        if (c != NULL)
            rc = st->rekey ? mac_once(st, c, u, t->out, outl)
                 : mac_peer_init(st, c) != 0 ? -1
                 : mac_peer_once(st, c, u, t->out, outl);
        EVP_MAC_CTX_free(c);
        EVP_MAC_free(m);
    } else if (st->builtin != NULL) {
        /* The peer's: the init fetches the implementation itself. */
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

        if (c != NULL && EVP_CipherInit_ex2(c, st->builtin, st->pkey, st->piv,
                                            1, NULL))
            rc = cipher_peer_once(st, c, u, t->out, outl);
        EVP_CIPHER_CTX_free(c);
    } else {
        EVP_CIPHER *ci = EVP_CIPHER_fetch(st->ctx, st->alg, NULL);
        EVP_CIPHER_CTX *c = ci != NULL ? EVP_CIPHER_CTX_new() : NULL;

        if (c != NULL)
            rc = st->rekey ? cipher_once(ci, c, u, t->out, outl)
                 : !EVP_CipherInit_ex2(c, ci, st->pkey, st->piv, 1, NULL)
                 ? -1 : cipher_peer_once(st, c, u, t->out, outl);
        EVP_CIPHER_CTX_free(c);
        EVP_CIPHER_free(ci);
    }
    return rc;
}

static int crypto_thread_init(struct rcuprof_worker *w, char *err, size_t n)
{
    struct crypto_state *st = w->run->workload_state;
    struct crypto_thread *t = calloc(1, sizeof(*t));
    size_t outl = 0, lines = (st->outmax + RCUPROF_CACHELINE - 1)
                             / RCUPROF_CACHELINE;

    if (t == NULL
        || (t->out = aligned_alloc(RCUPROF_CACHELINE,
                                   lines * RCUPROF_CACHELINE)) == NULL) {
        free(t);
        snprintf(err, n, "out of memory");
        return -1;
    }
    w->workload_state = t;
    if (!w->run->cfg.isolated) {
        if (st->mac != NULL) {
            t->mctx = EVP_MAC_CTX_new(st->mac);
            if (t->mctx != NULL && !st->rekey
                && mac_peer_init(st, t->mctx) != 0) {
                snprintf(err, n, "cannot key the %s context", st->alg);
                return -1;
            }
        } else {
            t->cctx = EVP_CIPHER_CTX_new();
            /* The peer keys it once, with the built-in object. */
            if (t->cctx != NULL && !st->rekey
                && !EVP_CipherInit_ex2(t->cctx, st->builtin != NULL
                                       ? st->builtin : st->cipher,
                                       st->pkey, st->piv, 1, NULL)) {
                snprintf(err, n, "cannot key the %s context", st->alg);
                return -1;
            }
        }
        if (t->mctx == NULL && t->cctx == NULL) {
            snprintf(err, n, "cannot make a %s context", st->alg);
            return -1;
        }
    }
    /* One op before the barrier, the same code the loop runs: its output
     * is the check a test recomputes (worker 0's only). */
    if (crypto_do(st, t, w->run->cfg.isolated, w->run->cfg.updates,
                  &outl) != 0) {
        snprintf(err, n, "%s %s failed before the run", st->mac_op ? "MAC"
                 : "cipher", st->alg);
        return -1;
    }
    if (w->id == 0) {
        st->check_total = outl;
        st->check_len = outl < CHECK_MAX ? outl : CHECK_MAX;
        memcpy(st->check, t->out, st->check_len);
    }
    return 0;
}

static int crypto_op(struct rcuprof_worker *w, char *err, size_t n)
{
    struct crypto_state *st = w->run->workload_state;
    size_t outl;
    int rc;

    rc = crypto_do(st, w->workload_state, w->run->cfg.isolated,
                   w->run->cfg.updates, &outl);
    if (rc != 0)
        snprintf(err, n, "%s %s failed during the run",
                 st->mac_op ? "MAC" : "cipher", st->alg);
    return rc;
}

static void crypto_thread_done(struct rcuprof_worker *w)
{
    struct crypto_thread *t = w->workload_state;

    if (t != NULL) {
        EVP_MAC_CTX_free(t->mctx);
        EVP_CIPHER_CTX_free(t->cctx);
        free(t->out);
        free(t);
    }
    w->workload_state = NULL;
}

/* What one op calls, in words (run.workload.calls). */
static const char *crypto_calls(const struct crypto_state *st, int isolated)
{
    if (st->mac_op && st->rekey)
        return isolated ? "EVP_MAC_fetch, EVP_MAC_CTX_new, EVP_MAC_init(key 32 B, digest), EVP_MAC_update(64 B) x updates, EVP_MAC_final, EVP_MAC_CTX_free, EVP_MAC_free"
               : "EVP_MAC_init(key 32 B, digest), EVP_MAC_update(64 B) x updates, EVP_MAC_final";
    if (st->mac_op)
        return isolated ? "EVP_MAC_fetch, EVP_MAC_CTX_new, EVP_MAC_init(key 64 B, digest), EVP_MAC_update(32 B) x updates, EVP_MAC_final, EVP_MAC_CTX_free, EVP_MAC_free"
               : "EVP_MAC_update(32 B) x updates, EVP_MAC_final, EVP_MAC_init(ctx, NULL, 0, NULL)";
    if (st->rekey)
        return isolated ? "EVP_CIPHER_fetch, EVP_CIPHER_CTX_new, EVP_EncryptInit_ex2(key, iv), EVP_EncryptUpdate(64 B) x updates, EVP_EncryptFinal_ex, EVP_CIPHER_CTX_free, EVP_CIPHER_free"
               : "EVP_EncryptInit_ex2(key, iv), EVP_EncryptUpdate(64 B) x updates, EVP_EncryptFinal_ex";
    if (!isolated)
        return "EVP_CipherUpdate(16 B) x updates, EVP_CipherFinal_ex";
    return st->builtin != NULL
           ? "EVP_CIPHER_CTX_new, EVP_CipherInit_ex2(built-in cipher, key, iv, encrypt: fetches), EVP_CipherUpdate(16 B) x updates, EVP_CipherFinal_ex, EVP_CIPHER_CTX_free"
           : "EVP_CIPHER_fetch, EVP_CIPHER_CTX_new, EVP_CipherInit_ex2(key, iv, encrypt), EVP_CipherUpdate(16 B) x updates, EVP_CipherFinal_ex, EVP_CIPHER_CTX_free, EVP_CIPHER_free";
}

static json_t *crypto_describe(struct rcuprof_run *run)
{
    struct crypto_state *st = run->workload_state;
    char hex[2 * CHECK_MAX + 1] = "";
    size_t i, key_bytes = 0;
    json_t *j;

    if (st == NULL)
        return json_pack("{s:s}", "kind", run->workload->name);
    for (i = 0; i < st->check_len; i++)
        snprintf(hex + 2 * i, 3, "%02x", st->check[i]);
    if (st->rekey)
        key_bytes = sizeof(key);
    else if (st->mac_op)
        key_bytes = PEER_MAC_KEY;
    else if (st->cipher != NULL || st->builtin != NULL)
        key_bytes = (size_t)EVP_CIPHER_get_key_length(
            st->cipher != NULL ? st->cipher : st->builtin);
    j = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:i, s:s, s:I, s:I, s:s}",
                  "kind", run->workload->name,
                  "ops_of", st->rekey ? "rcuprof (re-keyed every op)"
                  : st->mac_op ? "perftools evp_mac" : "perftools evp_cipher",
                  "alg", st->alg,
                  "digest", st->mac_op ? st->digest : NULL,
                  "mode", run->cfg.isolated ? "isolated" : "shared",
                  "updates", (int)run->cfg.updates,
                  "libctx", st->ctx != NULL ? "own" : "default",
                  "key_bytes", (json_int_t)key_bytes,
                  "data_bytes", (json_int_t)(st->rekey ? sizeof(data)
                                             : st->mac_op ? PEER_MAC_DATA
                                             : PEER_CIPHER_DATA),
                  "calls", crypto_calls(st, run->cfg.isolated));
    if (j != NULL)
        json_object_set_new(j, "check", json_pack(
            "{s:i, s:I, s:s}", "worker", 0,
            "output_bytes", (json_int_t)st->check_total,
            "output_hex", hex));
    return j;
}

static void crypto_teardown(struct rcuprof_run *run)
{
    struct crypto_state *st = run->workload_state;

    if (st == NULL)
        return;
    EVP_MAC_free(st->mac);
    EVP_CIPHER_free(st->cipher);
    OSSL_PROVIDER_unload(st->deflt);
    OSSL_LIB_CTX_free(st->ctx);
    free(st);
    run->workload_state = NULL;
}

#define CRYPTO_WORKLOAD(var, nm)                                          \
    const struct rcuprof_workload var = {                                 \
        .name = nm, .setup = crypto_setup,                                \
        .thread_init = crypto_thread_init, .op = crypto_op,               \
        .batch_ops = 1, .thread_done = crypto_thread_done,                \
        .describe = crypto_describe, .teardown = crypto_teardown          \
    }

CRYPTO_WORKLOAD(rcuprof_workload_mac, "mac");
CRYPTO_WORKLOAD(rcuprof_workload_cipher, "cipher");
CRYPTO_WORKLOAD(rcuprof_workload_mac_rekey, "mac-rekey");
CRYPTO_WORKLOAD(rcuprof_workload_cipher_rekey, "cipher-rekey");
