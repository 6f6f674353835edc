/*
 * The driver options' short-option string, built from rcuprof_opts.def so
 * the driver and the CLI can never disagree with the table.
 */
#ifndef RCUPROF_OPTS_H
# define RCUPROF_OPTS_H

# include <stdio.h>
# include <string.h>

/* Appends the table's short options ("n:d:...") to buf, then extra. */
static inline void rcuprof_opts_optstring(char *buf, size_t n, const char *extra)
{
    size_t k = strlen(buf);

#define RCUPROF_OPT(name, ch, arg, meta, def, help)       \
    if (k + 3 < n) {                                      \
        buf[k++] = (ch);                                  \
        if (arg)                                          \
            buf[k++] = ':';                               \
        buf[k] = '\0';                                    \
    }
#include "rcuprof_opts.def"
#undef RCUPROF_OPT
    if (extra != NULL && k + strlen(extra) < n)
        strcat(buf, extra);
}

/*
 * One --help row of a table option: "(default: X)" only where the option
 * takes a value and the table gives a default.
 */
static inline void rcuprof_opts_help_row(FILE *f, const char *name,
                                         const char *meta, const char *help,
                                         int arg, const char *def)
{
    fprintf(f, "  --%-12s %-12s %s", name, meta, help);
    if (arg && def[0] != '\0')
        fprintf(f, " (default: %s)", def);
    fputc('\n', f);
}

#endif
