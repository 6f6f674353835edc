/*
 * A driver packed with its loader and libraries (pack.h says why).  The
 * libraries are the ones the build's own dynamic loader resolves (its
 * --list mode, what ldd runs), checked against the driver's DT_NEEDED read
 * with libelf.
 */
#define _GNU_SOURCE
#include "pack.h"
#include "cli.h"
#include "results.h"            /* rcuprof_sha256_hex */

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXFILES 64

struct pfile {
    char name[256];             /* path inside the pack */
    char src[PATH_MAX];         /* where it is read from */
    char *data;
    size_t len;
    mode_t mode;
    char sha[65];
};

struct pack {
    struct pfile f[MAXFILES];
    size_t n;
    char loader[256];           /* "lib/NAME" or "-" */
    char needed[MAXFILES][128]; /* the driver's DT_NEEDED */
    size_t nneeded;
};

static int read_all(const char *path, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    size_t got = 0;
    char *p;

    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    p = malloc((size_t)st.st_size + 1);
    if (p == NULL) {
        close(fd);
        return -1;
    }
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, p + got, (size_t)st.st_size - got);

        if (r <= 0) {
            free(p);
            close(fd);
            errno = r == 0 ? EIO : errno;
            return -1;
        }
        got += (size_t)r;
    }
    close(fd);
    *data = p;
    *len = got;
    return 0;
}

/* The driver: x86-64 ELF, its PT_INTERP (interp "" when static) and its
 * DT_NEEDED names. */
static int elf_inspect(const char *drv, struct pack *pk, char *interp,
                       size_t ilen, char *err, size_t errlen)
{
    int fd, rc = -1;
    Elf *e = NULL;
    GElf_Ehdr eh;
    size_t i, nph;
    Elf_Scn *scn = NULL;

    interp[0] = '\0';
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
        return -1;
    }
    fd = open(drv, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", drv, strerror(errno));
        return -1;
    }
    e = elf_begin(fd, ELF_C_READ, NULL);
    if (e == NULL || elf_kind(e) != ELF_K_ELF || gelf_getehdr(e, &eh) == NULL
        || gelf_getclass(e) != ELFCLASS64 || eh.e_machine != EM_X86_64
        || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
        snprintf(err, errlen,
                 "%s: not an x86-64 ELF executable: only those can be packed",
                 drv);
        goto out;
    }
    if (elf_getphdrnum(e, &nph) != 0)
        nph = 0;
    for (i = 0; i < nph; i++) {
        GElf_Phdr ph;
        char *raw;
        size_t rawlen;

        if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_INTERP)
            continue;
        raw = elf_rawfile(e, &rawlen);
        if (raw == NULL || ph.p_offset + ph.p_filesz > rawlen
            || ph.p_filesz == 0 || ph.p_filesz >= ilen) {
            snprintf(err, errlen, "%s: unreadable PT_INTERP", drv);
            goto out;
        }
        memcpy(interp, raw + ph.p_offset, ph.p_filesz);
        interp[ph.p_filesz] = '\0';
    }
    while ((scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *d;
        size_t k;

        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC)
            continue;
        d = elf_getdata(scn, NULL);
        for (k = 0; d != NULL && k < sh.sh_size / sh.sh_entsize; k++) {
            GElf_Dyn dyn;
            const char *name;

            if (gelf_getdyn(d, (int)k, &dyn) == NULL)
                break;
            if (dyn.d_tag != DT_NEEDED)
                continue;
            name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
            if (name == NULL || pk->nneeded >= MAXFILES)
                continue;
            snprintf(pk->needed[pk->nneeded++], sizeof(pk->needed[0]), "%s",
                     name);
        }
    }
    if (interp[0] == '\0' && pk->nneeded > 0) {
        snprintf(err, errlen, "%s: needs shared libraries but names no loader",
                 drv);
        goto out;
    }
    rc = 0;
 out:
    if (e != NULL)
        elf_end(e);
    close(fd);
    return rc;
}

static struct pfile *add_file(struct pack *pk, const char *name,
                              const char *src, mode_t mode, char *err,
                              size_t errlen)
{
    struct pfile *f;
    size_t i;

    for (i = 0; i < pk->n; i++)
        if (strcmp(pk->f[i].name, name) == 0)
            return &pk->f[i];
    if (pk->n >= MAXFILES) {
        snprintf(err, errlen, "more than %d files to carry", MAXFILES);
        return NULL;
    }
    f = &pk->f[pk->n++];
    memset(f, 0, sizeof(*f));
    snprintf(f->name, sizeof(f->name), "%s", name);
    snprintf(f->src, sizeof(f->src), "%s", src);
    f->mode = mode;
    return f;
}

/* "lib/" + the last component of path. */
static void lib_name(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');

    snprintf(out, n, "lib/%.200s", b != NULL ? b + 1 : path);
}

/*
 * The loader's own resolution: `INTERP --list DRV` prints
 * "\tNAME => PATH (0x...)" per library, "\tNAME => not found" for a
 * missing one, and lines without "=>" for the vDSO and the loader.
 */
static int resolve_libs(const char *drv, const char *interp, struct pack *pk,
                        char *err, size_t errlen)
{
    char *av[] = { (char *)interp, "--list", (char *)drv, NULL };
    struct rcuprof_driver_result r;
    char *line, *save = NULL, libc_dir[PATH_MAX] = "";
    size_t i, j;

    if (rcuprof_driver_spawn(interp, av, 60, &r) != 0) {
        snprintf(err, errlen, "%s: cannot run its loader %s", drv, interp);
        return -1;
    }
    if (!r.exited || r.status != 0) {
        char msg[256];

        rcuprof_driver_error_message(&r, msg, sizeof(msg));
        snprintf(err, errlen, "%s: its loader %s --list failed: %s", drv,
                 interp, msg);
        rcuprof_driver_result_free(&r);
        return -1;
    }
    for (line = strtok_r(r.out, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char name[256], path[PATH_MAX], pname[300];
        const char *arrow = strstr(line, " => ");
        char *paren;

        if (arrow == NULL)
            continue;
        while (*line == '\t' || *line == ' ')
            line++;
        snprintf(name, sizeof(name), "%.*s", (int)(arrow - line), line);
        snprintf(path, sizeof(path), "%s", arrow + 4);
        paren = strstr(path, " (0x");
        if (paren != NULL)
            *paren = '\0';
        if (strcmp(path, "not found") == 0 || path[0] != '/') {
            snprintf(err, errlen,
                     "%s: the loader finds no %s: install it, then pack again",
                     drv, name);
            rcuprof_driver_result_free(&r);
            return -1;
        }
        snprintf(pname, sizeof(pname), "lib/%s", name);
        if (add_file(pk, pname, path, 0644, err, errlen) == NULL) {
            rcuprof_driver_result_free(&r);
            return -1;
        }
        if (strncmp(name, "libc.so.", 8) == 0) {
            char *slash;

            snprintf(libc_dir, sizeof(libc_dir), "%s", path);
            slash = strrchr(libc_dir, '/');
            if (slash != NULL)
                *slash = '\0';
        }
    }
    rcuprof_driver_result_free(&r);
    /* Every DT_NEEDED of the driver must be carried. */
    for (i = 0; i < pk->nneeded; i++) {
        char want[300];
        int found = 0;

        snprintf(want, sizeof(want), "lib/%s", pk->needed[i]);
        for (j = 0; j < pk->n; j++)
            if (strcmp(pk->f[j].name, want) == 0)
                found = 1;
        if (!found) {
            snprintf(err, errlen,
                     "%s: its loader did not list %s, which it needs", drv,
                     pk->needed[i]);
            return -1;
        }
    }
    /* glibc dlopens libgcc_s at pthread_exit and cancellation. */
    if (libc_dir[0] != '\0') {
        char gcc[PATH_MAX + 32];

        snprintf(gcc, sizeof(gcc), "%s/libgcc_s.so.1", libc_dir);
        if (access(gcc, R_OK) == 0
            && add_file(pk, "lib/libgcc_s.so.1", gcc, 0644, err, errlen) == NULL)
            return -1;
    }
    return 0;
}

static int mkdirs(const char *path)
{
    char p[PATH_MAX];
    size_t i;

    if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (i = 1; p[i] != '\0'; i++) {
        if (p[i] != '/')
            continue;
        p[i] = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        p[i] = '/';
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int write_file(const char *path, const char *data, size_t len,
                      mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

    if (fd < 0)
        return -1;
    if (rcuprof_write_synced(fd, data, len) != 0) {
        close(fd);
        return -1;
    }
    if (fchmod(fd, mode) != 0) {
        close(fd);
        return -1;
    }
    return close(fd);
}

static void remove_tree(const char *dir, const struct pack *pk)
{
    char p[PATH_MAX + 300];
    size_t i;

    for (i = 0; i < pk->n; i++) {
        snprintf(p, sizeof(p), "%s/%s", dir, pk->f[i].name);
        unlink(p);
    }
    snprintf(p, sizeof(p), "%s/MANIFEST", dir);
    unlink(p);
    snprintf(p, sizeof(p), "%s/lib", dir);
    rmdir(p);
    rmdir(dir);
}

static int cmp_name(const void *a, const void *b)
{
    const struct pfile *x = a, *y = b;

    /* The driver first, then lib/ in name order. */
    if (strcmp(x->name, "driver") == 0)
        return -1;
    if (strcmp(y->name, "driver") == 0)
        return 1;
    return strcmp(x->name, y->name);
}

int rcuprof_pack_driver(const char *drv, const char *outdir, char *id,
                        size_t idlen, char *err, size_t errlen)
{
    struct pack *pk = calloc(1, sizeof(*pk));
    char interp[PATH_MAX], hex[65], final[PATH_MAX + 64], tmp[PATH_MAX + 64];
    char *manifest = NULL, *old = NULL;
    size_t mlen = 0, oldlen, i;
    FILE *m;
    int rc = -1;

    if (pk == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (idlen < RCUPROF_PACK_IDLEN + 1) {
        snprintf(err, errlen, "pack id buffer too small");
        goto out;
    }
    if (elf_inspect(drv, pk, interp, sizeof(interp), err, errlen) != 0)
        goto out;
    if (add_file(pk, "driver", drv, 0755, err, errlen) == NULL)
        goto out;
    if (interp[0] != '\0') {
        char ln[256];

        if (resolve_libs(drv, interp, pk, err, errlen) != 0)
            goto out;
        lib_name(interp, ln, sizeof(ln));
        if (add_file(pk, ln, interp, 0755, err, errlen) == NULL)
            goto out;
        snprintf(pk->loader, sizeof(pk->loader), "%s", ln);
    } else {
        snprintf(pk->loader, sizeof(pk->loader), "-");
    }
    qsort(pk->f, pk->n, sizeof(pk->f[0]), cmp_name);
    m = open_memstream(&manifest, &mlen);
    if (m == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    fprintf(m, "rcuprof-pack 1\nloader %s\n", pk->loader);
    for (i = 0; i < pk->n; i++) {
        struct pfile *f = &pk->f[i];

        if (read_all(f->src, &f->data, &f->len) != 0) {
            fclose(m);
            snprintf(err, errlen, "%s: cannot read %s: %s", drv, f->src,
                     strerror(errno));
            goto out;
        }
        rcuprof_sha256_hex(f->data, f->len, f->sha);
        fprintf(m, "file %s %s\n", f->sha, f->name);
    }
    fclose(m);
    rcuprof_sha256_hex(manifest, mlen, hex);
    hex[RCUPROF_PACK_IDLEN] = '\0';
    snprintf(id, idlen, "%s", hex);

    if (strlen(outdir) > 3900) {
        snprintf(err, errlen, "%.80s...: path too long", outdir);
        goto out;
    }
    if (mkdirs(outdir) != 0) {
        snprintf(err, errlen, "%s: cannot make the folder: %s", outdir,
                 strerror(errno));
        goto out;
    }
    snprintf(final, sizeof(final), "%s/%s", outdir, hex);
    snprintf(tmp, sizeof(tmp), "%.4000s/MANIFEST", final);
    if (read_all(tmp, &old, &oldlen) == 0) {
        if (oldlen == mlen && memcmp(old, manifest, mlen) == 0) {
            rc = 0;
            goto out;
        }
        snprintf(err, errlen,
                 "%s holds another pack under the same id: remove it", final);
        goto out;
    }
    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp%ld", outdir, hex, (long)getpid());
    remove_tree(tmp, pk);
    snprintf(final, sizeof(final), "%.4000s/lib", tmp);
    if (mkdirs(final) != 0)
        goto werr;
    for (i = 0; i < pk->n; i++) {
        char p[PATH_MAX + 300];

        snprintf(p, sizeof(p), "%s/%s", tmp, pk->f[i].name);
        if (write_file(p, pk->f[i].data, pk->f[i].len, pk->f[i].mode) != 0)
            goto werr;
    }
    snprintf(final, sizeof(final), "%.4000s/MANIFEST", tmp);
    if (write_file(final, manifest, mlen, 0644) != 0)
        goto werr;
    snprintf(final, sizeof(final), "%s/%s", outdir, hex);
    if (rename(tmp, final) != 0) {
        /* Another packer of the same driver won the race: keep theirs. */
        if (errno == EEXIST || errno == ENOTEMPTY) {
            remove_tree(tmp, pk);
            rc = 0;
            goto out;
        }
        goto werr;
    }
    rc = 0;
    goto out;
 werr:
    snprintf(err, errlen, "%s: cannot write the pack: %s", outdir,
             strerror(errno));
    remove_tree(tmp, pk);
 out:
    for (i = 0; i < pk->n; i++)
        free(pk->f[i].data);
    free(pk);
    free(manifest);
    free(old);
    return rc;
}

int rcuprof_pack_argv(const char *packdir, const char *rundir, char *buf,
                      size_t buflen, char **av, size_t cap, char *err,
                      size_t errlen)
{
    char path[PATH_MAX], *text = NULL, *nl;
    const char *loader;
    size_t len, used = 0;
    int n = 0;

    if (rundir == NULL)
        rundir = packdir;
    snprintf(path, sizeof(path), "%s/MANIFEST", packdir);
    if (read_all(path, &text, &len) != 0) {
        snprintf(err, errlen, "%s: no pack there (no MANIFEST)", packdir);
        return -1;
    }
    text[len] = '\0';
    loader = strstr(text, "\nloader ");
    if (strncmp(text, "rcuprof-pack 1\n", 15) != 0 || loader == NULL) {
        snprintf(err, errlen, "%s: not a pack of this rcuprof (MANIFEST)",
                 packdir);
        free(text);
        return -1;
    }
    loader += 8;
    nl = strchr(loader, '\n');
    if (nl != NULL)
        *nl = '\0';
    if (cap < 6)
        goto small;
#define PUT(...) do { \
        int w = snprintf(buf + used, buflen - used, __VA_ARGS__); \
        if (w < 0 || (size_t)w >= buflen - used) \
            goto small; \
        av[n++] = buf + used; \
        used += (size_t)w + 1; \
    } while (0)
    if (strcmp(loader, "-") != 0) {
        PUT("%s/%s", rundir, loader);
        PUT("--inhibit-cache");
        PUT("--library-path");
        PUT("%s/lib", rundir);
    }
    PUT("%s/driver", rundir);
#undef PUT
    av[n] = NULL;
    free(text);
    return n;
 small:
    snprintf(err, errlen, "%s: argv buffer too small", packdir);
    free(text);
    return -1;
}

/* ---------------------------------------------------------------------- */
/* rcuprof pack                                                            */

struct pack_args {
    const char *variant, *out;
    int argv;
};

static const struct rcuprof_opt pack_rows[] = {
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "variant", 0, "V", "", 0, 0,
                   struct pack_args, variant, NULL,
                   "pack this variant's driver (or give a FILE)"),
    RCUPROF_OPTION(RCUPROF_OPT_STRING, "out", 0, "DIR", "", 0, 0,
                   struct pack_args, out, NULL,
                   "the packs' folder: the pack goes into DIR/ID"),
    RCUPROF_OPTION(RCUPROF_OPT_FLAG, "argv", 0, "", "", 0, 1,
                   struct pack_args, argv, NULL,
                   "also print the argv prefix that runs it, one word a line"),
    RCUPROF_OPTION_BARE(RCUPROF_OPT_ACTION, "help", 0, "", "", 0, 0,
                        "this list"),
};
#define PACK_NROWS (sizeof(pack_rows) / sizeof(pack_rows[0]))

int rcuprof_cmd_pack(int argc, char **argv)
{
    struct pack_args a = { 0 };
    struct rcuprof_cmd_opts co = {
        .cmd = "pack", .rows = pack_rows, .n = PACK_NROWS, .target = &a,
        .unknown = "pack: unexpected '%s': see 'rcuprof pack --help'"
    };
    const struct rcuprof_opt *action;
    char drv[PATH_MAX], id[RCUPROF_PACK_IDLEN + 1], err[1024];
    const char *file = NULL;
    int rc, first;

    rc = rcuprof_cmd_parse(&co, argc, argv, &action, &first);
    if (rc > 0) {
        printf("usage: rcuprof pack --variant V | FILE --out DIR [--argv]\n"
               "Packs a driver with its loader and every library it loads "
               "into DIR/ID (ID: a digest of them all), to run on a Linux "
               "x86-64 machine without the build's packages; prints ID.\n");
        rcuprof_opts_help(stdout, pack_rows, PACK_NROWS, 0, NULL);
        return RCUPROF_OK;
    }
    if (rc < 0)
        return RCUPROF_ERR_USAGE;
    if (first + 1 < argc) {
        rcuprof_cmd_unexpected(&co, argv[first + 1]);
        return RCUPROF_ERR_USAGE;
    }
    if (first < argc)
        file = argv[first];
    if ((file == NULL) == (a.variant == NULL || a.variant[0] == '\0')) {
        rcuprof_err("pack: give either --variant V or a FILE");
        return RCUPROF_ERR_USAGE;
    }
    if (a.out == NULL || a.out[0] == '\0') {
        rcuprof_err("pack: --out DIR is required (the packs' folder)");
        return RCUPROF_ERR_USAGE;
    }
    if (file == NULL) {
        char vname[128];
        json_t *known = rcuprof_variants_load(err, sizeof(err));

        if (known == NULL) {
            rcuprof_err("pack: %s", err);
            return RCUPROF_ERR_USAGE;
        }
        snprintf(vname, sizeof(vname), "%s", a.variant);
        rcuprof_variant_canon(vname);
        rc = rcuprof_variant_usable("pack", vname, known, drv, sizeof(drv));
        json_decref(known);
        if (rc != 0)
            return RCUPROF_ERR_USAGE;
        file = drv;
    }
    if (rcuprof_pack_driver(file, a.out, id, sizeof(id), err,
                            sizeof(err)) != 0) {
        rcuprof_err("pack: %s", err);
        return RCUPROF_ERR_USAGE;
    }
    printf("%s\n", id);
    if (a.argv) {
        char dir[PATH_MAX], buf[4 * PATH_MAX], *av[8];
        int n, i;

        snprintf(dir, sizeof(dir), "%s/%s", a.out, id);
        n = rcuprof_pack_argv(dir, NULL, buf, sizeof(buf), av, 8, err,
                              sizeof(err));
        if (n < 0) {
            rcuprof_err("pack: %s", err);
            return RCUPROF_ERR_SYSTEM;
        }
        for (i = 0; i < n; i++)
            printf("%s\n", av[i]);
    }
    return RCUPROF_OK;
}
