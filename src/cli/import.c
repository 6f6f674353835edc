/*
 * `rcuprof import DIR-or-FILE.tar.gz --out DIR`: what a bundle's run.sh
 * wrote (bundle.h, bundle-run.sh) into DIR/results.jsonl, the results
 * file of docs/interfaces.md section 7, which compare, report and explain
 * read.  Every point line gets `host`: the target's record (env.txt:
 * uname, /proc/cpuinfo, /sys topology), kind "bundle".  A folder that no
 * bundle wrote, or one with points missing, is refused before anything
 * is written.  Exit classification follows sweep's (section 7); the
 * experiment engine's decoder takes its place at merge.
 */
#define _GNU_SOURCE
#include "bundle.h"
#include "cli.h"
#include "rcuprof_protocol.h"
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rcuprof_run_tar(char *const argv[], char *err, size_t errlen);

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    if (f == NULL)
        return NULL;
    for (;;) {
        size_t r;

        if (cap - n < 65536) {
            char *p = realloc(buf, cap + 65536 + 1);

            if (p == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap += 65536;
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

static int is_file(const char *dir, const char *name)
{
    char p[PATH_MAX + 300];
    struct stat st;

    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A folder run.sh wrote: BUNDLE_ID, plan.json and points/. */
static int is_results(const char *dir)
{
    char p[PATH_MAX + 16];
    struct stat st;

    snprintf(p, sizeof(p), "%s/points", dir);
    return is_file(dir, "BUNDLE_ID") && is_file(dir, "plan.json")
           && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The results folder in dir: dir itself, dir/results, or the same one
 * level down (an unpacked archive of either).  1 found (into out), 0 not;
 * *unrun set when a bundle folder without results was seen.
 */
static int locate(const char *dir, int depth, char *out, size_t n,
                  int *unrun)
{
    char p[PATH_MAX];
    DIR *d;
    struct dirent *e;
    int found = 0;

    if (is_results(dir)) {
        snprintf(out, n, "%s", dir);
        return 1;
    }
    snprintf(p, sizeof(p), "%.4000s/results", dir);
    if (is_results(p)) {
        snprintf(out, n, "%s", p);
        return 1;
    }
    if (is_file(dir, "run.sh") && is_file(dir, "plan.txt"))
        *unrun = 1;
    if (depth == 0 || (d = opendir(dir)) == NULL)
        return 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof(p), "%.3800s/%.200s", dir, e->d_name);
        found = locate(p, depth - 1, out, n, unrun);
    }
    closedir(d);
    return found;
}

/* key=value lines of env.txt; "cpu=" and "node=" lines collected. */
static json_t *host_record(const char *text, const char *bundle_id)
{
    json_t *h = json_object(), *cpus = json_array(), *nodes = json_array();
    char *copy = strdup(text), *line, *save = NULL;
    long ncpus = -1, nproc = -1, nproc_info = -1, pk_max = -1;
    size_t i;

    if (h == NULL || cpus == NULL || nodes == NULL || copy == NULL) {
        json_decref(h);
        json_decref(cpus);
        json_decref(nodes);
        free(copy);
        return NULL;
    }
    json_object_set_new(h, "kind", json_string("bundle"));
    json_object_set_new(h, "bundle", json_string(bundle_id));
    for (line = strtok_r(copy, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');

        if (eq == NULL)
            continue;
        *eq = '\0';
        if (strcmp(line, "cpu") == 0 || strcmp(line, "node") == 0) {
            /* "cpu=N package=P die=D core=C siblings=L l3=L" */
            json_t *o = json_object();
            char *f, *s2 = NULL;

            *eq = '=';
            for (f = strtok_r(line, " ", &s2); f != NULL;
                 f = strtok_r(NULL, " ", &s2)) {
                char *q = strchr(f, '=');
                char *end;
                long v;

                if (q == NULL)
                    continue;
                *q = '\0';
                v = strtol(q + 1, &end, 10);
                json_object_set_new(o, f, q[1] != '\0' && *end == '\0'
                                    ? json_integer(v)
                                    : q[1] != '\0' ? json_string(q + 1)
                                    : json_null());
            }
            json_array_append_new(strncmp(line, "cpu", 3) == 0 ? cpus : nodes,
                                  o);
            continue;
        }
        if (strcmp(line, "nproc") == 0)
            nproc = eq[1] ? strtol(eq + 1, NULL, 10) : -1;
        else if (strcmp(line, "cpuinfo_processors") == 0)
            nproc_info = strtol(eq + 1, NULL, 10);
        else if (strcmp(line, "schema") == 0 || strcmp(line, "recorded") == 0)
            ;
        else if (strcmp(line, "name") == 0 || strcmp(line, "arch") == 0
                 || strcmp(line, "kernel") == 0 || strcmp(line, "os") == 0
                 || strcmp(line, "cpu_model") == 0
                 || strcmp(line, "online") == 0
                 || strcmp(line, "governor") == 0
                 || strcmp(line, "boost") == 0
                 || strcmp(line, "no_turbo") == 0)
            json_object_set_new(h, line, eq[1] ? json_string(eq + 1)
                                : json_null());
    }
    free(copy);
    /* CPUs: the /sys topology's, else nproc, else /proc/cpuinfo's. */
    if (json_array_size(cpus) > 0)
        ncpus = (long)json_array_size(cpus);
    else if (nproc > 0)
        ncpus = nproc;
    else if (nproc_info > 0)
        ncpus = nproc_info;
    json_object_set_new(h, "cpus", ncpus > 0 ? json_integer(ncpus)
                                               : json_null());
    if (json_array_size(cpus) > 0) {
        /* packages and physical cores from the topology */
        size_t ncores = 0, j;
        json_t *c, *seen = json_object();

        json_array_foreach(cpus, i, c) {
            json_t *p = json_object_get(c, "package");
            char key[96];

            if (json_is_integer(p) && json_integer_value(p) > pk_max)
                pk_max = (long)json_integer_value(p);
            snprintf(key, sizeof(key), "%lld/%lld/%lld",
                     (long long)json_integer_value(p),
                     (long long)json_integer_value(json_object_get(c, "die")),
                     (long long)json_integer_value(json_object_get(c, "core")));
            if (json_object_get(seen, key) == NULL) {
                json_object_set_new(seen, key, json_true());
                ncores++;
            }
        }
        json_decref(seen);
        (void)j;
        json_object_set_new(h, "packages", json_integer(pk_max + 1));
        json_object_set_new(h, "cores", json_integer((json_int_t)ncores));
        json_object_set_new(h, "threads_per_core",
                            json_integer(ncores ? ncpus / (long)ncores : 0));
        json_object_set_new(h, "topology", cpus);
    } else {
        json_object_set_new(h, "packages", json_null());
        json_object_set_new(h, "cores", json_null());
        json_object_set_new(h, "threads_per_core", json_null());
        json_object_set_new(h, "topology", json_null());
        json_decref(cpus);
    }
    json_object_set_new(h, "numa_nodes", nodes);
    if (json_object_get(h, "name") == NULL)
        json_object_set_new(h, "name", json_string("bundle"));
    return h;
}

/* The done record "k=v" lines: exit, timeout, start, end. */
static int done_fields(const char *text, long *exit_code, int *timeout,
                       long *start, long *end, long *cs)
{
    const char *p;
    int got = 0;

    for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : p) {
        if (strncmp(p, "exit=", 5) == 0) {
            *exit_code = strtol(p + 5, NULL, 10);
            got |= 1;
        } else if (strncmp(p, "timeout=", 8) == 0) {
            *timeout = p[8] == '1';
            got |= 2;
        } else if (strncmp(p, "start=", 6) == 0) {
            *start = strtol(p + 6, NULL, 10);
            got |= 4;
        } else if (strncmp(p, "elapsed_cs=", 11) == 0) {
            *cs = p[11] >= '0' && p[11] <= '9' ? strtol(p + 11, NULL, 10) : -1;
        } else if (strncmp(p, "end=", 4) == 0) {
            *end = strtol(p + 4, NULL, 10);
            got |= 8;
        }
    }
    return got == 15 ? 0 : -1;
}

static json_t *clean_text(const char *s, size_t max)
{
    size_t n = strlen(s), i;
    char *c;
    json_t *j;

    if (n > max)
        n = max;
    if ((c = malloc(n + 1)) == NULL)
        return json_null();
    for (i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];

        c[i] = (u >= 0x20 && u < 0x7f) || u == '\n' || u == '\t' ? (char)u : '?';
    }
    c[n] = '\0';
    j = json_string(c);
    free(c);
    return j != NULL ? j : json_null();
}

/* One point line from its files, as sweep would have written it. */
static json_t *point_line(const json_t *pp, const char *pts, long timeout_s,
                          json_t *host, char *err, size_t errlen)
{
    int seq = (int)json_integer_value(json_object_get(pp, "seq"));
    char path[PATH_MAX + 64], msg[1024] = "";
    char *done, *out, *errtext;
    long code = 0, start = 0, end = 0, cs = -1;
    int to = 0, status;
    struct rcuprof_driver_result r;
    json_t *line, *res = NULL;

    snprintf(path, sizeof(path), "%s/%d.done", pts, seq);
    if ((done = slurp(path, NULL)) == NULL)
        return NULL;            /* not done: the caller counts */
    if (done_fields(done, &code, &to, &start, &end, &cs) != 0) {
        free(done);
        snprintf(err, errlen, "%.900s is not a done record of run.sh", path);
        return NULL;
    }
    free(done);
    snprintf(path, sizeof(path), "%s/%d.json", pts, seq);
    out = slurp(path, NULL);
    snprintf(path, sizeof(path), "%s/%d.err", pts, seq);
    errtext = slurp(path, NULL);
    if (out == NULL || errtext == NULL) {
        free(out);
        free(errtext);
        snprintf(err, errlen, "point %d is done but its output is missing: copy the whole results folder",
                 seq);
        return NULL;
    }
    memset(&r, 0, sizeof(r));
    r.out = out;
    r.err = errtext;
    rcuprof_driver_error_message(&r, msg, sizeof(msg));
    if (to) {
        status = RCUPROF_POINT_TIMEOUT;
        snprintf(msg, sizeof(msg), "timed out after %ld s and was killed (run.sh)",
                 timeout_s);
    } else if (code >= 128) {
        status = RCUPROF_POINT_CRASHED;
        if (msg[0] == '\0')
            snprintf(msg, sizeof(msg), "killed by signal %ld", code - 128);
    } else if (code != 0) {
        status = RCUPROF_POINT_FAILED;
        if (msg[0] == '\0')
            snprintf(msg, sizeof(msg), "exit %ld without a message", code);
    } else {
        rcuprof_record rec;
        json_t *proto;

        res = json_loads(out, 0, NULL);
        if (res != NULL)
            rcuprof_record_decode(res, &rec);
        proto = json_object_get(json_object_get(res, "build"),
                                "driver_protocol");
        if (res == NULL || !json_is_object(res)) {
            json_decref(res);
            res = NULL;
            status = RCUPROF_POINT_FAILED;
            snprintf(msg, sizeof(msg), "the driver printed no valid JSON");
        } else if (!json_is_integer(proto)
                   || json_integer_value(proto) != RCUPROF_DRIVER_PROTOCOL) {
            status = RCUPROF_POINT_FAILED;
            snprintf(msg, sizeof(msg), "the driver speaks protocol %lld, rcuprof %d: rebuild the bundle with this rcuprof",
                     (long long)json_integer_value(proto),
                     RCUPROF_DRIVER_PROTOCOL);
        } else if (!rec.ok) {
            status = RCUPROF_POINT_FAILED;
            snprintf(msg, sizeof(msg), "the driver's result is not a measurement: %s",
                     rec.why);
        } else {
            status = RCUPROF_POINT_OK;
        }
    }
    {
        json_t *sn = json_object_get(json_object_get(res, "run"),
                                     "start_unix_ns");

        line = json_pack("{s:s, s:O, s:O, s:O, s:O, s:O, s:I}",
                         "type", "point",
                         "block", json_object_get(pp, "block"),
                         "threads", json_object_get(pp, "threads"),
                         "variant", json_object_get(pp, "variant"),
                         "order", json_object_get(pp, "order"),
                         "seq", json_object_get(pp, "seq"),
                         "start_unix_ns", json_is_integer(sn)
                         ? json_integer_value(sn)
                         : (json_int_t)start * 1000000000);
    }
    if (line == NULL) {
        json_decref(res);
        free(out);
        free(errtext);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    json_object_set_new(line, "status",
                        json_string(rcuprof_point_status_name(status)));
    json_object_set_new(line, "exit", !to && code < 128 ? json_integer(code)
                                                        : json_null());
    json_object_set_new(line, "signal", !to && code >= 128
                        ? json_integer(code - 128) : json_null());
    /* The run's wall time: /proc/uptime's centiseconds where run.sh had
     * them, else whole seconds of date. */
    json_object_set_new(line, "seconds", json_real(
        cs >= 0 ? (double)cs / 100 : end >= start ? (double)(end - start) : 0));
    json_object_set_new(line, "message", status == RCUPROF_POINT_OK
                        ? json_null() : clean_text(msg, sizeof(msg)));
    if (status != RCUPROF_POINT_OK)
        json_object_set_new(line, "stderr", clean_text(errtext, 4096));
    json_object_set_new(line, "result", res != NULL ? res : json_null());
    json_object_set(line, "host", host);
    free(out);
    free(errtext);
    return line;
}

struct import_args {
    const char *out;
};

static const struct rcuprof_opt import_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct import_args, out, NULL,
                   "write DIR/results.jsonl (it must not exist)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define IMPORT_NROWS (sizeof(import_rows) / sizeof(import_rows[0]))

static int verify_plan(json_t *plan, const char *bid, char *err, size_t n)
{
    json_t *copy;
    char *text, hex[65];
    const char *id = json_string_value(json_object_get(plan, "id"));

    if (!json_is_object(plan)
        || !json_is_string(json_object_get(plan, "schema"))
        || strcmp(json_string_value(json_object_get(plan, "schema")),
                  RCUPROF_BUNDLE_SCHEMA) != 0 || id == NULL
        || !json_is_array(json_object_get(plan, "points"))
        || !json_is_object(json_object_get(plan, "header"))) {
        snprintf(err, n, "its plan.json is not a %s plan",
                 RCUPROF_BUNDLE_SCHEMA);
        return -1;
    }
    if (strcmp(id, bid) != 0) {
        snprintf(err, n, "its BUNDLE_ID (%s) is not its plan's (%s): the folder mixes two bundles",
                 bid, id);
        return -1;
    }
    copy = json_deep_copy(plan);
    json_object_del(copy, "id");
    text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    json_decref(copy);
    if (text == NULL) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    rcuprof_sha256_hex(text, strlen(text), hex);
    free(text);
    if (strncmp(hex, id, RCUPROF_BUNDLE_IDLEN) != 0) {
        snprintf(err, n, "its plan.json was changed after rcuprof bundle wrote it (digest %.16s, id %s)",
                 hex, id);
        return -1;
    }
    return 0;
}

int rcuprof_cmd_import(int argc, char **argv)
{
    struct import_args a = { 0 };
    struct rcuprof_cmd_opts co = {
        .cmd = "import", .rows = import_rows, .n = IMPORT_NROWS,
        .target = &a,
        .unknown = "import: unexpected '%s': see 'rcuprof import --help'"
    };
    const struct rcuprof_opt *action;
    const char *src;
    char tmp[PATH_MAX] = "", dir[PATH_MAX], path[PATH_MAX + 64];
    char err[1024] = "", bid[64], pts[PATH_MAX + 16], hash[65];
    char *text = NULL;
    json_t *plan = NULL, *host = NULL, *hdr, *pp;
    size_t i, npts, missing = 0, nok = 0;
    long timeout_s;
    int rc, first, unrun = 0, ret = RCUPROF_ERR_USAGE;
    struct stat st;
    FILE *mem = NULL;
    char *buf = NULL;
    size_t blen = 0;

    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc > 0) {
        printf("usage: rcuprof import DIR | FILE.tar.gz --out DIR\n"
               "What a bundle's run.sh wrote (its results folder, the bundle folder\n"
               "holding it, or a .tar.gz of either) as a results file that compare,\n"
               "report and explain read; every point records the target (host).\n");
        rcuprof_opts_help(stdout, import_rows, IMPORT_NROWS, 0, NULL);
        return RCUPROF_OK;
    }
    if (rc < 0)
        return RCUPROF_ERR_USAGE;
    if (first + 1 < argc) {
        rcuprof_cmd_unexpected(&co, argv[first + 1]);
        return RCUPROF_ERR_USAGE;
    }
    if (first >= argc || a.out == NULL || a.out[0] == '\0') {
        rcuprof_err("import: give what run.sh wrote and --out DIR: see 'rcuprof import --help'");
        return RCUPROF_ERR_USAGE;
    }
    src = argv[first];
    snprintf(path, sizeof(path), "%s/results.jsonl", a.out);
    if (access(path, F_OK) == 0) {
        rcuprof_err("import: %s exists: give another --out", path);
        return RCUPROF_ERR_USAGE;
    }
    if (stat(src, &st) != 0) {
        rcuprof_err("import: %s: %s: give the results folder run.sh wrote, or a .tar.gz of it",
                    src, strerror(errno));
        return RCUPROF_ERR_USAGE;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(dir, sizeof(dir), "%s", src);
    } else {
        const char *t = getenv("TMPDIR");
        char *tav[] = { "tar", "-xzf", (char *)src, "-C", tmp, NULL };

        snprintf(tmp, sizeof(tmp), "%s/rcuprof-import.XXXXXX",
                 t != NULL && t[0] != '\0' ? t : "/tmp");
        if (mkdtemp(tmp) == NULL) {
            rcuprof_err("import: cannot make a temporary folder %s (%s)", tmp,
                        strerror(errno));
            tmp[0] = '\0';
            return RCUPROF_ERR_SYSTEM;
        }
        if (rcuprof_run_tar(tav, err, sizeof(err)) != 0) {
            rcuprof_err("import: %s: not a .tar.gz tar can read (%s)", src, err);
            goto out;
        }
        snprintf(dir, sizeof(dir), "%s", tmp);
    }
    {
        char found[PATH_MAX];

        if (!locate(dir, tmp[0] != '\0' ? 2 : 0, found, sizeof(found),
                    &unrun)) {
            if (unrun)
                rcuprof_err("import: %s: a bundle without results: run 'sh run.sh' there first, then import its results folder",
                            src);
            else
                rcuprof_err("import: %s: not what an rcuprof bundle's run.sh wrote (no BUNDLE_ID, plan.json and points/)",
                            src);
            goto out;
        }
        snprintf(dir, sizeof(dir), "%s", found);
    }
    snprintf(path, sizeof(path), "%s/BUNDLE_ID", dir);
    text = slurp(path, NULL);
    if (text == NULL || sscanf(text, "%63s", bid) != 1) {
        rcuprof_err("import: %s: unreadable BUNDLE_ID", src);
        goto out;
    }
    free(text);
    text = NULL;
    snprintf(path, sizeof(path), "%s/plan.json", dir);
    plan = json_load_file(path, 0, NULL);
    if (plan == NULL || verify_plan(plan, bid, err, sizeof(err)) != 0) {
        rcuprof_err("import: %s: %s", src, plan == NULL
                    ? "its plan.json does not parse" : err);
        goto out;
    }
    snprintf(path, sizeof(path), "%s/env.txt", dir);
    text = slurp(path, NULL);
    if (text == NULL) {
        rcuprof_err("import: %s: half-written: no env.txt (run.sh stopped before its first point): run 'sh run.sh' there again",
                    src);
        goto out;
    }
    host = host_record(text, bid);
    free(text);
    text = NULL;
    if (host == NULL) {
        rcuprof_err("import: out of memory");
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    hdr = json_object_get(plan, "header");
    if (rcuprof_spec_hash(json_object_get(hdr, "spec"), hash) != 0
        || !json_is_string(json_object_get(hdr, "spec_hash"))
        || strcmp(hash, json_string_value(json_object_get(hdr, "spec_hash"))) != 0) {
        rcuprof_err("import: %s: its plan's header is not a results header (spec_hash)", src);
        goto out;
    }
    timeout_s = (long)json_integer_value(json_object_get(hdr, "timeout_s"));
    npts = json_array_size(json_object_get(plan, "points"));
    snprintf(pts, sizeof(pts), "%s/points", dir);
    json_array_foreach(json_object_get(plan, "points"), i, pp) {
        snprintf(path, sizeof(path), "%s/%d.done", pts,
                 (int)json_integer_value(json_object_get(pp, "seq")));
        if (access(path, F_OK) != 0)
            missing++;
    }
    if (missing > 0) {
        rcuprof_err("import: %s: half-written: %zu of %zu points done: run 'sh run.sh' there again to finish, then import",
                    src, npts - missing, npts);
        goto out;
    }
    /* The file: the header, then every point in the order run. */
    mem = open_memstream(&buf, &blen);
    if (mem == NULL || json_dumpf(hdr, mem, JSON_COMPACT | JSON_ENSURE_ASCII) != 0) {
        rcuprof_err("import: out of memory");
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    fputc('\n', mem);
    json_array_foreach(json_object_get(plan, "points"), i, pp) {
        json_t *line = point_line(pp, pts, timeout_s, host, err, sizeof(err));

        if (line == NULL) {
            rcuprof_err("import: %s: %s", src, err[0] ? err : "out of memory");
            goto out;
        }
        if (strcmp(json_string_value(json_object_get(line, "status")), "ok") == 0)
            nok++;
        json_dumpf(line, mem, JSON_COMPACT | JSON_ENSURE_ASCII);
        fputc('\n', mem);
        json_decref(line);
    }
    if (fclose(mem) != 0) {
        mem = NULL;
        rcuprof_err("import: out of memory");
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    mem = NULL;
    if (mkdir(a.out, 0755) != 0 && errno != EEXIST) {
        rcuprof_err("import: cannot make %s (%s): check its parent exists and is writable",
                    a.out, strerror(errno));
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    snprintf(path, sizeof(path), "%s/results.jsonl", a.out);
    if (rcuprof_write_atomic(path, buf, blen) != 0) {
        rcuprof_err("import: cannot write %s (%s): check the disk", path,
                    strerror(errno));
        ret = RCUPROF_ERR_SYSTEM;
        goto out;
    }
    printf("import: %zu points (%zu ok) of bundle %s, run on %s (%s, kernel %s, %lld CPUs), into %s\n",
           npts, nok, bid,
           json_string_value(json_object_get(host, "name")),
           json_string_value(json_object_get(host, "arch")) ?: "?",
           json_string_value(json_object_get(host, "kernel")) ?: "?",
           (long long)json_integer_value(json_object_get(host, "cpus")),
           path);
    ret = RCUPROF_OK;
 out:
    if (mem != NULL)
        fclose(mem);
    free(buf);
    free(text);
    json_decref(plan);
    json_decref(host);
    if (tmp[0] != '\0')
        rcuprof_remove_tree(tmp);
    return ret;
}
