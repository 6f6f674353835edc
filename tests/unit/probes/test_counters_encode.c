/*
 * Golden encodings, independent of the host CPU: every table is checked in
 * a child with LIBPFM_FORCE_PMU pinning libpfm4 to one PMU model, except
 * perf's generic names and raw codes, whose values are the kernel ABI
 * (include/uapi/linux/perf_event.h) on every machine.
 *
 * Intel values: IA32_PERFEVTSELx layout (SDM vol. 3B, 18.2.1: event select
 * bits 0-7, unit mask 8-15, edge 18, invert 23, counter mask 24-31); the
 * event/umask pairs are from Intel's event tables for Skylake, Ice Lake and
 * Sapphire Rapids.  AMD values: PERF_CTL layout (event select bits 0-7 and
 * 32-35, unit mask 8-15) with codes from AMD's PPR for family 19h
 * (PMCxNNN).  libpfm4's perf encoding leaves the USR/OS bits out of config
 * and expresses them as exclude_user / exclude_kernel.
 */
#include "counters_test_util.h"
#include <linux/perf_event.h>
#include "rcuprof_counters.h"
#include "counters_internal.h"

struct golden {
    int line;
    const char *pmu;            /* LIBPFM_FORCE_PMU, NULL = unforced */
    const char *name;
    uint32_t type;
    uint64_t config;
    int exclude_kernel;
    const char *fstr_prefix;
};

static const struct golden goldens[] = {
    /* Kernel ABI: generic hardware (type 0), software (1), cache (3),
     * raw (4).  PERF_COUNT_HW_CACHE config = id | op << 8 | result << 16. */
    { __LINE__, NULL, "cycles", PERF_TYPE_HARDWARE, 0x0, 0,
      "perf::PERF_COUNT_HW_CPU_CYCLES" },
    { __LINE__, NULL, "instructions", PERF_TYPE_HARDWARE, 0x1, 0,
      "perf::PERF_COUNT_HW_INSTRUCTIONS" },
    { __LINE__, NULL, "cache-references", PERF_TYPE_HARDWARE, 0x2, 0, NULL },
    { __LINE__, NULL, "cache-misses", PERF_TYPE_HARDWARE, 0x3, 0, NULL },
    { __LINE__, NULL, "task-clock", PERF_TYPE_SOFTWARE, 0x1, 0,
      "perf::PERF_COUNT_SW_TASK_CLOCK" },
    { __LINE__, NULL, "page-faults", PERF_TYPE_SOFTWARE, 0x2, 0, NULL },
    { __LINE__, NULL, "context-switches", PERF_TYPE_SOFTWARE, 0x3, 0, NULL },
    { __LINE__, NULL, "cpu-migrations", PERF_TYPE_SOFTWARE, 0x4, 0, NULL },
    { __LINE__, NULL, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000,
      0, NULL },
    { __LINE__, NULL, "LLC-loads", PERF_TYPE_HW_CACHE, 0x2, 0, NULL },
    { __LINE__, NULL, "LLC-load-misses", PERF_TYPE_HW_CACHE, 0x10002, 0,
      NULL },
    { __LINE__, NULL, "r01a2", PERF_TYPE_RAW, 0x1a2, 0, "perf_raw::" },
    { __LINE__, NULL, "cycles:u", PERF_TYPE_HARDWARE, 0x0, 1, NULL },

    /* Skylake client */
    { __LINE__, "skl", "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0x00c0, 0,
      "skl::INST_RETIRED:ANY_P" },                      /* C0H / 00H */
    { __LINE__, "skl", "MEM_LOAD_RETIRED:L1_MISS", PERF_TYPE_RAW, 0x08d1, 0,
      "skl::MEM_LOAD_RETIRED:L1_MISS" },                /* D1H / 08H */
    { __LINE__, "skl", "MEM_LOAD_RETIRED:L3_MISS", PERF_TYPE_RAW, 0x20d1, 0,
      NULL },                                           /* D1H / 20H */
    { __LINE__, "skl", "MEM_INST_RETIRED:ALL_LOADS", PERF_TYPE_RAW, 0x81d0,
      0, NULL },                                        /* D0H / 81H */
    { __LINE__, "skl", "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", PERF_TYPE_RAW,
      0x04d2, 0, "skl::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM" }, /* D2H / 04H */
    { __LINE__, "skl", "skl::LONGEST_LAT_CACHE:MISS", PERF_TYPE_RAW, 0x412e,
      0, NULL },                                        /* 2EH / 41H */
    { __LINE__, "skl", "LONGEST_LAT_CACHE:MISS:u", PERF_TYPE_RAW, 0x412e, 1,
      NULL },

    /* Ice Lake client; modifiers: cmask 1 (bit 24), invert (bit 23) */
    { __LINE__, "icl", "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", PERF_TYPE_RAW,
      0x04d2, 0, "icl::" },
    { __LINE__, "icl", "MEM_LOAD_RETIRED:L2_MISS", PERF_TYPE_RAW, 0x10d1, 0,
      NULL },                                           /* D1H / 10H */
    { __LINE__, "icl", "INST_RETIRED:ANY_P:c=1:i=1", PERF_TYPE_RAW,
      0x018000c0, 0, NULL },

    /* Sapphire Rapids: HITM renamed XSNP_FWD; remote HITM D3H / 04H */
    { __LINE__, "spr", "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", PERF_TYPE_RAW,
      0x04d2, 0, "spr::" },
    { __LINE__, "spr", "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", PERF_TYPE_RAW,
      0x04d3, 0, NULL },

    /* AMD Zen 3 (family 19h) */
    { __LINE__, "amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW,
      0xc0, 0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS" }, /* PMCx0C0 */
    { __LINE__, "amd64_fam19h_zen3", "CYCLES_NOT_IN_HALT", PERF_TYPE_RAW,
      0x76, 0, NULL },                                  /* PMCx076 */
    { __LINE__, "amd64_fam19h_zen3", "LS_DISPATCH:LD_DISPATCH",
      PERF_TYPE_RAW, 0x0129, 0, NULL },                 /* PMCx029 / 01H */
    { __LINE__, "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL", PERF_TYPE_RAW,
      0x0443, 0, NULL },                                /* PMCx043 / 04H */
    { __LINE__, "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT",
      PERF_TYPE_RAW, 0x4843, 0, NULL },                 /* PMCx043 / 48H */
    { __LINE__, "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR",
      PERF_TYPE_RAW, 0x0443, 0, "amd64_fam19h_zen4::" },
};

static int check_goldens(void *arg)
{
    const char *pmu = arg;
    struct rcuprof_counters_encoding e;
    char err[512];
    size_t i;
    int fails = 0, ret;

    for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
        const struct golden *g = &goldens[i];

        if ((pmu == NULL) != (g->pmu == NULL)
            || (pmu != NULL && strcmp(pmu, g->pmu) != 0))
            continue;
        ret = rcuprof_counters_encode(g->name, &e, err, sizeof(err));
        CHILD_CHECK(fails, g->line, ret == 0, "%s: %s", g->name, err);
        if (ret != 0)
            continue;
        CHILD_CHECK(fails, g->line, e.type == g->type, "%s: type %u, want %u",
                    g->name, e.type, g->type);
        CHILD_CHECK(fails, g->line, e.config == g->config,
                    "%s: config 0x%llx, want 0x%llx", g->name,
                    (unsigned long long)e.config,
                    (unsigned long long)g->config);
        CHILD_CHECK(fails, g->line, e.config1 == 0 && e.config2 == 0,
                    "%s: config1/2 not 0", g->name);
        CHILD_CHECK(fails, g->line, e.exclude_kernel == g->exclude_kernel,
                    "%s: exclude_kernel %d", g->name, e.exclude_kernel);
        CHILD_CHECK(fails, g->line, e.exclude_user == 0,
                    "%s: exclude_user set", g->name);
        CHILD_CHECK(fails, g->line, g->fstr_prefix == NULL
                    || strncmp(e.fstr, g->fstr_prefix,
                               strlen(g->fstr_prefix)) == 0,
                    "%s: fstr '%s' does not start with '%s'", g->name,
                    e.fstr, g->fstr_prefix);
        CHILD_CHECK(fails, g->line,
                    e.software == (g->type == PERF_TYPE_SOFTWARE),
                    "%s: software flag", g->name);
        if (pmu != NULL)
            CHILD_CHECK(fails, g->line, strcmp(e.pmu, pmu) == 0,
                        "%s: pmu '%s'", g->name, e.pmu);
    }
    if (pmu != NULL)
        CHILD_CHECK(fails, __LINE__,
                    strcmp(rcuprof_counters_core_pmu(), pmu) == 0,
                    "core pmu '%s', forced '%s'", rcuprof_counters_core_pmu(),
                    pmu);
    return fails;
}

static void test_golden_generic(void **state)
{
    run_with_pmu(NULL, check_goldens, NULL);
}

static void test_golden_skl(void **state)
{
    run_with_pmu("skl", check_goldens, "skl");
}

static void test_golden_icl(void **state)
{
    run_with_pmu("icl", check_goldens, "icl");
}

static void test_golden_spr(void **state)
{
    run_with_pmu("spr", check_goldens, "spr");
}

static void test_golden_zen3(void **state)
{
    run_with_pmu("amd64_fam19h_zen3", check_goldens, "amd64_fam19h_zen3");
}

static void test_golden_zen4(void **state)
{
    run_with_pmu("amd64_fam19h_zen4", check_goldens, "amd64_fam19h_zen4");
}

/* An event of another PMU than the pinned one is unknown, and says so. */
static int check_wrong_pmu(void *arg)
{
    struct rcuprof_counters_encoding e;
    char err[512] = "";
    int fails = 0, ret;

    ret = rcuprof_counters_encode("MEM_LOAD_RETIRED:L1_MISS", &e, err,
                                  sizeof(err));
    CHILD_CHECK(fails, __LINE__, ret == RCUPROF_COUNTERS_EUNKNOWN,
                "ret %d", ret);
    CHILD_CHECK(fails, __LINE__, strstr(err, "MEM_LOAD_RETIRED:L1_MISS")
                != NULL && strstr(err, "rcuprof events") != NULL,
                "message: %s", err);
    /* A bad unit mask is known but cannot be encoded. */
    ret = rcuprof_counters_encode("LS_DISPATCH:NO_SUCH_UMASK", &e, err,
                                  sizeof(err));
    CHILD_CHECK(fails, __LINE__, ret == RCUPROF_COUNTERS_EENCODE,
                "ret %d (%s)", ret, err);
    CHILD_CHECK(fails, __LINE__, strstr(err, "LS_DISPATCH:NO_SUCH_UMASK")
                != NULL, "message: %s", err);
    return fails;
}

static void test_wrong_pmu(void **state)
{
    run_with_pmu("amd64_fam19h_zen3", check_wrong_pmu, NULL);
}

/* ---- presets ---------------------------------------------------------- */

struct preset_case {
    int line;
    const char *preset, *pmu;
    int count;                  /* expected, or a negative error */
    const char *first, *last;
};

static const struct preset_case preset_cases[] = {
    { __LINE__, "default", "perf", 8, "task-clock", "cache-misses" },
    { __LINE__, "default", "skl", 8, "task-clock", "cache-misses" },
    { __LINE__, "default", NULL, 8, "task-clock", "cache-misses" },
    { __LINE__, "cache", "skl", 4, "MEM_INST_RETIRED:ALL_LOADS",
      "MEM_LOAD_RETIRED:L3_MISS" },
    { __LINE__, "cache", "spr", 4, "MEM_INST_RETIRED:ALL_LOADS",
      "MEM_LOAD_RETIRED:L3_MISS" },
    { __LINE__, "cache", "amd64_fam19h_zen3", 4, "LS_DISPATCH:LD_DISPATCH",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT" },
    { __LINE__, "cache", "perf", 4, "L1-dcache-loads", "LLC-load-misses" },
    { __LINE__, "cache", "hsw", 4, "L1-dcache-loads", "LLC-load-misses" },
    { __LINE__, "coherence", "skl", 2, "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM",
      "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT" },
    { __LINE__, "coherence", "icx", 4, "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM",
      "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD" },
    { __LINE__, "coherence", "spr", 4, "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM",
      "MEM_LOAD_L3_HIT_RETIRED:XSNP_NO_FWD" },
    { __LINE__, "coherence", "amd64_fam19h_zen3", 3,
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:INT_CACHE",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT" },
    { __LINE__, "coherence", "perf", 0, NULL, NULL },
    /* "sk" must not match "skl skx" (whole names only) */
    { __LINE__, "coherence", "sk", 0, NULL, NULL },
    { __LINE__, "nosuch", "skl", RCUPROF_COUNTERS_EUNKNOWN, NULL, NULL },
};

static void test_preset_resolution(void **state)
{
    const char *names[RCUPROF_COUNTERS_MAX_EVENTS];
    int verified[RCUPROF_COUNTERS_MAX_EVENTS];
    size_t i;
    int cnt;

    for (i = 0; i < sizeof(preset_cases) / sizeof(preset_cases[0]); i++) {
        const struct preset_case *pc = &preset_cases[i];

        cnt = rcuprof_counters_preset_resolve(pc->preset, pc->pmu, names,
                                              verified,
                                              RCUPROF_COUNTERS_MAX_EVENTS);
        if (cnt != pc->count)
            fail_msg("line %d: %s for %s: %d events, want %d", pc->line,
                     pc->preset, pc->pmu, cnt, pc->count);
        if (cnt > 0) {
            if (strcmp(names[0], pc->first) != 0
                || strcmp(names[cnt - 1], pc->last) != 0)
                fail_msg("line %d: got %s .. %s", pc->line, names[0],
                         names[cnt - 1]);
        }
    }
    /* Too small an output array. */
    assert_int_equal(rcuprof_counters_preset_resolve("default", "perf",
                                                     names, NULL, 3),
                     RCUPROF_COUNTERS_ETOOMANY);
    /* Software rows are the only verified ones (seen here). */
    cnt = rcuprof_counters_preset_resolve("default", "perf", names, verified,
                                          RCUPROF_COUNTERS_MAX_EVENTS);
    assert_int_equal(cnt, 8);
    assert_int_equal(verified[0], 1);
    assert_int_equal(verified[4], 0);
}

/* Every table row encodes under each PMU it names. */
static int check_rows_for_pmu(void *arg)
{
    const char *pmu = arg;
    struct rcuprof_counters_encoding e;
    char err[512];
    size_t i;
    int fails = 0, ret;

    for (i = 0; i < rcuprof_counters_npreset_rows; i++) {
        const struct rcuprof_counters_preset_row *r =
            &rcuprof_counters_preset_rows[i];
        int mine;

        if (pmu == NULL)
            mine = strcmp(r->pmus, "*") == 0 || strcmp(r->pmus, "perf") == 0;
        else
            mine = strstr(r->pmus, pmu) != NULL;
        if (!mine)
            continue;
        ret = rcuprof_counters_encode(r->event, &e, err, sizeof(err));
        CHILD_CHECK(fails, (int)i, ret == 0, "row %zu %s/%s under %s: %s", i,
                    r->preset, r->event, pmu != NULL ? pmu : "perf", err);
        if (ret == 0 && pmu != NULL)
            CHILD_CHECK(fails, (int)i, strcmp(e.pmu, pmu) == 0,
                        "row %s encoded by %s", r->event, e.pmu);
        CHILD_CHECK(fails, (int)i, r->note != NULL && r->note[0] != '\0',
                    "row %s has no note", r->event);
    }
    return fails;
}

static void test_preset_rows_encode(void **state)
{
    static const char *const pmus[] = {
        "skl", "icl", "skx", "clx", "icx", "spr", "amd64_fam19h_zen3",
        "amd64_fam19h_zen4"
    };
    size_t i;

    run_with_pmu(NULL, check_rows_for_pmu, NULL);
    for (i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++)
        run_with_pmu(pmus[i], check_rows_for_pmu, (void *)pmus[i]);
}

/* A preset resolves through the PMU libpfm4 is pinned to. */
static int check_new_coherence_skl(void *arg)
{
    struct rcuprof_counters *c = NULL;
    char err[512] = "";
    int fails = 0, ret;

    ret = rcuprof_counters_new(&c, "coherence", 0, 1, err, sizeof(err));
    CHILD_CHECK(fails, __LINE__, ret == 0, "new: %s", err);
    if (ret != 0)
        return fails;
    CHILD_CHECK(fails, __LINE__, rcuprof_counters_nevents(c) == 2,
                "%u events", rcuprof_counters_nevents(c));
    CHILD_CHECK(fails, __LINE__,
                strcmp(rcuprof_counters_event_name(c, 0),
                       "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM") == 0,
                "first %s", rcuprof_counters_event_name(c, 0));
    rcuprof_counters_free(c);
    return fails;
}

static void test_new_with_forced_pmu(void **state)
{
    run_with_pmu("skl", check_new_coherence_skl, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_generic),
        cmocka_unit_test(test_golden_skl),
        cmocka_unit_test(test_golden_icl),
        cmocka_unit_test(test_golden_spr),
        cmocka_unit_test(test_golden_zen3),
        cmocka_unit_test(test_golden_zen4),
        cmocka_unit_test(test_wrong_pmu),
        cmocka_unit_test(test_preset_resolution),
        cmocka_unit_test(test_preset_rows_encode),
        cmocka_unit_test(test_new_with_forced_pmu),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
