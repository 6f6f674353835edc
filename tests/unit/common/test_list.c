/*
 * The one rule for comma-separated option lists (rcuprof_list_check,
 * src/common/rcuprof_util.h): every item must be non-blank.  Table-driven,
 * each row tagged with its line.  The options themselves are checked end
 * to end by tests/integration/test_lists.sh.
 */
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
    const char *err_has;        /* substring of the message when !ok */
};

static const struct row rows[] = {
    { __LINE__, "", 1, NULL },  /* left to the caller's own message */
    { __LINE__, "a", 1, NULL },
    { __LINE__, "a,b,c", 1, NULL },
    { __LINE__, " a , b ", 1, NULL },
    { __LINE__, "MD:SHA256,CIPHER:AES-128-CBC", 1, NULL },
    { __LINE__, "a,,b", 0, "item 2 is empty" },
    { __LINE__, "cycles,,task-clock", 0, "item 2 is empty" },
    { __LINE__, ",a", 0, "item 1 is empty" },
    { __LINE__, "a,", 0, "item 2 is empty" },
    { __LINE__, ",", 0, "item 1 is empty" },
    { __LINE__, "a, ,b", 0, "item 2 is empty" },
    { __LINE__, "a,b,\t", 0, "item 3 is empty" },
    { __LINE__, " ", 0, "item 1 is empty" },
};

static void test_rows(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char err[256] = "";
        int rc = rcuprof_list_check("opt", rows[i].in, err, sizeof(err));

        print_message("line %d: '%s' -> %d %s\n", rows[i].line, rows[i].in,
                      rc, err);
        if (rows[i].ok) {
            if (rc != 0)
                fail_msg("line %d: '%s' refused: %s", rows[i].line,
                         rows[i].in, err);
            continue;
        }
        if (rc == 0)
            fail_msg("line %d: '%s' accepted", rows[i].line, rows[i].in);
        if (strstr(err, rows[i].err_has) == NULL
            || strncmp(err, "--opt '", 7) != 0
            || strstr(err, "remove the extra comma") == NULL)
            fail_msg("line %d: message '%s' lacks '--opt', '%s' or what "
                     "to do", rows[i].line, err, rows[i].err_has);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
