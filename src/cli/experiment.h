/*
 * The experiment engine (issue 27): the one measurement loop under sweep,
 * whatif and explain.  A command builds a plan (cells, blocks, groups, a
 * seed) and answers a few callbacks; the engine owns the rest:
 *
 *   plan      every block runs every cell once; a block runs its groups
 *             in order (sweep: one group per thread count), the cells of
 *             a group in an order shuffled from one stream seeded by the
 *             seed, so a longer plan starts with the shorter one
 *   measure   through an executor (executor.h): prepare() once per
 *             variant before the first measurement, run() per point; the
 *             driver's exit classified (rcuprof_protocol.h), its JSON
 *             decoded once, build.driver_protocol checked on every result
 *   file      (path non-NULL) each point appended and synced the moment it
 *             finishes, with the executor's host record; a fresh file is
 *             created at its first point, so a first point the driver
 *             refuses (usage, setup) writes nothing; --resume reopens it,
 *             checks the spec hash and skips the points it holds
 *   adaptive  after the first stage (reps blocks), a block at a time
 *             while need() says the target is not reached and the time
 *             allows; fixed blocks when the executor defers (no results)
 *   stop      LOST (transport gone): stop after what was appended, one
 *             line saying --resume finishes it
 */
#ifndef RCUPROF_EXPERIMENT_H
# define RCUPROF_EXPERIMENT_H

# include <stddef.h>
# include <stdint.h>
# include <jansson.h>

# include "cli.h"
# include "executor.h"
# include "record.h"

/* One point of the plan. */
struct rcuprof_exp_point {
    size_t cell;
    unsigned block;             /* from 0 */
    unsigned order;             /* its place in its group's shuffle */
    unsigned seq;               /* its place in the plan */
};

/* One measurement, classified and decoded once. */
struct rcuprof_exp_outcome {
    enum rcuprof_exec_rc exec;  /* RAN, or ERROR (could not start) */
    int status;                 /* RCUPROF_POINT_* (results.h) */
    int refused;                /* the driver refused the request
                                 * (RCUPROF_EXIT_REFUSED): usage or setup */
    int exited, code, timed_out; /* code: exit code or signal */
    double seconds;
    char message[1024];         /* why it failed; "" when ok */
    char *out;                  /* the driver's stdout as printed (owned) */
    char *err;                  /* the driver's stderr (owned) */
    json_t *result;             /* its JSON object (owned) or NULL */
    rcuprof_record rec;         /* result decoded (rec.ok: a measurement) */
};

/* Adaptive: what the results so far need (the command's statistics). */
struct rcuprof_exp_need {
    double worst_mde_pct;
    size_t blocks;              /* blocks the target needs */
    size_t unknown;             /* cells/rows not judged */
    int reached;                /* the target is reached now */
    char where[256];            /* the worst cell, or why there is no figure */
};

/* Why adaptive blocks stopped (rcuprof_experiment.stop). */
enum rcuprof_exp_stop_why {
    RCUPROF_EXP_STOP_NONE = 0,  /* not adaptive, or not run */
    RCUPROF_EXP_STOP_UNKNOWN,   /* need() had no figure: need.where says */
    RCUPROF_EXP_STOP_TARGET,
    RCUPROF_EXP_STOP_LIMIT,     /* blocks_max */
    RCUPROF_EXP_STOP_TIME,      /* max_time */
    RCUPROF_EXP_STOP_DEFERRED   /* the executor gives no results */
};

enum rcuprof_exp_progress {
    RCUPROF_EXP_PROGRESS_POINTS = 0, /* a line (or a bar on a tty) a point */
    RCUPROF_EXP_PROGRESS_BLOCKS      /* "CMD: block B/N done" */
};

struct rcuprof_experiment {
    /* ---- the plan builder sets these ---- */
    const char *cmd;            /* "sweep", "whatif", "explain": messages */
    struct rcuprof_executor *exec; /* NULL: the local one */
    size_t ncells;
    size_t ngroups;             /* 0 or 1: one group */
    const size_t *group;        /* per cell, ascending runs order; NULL:
                                 * every cell in group 0 */
    unsigned reps;              /* blocks; adaptive: the first stage */
    unsigned blocks_max;
    uint64_t seed;
    double timeout_s;
    double target_mde;          /* adaptive target, %; NAN: fixed blocks */
    double max_time;            /* adaptive: seconds, 0 none */
    int progress;               /* enum rcuprof_exp_progress */
    const char *dir, *path;     /* the results file; path NULL: none */
    json_t *header;             /* a fresh file's first line (borrowed) */
    void *ctx;                  /* the callbacks' */

    /* The variant of a cell and its local driver path (borrowed). */
    void (*driver)(void *ctx, size_t cell, const char **variant,
                   const char **drv);
    /* argv of a point (av[0] the driver, strings from av[1] malloc'ed,
     * NULL-terminated): argc, or -1 out of memory. */
    int (*argv)(void *ctx, const struct rcuprof_exp_point *p, char **av,
                size_t cap);
    /* Progress: what a point is ("stock", "stock write_hold+50 ns"). */
    void (*label)(void *ctx, const struct rcuprof_exp_point *p, char *buf,
                  size_t n);
    /* File mode: the point's line before the engine adds status, exit,
     * signal, seconds, message, stderr, result and host.  NULL: OOM. */
    json_t *(*line)(void *ctx, const struct rcuprof_exp_point *p);
    /* A measurement that ran (or could not start): 0, -1 out of memory,
     * or an exit code after its one line (the run stops).  Optional. */
    int (*take)(void *ctx, const struct rcuprof_exp_point *p,
                const struct rcuprof_exp_outcome *o);
    /* Adaptive: the need after `blocks` blocks; 0, or -1 (why in
     * need->where). */
    int (*need)(void *ctx, unsigned blocks, struct rcuprof_exp_need *need);
    /* Called once when the run starts (a fresh file: once it is made). */
    void (*announce)(void *ctx, size_t todo);

    /* ---- the engine's state, read after the run ---- */
    unsigned nblocks;           /* blocks planned */
    unsigned blocks_done;       /* whole blocks finished */
    struct rcuprof_exp_point *plan;
    unsigned char *done;
    size_t nplan;
    size_t todo, ran, nok, nfail, ndeferred, already;
    int fd;                     /* the results file, -1 none */
    int tty;
    enum rcuprof_exp_stop_why stop;
    struct rcuprof_exp_need stop_need; /* the figures when it stopped */
    json_t *host;               /* exec->host_record(), or NULL */
};

/* Defaults (fd -1, NAN target, the local executor); then set the plan. */
void rcuprof_exp_init(struct rcuprof_experiment *e, const char *cmd);
/* The first nblocks blocks of the plan (keeps done marks). 0 or -1 OOM. */
int rcuprof_exp_plan(struct rcuprof_experiment *e, unsigned nblocks);
/* Mark block b of cell done, extending the plan to b + 1 blocks. */
int rcuprof_exp_mark_done(struct rcuprof_experiment *e, unsigned block,
                          size_t cell);
/*
 * --resume: open and lock e->path, check its header's spec_hash against
 * hash, drop a torn last line, extend the plan to the blocks it holds and
 * mark done every point cell_of maps to a cell (returns 0).  0, or an
 * exit code after its one line.
 */
int rcuprof_exp_resume(struct rcuprof_experiment *e, const char *hash,
                       int (*cell_of)(void *ctx, const rcuprof_results *rs,
                                      const rcuprof_point *p, size_t *cell));
/*
 * Run: prepare every variant, then every point not done, in plan order;
 * then (adaptive) more blocks.  RCUPROF_OK, RCUPROF_ERR_RUN (some point
 * failed) or an exit code after its one line.  The counts and the stop
 * reason are in e.
 */
int rcuprof_exp_run(struct rcuprof_experiment *e);
void rcuprof_exp_free(struct rcuprof_experiment *e);

/*
 * One measurement through x, classified and decoded once, the protocol
 * checked.  RCUPROF_EXEC_RAN with o filled (o->exec RAN, or ERROR when the
 * driver could not start: a failed point); RCUPROF_EXEC_DEFERRED (no
 * result) or RCUPROF_EXEC_LOST (the transport's message in o->message);
 * RCUPROF_EXP_FOREIGN: a result of another driver protocol, why in
 * o->message.  Free o with rcuprof_exp_outcome_free.
 */
# define RCUPROF_EXP_FOREIGN (-2)
int rcuprof_exp_measure(struct rcuprof_executor *x, char *const argv[],
                        double timeout_s, struct rcuprof_exp_outcome *o);
void rcuprof_exp_outcome_free(struct rcuprof_exp_outcome *o);
/* The protocol of a result: 0 when it is ours, else -1 with why. */
int rcuprof_exp_protocol_check(const json_t *res, char *why, size_t n);
/*
 * For an executor, inside its run(): the experiment running (NULL when
 * the call is not the engine's) and, in file mode, the point line of the
 * measurement in flight (*line: type, block, threads, variant, order,
 * seq, and whatif's delay_ns; NULL without a results file).  A deferring
 * executor (bundle) records these with the argv, and e->header for the
 * file its import writes.  Borrowed, valid during run() only.
 */
const struct rcuprof_experiment *rcuprof_exp_current(const json_t **line);
/* Seconds as 45s, 3m05s, 1h02m ("?" when not known). */
void rcuprof_exp_fmt_dur(double s, char *buf, size_t n);

#endif
