/*
 * ossl_rcu_read_lock() is void on OpenSSL 3.5 and returns int from 3.6 on:
 * there it fails (0) when the thread's per-thread RCU data cannot be had
 * (an allocation, or the thread-local API refused it), and the read side
 * is then NOT held: the caller must not read, and must not unlock.
 *
 * rcuprof_rcu_read_lock() is that result on every line: 1 when the read
 * side is held, 0 when it is not (never on 3.5).  Include it after
 * "internal/rcu.h" of the variant's tree.
 */
#ifndef RCUPROF_RCU_READ_H
#define RCUPROF_RCU_READ_H

#include <openssl/opensslv.h>

static inline int rcuprof_rcu_read_lock(CRYPTO_RCU_LOCK *l)
{
#if OPENSSL_VERSION_NUMBER >= 0x30600000L
    return ossl_rcu_read_lock(l) != 0;
#else
    ossl_rcu_read_lock(l);
    return 1;
#endif
}

#endif
