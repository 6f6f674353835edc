/*
 * The one decoder of a driver result (analysis/record.c), checked against
 * docs/schema/run-result.schema.json: every member it reads exists in the
 * schema at that path, and every JSON type the schema allows there is one
 * the decoder takes; the rule of a measurement on bad values (table, rows
 * tagged with __LINE__); and real results (the case study's committed
 * results files) decode as measurements.
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
#include <cmocka.h>

#include "record.h"
#include "results.h"

#ifndef RCUPROF_SRC_DIR
# error "RCUPROF_SRC_DIR: the source tree (set by CMake)"
#endif

static json_t *g_schema;

static int setup(void **state)
{
    json_error_t je;

    (void)state;
    g_schema = json_load_file(RCUPROF_SRC_DIR
                              "/docs/schema/run-result.schema.json", 0, &je);
    if (g_schema == NULL)
        fprintf(stderr, "schema: %s (line %d)\n", je.text, je.line);
    return g_schema == NULL;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(g_schema);
    return 0;
}

/* "#/$defs/x" references, followed. */
static const json_t *deref(const json_t *s)
{
    const char *ref = json_string_value(json_object_get(s, "$ref"));

    if (ref != NULL && strncmp(ref, "#/$defs/", 8) == 0)
        return json_object_get(json_object_get(g_schema, "$defs"), ref + 8);
    return s;
}

/* The schema of one path segment below S: a property, "[]" the items,
 * anything else an additionalProperties schema.  NULL: not in the schema. */
static const json_t *step(const json_t *s, const char *seg)
{
    const json_t *v;

    s = deref(s);
    if (strcmp(seg, "[]") == 0)
        return json_object_get(s, "items");
    v = json_object_get(json_object_get(s, "properties"), seg);
    if (v != NULL)
        return v;
    v = json_object_get(s, "additionalProperties");
    return json_is_object(v) ? v : NULL;
}

/* The types the schema allows at S: its "type" (string or list), or the
 * union over oneOf/anyOf. */
static void schema_types(const json_t *s, char *out, size_t n)
{
    const json_t *t, *alt;
    size_t i;

    s = deref(s);
    t = json_object_get(s, "type");
    if (json_is_string(t)) {
        snprintf(out + strlen(out), n - strlen(out), "%s|",
                 json_string_value(t));
    } else if (json_is_array(t)) {
        json_array_foreach(t, i, alt)
            snprintf(out + strlen(out), n - strlen(out), "%s|",
                     json_string_value(alt));
    }
    json_array_foreach(json_object_get(s, "oneOf"), i, alt)
        schema_types(alt, out, n);
    json_array_foreach(json_object_get(s, "anyOf"), i, alt)
        schema_types(alt, out, n);
}

/* Does the decoder's type list take schema type T? ("number" takes
 * integers too.) */
static int takes(const char *decoder, const char *t)
{
    char buf[96], *tok, *save = NULL;

    snprintf(buf, sizeof(buf), "%s", decoder);
    for (tok = strtok_r(buf, "|", &save); tok != NULL;
         tok = strtok_r(NULL, "|", &save))
        if (strcmp(tok, t) == 0
            || (strcmp(tok, "number") == 0 && strcmp(t, "integer") == 0))
            return 1;
    return 0;
}

static void test_members_in_schema(void **state)
{
    const struct rcuprof_record_member *m;
    size_t n, i, checked = 0;

    (void)state;
    m = rcuprof_record_members(&n);
    assert_true(n >= 30);
    for (i = 0; i < n; i++) {
        char path[128], types[256] = "", *seg, *save = NULL, *t;
        const json_t *s = g_schema;

        /* "threads[].cpu_start" -> threads, [], cpu_start */
        snprintf(path, sizeof(path), "%s", m[i].path);
        for (seg = strtok_r(path, ".", &save); seg != NULL && s != NULL;
             seg = strtok_r(NULL, ".", &save)) {
            char *br = strstr(seg, "[]");

            if (br != NULL) {
                *br = '\0';
                s = step(s, seg);
                if (s != NULL)
                    s = step(s, "[]");
            } else {
                s = step(s, seg);
            }
        }
        if (s == NULL)
            fail_msg("the decoder reads %s, which the schema does not have",
                     m[i].path);
        schema_types(s, types, sizeof(types));
        if (types[0] == '\0')
            fail_msg("%s: the schema gives no type", m[i].path);
        save = NULL;
        for (t = strtok_r(types, "|", &save); t != NULL;
             t = strtok_r(NULL, "|", &save))
            if (!takes(m[i].types, t))
                fail_msg("%s: the schema allows %s, the decoder takes only %s",
                         m[i].path, t, m[i].types);
        checked++;
    }
    printf("%zu members checked against the schema\n", checked);
}

/* A minimal valid result; the rows below change one member of it. */
static const char *base_json =
    "{\"schema\":\"rcuprof-run/1\","
    " \"build\":{\"variant\":\"stock\",\"openssl_version\":\"3.5.7\","
    "  \"line\":\"3.5\"},"
    " \"env\":{\"hostname\":\"h\",\"kernel\":\"k\",\"cpus_online\":2,"
    "  \"cpus_allowed\":2,\"oversubscribed\":false,\"loadavg\":[1,1,1]},"
    " \"run\":{\"threads\":2,\"wall_ns\":1000000,\"ops\":2000,"
    "  \"cpu_ns\":1500000,\"wall_ns_per_op\":1000.0,\"cpu_ns_per_op\":750.0,"
    "  \"ops_per_s\":2000000.0,\"utilisation\":0.75,\"steal_ms\":0.0,"
    "  \"sched\":{\"runq_ns\":0,\"runq_ns_per_kop\":0,\"vcsw_per_kop\":0,"
    "   \"ivcsw_per_kop\":0,\"migrations_per_kop\":null},"
    "  \"line_rtt\":null,\"churn\":null,\"placement\":{\"cpus\":[null,null]}},"
    " \"threads\":[{\"id\":0,\"cpu_start\":0,\"cpu_end\":0},"
    "  {\"id\":1,\"cpu_start\":1,\"cpu_end\":1}],"
    " \"probes\":null,\"counters\":null,\"samples\":null,\"errors\":[]}";

static void test_rule(void **state)
{
    static const struct {
        int line;
        const char *member;     /* run.X set to value; NULL: unchanged */
        const char *value;      /* JSON; NULL: the member removed */
        int ok;
        const char *why;        /* substring of why when not ok */
    } rows[] = {
        { __LINE__, NULL, NULL, 1, NULL },
        { __LINE__, "wall_ns_per_op", "0", 0, "run.wall_ns_per_op" },
        { __LINE__, "wall_ns_per_op", "-1.5", 0, "run.wall_ns_per_op" },
        { __LINE__, "wall_ns_per_op", "null", 0, "run.wall_ns_per_op" },
        { __LINE__, "wall_ns_per_op", "\"12\"", 0, "run.wall_ns_per_op" },
        { __LINE__, "wall_ns_per_op", NULL, 0, "run.wall_ns_per_op" },
        { __LINE__, "cpu_ns_per_op", "-1", 0, "run.cpu_ns_per_op" },
        { __LINE__, "cpu_ns_per_op", "null", 0, "run.cpu_ns_per_op" },
        /* 0 is a measurement (test_bound), but not beside cpu_ns 1.5 ms. */
        { __LINE__, "cpu_ns_per_op", "0", 0, "is not run.cpu_ns / ops (750)" },
        { __LINE__, "threads", "0", 0, "run.threads" },
        { __LINE__, "threads", "1.5", 0, "run.threads" },
        /* A results file's synthetic result may leave threads out. */
        { __LINE__, "threads", NULL, 1, NULL },
        { __LINE__, "ops_per_s", "null", 1, NULL },
        /* Implausible: above one op in a day-long run on 1,024 threads,
         * or not what wall_ns, threads, cpu_ns and ops give. */
        { __LINE__, "wall_ns_per_op", "1e308", 0, "run.wall_ns_per_op 1e+308 is above" },
        { __LINE__, "cpu_ns_per_op", "1e17", 0, "run.cpu_ns_per_op 1e+17 is above" },
        { __LINE__, "wall_ns_per_op", "1000.5", 0, "is not run.wall_ns x threads / ops (1000)" },
        { __LINE__, "cpu_ns_per_op", "74", 0, "is not run.cpu_ns / ops (750)" },
        { __LINE__, "wall_ns", NULL, 1, NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        json_t *res = json_loads(base_json, 0, NULL), *run;
        rcuprof_record r;

        assert_non_null(res);
        run = json_object_get(res, "run");
        if (rows[i].member != NULL && rows[i].value == NULL)
            json_object_del(run, rows[i].member);
        else if (rows[i].member != NULL)
            json_object_set_new(run, rows[i].member,
                                json_loads(rows[i].value, JSON_DECODE_ANY,
                                           NULL));
        rcuprof_record_decode(res, &r);
        if (r.ok != rows[i].ok)
            fail_msg("line %d: ok %d, wanted %d (%s)", rows[i].line, r.ok,
                     rows[i].ok, r.why);
        if (!r.ok && (strstr(r.why, rows[i].why) == NULL
                      || strchr(r.why, '\n') != NULL))
            fail_msg("line %d: why '%s' lacks '%s'", rows[i].line, r.why,
                     rows[i].why);
        json_decref(res);
    }
}

/* Without wall_ns, ops and cpu_ns (a synthetic results file) only the
 * bound applies: RCUPROF_RECORD_MAX_NS_PER_OP is accepted, above it not. */
static void test_bound(void **state)
{
    static const struct {
        int line;
        double wall, cpu;
        int ok;
    } rows[] = {
        { __LINE__, RCUPROF_RECORD_MAX_NS_PER_OP, 0, 1 },
        { __LINE__, 8.9e16, 1, 0 },
        { __LINE__, 100, RCUPROF_RECORD_MAX_NS_PER_OP, 1 },
        { __LINE__, 100, 8.9e16, 0 },
    };
    size_t i;

    (void)state;
    assert_true(RCUPROF_RECORD_MAX_NS_PER_OP == 8.84736e16);
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        json_t *res = json_pack("{s:{s:f, s:f}}", "run", "wall_ns_per_op",
                                rows[i].wall, "cpu_ns_per_op", rows[i].cpu);
        rcuprof_record r;

        rcuprof_record_decode(res, &r);
        if (r.ok != rows[i].ok)
            fail_msg("line %d: ok %d, wanted %d (%s)", rows[i].line, r.ok,
                     rows[i].ok, r.why);
        json_decref(res);
    }
}

static void test_figures(void **state)
{
    json_t *res = json_loads(base_json, 0, NULL);
    rcuprof_record r;

    (void)state;
    rcuprof_record_decode(res, &r);
    assert_true(r.ok);
    assert_string_equal(r.variant, "stock");
    assert_string_equal(r.line, "3.5");
    assert_string_equal(r.openssl_version, "3.5.7");
    assert_string_equal(r.host, "h");
    assert_int_equal(r.cpus_allowed, 2);
    assert_int_equal(r.threads, 2);
    assert_true(r.wall_ns_per_op == 1000.0 && r.ops_per_s == 2e6);
    assert_true(isnan(r.migr_per_kop));
    assert_true(isnan(r.rtt_before));
    assert_false(r.pinned);
    assert_int_equal(r.placed, -1);
    assert_int_equal(r.ncpus_used, 2);
    assert_false(r.have_probes);
    assert_false(r.have_churn);
    assert_true(isnan(r.writes_per_s));
    assert_null(r.samples);
    json_decref(res);
}

/*
 * Placement: a pinned thread is judged by the CPUs it reported at its
 * window's start and end; -1 (a worker that never entered the window on a
 * loaded machine) is not judged, neither placed nor misplaced.
 */
static void test_placed(void **state)
{
    static const struct {
        int line;
        const char *plan, *threads;
        int placed, misplaced;
    } rows[] = {
        { __LINE__, "[0,1]", "[{\"id\":0,\"cpu_start\":0,\"cpu_end\":0},"
          "{\"id\":1,\"cpu_start\":1,\"cpu_end\":1}]", 1, 0 },
        { __LINE__, "[0,1]", "[{\"id\":0,\"cpu_start\":0,\"cpu_end\":0},"
          "{\"id\":1,\"cpu_start\":0,\"cpu_end\":1}]", 0, 1 },
        { __LINE__, "[0,1]", "[{\"id\":0,\"cpu_start\":0,\"cpu_end\":0},"
          "{\"id\":1,\"cpu_start\":-1,\"cpu_end\":-1}]", 1, 0 },
        { __LINE__, "[0,1]", "[{\"id\":0,\"cpu_start\":-1,\"cpu_end\":-1},"
          "{\"id\":1,\"cpu_start\":-1,\"cpu_end\":-1}]", -1, 0 },
        { __LINE__, "[null,null]", "[{\"id\":0,\"cpu_start\":1,"
          "\"cpu_end\":0},{\"id\":1,\"cpu_start\":1,\"cpu_end\":1}]",
          -1, 0 },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        json_t *res = json_loads(base_json, 0, NULL);
        rcuprof_record r;

        assert_non_null(res);
        json_object_set_new(json_object_get(json_object_get(res, "run"),
                                             "placement"),
                            "cpus", json_loads(rows[i].plan, 0, NULL));
        json_object_set_new(res, "threads",
                            json_loads(rows[i].threads, 0, NULL));
        rcuprof_record_decode(res, &r);
        if (r.placed != rows[i].placed || (int)r.misplaced != rows[i].misplaced)
            fail_msg("line %d: placed %d misplaced %d, wanted %d %d",
                     rows[i].line, r.placed, (int)r.misplaced,
                     rows[i].placed, rows[i].misplaced);
        json_decref(res);
    }
}

/* run.delay (docs/interfaces.md 3.4): read when an object; without it,
 * or null, have_delay 0 and every figure unknown. */
static void test_delay(void **state)
{
    json_t *res = json_loads(base_json, 0, NULL);
    rcuprof_record r;

    (void)state;
    rcuprof_record_decode(res, &r);
    assert_false(r.have_delay);
    assert_string_equal(r.delay_site, "");
    assert_true(isnan(r.delay_calls_per_op) && isnan(r.delay_ns));
    json_object_set_new(json_object_get(res, "run"), "delay", json_null());
    rcuprof_record_decode(res, &r);
    assert_false(r.have_delay);
    assert_true(isnan(r.delay_ns_per_call));
    json_object_set_new(json_object_get(res, "run"), "delay", json_loads(
        "{\"site\":\"cas_window\",\"where\":\"driver\",\"ns\":40,"
        " \"ticks\":105,\"calls\":3000,\"calls_per_op\":1.5,"
        " \"delay_ns_per_call\":52.5,\"own_ns_per_call\":null,"
        " \"timed\":46,\"fixed_ns\":0}", 0, NULL));
    rcuprof_record_decode(res, &r);
    assert_true(r.ok);
    assert_true(r.have_delay);
    assert_string_equal(r.delay_site, "cas_window");
    assert_true(r.delay_ns == 40 && r.delay_calls_per_op == 1.5);
    assert_true(r.delay_ns_per_call == 52.5 && r.delay_fixed_ns == 0);
    assert_true(isnan(r.delay_own_ns_per_call));
    json_decref(res);
}

/* Every ok point of every committed results file is a measurement. */
static void test_real_results(void **state)
{
    static const char *const dirs[] = {
        "nochurn-2cpu", "nochurn", "churn-2cpu", "churn", "churn-pilot",
        "rcu-readers", "rcu-sync-writer"
    };
    size_t d, i, ok = 0;

    (void)state;
    for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
        char path[512], err[512];
        rcuprof_results rs;

        snprintf(path, sizeof(path), "%s/docs/case-study-24344/%s/results.jsonl",
                 RCUPROF_SRC_DIR, dirs[d]);
        memset(&rs, 0, sizeof(rs));
        if (rcuprof_results_read(&rs, path, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_int_equal(rs.files[0].n_corrupt, 0);
        for (i = 0; i < rs.npoints; i++) {
            const rcuprof_point *p = &rs.points[i];

            if (p->status != RCUPROF_POINT_OK)
                continue;
            assert_true(p->result.ok);
            assert_int_equal(p->result.threads, p->threads);
            assert_string_equal(p->result.variant,
                                rs.variants[p->variant]);
            assert_true(p->result.cpus_allowed > 0);
            assert_true(p->result.host[0] != '\0');
            assert_true(p->result.ops_per_s > 0);
            assert_true(p->result.have_probes);
            ok++;
        }
        rcuprof_results_free(&rs);
    }
    printf("%zu ok points decoded as measurements\n", ok);
    assert_true(ok > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members_in_schema),
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_placed),
        cmocka_unit_test(test_delay),
        cmocka_unit_test(test_real_results),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
