/*
 * What every command shares: the one-line error, and (later) option
 * parsing with the CLI's messages and loading results files.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

void rcuprof_err(const char *fmt, ...)
{
    va_list ap;

    fputs("rcuprof: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
