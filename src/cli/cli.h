/* rcuprof CLI: shared declarations.  The CLI never links OpenSSL. */
#ifndef RCUPROF_CLI_H
# define RCUPROF_CLI_H

# include <stddef.h>
# include <stdint.h>
# include <stdio.h>
# include <jansson.h>

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

/* variants.c */
int rcuprof_variant_name_ok(const char *name);
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

/* run.c */
int rcuprof_cmd_run(int argc, char **argv);

/* sweep.c, compare.c, report.c (issue 9; results.h has the pure parts) */
int rcuprof_cmd_sweep(int argc, char **argv);
int rcuprof_cmd_compare(int argc, char **argv);
int rcuprof_cmd_report(int argc, char **argv);

/* explain.c (issue 10; explain.h has the pure parts) */
int rcuprof_cmd_explain(int argc, char **argv);

/* attribute.c */
int rcuprof_cmd_attribute(int argc, char **argv);
json_t *rcuprof_attribute_result(const json_t *res, unsigned top, int folded,
                                 char *err, size_t n);

/* events.c */
int rcuprof_cmd_events(int argc, char **argv);

#endif
