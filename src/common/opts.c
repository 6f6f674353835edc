/*
 * The one parse loop and the one help printer of rcuprof_opts.h, for the
 * stress driver and every rcuprof command.  getopt_long does the scanning
 * (long names, abbreviations, --name=value, operands moved to the end);
 * the rows say what each value is and where it goes.
 */
#define _GNU_SOURCE
#include "rcuprof_opts.h"
#include "rcuprof_util.h"

#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Enough for the driver's rows and any command's own. */
#define OPTS_MAX 96

/* The driver options without a target: what the CLI passes on. */
const struct rcuprof_opt rcuprof_driver_opts[] = {
#define RCUPROF_OPT(kind, name, ch, meta, def, lo, hi, field, help) \
    RCUPROF_OPTION_BARE(RCUPROF_OPT_##kind, name, ch, meta, def, lo, hi, help),
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
};
const size_t rcuprof_driver_nopts =
    sizeof(rcuprof_driver_opts) / sizeof(rcuprof_driver_opts[0]);

static int takes_value(const struct rcuprof_opt *r)
{
    return r->kind != RCUPROF_OPT_FLAG && r->kind != RCUPROF_OPT_ACTION;
}

const struct rcuprof_opt *rcuprof_opts_find(const struct rcuprof_opt *rows,
                                            size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (rows[i].name != NULL && strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

/* The two words of a CHOICE row's meta, "a|b". */
static int choice_words(const struct rcuprof_opt *r, char *a, char *b,
                        size_t n)
{
    const char *bar = strchr(r->meta, '|');

    if (bar == NULL || (size_t)(bar - r->meta) >= n || strlen(bar + 1) >= n)
        return -1;
    snprintf(a, n, "%.*s", (int)(bar - r->meta), r->meta);
    snprintf(b, n, "%s", bar + 1);
    return 0;
}

static void store_uint(void *field, size_t size, uint64_t v)
{
    if (size == sizeof(uint64_t))
        *(uint64_t *)field = v;
    else if (size == sizeof(uint32_t))
        *(uint32_t *)field = (uint32_t)v;
}

/*
 * An OpenSSL property query (property(7)): clauses separated by commas,
 * each "-NAME", or "[?]NAME" with "=VALUE" or "!=VALUE" or neither; a
 * NAME is letters, digits and '_' from a letter, in '.'-joined parts; a
 * VALUE is quoted, a number (+N, -N, N, 0xHEX, 0OCTAL) or a word from a
 * letter; blanks around any token.  Checked here because OpenSSL fetches
 * as if no query were given when it cannot parse one.  Returns the end of
 * what parses: *s == '\0' when all of it does.
 */
static const char *pq_blanks(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

static const char *pq_name(const char *s)
{
    const char *start = s;

    for (;;) {
        if (!isalpha((unsigned char)*s))
            return NULL;
        while (*++s == '_' || isalnum((unsigned char)*s))
            ;
        if (*s != '.')
            break;
        s++;
    }
    return s - start < 100 ? pq_blanks(s) : NULL;   /* OpenSSL's limit */
}

/* Digits of BASE, at least one, within int64_t. */
static const char *pq_digits(const char *s, unsigned base)
{
    uint64_t v = 0;
    const char *start = s;

    for (;; s++) {
        unsigned d;

        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
        else
            break;
        if (d >= base || v > ((uint64_t)INT64_MAX - d) / base)
            return NULL;
        v = v * base + d;
    }
    return s > start ? s : NULL;
}

static const char *pq_value(const char *s)
{
    const char *e;

    if (*s == '"' || *s == '\'') {
        e = strchr(s + 1, *s);
        return e != NULL && e - s - 1 < 1000 ? pq_blanks(e + 1) : NULL;
    }
    if (*s == '+' || *s == '-')
        e = pq_digits(s + 1, 10);
    else if (s[0] == '0' && s[1] == 'x')
        e = pq_digits(s + 2, 16);
    else if (s[0] == '0' && isdigit((unsigned char)s[1]))
        e = pq_digits(s + 1, 8);
    else if (isdigit((unsigned char)*s))
        e = pq_digits(s, 10);
    else if (isalpha((unsigned char)*s)) {
        for (e = s; isgraph((unsigned char)*e) && *e != ','; e++)
            ;
        if (e - s >= 1000)
            return NULL;
    } else
        return NULL;
    if (e == NULL || (*e != '\0' && *e != ',' && !isspace((unsigned char)*e)))
        return NULL;
    return pq_blanks(e);
}

static const char *pq_clause(const char *s)
{
    if (*s == '-')
        return pq_name(pq_blanks(s + 1));
    if (*s == '?')
        s = pq_blanks(s + 1);
    if ((s = pq_name(s)) == NULL)
        return NULL;
    if (*s == '=')
        return pq_value(pq_blanks(s + 1));
    if (s[0] == '!' && s[1] == '=')
        return pq_value(pq_blanks(s + 2));
    return s;
}

static int propq_check(const char *q, char *err, size_t n)
{
    const char *s = pq_blanks(q), *next;

    while (*s != '\0') {
        if (*s == ',') {
            snprintf(err, n, "--propq '%s': an empty clause at character %d: give clauses such as fips=yes, ?provider=default or -fips, separated by single commas",
                     q, (int)(s - q) + 1);
            return -1;
        }
        if ((next = pq_clause(s)) == NULL
            || (*next != '\0' && *next != ',')) {
            snprintf(err, n, "--propq '%s': cannot parse it from '%s' (OpenSSL would ignore the whole query): give clauses such as fips=yes, ?provider=default or -fips, separated by single commas",
                     q, s);
            return -1;
        }
        s = next;
        if (*s == ',') {
            s = pq_blanks(s + 1);
            if (*s == '\0') {
                snprintf(err, n, "--propq '%s': an empty clause after the last comma: give clauses such as fips=yes, ?provider=default or -fips, separated by single commas",
                         q);
                return -1;
            }
        }
    }
    return 0;
}

/* Text options whose value has a syntax of its own, by long name. */
static const struct {
    const char *name;
    int (*check)(const char *arg, char *err, size_t n);
} text_checks[] = {
    { "propq", propq_check },
};

static int text_check(const struct rcuprof_opt *r, const char *arg,
                      char *err, size_t n)
{
    size_t i;

    for (i = 0; r->name != NULL && i < sizeof(text_checks)
                / sizeof(text_checks[0]); i++)
        if (strcmp(r->name, text_checks[i].name) == 0)
            return text_checks[i].check(arg, err, n);
    return 0;
}

int rcuprof_opts_apply(const struct rcuprof_opt *r, void *target,
                       const char *arg, char *err, size_t n)
{
    void *field = target != NULL ? (char *)target + r->off : NULL;
    char a[64], b[64];
    uint64_t v;

    switch (r->kind) {
    case RCUPROF_OPT_UINT:
    case RCUPROF_OPT_SECONDS:
        if (rcuprof_parse_uint(arg, r->lo, r->hi, &v) != 0) {
            snprintf(err, n, "--%s '%s': give %s from %" PRIu64 " to %" PRIu64,
                     r->name, arg, r->kind == RCUPROF_OPT_SECONDS
                     ? "whole seconds" : "a whole number", r->lo, r->hi);
            return -1;
        }
        if (field != NULL)
            store_uint(field, r->size, v);
        return 0;
    case RCUPROF_OPT_TEXT:
        if (text_check(r, arg, err, n) != 0)
            return -1;
        if (field != NULL && strlen(arg) >= r->size) {
            snprintf(err, n, "--%s is too long: at most %zu characters",
                     r->name, r->size - 1);
            return -1;
        }
        if (field != NULL)
            snprintf(field, r->size, "%s", arg);
        return 0;
    case RCUPROF_OPT_STRING:
        if (field != NULL)
            *(const char **)field = arg;
        return 0;
    case RCUPROF_OPT_CHOICE:
        if (choice_words(r, a, b, sizeof(a)) != 0) {
            snprintf(err, n, "--%s: the option table has no choices", r->name);
            return -1;
        }
        if (strcmp(arg, a) != 0 && strcmp(arg, b) != 0) {
            snprintf(err, n, "--%s '%s': use %s or %s", r->name, arg, a, b);
            return -1;
        }
        if (field != NULL)
            *(int *)field = (int)(strcmp(arg, a) == 0 ? r->lo : r->hi);
        return 0;
    case RCUPROF_OPT_FLAG:
        if (field != NULL)
            *(int *)field = 1;
        return 0;
    case RCUPROF_OPT_CALLBACK:
        /* Without a target there is nothing to parse into: the owner of
         * the target checks it. */
        return target != NULL && r->fn != NULL ? r->fn(target, r, arg, err, n)
                                               : 0;
    default:
        return 0;
    }
}

int rcuprof_opts_defaults(const struct rcuprof_opt_group *g, size_t ng,
                          char *err, size_t n)
{
    size_t i, k;

    for (i = 0; i < ng; i++)
        for (k = 0; g[i].target != NULL && k < g[i].n; k++) {
            const struct rcuprof_opt *r = &g[i].rows[k];

            if (r->def == NULL || r->def[0] == '\0' || !takes_value(r))
                continue;
            if (rcuprof_opts_apply(r, g[i].target, r->def, err, n) != 0)
                return -1;
        }
    return 0;
}

/* Is NAME a long name of a group before G? */
static int overridden(const struct rcuprof_opt_group *groups, size_t g,
                      const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < g; i++)
        if (rcuprof_opts_find(groups[i].rows, groups[i].n, name) != NULL)
            return 1;
    return 0;
}

struct table {
    struct option lo[OPTS_MAX + 1];
    const struct rcuprof_opt *row[OPTS_MAX];
    size_t group[OPTS_MAX], index[OPTS_MAX];
    int letter[128];            /* short letter -> row slot + 1 */
    char shortopts[3 * OPTS_MAX + 1];
    size_t nrows, nlong;
};

static int build(struct table *t, const struct rcuprof_opt_group *groups,
                 size_t ng)
{
    size_t g, k, sl = 0;

    memset(t, 0, sizeof(*t));
    for (g = 0; g < ng; g++)
        for (k = 0; k < groups[g].n; k++) {
            const struct rcuprof_opt *r = &groups[g].rows[k];
            size_t slot = t->nrows;

            if (overridden(groups, g, r->name))
                continue;
            if (slot == OPTS_MAX)
                return -1;
            t->row[slot] = r;
            t->group[slot] = g;
            t->index[slot] = k;
            t->nrows++;
            if (r->name != NULL) {
                t->lo[t->nlong].name = r->name;
                t->lo[t->nlong].has_arg = takes_value(r) ? required_argument
                                                         : no_argument;
                t->lo[t->nlong].val = 256 + (int)slot;
                t->nlong++;
            }
            if (r->ch > 0 && r->ch < 128 && groups[g].short_letters
                && t->letter[r->ch] == 0) {
                t->letter[r->ch] = (int)slot + 1;
                t->shortopts[sl++] = (char)r->ch;
                if (takes_value(r))
                    t->shortopts[sl++] = ':';
            }
        }
    t->shortopts[sl] = '\0';
    return 0;
}

int rcuprof_opts_parse(const struct rcuprof_opt_group *groups, size_t ng,
                       int argc, char **argv, int start,
                       struct rcuprof_opts_result *res)
{
    struct table t;
    int c;

    memset(res, 0, sizeof(*res));
    if (build(&t, groups, ng) != 0) {
        res->code = RCUPROF_OPTS_BAD;
        snprintf(res->msg, sizeof(res->msg), "too many options in one table");
        return res->code;
    }
    /* optind 0: glibc's full reset (a process may parse more than once);
     * argv[start - 1] stands in for the program name. */
    argc -= start - 1;
    argv += start - 1;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, t.shortopts, t.lo, NULL)) != -1) {
        const struct rcuprof_opt_group *g;
        const struct rcuprof_opt *r;
        size_t slot;

        if (c == '?' || c == ':') {
            /* optopt: the long option's val or the letter of an option
             * that lacks its value; 0 or an unknown letter otherwise. */
            int o = optopt;

            res->arg = argv[optind - 1];
            if (o >= 256 && o - 256 < (int)t.nrows)
                res->row = t.row[o - 256];
            else if (o > 0 && o < 128 && t.letter[o] != 0)
                res->row = t.row[t.letter[o] - 1];
            res->code = res->row != NULL ? RCUPROF_OPTS_MISSING
                                         : RCUPROF_OPTS_UNKNOWN;
            res->first_arg = optind + start - 1;
            return res->code;
        }
        slot = c >= 256 ? (size_t)(c - 256) : (size_t)(t.letter[c] - 1);
        r = t.row[slot];
        g = &groups[t.group[slot]];
        if (g->seen != NULL)
            g->seen[t.index[slot]] = 1;
        if (r->kind == RCUPROF_OPT_ACTION) {
            res->code = RCUPROF_OPTS_STOP;
            res->row = r;
            res->first_arg = optind + start - 1;
            return res->code;
        }
        if (rcuprof_opts_apply(r, g->target, optarg, res->msg,
                               sizeof(res->msg)) != 0) {
            res->code = RCUPROF_OPTS_BAD;
            res->row = r;
            res->arg = optarg;
            return res->code;
        }
        if (g->target == NULL && g->pass != NULL)
            g->pass(g->ctx, r, takes_value(r) ? optarg : NULL);
    }
    res->first_arg = optind + start - 1;
    return RCUPROF_OPTS_OK;
}

static int skipped(const char *name, const char *const *skip)
{
    for (; skip != NULL && *skip != NULL; skip++)
        if (name != NULL && strcmp(name, *skip) == 0)
            return 1;
    return 0;
}

void rcuprof_opts_help_item(FILE *f, const char *left, const char *help)
{
    int w = fprintf(f, "  %s", left);

    /* The text starts at RCUPROF_OPTS_HELP_COL, after at least two blanks;
     * a longer left part gets a line of its own. */
    if (w > RCUPROF_OPTS_HELP_COL - 2) {
        fputc('\n', f);
        w = 0;
    }
    fprintf(f, "%*s", RCUPROF_OPTS_HELP_COL - w, "");
    for (; *help != '\0'; help++) {
        fputc(*help, f);
        if (*help == '\n' && help[1] != '\0')
            fprintf(f, "%*s", RCUPROF_OPTS_HELP_COL, "");
    }
}

void rcuprof_opts_help(FILE *f, const struct rcuprof_opt *rows, size_t n,
                       int letters, const char *const *skip)
{
    char left[128];
    size_t i;

    for (i = 0; i < n; i++) {
        const struct rcuprof_opt *r = &rows[i];

        if (r->help == NULL || skipped(r->name, skip))
            continue;
        if (r->name == NULL)
            snprintf(left, sizeof(left), "-%c", r->ch);
        else if (letters && r->ch != 0)
            snprintf(left, sizeof(left), "-%c, --%s%s%s", r->ch, r->name,
                     r->meta != NULL && r->meta[0] != '\0' ? " " : "",
                     r->meta != NULL ? r->meta : "");
        else
            snprintf(left, sizeof(left), "--%s%s%s", r->name,
                     r->meta != NULL && r->meta[0] != '\0' ? " " : "",
                     r->meta != NULL ? r->meta : "");
        rcuprof_opts_help_item(f, left, r->help);
        if (takes_value(r) && r->def != NULL && r->def[0] != '\0')
            fprintf(f, " (default: %s)", r->def);
        fputc('\n', f);
    }
}
