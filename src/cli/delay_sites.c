/*
 * The delay sites a command may arm (issue 17; docs/interfaces.md 3.4),
 * shared by `rcuprof whatif` (--site, --delays) and `rcuprof explain`
 * (--whatif-site, --whatif-delays): the site checked against the driver's
 * build record before anything runs, the delays parsed by one rule.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "whatif.h"

#include <stdio.h>
#include <string.h>

/* The baseline workloads (section 1, run --workload): their sites are the
 * driver's, not the library's. */
static const char *const baselines[] = { "empty", "atomic", "padded",
                                         "rwlock", "rcu", "urcu", "pingpong",
                                         NULL };

int rcuprof_parse_delays(const char *cmd, const char *opt, const char *arg,
                         unsigned *d, size_t *nd)
{
    char err[512];
    const char *p = arg;
    size_t i, k = 0;

    *nd = 0;
    if (arg[0] == '\0') {
        rcuprof_err("%s: --%s is empty: give at least 2 delays in ns, like 0,100,200",
                    cmd, opt);
        return -1;
    }
    if (rcuprof_list_check(opt, arg, err, sizeof(err)) != 0) {
        rcuprof_err("%s: %s", cmd, err);
        return -1;
    }
    while (*p != '\0') {
        unsigned long v = 0;
        const char *s;

        while (*p == ' ')
            p++;
        s = p;
        while (*p >= '0' && *p <= '9') {
            if (v <= RCUPROF_WHATIF_DELAY_NS_MAX)
                v = v * 10 + (unsigned long)(*p - '0');
            p++;
        }
        while (*p == ' ')
            p++;
        k++;
        if (p == s || (*p != ',' && *p != '\0')) {
            rcuprof_err("%s: --%s '%s': item %zu is not a whole number of ns: give values 0 to %u",
                        cmd, opt, arg, k, RCUPROF_WHATIF_DELAY_NS_MAX);
            return -1;
        }
        if (v > RCUPROF_WHATIF_DELAY_NS_MAX) {
            rcuprof_err("%s: --%s '%s': item %zu is above %u ns: give values 0 to %u",
                        cmd, opt, arg, k, RCUPROF_WHATIF_DELAY_NS_MAX,
                        RCUPROF_WHATIF_DELAY_NS_MAX);
            return -1;
        }
        if (*nd == RCUPROF_WHATIF_DELAYS_MAX) {
            rcuprof_err("%s: --%s '%s': more than %d delays: give at most %d",
                        cmd, opt, arg, RCUPROF_WHATIF_DELAYS_MAX,
                        RCUPROF_WHATIF_DELAYS_MAX);
            return -1;
        }
        for (i = 0; i < *nd; i++)
            if (d[i] == v) {
                rcuprof_err("%s: --%s '%s': %lu ns is repeated (item %zu): give each delay once",
                            cmd, opt, arg, v, k);
                return -1;
            }
        d[(*nd)++] = (unsigned)v;
        if (*p == ',')
            p++;
    }
    if (*nd < 2) {
        rcuprof_err("%s: --%s '%s': a slope needs at least 2 distinct delays, like 0,%s",
                    cmd, opt, arg, d[0] == 0 ? "100" : arg);
        return -1;
    }
    return 0;
}

/* The names of a JSON array of strings, ", "-separated, or "none". */
static void list_names(const json_t *a, char *buf, size_t n)
{
    const json_t *v;
    size_t i, len = 0;

    buf[0] = '\0';
    json_array_foreach(a, i, v)
        if (json_is_string(v) && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                    len ? ", " : "", json_string_value(v));
    if (buf[0] == '\0')
        snprintf(buf, n, "none");
}

static int in_list(const json_t *a, const char *s)
{
    const json_t *v;
    size_t i;

    json_array_foreach(a, i, v)
        if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
            return 1;
    return 0;
}

int rcuprof_delay_sites_check(const char *cmd, const char *opt,
                              const char *drv, const char *variant,
                              const char *const *sites, size_t nsites,
                              const char *workload, const char **where)
{
    char *argv[3], names[1024];
    struct rcuprof_driver_result r;
    json_t *rec, *b, *have;
    size_t i;
    int base = 0, rc = 0;

    for (i = 0; baselines[i] != NULL; i++)
        base |= strcmp(workload, baselines[i]) == 0;
    argv[0] = (char *)drv;
    argv[1] = "--version";
    argv[2] = NULL;
    if (rcuprof_driver_spawn(drv, argv, 60, &r) != 0) {
        rcuprof_err("%s: cannot start %s: check it is executable", cmd, drv);
        return RCUPROF_ERR_SYSTEM;
    }
    rec = r.exited && r.status == 0 ? json_loads(r.out, 0, NULL) : NULL;
    rcuprof_driver_result_free(&r);
    if (!json_is_object(rec)) {
        json_decref(rec);
        rcuprof_err("%s: %s --version printed no build record: rebuild the variant (make build)",
                    cmd, drv);
        return RCUPROF_ERR_SYSTEM;
    }
    /* The build record itself, or a document with it under "build". */
    b = json_is_object(json_object_get(rec, "build"))
        ? json_object_get(rec, "build") : rec;
    have = base ? json_object_get(json_object_get(b, "driver_delay_sites"),
                                  workload)
                : json_object_get(b, "delay_sites");
    list_names(have, names, sizeof(names));
    for (i = 0; i < nsites && rc == 0; i++) {
        if (in_list(have, sites[i]))
            continue;
        if (base)
            rcuprof_err("%s: --%s '%s': the %s workload has no such delay site (its sites: %s): give one of those, or another --workload",
                        cmd, opt, sites[i], workload, names);
        else
            rcuprof_err("%s: --%s '%s': variant %s has no such delay site (its sites: %s): give one of those, or a variant with the probe layer's delay sites",
                        cmd, opt, sites[i], variant, names);
        rc = RCUPROF_ERR_USAGE;
    }
    json_decref(rec);
    if (rc == 0 && where != NULL)
        *where = base ? "driver" : "library";
    return rc;
}
