/*
 * One measurement = one driver process.  A crash or a hang in a variant is
 * then a recorded failure, not a lost sweep: stdout and stderr are collected
 * whole, and a run past its timeout is killed (its process group, so the
 * driver's threads go with it).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct buf {
    char *p;
    size_t len, cap;
};

static int buf_read(struct buf *b, int fd)
{
    ssize_t n;

    if (b->cap - b->len < 4096) {
        size_t cap = b->cap ? b->cap * 2 : 65536;
        char *p = realloc(b->p, cap + 1);

        if (p == NULL)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    n = read(fd, b->p + b->len, b->cap - b->len);
    if (n > 0)
        b->len += (size_t)n;
    return (int)n;
}

const char *rcuprof_bindir(void)
{
    static char dir[PATH_MAX];
    const char *env = getenv("RCUPROF_BINDIR");
    ssize_t n;

    if (env != NULL && env[0] != '\0')
        return env;
    if (dir[0] != '\0')
        return dir;
    n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    if (n <= 0)
        return ".";
    dir[n] = '\0';
    return dirname(dir);
}

int rcuprof_driver_spawn(const char *path, char *const argv[],
                         double timeout_s, struct rcuprof_driver_result *r)
{
    int out[2], err[2], status, open_fds = 2;
    struct buf bo = { 0 }, be = { 0 };
    struct pollfd pf[2];
    double t0 = rcuprof_time_mono_s();
    pid_t pid;

    memset(r, 0, sizeof(*r));
    if (pipe2(out, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        return -1;
    }
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        execv(path, argv);
        dprintf(2, "{\"error\":\"system\",\"message\":\"cannot execute %s: %s\"}\n",
                path, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(out[1]);
    close(err[1]);
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
        for (i = 0; i < 2; i++) {
            if (pf[i].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (buf_read(i == 0 ? &bo : &be, pf[i].fd) <= 0) {
                    close(pf[i].fd);
                    pf[i].fd = -1;
                    open_fds--;
                }
            }
        }
    }
    if (pf[0].fd >= 0)
        close(pf[0].fd);
    if (pf[1].fd >= 0)
        close(pf[1].fd);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    r->seconds = rcuprof_time_mono_s() - t0;
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->status = WEXITSTATUS(status);
    } else {
        r->exited = 0;
        r->status = WIFSIGNALED(status) ? WTERMSIG(status) : -1;
    }
    r->out = bo.p != NULL ? bo.p : strdup("");
    r->out[bo.len] = '\0';
    r->err = be.p != NULL ? be.p : strdup("");
    r->err[be.len] = '\0';
    return 0;
}

void rcuprof_driver_result_free(struct rcuprof_driver_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void rcuprof_driver_error_message(const struct rcuprof_driver_result *r,
                                  char *buf, size_t n)
{
    const char *line = r->err, *next;

    buf[0] = '\0';
    for (; line != NULL && *line != '\0'; line = next) {
        size_t len;
        json_t *j;

        next = strchr(line, '\n');
        len = next != NULL ? (size_t)(next - line) : strlen(line);
        if (next != NULL)
            next++;
        j = json_loadb(line, len, 0, NULL);
        if (j != NULL && json_is_string(json_object_get(j, "message"))) {
            snprintf(buf, n, "%s", json_string_value(json_object_get(j, "message")));
        } else if (len > 0 && buf[0] == '\0') {
            snprintf(buf, n, "%.*s", (int)len, line);
        }
        json_decref(j);
    }
}

int rcuprof_driver_path(const char *variant, char *path, size_t n)
{
    if (snprintf(path, n, "%s/rcuprof-stress-%s", rcuprof_bindir(), variant)
        >= (int)n)
        return -1;
    return access(path, X_OK) == 0 ? 0 : -1;
}

int rcuprof_driver_argv(const char *path, const json_t *opts, char **av,
                        size_t cap)
{
    size_t k, n = 1;

    if (cap < 2)
        return -1;
    av[0] = (char *)path;
    for (k = 0; k < rcuprof_driver_nopts; k++) {
        const char *name = rcuprof_driver_opts[k].name;
        const json_t *v = json_object_get(opts, name);
        int w;

        if (!json_is_string(v) && !json_is_true(v))
            continue;
        if (n + 1 >= cap)
            goto fail;
        w = json_is_string(v)
            ? asprintf(&av[n], "--%s=%s", name, json_string_value(v))
            : asprintf(&av[n], "--%s", name);
        if (w < 0)
            goto fail;
        n++;
    }
    av[n] = NULL;
    return (int)n;
 fail:
    av[n] = NULL;
    rcuprof_driver_argv_free(av);
    return -1;
}

void rcuprof_driver_argv_free(char **av)
{
    size_t i;

    for (i = 1; av[i] != NULL; i++) {
        free(av[i]);
        av[i] = NULL;
    }
}
