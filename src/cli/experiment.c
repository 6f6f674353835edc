/* The experiment engine (experiment.h): one measurement loop. */
#define _GNU_SOURCE
#include "experiment.h"
#include "rcuprof_protocol.h"
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXP_ARGV_CAP 72

/* The experiment and point line in flight (rcuprof_exp_current). */
static const struct rcuprof_experiment *cur_exp;
static json_t *cur_line;

const struct rcuprof_experiment *rcuprof_exp_current(const json_t **line)
{
    if (line != NULL)
        *line = cur_line;
    return cur_exp;
}

void rcuprof_exp_fmt_dur(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);

    if (!(s >= 0) || s > 1e7)
        snprintf(buf, n, "?");
    else if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

/* ---------------------------------------------------------------------- */
/* One measurement                                                         */

int rcuprof_exp_protocol_check(const json_t *res, char *why, size_t n)
{
    const json_t *v = json_object_get(json_object_get(res, "build"),
                                      "driver_protocol");

    if (json_is_integer(v) && json_integer_value(v) == RCUPROF_DRIVER_PROTOCOL)
        return 0;
    if (json_is_integer(v))
        snprintf(why, n, "the driver speaks protocol %lld, this rcuprof %d: rebuild the drivers and rcuprof from one tree",
                 (long long)json_integer_value(v), RCUPROF_DRIVER_PROTOCOL);
    else
        snprintf(why, n, "the driver's result has no build.driver_protocol (this rcuprof speaks %d): rebuild the drivers and rcuprof from one tree",
                 RCUPROF_DRIVER_PROTOCOL);
    return -1;
}

void rcuprof_exp_outcome_free(struct rcuprof_exp_outcome *o)
{
    json_decref(o->result);
    free(o->out);
    free(o->err);
    o->result = NULL;
    o->out = o->err = NULL;
}

int rcuprof_exp_measure(struct rcuprof_executor *x, char *const argv[],
                        double timeout_s, struct rcuprof_exp_outcome *o)
{
    struct rcuprof_driver_result r;
    enum rcuprof_exec_rc xr;

    memset(o, 0, sizeof(*o));
    rcuprof_record_init(&o->rec);
    memset(&r, 0, sizeof(r));
    xr = x->run(x, argv, timeout_s, &r);
    if (xr == RCUPROF_EXEC_DEFERRED || xr == RCUPROF_EXEC_LOST) {
        o->exec = xr;
        if (xr == RCUPROF_EXEC_LOST && r.err != NULL)
            rcuprof_driver_error_message(&r, o->message, sizeof(o->message));
        rcuprof_driver_result_free(&r);
        return xr;
    }
    o->exec = xr == RCUPROF_EXEC_RAN ? RCUPROF_EXEC_RAN : RCUPROF_EXEC_ERROR;
    if (xr != RCUPROF_EXEC_RAN) {
        rcuprof_driver_result_free(&r);
        o->exited = 1;
        o->code = 127;
        o->status = RCUPROF_POINT_FAILED;
        o->err = strdup("{\"error\":\"system\",\"message\":\"cannot start the driver\"}");
        snprintf(o->message, sizeof(o->message), "cannot start the driver");
        return RCUPROF_EXEC_RAN;
    }
    o->exited = r.exited;
    o->code = r.status;
    o->timed_out = r.timed_out;
    o->seconds = r.seconds;
    rcuprof_driver_error_message(&r, o->message, sizeof(o->message));
    if (r.timed_out) {
        o->status = RCUPROF_POINT_TIMEOUT;
        snprintf(o->message, sizeof(o->message),
                 "timed out after %.0f s and was killed", timeout_s);
    } else if (!r.exited) {
        o->status = RCUPROF_POINT_CRASHED;
        if (o->message[0] == '\0')
            snprintf(o->message, sizeof(o->message), "killed by signal %d",
                     r.status);
    } else if (r.status != RCUPROF_EXIT_OK) {
        o->status = RCUPROF_POINT_FAILED;
        o->refused = RCUPROF_EXIT_REFUSED(r.status);
        if (o->message[0] == '\0')
            snprintf(o->message, sizeof(o->message),
                     "exit %d without a message", r.status);
    } else {
        o->result = json_loads(r.out != NULL ? r.out : "", 0, NULL);
        if (!json_is_object(o->result)) {
            json_decref(o->result);
            o->result = NULL;
            o->status = RCUPROF_POINT_FAILED;
            snprintf(o->message, sizeof(o->message),
                     "the driver printed no valid JSON");
        } else if (rcuprof_exp_protocol_check(o->result, o->message,
                                              sizeof(o->message)) != 0) {
            o->err = r.err;
            o->out = r.out;
            r.err = r.out = NULL;
            rcuprof_driver_result_free(&r);
            return RCUPROF_EXP_FOREIGN;
        } else {
            rcuprof_record_decode(o->result, &o->rec);
            if (!o->rec.ok) {
                /* The one rule (record.h): kept, not a measurement. */
                o->status = RCUPROF_POINT_FAILED;
                snprintf(o->message, sizeof(o->message),
                         "the driver's result is not a measurement: %s",
                         o->rec.why);
            } else {
                o->status = RCUPROF_POINT_OK;
                o->message[0] = '\0';
            }
        }
    }
    o->err = r.err != NULL ? r.err : strdup("");
    o->out = r.out != NULL ? r.out : strdup("");
    r.err = r.out = NULL;
    rcuprof_driver_result_free(&r);
    return RCUPROF_EXEC_RAN;
}

/* ---------------------------------------------------------------------- */
/* The plan                                                                */

void rcuprof_exp_init(struct rcuprof_experiment *e, const char *cmd)
{
    memset(e, 0, sizeof(*e));
    e->cmd = cmd;
    e->fd = -1;
    e->target_mde = NAN;
    e->blocks_max = 10000;
}

int rcuprof_exp_plan(struct rcuprof_experiment *e, unsigned nblocks)
{
    size_t ng = e->ngroups > 0 ? e->ngroups : 1, g, i, k = 0, m;
    size_t total = (size_t)nblocks * e->ncells;
    struct rcuprof_exp_point *np;
    unsigned char *nd;
    size_t *perm;
    uint64_t st = e->seed;
    unsigned b;

    np = calloc(total + 1, sizeof(*np));
    nd = calloc(total + 1, 1);
    perm = calloc(e->ncells + 1, sizeof(*perm));
    if (np == NULL || nd == NULL || perm == NULL) {
        free(np);
        free(nd);
        free(perm);
        return -1;
    }
    for (b = 0; b < nblocks; b++)
        for (g = 0; g < ng; g++) {
            for (i = m = 0; i < e->ncells; i++)
                if (e->group == NULL ? g == 0 : e->group[i] == g)
                    perm[m++] = i;
            rcuprof_rand_shuffle(perm, m, &st);
            for (i = 0; i < m; i++, k++) {
                np[k].cell = perm[i];
                np[k].block = b;
                np[k].order = (unsigned)i;
                np[k].seq = (unsigned)k;
                nd[k] = k < e->nplan && e->done[k];
            }
        }
    free(perm);
    free(e->plan);
    free(e->done);
    e->plan = np;
    e->done = nd;
    e->nplan = k;
    e->nblocks = nblocks;
    return 0;
}

int rcuprof_exp_mark_done(struct rcuprof_experiment *e, unsigned block,
                          size_t cell)
{
    size_t k;

    if (block >= e->nblocks && rcuprof_exp_plan(e, block + 1) != 0)
        return -1;
    for (k = (size_t)block * e->ncells;
         k < (size_t)(block + 1) * e->ncells && k < e->nplan; k++)
        if (e->plan[k].cell == cell)
            e->done[k] = 1;
    return 0;
}

void rcuprof_exp_free(struct rcuprof_experiment *e)
{
    free(e->plan);
    free(e->done);
    e->plan = NULL;
    e->done = NULL;
    json_decref(e->host);
    e->host = NULL;
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
}

/* ---------------------------------------------------------------------- */
/* The results file                                                        */

static int append_json(int fd, json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII), *t;
    size_t len;
    int rc;

    if (s == NULL)
        return -1;
    len = strlen(s);
    t = realloc(s, len + 2);
    if (t == NULL) {
        free(s);
        return -1;
    }
    t[len] = '\n';
    t[len + 1] = '\0';
    rc = rcuprof_write_synced(fd, t, len + 1);
    free(t);
    return rc;
}

/* The driver's stderr as printable ASCII (it may hold any bytes). */
static json_t *clean_text(const char *s, size_t max)
{
    size_t n = s != NULL ? strlen(s) : 0, i;
    char *c;
    json_t *j;

    if (n > max)
        n = max;
    if ((c = malloc(n + 1)) == NULL)
        return json_null();
    for (i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];

        c[i] = (u >= 0x20 && u < 0x7f) || u == '\n' || u == '\t' ? (char)u : '?';
    }
    c[n] = '\0';
    j = json_string(c);
    free(c);
    return j != NULL ? j : json_null();
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static void clear_line(const struct rcuprof_experiment *e)
{
    if (e->tty)
        fputs("\r\033[K", stderr);
}

/* A fresh file: the folder, the file (locked) and its header. */
static int exp_create(struct rcuprof_experiment *e)
{
    int wr;

    if (mkdir(e->dir, 0755) != 0 && errno != EEXIST) {
        clear_line(e);
        rcuprof_err("%s: cannot create %s (%s): check the parent folder exists and is writable",
                    e->cmd, e->dir, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    e->fd = open(e->path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL
                 | O_CLOEXEC, 0644);
    if (e->fd < 0 || flock(e->fd, LOCK_EX | LOCK_NB) != 0) {
        clear_line(e);
        rcuprof_err("%s: cannot create %s (%s): check the folder is writable and no other sweep uses it",
                    e->cmd, e->path, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    wr = e->header != NULL ? append_json(e->fd, e->header) : -1;
    if (wr != 0) {
        clear_line(e);
        rcuprof_err("%s: cannot write %s (%s): check the disk", e->cmd,
                    e->path, strerror(errno));
        unlink(e->path);
        return RCUPROF_ERR_SYSTEM;
    }
    fsync_dir(e->dir);
    return 0;
}

int rcuprof_exp_resume(struct rcuprof_experiment *e, const char *hash,
                       int (*cell_of)(void *ctx, const rcuprof_results *rs,
                                      const rcuprof_point *p, size_t *cell))
{
    rcuprof_results prev;
    const char *old;
    char err[1024];
    size_t i, cell;
    int rc = RCUPROF_ERR_USAGE;

    memset(&prev, 0, sizeof(prev));
    e->fd = open(e->path, O_RDWR | O_APPEND | O_CLOEXEC);
    if (e->fd < 0) {
        rcuprof_err("%s: cannot open %s (%s): check its permissions",
                    e->cmd, e->path, strerror(errno));
        return RCUPROF_ERR_SYSTEM;
    }
    if (flock(e->fd, LOCK_EX | LOCK_NB) != 0) {
        rcuprof_err("%s: another sweep is writing %s: wait for it to finish",
                    e->cmd, e->path);
        return RCUPROF_ERR_USAGE;
    }
    if (rcuprof_results_read(&prev, e->path, err, sizeof(err)) != 0) {
        rcuprof_err("%s: --resume: %s", e->cmd, err);
        goto out;
    }
    old = json_string_value(json_object_get(prev.files[0].header,
                                            "spec_hash"));
    if (old == NULL || strcmp(old, hash) != 0) {
        rcuprof_err("%s: --resume: the spec differs from the one in %s (variants, threads, reps, driver options, seed or rcuprof version): give the same options, or only --out and --resume",
                    e->cmd, e->path);
        goto out;
    }
    if (prev.files[0].torn) {
        if (ftruncate(e->fd, (off_t)prev.files[0].good_len) != 0
            || fsync(e->fd) != 0) {
            rcuprof_err("%s: cannot truncate the torn last line of %s (%s): check the disk",
                        e->cmd, e->path, strerror(errno));
            rc = RCUPROF_ERR_SYSTEM;
            goto out;
        }
        fprintf(stderr, "rcuprof: warning: %s: dropped a torn last line (an interrupted write)\n",
                e->path);
    }
    if (prev.files[0].n_corrupt > 0)
        fprintf(stderr, "rcuprof: warning: %s: %zu corrupt line(s) skipped, the first at line %zu; those points run again\n",
                e->path, prev.files[0].n_corrupt,
                prev.files[0].first_corrupt);
    /* An adaptive run's file may hold blocks beyond the first stage. */
    for (i = 0; i < prev.npoints; i++) {
        const rcuprof_point *p = &prev.points[i];

        if (p->block >= e->blocks_max
            || cell_of(e->ctx, &prev, p, &cell) != 0)
            continue;
        if (rcuprof_exp_mark_done(e, p->block, cell) != 0) {
            rcuprof_err("%s: out of memory", e->cmd);
            rc = RCUPROF_ERR_SYSTEM;
            goto out;
        }
    }
    rc = 0;
 out:
    rcuprof_results_free(&prev);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Running                                                                 */

static void progress(const struct rcuprof_experiment *e,
                     const struct rcuprof_exp_point *p, const char *what,
                     double eta)
{
    char t[32], arm[160] = "";
    int i, width = 24;
    size_t done = e->ran + e->ndeferred, total = e->todo;
    int fill = total ? (int)(width * done / total) : width;

    if (e->progress != RCUPROF_EXP_PROGRESS_POINTS)
        return;
    rcuprof_exp_fmt_dur(eta, t, sizeof(t));
    if (e->label != NULL)
        e->label(e->ctx, p, arm, sizeof(arm));
    if (e->tty) {
        fputc('\r', stderr);
        fputc('[', stderr);
        for (i = 0; i < width; i++)
            fputc(i < fill ? '#' : '.', stderr);
        fprintf(stderr, "] %zu/%zu block %u/%u %s%s%s eta %s\033[K",
                done, total, p->block + 1, e->nblocks, arm,
                what[0] ? ": " : "", what, t);
        fflush(stderr);
    } else if (what[0]) {
        fprintf(stderr, "%s: %zu/%zu block %u/%u %s: %s, eta %s\n",
                e->cmd, done, total, p->block + 1, e->nblocks, arm, what, t);
    }
}

/* Prepare every variant of the plan once, before anything runs. */
static int exp_prepare(struct rcuprof_experiment *e)
{
    const char **seen = calloc(e->ncells + 1, sizeof(*seen));
    size_t i, j, ns = 0;
    char err[1024];

    if (seen == NULL) {
        rcuprof_err("%s: out of memory", e->cmd);
        return RCUPROF_ERR_SYSTEM;
    }
    for (i = 0; i < e->ncells; i++) {
        const char *v = NULL, *drv = NULL;

        e->driver(e->ctx, i, &v, &drv);
        for (j = 0; j < ns && strcmp(seen[j], v) != 0; j++)
            ;
        if (j < ns)
            continue;
        seen[ns++] = v;
        err[0] = '\0';
        if (e->exec->prepare(e->exec, v, drv, err, sizeof(err)) != 0) {
            rcuprof_err("%s: %s", e->cmd, err[0] ? err : "the host refused the driver");
            free(seen);
            return RCUPROF_ERR_USAGE;
        }
    }
    free(seen);
    if (e->exec->host_record != NULL)
        e->host = e->exec->host_record(e->exec);
    return 0;
}

/* The point's line with the outcome's members (file mode). */
static json_t *point_line(struct rcuprof_experiment *e,
                          const struct rcuprof_exp_point *p,
                          struct rcuprof_exp_outcome *o, json_int_t start)
{
    json_t *line = e->line(e->ctx, p);

    if (line == NULL)
        return NULL;
    if (json_object_get(line, "start_unix_ns") != NULL)
        json_object_set_new(line, "start_unix_ns", json_integer(start));
    json_object_set_new(line, "status",
                        json_string(rcuprof_point_status_name(o->status)));
    json_object_set_new(line, "exit", o->exited && !o->timed_out
                        ? json_integer(o->code) : json_null());
    json_object_set_new(line, "signal", !o->exited && !o->timed_out
                        ? json_integer(o->code) : json_null());
    json_object_set_new(line, "seconds", json_real(o->seconds));
    json_object_set_new(line, "message", o->status == RCUPROF_POINT_OK
                        ? json_null()
                        : clean_text(o->message, sizeof(o->message)));
    if (o->status != RCUPROF_POINT_OK)
        json_object_set_new(line, "stderr", clean_text(o->err, 4096));
    json_object_set_new(line, "result", o->result != NULL
                        ? json_incref(o->result) : json_null());
    if (e->host != NULL)
        json_object_set(line, "host", e->host);
    return line;
}

static int exp_lost(struct rcuprof_experiment *e, const char *msg)
{
    clear_line(e);
    if (e->path != NULL)
        rcuprof_err("%s: %s %s: the connection was lost%s%s%s: stopped with %zu point(s) in %s; '--resume' finishes it",
                    e->cmd, e->exec->kind, e->exec->name, msg[0] ? " (" : "",
                    msg, msg[0] ? ")" : "", e->already + e->ran, e->path);
    else
        rcuprof_err("%s: %s %s: the connection was lost%s%s%s: nothing of this run is kept; run it again",
                    e->cmd, e->exec->kind, e->exec->name, msg[0] ? " (" : "",
                    msg[0] ? msg : "", msg[0] ? ")" : "");
    return RCUPROF_ERR_SYSTEM;
}

/* One point: measured, appended (file mode), taken; what it was into
 * what.  0 or an exit code. */
static int exp_point(struct rcuprof_experiment *e, size_t k, char *what,
                     size_t wn)
{
    const struct rcuprof_exp_point *p = &e->plan[k];
    char *av[EXP_ARGV_CAP];
    struct rcuprof_exp_outcome o;
    json_int_t start = (json_int_t)rcuprof_time_real_ns();
    int ac, mr, rc = 0;

    ac = e->argv(e->ctx, p, av, EXP_ARGV_CAP - 8);
    if (ac < 0) {
        clear_line(e);
        rcuprof_err("%s: out of memory", e->cmd);
        return RCUPROF_ERR_SYSTEM;
    }
    cur_exp = e;
    cur_line = e->path != NULL ? e->line(e->ctx, p) : NULL;
    mr = rcuprof_exp_measure(e->exec, av, e->timeout_s, &o);
    json_decref(cur_line);
    cur_line = NULL;
    cur_exp = NULL;
    rcuprof_driver_argv_free(av);
    if (mr == RCUPROF_EXEC_LOST) {
        rc = exp_lost(e, o.message);
        rcuprof_exp_outcome_free(&o);
        return rc;
    }
    if (mr == RCUPROF_EXP_FOREIGN) {
        const char *v = NULL, *drv = NULL;

        e->driver(e->ctx, p->cell, &v, &drv);
        clear_line(e);
        rcuprof_err("%s: %s: %s", e->cmd, v, o.message);
        rcuprof_exp_outcome_free(&o);
        return RCUPROF_ERR_USAGE;
    }
    if (mr == RCUPROF_EXEC_DEFERRED) {
        e->done[k] = 1;
        e->ndeferred++;
        snprintf(what, wn, "deferred to %s %s", e->exec->kind,
                 e->exec->name);
        return 0;
    }
    /* The first point of a fresh run decides whether there is a file: a
     * request the driver refuses is the options' fault: nothing written. */
    if (o.refused && e->fd < 0 && e->ran == 0 && e->already == 0) {
        clear_line(e);
        rcuprof_err("%s: %s", e->cmd, o.message[0] ? o.message
                    : "the driver refused the options");
        rcuprof_exp_outcome_free(&o);
        return RCUPROF_ERR_USAGE;
    }
    if (e->path != NULL) {
        json_t *line = point_line(e, p, &o, start);

        if (line == NULL) {
            rcuprof_exp_outcome_free(&o);
            clear_line(e);
            rcuprof_err("%s: out of memory", e->cmd);
            return RCUPROF_ERR_SYSTEM;
        }
        if (e->fd < 0) {
            if ((rc = exp_create(e)) != 0) {
                json_decref(line);
                rcuprof_exp_outcome_free(&o);
                return rc;
            }
            if (e->announce != NULL)
                e->announce(e->ctx, e->todo);
        }
        if (append_json(e->fd, line) != 0) {
            clear_line(e);
            rcuprof_err("%s: cannot append to %s (%s): check the disk, then --resume",
                        e->cmd, e->path, strerror(errno));
            json_decref(line);
            rcuprof_exp_outcome_free(&o);
            return RCUPROF_ERR_SYSTEM;
        }
        json_decref(line);
    }
    e->done[k] = 1;
    e->ran++;
    if (o.status == RCUPROF_POINT_OK) {
        e->nok++;
        snprintf(what, wn, "ok, %.1f ns/op", o.rec.wall_ns_per_op);
    } else {
        e->nfail++;
        snprintf(what, wn, "%s (%.100s)",
                 rcuprof_point_status_name(o.status), o.message);
    }
    if (e->take != NULL && (rc = e->take(e->ctx, p, &o)) != 0) {
        rcuprof_exp_outcome_free(&o);
        if (rc < 0) {
            clear_line(e);
            rcuprof_err("%s: out of memory", e->cmd);
            return RCUPROF_ERR_SYSTEM;
        }
        return rc;
    }
    rcuprof_exp_outcome_free(&o);
    return 0;
}

/* Every point not done, in plan order.  0 or an exit code. */
static int exp_run_plan(struct rcuprof_experiment *e, double t0)
{
    size_t k, n;
    int rc;

    for (k = 0; k < e->nplan; k++) {
        const struct rcuprof_exp_point *p = &e->plan[k];
        char what[160];
        double eta;

        if (e->done[k])
            continue;
        n = e->ran + e->ndeferred;
        eta = n ? (rcuprof_time_mono_s() - t0) / (double)n
                  * (double)(e->todo - n) : -1;
        progress(e, p, "", eta);
        what[0] = '\0';
        if ((rc = exp_point(e, k, what, sizeof(what))) != 0)
            return rc;
        n = e->ran + e->ndeferred;
        eta = (rcuprof_time_mono_s() - t0) / (double)n
              * (double)(e->todo - n);
        progress(e, p, what, eta);
        if ((k + 1) % e->ncells == 0) {
            if (p->block + 1 > e->blocks_done)
                e->blocks_done = p->block + 1;
            if (e->progress == RCUPROF_EXP_PROGRESS_BLOCKS)
                fprintf(stderr, "%s: block %u/%u done\n", e->cmd,
                        p->block + 1,
                        p->block + 1 > e->reps ? p->block + 1 : e->reps);
        }
    }
    return 0;
}

/*
 * Adaptive: after the first stage, one more block at a time while need()
 * says the target is not reached and the next block fits in max_time.
 * 0 or an exit code; why it stopped in e->stop.
 */
static int exp_adapt(struct rcuprof_experiment *e, double t0)
{
    size_t per_block = e->ncells;
    double t_adapt = rcuprof_time_mono_s(), block_s = NAN;
    unsigned added = 0;
    int rc;

    for (;;) {
        struct rcuprof_exp_need *need = &e->stop_need;
        double elapsed = rcuprof_time_mono_s() - t0, eta;
        char t[32];

        memset(need, 0, sizeof(*need));
        if (e->need(e->ctx, e->nblocks, need) != 0) {
            e->stop = RCUPROF_EXP_STOP_UNKNOWN;
            return 0;
        }
        if (added > 0)
            block_s = (rcuprof_time_mono_s() - t_adapt) / added;
        else if (e->ran >= per_block)
            block_s = elapsed / ((double)e->ran / (double)per_block);
        eta = need->blocks > e->nblocks && isfinite(block_s)
              ? block_s * (double)(need->blocks - e->nblocks) : 0;
        if (e->max_time > 0 && eta > e->max_time - elapsed)
            eta = fmax(0, e->max_time - elapsed);
        rcuprof_exp_fmt_dur(isfinite(block_s) ? eta : -1, t, sizeof(t));
        fprintf(stderr, "%s%s: adaptive: %u blocks, worst MDE %.1f%% (%s), target %.3g%%: %zu blocks needed%s, eta %s\n",
                e->tty ? "\r\033[K" : "", e->cmd, e->nblocks,
                need->worst_mde_pct, need->where, e->target_mde,
                need->blocks, need->blocks > e->blocks_max
                ? " (more than the limit)" : "", t);
        if (need->reached) {
            e->stop = RCUPROF_EXP_STOP_TARGET;
            return 0;
        }
        if (e->nblocks >= e->blocks_max) {
            e->stop = RCUPROF_EXP_STOP_LIMIT;
            return 0;
        }
        if (e->max_time > 0
            && (elapsed >= e->max_time
                || (isfinite(block_s) && elapsed + block_s > e->max_time))) {
            e->stop = RCUPROF_EXP_STOP_TIME;
            return 0;
        }
        if (rcuprof_exp_plan(e, e->nblocks + 1) != 0) {
            rcuprof_err("%s: out of memory", e->cmd);
            return RCUPROF_ERR_SYSTEM;
        }
        e->todo += per_block;
        if ((rc = exp_run_plan(e, t0)) != 0)
            return rc;
        added++;
    }
}

int rcuprof_exp_run(struct rcuprof_experiment *e)
{
    double t0;
    size_t k;
    int rc;

    if (e->exec == NULL)
        e->exec = rcuprof_executor_local();
    if (e->nplan == 0 && rcuprof_exp_plan(e, e->reps) != 0) {
        rcuprof_err("%s: out of memory", e->cmd);
        return RCUPROF_ERR_SYSTEM;
    }
    e->todo = e->already = 0;
    for (k = 0; k < e->nplan; k++)
        e->todo += !e->done[k];
    e->already = e->nplan - e->todo;
    e->tty = e->progress == RCUPROF_EXP_PROGRESS_POINTS && isatty(2);
    if ((rc = exp_prepare(e)) != 0)
        return rc;
    /* A fresh file is announced once its first point is in, so a refused
     * run prints its one error line only. */
    if ((e->path == NULL || e->fd >= 0) && e->announce != NULL)
        e->announce(e->ctx, e->todo);
    t0 = rcuprof_time_mono_s();
    rc = exp_run_plan(e, t0);
    if (rc == 0 && isfinite(e->target_mde) && e->need != NULL) {
        if (e->ndeferred > 0) {
            /* Nothing to judge: the executor keeps the results. */
            e->stop = RCUPROF_EXP_STOP_DEFERRED;
            fprintf(stderr, "%s%s: adaptive: %s %s runs the points later, so no block can be judged here: fixed %u blocks\n",
                    e->tty ? "\r\033[K" : "", e->cmd, e->exec->kind,
                    e->exec->name, e->nblocks);
        } else if (e->path == NULL || e->fd >= 0) {
            rc = exp_adapt(e, t0);
        }
    }
    if (rc == 0 && e->tty && e->todo > 0)
        fputc('\n', stderr);
    if (rc != 0)
        return rc;
    return e->nfail > 0 ? RCUPROF_ERR_RUN : RCUPROF_OK;
}
