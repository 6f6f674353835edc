/*
 * Remote hosts over OpenSSH (host.h): the registry, `rcuprof host`, and
 * the ssh executor.
 *
 * A measurement on a host is one remote driver process, started by a small
 * POSIX sh runner (RUNNER_SH, one per executor, fed a line per measurement)
 * that
 *   - runs the driver under coreutils' timeout, which leads its own process
 *     group and kills the whole group when the run is over time;
 *   - watches the channel's stdin while the driver runs: rcuprof sends
 *     nothing then, so EOF means the connection is gone, and the driver's
 *     group is killed (no orphan keeps loading the box);
 *   - answers with the driver's exit code (128+N for a signal) in a header
 *     before its stdout and stderr, so a broken stream is always the
 *     transport (RCUPROF_EXEC_LOST), never the driver.
 * Drivers travel as packs (pack.h): the driver with its loader and
 * libraries, so the host needs none of the build's packages; a pack is
 * copied once into REMOTE_DIR/packs/ID and again only when a file of its
 * MANIFEST is missing there.
 */
#define _GNU_SOURCE
#include "host.h"
#include "pack.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
# define BUILD_ARCH "x86_64"
#elif defined(__aarch64__)
# define BUILD_ARCH "aarch64"
#else
# define BUILD_ARCH "unknown"
#endif

#define CONNECT_TIMEOUT "10"
#define TRANSPORT_SLACK_S 30.0  /* local deadline past the remote timeout */
#define DEFAULT_REMOTE_DIR ".cache/rcuprof"

/* ---------------------------------------------------------------------- */
/* The registry                                                            */

const char *rcuprof_hosts_path(void)
{
    static char path[PATH_MAX];
    const char *env = getenv("RCUPROF_HOSTS"), *xdg, *home;

    if (env != NULL && env[0] != '\0')
        return env;
    xdg = getenv("XDG_CONFIG_HOME");
    home = getenv("HOME");
    if (xdg != NULL && xdg[0] == '/')
        snprintf(path, sizeof(path), "%s/rcuprof/hosts.json", xdg);
    else
        snprintf(path, sizeof(path), "%s/.config/rcuprof/hosts.json",
                 home != NULL ? home : ".");
    return path;
}

/* The registry's JSON ({"hosts": {NAME: {url, remote_dir}}}), an empty one
 * when the file is missing; NULL after one line in err. */
static json_t *hosts_load(char *err, size_t errlen)
{
    const char *path = rcuprof_hosts_path();
    json_error_t je;
    json_t *j;

    if (access(path, F_OK) != 0)
        return json_pack("{s:{}}", "hosts");
    j = json_load_file(path, 0, &je);
    if (j == NULL || !json_is_object(json_object_get(j, "hosts"))) {
        snprintf(err, errlen, "%s is not a host registry (%s): fix or remove it",
                 path, j == NULL ? je.text : "no \"hosts\" object");
        json_decref(j);
        return NULL;
    }
    return j;
}

static int mkdir_parents(const char *path)
{
    char d[PATH_MAX], *s;

    snprintf(d, sizeof(d), "%s", path);
    for (s = d + 1; *s != '\0'; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(d, 0700) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return 0;
}

static int hosts_save(json_t *j, char *err, size_t errlen)
{
    const char *path = rcuprof_hosts_path();
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
    int rc = -1;

    if (text != NULL && mkdir_parents(path) == 0) {
        size_t n = strlen(text);

        text[n] = '\n';         /* json_dumps' NUL: room for it */
        rc = rcuprof_write_atomic(path, text, n + 1);
    }
    if (rc != 0)
        snprintf(err, errlen, "cannot write %s: check its folder is writable",
                 path);
    free(text);
    return rc;
}

static const json_t *hosts_get(const json_t *reg, const char *name)
{
    return json_object_get(json_object_get(reg, "hosts"), name);
}

int rcuprof_host_lookup(const char *name, char *url, size_t urln, char *err,
                        size_t errlen)
{
    json_t *reg = hosts_load(err, errlen);
    const json_t *h;
    int found;

    if (reg == NULL)
        return -1;
    h = hosts_get(reg, name);
    found = json_is_object(h);
    if (found && url != NULL)
        snprintf(url, urln, "%s",
                 json_string_value(json_object_get(h, "url")) ?: "");
    json_decref(reg);
    return found;
}

static int host_name_ok(const char *s)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > 63 || strcmp(s, "local") == 0 || s[0] == '-')
        return 0;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
              || (s[i] >= '0' && s[i] <= '9') || strchr("._-", s[i])))
            return 0;
    return 1;
}

static int word_ok(const char *s, size_t n, const char *extra)
{
    size_t i;

    if (n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
              || (s[i] >= '0' && s[i] <= '9') || strchr(extra, s[i])))
            return 0;
    return s[0] != '-';
}

int rcuprof_ssh_url_parse(const char *url, char *user, size_t usern,
                          char *host, size_t hostn, unsigned *port,
                          char *err, size_t errlen)
{
    const char *p, *at, *h, *colon, *end;
    size_t hn;

    user[0] = host[0] = '\0';
    *port = 0;
    if (strncmp(url, "ssh://", 6) != 0) {
        snprintf(err, errlen, "'%s' is not an ssh URL: give ssh://[user@]host[:port]",
                 url);
        return -1;
    }
    p = url + 6;
    end = p + strlen(p);
    if (end > p && end[-1] == '/')
        end--;
    at = memchr(p, '@', (size_t)(end - p));
    if (at != NULL) {
        if (memchr(p, ':', (size_t)(at - p)) != NULL) {
            snprintf(err, errlen, "'%s' holds a password: the registry stores no secret, use a key or your ssh agent (ssh://user@host)",
                     url);
            return -1;
        }
        if (!word_ok(p, (size_t)(at - p), "._-") || (size_t)(at - p) >= usern) {
            snprintf(err, errlen, "'%s': the user name may hold letters, digits, '.', '_', '-'",
                     url);
            return -1;
        }
        memcpy(user, p, (size_t)(at - p));
        user[at - p] = '\0';
        p = at + 1;
    }
    if (*p == '[') {            /* [ipv6]:port */
        h = p + 1;
        colon = memchr(h, ']', (size_t)(end - h));
        if (colon == NULL || !word_ok(h, (size_t)(colon - h), ":.")) {
            snprintf(err, errlen, "'%s': a bracketed host must be an IPv6 address",
                     url);
            return -1;
        }
        hn = (size_t)(colon - h);
        colon = colon + 1 < end && colon[1] == ':' ? colon + 1 : NULL;
        if (colon == NULL && h + hn + 1 != end)
            goto bad_host;
    } else {
        h = p;
        colon = memchr(h, ':', (size_t)(end - h));
        hn = (size_t)((colon != NULL ? colon : end) - h);
        if (!word_ok(h, hn, ".-_"))
            goto bad_host;
    }
    if (hn >= hostn)
        goto bad_host;
    memcpy(host, h, hn);
    host[hn] = '\0';
    if (colon != NULL) {
        char pb[8];
        uint64_t v;
        size_t pn = (size_t)(end - colon - 1);

        if (pn == 0 || pn >= sizeof(pb))
            goto bad_port;
        memcpy(pb, colon + 1, pn);
        pb[pn] = '\0';
        if (rcuprof_parse_uint(pb, 1, 65535, &v) != 0)
            goto bad_port;
        *port = (unsigned)v;
    }
    return 0;
 bad_host:
    snprintf(err, errlen, "'%s': the host must be a name or address (letters, digits, '.', '-'): ssh://[user@]host[:port]",
             url);
    return -1;
 bad_port:
    snprintf(err, errlen, "'%s': the port must be a number from 1 to 65535",
             url);
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Processes                                                               */

struct capbuf {
    char *p;
    size_t len, cap;
};

static int cap_read(struct capbuf *b, int fd)
{
    ssize_t n;

    if (b->cap - b->len < 4096) {
        size_t cap = b->cap ? b->cap * 2 : 16384;
        char *p = realloc(b->p, cap + 1);

        if (p == NULL)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    n = read(fd, b->p + b->len, b->cap - b->len);
    if (n > 0)
        b->len += (size_t)n;
    return n < 0 && errno == EINTR ? 1 : (int)n;
}

static char *cap_done(struct capbuf *b)
{
    char *p = b->p != NULL ? b->p : malloc(1);

    if (p != NULL)
        p[b->p != NULL ? b->len : 0] = '\0';
    return p;
}

/*
 * Run av (searched on PATH) in its own process group; stdin from infd
 * (-1: /dev/null; -2: a pipe held open until the process is done, so the
 * remote wrapper does not read EOF); stdout and stderr into r.  Past
 * timeout_s (> 0) the group is killed and r->timed_out set.  r->status is
 * the exit code, 128+N for a signal.  0, or -1 (fork, pipes).
 */
static int proc_run(char *const av[], int infd, double timeout_s,
                    struct rcuprof_driver_result *r)
{
    int out[2], err[2], in[2] = { -1, -1 }, status = 0, open_fds = 2;
    struct capbuf bo = { 0 }, be = { 0 };
    struct pollfd pf[2];
    double t0 = rcuprof_time_mono_s();
    pid_t pid;

    memset(r, 0, sizeof(*r));
    if (pipe2(out, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(err, O_CLOEXEC) != 0 || (infd == -2 && pipe2(in, O_CLOEXEC) != 0)) {
        close(out[0]);
        close(out[1]);
        return -1;
    }
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int nul;

        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        if (infd >= 0)
            dup2(infd, 0);
        else if (infd == -2)
            dup2(in[0], 0);
        else if ((nul = open("/dev/null", O_RDONLY)) >= 0)
            dup2(nul, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        execvp(av[0], av);
        dprintf(2, "cannot execute %s: %s\n", av[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(out[1]);
    close(err[1]);
    if (in[0] >= 0)
        close(in[0]);
    pf[0].fd = out[0];
    pf[1].fd = err[0];
    pf[0].events = pf[1].events = POLLIN;
    while (open_fds > 0) {
        double left = timeout_s - (rcuprof_time_mono_s() - t0);
        int i, rc;

        if (timeout_s > 0 && left <= 0) {
            r->timed_out = 1;
            kill(-pid, SIGKILL);
            break;
        }
        rc = poll(pf, 2, timeout_s > 0 ? (int)(left * 1000) + 1 : -1);
        if (rc < 0 && errno != EINTR)
            break;
        for (i = 0; rc > 0 && i < 2; i++)
            if (pf[i].fd >= 0
                && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))
                && cap_read(i == 0 ? &bo : &be, pf[i].fd) <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_fds--;
            }
    }
    if (in[1] >= 0)
        close(in[1]);
    if (pf[0].fd >= 0)
        close(pf[0].fd);
    if (pf[1].fd >= 0)
        close(pf[1].fd);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    r->seconds = rcuprof_time_mono_s() - t0;
    r->exited = 1;
    r->status = WIFEXITED(status) ? WEXITSTATUS(status)
                                  : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r->out = cap_done(&bo);
    r->err = cap_done(&be);
    return 0;
}

/* The last non-empty line of text (into buf). */
static void last_line(const char *text, char *buf, size_t n)
{
    const char *s = text != NULL ? text : "", *best = s, *p;
    size_t len = 0;

    for (p = s; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t l = nl != NULL ? (size_t)(nl - p) : strlen(p);

        if (l > 0 && !(l == 1 && p[0] == '\r')) {
            best = p;
            len = l;
        }
        p += l + (nl != NULL);
    }
    while (len > 0 && (best[len - 1] == '\r'))
        len--;
    snprintf(buf, n, "%.*s", (int)len, best);
}

/* 'text' for a POSIX shell, appended to b. */
static void sh_quote(struct rcuprof_sb *b, const char *s)
{
    rcuprof_sb_printf(b, " '");
    for (; *s != '\0'; s++) {
        if (*s == '\'')
            rcuprof_sb_printf(b, "'\\''");
        else
            rcuprof_sb_printf(b, "%c", *s);
    }
    rcuprof_sb_printf(b, "'");
}

/* ---------------------------------------------------------------------- */
/* The ssh executor                                                        */

struct prepared {
    char drv[PATH_MAX];         /* local driver path (argv[0] of run) */
    char packs[PATH_MAX];       /* the local packs folder */
    char id[RCUPROF_PACK_IDLEN + 8];
    char rundir[PATH_MAX + 64]; /* the pack on the host */
    char *av[8];                /* the remote argv prefix (pack.h) */
    char buf[3 * PATH_MAX];
    int n;
};

struct ssh_host {
    struct rcuprof_executor x;
    char url[512], user[128], host[256], dest[400];
    unsigned port;
    char remote_dir[PATH_MAX];  /* absolute once probed */
    char ctl_dir[PATH_MAX - 64], ctl_opt[PATH_MAX];
    int master;                 /* 1: a master connection to close */
    json_t *record;
    struct prepared *prep;
    size_t nprep;
    pid_t runner_pid;           /* the runner's ssh (0: none) */
    int runner_in, runner_out;
    char *rbuf;                 /* what the runner sent, not yet taken */
    size_t rlen, rcap;
    char **opts;                /* $RCUPROF_SSH_OPTS words */
    char *opts_text;
    size_t nopts;
};

/* ssh's argv: ssh, the user's words, ours, the destination, -- cmd. */
static int ssh_argv(const struct ssh_host *h, char **av, size_t cap,
                    const char *const *extra, const char *cmd)
{
    static char portbuf[16];
    size_t n = 0, i;

#define ADD(s) do { if (n + 1 >= cap) return -1; av[n++] = (char *)(s); } while (0)
    ADD("ssh");
    for (i = 0; i < h->nopts; i++)
        ADD(h->opts[i]);
    ADD("-o"); ADD("BatchMode=yes");
    ADD("-o"); ADD("ConnectTimeout=" CONNECT_TIMEOUT);
    ADD("-o"); ADD("LogLevel=ERROR");
    ADD("-o"); ADD(h->ctl_opt);
    for (i = 0; extra != NULL && extra[i] != NULL; i++)
        ADD(extra[i]);
    if (h->port != 0) {
        snprintf(portbuf, sizeof(portbuf), "%u", h->port);
        ADD("-p"); ADD(portbuf);
    }
    ADD(h->dest);
    if (cmd != NULL) {
        ADD("--");
        ADD(cmd);
    }
    av[n] = NULL;
#undef ADD
    return (int)n;
}

/* Run script (POSIX sh) on the host with args: the result in r; 0, or -1
 * (could not start ssh). */
static int ssh_sh(struct ssh_host *h, const char *script,
                  const char *const *args, int infd, double timeout_s,
                  struct rcuprof_driver_result *r)
{
    struct rcuprof_sb b = { 0 };
    char *cmd, *av[64];
    int rc;

    rcuprof_sb_printf(&b, "exec sh -c");
    sh_quote(&b, script);
    rcuprof_sb_printf(&b, " rcuprof");
    for (; args != NULL && *args != NULL; args++)
        sh_quote(&b, *args);
    cmd = rcuprof_sb_done(&b);
    if (cmd == NULL || ssh_argv(h, av, 64, NULL, cmd) < 0) {
        free(cmd);
        return -1;
    }
    rc = proc_run(av, infd, timeout_s, r);
    free(cmd);
    return rc;
}

/* What the host is: "key value" lines, "end" last. */
static const char PROBE_SH[] =
    "echo \"arch $(uname -m)\"\n"
    "echo \"kernel $(uname -r)\"\n"
    "echo \"home $HOME\"\n"
    "echo \"cpus $(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)\"\n"
    "echo \"os $( . /etc/os-release 2>/dev/null; echo \"${PRETTY_NAME:-}\")\"\n"
    "echo \"model $(sed -n \"s/^model name[^:]*: *//p\" /proc/cpuinfo 2>/dev/null | head -n 1)\"\n"
    "echo \"paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)\"\n"
    "for p in /sys/bus/event_source/devices/cpu*; do\n"
    "  [ -e \"$p\" ] && echo \"pmu ${p##*/}\"\n"
    "done\n"
    "for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do\n"
    "  [ -r \"$c/physical_package_id\" ] || continue\n"
    "  echo \"cpu $(cat \"$c/physical_package_id\") $(cat \"$c/die_id\" 2>/dev/null || echo 0) $(cat \"$c/core_id\")\"\n"
    "done\n"
    "echo \"numa $(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)\"\n"
    "command -v timeout >/dev/null 2>&1 && echo \"timeout yes\"\n"
    "command -v tar >/dev/null 2>&1 && echo \"tar yes\"\n"
    "echo end\n";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t count_distinct(char **v, size_t n)
{
    size_t i, d = 0;

    qsort(v, n, sizeof(*v), cmp_str);
    for (i = 0; i < n; i++)
        if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
            d++;
    return d;
}

/* The probe's output into the host record; NULL when it is not whole. */
static json_t *probe_record(const struct ssh_host *h, const char *out,
                            int *has_timeout, int *has_tar)
{
    json_t *rec = json_object(), *pmus = json_array();
    char *text = strdup(out), *line, *save = NULL, **pk = NULL, **core = NULL;
    size_t ncpu = 0, i;
    int end = 0;

    *has_timeout = *has_tar = 0;
    json_object_set_new(rec, "name", json_string(h->x.name));
    json_object_set_new(rec, "url", json_string(h->url));
    for (line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char *v = strchr(line, ' ');

        if (strcmp(line, "end") == 0) {
            end = 1;
            continue;
        }
        if (v == NULL)
            continue;
        *v++ = '\0';
        if (strcmp(line, "arch") == 0 || strcmp(line, "kernel") == 0
            || strcmp(line, "os") == 0 || strcmp(line, "model") == 0)
            json_object_set_new(rec, line, json_string(v));
        else if (strcmp(line, "home") == 0)
            json_object_set_new(rec, "home", json_string(v));
        else if (strcmp(line, "cpus") == 0 || strcmp(line, "numa") == 0)
            json_object_set_new(rec, strcmp(line, "cpus") == 0 ? "cpus"
                                : "numa_nodes", json_integer(atoll(v)));
        else if (strcmp(line, "paranoid") == 0)
            json_object_set_new(rec, "perf_event_paranoid",
                                v[0] != '\0' ? json_integer(atoll(v))
                                             : json_null());
        else if (strcmp(line, "pmu") == 0)
            json_array_append_new(pmus, json_string(v));
        else if (strcmp(line, "cpu") == 0) {
            char **a = realloc(pk, (ncpu + 1) * sizeof(*pk));
            char **c = a != NULL ? realloc(core, (ncpu + 1) * sizeof(*core)) : NULL;
            char *sp = strchr(v, ' ');

            if (a != NULL)
                pk = a;
            if (c == NULL)
                continue;
            core = c;
            /* "PKG DIE CORE": a socket is PKG, a core is the triple */
            pk[ncpu] = strndup(v, sp != NULL ? (size_t)(sp - v) : strlen(v));
            core[ncpu] = strdup(v);
            ncpu++;
        } else if (strcmp(line, "timeout") == 0)
            *has_timeout = 1;
        else if (strcmp(line, "tar") == 0)
            *has_tar = 1;
    }
    json_object_set_new(rec, "pmu", json_pack("{s:o,s:b}", "devices", pmus,
                                              "cpu_pmu", json_array_size(pmus) > 0));
    json_object_set_new(rec, "topology",
                        json_pack("{s:I,s:I,s:I,s:O}",
                                  "sockets", (json_int_t)count_distinct(pk, ncpu),
                                  "cores", (json_int_t)count_distinct(core, ncpu),
                                  "threads", (json_int_t)ncpu,
                                  "numa_nodes",
                                  json_object_get(rec, "numa_nodes") ?: json_null()));
    json_object_del(rec, "numa_nodes");
    for (i = 0; i < ncpu; i++) {
        free(pk[i]);
        free(core[i]);
    }
    free(pk);
    free(core);
    free(text);
    if (!end || !json_is_string(json_object_get(rec, "arch"))) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}

static void runner_stop(struct ssh_host *h, int hard);
static int runner_start(struct ssh_host *h);
static int runner_fill(struct ssh_host *h, size_t want, double deadline);
static char *runner_take(struct ssh_host *h, size_t n);

static void ssh_close(struct rcuprof_executor *x)
{
    struct ssh_host *h = x->priv;

    if (h == NULL)
        return;
    runner_stop(h, 0);
    free(h->rbuf);
    if (h->master) {
        const char *extra[] = { "-O", "exit", NULL };
        char *av[64];
        struct rcuprof_driver_result r;

        if (ssh_argv(h, av, 64, extra, NULL) > 0
            && proc_run(av, -1, 10, &r) == 0)
            rcuprof_driver_result_free(&r);
    }
    if (h->ctl_dir[0] != '\0') {
        char p[PATH_MAX + 16];

        snprintf(p, sizeof(p), "%s/c", h->ctl_dir);
        unlink(p);
        snprintf(p, sizeof(p), "%s/master.err", h->ctl_dir);
        unlink(p);
        snprintf(p, sizeof(p), "%s/runner.err", h->ctl_dir);
        unlink(p);
        rmdir(h->ctl_dir);
    }
    json_decref(h->record);
    free(h->prep);
    free(h->opts);
    free(h->opts_text);
    free(h);
}

static json_t *ssh_host_record(struct rcuprof_executor *x)
{
    struct ssh_host *h = x->priv;
    json_t *rec = json_deep_copy(h->record);

    json_object_del(rec, "home");  /* where, not what: not a result's */
    return rec;
}

/* The local folder of packs: $RCUPROF_CACHE/packs, else
 * $XDG_CACHE_HOME/rcuprof/packs, else ~/.cache/rcuprof/packs. */
static void packs_dir(char *d, size_t n)
{
    const char *c = getenv("RCUPROF_CACHE"), *x = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");

    if (c != NULL && c[0] != '\0')
        snprintf(d, n, "%s/packs", c);
    else if (x != NULL && x[0] == '/')
        snprintf(d, n, "%s/rcuprof/packs", x);
    else
        snprintf(d, n, "%s/.cache/rcuprof/packs", home != NULL ? home : ".");
}

/* Every file of the pack's MANIFEST there: exit 0; something missing: 1. */
static const char PRESENT_SH[] =
    "c=\"$1/packs/$2\"\n"
    "[ -f \"$c/MANIFEST\" ] || exit 1\n"
    "while read -r k a b; do\n"
    "  if [ \"$k\" = file ]; then [ -f \"$c/$b\" ] || exit 1; fi\n"
    "done < \"$c/MANIFEST\"\n"
    "[ -x \"$c/driver\" ] || exit 1\n"
    "exit 0\n";

/* The pack (a tar stream on stdin) into place, whole or not at all. */
static const char COPY_SH[] =
    "set -e\n"
    "d=\"$1/packs\"; t=\"$d/.$2.$$\"\n"
    "mkdir -p \"$d\"; rm -rf \"$t\"; mkdir \"$t\"\n"
    "tar -xf - -C \"$t\"\n"
    "rm -rf \"$d/$2\"; mv \"$t/$2\" \"$d/$2\"; rmdir \"$t\"\n";

static int ssh_copy_pack(struct ssh_host *h, const char *packs,
                         const char *id, char *err, size_t errlen)
{
    const char *args[] = { h->remote_dir, id, NULL };
    struct rcuprof_driver_result r;
    int tp[2], st = 0, rc;
    pid_t tar;
    char line[512];

    if (pipe2(tp, O_CLOEXEC) != 0)
        goto sys;
    tar = fork();
    if (tar < 0) {
        close(tp[0]);
        close(tp[1]);
        goto sys;
    }
    if (tar == 0) {
        dup2(tp[1], 1);
        execlp("tar", "tar", "-C", packs, "-cf", "-", id, (char *)NULL);
        _exit(127);
    }
    close(tp[1]);
    rc = ssh_sh(h, COPY_SH, args, tp[0], 0, &r);
    close(tp[0]);
    while (waitpid(tar, &st, 0) < 0 && errno == EINTR)
        ;
    if (rc != 0)
        goto sys;
    if (r.status != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        last_line(r.err, line, sizeof(line));
        snprintf(err, errlen, "host %s: copying the driver pack %s into %s/packs failed%s%s",
                 h->x.name, id, h->remote_dir, line[0] ? ": " : "", line);
        rcuprof_driver_result_free(&r);
        return -1;
    }
    rcuprof_driver_result_free(&r);
    return 0;
 sys:
    snprintf(err, errlen, "host %s: cannot start tar or ssh to copy the driver",
             h->x.name);
    return -1;
}

static int ssh_prepare(struct rcuprof_executor *x, const char *variant,
                       const char *drv, char *err, size_t errlen)
{
    struct ssh_host *h = x->priv;
    char packs[PATH_MAX], id[RCUPROF_PACK_IDLEN + 8], dir[PATH_MAX + 64],
         rundir[PATH_MAX + 64], perr[768], line[512];
    const char *args[] = { h->remote_dir, id, NULL };
    struct rcuprof_driver_result r;
    struct prepared *p;
    size_t i;
    int present;

    if (access(drv, X_OK) != 0) {
        snprintf(err, errlen, "variant %s: its driver is not built (%s)",
                 variant, drv);
        return -1;
    }
    packs_dir(packs, sizeof(packs));
    if (mkdir_parents(packs) != 0
        || (mkdir(packs, 0700) != 0 && errno != EEXIST)
        || rcuprof_pack_driver(drv, packs, id, sizeof(id), perr,
                               sizeof(perr)) != 0) {
        snprintf(err, errlen, "variant %s: cannot pack its driver for host %s: %s",
                 variant, h->x.name, perr[0] ? perr : packs);
        return -1;
    }
    /* Present on the host?  Checked on every prepare: a pack deleted there
     * since is copied again. */
    if (ssh_sh(h, PRESENT_SH, args, -1, 60, &r) != 0) {
        snprintf(err, errlen, "host %s: cannot start ssh", h->x.name);
        return -1;
    }
    present = r.status == 0;
    if (r.status != 0 && r.status != 1) {
        last_line(r.err, line, sizeof(line));
        snprintf(err, errlen, "host %s: lost while checking its driver cache (ssh exit %d)%s%s",
                 h->x.name, r.status, line[0] ? ": " : "", line);
        rcuprof_driver_result_free(&r);
        return -1;
    }
    rcuprof_driver_result_free(&r);
    if (!present && ssh_copy_pack(h, packs, id, err, errlen) != 0)
        return -1;
    for (i = 0; i < h->nprep; i++)
        if (strcmp(h->prep[i].drv, drv) == 0)
            break;
    if (i == h->nprep) {
        p = realloc(h->prep, (h->nprep + 1) * sizeof(*p));
        if (p == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        h->prep = p;
        h->nprep++;
    }
    p = &h->prep[i];
    memset(p, 0, sizeof(*p));
    snprintf(p->drv, sizeof(p->drv), "%s", drv);
    snprintf(p->packs, sizeof(p->packs), "%s", packs);
    snprintf(p->id, sizeof(p->id), "%s", id);
    snprintf(dir, sizeof(dir), "%s/%s", packs, id);
    snprintf(rundir, sizeof(rundir), "%s/packs/%s", h->remote_dir, id);
    snprintf(p->rundir, sizeof(p->rundir), "%s", rundir);
    p->n = rcuprof_pack_argv(dir, rundir, p->buf, sizeof(p->buf), p->av, 8,
                             perr, sizeof(perr));
    if (p->n < 0) {
        h->nprep--;
        snprintf(err, errlen, "variant %s: %s", variant, perr);
        return -1;
    }
    /* The runner now, so its login shell starts before the first
     * measurement rather than inside it. */
    if (h->runner_pid <= 0 && runner_start(h) != 0) {
        snprintf(err, errlen, "host %s: cannot start ssh", h->x.name);
        return -1;
    }
    return 0;
}

/*
 * The runner: one long-lived sh on the host per executor, so a measurement
 * costs a line each way instead of a new channel and a login shell (the
 * user's rc files run once, not per measurement).  $1 the remote dir.  It
 * reads one line per measurement on stdin, sh words: the timeout in
 * seconds (0: none), the pack, the driver's argv.  It answers
 * "@rcuprof-run RC OUTBYTES ERRBYTES" and then the driver's stdout and
 * stderr.  RC: the driver's code, 128+N for signal N, 124 (137 after the
 * grace) past the timeout, 200 when the pack is gone (deleted since
 * prepare: copied again, and the run made once more).  While the driver
 * runs nothing is sent to it, so EOF on stdin then means the connection is
 * gone: the driver's group is killed (timeout itself when it has no group
 * yet).
 */
#define RUN_PACK_GONE 200
static const char RUNNER_SH[] =
    "d=$1; o=\"$d/.run.$$.out\"; e=\"$d/.run.$$.err\"\n"
    "mkdir -p \"$d\" || exit 1\n"
    "exec 3<&0\n"
    "echo @rcuprof-ready\n"
    "while IFS= read -r line <&3; do\n"
    "  eval \"set -- $line\"\n"
    "  t=$1; c=$2; shift 2\n"
    "  if [ -f \"$c/MANIFEST\" ] && [ -x \"$c/driver\" ]; then\n"
    "    timeout -k 5 \"$t\" \"$@\" >\"$o\" 2>\"$e\" </dev/null &\n"
    "    p=$!\n"
    "    ( while read -r _ <&3; do :; done\n"
    "      kill -KILL -\"$p\" || kill -KILL \"$p\" ) >/dev/null 2>&1 &\n"
    "    w=$!\n"
    "    wait \"$p\"; rc=$?\n"
    "    kill \"$w\" 2>/dev/null; wait \"$w\" 2>/dev/null\n"
    "  else\n"
    "    : >\"$o\"; : >\"$e\"; rc=200\n"
    "  fi\n"
    "  printf '@rcuprof-run %s %s %s\\n' \"$rc\" $(wc -c <\"$o\") $(wc -c <\"$e\")\n"
    "  cat \"$o\" \"$e\"\n"
    "  rm -f \"$o\" \"$e\"\n"
    "done\n"
    "rm -f \"$o\" \"$e\"\n";

static void runner_stop(struct ssh_host *h, int hard)
{
    int st, i;

    if (h->runner_pid <= 0)
        return;
    close(h->runner_in);
    close(h->runner_out);
    h->runner_in = h->runner_out = -1;
    for (i = 0; !hard && i < 50; i++) {
        if (waitpid(h->runner_pid, &st, WNOHANG) == h->runner_pid) {
            h->runner_pid = 0;
            return;
        }
        usleep(100000);
    }
    kill(-h->runner_pid, SIGKILL);
    while (waitpid(h->runner_pid, &st, 0) < 0 && errno == EINTR)
        ;
    h->runner_pid = 0;
}

static int runner_start(struct ssh_host *h)
{
    struct rcuprof_sb b = { 0 };
    int in[2], out[2], efd;
    char *cmd, *av[64], path[PATH_MAX];

    rcuprof_sb_printf(&b, "exec sh -c");
    sh_quote(&b, RUNNER_SH);
    rcuprof_sb_printf(&b, " rcuprof");
    sh_quote(&b, h->remote_dir);
    cmd = rcuprof_sb_done(&b);
    snprintf(path, sizeof(path), "%.4000s/runner.err", h->ctl_dir);
    efd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (cmd == NULL || efd < 0 || ssh_argv(h, av, 64, NULL, cmd) < 0
        || pipe2(in, O_CLOEXEC) != 0) {
        free(cmd);
        if (efd >= 0)
            close(efd);
        return -1;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        close(efd);
        free(cmd);
        return -1;
    }
    h->runner_pid = fork();
    if (h->runner_pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(efd, 2);
        execvp(av[0], av);
        _exit(127);
    }
    free(cmd);
    close(in[0]);
    close(out[1]);
    close(efd);
    if (h->runner_pid < 0) {
        close(in[1]);
        close(out[0]);
        h->runner_pid = 0;
        return -1;
    }
    setpgid(h->runner_pid, h->runner_pid);
    h->runner_in = in[1];
    h->runner_out = out[0];
    h->rlen = 0;
    /* Ready once the host's login shell has started it. */
    if (runner_fill(h, 0, rcuprof_time_mono_s() + 120) != 0
        || strncmp(h->rbuf, "@rcuprof-ready\n", 15) != 0) {
        runner_stop(h, 1);
        return -1;
    }
    free(runner_take(h, 15));
    return 0;
}

/* Read from the runner until want bytes are buffered (or a whole line,
 * want 0) or the deadline: 0, or -1 (EOF, error, past the deadline). */
static int runner_fill(struct ssh_host *h, size_t want, double deadline)
{
    for (;;) {
        struct pollfd pf = { .fd = h->runner_out, .events = POLLIN };
        double left = deadline - rcuprof_time_mono_s();
        ssize_t n;
        int rc;

        if (want > 0 ? h->rlen >= want
                     : memchr(h->rbuf, '\n', h->rlen) != NULL)
            return 0;
        if (h->rlen + 65536 > h->rcap) {
            size_t cap = h->rcap ? h->rcap * 2 : 262144;
            char *p;

            while (cap < h->rlen + 65536 || cap < want + 1)
                cap *= 2;
            if ((p = realloc(h->rbuf, cap)) == NULL)
                return -1;
            h->rbuf = p;
            h->rcap = cap;
        }
        if (deadline > 0 && left <= 0)
            return -1;
        rc = poll(&pf, 1, deadline > 0 ? (int)(left * 1000) + 1 : -1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return -1;
        n = read(h->runner_out, h->rbuf + h->rlen, h->rcap - h->rlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        h->rlen += (size_t)n;
    }
}

/* The first n buffered bytes as a new string; the rest kept. */
static char *runner_take(struct ssh_host *h, size_t n)
{
    char *s = malloc(n + 1);

    if (s == NULL)
        return NULL;
    memcpy(s, h->rbuf, n);
    s[n] = '\0';
    memmove(h->rbuf, h->rbuf + n, h->rlen - n);
    h->rlen -= n;
    return s;
}

/* One measurement through the runner: 0 (r filled, r->status the runner's
 * RC), 1 (lost: r->err says so), -1 (could not start ssh). */
static int runner_exchange(struct ssh_host *h, const char *const *args,
                           double timeout_s, struct rcuprof_driver_result *r)
{
    struct rcuprof_sb b = { 0 };
    double t0 = rcuprof_time_mono_s(), deadline;
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    unsigned long rc, no, ne;
    char *line, *nl, path[PATH_MAX], text[2048], msg[600];
    size_t len, off = 0;
    ssize_t w = 0;
    int fd;

    memset(r, 0, sizeof(*r));
    for (len = 0; args[len] != NULL; len++)
        if (strchr(args[len], '\n') != NULL)
            return -1;          /* the runner reads a line per run */
    if (h->runner_pid <= 0 && runner_start(h) != 0)
        return -1;
    for (; *args != NULL; args++)
        sh_quote(&b, *args);
    rcuprof_sb_printf(&b, "\n");
    line = rcuprof_sb_done(&b);
    if (line == NULL)
        return -1;
    len = strlen(line);
    sigaction(SIGPIPE, &ign, &old);
    while (off < len && ((w = write(h->runner_in, line + off, len - off)) > 0
                         || (w < 0 && errno == EINTR)))
        off += w > 0 ? (size_t)w : 0;
    sigaction(SIGPIPE, &old, NULL);
    free(line);
    deadline = timeout_s > 0 ? t0 + timeout_s + 5 + TRANSPORT_SLACK_S : 0;
    if (off < len || runner_fill(h, 0, deadline) != 0)
        goto lost;
    nl = memchr(h->rbuf, '\n', h->rlen);
    if (sscanf(h->rbuf, "@rcuprof-run %lu %lu %lu", &rc, &no, &ne) != 3)
        goto lost;
    free(runner_take(h, (size_t)(nl - h->rbuf) + 1));
    if (no + ne > 0 && runner_fill(h, no + ne, deadline) != 0)
        goto lost;
    r->out = runner_take(h, no);
    r->err = runner_take(h, ne);
    r->exited = 1;
    r->status = (int)rc;
    r->seconds = rcuprof_time_mono_s() - t0;
    return 0;
 lost:
    runner_stop(h, 1);
    snprintf(path, sizeof(path), "%.4000s/runner.err", h->ctl_dir);
    text[0] = '\0';
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
        ssize_t n = read(fd, text, sizeof(text) - 1);

        text[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    last_line(text, msg, sizeof(msg));
    r->seconds = rcuprof_time_mono_s() - t0;
    r->out = strdup("");
    if (asprintf(&r->err, "the connection to host %s was lost during the measurement%s%s",
                 h->x.name, msg[0] ? ": " : "", msg) < 0)
        r->err = NULL;
    r->status = 255;
    return 1;
}

static enum rcuprof_exec_rc ssh_run(struct rcuprof_executor *x,
                                    char *const argv[], double timeout_s,
                                    struct rcuprof_driver_result *r)
{
    struct ssh_host *h = x->priv;
    const char **args;
    char tbuf[32], err[1024];
    struct prepared *p = NULL;
    size_t i, n = 0, k;
    int rc, code, again = 0;

    for (i = 0; i < h->nprep; i++)
        if (strcmp(h->prep[i].drv, argv[0]) == 0)
            p = &h->prep[i];
    if (p == NULL) {
        const char *base = strrchr(argv[0], '/');

        base = base != NULL ? base + 1 : argv[0];
        if (strncmp(base, "rcuprof-stress-", 15) == 0)
            base += 15;
        if (ssh_prepare(x, base, argv[0], err, sizeof(err)) != 0) {
            memset(r, 0, sizeof(*r));
            r->out = strdup("");
            r->err = strdup(err);
            return RCUPROF_EXEC_LOST;
        }
        p = &h->prep[h->nprep - 1];
    }
    while (argv[n] != NULL)
        n++;
    args = calloc(n + (size_t)p->n + 3, sizeof(*args));
    if (args == NULL)
        return RCUPROF_EXEC_ERROR;
    snprintf(tbuf, sizeof(tbuf), "%.3f", timeout_s > 0 ? timeout_s : 0.0);
    k = 0;
    args[k++] = tbuf;
    args[k++] = p->rundir;
    for (i = 0; i < (size_t)p->n; i++)
        args[k++] = p->av[i];
    for (i = 1; i < n; i++)
        args[k++] = argv[i];
    args[k] = NULL;
    for (;;) {
        rc = runner_exchange(h, args, timeout_s, r);
        if (rc != 0 || r->status != RUN_PACK_GONE || again++)
            break;
        rcuprof_driver_result_free(r);
        if (ssh_copy_pack(h, p->packs, p->id, err, sizeof(err)) != 0) {
            free(args);
            memset(r, 0, sizeof(*r));
            r->out = strdup("");
            r->err = strdup(err);
            return RCUPROF_EXEC_LOST;
        }
    }
    free(args);
    if (rc < 0)
        return RCUPROF_EXEC_ERROR;
    if (rc > 0) {
        /* ssh's own failure (or a transport stuck past every deadline):
         * no result; r->err says so. */
        r->exited = 0;
        return RCUPROF_EXEC_LOST;
    }
    code = r->status;
    if (code == 124 || (code == 128 + SIGKILL && timeout_s > 0
                        && r->seconds >= timeout_s)) {
        r->timed_out = 1;
        r->exited = 0;
        r->status = SIGKILL;
    } else if (code > 128 && code < 128 + 65) {
        r->exited = 0;
        r->status = code - 128;
    }
    return RCUPROF_EXEC_RAN;
}

/* $RCUPROF_SSH_OPTS as words (no quoting: options and paths). */
static void split_opts(struct ssh_host *h)
{
    const char *env = getenv("RCUPROF_SSH_OPTS");
    char *s, *save = NULL, *w;

    if (env == NULL || env[0] == '\0')
        return;
    h->opts_text = strdup(env);
    h->opts = calloc(strlen(env) / 2 + 2, sizeof(*h->opts));
    if (h->opts_text == NULL || h->opts == NULL)
        return;
    for (s = h->opts_text; (w = strtok_r(s, " \t\n", &save)) != NULL; s = NULL)
        h->opts[h->nopts++] = w;
}

/* codes for the commands: 2 unknown / bad entry, 3 unreachable, 1 refused */
static struct rcuprof_executor *ssh_open(const char *name, char *err,
                                         size_t errlen, int *code)
{
    struct ssh_host *h;
    char rerr[768], line[512], tmpl[PATH_MAX + 16];
    const char *extra[] = { "-M", "-N", "-f", "-o", "ControlPersist=300",
                            NULL };
    const char *tmp = getenv("TMPDIR"), *arch, *home, *rd;
    struct rcuprof_driver_result r;
    char *av[64];
    json_t *reg = hosts_load(rerr, sizeof(rerr));
    const json_t *e;
    int fd, timeout_ok, tar_ok;

    *code = RCUPROF_ERR_USAGE;
    if (reg == NULL) {
        snprintf(err, errlen, "%s", rerr);
        return NULL;
    }
    e = hosts_get(reg, name);
    if (!json_is_object(e)) {
        snprintf(err, errlen, "--host %s: unknown host (rcuprof host list; add it with rcuprof host add %s ssh://[user@]host[:port])",
                 name, name);
        json_decref(reg);
        return NULL;
    }
    h = calloc(1, sizeof(*h));
    if (h == NULL) {
        json_decref(reg);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->x.kind = "ssh";
    snprintf(h->x.name, sizeof(h->x.name), "%s", name);
    h->x.prepare = ssh_prepare;
    h->x.run = ssh_run;
    h->x.host_record = ssh_host_record;
    h->x.close = ssh_close;
    h->x.priv = h;
    snprintf(h->url, sizeof(h->url), "%s",
             json_string_value(json_object_get(e, "url")) ?: "");
    rd = json_string_value(json_object_get(e, "remote_dir"));
    snprintf(h->remote_dir, sizeof(h->remote_dir), "%s",
             rd != NULL ? rd : DEFAULT_REMOTE_DIR);
    json_decref(reg);
    if (rcuprof_ssh_url_parse(h->url, h->user, sizeof(h->user), h->host,
                              sizeof(h->host), &h->port, rerr,
                              sizeof(rerr)) != 0) {
        snprintf(err, errlen, "host %s: %s (rcuprof host remove %s, then add it again)",
                 name, rerr, name);
        goto fail;
    }
    snprintf(h->dest, sizeof(h->dest), "%s%s%s", h->user,
             h->user[0] ? "@" : "", h->host);
    split_opts(h);
    *code = RCUPROF_ERR_SYSTEM;
    snprintf(tmpl, sizeof(tmpl), "%s/rcuprof-ssh.XXXXXX",
             tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    if (mkdtemp(tmpl) == NULL) {
        snprintf(err, errlen, "host %s: cannot make a private folder in %s",
                 name, tmp != NULL ? tmp : "/tmp");
        goto fail;
    }
    snprintf(h->ctl_dir, sizeof(h->ctl_dir), "%.3900s", tmpl);
    snprintf(h->ctl_opt, sizeof(h->ctl_opt), "ControlPath=%s/c", h->ctl_dir);
    /* The master: backgrounds itself once authenticated; its stderr into
     * a file (a pipe would be held open by the background process). */
    snprintf(tmpl, sizeof(tmpl), "%s/master.err", h->ctl_dir);
    fd = open(tmpl, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ssh_argv(h, av, 64, extra, NULL) < 0) {
        snprintf(err, errlen, "host %s: cannot start ssh", name);
        if (fd >= 0)
            close(fd);
        goto fail;
    }
    {
        pid_t pid = fork();
        int st = 0;

        if (pid == 0) {
            int nul = open("/dev/null", O_RDWR);

            setsid();
            dup2(nul, 0);
            dup2(nul, 1);
            dup2(fd, 2);
            execvp(av[0], av);
            dprintf(2, "cannot execute ssh: %s\n", strerror(errno));
            _exit(255);
        }
        while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            char text[4096];
            ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

            text[n > 0 ? n : 0] = '\0';
            last_line(text, line, sizeof(line));
            close(fd);
            snprintf(err, errlen, "host %s (%s): unreachable: %s", name,
                     h->url, line[0] ? line : "ssh failed without a message");
            goto fail;
        }
        close(fd);
        h->master = 1;
    }
    if (ssh_sh(h, PROBE_SH, NULL, -1, 60, &r) != 0) {
        snprintf(err, errlen, "host %s: cannot start ssh", name);
        goto fail;
    }
    h->record = r.status == 0 ? probe_record(h, r.out, &timeout_ok, &tar_ok)
                              : NULL;
    if (h->record == NULL) {
        last_line(r.err, line, sizeof(line));
        snprintf(err, errlen, "host %s (%s): unreachable: its probe failed (exit %d)%s%s",
                 name, h->url, r.status, line[0] ? ": " : "", line);
        rcuprof_driver_result_free(&r);
        goto fail;
    }
    rcuprof_driver_result_free(&r);
    arch = json_string_value(json_object_get(h->record, "arch"));
    if (strcmp(arch, BUILD_ARCH) != 0) {
        *code = RCUPROF_ERR_RUN;
        snprintf(err, errlen, "host %s (%s): refused: its architecture is %s, the drivers are %s",
                 name, h->url, arch, BUILD_ARCH);
        goto fail;
    }
    if (!timeout_ok || !tar_ok) {
        *code = RCUPROF_ERR_RUN;
        snprintf(err, errlen, "host %s (%s): refused: it lacks %s%s%s (coreutils and tar run the drivers there)",
                 name, h->url, timeout_ok ? "" : "timeout",
                 !timeout_ok && !tar_ok ? " and " : "", tar_ok ? "" : "tar");
        goto fail;
    }
    home = json_string_value(json_object_get(h->record, "home"));
    if (h->remote_dir[0] != '/') {
        char rel[PATH_MAX];

        if (home == NULL || home[0] != '/') {
            snprintf(err, errlen, "host %s: refused: its $HOME is not set, give an absolute --remote-dir",
                     name);
            *code = RCUPROF_ERR_RUN;
            goto fail;
        }
        snprintf(rel, sizeof(rel), "%s", h->remote_dir);
        snprintf(h->remote_dir, sizeof(h->remote_dir), "%.2000s/%.2000s", home, rel);
    }
    return &h->x;
 fail:
    ssh_close(&h->x);
    return NULL;
}

struct rcuprof_executor *rcuprof_executor_ssh(const char *name, char *err,
                                              size_t errlen)
{
    int code;

    return ssh_open(name, err, errlen, &code);
}

/* ---------------------------------------------------------------------- */
/* rcuprof host                                                            */

struct host_args {
    const char *remote_dir;
    int json;
};

static const struct rcuprof_opt host_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "remote-dir", 0, "DIR", "", 0, 0,
                   struct host_args, remote_dir, NULL,
                   "add: where drivers are cached on the host, relative to its $HOME or absolute (default: .cache/rcuprof)"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "json", 0, "", "", 0, 1,
                   struct host_args, json, NULL,
                   "list, check: print JSON"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 'h', "", "", 0, 0,
                        "this list"),
};
#define HOST_NROWS (sizeof(host_rows) / sizeof(host_rows[0]))

static void host_help(void)
{
    printf("usage: rcuprof host add NAME ssh://[user@]host[:port] [--remote-dir DIR]\n"
           "       rcuprof host list [--json]\n"
           "       rcuprof host check NAME [--json]\n"
           "       rcuprof host remove NAME\n"
           "Hosts to run on with --host NAME, reached with your own ssh (its config and\n"
           "agent; no secret is stored).  Registry: %s\n"
           "($RCUPROF_HOSTS overrides it); $RCUPROF_SSH_OPTS: extra ssh words.\n",
           rcuprof_hosts_path());
    rcuprof_opts_help(stdout, host_rows, HOST_NROWS, 0, NULL);
}

static void check_print(const json_t *rec, double secs)
{
    const json_t *t = json_object_get(rec, "topology"),
                 *pmu = json_object_get(rec, "pmu"),
                 *par = json_object_get(rec, "perf_event_paranoid");
    json_int_t s = json_integer_value(json_object_get(t, "sockets")),
               c = json_integer_value(json_object_get(t, "cores")),
               th = json_integer_value(json_object_get(t, "threads"));
    const json_t *numa = json_object_get(t, "numa_nodes");
    size_t i;

    printf("host        %s (%s)\n",
           json_string_value(json_object_get(rec, "name")),
           json_string_value(json_object_get(rec, "url")));
    printf("reachable   yes (connected and probed in %.2f s)\n", secs);
    printf("arch        %s (the drivers: %s)\n",
           json_string_value(json_object_get(rec, "arch")), BUILD_ARCH);
    printf("kernel      %s\n", json_string_value(json_object_get(rec, "kernel")));
    printf("os          %s\n", json_string_value(json_object_get(rec, "os")) ?: "");
    printf("cpus        %lld online (%s)\n",
           (long long)json_integer_value(json_object_get(rec, "cpus")),
           json_string_value(json_object_get(rec, "model")) ?: "");
    printf("topology    %lld socket%s, %lld core%s, %lld thread%s",
           (long long)s, s == 1 ? "" : "s", (long long)c, c == 1 ? "" : "s",
           (long long)th, th == 1 ? "" : "s");
    if (c > 0)
        printf(" (%lld per core)", (long long)(th / c));
    if (json_is_integer(numa))
        printf(", %lld NUMA node%s", (long long)json_integer_value(numa),
               json_integer_value(numa) == 1 ? "" : "s");
    printf("\npmu         ");
    if (json_array_size(json_object_get(pmu, "devices")) == 0)
        printf("no CPU PMU (/sys/bus/event_source/devices/cpu*): software counters only");
    for (i = 0; i < json_array_size(json_object_get(pmu, "devices")); i++)
        printf("%s%s", i ? ", " : "",
               json_string_value(json_array_get(json_object_get(pmu, "devices"), i)));
    if (json_is_integer(par))
        printf("; perf_event_paranoid %lld%s", (long long)json_integer_value(par),
               json_integer_value(par) > 1 ? " (kernel-side counts need <= 1, or root)" : "");
    printf("\n");
}

static int host_check(const char *name, int json)
{
    char err[1024];
    double t0 = rcuprof_time_mono_s();
    int code;
    struct rcuprof_executor *x = ssh_open(name, err, sizeof(err), &code);
    json_t *rec;

    if (x == NULL) {
        rcuprof_err("host check: %s", err);
        return code;
    }
    rec = x->host_record(x);
    if (json) {
        char *s = json_dumps(rec, JSON_INDENT(2) | JSON_SORT_KEYS);

        if (s != NULL)
            printf("%s\n", s);
        free(s);
    } else {
        check_print(rec, rcuprof_time_mono_s() - t0);
    }
    json_decref(rec);
    rcuprof_executor_close(x);
    return RCUPROF_OK;
}

int rcuprof_cmd_host(int argc, char **argv)
{
    struct host_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "host", .rows = host_rows,
                                   .n = HOST_NROWS, .target = &a };
    const struct rcuprof_opt *action;
    const char *sub = argc >= 2 ? argv[1] : "";
    int npos, first, rc;
    char err[1024];
    json_t *reg, *hosts;

    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        host_help();
        return RCUPROF_OK;
    }
    if (strcmp(sub, "add") == 0)
        npos = 2, co.cmd = "host add";
    else if (strcmp(sub, "list") == 0)
        npos = 0, co.cmd = "host list";
    else if (strcmp(sub, "check") == 0)
        npos = 1, co.cmd = "host check";
    else if (strcmp(sub, "remove") == 0)
        npos = 1, co.cmd = "host remove";
    else {
        rcuprof_err("host: give add, list, check or remove (rcuprof host --help)");
        return RCUPROF_ERR_USAGE;
    }
    for (first = 2; first < 2 + npos; first++) {
        if (first < argc && (strcmp(argv[first], "--help") == 0
                             || strcmp(argv[first], "-h") == 0)) {
            host_help();
            return RCUPROF_OK;
        }
        if (first >= argc || argv[first][0] == '-') {
            rcuprof_err("%s: give %s (rcuprof host --help)", co.cmd,
                        npos == 2 && first == 3
                        ? "the host's URL after its NAME: ssh://[user@]host[:port]"
                        : "the host's NAME");
            return RCUPROF_ERR_USAGE;
        }
    }
    co.start = 2 + npos;
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc != 0) {
        if (rc > 0)
            host_help();
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    if (first < argc) {
        rcuprof_cmd_unexpected(&co, argv[first]);
        return RCUPROF_ERR_USAGE;
    }
    if (a.remote_dir != NULL && strcmp(sub, "add") != 0) {
        rcuprof_err("%s: --remote-dir is an option of host add", co.cmd);
        return RCUPROF_ERR_USAGE;
    }
    if (a.json && (strcmp(sub, "add") == 0 || strcmp(sub, "remove") == 0)) {
        rcuprof_err("%s: --json is an option of host list and host check",
                    co.cmd);
        return RCUPROF_ERR_USAGE;
    }
    if (npos > 0 && !host_name_ok(argv[2])) {
        rcuprof_err("%s: NAME '%s': 1 to 63 letters, digits, '.', '_', '-', not starting with '-' and not 'local'",
                    co.cmd, argv[2]);
        return RCUPROF_ERR_USAGE;
    }
    if (strcmp(sub, "check") == 0)
        return host_check(argv[2], a.json);
    reg = hosts_load(err, sizeof(err));
    if (reg == NULL) {
        rcuprof_err("%s: %s", co.cmd, err);
        return RCUPROF_ERR_USAGE;
    }
    hosts = json_object_get(reg, "hosts");
    rc = RCUPROF_OK;
    if (strcmp(sub, "add") == 0) {
        char user[128], host[256];
        unsigned port;
        json_t *e;

        if (rcuprof_ssh_url_parse(argv[3], user, sizeof(user), host,
                                  sizeof(host), &port, err, sizeof(err)) != 0) {
            rcuprof_err("host add: URL %s", err);
            rc = RCUPROF_ERR_USAGE;
        } else if (a.remote_dir != NULL
                   && (a.remote_dir[0] == '\0'
                       || strpbrk(a.remote_dir, "\n'\"$`\\") != NULL)) {
            rcuprof_err("host add: --remote-dir '%s': a path without quotes, '$', '`', '\\' or newlines",
                        a.remote_dir);
            rc = RCUPROF_ERR_USAGE;
        } else if (json_object_get(hosts, argv[2]) != NULL) {
            rcuprof_err("host add: %s is already a host (%s): rcuprof host remove %s first",
                        argv[2], json_string_value(json_object_get(
                            json_object_get(hosts, argv[2]), "url")), argv[2]);
            rc = RCUPROF_ERR_USAGE;
        } else {
            e = json_pack("{s:s}", "url", argv[3]);
            if (a.remote_dir != NULL)
                json_object_set_new(e, "remote_dir", json_string(a.remote_dir));
            json_object_set_new(hosts, argv[2], e);
            if (hosts_save(reg, err, sizeof(err)) != 0) {
                rcuprof_err("host add: %s", err);
                rc = RCUPROF_ERR_SYSTEM;
            } else {
                printf("rcuprof: added host %s (%s) to %s; try it with 'rcuprof host check %s'\n",
                       argv[2], argv[3], rcuprof_hosts_path(), argv[2]);
            }
        }
    } else if (strcmp(sub, "remove") == 0) {
        if (json_object_get(hosts, argv[2]) == NULL) {
            rcuprof_err("host remove: %s is not a host (rcuprof host list)",
                        argv[2]);
            rc = RCUPROF_ERR_USAGE;
        } else {
            json_object_del(hosts, argv[2]);
            if (hosts_save(reg, err, sizeof(err)) != 0) {
                rcuprof_err("host remove: %s", err);
                rc = RCUPROF_ERR_SYSTEM;
            } else {
                printf("rcuprof: removed host %s from %s (its cached drivers stay on it)\n",
                       argv[2], rcuprof_hosts_path());
            }
        }
    } else if (a.json) {
        char *s = json_dumps(hosts, JSON_INDENT(2) | JSON_SORT_KEYS);

        if (s != NULL)
            printf("%s\n", s);
        free(s);
    } else if (json_object_size(hosts) == 0) {
        printf("no hosts in %s: rcuprof host add NAME ssh://[user@]host[:port]\n",
               rcuprof_hosts_path());
    } else {
        const char *k;
        json_t *v;
        void *tmp;
        size_t w = 4;

        json_object_foreach_safe(hosts, tmp, k, v)
            if (strlen(k) > w)
                w = strlen(k);
        printf("%-*s  %s  %s\n", (int)w, "NAME", "URL", "(remote dir)");
        json_object_foreach_safe(hosts, tmp, k, v) {
            const char *rd = json_string_value(json_object_get(v, "remote_dir"));

            printf("%-*s  %s  (%s)\n", (int)w, k,
                   json_string_value(json_object_get(v, "url")) ?: "?",
                   rd != NULL ? rd : "~/" DEFAULT_REMOTE_DIR);
        }
    }
    json_decref(reg);
    return rc;
}
