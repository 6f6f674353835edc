/* The text writer of the attribution report (analysis/attribute.c). */
#include "rcuprof_report.h"

#include <stdio.h>
#include <string.h>

void rcuprof_attribute_print(FILE *fp, const json_t *rep)
{
    const json_t *e, *arr;
    size_t i;

    fprintf(fp, "on-CPU samples: %" JSON_INTEGER_FORMAT
            " (%" JSON_INTEGER_FORMAT " in the kernel, %" JSON_INTEGER_FORMAT
            " unresolved), event %s\n",
            json_integer_value(json_object_get(rep, "on_cpu_samples")),
            json_integer_value(json_object_get(rep, "kernel_samples")),
            json_integer_value(json_object_get(rep, "unresolved_samples")),
            json_string_value(json_object_get(
                json_object_get(rep, "event"), "name")) != NULL
            ? json_string_value(json_object_get(
                json_object_get(rep, "event"), "name")) : "?");
    e = json_object_get(rep, "source_tree");
    if (json_is_string(json_object_get(e, "status"))
        && strcmp(json_string_value(json_object_get(e, "status")), "ok") == 0)
        fprintf(fp, "source files: relative to %s (variant %s)\n",
                json_string_value(json_object_get(e, "tree")),
                json_string_value(json_object_get(e, "variant")));
    json_array_foreach(json_object_get(rep, "errors"), i, e)
        fprintf(fp, "warning: %s\n", json_string_value(e));
    fprintf(fp, "\n%-22s %9s %7s %14s %8s\n", "bucket", "samples", "share",
            "off-CPU ms", "switches");
    json_array_foreach(json_object_get(rep, "buckets"), i, e)
        fprintf(fp, "%-22s %9" JSON_INTEGER_FORMAT " %6.1f%% %14.3f %8"
                JSON_INTEGER_FORMAT "\n",
                json_string_value(json_object_get(e, "bucket")),
                json_integer_value(json_object_get(e, "samples")),
                100.0 * json_real_value(json_object_get(e, "share")),
                json_integer_value(json_object_get(e, "off_cpu_ns")) / 1e6,
                json_integer_value(json_object_get(e, "switch_outs")));
    e = json_object_get(rep, "get_hold_current_qp");
    fprintf(fp, "\nget_hold_current_qp: %" JSON_INTEGER_FORMAT
            " samples in its body, by line below",
            json_integer_value(json_object_get(e, "samples")));
    if (json_integer_value(json_object_get(e, "in_callees")) > 0)
        fprintf(fp, " (its bucket also counts %" JSON_INTEGER_FORMAT
                " in a function or the kernel it called)",
                json_integer_value(json_object_get(e, "in_callees")));
    fprintf(fp, ":\n");
    json_array_foreach(json_object_get(e, "lines"), i, arr)
        fprintf(fp, "  %-50s %7" JSON_INTEGER_FORMAT " %6.1f%%%s\n",
                json_string_value(json_object_get(arr, "line")),
                json_integer_value(json_object_get(arr, "samples")),
                100.0 * json_real_value(json_object_get(arr, "share")),
                json_integer_value(json_object_get(arr,
                                                   "likely_skid_samples"))
                > 0 ? "  (includes likely skid after a locked RMW)" : "");
    fprintf(fp, "\n%-6s %-8s %9s %12s %8s %9s %11s %11s\n", "thread",
            "role", "samples", "off-CPU ms", "off %", "switches",
            "blocked ms", "preempt ms");
    json_array_foreach(json_object_get(rep, "threads"), i, e) {
        const json_t *w;
        size_t k;

        fprintf(fp, "%-6" JSON_INTEGER_FORMAT " %-8s %9" JSON_INTEGER_FORMAT
                " %12.3f %7.1f%% %9" JSON_INTEGER_FORMAT " %11.3f %11.3f\n",
                json_integer_value(json_object_get(e, "id")),
                json_string_value(json_object_get(e, "role")) != NULL
                ? json_string_value(json_object_get(e, "role")) : "?",
                json_integer_value(json_object_get(e, "on_cpu_samples")),
                json_integer_value(json_object_get(e, "off_cpu_ns")) / 1e6,
                100.0 * json_real_value(json_object_get(e, "off_cpu_share")),
                json_integer_value(json_object_get(e, "switch_outs")),
                json_integer_value(json_object_get(e, "off_cpu_blocked_ns"))
                / 1e6,
                json_integer_value(json_object_get(e,
                                                   "off_cpu_preempted_ns"))
                / 1e6);
        json_array_foreach(json_object_get(e, "left_cpu_at"), k, w)
            if (k < 3)
                fprintf(fp, "         left the CPU in %s (%s): %.3f ms\n",
                        json_string_value(json_object_get(w, "function")),
                        json_string_value(json_object_get(w, "bucket")),
                        json_integer_value(json_object_get(w, "off_cpu_ns"))
                        / 1e6);
    }
    fprintf(fp, "\ntop functions (innermost scope):\n");
    json_array_foreach(json_object_get(rep, "top_functions"), i, e)
        fprintf(fp, "  %6.1f%%  %s\n",
                100.0 * json_real_value(json_object_get(e, "share")),
                json_string_value(json_object_get(e, "function")));
    fprintf(fp, "\ntop lines:\n");
    json_array_foreach(json_object_get(rep, "top_lines"), i, e)
        fprintf(fp, "  %6.1f%%  %s  %s\n",
                100.0 * json_real_value(json_object_get(e, "share")),
                json_string_value(json_object_get(e, "line")),
                json_string_value(json_object_get(e, "function")));
}

void rcuprof_attribute_print_brief(FILE *fp, const json_t *rep,
                                   const char *result_file)
{
    const json_t *e;
    size_t i, shown = 0;

    fprintf(fp, "attribution    %" JSON_INTEGER_FORMAT " on-CPU samples:",
            json_integer_value(json_object_get(rep, "on_cpu_samples")));
    json_array_foreach(json_object_get(rep, "buckets"), i, e) {
        if (json_integer_value(json_object_get(e, "samples")) == 0)
            continue;
        fprintf(fp, "%s %s %.1f%%", shown++ ? "," : "",
                json_string_value(json_object_get(e, "bucket")),
                100.0 * json_real_value(json_object_get(e, "share")));
    }
    if (shown == 0)
        fprintf(fp, " none");
    fprintf(fp, "\n               by line, by thread, top functions: ");
    if (result_file != NULL)
        fprintf(fp, "rcuprof attribute %s\n", result_file);
    else
        fprintf(fp, "rerun with --output FILE, then rcuprof attribute FILE\n");
}
