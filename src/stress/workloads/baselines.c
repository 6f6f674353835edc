/*
 * Baseline mechanisms on the same harness as the fetch workload, so every
 * OpenSSL curve gets its floor and its neighbours from the same run:
 *   empty    nothing (the harness's own cost per op)
 *   atomic   one shared atomic counter (every op moves the line)
 *   padded   a per-thread counter on its own line (a locked RMW, no sharing)
 *   rwlock   pthread_rwlock_rdlock/unlock on one lock (stock store's read path)
 *   rcu      OpenSSL's internal ossl_rcu_read_lock/unlock (libcrypto.a)
 *   urcu     liburcu's (membarrier flavour) read lock/unlock
 *   pingpong two threads bounce one line: an op is one round trip
 *
 * Delay sites of the driver's own (docs/interfaces.md, section 3.4; the
 * delay itself and its counters: ../delay.h), each an op and a batch of
 * its own that the driver puts in place of the baseline's at set-up, so a
 * run without --delay-site runs the loops below unchanged:
 *   atomic   cas_window  load the counter, delay, compare-and-swap; a
 *                        failed swap starts again from the load and
 *                        waits again (one call per op; every attempt a
 *                        pass: passes per call > 1 when contended, and
 *                        the repeats raise the slope)
 *            outside     delay, then the op's atomic add
 *   rwlock   write_hold  write lock, delay inside the hold, unlock
 *                        (serialised)
 *            read_hold   read lock, delay inside the hold, unlock (readers
 *                        overlap)
 *            outside     delay, then read lock and unlock
 */
#define _GNU_SOURCE
#include "workloads.h"
#include "../delay.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include "internal/rcu.h"
#include "rcuprof_rcu_read.h"
#include <urcu/urcu-memb.h>

#define BARRIER() __asm__ __volatile__("" ::: "memory")

struct shared_line {
    _Alignas(RCUPROF_CACHELINE) _Atomic uint64_t v;
};

struct padded_slot {
    _Alignas(RCUPROF_CACHELINE) _Atomic uint64_t v;
};

static struct {
    struct shared_line counter;
    struct shared_line ping;
    pthread_rwlock_t rwlock;
    CRYPTO_RCU_LOCK *rcu;
    OSSL_LIB_CTX *ctx;
    struct padded_slot *slots;
} B;

static json_t *describe_simple(struct rcuprof_run *run)
{
    return json_pack("{s:s}", "kind", run->workload->name);
}

/* ---- empty ---------------------------------------------------------- */

static int empty_op(struct rcuprof_worker *w, char *e, size_t n)
{
    BARRIER();
    return 0;
}

static int empty_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    uint64_t i;

    for (i = 0; i < n; i++)
        BARRIER();  /* keeps the loop, and one iteration per op */
    return 0;
}

/* ---- atomic, padded -------------------------------------------------- */

static int atomic_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    uint64_t i;

    for (i = 0; i < n; i++)
        atomic_fetch_add(&B.counter.v, 1);
    return 0;
}

static int atomic_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return atomic_batch(w, 1, e, n);
}

/* The site's counters in locals for one batch: LOAD, then STORE. */
#define DSITE_LOAD(w, l) \
    struct rcuprof_dsite *ds_ = (w)->run->dsite; \
    struct rcuprof_dsite_local l; \
    rcuprof_dsite_load(ds_, (w)->id, &l)
#define DSITE_STORE(w, l) rcuprof_dsite_store(ds_, (w)->id, &l)

static int atomic_cas_window_batch(struct rcuprof_worker *w, uint64_t n,
                                   char *e, size_t len)
{
    uint64_t i, v;
    DSITE_LOAD(w, l);

    for (i = 0; i < n; i++) {
        v = atomic_load_explicit(&B.counter.v, memory_order_relaxed);
        rcuprof_dsite_call(ds_, &l);
        while (!atomic_compare_exchange_strong(&B.counter.v, &v, v + 1)) {
            v = atomic_load_explicit(&B.counter.v, memory_order_relaxed);
            rcuprof_dsite_pass(ds_, &l);
        }
    }
    DSITE_STORE(w, l);
    return 0;
}

static int atomic_cas_window_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return atomic_cas_window_batch(w, 1, e, n);
}

static int atomic_outside_batch(struct rcuprof_worker *w, uint64_t n,
                                char *e, size_t len)
{
    uint64_t i;
    DSITE_LOAD(w, l);

    for (i = 0; i < n; i++) {
        rcuprof_dsite_call(ds_, &l);
        atomic_fetch_add(&B.counter.v, 1);
    }
    DSITE_STORE(w, l);
    return 0;
}

static int atomic_outside_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return atomic_outside_batch(w, 1, e, n);
}

static const struct rcuprof_workload_site atomic_sites[] = {
    { "cas_window", atomic_cas_window_op, atomic_cas_window_batch },
    { "outside", atomic_outside_op, atomic_outside_batch },
    { NULL, NULL, NULL },
};

static int padded_setup(struct rcuprof_run *run, char *e, size_t n)
{
    B.slots = aligned_alloc(RCUPROF_CACHELINE,
                            sizeof(*B.slots) * run->cfg.threads);
    if (B.slots == NULL) {
        snprintf(e, n, "out of memory");
        return RCUPROF_EXIT_SYSTEM;
    }
    memset(B.slots, 0, sizeof(*B.slots) * run->cfg.threads);
    return 0;
}

static int padded_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    _Atomic uint64_t *v = &B.slots[w->id].v;
    uint64_t i;

    for (i = 0; i < n; i++)
        atomic_fetch_add(v, 1);
    return 0;
}

static int padded_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return padded_batch(w, 1, e, n);
}

static void padded_teardown(struct rcuprof_run *run)
{
    free(B.slots);
    B.slots = NULL;
}

/* ---- rwlock ---------------------------------------------------------- */

static int rwlock_setup(struct rcuprof_run *run, char *e, size_t n)
{
    if (pthread_rwlock_init(&B.rwlock, NULL) != 0) {
        snprintf(e, n, "pthread_rwlock_init failed");
        return RCUPROF_EXIT_SYSTEM;
    }
    return 0;
}

static int rwlock_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        if (pthread_rwlock_rdlock(&B.rwlock) != 0) {
            snprintf(e, l, "pthread_rwlock_rdlock failed");
            return -1;
        }
        pthread_rwlock_unlock(&B.rwlock);
    }
    return 0;
}

static int rwlock_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return rwlock_batch(w, 1, e, n);
}

/* rwlock's sites: KIND 0 write_hold, 1 read_hold, 2 outside. */
static inline int rwlock_site_batch(struct rcuprof_worker *w, uint64_t n,
                                    char *e, size_t len, int kind)
{
    uint64_t i;
    int rc = 0;
    DSITE_LOAD(w, l);

    for (i = 0; i < n; i++) {
        if (kind == 2)
            rcuprof_dsite_call(ds_, &l);
        if ((kind == 0 ? pthread_rwlock_wrlock(&B.rwlock)
                       : pthread_rwlock_rdlock(&B.rwlock)) != 0) {
            snprintf(e, len, "pthread_rwlock_%s failed",
                     kind == 0 ? "wrlock" : "rdlock");
            rc = -1;
            break;
        }
        if (kind != 2)
            rcuprof_dsite_call(ds_, &l);
        pthread_rwlock_unlock(&B.rwlock);
    }
    DSITE_STORE(w, l);
    return rc;
}

#define RWLOCK_SITE(name, kind) \
    static int rwlock_##name##_batch(struct rcuprof_worker *w, uint64_t n, \
                                     char *e, size_t len) \
    { \
        return rwlock_site_batch(w, n, e, len, kind); \
    } \
    static int rwlock_##name##_op(struct rcuprof_worker *w, char *e, \
                                  size_t len) \
    { \
        return rwlock_site_batch(w, 1, e, len, kind); \
    }
RWLOCK_SITE(write_hold, 0)
RWLOCK_SITE(read_hold, 1)
RWLOCK_SITE(outside, 2)

static const struct rcuprof_workload_site rwlock_sites[] = {
    { "write_hold", rwlock_write_hold_op, rwlock_write_hold_batch },
    { "read_hold", rwlock_read_hold_op, rwlock_read_hold_batch },
    { "outside", rwlock_outside_op, rwlock_outside_batch },
    { NULL, NULL, NULL },
};

static void rwlock_teardown(struct rcuprof_run *run)
{
    pthread_rwlock_destroy(&B.rwlock);
}

/* ---- OpenSSL RCU ------------------------------------------------------ */

/* For the 'sync' churn: writers on the baseline's own lock. */
static CRYPTO_RCU_LOCK *rcu_churn_lock(const struct rcuprof_run *run)
{
    return B.rcu;
}

static int rcu_setup(struct rcuprof_run *run, char *e, size_t n)
{
    if (run->cfg.own_libctx && (B.ctx = OSSL_LIB_CTX_new()) == NULL) {
        snprintf(e, n, "OSSL_LIB_CTX_new failed");
        return RCUPROF_EXIT_SETUP;
    }
    B.rcu = ossl_rcu_lock_new(1, B.ctx);
    if (B.rcu == NULL) {
        snprintf(e, n, "ossl_rcu_lock_new failed");
        return RCUPROF_EXIT_SETUP;
    }
    return 0;
}

static int rcu_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        if (!rcuprof_rcu_read_lock(B.rcu)) {
            snprintf(e, l, "ossl_rcu_read_lock failed (OpenSSL 3.6+: no per-thread RCU data for this thread)");
            return RCUPROF_EXIT_RUN;
        }
        ossl_rcu_read_unlock(B.rcu);
    }
    return 0;
}

static int rcu_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return rcu_batch(w, 1, e, n);
}

static void rcu_teardown(struct rcuprof_run *run)
{
    /* Threads that read are gone: their thread data is released with the
     * lib ctx (own) or at exit (default). */
    ossl_rcu_lock_free(B.rcu);
    B.rcu = NULL;
    OSSL_LIB_CTX_free(B.ctx);
    B.ctx = NULL;
}

static json_t *rcu_describe(struct rcuprof_run *run)
{
    return json_pack("{s:s, s:s}", "kind", "rcu", "libctx",
                     run->cfg.own_libctx ? "own" : "default");
}

/* ---- liburcu (membarrier flavour) ------------------------------------- */

static int urcu_thread_init(struct rcuprof_worker *w, char *e, size_t n)
{
    urcu_memb_register_thread();
    return 0;
}

static int urcu_batch(struct rcuprof_worker *w, uint64_t n, char *e, size_t l)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        urcu_memb_read_lock();
        urcu_memb_read_unlock();
    }
    return 0;
}

static int urcu_op(struct rcuprof_worker *w, char *e, size_t n)
{
    return urcu_batch(w, 1, e, n);
}

static void urcu_thread_done(struct rcuprof_worker *w)
{
    urcu_memb_unregister_thread();
}

/* ---- ping-pong ----------------------------------------------------------- */

/*
 * Thread 0 writes odd values, thread 1 answers with the next even one; an
 * op is one round trip for thread 0 and one answer for thread 1.  Waits
 * give up when the harness stops, so neither can strand the other.
 */
static int pingpong_op(struct rcuprof_worker *w, char *e, size_t n)
{
    uint64_t v = atomic_load_explicit(&B.ping.v, memory_order_acquire);
    uint64_t mine = w->id == 0 ? 1 : 0;

    while ((v & 1) != mine) {
        if (rcuprof_run_stopping(w->run))
            return 0;
        v = atomic_load_explicit(&B.ping.v, memory_order_acquire);
    }
    atomic_store_explicit(&B.ping.v, v + 1, memory_order_release);
    if (w->id == 0) {
        /* wait for the answer: the round trip */
        while (atomic_load_explicit(&B.ping.v, memory_order_acquire) == v + 1)
            if (rcuprof_run_stopping(w->run))
                return 0;
    }
    return 0;
}

static int pingpong_setup(struct rcuprof_run *run, char *e, size_t n)
{
    atomic_store(&B.ping.v, 0);
    return 0;
}

/* ds: the driver's delay sites; nolib: the library's cannot be reached. */
#define BASELINE(nm, su, ti, o, bt, bo, fx, td, de, tdn, lk, ds, nolib) \
    { .name = nm, .setup = su, .thread_init = ti, .op = o, .batch = bt, \
      .batch_ops = bo, .fixed_threads = fx, .thread_done = td, \
      .describe = de, .teardown = tdn, .churn_rcu_lock = lk, \
      .delay_sites = ds, .no_library_sites = nolib }

const struct rcuprof_workload rcuprof_baselines[] = {
    BASELINE("empty", NULL, NULL, empty_op, empty_batch, 1024, 0, NULL,
             describe_simple, NULL, NULL, NULL, 1),
    BASELINE("atomic", NULL, NULL, atomic_op, atomic_batch, 256, 0, NULL,
             describe_simple, NULL, NULL, atomic_sites, 1),
    BASELINE("padded", padded_setup, NULL, padded_op, padded_batch, 256, 0,
             NULL, describe_simple, padded_teardown, NULL, NULL, 1),
    BASELINE("rwlock", rwlock_setup, NULL, rwlock_op, rwlock_batch, 64, 0,
             NULL, describe_simple, rwlock_teardown, NULL, rwlock_sites, 1),
    BASELINE("rcu", rcu_setup, NULL, rcu_op, rcu_batch, 64, 0, NULL,
             rcu_describe, rcu_teardown, rcu_churn_lock, NULL, 0),
    BASELINE("urcu", NULL, urcu_thread_init, urcu_op, urcu_batch, 64, 0,
             urcu_thread_done, describe_simple, NULL, NULL, NULL, 1),
    /* coupled: each op waits for the partner's (stress.h) */
    { .name = "pingpong", .setup = pingpong_setup, .op = pingpong_op,
      .batch_ops = 1, .fixed_threads = 2, .describe = describe_simple,
      .no_library_sites = 1, .coupled = 1 },
};
const size_t rcuprof_nbaselines =
    sizeof(rcuprof_baselines) / sizeof(rcuprof_baselines[0]);
