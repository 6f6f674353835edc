/*
 * The experiment engine (src/cli/experiment.c) on a fake executor: the
 * plan and its interleaving from a seed, resume skipping done points, a
 * lost transport stopping the run, a deferring executor running fixed
 * blocks, and results of another driver protocol refused.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "experiment.h"
#include "rcuprof_protocol.h"
#include "../unit_tmpdir.h"

/* ---- the fake executor: a script of what each call returns ---- */

enum fake_mode { FAKE_FAIL, FAKE_FOREIGN, FAKE_REFUSE, FAKE_DEFER };

struct fake {
    struct rcuprof_executor x;
    enum fake_mode mode;
    int lost_at;                /* call number (from 1) that is LOST; 0 */
    int calls, prepared, bad_current;
    size_t cells[256];          /* the cell of each call, in order */
};

static int fake_prepare(struct rcuprof_executor *x, const char *variant,
                        const char *drv, char *err, size_t n)
{
    struct fake *f = x->priv;

    (void)variant;
    (void)drv;
    (void)err;
    (void)n;
    f->prepared++;
    return 0;
}

static enum rcuprof_exec_rc fake_run(struct rcuprof_executor *x,
                                     char *const argv[], double timeout_s,
                                     struct rcuprof_driver_result *r)
{
    struct fake *f = x->priv;

    (void)timeout_s;
    memset(r, 0, sizeof(*r));
    f->calls++;
    if (f->calls <= 256)
        f->cells[f->calls - 1] = strtoul(argv[1], NULL, 10);
    if (f->calls == f->lost_at) {
        r->err = strdup("{\"error\":\"system\",\"message\":\"connection reset\"}");
        return RCUPROF_EXEC_LOST;
    }
    if (f->mode == FAKE_DEFER) {
        /* What a bundle records: the point line in flight. */
        const json_t *line = NULL;
        const struct rcuprof_experiment *e = rcuprof_exp_current(&line);

        if (e == NULL || line == NULL
            || json_integer_value(json_object_get(line, "seq"))
               != f->calls - 1
            || e->header == NULL)
            f->bad_current++;
        return RCUPROF_EXEC_DEFERRED;
    }
    r->exited = 1;
    if (f->mode == FAKE_FOREIGN) {
        r->status = RCUPROF_EXIT_OK;
        r->out = strdup("{\"build\":{\"driver_protocol\":99},\"run\":{}}");
        r->err = strdup("");
    } else {
        r->status = f->mode == FAKE_REFUSE ? RCUPROF_EXIT_USAGE
                                           : RCUPROF_EXIT_RUN;
        r->out = strdup("");
        r->err = strdup("{\"error\":\"run\",\"message\":\"boom\"}");
    }
    return RCUPROF_EXEC_RAN;
}

static json_t *fake_host(struct rcuprof_executor *x)
{
    (void)x;
    return json_pack("{s:s, s:s}", "name", "fakehost", "arch", "x86_64");
}

static void fake_close(struct rcuprof_executor *x)
{
    (void)x;
}

static void fake_init(struct fake *f, enum fake_mode mode)
{
    memset(f, 0, sizeof(*f));
    f->x.kind = "fake";
    snprintf(f->x.name, sizeof(f->x.name), "fakehost");
    f->x.prepare = fake_prepare;
    f->x.run = fake_run;
    f->x.host_record = fake_host;
    f->x.close = fake_close;
    f->x.priv = f;
    f->mode = mode;
}

/* ---- a plan builder: 2 thread counts (groups) x 3 variants ---- */

static const char *const variants[] = { "va", "vb", "vc" };

static void cb_driver(void *ctx, size_t cell, const char **v,
                      const char **drv)
{
    (void)ctx;
    *v = variants[cell % 3];
    *drv = "/nonexistent/driver";
}

static int cb_argv(void *ctx, const struct rcuprof_exp_point *p, char **av,
                   size_t cap)
{
    (void)ctx;
    (void)cap;
    av[0] = (char *)"/nonexistent/driver";
    if (asprintf(&av[1], "%zu", p->cell) < 0)
        return -1;
    av[2] = NULL;
    return 2;
}

static json_t *cb_line(void *ctx, const struct rcuprof_exp_point *p)
{
    (void)ctx;
    return json_pack("{s:s, s:i, s:i, s:s, s:i, s:i}", "type", "point",
                     "block", (int)p->block,
                     "threads", (int)(p->cell / 3 + 1),
                     "variant", variants[p->cell % 3],
                     "order", (int)p->order, "seq", (int)p->seq);
}

static int cb_cell_of(void *ctx, const rcuprof_results *rs,
                      const rcuprof_point *p, size_t *cell)
{
    char want[64];
    size_t v;

    (void)ctx;
    /* A point of a named host is the cell "VARIANT [HOST]" (results.c). */
    for (v = 0; v < 3; v++) {
        snprintf(want, sizeof(want), "%s [fakehost]", variants[v]);
        if (strcmp(want, rs->variants[p->variant]) == 0)
            break;
    }
    if (v == 3)
        return -1;
    *cell = (p->threads - 1) * 3 + v;
    return 0;
}

static int need_calls;

static int cb_need(void *ctx, unsigned blocks, struct rcuprof_exp_need *n)
{
    (void)ctx;
    (void)blocks;
    need_calls++;
    n->worst_mde_pct = 50;
    n->blocks = 100;
    snprintf(n->where, sizeof(n->where), "va@1");
    return 0;
}

static const size_t groups[6] = { 0, 0, 0, 1, 1, 1 };

static char path[512], hash[65];
static json_t *header;

static void exp_setup(struct rcuprof_experiment *e, struct fake *f,
                      uint64_t seed, unsigned reps, int file)
{
    rcuprof_exp_init(e, "test");
    e->exec = &f->x;
    e->ncells = 6;
    e->ngroups = 2;
    e->group = groups;
    e->seed = seed;
    e->reps = reps;
    e->timeout_s = 10;
    e->driver = cb_driver;
    e->argv = cb_argv;
    e->line = cb_line;
    if (file) {
        e->dir = tmpdir;
        e->path = path;
        e->header = header;
    }
}

static void make_header(void)
{
    json_t *spec = json_pack("{s:[s,s,s], s:[i,i], s:i, s:i, s:{}}",
                             "variants", "va", "vb", "vc", "threads", 1, 2,
                             "reps", 2, "seed", 7, "options");

    assert_int_equal(rcuprof_spec_hash(spec, hash), 0);
    json_decref(header);
    header = json_pack("{s:s, s:s, s:o, s:s}", "type", "header", "schema",
                       RCUPROF_RESULTS_SCHEMA, "spec", spec, "spec_hash",
                       hash);
    assert_non_null(header);
    snprintf(path, sizeof(path), "%s/results.jsonl", tmpdir);
    unlink(path);
}

static size_t file_points(void)
{
    FILE *fp = fopen(path, "r");
    char line[65536];
    size_t n = 0;

    if (fp == NULL)
        return 0;
    while (fgets(line, sizeof(line), fp) != NULL)
        n += strstr(line, "\"type\":\"point\"") != NULL;
    fclose(fp);
    return n;
}

/* ---- the tests ---- */

static void test_plan_from_seed(void **state)
{
    struct rcuprof_experiment a, b, c;
    struct fake f;
    size_t k, differ = 0;

    (void)state;
    fake_init(&f, FAKE_FAIL);
    exp_setup(&a, &f, 42, 3, 0);
    exp_setup(&b, &f, 42, 5, 0);
    exp_setup(&c, &f, 43, 3, 0);
    assert_int_equal(rcuprof_exp_plan(&a, 3), 0);
    assert_int_equal(rcuprof_exp_plan(&b, 5), 0);
    assert_int_equal(rcuprof_exp_plan(&c, 3), 0);
    assert_int_equal(a.nplan, 18);
    assert_int_equal(b.nplan, 30);
    for (k = 0; k < a.nplan; k++) {
        /* The longer plan starts with the shorter one, point for point. */
        assert_int_equal(a.plan[k].cell, b.plan[k].cell);
        assert_int_equal(a.plan[k].block, k / 6);
        assert_int_equal(a.plan[k].seq, k);
        /* Groups in order within a block: thread count 1, then 2. */
        assert_int_equal(groups[a.plan[k].cell], (k % 6) / 3);
        differ += a.plan[k].cell != c.plan[k].cell;
    }
    assert_true(differ > 0);    /* another seed, another order */
    /* Every block holds every cell once. */
    for (k = 0; k < 3; k++) {
        unsigned seen = 0;
        size_t i;

        for (i = 0; i < 6; i++)
            seen |= 1u << a.plan[k * 6 + i].cell;
        assert_int_equal(seen, 0x3f);
    }
    rcuprof_exp_free(&a);
    rcuprof_exp_free(&b);
    rcuprof_exp_free(&c);
}

/* LOST at the 4th call: 3 points kept, a system error; --resume runs only
 * the 9 the file lacks, each with the host record. */
static void test_lost_then_resume(void **state)
{
    struct rcuprof_experiment e;
    struct fake f;
    int rc;

    (void)state;
    make_header();
    fake_init(&f, FAKE_FAIL);
    f.lost_at = 4;
    exp_setup(&e, &f, 7, 2, 1);
    rc = rcuprof_exp_run(&e);
    assert_int_equal(rc, RCUPROF_ERR_SYSTEM);
    assert_int_equal(f.calls, 4);
    assert_int_equal(f.prepared, 3);        /* once per variant */
    assert_int_equal(e.ran, 3);
    assert_int_equal(file_points(), 3);
    rcuprof_exp_free(&e);

    fake_init(&f, FAKE_FAIL);
    exp_setup(&e, &f, 7, 2, 1);
    assert_int_equal(rcuprof_exp_plan(&e, 2), 0);
    assert_int_equal(rcuprof_exp_resume(&e, hash, cb_cell_of), 0);
    rc = rcuprof_exp_run(&e);
    assert_int_equal(rc, RCUPROF_ERR_RUN);  /* every point failed (exit 4) */
    assert_int_equal(e.already, 3);
    assert_int_equal(f.calls, 9);
    assert_int_equal(file_points(), 12);
    rcuprof_exp_free(&e);
    {
        /* Each point line carries the executor's host record. */
        FILE *fp = fopen(path, "r");
        char line[65536];
        size_t hosts = 0;

        assert_non_null(fp);
        while (fgets(line, sizeof(line), fp) != NULL)
            hosts += strstr(line, "\"host\":{") != NULL
                     && strstr(line, "\"fakehost\"") != NULL;
        fclose(fp);
        assert_int_equal(hosts, 12);
    }
    /* A spec of another hash is refused. */
    fake_init(&f, FAKE_FAIL);
    exp_setup(&e, &f, 7, 2, 1);
    assert_int_equal(rcuprof_exp_plan(&e, 2), 0);
    assert_int_equal(rcuprof_exp_resume(&e, "0000", cb_cell_of),
                     RCUPROF_ERR_USAGE);
    rcuprof_exp_free(&e);
}

/* A deferring executor: no results, so adaptive stopping cannot run:
 * fixed blocks, said, nothing appended. */
static void test_deferred_fixed_blocks(void **state)
{
    struct rcuprof_experiment e;
    struct fake f;

    (void)state;
    make_header();
    fake_init(&f, FAKE_DEFER);
    exp_setup(&e, &f, 7, 3, 1);
    e.target_mde = 5;
    e.need = cb_need;
    need_calls = 0;
    assert_int_equal(rcuprof_exp_run(&e), RCUPROF_OK);
    assert_int_equal(e.stop, RCUPROF_EXP_STOP_DEFERRED);
    assert_int_equal(need_calls, 0);
    assert_int_equal(e.nblocks, 3);
    assert_int_equal(e.ndeferred, 18);
    assert_int_equal(f.calls, 18);
    assert_int_equal(f.bad_current, 0);
    assert_null(rcuprof_exp_current(NULL));
    assert_int_equal(access(path, F_OK), -1);
    rcuprof_exp_free(&e);

    /* The same plan run locally-like (results) goes adaptive: need() is
     * asked and blocks are added up to the limit. */
    make_header();
    fake_init(&f, FAKE_FAIL);
    exp_setup(&e, &f, 7, 3, 1);
    e.target_mde = 5;
    e.need = cb_need;
    e.blocks_max = 4;
    need_calls = 0;
    assert_int_equal(rcuprof_exp_run(&e), RCUPROF_ERR_RUN);
    assert_true(need_calls >= 1);
    assert_int_equal(e.stop, RCUPROF_EXP_STOP_LIMIT);
    assert_int_equal(e.nblocks, 4);
    assert_int_equal(file_points(), 24);
    rcuprof_exp_free(&e);
}

/* A result of another driver protocol: refused (exit 2), nothing written;
 * the one-shot measure says RCUPROF_EXP_FOREIGN with why. */
static void test_protocol_refused(void **state)
{
    struct rcuprof_experiment e;
    struct rcuprof_exp_outcome o;
    struct fake f;
    char *av[] = { (char *)"/nonexistent/driver", (char *)"0", NULL };

    (void)state;
    make_header();
    fake_init(&f, FAKE_FOREIGN);
    exp_setup(&e, &f, 7, 2, 1);
    assert_int_equal(rcuprof_exp_run(&e), RCUPROF_ERR_USAGE);
    assert_int_equal(f.calls, 1);
    assert_int_equal(access(path, F_OK), -1);
    rcuprof_exp_free(&e);

    fake_init(&f, FAKE_FOREIGN);
    assert_int_equal(rcuprof_exp_measure(&f.x, av, 10, &o),
                     RCUPROF_EXP_FOREIGN);
    assert_non_null(strstr(o.message, "protocol 99"));
    rcuprof_exp_outcome_free(&o);
}

/* A first point the driver refuses (usage): the options' fault, nothing
 * written; the same exit later in a run is a failed point. */
static void test_first_refused(void **state)
{
    struct rcuprof_experiment e;
    struct rcuprof_exp_outcome o;
    struct fake f;
    char *av[] = { (char *)"/nonexistent/driver", (char *)"0", NULL };

    (void)state;
    make_header();
    fake_init(&f, FAKE_REFUSE);
    exp_setup(&e, &f, 7, 2, 1);
    assert_int_equal(rcuprof_exp_run(&e), RCUPROF_ERR_USAGE);
    assert_int_equal(access(path, F_OK), -1);
    rcuprof_exp_free(&e);
    fake_init(&f, FAKE_REFUSE);
    assert_int_equal(rcuprof_exp_measure(&f.x, av, 10, &o), RCUPROF_EXEC_RAN);
    assert_true(o.refused);
    assert_int_equal(o.status, RCUPROF_POINT_FAILED);
    assert_string_equal(o.message, "boom");
    rcuprof_exp_outcome_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_from_seed),
        cmocka_unit_test(test_lost_then_resume),
        cmocka_unit_test(test_deferred_fixed_blocks),
        cmocka_unit_test(test_protocol_refused),
        cmocka_unit_test(test_first_refused),
    };

    return cmocka_run_group_tests(tests, unit_tmpdir_setup,
                                  unit_tmpdir_teardown);
}
