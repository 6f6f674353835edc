/*
 * The driver protocol (docs/interfaces.md, "Driver protocol"): what a
 * stress driver promises the CLI, in one place.  The driver writes
 * RCUPROF_DRIVER_PROTOCOL into build.driver_protocol of every result; the
 * CLI checks it on every result it decodes and refuses one it does not
 * speak.  Bump it whenever the exit codes, the argv form or the meaning of
 * a result member change.
 */
#ifndef RCUPROF_PROTOCOL_H
# define RCUPROF_PROTOCOL_H

# define RCUPROF_DRIVER_PROTOCOL 1

/* Exit codes of a driver. */
enum rcuprof_exit {
    RCUPROF_EXIT_OK = 0,
    RCUPROF_EXIT_USAGE = 2,     /* bad option or value */
    RCUPROF_EXIT_SETUP = 3,     /* workload could not be set up */
    RCUPROF_EXIT_RUN = 4,       /* an op failed during the run */
    RCUPROF_EXIT_SYSTEM = 5     /* threads, memory, clocks */
};

/* 1 when a driver's exit code says the request itself was refused (usage
 * or setup): running it again cannot succeed. */
# define RCUPROF_EXIT_REFUSED(code) \
    ((code) == RCUPROF_EXIT_USAGE || (code) == RCUPROF_EXIT_SETUP)

#endif
