/*
 * rcuprof counters: the presets as data.
 *
 * Event codes are from Intel's published event tables (SDM vol. 3B and
 * perfmon event files: event code / umask) and AMD's PPRs (PMCxNNN, unit
 * mask bits); libpfm4 turns the names into those codes.  Every hardware row
 * is "unverified" (verified = 0) until someone has seen it count on that
 * kind of machine: change the flag and the note in the same commit as the
 * run that shows it.
 *
 * Adding a PMU: add rows with its libpfm4 name (`rcuprof events` shows the
 * name; LIBPFM_FORCE_PMU=<name> pins it in the tests), then run the unit
 * test test_counters_presets, which encodes every row under its PMU.
 */
#include <linux/perf_event.h>
#include "counters_internal.h"

#define INTEL_CLIENT "skl icl"
#define INTEL_SERVER "skx clx icx"
#define INTEL_CORE INTEL_CLIENT " " INTEL_SERVER " spr"

const char *const rcuprof_counters_preset_names[] = {
    "default", "cache", "coherence"
};
const size_t rcuprof_counters_npreset_names =
    sizeof(rcuprof_counters_preset_names)
    / sizeof(rcuprof_counters_preset_names[0]);

const struct rcuprof_counters_preset_row rcuprof_counters_preset_rows[] = {
    /* default: software events everywhere, then perf's generic hw events */
    { "default", "*", "task-clock", 1, "counts on KVM guests without a PMU" },
    { "default", "*", "context-switches", 1,
      "counts on KVM guests without a PMU" },
    { "default", "*", "cpu-migrations", 1,
      "counts on KVM guests without a PMU" },
    { "default", "*", "page-faults", 1, "counts on KVM guests without a PMU" },
    { "default", "*", "cycles", 0, "kernel generic event" },
    { "default", "*", "instructions", 0, "kernel generic event" },
    { "default", "*", "cache-references", 0, "kernel generic event" },
    { "default", "*", "cache-misses", 0, "kernel generic event" },

    /* cache: L1D loads, L1D load misses, LLC loads, LLC load misses */
    /* Intel: MEM_INST_RETIRED.ALL_LOADS D0H/81H, MEM_LOAD_RETIRED D1H */
    { "cache", INTEL_CORE, "MEM_INST_RETIRED:ALL_LOADS", 0,
      "retired loads (L1D loads); D0H umask 81H" },
    { "cache", INTEL_CORE, "MEM_LOAD_RETIRED:L1_MISS", 0,
      "retired loads that missed L1D; D1H umask 08H" },
    { "cache", INTEL_CORE, "MEM_LOAD_RETIRED:L2_MISS", 0,
      "retired loads that went to the LLC; D1H umask 10H" },
    { "cache", INTEL_CORE, "MEM_LOAD_RETIRED:L3_MISS", 0,
      "retired loads that missed the LLC; D1H umask 20H" },
    /* AMD Zen 3 / Zen 4: the L3 is an uncore PMU, not per thread; the
     * per-thread view is where L1D demand fills come from (PMCx043). */
    { "cache", "amd64_fam19h_zen3 amd64_fam19h_zen4", "LS_DISPATCH:LD_DISPATCH",
      0, "load ops dispatched (L1D loads); PMCx029 umask 01H" },
    { "cache", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL"
      ":MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT", 0,
      "L1D demand misses (all fill sources); PMCx043 umask 5FH" },
    { "cache", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:INT_CACHE:EXT_CACHE_LCL"
      ":MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT", 0,
      "L1D demand fills from beyond L2 (LLC loads); PMCx043 umask 5EH" },
    { "cache", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT", 0,
      "L1D demand fills from DRAM or IO (LLC misses); PMCx043 umask 48H" },
    { "cache", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX"
      ":NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR", 0,
      "L1D demand misses (all fill sources); PMCx043 umask 5FH" },
    { "cache", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LOCAL_CCX:NEAR_CACHE_NEAR_FAR"
      ":DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR", 0,
      "L1D demand fills from beyond L2 (LLC loads); PMCx043 umask 5EH" },
    { "cache", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:DRAM_IO_FAR", 0,
      "L1D demand fills from DRAM or IO (LLC misses); PMCx043 umask 48H" },
    /* anything else: perf's generic cache events (kernel mapping) */
    { "cache", "perf", "L1-dcache-loads", 0, "kernel generic cache event" },
    { "cache", "perf", "L1-dcache-load-misses", 0,
      "kernel generic cache event" },
    { "cache", "perf", "LLC-loads", 0, "kernel generic cache event" },
    { "cache", "perf", "LLC-load-misses", 0, "kernel generic cache event" },

    /* coherence: loads served by a modified (or forwarded) line in another
     * core's cache.  Intel before Sapphire Rapids calls the modified case
     * XSNP_HITM; from Sapphire Rapids on it is XSNP_FWD. */
    { "coherence", INTEL_CLIENT " " INTEL_SERVER,
      "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", 0,
      "load hit a modified line in a sibling core; D2H umask 04H" },
    { "coherence", INTEL_CLIENT " " INTEL_SERVER,
      "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT", 0,
      "load hit a clean line in a sibling core; D2H umask 02H" },
    { "coherence", INTEL_SERVER " spr", "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM",
      0, "load hit a modified line in the other socket; D3H umask 04H" },
    { "coherence", INTEL_SERVER " spr", "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD",
      0, "load forwarded from the other socket; D3H umask 08H" },
    { "coherence", "spr", "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", 0,
      "load hit a modified (forwarded) line in a sibling core; D2H 04H" },
    { "coherence", "spr", "MEM_LOAD_L3_HIT_RETIRED:XSNP_NO_FWD", 0,
      "load hit a clean line in a sibling core; D2H umask 02H" },
    /* AMD: fills from another core's cache (any state: AMD has no per-load
     * HITM count; IBS op sampling gives that view). */
    { "coherence", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:INT_CACHE", 0,
      "fills from L3 or another L2 in this CCX; PMCx043 umask 02H" },
    { "coherence", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL", 0,
      "fills from another CCX's cache, this node; PMCx043 umask 04H" },
    { "coherence", "amd64_fam19h_zen3",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT", 0,
      "fills from another CCX's cache, other node; PMCx043 umask 10H" },
    { "coherence", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LOCAL_CCX", 0,
      "fills from L3 or another L2 in this CCX; PMCx043 umask 02H" },
    { "coherence", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR", 0,
      "fills from another CCX's cache, this NUMA node; PMCx043 umask 04H" },
    { "coherence", "amd64_fam19h_zen4",
      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:FAR_CACHE_NEAR_FAR", 0,
      "fills from another CCX's cache, other node; PMCx043 umask 10H" },
    /* no "perf" rows: the kernel has no generic coherence event */
};
const size_t rcuprof_counters_npreset_rows =
    sizeof(rcuprof_counters_preset_rows)
    / sizeof(rcuprof_counters_preset_rows[0]);

/*
 * Raised by the scheduler with kernel registers: with exclude_kernel (what
 * the kernel forces on unprivileged users at perf_event_paranoid >= 2) they
 * never count.  Checked by test_counters_privdrop.
 */
const uint64_t rcuprof_counters_kernel_only_sw[] = {
    PERF_COUNT_SW_CONTEXT_SWITCHES,
    PERF_COUNT_SW_CPU_MIGRATIONS,
};
const size_t rcuprof_counters_nkernel_only_sw =
    sizeof(rcuprof_counters_kernel_only_sw)
    / sizeof(rcuprof_counters_kernel_only_sw[0]);
