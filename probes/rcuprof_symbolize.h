/*
 * rcuprof symbolizer and attribution: turn the `samples` member of a run
 * result into functions, source lines and inline chains (elfutils libdw),
 * then into shares of time per read-path bucket.  Used by the rcuprof CLI,
 * which never links OpenSSL (see probes/README.md, "symbolizer").
 *
 *   rcuprof_symbolize_from_json()  report every executable mapping of the
 *                                  run to libdw, checking each file's build
 *                                  ID against the one recorded at run time.
 *   rcuprof_symbolize_addr()       one address -> symbol, file:line, inline
 *                                  chain (innermost first); cached, so each
 *                                  distinct address is resolved once.
 *
 * The attribution that uses it is analysis/'s (rcuprof_attribute.h).
 *
 * Errors are negative RCUPROF_SYMBOLIZE_E* codes with a message in errbuf.
 */
#ifndef RCUPROF_SYMBOLIZE_H
# define RCUPROF_SYMBOLIZE_H

# include <stddef.h>
# include <stdint.h>
# include <stdio.h>
# include <jansson.h>

enum rcuprof_symbolize_error {
    RCUPROF_SYMBOLIZE_OK = 0,
    RCUPROF_SYMBOLIZE_EINVAL = -1,  /* malformed samples member */
    RCUPROF_SYMBOLIZE_ENOMEM = -2,
    RCUPROF_SYMBOLIZE_EDWFL = -3    /* libdwfl could not start */
};

/* Status of one address (or of the module it falls in). */
enum rcuprof_symbolize_status {
    RCUPROF_SYM_OK = 0,
    RCUPROF_SYM_NOMODULE = 1,   /* in no executable mapping of the run */
    RCUPROF_SYM_CHANGED = 2,    /* binary changed since the run */
    RCUPROF_SYM_NOFILE = 3,     /* file missing or not ELF */
    RCUPROF_SYM_KERNEL = 4,     /* a kernel address */
    RCUPROF_SYM_NOSYMBOL = 5    /* in a module, but no symbol covers it */
};

const char *rcuprof_symbolize_status_name(int status);

/* One mapping as the sampler recorded it. */
struct rcuprof_symbolize_mapping {
    uint64_t start, end, offset;
    uint64_t bias;              /* load bias, when HAS_BIAS */
    int has_bias;
    const char *path;
    const char *build_id;       /* hex, or NULL */
};

/* One scope of an inline chain. */
struct rcuprof_symbolize_frame {
    const char *function;       /* DW_AT_name (through abstract origins) */
    const char *file;           /* where the address is, inside this scope */
    int line;
    int inlined;                /* 1: DW_TAG_inlined_subroutine */
};

struct rcuprof_symbol {
    uint64_t addr;              /* the address looked up */
    int status;                 /* enum rcuprof_symbolize_status */
    const char *module;         /* path of the mapping, or NULL */
    const char *symbol;         /* ELF symbol (the out-of-line function) */
    uint64_t symoff;            /* addr - symbol start */
    const char *file;           /* innermost source location */
    int line;
    /*
     * The inline chain, innermost first: frames[0] is the innermost
     * inlined scope containing the address (or the function itself when
     * nothing is inlined there), frames[nframes-1] the out-of-line
     * function.  Without DWARF: one frame, the ELF symbol.
     */
    unsigned nframes;
    const struct rcuprof_symbolize_frame *frames;
};

struct rcuprof_symbolize;

int rcuprof_symbolize_new(struct rcuprof_symbolize **out,
                          const struct rcuprof_symbolize_mapping *maps,
                          size_t nmaps, char *errbuf, size_t n);
/* From the `samples` member's "mappings" array. */
int rcuprof_symbolize_from_json(struct rcuprof_symbolize **out,
                                const json_t *samples, char *errbuf,
                                size_t n);
void rcuprof_symbolize_free(struct rcuprof_symbolize *s);

/*
 * Resolve ADDR (cached; the result lives as long as S).  For a return
 * address from a call chain pass ADDR - 1, so that the call instruction,
 * not the one after it, is what gets resolved.  Never NULL except when out
 * of memory.
 */
const struct rcuprof_symbol *rcuprof_symbolize_addr(
    struct rcuprof_symbolize *s, uint64_t addr);

/* Distinct addresses resolved so far (the cache's size). */
size_t rcuprof_symbolize_resolved(const struct rcuprof_symbolize *s);

/*
 * Modules as reported: [{path, status, build_id_run, build_id_file,
 * message}] ("binary changed since the run" for a build ID mismatch).
 */
json_t *rcuprof_symbolize_modules_json(const struct rcuprof_symbolize *s);

/*
 * Skid: 1 when the instruction ending right before ADDR is a lock-prefixed
 * read-modify-write (the sample probably belongs to it), 0 when not, -1
 * when the code bytes cannot be read.  Reads .text of the module's file.
 */
int rcuprof_symbolize_likely_skid(struct rcuprof_symbolize *s, uint64_t addr);

/*
 * Pure form of the skid rule: CODE[0..OFF) are the bytes right before an
 * instruction; 1 when some suffix of them decodes as exactly one
 * lock-prefixed x86-64 read-modify-write instruction.
 */
int rcuprof_symbolize_after_locked_rmw(const unsigned char *code, size_t off);
/* Length of the lock-prefixed RMW at CODE (at most MAX bytes), or -1. */
int rcuprof_symbolize_locked_insn_len(const unsigned char *code, size_t max);

#endif
