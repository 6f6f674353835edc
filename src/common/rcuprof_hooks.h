/*
 * The hooks contract between the stress driver's harness and the modules
 * that measure inside it: counters, the sampler, the probe readout, and the
 * driver's own write churn (docs/interfaces.md, section 5).
 *
 * Modelled on Linux perf's struct perf_tool (tools/perf/util/tool.h): a
 * module embeds a struct rcuprof_tool in its own context and registers a
 * pointer to it; every callback receives that tool pointer, so the module
 * finds its state with rcuprof_container_of and keeps none in globals.  The
 * harness passes a read-only view of the run, never the run itself: no
 * module sees the driver's structures (this header is all a probe module
 * includes of the driver).
 *
 * Any callback may be NULL.  Order, per run:
 *
 *   worker threads (each on its own thread, ids 0 .. threads-1):
 *     after_pin -> before_barrier -> ... window_start -> window_end
 *   writer threads (each on its own thread, ids 0 .. writers-1):
 *     writer_start, before its first write
 *   main thread:
 *     run_window(1) when the run's window opens (every worker warm), and
 *     run_window(0) when every worker's window has closed;
 *     to_json after every worker is joined and every writer stopped.
 *
 * A non-zero return from after_pin, before_barrier or writer_start fails
 * the worker's run (the writer's writes) with the message the hook wrote
 * into err.  window_start, window_end and run_window must not allocate.
 */
#ifndef RCUPROF_HOOKS_H
# define RCUPROF_HOOKS_H

# include <stddef.h>
# include <stdint.h>
# include <jansson.h>

/* What a hook may know of the run: read-only. */
struct rcuprof_run_view {
    unsigned threads;           /* measured workers: ids 0 .. threads-1 */
    unsigned writers;           /* churn writers beside them (0: none) */
    /* Each worker's ops inside its window: NULL until the workers are
     * joined, then threads entries (to_json may read it). */
    const uint64_t *ops;
};

struct rcuprof_tool {
    const char *member;         /* top-level result member it owns, or
                                 * NULL for none */
    int (*after_pin)(struct rcuprof_tool *tool,
                     const struct rcuprof_run_view *run, unsigned worker,
                     char *err, size_t n);
    int (*before_barrier)(struct rcuprof_tool *tool,
                          const struct rcuprof_run_view *run,
                          unsigned worker, char *err, size_t n);
    void (*window_start)(struct rcuprof_tool *tool,
                         const struct rcuprof_run_view *run, unsigned worker);
    void (*window_end)(struct rcuprof_tool *tool,
                       const struct rcuprof_run_view *run, unsigned worker);
    int (*writer_start)(struct rcuprof_tool *tool,
                        const struct rcuprof_run_view *run, unsigned writer,
                        char *err, size_t n);
    void (*run_window)(struct rcuprof_tool *tool,
                       const struct rcuprof_run_view *run, int open);
    /* The member's value (a new reference), or NULL for null. */
    json_t *(*to_json)(struct rcuprof_tool *tool,
                       const struct rcuprof_run_view *run);
};

/* The context that embeds MEMBER, from a pointer to it. */
# define rcuprof_container_of(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Most tools one run registers. */
# define RCUPROF_TOOLS_MAX 8

#endif
