/*
 * rcuprof counters: data tables shared by counters.c and its tests.
 * The tables themselves are in counter_presets.c.
 */
#ifndef RCUPROF_COUNTERS_INTERNAL_H
# define RCUPROF_COUNTERS_INTERNAL_H

# include <stddef.h>
# include <stdint.h>

/*
 * One event of one preset for a set of PMUs.
 *
 * pmus: libpfm4 PMU names separated by spaces; "*" for every PMU (the
 *   row is always part of the preset); "perf" for the fallback used when
 *   no listed PMU matches (perf's generic events, mapped by the kernel).
 * verified: 1 only when the row was seen counting on real hardware of that
 *   kind (note says where); 0 = "unverified", encoded but never measured.
 */
struct rcuprof_counters_preset_row {
    const char *preset;
    const char *pmus;
    const char *event;
    int verified;
    const char *note;
};

extern const struct rcuprof_counters_preset_row
    rcuprof_counters_preset_rows[];
extern const size_t rcuprof_counters_npreset_rows;

extern const char *const rcuprof_counters_preset_names[];
extern const size_t rcuprof_counters_npreset_names;

/*
 * Software events (PERF_TYPE_SOFTWARE configs) that the kernel only raises
 * from kernel context, so that with exclude_kernel set they always read 0.
 */
extern const uint64_t rcuprof_counters_kernel_only_sw[];
extern const size_t rcuprof_counters_nkernel_only_sw;

#endif
