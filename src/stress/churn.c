/*
 * Write churn: writer threads beside the measured readers, so the method
 * store's writers run while readers fetch (docs/interfaces.md, --churn).
 *   query     fetch the readers' first algorithm with a unique optional
 *             property query (?rcuprof.churn=<n>): a cache miss, biglock,
 *             ossl_method_store_fetch and ossl_method_store_cache_set
 *   provider  load base, fetch SEED-SRC from it, unload: the first fetch of
 *             an operation from a provider reaches ossl_method_store_add,
 *             the unload ossl_method_store_remove_all_provided
 *   flush     load and unload the null provider: activation 0 -> 1 flushes
 *             the whole cache (ossl_method_store_cache_flush_all)
 *   sync      (rcu baseline) write lock, unlock, ossl_synchronize_rcu on the
 *             baseline's lock: the writer that flips reader_idx
 * Never EVP_set_default_properties: it is not thread-safe in stock OpenSSL.
 * Pacing (--write-rate) sleeps in the writers only; readers never pace.
 *
 * What the writers act on comes from the workload (churn_libctx,
 * churn_fetch, churn_rcu_lock in struct rcuprof_workload).  Churn is a
 * tool of the run (rcuprof_hooks.h): its run_window counts the writes
 * inside the window, and each writer calls every tool's writer_start on its
 * own thread (the sampler opens the writer's events there).
 */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "internal/rcu.h"

enum kind { K_QUERY, K_PROVIDER, K_FLUSH, K_SYNC, K_N };
static const char *const kind_names[K_N] = { "query", "provider", "flush", "sync" };

struct writer {
    _Alignas(RCUPROF_CACHELINE) uint64_t writes[K_N];  /* in the window */
    uint64_t failures;
    char error[256];
    pthread_t th;
    unsigned id;
    struct rcuprof_churn *c;
};

struct rcuprof_churn {
    struct rcuprof_tool tool;   /* run_window: see churn_window */
    struct rcuprof_run *run;
    enum kind kinds[K_N];
    unsigned nkinds;
    unsigned nwriters;
    uint64_t interval_ns;       /* per writer, 0 = unpaced */
    _Alignas(RCUPROF_CACHELINE) _Atomic int stop;
    _Atomic int counting;
    _Atomic uint64_t seq;       /* unique query numbers across writers */
    uint64_t open_ns, close_ns;
    struct writer *w;
    int joined;                 /* _stop joined the writers */
};

static int write_once(struct rcuprof_churn *c, enum kind k, char *err,
                      size_t n)
{
    const struct rcuprof_workload *wl = c->run->workload;
    OSSL_LIB_CTX *ctx = wl->churn_libctx != NULL
                        ? wl->churn_libctx(c->run) : NULL;
    char q[64];

    switch (k) {
    case K_QUERY:
        snprintf(q, sizeof(q), "?rcuprof.churn=%llu",
                 (unsigned long long)atomic_fetch_add(&c->seq, 1));
        return wl->churn_fetch(c->run, q, err, n);
    case K_PROVIDER: {
        OSSL_PROVIDER *p = OSSL_PROVIDER_try_load(ctx, "base", 1);
        EVP_RAND *r;

        if (p == NULL) {
            snprintf(err, n, "churn: cannot load the base provider");
            return -1;
        }
        r = EVP_RAND_fetch(ctx, "SEED-SRC", "provider=base");
        EVP_RAND_free(r);
        OSSL_PROVIDER_unload(p);
        if (r == NULL) {
            snprintf(err, n, "churn: SEED-SRC not fetched from base");
            return -1;
        }
        return 0;
    }
    case K_FLUSH: {
        OSSL_PROVIDER *p = OSSL_PROVIDER_try_load(ctx, "null", 1);

        if (p == NULL) {
            snprintf(err, n, "churn: cannot load the null provider");
            return -1;
        }
        OSSL_PROVIDER_unload(p);
        return 0;
    }
    case K_SYNC: {
        CRYPTO_RCU_LOCK *l = wl->churn_rcu_lock(c->run);

        ossl_rcu_write_lock(l);
        ossl_rcu_write_unlock(l);
        ossl_synchronize_rcu(l);    /* after unlock: it takes the lock too */
        return 0;
    }
    default:
        return -1;
    }
}

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    struct rcuprof_churn *c = w->c;
    struct rcuprof_run *run = c->run;
    uint64_t next = rcuprof_time_mono_ns(), i = w->id;
    unsigned t;

    /* The tools' set-up on this writer's thread (the sampler samples the
     * writers too: that is where ossl_synchronize_rcu runs). */
    for (t = 0; t < run->ntools; t++)
        if (run->tools[t]->writer_start != NULL
            && run->tools[t]->writer_start(run->tools[t], &run->view, w->id,
                                           w->error, sizeof(w->error)) != 0)
            w->failures++;

    while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
        enum kind k = c->kinds[i++ % c->nkinds];

        if (write_once(c, k, w->error, sizeof(w->error)) != 0)
            w->failures++;
        else if (atomic_load_explicit(&c->counting, memory_order_relaxed))
            w->writes[k]++;
        if (c->interval_ns != 0) {
            struct timespec ts;

            next += c->interval_ns;
            ts.tv_sec = (time_t)(next / 1000000000ull);
            ts.tv_nsec = (long)(next % 1000000000ull);
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)
                   == EINTR)
                ;
        }
    }
    return NULL;
}

static int parse_kinds(struct rcuprof_churn *c, const char *list,
                       int rcu_baseline, char *err, size_t n)
{
    char buf[128], *save = NULL, *tok;
    int k;

    if (rcuprof_list_check("churn", list, err, n) != 0)
        return -1;
    snprintf(buf, sizeof(buf), "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        for (k = 0; k < K_N; k++)
            if (strcmp(tok, kind_names[k]) == 0)
                break;
        if (k == K_N) {
            snprintf(err, n, "--churn '%s': use query, provider, flush (fetch) or sync (rcu)",
                     tok);
            return -1;
        }
        if ((k == K_SYNC) != rcu_baseline) {
            snprintf(err, n, rcu_baseline
                     ? "--churn %s needs --workload fetch; the rcu baseline takes --churn sync"
                     : "--churn %s needs --workload rcu", tok);
            return -1;
        }
        c->kinds[c->nkinds++] = (enum kind)k;
        if (c->nkinds == K_N)
            break;
    }
    if (c->nkinds == 0) {
        snprintf(err, n, "--churn is empty: give query, provider or flush");
        return -1;
    }
    return 0;
}

/* run_window: count the writes inside the run's window only. */
static void churn_window(struct rcuprof_tool *tool,
                         const struct rcuprof_run_view *view, int open)
{
    struct rcuprof_churn *c = rcuprof_container_of(tool, struct rcuprof_churn,
                                                   tool);

    if (open)
        c->open_ns = rcuprof_time_mono_ns();
    else
        c->close_ns = rcuprof_time_mono_ns();
    atomic_store(&c->counting, open);
}

static void churn_release(struct rcuprof_churn *c)
{
    if (c != NULL)
        free(c->w);
    free(c);
}

int rcuprof_churn_start(struct rcuprof_run *run, struct rcuprof_churn **out,
                        char *err, size_t n)
{
    const struct rcuprof_config *cfg = &run->cfg;
    const struct rcuprof_workload *wl = run->workload;
    int fetch = wl->churn_fetch != NULL && wl->churn_libctx != NULL;
    int rcu = wl->churn_rcu_lock != NULL;
    const char *kinds = cfg->churn;
    struct rcuprof_churn *c;
    unsigned i;

    *out = NULL;
    if (cfg->writers == 0 && cfg->write_rate == 0) {
        /* No writers: still refuse a --churn that cannot apply. */
        struct rcuprof_churn probe = { 0 };

        if (strcmp(kinds, "query") == 0)
            return 0;
        return parse_kinds(&probe, kinds, rcu, err, n) != 0
               ? RCUPROF_EXIT_USAGE : 0;
    }
    if (!fetch && !rcu) {
        snprintf(err, n, "--writers/--write-rate need --workload fetch or rcu (not %s)",
                 wl->name);
        return RCUPROF_EXIT_USAGE;
    }
    if (rcu && strcmp(kinds, "query") == 0)
        kinds = "sync";         /* the default list means "the natural one" */
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        snprintf(err, n, "out of memory");
        return RCUPROF_EXIT_SYSTEM;
    }
    c->tool.run_window = churn_window;
    c->run = run;
    if (parse_kinds(c, kinds, rcu, err, n) != 0) {
        churn_release(c);
        return RCUPROF_EXIT_USAGE;
    }
    c->nwriters = cfg->writers != 0 ? cfg->writers : 1;
    if (cfg->write_rate != 0)
        c->interval_ns = 1000000000ull * c->nwriters / cfg->write_rate;
    c->w = aligned_alloc(RCUPROF_CACHELINE, sizeof(*c->w) * c->nwriters);
    if (c->w == NULL || rcuprof_run_add_tool(run, &c->tool) != 0) {
        snprintf(err, n, c->w == NULL ? "out of memory"
                 : "too many tools registered for one run");
        churn_release(c);
        return RCUPROF_EXIT_SYSTEM;
    }
    *out = c;
    memset(c->w, 0, sizeof(*c->w) * c->nwriters);
    for (i = 0; i < c->nwriters; i++) {
        c->w[i].id = i;
        c->w[i].c = c;
        if (pthread_create(&c->w[i].th, NULL, writer_main, &c->w[i]) != 0) {
            c->nwriters = i;    /* _stop joins the ones that started */
            snprintf(err, n, "cannot create writer thread %u", i);
            return RCUPROF_EXIT_SYSTEM;
        }
    }
    return 0;
}

void rcuprof_churn_stop(struct rcuprof_churn *c)
{
    unsigned i;

    if (c == NULL || c->joined)
        return;
    atomic_store(&c->stop, 1);
    for (i = 0; i < c->nwriters; i++)
        pthread_join(c->w[i].th, NULL);
    c->joined = 1;
}

void rcuprof_churn_free(struct rcuprof_churn *c)
{
    churn_release(c);
}

json_t *rcuprof_churn_json(const struct rcuprof_churn *c)
{
    uint64_t tot[K_N] = { 0 }, all = 0, fails = 0;
    json_t *kinds, *by, *j;
    const char *err = NULL;
    double secs;
    unsigned i, k;

    if (c == NULL)
        return json_null();
    kinds = json_array();
    by = json_object();
    for (i = 0; i < c->nwriters; i++) {
        for (k = 0; k < K_N; k++)
            tot[k] += c->w[i].writes[k];
        fails += c->w[i].failures;
        if (c->w[i].failures != 0 && err == NULL)
            err = c->w[i].error;
    }
    for (i = 0; i < c->nkinds; i++) {
        k = c->kinds[i];
        json_array_append_new(kinds, json_string(kind_names[k]));
        json_object_set_new(by, kind_names[k], json_integer((json_int_t)tot[k]));
        all += tot[k];
    }
    secs = c->close_ns > c->open_ns ? (double)(c->close_ns - c->open_ns) / 1e9 : 0;
    j = json_pack("{s:o, s:i, s:I, s:I, s:o, s:f, s:f, s:I}",
                  "kinds", kinds, "writers", (int)c->nwriters,
                  "write_rate_target", (json_int_t)c->run->cfg.write_rate,
                  "writes", (json_int_t)all, "writes_by_kind", by,
                  "window_s", secs,
                  "writes_per_s", secs > 0 ? (double)all / secs : 0.0,
                  "failures", (json_int_t)fails);
    json_object_set_new(j, "first_failure", err ? json_string(err) : json_null());
    return j;
}
