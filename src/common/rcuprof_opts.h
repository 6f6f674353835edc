/*
 * Options as rows, after Linux perf's builtin-stat.c stat_options[]: each
 * row binds a name, a short letter, a kind with its range, a default, the
 * field it sets and its help text.  One parse loop (rcuprof_opts_parse,
 * getopt_long underneath) and one help printer (rcuprof_opts_help) serve
 * the stress driver and every rcuprof command.
 *
 * The driver options are the rows of rcuprof_opts.def: the driver parses
 * them into its struct rcuprof_config; the CLI takes the same rows without
 * a target (rcuprof_driver_opts[]) and passes each one given on to the
 * driver (a group with a pass function), checking numbers and choices with
 * the driver's own messages first.
 */
#ifndef RCUPROF_OPTS_H
# define RCUPROF_OPTS_H

# include <stddef.h>
# include <stdint.h>
# include <stdio.h>

enum rcuprof_opt_kind {
    RCUPROF_OPT_UINT,           /* whole number in [lo, hi]; field 4 or 8 bytes */
    RCUPROF_OPT_SECONDS,        /* the same, counted in seconds (its message) */
    RCUPROF_OPT_TEXT,           /* copied into a char array field */
    RCUPROF_OPT_STRING,         /* the field (const char *) points at argv */
    RCUPROF_OPT_CHOICE,         /* one of meta's two words "a|b": the int
                                 * field gets lo for a, hi for b */
    RCUPROF_OPT_FLAG,           /* no value: the int field becomes 1 */
    RCUPROF_OPT_CALLBACK,       /* fn parses it into the target */
    RCUPROF_OPT_ACTION          /* no value: parsing stops here (--help) */
};

struct rcuprof_opt;

/* A CALLBACK row's parser: 0, or -1 with a one-line message in err. */
typedef int (*rcuprof_opt_fn)(void *target, const struct rcuprof_opt *row,
                              const char *arg, char *err, size_t n);

struct rcuprof_opt {
    int kind;                   /* enum rcuprof_opt_kind */
    const char *name;           /* long name; NULL: short letter only */
    int ch;                     /* short letter, or 0 */
    const char *meta;           /* the value's name in --help */
    const char *def;            /* default, applied by rcuprof_opts_defaults
                                 * and shown as "(default: X)"; "" none */
    uint64_t lo, hi;            /* UINT, SECONDS: range; CHOICE: values */
    size_t off, size;           /* the field in the group's target */
    rcuprof_opt_fn fn;          /* CALLBACK */
    const char *help;           /* NULL: accepted, but not in --help */
};

/* A row whose field is TYPE's member FIELD. */
# define RCUPROF_OPTION(kind, name, ch, meta, def, lo, hi, type, field, fn, \
                        help) \
    { (kind), (name), (ch), (meta), (def), (lo), (hi), offsetof(type, field), \
      sizeof(((type *)0)->field), (fn), (help) }
/* A row without a field (ACTION, or a row only ever passed on). */
# define RCUPROF_OPTION_BARE(kind, name, ch, meta, def, lo, hi, help) \
    { (kind), (name), (ch), (meta), (def), (lo), (hi), 0, 0, NULL, (help) }

/* Rows parsed together into one target (or passed on). */
struct rcuprof_opt_group {
    const struct rcuprof_opt *rows;
    size_t n;
    void *target;               /* the fields' struct; NULL: pass them on */
    /* target NULL: every row given is handed here (value NULL for a
     * flag), in the order given, after the UINT/CHOICE checks. */
    void (*pass)(void *ctx, const struct rcuprof_opt *row,
                 const char *value);
    void *ctx;
    int short_letters;          /* accept the rows' short letters */
    unsigned char *seen;        /* optional, n entries: 1 where given */
};

enum {
    RCUPROF_OPTS_OK = 0,
    RCUPROF_OPTS_STOP,          /* an ACTION row: res.row */
    RCUPROF_OPTS_UNKNOWN,       /* res.arg is no option of the groups */
    RCUPROF_OPTS_MISSING,       /* res.row needs a value (res.arg) */
    RCUPROF_OPTS_BAD            /* res.row's value is bad: res.msg says why */
};

struct rcuprof_opts_result {
    int code;
    const struct rcuprof_opt *row;  /* STOP, MISSING, BAD */
    const char *arg;            /* the argv element at fault */
    int first_arg;              /* OK: argv index of the first operand
                                 * (operands are moved to the end) */
    char msg[512];
};

/*
 * Parse argv[start..argc) against the groups.  A row whose long name an
 * earlier group already has is left out (a command's own row overrides a
 * driver row of the same name).  Returns res->code.
 */
int rcuprof_opts_parse(const struct rcuprof_opt_group *groups, size_t ngroups,
                       int argc, char **argv, int start,
                       struct rcuprof_opts_result *res);

/* Apply every row's non-empty default to its target (not to pass groups).
 * 0, or -1 with the message of the row that failed (a broken table). */
int rcuprof_opts_defaults(const struct rcuprof_opt_group *groups,
                          size_t ngroups, char *err, size_t n);

/* Parse one value into its row's field (or only check it: target NULL). */
int rcuprof_opts_apply(const struct rcuprof_opt *row, void *target,
                       const char *arg, char *err, size_t n);

/*
 * The --help lines of rows[0..n) that have a help text and are not in
 * skip (long names, NULL-terminated, may be NULL):
 *   "  --NAME META                 HELP (default: DEF)"
 * with "-X, " in front of --NAME when letters is set, and "  -X" for a
 * row with a letter only; every HELP starts at column RCUPROF_OPTS_HELP_COL
 * (a longer option part is on a line of its own).
 */
# define RCUPROF_OPTS_HELP_COL 30
void rcuprof_opts_help(FILE *f, const struct rcuprof_opt *rows, size_t n,
                       int letters, const char *const *skip);
/* One help line of the same shape, "  LEFT<blanks>HELP" without the
 * newline; each '\n' inside HELP continues at the help column. */
void rcuprof_opts_help_item(FILE *f, const char *left, const char *help);

/* A row of rows[0..n) by long name, or NULL. */
const struct rcuprof_opt *rcuprof_opts_find(const struct rcuprof_opt *rows,
                                            size_t n, const char *name);

/*
 * The driver options (rcuprof_opts.def) without a target: the CLI's view.
 * CALLBACK rows are checked by the driver only.
 */
extern const struct rcuprof_opt rcuprof_driver_opts[];
extern const size_t rcuprof_driver_nopts;

#endif
