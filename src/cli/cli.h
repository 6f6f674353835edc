/* rcuprof CLI: shared declarations.  The CLI never links OpenSSL. */
#ifndef RCUPROF_CLI_H
# define RCUPROF_CLI_H

# include <stddef.h>
# include <stdint.h>
# include <stdio.h>
# include <jansson.h>

# include "rcuprof_opts.h"
# include "rcuprof_util.h"

/* Exit codes of rcuprof (docs/interfaces.md, "CLI"). */
enum {
    RCUPROF_OK = 0,
    RCUPROF_ERR_RUN = 1,        /* a measurement failed */
    RCUPROF_ERR_USAGE = 2,      /* bad option, value, variant, file */
    RCUPROF_ERR_SYSTEM = 3      /* could not write, spawn, read */
};

/* command.c: print "rcuprof: <message>" as one line on stderr. */
void rcuprof_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A command's options: its own rows, and the driver's when it runs one. */
struct rcuprof_cmd_opts {
    const char *cmd;            /* "run", "variant add": the error prefix */
    const struct rcuprof_opt *rows;
    size_t n;
    void *target;               /* the struct the rows' fields are in */
    int letters;                /* short letters accepted */
    json_t *driver;             /* non-NULL: driver options given go here,
                                 * name -> value (true for a flag) */
    unsigned char *seen;        /* optional: 1 per own row given */
    int start;                  /* first argv index; 0 means 1 */
    const char *unknown;        /* NULL, or the printf format of the error
                                 * for an unknown option (one %s) */
};
/*
 * Defaults, then argv.  0: parsed, *first_arg the first operand; 1: an
 * ACTION row (--help) in *action; -1: bad input, the one-line error
 * printed ("<cmd>: ...").
 */
int rcuprof_cmd_parse(const struct rcuprof_cmd_opts *o, int argc, char **argv,
                      const struct rcuprof_opt **action, int *first_arg);
/* --metric (compare, report): the int field gets RCUPROF_METRIC_*. */
int rcuprof_cmd_opt_metric(void *target, const struct rcuprof_opt *row,
                           const char *arg, char *err, size_t n);
/* --target-mde PCT (a double field: a percentage in (0, 1000], an
 * optional trailing %) and --max-time DUR (a double field, seconds:
 * 90, 90s, 15m, 2h, 1h30m). */
int rcuprof_cmd_opt_pct(void *target, const struct rcuprof_opt *row,
                        const char *arg, char *err, size_t n);
int rcuprof_cmd_opt_duration(void *target, const struct rcuprof_opt *row,
                             const char *arg, char *err, size_t n);
/*
 * --target-mde with a first stage of reps blocks below
 * RCUPROF_FIRST_STAGE_MIN: one warning line on stderr (not an error):
 * Stein's rule then needs about twice the blocks, and a --max-time budget
 * cuts its power at the target (docs/methodology.md, "Adaptive
 * repetitions").  cmd: "sweep", "explain".
 */
# define RCUPROF_FIRST_STAGE_MIN 5
void rcuprof_cmd_warn_first_stage(const char *cmd, unsigned reps);
/*
 * A command of options only (events, variants): parse argv with o; on
 * --help print usage (one line) and o's rows; refuse any operand.  -1:
 * parsed, go on; else the exit code the command returns at once
 * (RCUPROF_OK after --help, RCUPROF_ERR_USAGE with the error printed).
 */
int rcuprof_cmd_parse_options_only(const struct rcuprof_cmd_opts *o,
                                   int argc, char **argv, const char *usage);
/* The error for an unknown option or a stray operand ARG. */
void rcuprof_cmd_unexpected(const struct rcuprof_cmd_opts *o, const char *arg);

/* variants.c */
int rcuprof_variant_name_ok(const char *name);
/* NAME@<default line> -> NAME, in place (docs/interfaces.md, section 6). */
char *rcuprof_variant_canon(char *name);
const char *rcuprof_variant_line(const char *name);
/* 0, or -1 after one error line: unknown, of a line not built, no driver. */
int rcuprof_variant_usable(const char *cmd, const char *variant,
                           const json_t *known, char *drv, size_t n);
/* Load the resolved list (build/variants.json) plus the user file. */
json_t *rcuprof_variants_load(char *err, size_t errlen);
const char *rcuprof_user_variants_path(void);
int rcuprof_cmd_variants(int argc, char **argv);
int rcuprof_cmd_variant(int argc, char **argv);
/* Add a variant to the user file at path; pure, for tests. */
int rcuprof_variant_add_to(const char *path, json_t *known, const char *name,
                           const char *base, const char *source,
                           const char **patches, size_t npatches,
                           const char *description, char *err, size_t errlen);
/* The same with --ref REF (source: a git repository); and variant remove. */
int rcuprof_variant_add_ref_to(const char *path, json_t *known,
                               const char *name, const char *base,
                               const char *source, const char *ref,
                               const char **patches, size_t npatches,
                               const char *description, char *err,
                               size_t errlen);
int rcuprof_variant_remove_from(const char *path, const json_t *known,
                                const char *name, char *err, size_t errlen);

/* driver.c: run one measurement process. */
/* Folder of the running executable (where the drivers live). */
const char *rcuprof_bindir(void);
struct rcuprof_driver_result {
    int exited;                 /* 1: exited, 0: killed by a signal */
    int status;                 /* exit code, or signal number */
    int timed_out;
    char *out;                  /* stdout, NUL-terminated */
    char *err;                  /* stderr, NUL-terminated */
    double seconds;
};
int rcuprof_driver_spawn(const char *path, char *const argv[],
                         double timeout_s, struct rcuprof_driver_result *r);
void rcuprof_driver_result_free(struct rcuprof_driver_result *r);
/* The message of the last JSON error line on stderr, or the raw text. */
void rcuprof_driver_error_message(const struct rcuprof_driver_result *r,
                                  char *buf, size_t n);
/*
 * The driver of VARIANT (in rcuprof_bindir()) into path; 0, or -1 when it
 * is not built (not executable).
 */
int rcuprof_driver_path(const char *variant, char *path, size_t n);
/*
 * argv for a driver: av[0] = path, then every driver option of opts
 * (name -> string, or true for a flag) in the table's order, as
 * "--name=value" or "--name"; NULL-terminated.  The strings from av[1] on
 * are malloc'ed (rcuprof_driver_argv_free).  The count, or -1 when out of
 * memory or past cap.
 */
int rcuprof_driver_argv(const char *path, const json_t *opts, char **av,
                        size_t cap);
void rcuprof_driver_argv_free(char **av);

/* run.c */
int rcuprof_cmd_run(int argc, char **argv);

/* sweep.c, compare.c, report.c (issue 9; results.h has the pure parts) */
int rcuprof_cmd_sweep(int argc, char **argv);
int rcuprof_cmd_compare(int argc, char **argv);
int rcuprof_cmd_report(int argc, char **argv);
/* report.c: gnuplot on PATH (into buf), or NULL; run it on DIR/SCRIPT and
 * rename each of outs' DIR/NAME.tmp into place (0), or remove them and
 * print one line prefixed with cmd (-1). */
const char *rcuprof_find_gnuplot(char *buf, size_t n);
int rcuprof_run_gnuplot(const char *cmd, const char *gp, const char *dir,
                        const char *script_name, const char *const *outs);

/*
 * sweep.c: the runs of `rcuprof whatif` (issue 17) on sweep's machinery:
 * DIR/results.jsonl (section 7) with spec.whatif {site, delays_ns}; in
 * every block and thread count each delay once, shuffled from the seed;
 * every run the driver options plus --delay-site and --delay-ns; each
 * point line `delay_ns`; adaptive with target_mde (NAN: off).  The file
 * must not exist.  0, RCUPROF_ERR_RUN (some run failed) or an exit code
 * with its one line printed (a first run refused by the driver: usage,
 * nothing written).
 */
struct rcuprof_whatif_plan {
    const char *variant, *site, *dir;
    const unsigned *threads;
    size_t nthreads;
    const unsigned *delays;
    size_t ndelays;
    unsigned reps;
    uint64_t seed, timeout;
    double target_mde, max_time;
    json_t *options;            /* the driver options (name -> value) */
    const char *host;           /* --host NAME (executor.h); NULL: local */
};
int rcuprof_sweep_whatif(const struct rcuprof_whatif_plan *p);
/* whatif.c */
int rcuprof_cmd_whatif(int argc, char **argv);
/* whatif.c: whatif's outputs (whatif.md, .json, .csv, .gp, the plot) in
 * DIR out, made again from its results file (`report WHATIF-RESULTS`);
 * 0 or an exit code, its one line printed. */
int rcuprof_whatif_report_file(const char *cmd, const char *results,
                               const char *out);

/*
 * delay_sites.c (whatif's --site/--delays, explain's --whatif-site/
 * --whatif-delays): the delays of LIST arg into d (0..100000 ns each, 2 to
 * 16 distinct): 0, or -1 after the one line "CMD: --OPT ...".  The sites
 * against the driver's build record (its --version: build.delay_sites, or
 * build.driver_delay_sites[workload] for a baseline workload): 0 (*where
 * "library" or "driver"), or an exit code after the one line naming the
 * first site it lacks and the sites it has.
 */
int rcuprof_parse_delays(const char *cmd, const char *opt, const char *arg,
                         unsigned *d, size_t *nd);
int rcuprof_delay_sites_check(const char *cmd, const char *opt,
                              const char *drv, const char *variant,
                              const char *const *sites, size_t nsites,
                              const char *workload, const char **where);

/* explain.c (issue 10; explain.h has the pure parts) */
int rcuprof_cmd_explain(int argc, char **argv);

/* attribute.c: the attribution report of a decoded result's samples (the
 * record must outlive nothing: its samples point into the result JSON). */
struct rcuprof_record_st;
int rcuprof_cmd_attribute(int argc, char **argv);
json_t *rcuprof_attribute_record(const struct rcuprof_record_st *rec,
                                 unsigned top, int folded, char *err,
                                 size_t n);

/*
 * command.c: read every path into rs: results files of rcuprof sweep of
 * one experiment (no whatif's, the same driver options), each once, every
 * line a valid point but a torn last one.  On an error prints the
 * one-line message (prefixed with cmd) and returns -1.  A torn last line
 * is said by the caller: rcuprof_results_warn_torn once the command goes
 * on, or rcuprof_results_torn's " (FILE: ...)" at the end of its error.
 */
struct rcuprof_results_st;
int rcuprof_results_load_all(struct rcuprof_results_st *rs,
                             char *const *paths, size_t n, const char *cmd);
void rcuprof_results_warn_torn(const struct rcuprof_results_st *rs);
const char *rcuprof_results_torn(const struct rcuprof_results_st *rs,
                                 char *buf, size_t n);

/*
 * command.c: what compare and report make of results files: the
 * comparison when there are several variants (t, compared), else the
 * cells of the one (t from rcuprof_table_describe); with scaling (always
 * for one variant) the scaling report of every variant.  0, or an exit
 * code with the one-line error printed.
 */
# include "results.h"
# include "scaling.h"
struct rcuprof_analysed {
    rcuprof_results rs;
    rcuprof_table t;            /* by thread count: scaling and plots */
    rcuprof_table ts;           /* by_state: by thread count and state */
    const rcuprof_table *cmp;   /* the comparison to print: &ts or &t */
    int compared;
    rcuprof_scaling *scaling;   /* per variant of t, or NULL */
    size_t nscaling;
};
/* by_state (--by-state) stratifies the comparison by machine state; it
 * needs two variants (a usage error otherwise). */
int rcuprof_cmd_analyse(const char *cmd, char *const *paths, size_t n,
                        const char *baseline, int metric, int scaling,
                        int by_state, struct rcuprof_analysed *a);
void rcuprof_analysed_free(struct rcuprof_analysed *a);
/* A JSON document as indented text with sorted keys and a final newline
 * (the writers' JSON); NULL when memory ran out.  j is not freed. */
char *rcuprof_json_text(json_t *j);

/* events.c */
int rcuprof_cmd_events(int argc, char **argv);

#endif
