/*
 * `rcuprof attribute RESULT.json`: where the sampled time went, with
 * inlined frames resolved through libdw (probes/symbolize.c), so the body
 * of get_hold_current_qp inlined into ossl_rcu_read_lock is named.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "rcuprof_attribute.h"
#include "rcuprof_report.h"

/* The report of a decoded result's samples, or NULL with a message;
 * source files resolved in the record's build tree (if still the one
 * measured). */
json_t *rcuprof_attribute_record(const rcuprof_record *rec, unsigned top,
                                 int folded, char *err, size_t n)
{
    struct rcuprof_attribute_build b = {
        rec->variant, rec->tree, rec->libcrypto_sha256
    };
    struct rcuprof_attribute_opts o = { top, folded, NULL };

    /* A result without a build member: nothing to resolve against. */
    if (rec->variant[0] != '\0')
        o.build = &b;

    if (rec->samples == NULL) {
        snprintf(err, n, "the result has no samples: run it with --sample on");
        return NULL;
    }
    return rcuprof_attribute(rec->samples, NULL, &o, err, n);
}

struct attribute_args {
    unsigned top;
    int json, folded;
};

static const struct rcuprof_opt attribute_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "json", 0, "", "", 0, 1,
                   struct attribute_args, json, NULL, "the report as JSON"),
    RCUPROF_OPTION(RCUPROF_OPT_UINT, "top", 0, "N", "20", 1, 10000,
                   struct attribute_args, top, NULL,
                   "rows of each top list"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "folded", 0, "", "", 0, 1,
                   struct attribute_args, folded, NULL,
                   "include folded stacks (flame graph input)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};
#define ATTRIBUTE_NROWS (sizeof(attribute_rows) / sizeof(attribute_rows[0]))

int rcuprof_cmd_attribute(int argc, char **argv)
{
    struct attribute_args a = { 0 };
    struct rcuprof_cmd_opts co = {
        .cmd = "attribute", .rows = attribute_rows, .n = ATTRIBUTE_NROWS,
        .target = &a,
        .unknown = "attribute: unexpected '%s': see 'rcuprof attribute --help'"
    };
    const struct rcuprof_opt *action;
    const char *file = NULL;
    int rc, first;
    char err[1024];
    json_error_t je;
    json_t *res, *rep;
    rcuprof_record rec;

    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc > 0) {
        printf("usage: rcuprof attribute RESULT.json [--json] [--top N] [--folded]\n");
        rcuprof_opts_help(stdout, attribute_rows, ATTRIBUTE_NROWS, 0, NULL);
        return RCUPROF_OK;
    }
    if (rc < 0)
        return RCUPROF_ERR_USAGE;
    if (first + 1 < argc) {
        rcuprof_cmd_unexpected(&co, argv[first + 1]);
        return RCUPROF_ERR_USAGE;
    }
    if (first < argc)
        file = argv[first];
    if (file == NULL) {
        rcuprof_err("attribute: give a result file (rcuprof run --sample on --output FILE)");
        return RCUPROF_ERR_USAGE;
    }
    res = json_load_file(file, 0, &je);
    if (res == NULL) {
        rcuprof_err("attribute: %s is not a result file (%s, line %d): give the JSON rcuprof run --output wrote",
                    file, je.text, je.line);
        return RCUPROF_ERR_USAGE;
    }
    rcuprof_record_decode(res, &rec);
    rep = rcuprof_attribute_record(&rec, a.top, a.folded, err, sizeof(err));
    json_decref(res);
    if (rep == NULL) {
        rcuprof_err("attribute: %s: %s", file, err);
        return RCUPROF_ERR_USAGE;
    }
    if (a.json) {
        json_dumpf(rep, stdout, JSON_INDENT(2));
        putchar('\n');
    } else {
        rcuprof_attribute_print(stdout, rep);
    }
    json_decref(rep);
    return RCUPROF_OK;
}
