/* Thread-list parsing: table-driven, each row tagged with its line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rcuprof_util.h"

struct row {
    int line;
    const char *in;
    int ok;
    size_t n;
    unsigned want[12];
    const char *err_has;        /* substring of the error message */
};

static const struct row rows[] = {
    { __LINE__, "1", 1, 1, { 1 }, NULL },
    { __LINE__, "1,2,4,8", 1, 4, { 1, 2, 4, 8 }, NULL },
    { __LINE__, "8,4,1", 1, 3, { 1, 4, 8 }, NULL },
    /* a count given twice is bad input (issue 28), not merged */
    { __LINE__, "8,4,4,1", 0, 0, { 0 }, "4 is given twice" },
    { __LINE__, "1,1", 0, 0, { 0 }, "1 is given twice" },
    { __LINE__, "1-4,2", 0, 0, { 0 }, "2 is given twice" },
    { __LINE__, "1-8:x2,2-4", 0, 0, { 0 }, "2 is given twice" },
    { __LINE__, "4-8", 1, 5, { 4, 5, 6, 7, 8 }, NULL },
    { __LINE__, "1-64:x2", 1, 7, { 1, 2, 4, 8, 16, 32, 64 }, NULL },
    { __LINE__, "1-100:x2", 1, 7, { 1, 2, 4, 8, 16, 32, 64 }, NULL },
    { __LINE__, "2-10:+4", 1, 3, { 2, 6, 10 }, NULL },
    { __LINE__, "1,16-18,1024", 1, 5, { 1, 16, 17, 18, 1024 }, NULL },
    { __LINE__, "", 0, 0, { 0 }, "empty" },
    { __LINE__, "0", 0, 0, { 0 }, "1 to 1024" },
    { __LINE__, "1025", 0, 0, { 0 }, "1 to 1024" },
    { __LINE__, "-1", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "abc", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "1,,2", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "1,", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, ",1", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "8-4", 0, 0, { 0 }, "backwards" },
    { __LINE__, "1-8:x1", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "1-8:*2", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "2 4", 0, 0, { 0 }, "bad thread list" },
    { __LINE__, "99999999999", 0, 0, { 0 }, "bad thread list" },
};

static void test_rows(void **state)
{
    size_t i, j;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        unsigned out[2048];
        size_t n = 0;
        char err[256] = "";
        int rc = rcuprof_parse_threads(rows[i].in, out, 2048, &n, err,
                                       sizeof(err));

        print_message("line %d: '%s' -> rc %d n %zu %s\n", rows[i].line,
                      rows[i].in, rc, n, err);
        if (rows[i].ok) {
            assert_int_equal(rc, 0);
            assert_int_equal(n, rows[i].n);
            for (j = 0; j < n; j++)
                assert_int_equal(out[j], rows[i].want[j]);
        } else {
            assert_int_not_equal(rc, 0);
            assert_non_null(strstr(err, rows[i].err_has));
            assert_null(strchr(err, '\n'));
        }
    }
}

static void test_capacity(void **state)
{
    unsigned out[4];
    size_t n;
    char err[128];

    (void)state;
    assert_int_not_equal(rcuprof_parse_threads("1-8", out, 4, &n, err,
                                               sizeof(err)), 0);
    assert_non_null(strstr(err, "more than 4"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_capacity),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
