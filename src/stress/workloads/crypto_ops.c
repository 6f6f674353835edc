/*
 * mac and cipher: the ops of perftools' evp_mac and evp_cipher, so their
 * figures can be reproduced on the same harness.
 *   shared    the algorithm is fetched once; each thread keeps one context
 *             and re-initialises it per op
 *   isolated  every op fetches the algorithm, makes a context, frees both
 * One op = init, --updates update calls over 64 bytes, final.
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

static const unsigned char key[32] = "rcuprof key, 32 bytes, not real";
static const unsigned char iv[16] = "rcuprof iv 16 b";
static const unsigned char data[64] = { 1 };

struct crypto_state {
    OSSL_LIB_CTX *ctx;
    OSSL_PROVIDER *deflt;
    char alg[64];
    char digest[32];
    EVP_MAC *mac;               /* shared mode */
    EVP_CIPHER *cipher;         /* shared mode */
};

struct crypto_thread {
    EVP_MAC_CTX *mctx;
    EVP_CIPHER_CTX *cctx;
};

static int is_mac(const struct rcuprof_run *run)
{
    return strcmp(run->workload->name, "mac") == 0;
}

static int crypto_setup(struct rcuprof_run *run, char *err, size_t n)
{
    struct crypto_state *st = calloc(1, sizeof(*st));
    const char *f = run->cfg.fetch, *colon = strchr(f, ':');
    const char *want = is_mac(run) ? "MAC" : "CIPHER";

    if (st == NULL) {
        snprintf(err, n, "out of memory");
        return RCUPROF_EXIT_SYSTEM;
    }
    run->workload_state = st;
    /* --fetch TYPE:ALG picks the algorithm when its TYPE matches. */
    if (colon != NULL && (size_t)(colon - f) == strlen(want)
        && strncasecmp(f, want, strlen(want)) == 0)
        snprintf(st->alg, sizeof(st->alg), "%.*s", (int)strcspn(colon + 1, ","),
                 colon + 1);
    else
        snprintf(st->alg, sizeof(st->alg), "%s",
                 is_mac(run) ? "HMAC" : "AES-256-CBC");
    snprintf(st->digest, sizeof(st->digest), "SHA256");
    if (run->cfg.own_libctx && (st->ctx = OSSL_LIB_CTX_new()) == NULL) {
        snprintf(err, n, "OSSL_LIB_CTX_new failed");
        return RCUPROF_EXIT_SETUP;
    }
    st->deflt = OSSL_PROVIDER_load(st->ctx, "default");
    if (is_mac(run))
        st->mac = EVP_MAC_fetch(st->ctx, st->alg, NULL);
    else
        st->cipher = EVP_CIPHER_fetch(st->ctx, st->alg, NULL);
    if (st->mac == NULL && st->cipher == NULL) {
        snprintf(err, n, "cannot fetch %s %s: check the name (openssl list)",
                 want, st->alg);
        return RCUPROF_EXIT_SETUP;
    }
    if (st->cipher != NULL && (size_t)EVP_CIPHER_get_key_length(st->cipher) > sizeof(key)) {
        snprintf(err, n, "cipher %s needs a key longer than 32 bytes", st->alg);
        return RCUPROF_EXIT_SETUP;
    }
    return 0;
}

static int crypto_thread_init(struct rcuprof_worker *w, char *err, size_t n)
{
    struct crypto_state *st = w->run->workload_state;
    struct crypto_thread *t = calloc(1, sizeof(*t));

    if (t == NULL) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    w->workload_state = t;
    if (w->run->cfg.isolated)
        return 0;
    if (st->mac != NULL)
        t->mctx = EVP_MAC_CTX_new(st->mac);
    else
        t->cctx = EVP_CIPHER_CTX_new();
    if (t->mctx == NULL && t->cctx == NULL) {
        snprintf(err, n, "cannot make a %s context", st->alg);
        return -1;
    }
    return 0;
}

static int mac_once(struct crypto_state *st, EVP_MAC_CTX *c, unsigned updates)
{
    OSSL_PARAM params[2];
    unsigned char out[EVP_MAX_MD_SIZE];
    size_t outl;
    unsigned i;

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 st->digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(c, key, sizeof(key), params))
        return -1;
    for (i = 0; i < updates; i++)
        if (!EVP_MAC_update(c, data, sizeof(data)))
            return -1;
    return EVP_MAC_final(c, out, &outl, sizeof(out)) ? 0 : -1;
}

static int cipher_once(const EVP_CIPHER *ci, EVP_CIPHER_CTX *c,
                       unsigned updates)
{
    unsigned char out[sizeof(data) + 32];
    int outl;
    unsigned i;

    if (!EVP_EncryptInit_ex2(c, ci, key, iv, NULL))
        return -1;
    for (i = 0; i < updates; i++)
        if (!EVP_EncryptUpdate(c, out, &outl, data, sizeof(data)))
            return -1;
    return EVP_EncryptFinal_ex(c, out, &outl) ? 0 : -1;
}

static int crypto_op(struct rcuprof_worker *w, char *err, size_t n)
{
    struct crypto_state *st = w->run->workload_state;
    struct crypto_thread *t = w->workload_state;
    unsigned u = w->run->cfg.updates;
    int rc;

    if (!w->run->cfg.isolated) {
        rc = st->mac != NULL ? mac_once(st, t->mctx, u)
                             : cipher_once(st->cipher, t->cctx, u);
    } else if (st->mac != NULL) {
        EVP_MAC *m = EVP_MAC_fetch(st->ctx, st->alg, NULL);
        EVP_MAC_CTX *c = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        rc = c != NULL ? mac_once(st, c, u) : -1;
        EVP_MAC_CTX_free(c);
        EVP_MAC_free(m);
    } else {
        EVP_CIPHER *ci = EVP_CIPHER_fetch(st->ctx, st->alg, NULL);
        EVP_CIPHER_CTX *c = ci != NULL ? EVP_CIPHER_CTX_new() : NULL;

        rc = c != NULL ? cipher_once(ci, c, u) : -1;
        EVP_CIPHER_CTX_free(c);
        EVP_CIPHER_free(ci);
    }
    if (rc != 0)
        snprintf(err, n, "%s %s failed during the run", st->mac ? "MAC" : "cipher",
                 st->alg);
    return rc;
}

static void crypto_thread_done(struct rcuprof_worker *w)
{
    struct crypto_thread *t = w->workload_state;

    if (t != NULL) {
        EVP_MAC_CTX_free(t->mctx);
        EVP_CIPHER_CTX_free(t->cctx);
        free(t);
    }
    w->workload_state = NULL;
}

static json_t *crypto_describe(struct rcuprof_run *run)
{
    struct crypto_state *st = run->workload_state;

    return json_pack("{s:s, s:s, s:s?, s:s, s:i, s:s}", "kind",
                     run->workload->name, "alg", st ? st->alg : "",
                     "digest", st && st->mac ? st->digest : NULL,
                     "mode", run->cfg.isolated ? "isolated" : "shared",
                     "updates", (int)run->cfg.updates,
                     "libctx", run->cfg.own_libctx ? "own" : "default");
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

const struct rcuprof_workload rcuprof_workload_mac = {
    .name = "mac", .setup = crypto_setup, .thread_init = crypto_thread_init,
    .op = crypto_op, .batch_ops = 1, .thread_done = crypto_thread_done,
    .describe = crypto_describe, .teardown = crypto_teardown
};

const struct rcuprof_workload rcuprof_workload_cipher = {
    .name = "cipher", .setup = crypto_setup, .thread_init = crypto_thread_init,
    .op = crypto_op, .batch_ops = 1, .thread_done = crypto_thread_done,
    .describe = crypto_describe, .teardown = crypto_teardown
};
