/* rcuprof: the command line.  Subcommands: docs/interfaces.md, "CLI". */
#include "cli.h"
#include "pack.h"
#include "bundle.h"
#include "host.h"

#include <string.h>

#ifndef RCUPROF_VERSION
# define RCUPROF_VERSION "0.0.0"
#endif

struct cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *synopsis;
};

static const struct cmd cmds[] = {
    { "variants", rcuprof_cmd_variants,
      "variants [--json]              list the OpenSSL variants and whether each is built" },
    { "variant", rcuprof_cmd_variant,
      "variant add NAME --base V [--patch FILE]... | --source DIR [--ref REF] [--description TEXT]\n"
      "variant remove NAME\n"
      "                                         define a variant for a before/after question" },
    { "attribute", rcuprof_cmd_attribute,
      "attribute RESULT [--json] [--top N]  where sampled time went, inlined frames named" },
    { "events", rcuprof_cmd_events,
      "events [--json] [--encode NAME]  what this machine can count (PMUs, presets, each event)" },
    { "run", rcuprof_cmd_run,
      "run --variant V [--threads N] [...]  one measurement (rcuprof run --help)" },
    { "sweep", rcuprof_cmd_sweep,
      "sweep --variants A,B --threads LIST --reps N --out DIR [--resume] [...]\n"
      "                                         interleaved repetitions into DIR/results.jsonl" },
    { "whatif", rcuprof_cmd_whatif,
      "whatif --variant V --site S --delays LIST --threads LIST [--reps N] [--out DIR] [...]\n"
      "                                         what a site costs: the slope of ns/op on injected delay" },
    { "compare", rcuprof_cmd_compare,
      "compare RESULTS... [--baseline V] [--metric M] [--format md|md-wide|csv|json]\n"
      "                                         the A/B table: intervals, paired tests, Holm, MDE" },
    { "report", rcuprof_cmd_report,
      "report RESULTS... --out DIR     tables (md, csv, json) and plots of a sweep" },
    { "explain", rcuprof_cmd_explain,
      "explain RESULTS... | --threads LIST [--variant V] [--reps N] [--out DIR] [...]\n"
      "                                         why a thread count is slow: placements, round trips, evidence" },
    { "pack", rcuprof_cmd_pack,
      "pack --variant V | FILE --out DIR  a driver with its loader and libraries, to run anywhere" },
    { "bundle", rcuprof_cmd_bundle,
      "bundle --variants A,B --threads LIST --blocks N --out FILE.tar.gz [...]\n"
      "                                         a sweep to carry to a machine nothing can reach (sh run.sh there)" },
    { "import", rcuprof_cmd_import,
      "import DIR | FILE.tar.gz --out DIR  what a bundle's run.sh wrote, as a results file" },
    { "host", rcuprof_cmd_host,
      "host add NAME ssh://[user@]host[:port] | list | check NAME | remove NAME\n"
      "                                         machines to run on with --host NAME, over your own ssh" },
};

static void usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: rcuprof [-h|--help] [--version] <command> [options]\n\n"
               "RCU read-path contention profiler for OpenSSL's algorithm fetch.\n\n"
               "commands:\n");
    for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        fprintf(f, "  rcuprof %s\n", cmds[i].synopsis);
    fprintf(f, "\nOptions of each command: rcuprof <command> --help.  "
               "Reference: docs/interfaces.md.\n");
}

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        usage(stderr);
        return RCUPROF_ERR_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return RCUPROF_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("rcuprof %s\n", RCUPROF_VERSION);
        return RCUPROF_OK;
    }
    for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        if (strcmp(argv[1], cmds[i].name) == 0)
            return cmds[i].fn(argc - 1, argv + 1);
    rcuprof_err("unknown command '%s': run 'rcuprof --help' for the list", argv[1]);
    return RCUPROF_ERR_USAGE;
}
