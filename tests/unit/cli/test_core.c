/*
 * CLI core: atomic writes, variant definitions (rcuprof variant add), and
 * the driver runner (exit codes, signals, timeouts, output capture).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "../unit_tmpdir.h"

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    while (d != NULL && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    if (d != NULL)
        closedir(d);
    return n;
}

static void test_write_atomic(void **state)
{
    char path[300], sub[300], buf[64] = "";
    FILE *f;

    (void)state;
    snprintf(path, sizeof(path), "%s/out.json", tmpdir);
    assert_int_equal(rcuprof_write_atomic(path, "{\"a\":1}\n", 8), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    assert_string_equal(buf, "{\"a\":1}\n");
    assert_int_equal(count_entries(tmpdir), 1);   /* no temp file left */

    /* Overwrite replaces whole. */
    assert_int_equal(rcuprof_write_atomic(path, "x", 1), 0);
    f = fopen(path, "r");
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    assert_string_equal(buf, "x");

    /* A folder that does not exist: error, nothing written. */
    snprintf(sub, sizeof(sub), "%s/missing/out.json", tmpdir);
    assert_int_not_equal(rcuprof_write_atomic(sub, "x", 1), 0);
    assert_int_equal(count_entries(tmpdir), 1);
    unlink(path);
}

struct add_row {
    int line;
    const char *name, *base, *source;
    const char *patch;          /* NULL, or "@good" for a real file */
    int rc;
    const char *err_has;
};

static void test_variant_add(void **state)
{
    static const struct add_row rows[] = {
        { __LINE__, "mine", "stock", NULL, "@good", RCUPROF_OK, NULL },
        { __LINE__, "mine", "stock", NULL, NULL, RCUPROF_ERR_USAGE, "already exists" },
        { __LINE__, "Bad Name", "stock", NULL, NULL, RCUPROF_ERR_USAGE, "not allowed" },
        { __LINE__, "-x", "stock", NULL, NULL, RCUPROF_ERR_USAGE, "not allowed" },
        { __LINE__, "mine+padded", "stock", NULL, NULL, RCUPROF_ERR_USAGE, "'+' joins" },
        { __LINE__, "other", "nope", NULL, NULL, RCUPROF_ERR_USAGE, "does not exist" },
        { __LINE__, "other", NULL, NULL, NULL, RCUPROF_ERR_USAGE, "--base" },
        { __LINE__, "other", "stock", NULL, "/nonexistent.patch", RCUPROF_ERR_USAGE, "not a readable file" },
        { __LINE__, "other", NULL, "/nonexistent-dir", NULL, RCUPROF_ERR_USAGE, "not a folder" },
        { __LINE__, "other", NULL, "/tmp", NULL, RCUPROF_ERR_USAGE, "VERSION.dat" },
    };
    char path[300], patch[300], err[512];
    json_t *known = json_pack("{s:{}, s:{}}", "stock", "rcu-sync");
    json_t *doc, *v;
    FILE *f;
    size_t i;

    (void)state;
    snprintf(path, sizeof(path), "%s/variants.local.json", tmpdir);
    snprintf(patch, sizeof(patch), "%s/x.patch", tmpdir);
    f = fopen(patch, "w");
    fputs("--- a/x\n+++ b/x\n", f);
    fclose(f);

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const char *p[1];
        int rc;

        p[0] = rows[i].patch != NULL && strcmp(rows[i].patch, "@good") == 0
               ? patch : rows[i].patch;
        err[0] = '\0';
        rc = rcuprof_variant_add_to(path, known, rows[i].name, rows[i].base,
                                    rows[i].source, p,
                                    rows[i].patch != NULL ? 1 : 0, "d",
                                    err, sizeof(err));
        print_message("line %d: rc %d %s\n", rows[i].line, rc, err);
        assert_int_equal(rc, rows[i].rc);
        if (rows[i].err_has != NULL)
            assert_non_null(strstr(err, rows[i].err_has));
        if (rc == RCUPROF_OK) {
            /* What the build will read back. */
            doc = json_load_file(path, 0, NULL);
            assert_non_null(doc);
            v = json_object_get(json_object_get(doc, "variants"), rows[i].name);
            assert_non_null(v);
            assert_string_equal(json_string_value(json_object_get(v, "base")),
                                rows[i].base);
            assert_int_equal(json_array_size(json_object_get(v, "patches")), 1);
            assert_true(json_string_value(json_array_get(
                json_object_get(v, "patches"), 0))[0] == '/');
            json_decref(doc);
            json_object_set_new(known, rows[i].name, json_object());
        }
    }

    /* A corrupt user file is refused, not overwritten. */
    f = fopen(path, "w");
    fputs("{ not json", f);
    fclose(f);
    assert_int_equal(rcuprof_variant_add_to(path, known, "third", "stock",
                                            NULL, NULL, 0, NULL, err,
                                            sizeof(err)), RCUPROF_ERR_USAGE);
    assert_non_null(strstr(err, "corrupt"));
    f = fopen(path, "r");
    assert_non_null(fgets(err, sizeof(err), f));
    fclose(f);
    assert_string_equal(err, "{ not json");
    json_decref(known);
}

/* Variant references: NAME, or BASE+OPT[+OPT...] (variants.json options) */
static void test_variant_names(void **state)
{
    static const struct {
        int line;
        const char *name;
        int ok;
    } rows[] = {
        { __LINE__, "rcu-sync", 1 },
        { __LINE__, "rcu-sync+padded", 1 },
        { __LINE__, "rcu-sync+padded+x.y", 1 },
        { __LINE__, "+padded", 0 },
        { __LINE__, "rcu-sync+", 0 },
        { __LINE__, "rcu-sync++padded", 0 },
        { __LINE__, "rcu-sync+Padded", 0 },
        { __LINE__, "rcu sync", 0 },
        { __LINE__, "", 0 },
        /* NAME@LINE (docs/interfaces.md, section 6, "Lines") */
        { __LINE__, "stock-pristine@4.0", 1 },
        { __LINE__, "rcu-sync+padded@3.6", 1 },
        { __LINE__, "stock@10.12", 1 },
        { __LINE__, "stock@4", 0 },
        { __LINE__, "stock@4.", 0 },
        { __LINE__, "stock@.0", 0 },
        { __LINE__, "stock@4.0x", 0 },
        { __LINE__, "stock@4.0@3.5", 0 },
        { __LINE__, "@4.0", 0 },
        { __LINE__, "rcu-sync+@4.0", 0 },
    };
    static const struct {
        int line;
        const char *in, *canon, *of_line;
    } canon[] = {
        { __LINE__, "stock@3.5", "stock", "3.5" },
        { __LINE__, "stock", "stock", "3.5" },
        { __LINE__, "rcu-sync+padded@3.5", "rcu-sync+padded", "3.5" },
        { __LINE__, "stock-pristine@4.0", "stock-pristine@4.0", "4.0" },
        { __LINE__, "stock@3.50", "stock@3.50", "3.50" },
    };
    char buf[64];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (rcuprof_variant_name_ok(rows[i].name) != rows[i].ok)
            fail_msg("line %d: '%s' should be %s", rows[i].line, rows[i].name,
                     rows[i].ok ? "accepted" : "refused");
    }
    for (i = 0; i < sizeof(canon) / sizeof(canon[0]); i++) {
        strcpy(buf, canon[i].in);
        if (strcmp(rcuprof_variant_line(buf), canon[i].of_line) != 0)
            fail_msg("line %d: '%s' is of line %s, not %s", canon[i].line,
                     canon[i].in, canon[i].of_line, rcuprof_variant_line(buf));
        if (strcmp(rcuprof_variant_canon(buf), canon[i].canon) != 0)
            fail_msg("line %d: '%s' should be '%s', got '%s'", canon[i].line,
                     canon[i].in, canon[i].canon, buf);
    }
}

static void test_driver_spawn(void **state)
{
    struct rcuprof_driver_result r;
    char msg[256];
    char *ok[] = { "sh", "-c",
                   "echo '{\"x\":1}'; echo '{\"error\":\"setup\",\"message\":\"no such alg\"}' >&2; exit 3",
                   NULL };
    char *crash[] = { "sh", "-c", "kill -SEGV $$", NULL };
    char *hang[] = { "sh", "-c", "sleep 30", NULL };

    (void)state;
    assert_int_equal(rcuprof_driver_spawn("/bin/sh", ok, 10, &r), 0);
    assert_true(r.exited);
    assert_int_equal(r.status, 3);
    assert_false(r.timed_out);
    assert_string_equal(r.out, "{\"x\":1}\n");
    rcuprof_driver_error_message(&r, msg, sizeof(msg));
    assert_string_equal(msg, "no such alg");
    rcuprof_driver_result_free(&r);

    assert_int_equal(rcuprof_driver_spawn("/bin/sh", crash, 10, &r), 0);
    assert_false(r.exited);
    assert_int_equal(r.status, 11);
    rcuprof_driver_result_free(&r);

    assert_int_equal(rcuprof_driver_spawn("/bin/sh", hang, 0.3, &r), 0);
    assert_true(r.timed_out);
    assert_false(r.exited);
    assert_true(r.seconds < 10.0);
    rcuprof_driver_result_free(&r);

    /* A program that cannot be executed is reported like a failing driver. */
    assert_int_equal(rcuprof_driver_spawn("/nonexistent", hang, 5, &r), 0);
    assert_true(r.exited);
    assert_int_equal(r.status, 127);
    rcuprof_driver_error_message(&r, msg, sizeof(msg));
    assert_non_null(strstr(msg, "cannot execute"));
    rcuprof_driver_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_atomic),
        cmocka_unit_test(test_variant_add),
        cmocka_unit_test(test_variant_names),
        cmocka_unit_test(test_driver_spawn),
    };

    return cmocka_run_group_tests(tests, unit_tmpdir_setup,
                                  unit_tmpdir_teardown);
}
