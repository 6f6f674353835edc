/*
 * The option rows and the one parse loop and help printer
 * (src/common/opts.c): every kind, defaults, the errors with their
 * messages, operands, overrides, pass-through, seen; table rows tagged
 * with __LINE__.  And the driver's table (rcuprof_opts.def): every row has
 * a help text, a known kind, distinct names and letters, and defaults its
 * own checks accept.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rcuprof_opts.h"
#include "rcuprof_util.h"

struct target {
    unsigned n;
    uint64_t big, secs;
    char text[8];
    const char *str;
    int on, flag, cb;
};

static int cb_even(void *t, const struct rcuprof_opt *row, const char *arg,
                   char *err, size_t n)
{
    int v = atoi(arg);

    if (v % 2 != 0) {
        snprintf(err, n, "--%s '%s': give an even number", row->name, arg);
        return -1;
    }
    ((struct target *)t)->cb = v;
    return 0;
}

static const struct rcuprof_opt rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "count", 'n', "N", "3", 1, 10,
                   struct target, n, NULL, "a count"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "big", 0, "B", "", 0, UINT64_MAX / 2,
                   struct target, big, NULL, "a large number"),
    RCUPROF_OPTION(RCUPROF_OPT_SECONDS, "wait", 'w', "S", "120", 1, 86400,
                   struct target, secs, NULL, "wait S seconds"),
    RCUPROF_OPTION(RCUPROF_OPT_TEXT, "text", 't', "T", "abc", 0, 0,
                   struct target, text, NULL, "at most 7 characters"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "str", 's', "S", "", 0, 0,
                   struct target, str, NULL, "any text"),
    RCUPROF_OPTION(RCUPROF_OPT_CHOICE, "mode", 'm', "on|off", "off", 1, 0,
                   struct target, on, NULL, "on or off"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "flag", 'f', "", "", 0, 1,
                   struct target, flag, NULL, "a flag"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "even", 'e', "E", "", 0, 0,
                   struct target, cb, cb_even, NULL),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 'h', "", "", 0, 0,
                        "this list"),
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int split(char *line, char **argv, int cap)
{
    int argc = 0;
    char *tok, *save = NULL;

    argv[argc++] = "prog";
    for (tok = strtok_r(line, " ", &save); tok != NULL && argc < cap - 1;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    return argc;
}

static void test_parse(void **state)
{
    static const struct {
        int line;
        const char *args;
        int code;
        const char *want;       /* BAD: the message; UNKNOWN/MISSING: arg;
                                 * OK: a check below, by line */
    } t[] = {
        { __LINE__, "", RCUPROF_OPTS_OK, NULL },
        { __LINE__, "--count 7 --big=12345678901 -w 5", RCUPROF_OPTS_OK, NULL },
        { __LINE__, "-n 0", RCUPROF_OPTS_BAD,
          "--count '0': give a whole number from 1 to 10" },
        { __LINE__, "--count 11", RCUPROF_OPTS_BAD,
          "--count '11': give a whole number from 1 to 10" },
        { __LINE__, "--count -1", RCUPROF_OPTS_BAD,
          "--count '-1': give a whole number from 1 to 10" },
        { __LINE__, "--count 1.5", RCUPROF_OPTS_BAD,
          "--count '1.5': give a whole number from 1 to 10" },
        { __LINE__, "--wait 0", RCUPROF_OPTS_BAD,
          "--wait '0': give whole seconds from 1 to 86400" },
        { __LINE__, "--text 12345678", RCUPROF_OPTS_BAD,
          "--text is too long: at most 7 characters" },
        { __LINE__, "--mode maybe", RCUPROF_OPTS_BAD,
          "--mode 'maybe': use on or off" },
        { __LINE__, "--even 3", RCUPROF_OPTS_BAD,
          "--even '3': give an even number" },
        { __LINE__, "--bogus", RCUPROF_OPTS_UNKNOWN, "--bogus" },
        { __LINE__, "-z", RCUPROF_OPTS_UNKNOWN, "-z" },
        { __LINE__, "--count", RCUPROF_OPTS_MISSING, "--count" },
        { __LINE__, "-t", RCUPROF_OPTS_MISSING, "-t" },
        { __LINE__, "--cou 4 --mode on -f --even 4 --str x a b",
          RCUPROF_OPTS_OK, NULL },
        { __LINE__, "--flag --help --count 0", RCUPROF_OPTS_STOP, NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        struct target tg;
        struct rcuprof_opt_group g = { rows, NROWS, &tg, NULL, NULL, 1, NULL };
        struct rcuprof_opts_result res;
        char line[256], *argv[32], err[256];
        int argc, code;

        memset(&tg, 0, sizeof(tg));
        snprintf(line, sizeof(line), "%s", t[i].args);
        argc = split(line, argv, 32);
        assert_int_equal(rcuprof_opts_defaults(&g, 1, err, sizeof(err)), 0);
        code = rcuprof_opts_parse(&g, 1, argc, argv, 1, &res);
        if (code != t[i].code)
            fail_msg("line %d: code %d, wanted %d (%s)", t[i].line, code,
                     t[i].code, res.msg);
        if (code == RCUPROF_OPTS_BAD && strcmp(res.msg, t[i].want) != 0)
            fail_msg("line %d: '%s', wanted '%s'", t[i].line, res.msg,
                     t[i].want);
        if ((code == RCUPROF_OPTS_UNKNOWN || code == RCUPROF_OPTS_MISSING)
            && strcmp(res.arg, t[i].want) != 0)
            fail_msg("line %d: arg '%s', wanted '%s'", t[i].line, res.arg,
                     t[i].want);
        if (i == 0) {           /* the defaults */
            assert_int_equal(tg.n, 3);
            assert_int_equal(tg.secs, 120);
            assert_string_equal(tg.text, "abc");
            assert_int_equal(tg.on, 0);
            assert_null(tg.str);
            assert_int_equal(res.first_arg, 1);
        }
        if (i == 1)
            assert_true(tg.n == 7 && tg.big == 12345678901ull && tg.secs == 5);
        if (t[i].line == t[14].line) {
            /* An abbreviation, a choice, a flag, a callback; operands
             * after the options. */
            assert_true(tg.n == 4 && tg.on == 1 && tg.flag == 1
                        && tg.cb == 4);
            assert_string_equal(tg.str, "x");
            assert_int_equal(argc - res.first_arg, 2);
            assert_string_equal(argv[res.first_arg], "a");
        }
        if (code == RCUPROF_OPTS_STOP) {
            /* The action stops the parse: --count 0 is never seen. */
            assert_string_equal(res.row->name, "help");
            assert_int_equal(tg.flag, 1);
        }
    }
}

struct collected {
    char text[256];
};

static void collect(void *ctx, const struct rcuprof_opt *row,
                    const char *value)
{
    struct collected *c = ctx;
    size_t len = strlen(c->text);

    snprintf(c->text + len, sizeof(c->text) - len, "[%s=%s]", row->name,
             value != NULL ? value : "(flag)");
}

/* A command's own rows override passed rows of the same name; the rest
 * is passed on in the order given, numbers and choices checked first. */
static void test_pass_and_override(void **state)
{
    static const struct rcuprof_opt own[] = {
        RCUPROF_OPTION(RCUPROF_OPT_STRING, "str", 0, "S", "", 0, 0,
                       struct target, str, NULL, "mine"),
    };
    struct target tg;
    struct collected c = { "" };
    unsigned char seen[1] = { 0 }, pseen[NROWS] = { 0 };
    struct rcuprof_opt_group g[2] = {
        { own, 1, &tg, NULL, NULL, 0, seen },
        { rows, NROWS, NULL, collect, &c, 0, pseen },
    };
    struct rcuprof_opts_result res;
    char line[] = "--str mine --mode on --flag --count 9 --text toolongtext";
    char line2[] = "--count 99";
    char line3[] = "-n 2";
    char *argv[32];
    int argc;

    (void)state;
    memset(&tg, 0, sizeof(tg));
    argc = split(line, argv, 32);
    assert_int_equal(rcuprof_opts_parse(g, 2, argc, argv, 1, &res),
                     RCUPROF_OPTS_OK);
    assert_string_equal(tg.str, "mine");
    assert_true(seen[0]);
    /* TEXT is not checked without a target: the owner of the field does. */
    assert_string_equal(c.text, "[mode=on][flag=(flag)][count=9]"
                                "[text=toolongtext]");
    assert_true(pseen[0] && pseen[5] && pseen[6] && !pseen[1]);
    argc = split(line2, argv, 32);
    assert_int_equal(rcuprof_opts_parse(g, 2, argc, argv, 1, &res),
                     RCUPROF_OPTS_BAD);
    assert_string_equal(res.msg, "--count '99': give a whole number from 1 to 10");
    /* Letters are off in both groups. */
    argc = split(line3, argv, 32);
    assert_int_equal(rcuprof_opts_parse(g, 2, argc, argv, 1, &res),
                     RCUPROF_OPTS_UNKNOWN);
}

static void test_help(void **state)
{
    static const char *const skip[] = { "big", NULL };
    static const struct rcuprof_opt short_only[] = {
        RCUPROF_OPTION(RCUPROF_OPT_FLAG, NULL, 'q', "", "", 0, 1,
                       struct target, flag, NULL, "be quiet"),
        /* Names up to the column (--reclaim-age-ms MS) stay on the line;
         * a longer option part gets a line of its own. */
        RCUPROF_OPTION(RCUPROF_OPT_STRING, "reclaim-age-ms", 0, "MS", "", 0,
                       0, struct target, str, NULL, "a long name"),
        RCUPROF_OPTION(RCUPROF_OPT_STRING, "very-long-option-name", 0,
                       "VALUE", "", 0, 0, struct target, str, NULL,
                       "longer than the column"),
    };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    (void)state;
    assert_non_null(f);
    rcuprof_opts_help(f, rows, NROWS, 0, skip);
    rcuprof_opts_help(f, rows, 1, 1, NULL);
    rcuprof_opts_help(f, short_only, 3, 0, NULL);
    rcuprof_opts_help_item(f, "RESULTS", "files\nsecond line\n");
    fclose(f);
    /* Every help text starts at one column, RCUPROF_OPTS_HELP_COL. */
    assert_int_equal(RCUPROF_OPTS_HELP_COL, 30);
    assert_string_equal(text,
        "  --count N                   a count (default: 3)\n"
        "  --wait S                    wait S seconds (default: 120)\n"
        "  --text T                    at most 7 characters (default: abc)\n"
        "  --str S                     any text\n"
        "  --mode on|off               on or off (default: off)\n"
        "  --flag                      a flag\n"
        "  --help                      this list\n"
        "  -n, --count N               a count (default: 3)\n"
        "  -q                          be quiet\n"
        "  --reclaim-age-ms MS         a long name\n"
        "  --very-long-option-name VALUE\n"
        "                              longer than the column\n"
        "  RESULTS                     files\n"
        "                              second line\n");
    free(text);
}

/*
 * --propq: OpenSSL's property query syntax (property(7)), checked before
 * any run, because OpenSSL fetches as if no query were given when it
 * cannot parse one (ossl_method_store_fetch: a NULL parsed query).
 */
static void test_propq(void **state)
{
    static const struct {
        int line;
        const char *q;
        int ok;
        const char *err_has;
    } q[] = {
        { __LINE__, "", 1, NULL },
        { __LINE__, "fips=yes", 1, NULL },
        { __LINE__, "?fips=yes", 1, NULL },
        { __LINE__, " provider = default , ?fips=no ", 1, NULL },
        { __LINE__, "-fips", 1, NULL },
        { __LINE__, "fips", 1, NULL },
        { __LINE__, "? fips", 1, NULL },
        { __LINE__, "fips!=yes", 1, NULL },
        { __LINE__, "org.vendor.x_1=7", 1, NULL },
        { __LINE__, "a='x, y',b=\"z\"", 1, NULL },
        { __LINE__, "n=+12,m=-3,h=0x1F,o=017,d=0", 1, NULL },
        { __LINE__, "output=der", 1, NULL },
        { __LINE__, "?fips=yes,,", 0, "empty clause" },
        { __LINE__, "fips=yes,", 0, "empty clause" },
        { __LINE__, ",fips=yes", 0, "empty clause" },
        { __LINE__, "a=1, ,b=2", 0, "empty clause" },
        { __LINE__, "=yes", 0, "cannot parse" },
        { __LINE__, "fips==yes", 0, "cannot parse" },
        { __LINE__, "fips=", 0, "cannot parse" },
        { __LINE__, "fips=yes fips=no", 0, "cannot parse" },
        { __LINE__, "1fips", 0, "cannot parse" },
        { __LINE__, "fips.=yes", 0, "cannot parse" },
        { __LINE__, "-fips=yes", 0, "cannot parse" },
        { __LINE__, "?-fips", 0, "cannot parse" },
        { __LINE__, "a='open", 0, "cannot parse" },
        { __LINE__, "n=12x", 0, "cannot parse" },
        { __LINE__, "n=09", 0, "cannot parse" },
        { __LINE__, "n=0x", 0, "cannot parse" },
        { __LINE__, "n=99999999999999999999", 0, "cannot parse" },
    };
    const struct rcuprof_opt *r = rcuprof_opts_find(rcuprof_driver_opts,
                                                    rcuprof_driver_nopts,
                                                    "propq");
    size_t i;

    (void)state;
    assert_non_null(r);
    for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
        char err[512] = "";
        int rc = rcuprof_opts_apply(r, NULL, q[i].q, err, sizeof(err));

        print_message("line %d: '%s' -> %d %s\n", q[i].line, q[i].q, rc, err);
        if (q[i].ok) {
            assert_int_equal(rc, 0);
            continue;
        }
        assert_int_not_equal(rc, 0);
        assert_non_null(strstr(err, q[i].err_has));
        assert_true(strncmp(err, "--propq '", 9) == 0);
        assert_null(strchr(err, '\n'));
    }
}

/* The driver's table: what its rows promise. */
static void test_driver_table(void **state)
{
    size_t i, k;

    (void)state;
    assert_true(rcuprof_driver_nopts >= 20);
    for (i = 0; i < rcuprof_driver_nopts; i++) {
        const struct rcuprof_opt *r = &rcuprof_driver_opts[i];
        char err[256];

        if (r->name == NULL || r->ch == 0 || r->help == NULL
            || r->help[0] == '\0')
            fail_msg("row %zu: a name, a letter and a help text each", i);
        if (r->kind != RCUPROF_OPT_UINT && r->kind != RCUPROF_OPT_TEXT
            && r->kind != RCUPROF_OPT_CHOICE && r->kind != RCUPROF_OPT_FLAG
            && r->kind != RCUPROF_OPT_CALLBACK)
            fail_msg("--%s: kind %d is not a driver kind", r->name, r->kind);
        for (k = 0; k < i; k++)
            if (strcmp(r->name, rcuprof_driver_opts[k].name) == 0
                || r->ch == rcuprof_driver_opts[k].ch)
                fail_msg("--%s: name or letter also --%s's", r->name,
                         rcuprof_driver_opts[k].name);
        if (r->kind == RCUPROF_OPT_UINT && r->lo > r->hi)
            fail_msg("--%s: empty range", r->name);
        /* A default passes the row's own check (without a target). */
        if (r->def[0] != '\0'
            && rcuprof_opts_apply(r, NULL, r->def, err, sizeof(err)) != 0)
            fail_msg("--%s: default '%s': %s", r->name, r->def, err);
        if (r->kind == RCUPROF_OPT_CHOICE && strchr(r->meta, '|') == NULL)
            fail_msg("--%s: a choice row lists its words in its metavar",
                     r->name);
    }
    assert_non_null(rcuprof_opts_find(rcuprof_driver_opts,
                                      rcuprof_driver_nopts, "threads"));
    assert_int_equal(rcuprof_opts_find(rcuprof_driver_opts,
                                       rcuprof_driver_nopts, "threads")->hi,
                     RCUPROF_THREADS_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_pass_and_override),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_driver_table),
        cmocka_unit_test(test_propq),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
