/* `rcuprof events`: what this machine can count, and event encodings. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "rcuprof_counters.h"

struct events_args {
    const char *encode;
    int json;
};

static const struct rcuprof_opt events_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "json", 0, "", "", 0, 1,
                   struct events_args, json, NULL, "the list as JSON"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "encode", 0, "NAME", "", 0, 0,
                   struct events_args, encode, NULL,
                   "the perf_event_attr libpfm4 makes of NAME"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};
#define EVENTS_NROWS (sizeof(events_rows) / sizeof(events_rows[0]))

int rcuprof_cmd_events(int argc, char **argv)
{
    struct events_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "events", .rows = events_rows,
                                   .n = EVENTS_NROWS, .target = &a };
    char err[512];
    json_t *j;
    int as_json, rc;
    const char *encode;

    rc = rcuprof_cmd_parse_options_only(&co, argc, argv,
                                        "usage: rcuprof events [--json] [--encode NAME]");
    if (rc >= 0)
        return rc;
    as_json = a.json;
    encode = a.encode;
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
