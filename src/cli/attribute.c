/*
 * `rcuprof attribute RESULT.json`: where the sampled time went, with
 * inlined frames resolved through libdw (probes/symbolize.c), so the body
 * of get_hold_current_qp inlined into ossl_rcu_read_lock is named.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "rcuprof_symbolize.h"

/* The report of a result's samples, or NULL with a message. */
json_t *rcuprof_attribute_result(const json_t *res, unsigned top, int folded,
                                 char *err, size_t n)
{
    struct rcuprof_attribute_opts o = { top, folded };

    if (!json_is_object(json_object_get(res, "samples"))) {
        snprintf(err, n, "the result has no samples: run it with --sample on");
        return NULL;
    }
    return rcuprof_attribute(res, NULL, &o, err, n);
}

int rcuprof_cmd_attribute(int argc, char **argv)
{
    const char *file = NULL;
    unsigned top = 20;
    int as_json = 0, folded = 0, i;
    uint64_t v;
    char err[1024];
    json_error_t je;
    json_t *res, *rep;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            as_json = 1;
        } else if (strcmp(argv[i], "--folded") == 0) {
            folded = 1;
        } else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            if (rcuprof_parse_uint(argv[++i], 1, 10000, &v) != 0) {
                rcuprof_err("attribute: --top '%s': give a whole number from 1 to 10000",
                            argv[i]);
                return RCUPROF_ERR_USAGE;
            }
            top = (unsigned)v;
        } else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: rcuprof attribute RESULT.json [--json] [--top N] [--folded]\n"
                   "  --json     the report as JSON\n"
                   "  --top N    rows of each top list (default 20)\n"
                   "  --folded   include folded stacks (flame graph input)\n");
            return RCUPROF_OK;
        } else if (argv[i][0] == '-' || file != NULL) {
            rcuprof_err("attribute: unexpected '%s': see 'rcuprof attribute --help'",
                        argv[i]);
            return RCUPROF_ERR_USAGE;
        } else {
            file = argv[i];
        }
    }
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
    rep = rcuprof_attribute_result(res, top, folded, err, sizeof(err));
    json_decref(res);
    if (rep == NULL) {
        rcuprof_err("attribute: %s: %s", file, err);
        return RCUPROF_ERR_USAGE;
    }
    if (as_json) {
        json_dumpf(rep, stdout, JSON_INDENT(2));
        putchar('\n');
    } else {
        rcuprof_attribute_print(stdout, rep);
    }
    json_decref(rep);
    return RCUPROF_OK;
}
