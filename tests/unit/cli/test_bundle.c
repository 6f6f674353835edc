/*
 * Packs and the bundle executor without a stress driver: /bin/true stands
 * in for a dynamic driver, a static busybox for a static one.  The argv
 * prefix of a pack, the plan lines run.sh evaluates (quoting), the
 * executor's DEFERRED and its refusal of a driver it did not prepare, and
 * the bundle id as the digest of plan.json.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bundle.h"
#include "cli.h"
#include "experiment.h"
#include "pack.h"
#include "results.h"
#include "../unit_tmpdir.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = calloc(1, 1 << 20);

    assert_non_null(f);
    assert_non_null(buf);
    (void)!fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

static void test_pack_dynamic(void **state)
{
    char out[300], id[RCUPROF_PACK_IDLEN + 1], id2[RCUPROF_PACK_IDLEN + 1];
    char err[512], dir[400], buf[4096], *av[8], path[500];
    int n;

    (void)state;
    snprintf(out, sizeof(out), "%s/packs", tmpdir);
    assert_int_equal(rcuprof_pack_driver("/bin/true", out, id, sizeof(id),
                                         err, sizeof(err)), 0);
    assert_int_equal(strlen(id), RCUPROF_PACK_IDLEN);
    /* Packing again: the same id, the folder kept. */
    assert_int_equal(rcuprof_pack_driver("/bin/true", out, id2, sizeof(id2),
                                         err, sizeof(err)), 0);
    assert_string_equal(id, id2);
    snprintf(dir, sizeof(dir), "%s/%s", out, id);
    snprintf(path, sizeof(path), "%s/lib/libc.so.6", dir);
    assert_int_equal(access(path, R_OK), 0);
    /* The argv prefix, in place and relative to the pack. */
    n = rcuprof_pack_argv(dir, ".", buf, sizeof(buf), av, 8, err,
                          sizeof(err));
    assert_int_equal(n, 5);
    assert_string_equal(av[0], "./lib/ld-linux-x86-64.so.2");
    assert_string_equal(av[1], "--inhibit-cache");
    assert_string_equal(av[2], "--library-path");
    assert_string_equal(av[3], "./lib");
    assert_string_equal(av[4], "./driver");
    assert_null(av[5]);
    /* It runs: /bin/true through its own loader and libraries. */
    n = rcuprof_pack_argv(dir, NULL, buf, sizeof(buf), av, 8, err,
                          sizeof(err));
    assert_int_equal(n, 5);
    {
        struct rcuprof_driver_result r;

        assert_int_equal(rcuprof_driver_spawn(av[0], av, 30, &r), 0);
        assert_true(r.exited);
        assert_int_equal(r.status, 0);
        rcuprof_driver_result_free(&r);
    }
    /* Too small a buffer, or no pack: -1 and a message. */
    assert_int_equal(rcuprof_pack_argv(dir, NULL, buf, 16, av, 8, err,
                                       sizeof(err)), -1);
    assert_int_equal(rcuprof_pack_argv(tmpdir, NULL, buf, sizeof(buf), av, 8,
                                       err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no pack there"));
    /* Not an ELF executable. */
    assert_int_equal(rcuprof_pack_driver("/etc/hostname", out, id,
                                         sizeof(id), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not an x86-64 ELF executable"));
}

static void test_pack_static(void **state)
{
    char out[300], id[RCUPROF_PACK_IDLEN + 1], err[512], dir[400];
    char buf[1024], *av[8], *m;
    const char *bb = "/usr/bin/busybox";

    (void)state;
    if (access(bb, X_OK) != 0) {
        skip();                 /* busybox-static: cmake/install-deps.sh */
        return;
    }
    snprintf(out, sizeof(out), "%s/packs", tmpdir);
    assert_int_equal(rcuprof_pack_driver(bb, out, id, sizeof(id), err,
                                         sizeof(err)), 0);
    snprintf(dir, sizeof(dir), "%s/%s/MANIFEST", out, id);
    m = slurp(dir);
    assert_non_null(strstr(m, "rcuprof-pack 1\nloader -\nfile "));
    assert_null(strstr(m, "lib/"));
    free(m);
    snprintf(dir, sizeof(dir), "%s/%s", out, id);
    assert_int_equal(rcuprof_pack_argv(dir, "/x", buf, sizeof(buf), av, 8,
                                       err, sizeof(err)), 1);
    assert_string_equal(av[0], "/x/driver");
}

/* A plan builder of one cell (argv1's driver) for the engine. */
static char **eng_argv;

static void eng_driver(void *ctx, size_t cell, const char **v,
                       const char **drv)
{
    (void)ctx;
    (void)cell;
    *v = "v1";
    *drv = eng_argv[0];
}

static int eng_av(void *ctx, const struct rcuprof_exp_point *p, char **av,
                  size_t cap)
{
    size_t i;

    (void)ctx;
    (void)p;
    for (i = 0; eng_argv[i] != NULL && i + 1 < cap; i++)
        av[i] = i == 0 ? eng_argv[0] : strdup(eng_argv[i]);
    av[i] = NULL;
    return (int)i;
}

static json_t *eng_line(void *ctx, const struct rcuprof_exp_point *p)
{
    (void)ctx;
    return json_pack("{s:s, s:i, s:i, s:s, s:i, s:i}", "type", "point",
                     "block", (int)p->block, "threads", 2, "variant", "v1",
                     "order", (int)p->order, "seq", (int)p->seq);
}

static void test_bundle_executor(void **state)
{
    char root[300], err[512], id[RCUPROF_BUNDLE_IDLEN + 1], path[400];
    char cmd[1200], hex[65];
    char *argv1[] = { "/bin/true", "--threads=2", "--propq=it's a b",
                      "--fetch=MD:SHA256", NULL };
    char *argv2[] = { "/bin/false", "--threads=1", NULL };
    struct rcuprof_executor *x;
    struct rcuprof_driver_result r;
    json_t *hdr, *plan, *pt;
    char *text, *copy;
    FILE *p;

    (void)state;
    snprintf(root, sizeof(root), "%s/b", tmpdir);
    x = rcuprof_executor_bundle(root, err, sizeof(err));
    assert_non_null(x);
    assert_string_equal(x->kind, "bundle");
    /* Its root must be new. */
    assert_null(rcuprof_executor_bundle(root, err, sizeof(err)));
    assert_int_equal(x->prepare(x, "v1", "/bin/true", err, sizeof(err)), 0);
    /* Outside an engine's run there is no point to record. */
    assert_int_equal(x->run(x, argv1, 60, &r), RCUPROF_EXEC_ERROR);
    /* A driver it did not prepare. */
    assert_int_equal(x->run(x, argv2, 60, &r), RCUPROF_EXEC_ERROR);
    assert_null(x->host_record(x));
    /* The engine plans 2 fixed blocks of the one cell; every point is
     * deferred, its cell from the point in flight, the header kept. */
    {
        struct rcuprof_experiment e;

        snprintf(path, sizeof(path), "%s/never.jsonl", tmpdir);
        hdr = json_pack("{s:s}", "type", "header");
        eng_argv = argv1;
        rcuprof_exp_init(&e, "bundle");
        e.exec = x;
        e.ncells = 1;
        e.reps = e.blocks_max = 2;
        e.timeout_s = 60;
        e.progress = -1;
        e.dir = tmpdir;
        e.path = path;
        e.header = hdr;
        e.driver = eng_driver;
        e.argv = eng_av;
        e.line = eng_line;
        assert_int_equal(rcuprof_exp_run(&e), RCUPROF_OK);
        assert_int_equal(e.ndeferred, 2);
        assert_int_equal(access(path, F_OK), -1);
        rcuprof_exp_free(&e);
        json_decref(hdr);
    }
    assert_int_equal(rcuprof_bundle_finish(x, NULL, id, sizeof(id), err,
                                           sizeof(err)), 0);
    rcuprof_executor_close(x);

    /* plan.txt: the header, then the point; its args as sh reads them. */
    snprintf(path, sizeof(path), "%s/plan.txt", root);
    text = slurp(path);
    assert_int_equal(strncmp(text, "rcuprof-bundle-plan 1 60 2\n0 ", 29), 0);
    assert_non_null(strstr(text, "\n1 "));
    assert_non_null(strstr(text, " 2 v1 2 '--threads=2' '--propq=it'\\''s a b' "));
    free(text);
    snprintf(cmd, sizeof(cmd),
             "tail -n 1 '%s' | { read -r s pk b v t args; eval \"set -- $args\"; printf '%%s|' \"$@\"; }",
             path);
    p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(cmd, sizeof(cmd), p));
    pclose(p);
    assert_string_equal(cmd, "--threads=2|--propq=it's a b|--fetch=MD:SHA256|");

    /* plan.json: the point with its cell, and the id its digest. */
    snprintf(path, sizeof(path), "%s/plan.json", root);
    plan = json_load_file(path, 0, NULL);
    assert_non_null(plan);
    assert_string_equal(json_string_value(json_object_get(plan, "schema")),
                        RCUPROF_BUNDLE_SCHEMA);
    assert_string_equal(json_string_value(json_object_get(plan, "id")), id);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(plan, "header"), "type")), "header");
    pt = json_array_get(json_object_get(plan, "points"), 1);
    assert_int_equal(json_integer_value(json_object_get(pt, "block")), 1);
    assert_int_equal(json_integer_value(json_object_get(pt, "seq")), 1);
    assert_int_equal(json_integer_value(json_object_get(pt, "threads")), 2);
    assert_string_equal(json_string_value(json_object_get(pt, "variant")),
                        "v1");
    assert_int_equal(json_array_size(json_object_get(plan, "points")), 2);
    json_object_del(plan, "id");
    copy = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    rcuprof_sha256_hex(copy, strlen(copy), hex);
    assert_int_equal(strncmp(hex, id, RCUPROF_BUNDLE_IDLEN), 0);
    free(copy);
    json_decref(plan);
    snprintf(path, sizeof(path), "%s/run.sh", root);
    assert_int_equal(access(path, X_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_dynamic),
        cmocka_unit_test(test_pack_static),
        cmocka_unit_test(test_bundle_executor),
    };

    return cmocka_run_group_tests(tests, unit_tmpdir_setup,
                                  unit_tmpdir_teardown);
}
