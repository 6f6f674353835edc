/*
 * Comma-separated option lists (--fetch, --churn, --compat, --events,
 * sweep's --variants): one rule for every list the driver and the CLI
 * take, so that none of them silently skips an empty item ("a,,b", "a,",
 * ",a"), as strtok_r would.
 */
#ifndef RCUPROF_LIST_H
# define RCUPROF_LIST_H

# include <stdio.h>
# include <string.h>

/*
 * 0 when every comma-separated item of LIST has a character other than a
 * blank; else -1 with "--OPT 'LIST': item K is empty: ..." in ERR.  An
 * empty LIST is left to the caller (each has its own message for it).
 */
static inline int rcuprof_list_check(const char *opt, const char *list,
                                     char *err, size_t n)
{
    const char *p = list;
    unsigned item = 1;
    int blank = 1;

    if (list[0] == '\0')
        return 0;
    for (;; p++) {
        if (*p == ',' || *p == '\0') {
            if (blank) {
                snprintf(err, n, "--%s '%s': item %u is empty: remove the "
                         "extra comma", opt, list, item);
                return -1;
            }
            if (*p == '\0')
                return 0;
            item++;
            blank = 1;
        } else if (*p != ' ' && *p != '\t') {
            blank = 0;
        }
    }
}

#endif
