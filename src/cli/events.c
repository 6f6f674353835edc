/* `rcuprof events`: what this machine can count, and event encodings. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "rcuprof_counters.h"

int rcuprof_cmd_events(int argc, char **argv)
{
    char err[512];
    json_t *j;
    int i, as_json = 0;
    const char *encode = NULL;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            as_json = 1;
        } else if (strcmp(argv[i], "--encode") == 0 && i + 1 < argc) {
            encode = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: rcuprof events [--json] [--encode NAME]\n"
                   "  --json         the list as JSON\n"
                   "  --encode NAME  the perf_event_attr libpfm4 makes of NAME\n");
            return RCUPROF_OK;
        } else {
            rcuprof_err("events: unknown option or missing value '%s': see 'rcuprof events --help'",
                        argv[i]);
            return RCUPROF_ERR_USAGE;
        }
    }
    if (encode != NULL) {
        struct rcuprof_counters_encoding e;

        if (rcuprof_counters_encode(encode, &e, err, sizeof(err)) != 0) {
            rcuprof_err("events: %s", err);
            return RCUPROF_ERR_USAGE;
        }
        j = rcuprof_counters_encoding_json(&e);
        json_dumpf(j, stdout, JSON_INDENT(2));
        putchar('\n');
        json_decref(j);
        return RCUPROF_OK;
    }
    j = rcuprof_counters_list_json(err, sizeof(err));
    if (j == NULL) {
        rcuprof_err("events: %s", err);
        return RCUPROF_ERR_SYSTEM;
    }
    if (as_json) {
        json_dumpf(j, stdout, JSON_INDENT(2));
        putchar('\n');
    } else {
        rcuprof_counters_list_print(stdout, j);
    }
    json_decref(j);
    return RCUPROF_OK;
}
