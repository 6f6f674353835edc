/*
 * The minimal loop beside rcuprof's mac and cipher workloads
 * (tests/bench/crypto-ops.sh): one thread makes the same calls as
 * perftools' evp_mac / evp_cipher op and reads a clock after every op, as
 * perftools does (gettimeofday, its ossl_time_now()), until the deadline.
 * Written apart from src/stress/workloads/crypto_ops.c on purpose (and
 * linked to nothing of rcuprof's, its clock included): it is the yardstick.
 *
 * usage: crypto_loop mac|cipher shared|isolated SECONDS
 *                    [UPDATES [ALG [MAXOPS]]]
 * (MAXOPS: stop after that many ops even before the deadline, for
 * instruction counts under callgrind; 0 or absent: the deadline only)
 * prints one line: "<wall us per op> <CPU us per op> <ops> <CPU ns per
 * clock read> <first output hex>" (CPU time: this thread's, so time spent
 * descheduled on a loaded machine is left out).
 *
 * Inputs are those of docs/interfaces.md (key[i] = i, iv[i] = 0x40 + i,
 * data[i] = 0x80 + i; MAC key 64 B and data 32 B, cipher data 16 B), so the
 * first output matches the driver's run.workload.check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <openssl/evp.h>

static unsigned char key[64], iv[16], data[32];
static unsigned char out[4096];
static int updates = 1;

static int mac_update_final(EVP_MAC_CTX *c, size_t *len)
{
    int i;

    for (i = 0; i < updates; i++)
        if (!EVP_MAC_update(c, data, 32))
            return 0;
    return EVP_MAC_final(c, out, len, EVP_MAX_MD_SIZE);
}

static int mac_key(EVP_MAC_CTX *c)
{
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_string("digest", "SHA256", 0),
        OSSL_PARAM_construct_end()
    };

    return EVP_MAC_init(c, key, 64, p);
}

static int cipher_update_final(EVP_CIPHER_CTX *c, size_t *len)
{
    int i, n, total = 0;

    for (i = 0; i < updates; i++) {
        if (!EVP_CipherUpdate(c, out + total, &n, data, 16))
            return 0;
        total += n;
    }
    if (!EVP_CipherFinal_ex(c, out + total, &n))
        return 0;
    *len = (size_t)(total + n);
    return 1;
}

/* The op state, set up in main. */
static int is_mac, is_isolated;
static EVP_MAC_CTX *mc;
static EVP_CIPHER_CTX *cc;
static const EVP_CIPHER *cipher;

/*
 * One op, the peer's calls.  Not inlined, so that callgrind can count its
 * instructions apart from the loop's (tests/bench/crypto-ops.sh).
 */
static __attribute__((noinline)) int loop_op(size_t *len)
{
    int ok;

    if (is_mac && !is_isolated) {
        ok = mac_update_final(mc, len) && EVP_MAC_init(mc, NULL, 0, NULL);
    } else if (is_mac) {
        EVP_MAC *mm = EVP_MAC_fetch(NULL, "HMAC", NULL);
        EVP_MAC_CTX *c = mm != NULL ? EVP_MAC_CTX_new(mm) : NULL;

        ok = c != NULL && mac_key(c) && mac_update_final(c, len);
        EVP_MAC_CTX_free(c);
        EVP_MAC_free(mm);
    } else if (!is_isolated) {
        ok = cipher_update_final(cc, len);
    } else {
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

        ok = c != NULL && EVP_CipherInit_ex2(c, cipher, key, iv, 1, NULL)
             && cipher_update_final(c, len);
        EVP_CIPHER_CTX_free(c);
    }
    return ok;
}

static double now_s(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *alg = argc > 5 ? argv[5] : NULL;
    unsigned long long maxops = argc > 6 ? strtoull(argv[6], NULL, 10) : 0;
    int mac, isolated, ok = 1;
    EVP_MAC *m = NULL;
    double secs, t0, t1, u0, u1, c0;
    struct timeval now, end;
    unsigned long long ops = 0;
    unsigned char first[64];
    size_t len = 0, first_len = 0, i;

    if (argc < 4 || (strcmp(argv[1], "mac") != 0
                     && strcmp(argv[1], "cipher") != 0)
        || (strcmp(argv[2], "shared") != 0
            && strcmp(argv[2], "isolated") != 0)
        || (secs = atof(argv[3])) <= 0) {
        fprintf(stderr, "usage: crypto_loop mac|cipher shared|isolated SECONDS [UPDATES [ALG]]\n");
        return 2;
    }
    is_mac = mac = strcmp(argv[1], "mac") == 0;
    is_isolated = isolated = strcmp(argv[2], "isolated") == 0;
    if (argc > 4 && (updates = atoi(argv[4])) < 1) {
        fprintf(stderr, "crypto_loop: UPDATES must be at least 1\n");
        return 2;
    }
    if (!mac && (size_t)updates * 16 + 32 > sizeof(out)) {
        fprintf(stderr, "crypto_loop: at most %zu updates\n",
                (sizeof(out) - 32) / 16);
        return 2;
    }
    for (i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)i;
    for (i = 0; i < sizeof(iv); i++)
        iv[i] = (unsigned char)(0x40 + i);
    for (i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)(0x80 + i);
    if (!mac && (cipher = EVP_get_cipherbyname(alg != NULL ? alg
                                               : "AES-128-CBC")) == NULL) {
        fprintf(stderr, "crypto_loop: unknown cipher\n");
        return 2;
    }

    /* Shared: keyed once, before the clock starts. */
    if (!isolated && mac)
        ok = (m = EVP_MAC_fetch(NULL, "HMAC", NULL)) != NULL
             && (mc = EVP_MAC_CTX_new(m)) != NULL && mac_key(mc);
    else if (!isolated)
        ok = (cc = EVP_CIPHER_CTX_new()) != NULL
             && EVP_CipherInit_ex2(cc, cipher, key, iv, 1, NULL);
    if (!ok) {
        fprintf(stderr, "crypto_loop: set-up failed\n");
        return 1;
    }

    t0 = now_s(CLOCK_MONOTONIC);
    u0 = now_s(CLOCK_THREAD_CPUTIME_ID);
    gettimeofday(&now, NULL);
    end.tv_sec = now.tv_sec + (time_t)secs;
    end.tv_usec = now.tv_usec + (suseconds_t)((secs - (time_t)secs) * 1e6);
    if (end.tv_usec >= 1000000) {
        end.tv_sec++;
        end.tv_usec -= 1000000;
    }
    do {
        if (!loop_op(&len)) {
            fprintf(stderr, "crypto_loop: op failed\n");
            return 1;
        }
        if (ops == 0) {
            first_len = len < sizeof(first) ? len : sizeof(first);
            memcpy(first, out, first_len);
        }
        ops++;
        gettimeofday(&now, NULL);
    } while (timercmp(&now, &end, <) && ops != maxops);
    u1 = now_s(CLOCK_THREAD_CPUTIME_ID);
    t1 = now_s(CLOCK_MONOTONIC);

    /* The clock read alone, for the gap analysis (CPU ns per call). */
    c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
    for (i = 0; i < 1000000; i++)
        gettimeofday(&now, NULL);
    c0 = (now_s(CLOCK_THREAD_CPUTIME_ID) - c0) * 1e3;

    printf("%.6f %.6f %llu %.2f ", (t1 - t0) * 1e6 / (double)ops,
           (u1 - u0) * 1e6 / (double)ops, ops, c0);
    for (i = 0; i < first_len; i++)
        printf("%02x", first[i]);
    printf("\n");
    EVP_MAC_CTX_free(mc);
    EVP_MAC_free(m);
    EVP_CIPHER_CTX_free(cc);
    return 0;
}
