/*
 * `rcuprof variants` and `rcuprof variant add`.
 *
 * The build writes the resolved list to <build>/variants.json; user variants
 * live in the user variants file (docs/interfaces.md, "Variant
 * definitions"), which the next build picks up.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RCUPROF_USER_VARIANTS_DEFAULT
# define RCUPROF_USER_VARIANTS_DEFAULT "variants.local.json"
#endif

#ifndef RCUPROF_DEFAULT_LINE
# define RCUPROF_DEFAULT_LINE "3.5"
#endif

/* "MAJOR.MINOR", digits only: an OpenSSL line. */
static int line_ok(const char *l)
{
    const char *p = l;

    if (*p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p++ != '.' || *p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '\0';
}

/*
 * A variant name, or BASE+OPT[+OPT...] (patches/variants.json "options"),
 * either followed by @LINE (docs/interfaces.md, section 6, "Lines").
 */
int rcuprof_variant_name_ok(const char *name)
{
    const char *p = name, *at;

    if (name == NULL)
        return 0;
    at = strchr(name, '@');
    if (at != NULL && (!line_ok(at + 1) || strlen(at + 1) > 8))
        return 0;
    for (;;) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return 0;
        for (; *p != '\0' && *p != '+' && p != at; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')
                  || *p == '-' || *p == '_' || *p == '.'))
                return 0;
        if (*p == '\0' || p == at)
            break;
        p++;                    /* '+': an option name follows */
    }
    return p - name <= 64;
}

/*
 * The canonical name: NAME@<default line> is NAME (the default line's
 * variants keep their bare names, so results written before lines existed
 * keep meaning the same build).  In place; returns name.
 */
char *rcuprof_variant_canon(char *name)
{
    char *at = strchr(name, '@');

    if (at != NULL && strcmp(at + 1, RCUPROF_DEFAULT_LINE) == 0)
        *at = '\0';
    return name;
}

/* The line of a variant name: after '@', else the default line. */
const char *rcuprof_variant_line(const char *name)
{
    const char *at = strchr(name, '@');

    return at != NULL ? at + 1 : RCUPROF_DEFAULT_LINE;
}

/* NAME@LINE's NAME is a variant of another line (of the default one, or
 * NAME@OTHER). */
static int defined_elsewhere(const json_t *known, const char *variant)
{
    size_t len = (size_t)(strchr(variant, '@') - variant);
    const char *name;
    const json_t *v;

    json_object_foreach((json_t *)known, name, v) {
        if (strncmp(name, variant, len) == 0
            && (name[len] == '\0' || name[len] == '@'))
            return 1;
    }
    return 0;
}

/* Is l an item of the ", "-separated list? */
static int list_has(const char *list, const char *l)
{
    size_t n = strlen(l);
    const char *p;

    for (p = list; (p = strstr(p, l)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

/* The build folder (where variants/ and bin/ are): the drivers' parent. */
static void build_dir(char *buf, size_t n)
{
    char p[PATH_MAX];

    snprintf(p, sizeof(p), "%s/..", rcuprof_bindir());
    if (realpath(p, buf) == NULL)
        snprintf(buf, n, "%s", p);
}

/* Did VARIANT's last build fail (a user variant: build-variant.sh's
 * .failed)?  Its reason into why. */
static int variant_failed(const char *variant, char *why, size_t n)
{
    char p[PATH_MAX + 64], bd[PATH_MAX], line[1024], *tab;
    FILE *f;

    build_dir(bd, sizeof(bd));
    snprintf(p, sizeof(p), "%s/variants/%s/.failed", bd, variant);
    if ((f = fopen(p, "r")) == NULL)
        return 0;
    if (fgets(line, sizeof(line), f) == NULL)
        line[0] = '\0';
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    tab = strchr(line, '\t');
    snprintf(why, n, "%s", tab != NULL ? tab + 1 : line);
    return 1;
}

/*
 * One line saying why VARIANT cannot be measured here and what to build,
 * or 0 when it is defined and its driver exists (path in drv).  known:
 * rcuprof_variants_load()'s object; lines: the resolved file's "lines".
 */
int rcuprof_variant_usable(const char *cmd, const char *variant,
                           const json_t *known, char *drv, size_t n)
{
    const char *line = rcuprof_variant_line(variant), *name;
    struct rcuprof_sb built = { 0 }, on_line = { 0 };
    const json_t *v;
    int line_known = 0, rc = -1;

    if (strchr(variant, '@') != NULL && !line_ok(line)) {
        struct rcuprof_sb lines = { 0 };

        json_object_foreach((json_t *)known, name, v) {
            const char *l = rcuprof_variant_line(name);

            if (lines.p == NULL || !list_has(lines.p, l))
                rcuprof_sb_printf(&lines, "%s%s", lines.len > 0 ? ", " : "",
                                  l);
        }
        rcuprof_err("%s: variant '%s': after @ give an OpenSSL line, MAJOR.MINOR (this build has %s): 'rcuprof variants' lists the variants",
                    cmd, variant, lines.p != NULL ? lines.p : "none");
        free(lines.p);
        return -1;
    }
    json_object_foreach((json_t *)known, name, v) {
        const char *l = rcuprof_variant_line(name);

        if (strcmp(l, line) == 0) {
            line_known = 1;
            rcuprof_sb_printf(&on_line, "%s%s", on_line.len > 0 ? ", " : "",
                              name);
        }
        if (json_is_true(json_object_get(v, "built")))
            rcuprof_sb_printf(&built, "%s%s", built.len > 0 ? "," : "", name);
    }
    if (json_object_get(known, variant) == NULL) {
        if (!line_known)
            rcuprof_err("%s: variant '%s' is of OpenSSL %s, which this build has no variant of: configure with -DRCUPROF_VARIANTS=%s%s%s (a line without a Debian source also needs -DOPENSSL_SOURCE_DIR=<a %s tree>)",
                        cmd, variant, line, built.p != NULL ? built.p : "",
                        built.p != NULL ? "," : "", variant, line);
        else if (strchr(variant, '@') != NULL && defined_elsewhere(known, variant))
            rcuprof_err("%s: variant '%s' has no patch series for OpenSSL %s yet (OpenSSL %s has: %s): measure one of those, or add the series (patches/README.md, \"Adding a line\")",
                        cmd, variant, line, line, on_line.p);
        else
            rcuprof_err("%s: unknown variant '%s' (OpenSSL %s has: %s): 'rcuprof variants' lists them, 'rcuprof variant add' makes one",
                        cmd, variant, line, on_line.p);
    } else if (rcuprof_driver_path(variant, drv, n) != 0) {
        const json_t *e = json_object_get(known, variant);
        char why[1024], bd[PATH_MAX];

        build_dir(bd, sizeof(bd));
        if (variant_failed(variant, why, sizeof(why)))
            rcuprof_err("%s: variant '%s' failed to build (%s): fix it and run cmake --build %s, or drop it with 'rcuprof variant remove %.*s'",
                        cmd, variant, why, bd,
                        (int)strcspn(variant, "@"), variant);
        else if (json_is_true(json_object_get(e, "pending")))
            rcuprof_err("%s: variant '%s' is not built yet (added after the last build): build it with cmake --build %s",
                        cmd, variant, bd);
        else if (json_is_true(json_object_get(e, "user")))
            rcuprof_err("%s: variant '%s' is not built (no %s): build it with cmake --build %s",
                        cmd, variant, drv, bd);
        else if (json_is_true(json_object_get(e, "built")))
            rcuprof_err("%s: variant '%s' is not built (no %s): build it with 'make demo' or cmake --build build",
                        cmd, variant, drv);
        else
            rcuprof_err("%s: variant '%s' is not built (no %s): build it with cmake -S . -B build -DRCUPROF_VARIANTS=%s%s%s && cmake --build build",
                        cmd, variant, drv, built.p != NULL ? built.p : "",
                        built.p != NULL ? "," : "", variant);
    } else {
        rc = 0;
    }
    free(built.p);
    free(on_line.p);
    return rc;
}

const char *rcuprof_user_variants_path(void)
{
    const char *env = getenv("RCUPROF_USER_VARIANTS");

    return env != NULL && env[0] != '\0' ? env : RCUPROF_USER_VARIANTS_DEFAULT;
}

static const char *resolved_path(char *buf, size_t n)
{
    const char *env = getenv("RCUPROF_VARIANTS_FILE");

    if (env != NULL && env[0] != '\0')
        return env;
    snprintf(buf, n, "%s/../variants.json", rcuprof_bindir());
    return buf;
}

/*
 * A pending user variant's patches counted as the build will count them:
 * its base's resolved list (when the base is known), then its own.
 */
static json_t *pending_patches(const json_t *all, const json_t *v,
                               const json_t *own)
{
    const json_t *base = json_object_get(all, json_string_value(
                                             json_object_get(v, "base")));
    json_t *pl = json_array(), *p;
    size_t i;

    json_array_foreach(json_object_get(base, "patches"), i, p)
        json_array_append(pl, p);
    json_array_foreach(own, i, p)
        json_array_append(pl, p);
    return pl;
}

/*
 * { name: {description, patches[], built, user, pending} } from the build's
 * resolved list, plus user variants added since the last build (pending).
 */
json_t *rcuprof_variants_load(char *err, size_t errlen)
{
    char buf[PATH_MAX];
    json_error_t je;
    json_t *res, *all = json_object(), *list, *user, *uv, *v;
    const char *name, *path = resolved_path(buf, sizeof(buf));
    size_t i;

    res = json_load_file(path, 0, &je);
    if (res == NULL) {
        snprintf(err, errlen,
                 "cannot read the variant list %s (%s): build rcuprof first (make demo)",
                 path, je.text);
        json_decref(all);
        return NULL;
    }
    list = json_object_get(res, "variants");
    json_array_foreach(list, i, v) {
        const char *n = json_string_value(json_object_get(v, "name"));

        if (n != NULL) {
            json_object_set(all, n, v);
            json_object_set_new(json_object_get(all, n), "pending", json_false());
        }
    }
    json_decref(res);

    user = json_load_file(rcuprof_user_variants_path(), 0, &je);
    if (user == NULL && access(rcuprof_user_variants_path(), F_OK) == 0) {
        snprintf(err, errlen, "%s is corrupt (%s): fix it or delete it",
                 rcuprof_user_variants_path(), je.text);
        json_decref(all);
        return NULL;
    }
    uv = json_object_get(user, "variants");
    json_object_foreach(uv, name, v) {
        /* Listed once: the build names a user variant of another line
         * NAME@LINE; one added since the last build is pending under the
         * same name (its line recorded by variant add). */
        const char *ul = json_string_value(json_object_get(v, "line"));
        char full[160];

        if (ul != NULL && line_ok(ul) && strcmp(ul, RCUPROF_DEFAULT_LINE) != 0)
            snprintf(full, sizeof(full), "%s@%s", name, ul);
        else
            snprintf(full, sizeof(full), "%s", name);
        if (json_object_get(all, full) == NULL && json_object_get(all, name) == NULL) {
            const char *n2 = full;
            json_t *e = json_pack("{s:s, s:b, s:b, s:b}", "name", n2,
                                  "built", 0, "user", 1, "pending", 1);
            json_t *d = json_object_get(v, "description");
            json_t *p = json_object_get(v, "patches");

            json_object_set_new(e, "description",
                                d != NULL ? json_incref(d) : json_string(""));
            json_object_set_new(e, "patches", pending_patches(all, v, p));
            /* its line: recorded by variant add (a source tree's
             * VERSION.dat), else its base's */
            if (ul != NULL && line_ok(ul))
                json_object_set_new(e, "line", json_string(ul));
            else if (json_is_string(json_object_get(v, "base")))
                json_object_set_new(e, "line", json_string(
                    rcuprof_variant_line(json_string_value(
                        json_object_get(v, "base")))));
            else
                json_object_set_new(e, "line", json_string("?"));
            json_object_set_new(all, n2, e);
        }
    }
    json_decref(user);
    return all;
}

struct variants_args {
    int json;
};

static const struct rcuprof_opt variants_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "json", 0, "", "", 0, 1,
                   struct variants_args, json, NULL,
                   "every variant as JSON (patches, description, built, user)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};
#define VARIANTS_NROWS (sizeof(variants_rows) / sizeof(variants_rows[0]))

int rcuprof_cmd_variants(int argc, char **argv)
{
    struct variants_args a = { 0 };
    struct rcuprof_cmd_opts co = {
        .cmd = "variants", .rows = variants_rows, .n = VARIANTS_NROWS,
        .target = &a,
        .unknown = "variants: unknown option '%s': the only option is --json"
    };
    char err[512], drv[PATH_MAX];
    const char *name, *desc;
    json_t *all, *v;
    int as_json, rc;

    rc = rcuprof_cmd_parse_options_only(&co, argc, argv,
                                        "usage: rcuprof variants [--json]");
    if (rc >= 0)
        return rc;
    as_json = a.json;
    all = rcuprof_variants_load(err, sizeof(err));
    if (all == NULL) {
        rcuprof_err("%s", err);
        return RCUPROF_ERR_USAGE;
    }
    if (as_json) {
        json_dumpf(all, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
        putchar('\n');
        json_decref(all);
        return RCUPROF_OK;
    }
    printf("%-20s %-5s %-8s %-8s %-8s %s\n", "VARIANT", "LINE", "OPENSSL",
           "DRIVER", "PATCHES", "DESCRIPTION");
    /* One row per variant (the object's keys are unique).  LINE: the
     * OpenSSL line it is built on; OPENSSL: the version the build
     * resolved (a pending user variant has none yet).  PATCHES: every
     * patch the build applies (layers expanded, a base's included), the
     * same count before and after the build. */
    json_object_foreach(all, name, v) {
        const char *state, *line, *ver;

        snprintf(drv, sizeof(drv), "%s/rcuprof-stress-%s", rcuprof_bindir(), name);
        char why[1024];

        if (json_is_true(json_object_get(v, "pending")))
            state = "pending";
        else if (access(drv, X_OK) == 0)
            state = "built";
        else if (variant_failed(name, why, sizeof(why)))
            state = "failed";
        else
            state = "absent";
        line = json_string_value(json_object_get(v, "line"));
        if (line == NULL)
            line = rcuprof_variant_line(name);
        ver = json_string_value(json_object_get(v, "openssl_version"));
        desc = json_string_value(json_object_get(v, "description"));
        printf("%-20s %-5s %-8s %-8s %-8zu %s%s\n", name, line,
               ver != NULL ? ver : "-", state,
               json_array_size(json_object_get(v, "patches")),
               desc != NULL && desc[0] != '\0' ? desc : "(no description)",
               json_is_true(json_object_get(v, "user")) ? " [user]" : "");
    }
    json_decref(all);
    return RCUPROF_OK;
}

/*
 * The description: the one given, else what the variant is made of
 * ("stock + fix.patch", "stock@4.0 on /src/openssl at pr-123 + 2 patches",
 * "source /src/openssl at master").
 */
static void variant_description(const char *given, const char *base,
                                const char *source, const char *ref,
                                const json_t *pl, char *buf, size_t n)
{
    const char *p, *slash;

    if (given != NULL && given[0] != '\0') {
        snprintf(buf, n, "%s", given);
        return;
    }
    if (base != NULL && source != NULL)
        snprintf(buf, n, "%s on %s", base, source);
    else if (base != NULL)
        snprintf(buf, n, "%s", base);
    else
        snprintf(buf, n, "source %s", source);
    if (source != NULL && ref != NULL)
        snprintf(buf + strlen(buf), n - strlen(buf), " at %s", ref);
    if (json_array_size(pl) == 1) {
        p = json_string_value(json_array_get(pl, 0));
        slash = strrchr(p, '/');
        snprintf(buf + strlen(buf), n - strlen(buf), " + %s",
                 slash != NULL ? slash + 1 : p);
    } else if (json_array_size(pl) > 1) {
        snprintf(buf + strlen(buf), n - strlen(buf), " + %zu patches",
                 json_array_size(pl));
    }
}

/*
 * Run argv (no shell; stderr discarded) with its stdout, trimmed, into out
 * (up to n bytes).  The exit status, or -1 when it could not run.
 */
static int run_capture(char *const argv[], char *out, size_t n)
{
    int fd[2], st;
    size_t len = 0;
    ssize_t r;
    pid_t pid;

    if (pipe(fd) != 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);

        dup2(fd[1], 1);
        if (nul >= 0)
            dup2(nul, 2);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    while (len + 1 < n && (r = read(fd[0], out + len, n - 1 - len)) > 0)
        len += (size_t)r;
    {
        char sink[4096];     /* drain what does not fit */

        while (read(fd[0], sink, sizeof(sink)) > 0)
            ;
    }
    close(fd[0]);
    if (n > 0) {
        out[len] = '\0';
        while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
            out[--len] = '\0';
    }
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* MAJOR.MINOR.PATCH from VERSION.dat's text; 0, or -1 when absent. */
static int version_dat(const char *text, int *maj, int *min, int *pat)
{
    const char *k[3] = { "MAJOR=", "MINOR=", "PATCH=" };
    int *o[3] = { maj, min, pat }, i;

    for (i = 0; i < 3; i++) {
        const char *p = text;

        for (;;) {
            p = strstr(p, k[i]);
            if (p == NULL)
                return -1;
            if (p == text || p[-1] == '\n')
                break;
            p++;
        }
        *o[i] = atoi(p + 6);
    }
    return 0;
}

/*
 * The OpenSSL tree at SOURCE (at REF when given: a git repository) is one
 * rcuprof can build: its line (MAJOR.MINOR) into line, the resolved commit
 * into commit ("" without REF).  0, or RCUPROF_ERR_USAGE with err set.
 */
static int source_check(const char *source, const char *ref, char *line,
                        size_t linen, char *commit, size_t cn, char *err,
                        size_t errlen)
{
    char text[4096], spec[1024], where[PATH_MAX + 300];
    int maj, min, pat;
    struct stat st;

    commit[0] = '\0';
    if (stat(source, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "source '%s' is not a folder: give an OpenSSL source tree (3.3 or later)%s",
                 source, ref != NULL ? ", a git checkout for --ref" : "");
        return RCUPROF_ERR_USAGE;
    }
    if (ref != NULL) {
        char *gd[] = { "git", "-C", (char *)source, "rev-parse", "--git-dir", NULL };
        char *rp[] = { "git", "-C", (char *)source, "rev-parse", "--verify",
                       "--quiet", spec, NULL };
        char *show[] = { "git", "-C", (char *)source, "show", spec, NULL };
        char *has[] = { "git", "-C", (char *)source, "cat-file", "-e", spec, NULL };
        size_t i;
        int rc;

        if (ref[0] == '\0' || ref[0] == '-' || strlen(ref) > 200
            || strpbrk(ref, " \t\n:") != NULL) {
            snprintf(err, errlen, "--ref '%s' is not a git ref: give a branch, tag or commit of %s",
                     ref, source);
            return RCUPROF_ERR_USAGE;
        }
        rc = run_capture(gd, text, sizeof(text));
        if (rc == -1 || rc == 127) {
            snprintf(err, errlen, "--ref needs git, which cannot run here: install git (apt-get install git)");
            return RCUPROF_ERR_USAGE;
        }
        if (rc != 0) {
            snprintf(err, errlen, "source '%s' is not a git repository: --ref needs one (or drop --ref to build the folder as it is)",
                     source);
            return RCUPROF_ERR_USAGE;
        }
        snprintf(spec, sizeof(spec), "%s^{commit}", ref);
        if (run_capture(rp, commit, cn) != 0 || commit[0] == '\0') {
            commit[0] = '\0';
            snprintf(err, errlen, "--ref '%s' is not a commit of %s: give a branch, tag or commit that 'git -C %s log %s' shows",
                     ref, source, source, ref);
            return RCUPROF_ERR_USAGE;
        }
        for (i = 0; commit[i] != '\0'; i++)
            if (!((commit[i] >= '0' && commit[i] <= '9')
                  || (commit[i] >= 'a' && commit[i] <= 'f')))
                break;
        if (commit[i] != '\0' || i < 40) {
            snprintf(err, errlen, "--ref '%s' of %s did not resolve to a commit: give a branch, tag or commit",
                     ref, source);
            commit[0] = '\0';
            return RCUPROF_ERR_USAGE;
        }
        snprintf(where, sizeof(where), "%s at %s", source, ref);
        snprintf(spec, sizeof(spec), "%s:VERSION.dat", commit);
        if (run_capture(show, text, sizeof(text)) != 0) {
            snprintf(err, errlen, "%s has no VERSION.dat: it is not an OpenSSL source tree; give an OpenSSL repository (3.3 or later)",
                     where);
            commit[0] = '\0';
            return RCUPROF_ERR_USAGE;
        }
        snprintf(spec, sizeof(spec), "%s:crypto/property/property.c", commit);
        if (run_capture(has, line, linen) != 0) {
            snprintf(err, errlen, "%s lacks crypto/property/property.c: it is not a complete OpenSSL source tree",
                     where);
            commit[0] = '\0';
            return RCUPROF_ERR_USAGE;
        }
    } else {
        char vd[PATH_MAX + 32];
        FILE *f;
        size_t len;

        snprintf(where, sizeof(where), "source '%s'", source);
        snprintf(vd, sizeof(vd), "%s/VERSION.dat", source);
        if ((f = fopen(vd, "r")) == NULL) {
            snprintf(err, errlen, "source '%s' has no VERSION.dat: it is not an OpenSSL source tree; give the top of an OpenSSL 3.3 or later tree",
                     source);
            return RCUPROF_ERR_USAGE;
        }
        len = fread(text, 1, sizeof(text) - 1, f);
        text[len] = '\0';
        fclose(f);
        snprintf(vd, sizeof(vd), "%s/crypto/property/property.c", source);
        if (access(vd, R_OK) != 0) {
            snprintf(err, errlen, "source '%s' lacks crypto/property/property.c: give a complete OpenSSL source tree",
                     source);
            return RCUPROF_ERR_USAGE;
        }
    }
    if (version_dat(text, &maj, &min, &pat) != 0) {
        snprintf(err, errlen, "%s: VERSION.dat has no MAJOR=, MINOR=, PATCH=: it is not an OpenSSL 3.x source tree",
                 where);
        commit[0] = '\0';
        return RCUPROF_ERR_USAGE;
    }
    if (maj < 3 || (maj == 3 && min < 3)) {
        snprintf(err, errlen, "%s is OpenSSL %d.%d.%d, older than 3.3 (no internal RCU): give a 3.3 or later tree",
                 where, maj, min, pat);
        commit[0] = '\0';
        return RCUPROF_ERR_USAGE;
    }
    snprintf(line, linen, "%d.%d", maj, min);
    return 0;
}

/* The user file at path, or a new empty one; NULL with err set. */
static json_t *user_doc(const char *path, char *err, size_t errlen)
{
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);

    if (doc == NULL) {
        if (access(path, F_OK) == 0) {
            snprintf(err, errlen, "%s is corrupt (%s): fix it or delete it",
                     path, je.text);
            return NULL;
        }
        doc = json_pack("{s:i, s:{}}", "schema", 1, "variants");
    }
    if (!json_is_object(json_object_get(doc, "variants"))) {
        snprintf(err, errlen, "%s has no \"variants\" object: fix it or delete it",
                 path);
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/* Write doc to path atomically (the whole file or nothing). */
static int user_doc_write(const char *path, json_t *doc, char *err,
                          size_t errlen)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER), *t2;
    size_t len;
    int rc;

    if (text == NULL) {
        snprintf(err, errlen, "out of memory");
        return RCUPROF_ERR_SYSTEM;
    }
    len = strlen(text);
    t2 = realloc(text, len + 2);
    if (t2 != NULL) {
        text = t2;
        text[len++] = '\n';
        text[len] = '\0';
    }
    rc = rcuprof_write_atomic(path, text, len);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "cannot write %s: check the folder's permissions",
                 path);
        return RCUPROF_ERR_SYSTEM;
    }
    return RCUPROF_OK;
}

int rcuprof_variant_add_ref_to(const char *path, json_t *known,
                               const char *name, const char *base,
                               const char *source, const char *ref,
                               const char **patches, size_t npatches,
                               const char *description, char *err,
                               size_t errlen)
{
    json_t *doc, *vars, *v, *pl;
    char real[PATH_MAX], desc[PATH_MAX + 512], line[16] = "", commit[128] = "";
    struct stat st;
    size_t i;
    int rc;

    if (!rcuprof_variant_name_ok(name) || strchr(name, '+') != NULL
        || strchr(name, '@') != NULL || strstr(name, "_at_") != NULL) {
        snprintf(err, errlen,
                 "variant name '%s' is not allowed: use lower-case letters, digits, '.', '-', '_' (at most 64; '+' joins a variant and its options; '@LINE' comes from --base or the source's VERSION.dat; no '_at_')",
                 name);
        return RCUPROF_ERR_USAGE;
    }
    if (json_object_get(known, name) != NULL) {
        snprintf(err, errlen, "variant '%s' already exists: pick another name",
                 name);
        return RCUPROF_ERR_USAGE;
    }
    if (base == NULL && source == NULL) {
        snprintf(err, errlen, "variant add needs --base VARIANT or --source DIR");
        return RCUPROF_ERR_USAGE;
    }
    if (ref != NULL && source == NULL) {
        snprintf(err, errlen, "--ref REF needs --source DIR (the git repository REF is in)");
        return RCUPROF_ERR_USAGE;
    }
    if (base != NULL && json_object_get(known, base) == NULL) {
        snprintf(err, errlen,
                 "base variant '%s' does not exist: run 'rcuprof variants' to list them",
                 base);
        return RCUPROF_ERR_USAGE;
    }
    if (source != NULL) {
        rc = source_check(source, ref, line, sizeof(line), commit,
                          sizeof(commit), err, errlen);
        if (rc != 0)
            return rc;
    } else {
        snprintf(line, sizeof(line), "%s", rcuprof_variant_line(base));
    }
    pl = json_array();
    for (i = 0; i < npatches; i++) {
        if (realpath(patches[i], real) == NULL || stat(real, &st) != 0
            || !S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "patch '%s' is not a readable file: check the path",
                     patches[i]);
            json_decref(pl);
            return RCUPROF_ERR_USAGE;
        }
        json_array_append_new(pl, json_string(real));
    }

    if ((doc = user_doc(path, err, errlen)) == NULL) {
        json_decref(pl);
        return RCUPROF_ERR_USAGE;
    }
    vars = json_object_get(doc, "variants");
    if (json_object_get(vars, name) != NULL) {
        snprintf(err, errlen, "variant '%s' already exists in %s: pick another name, or 'rcuprof variant remove %s' first",
                 name, path, name);
        json_decref(doc);
        json_decref(pl);
        return RCUPROF_ERR_USAGE;
    }
    if (source != NULL && realpath(source, real) == NULL)
        snprintf(real, sizeof(real), "%s", source);
    variant_description(description, base, source != NULL ? real : NULL,
                        ref, pl, desc, sizeof(desc));
    v = json_pack("{s:s, s:o}", "description", desc, "patches", pl);
    if (base != NULL)
        json_object_set_new(v, "base", json_string(base));
    if (source != NULL) {
        json_object_set_new(v, "source", json_string(real));
        if (commit[0] != '\0') {
            json_object_set_new(v, "ref", json_string(ref));
            json_object_set_new(v, "commit", json_string(commit));
        }
    }
    json_object_set_new(v, "line", json_string(line));
    json_object_set_new(vars, name, v);
    rc = user_doc_write(path, doc, err, errlen);
    json_decref(doc);
    return rc;
}

int rcuprof_variant_add_to(const char *path, json_t *known, const char *name,
                           const char *base, const char *source,
                           const char **patches, size_t npatches,
                           const char *description, char *err, size_t errlen)
{
    return rcuprof_variant_add_ref_to(path, known, name, base, source, NULL,
                                      patches, npatches, description, err,
                                      errlen);
}

/* Drop user variant NAME (or NAME@LINE) from the user file at path. */
int rcuprof_variant_remove_from(const char *path, const json_t *known,
                                const char *name, char *err, size_t errlen)
{
    char bare[128];
    json_t *doc, *vars;
    int rc;

    snprintf(bare, sizeof(bare), "%.*s", (int)strcspn(name, "@"), name);
    if ((doc = user_doc(path, err, errlen)) == NULL)
        return RCUPROF_ERR_USAGE;
    vars = json_object_get(doc, "variants");
    if (json_object_get(vars, bare) == NULL) {
        const json_t *k = json_object_get(known, name);

        if (k != NULL && !json_is_true(json_object_get(k, "user")))
            snprintf(err, errlen, "'%s' is not a user variant (patches/variants.json defines it): only variants made with 'rcuprof variant add' can be removed",
                     name);
        else
            snprintf(err, errlen, "no user variant '%s' in %s: 'rcuprof variants' lists them ([user])",
                     name, path);
        json_decref(doc);
        return RCUPROF_ERR_USAGE;
    }
    json_object_del(vars, bare);
    rc = user_doc_write(path, doc, err, errlen);
    json_decref(doc);
    return rc;
}

/* variant add's options. */
struct variant_args {
    const char *base, *source, *ref, *description;
    const char *patches[32];
    size_t npatches;
};

/* --patch: repeatable, up to 32. */
static int opt_patch(void *target, const struct rcuprof_opt *row,
                     const char *arg, char *err, size_t n)
{
    struct variant_args *a = target;

    if (a->npatches == sizeof(a->patches) / sizeof(a->patches[0])) {
        snprintf(err, n, "at most 32 --patch options");
        return -1;
    }
    a->patches[a->npatches++] = arg;
    return 0;
}

static const struct rcuprof_opt variant_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "base", 0, "V", "", 0, 0,
                   struct variant_args, base, NULL,
                   "start from variant V's definition (patches, Configure options)"),
    RCUPROF_OPTION(RCUPROF_OPT_CALLBACK, "patch", 0, "FILE", "", 0, 0,
                   struct variant_args, patches, opt_patch,
                   "append a patch (absolute path recorded; repeatable, up to 32)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "source", 0, "DIR", "", 0, 0,
                   struct variant_args, source, NULL,
                   "build from another OpenSSL tree (3.3 or later; its line from VERSION.dat)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "ref", 0, "REF", "", 0, 0,
                   struct variant_args, ref, NULL,
                   "with --source: the git commit, branch or tag to build (exported, the repository untouched)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "description", 0, "TEXT", "", 0, 0,
                   struct variant_args, description, NULL,
                   "one line shown by rcuprof variants (default: what it is made of, e.g. stock + fix.patch)"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0, NULL),
};
#define VARIANT_NROWS (sizeof(variant_rows) / sizeof(variant_rows[0]))

static void variant_help(void)
{
    printf("usage: rcuprof variant add NAME (--base VARIANT | --source DIR [--ref REF]) [--patch FILE]... [--description TEXT]\n"
           "       rcuprof variant remove NAME\n");
    rcuprof_opts_help(stdout, variant_rows, VARIANT_NROWS, 0, NULL);
}

static int variant_remove(int argc, char **argv)
{
    char err[1024];
    json_t *known;
    int rc;

    if (argc != 3 || argv[2][0] == '-') {
        rcuprof_err("variant remove: give one NAME: rcuprof variant remove NAME");
        return RCUPROF_ERR_USAGE;
    }
    known = rcuprof_variants_load(err, sizeof(err));
    if (known == NULL)
        known = json_object();          /* the user file alone decides */
    rc = rcuprof_variant_remove_from(rcuprof_user_variants_path(), known,
                                     argv[2], err, sizeof(err));
    json_decref(known);
    if (rc != RCUPROF_OK) {
        rcuprof_err("variant remove: %s", err);
        return rc;
    }
    printf("rcuprof: removed variant '%s' from %s; the next cmake --build no longer builds it\n",
           argv[2], rcuprof_user_variants_path());
    return RCUPROF_OK;
}

int rcuprof_cmd_variant(int argc, char **argv)
{
    struct variant_args a = { 0 };
    struct rcuprof_cmd_opts co = { .cmd = "variant add", .rows = variant_rows,
                                   .n = VARIANT_NROWS, .target = &a,
                                   .start = 3 };
    const struct rcuprof_opt *action;
    char err[1024], line[16] = "";
    json_t *known, *e;
    int rc, first;

    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
        variant_help();
        return RCUPROF_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "remove") == 0)
        return variant_remove(argc, argv);
    if (argc < 2 || strcmp(argv[1], "add") != 0) {
        rcuprof_err("variant: use 'rcuprof variant add NAME --base V [--patch FILE]...' or '--source DIR [--ref REF]', or 'rcuprof variant remove NAME'");
        return RCUPROF_ERR_USAGE;
    }
    if (argc >= 3 && strcmp(argv[2], "--help") == 0) {
        variant_help();
        return RCUPROF_OK;
    }
    if (argc < 3 || argv[2][0] == '-') {
        rcuprof_err("variant add: give the new variant's NAME first");
        return RCUPROF_ERR_USAGE;
    }
    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc != 0) {
        if (rc > 0)
            variant_help();
        return rc > 0 ? RCUPROF_OK : RCUPROF_ERR_USAGE;
    }
    if (first < argc) {
        rcuprof_err("variant add: unexpected argument '%s'", argv[first]);
        return RCUPROF_ERR_USAGE;
    }
    known = rcuprof_variants_load(err, sizeof(err));
    if (known == NULL) {
        rcuprof_err("%s", err);
        return RCUPROF_ERR_USAGE;
    }
    rc = rcuprof_variant_add_ref_to(rcuprof_user_variants_path(), known,
                                    argv[2], a.base, a.source, a.ref,
                                    a.patches, a.npatches, a.description,
                                    err, sizeof(err));
    json_decref(known);
    if (rc != RCUPROF_OK) {
        rcuprof_err("variant add: %s", err);
        return rc;
    }
    /* A user variant belongs to its source's line (VERSION.dat), else its
     * base's: NAME@LINE off the default line. */
    {
        json_t *doc = json_load_file(rcuprof_user_variants_path(), 0, NULL);

        e = json_object_get(json_object_get(json_object_get(doc, "variants"),
                                            argv[2]), "line");
        if (json_is_string(e))
            snprintf(line, sizeof(line), "%s", json_string_value(e));
        json_decref(doc);
    }
    printf("rcuprof: added variant '%s' to %s; build it with cmake --build build (or make demo), then 'rcuprof run --variant %s%s%s'\n",
           argv[2], rcuprof_user_variants_path(), argv[2],
           line[0] != '\0' && strcmp(line, RCUPROF_DEFAULT_LINE) != 0 ? "@" : "",
           line[0] != '\0' && strcmp(line, RCUPROF_DEFAULT_LINE) != 0 ? line : "");
    return RCUPROF_OK;
}
