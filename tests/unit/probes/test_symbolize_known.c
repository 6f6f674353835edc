/*
 * Symbolization of known addresses of this very program (built -O2 -g):
 * a global and a static function at an offset resolve to that function and
 * this file; the cache resolves a repeated address once; a copy of the
 * binary whose build ID was changed is reported as "binary changed since
 * the run" and its addresses are not resolved through it.
 */
#define _GNU_SOURCE
#include "sampler_test_util.h"
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>

__attribute__((noinline)) int rcuprof_test_known(int x)
{
    int i, r = x;

    for (i = 0; i < x; i++)
        r = r * 31 + (r >> 3);
    return r;
}

static __attribute__((noinline)) int known_static(int x)
{
    int i, r = x;

    for (i = 0; i < x; i++)
        r = r * 17 + (r >> 5) + i;
    return r;
}

static int (*volatile g_fp)(int) = known_static;

/* The sampler's record of this process, as a run would write it. */
static json_t *samples_member(void)
{
    json_t *j = json_object();

    json_object_set_new(j, "mappings", rcuprof_sampler_maps_json());
    return j;
}

static void check_fn(struct rcuprof_symbolize *s, uint64_t addr,
                     const char *fn)
{
    const struct rcuprof_symbol *r = rcuprof_symbolize_addr(s, addr);

    assert_non_null(r);
    printf("0x%llx -> %s status=%s symbol=%s+%llu %s:%d frames=%u\n",
           (unsigned long long)addr, fn,
           rcuprof_symbolize_status_name(r->status),
           r->symbol != NULL ? r->symbol : "?",
           (unsigned long long)r->symoff, r->file != NULL ? r->file : "?",
           r->line, r->nframes);
    assert_int_equal(r->status, RCUPROF_SYM_OK);
    assert_non_null(r->symbol);
    assert_string_equal(r->symbol, fn);
    assert_true(r->nframes >= 1);
    assert_string_equal(r->frames[r->nframes - 1].function, fn);
    assert_non_null(r->file);
    assert_non_null(strstr(r->file, "test_symbolize_known.c"));
    assert_true(r->line > 0);
}

static void test_known_addresses(void **state)
{
    struct rcuprof_symbolize *s;
    json_t *j = samples_member();
    char err[512];
    uint64_t a = (uint64_t)(uintptr_t)&rcuprof_test_known + 4;
    uint64_t b = (uint64_t)(uintptr_t)g_fp + 6;
    const struct rcuprof_symbol *r1, *r2;
    size_t before;

    dump_json("mappings", json_object_get(j, "mappings"));
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     0);
    check_fn(s, a, "rcuprof_test_known");
    check_fn(s, b, "known_static");
    /* Cached: the same address is the same entry, resolved once. */
    before = rcuprof_symbolize_resolved(s);
    r1 = rcuprof_symbolize_addr(s, a);
    r2 = rcuprof_symbolize_addr(s, a);
    assert_ptr_equal(r1, r2);
    assert_int_equal(rcuprof_symbolize_resolved(s), before);
    /* A libc function resolves by symbol (no debug info needed). */
    {
        const struct rcuprof_symbol *r = rcuprof_symbolize_addr(
            s, (uint64_t)(uintptr_t)&strtoull + 1);

        assert_non_null(r);
        printf("strtoull+1 -> %s (%s)\n", r->symbol ? r->symbol : "?",
               r->module ? r->module : "?");
        assert_int_equal(r->status, RCUPROF_SYM_OK);
        assert_non_null(r->symbol);
        assert_non_null(strstr(r->symbol, "strto"));
    }
    /* Kernel and unmapped addresses. */
    assert_int_equal(rcuprof_symbolize_addr(s, 0xffffffff81000000ULL)
                     ->status, RCUPROF_SYM_KERNEL);
    assert_int_equal(rcuprof_symbolize_addr(s, 16)->status,
                     RCUPROF_SYM_NOMODULE);
    rcuprof_symbolize_free(s);
    json_decref(j);
    assert_int_equal(rcuprof_test_known(3) != 0 || g_fp(2) != 0, 1);
}

static int copy_file(const char *from, const char *to)
{
    char buf[65536];
    ssize_t r;
    int in = open(from, O_RDONLY), out, rc = 0;

    if (in < 0)
        return -1;
    out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (out < 0) {
        close(in);
        return -1;
    }
    while ((r = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)r) != r)
            rc = -1;
    close(in);
    close(out);
    return rc;
}

/* Flip the last byte of the build ID note's descriptor in PATH. */
static int change_build_id(const char *path)
{
    int fd = open(path, O_RDWR);
    Elf *e;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    off_t where = -1;

    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    e = elf_begin(fd, ELF_C_READ, NULL);
    while (e != NULL && (scn = elf_nextscn(e, scn)) != NULL) {
        size_t shstr;
        const char *name;

        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE
            || elf_getshdrstrndx(e, &shstr) != 0)
            continue;
        name = elf_strptr(e, shstr, sh.sh_name);
        if (name != NULL && strcmp(name, ".note.gnu.build-id") == 0)
            where = (off_t)(sh.sh_offset + sh.sh_size - 1);
    }
    if (e != NULL)
        elf_end(e);
    if (where >= 0) {
        unsigned char c;

        if (pread(fd, &c, 1, where) != 1)
            where = -1;
        c ^= 0x5A;
        if (where >= 0 && pwrite(fd, &c, 1, where) != 1)
            where = -1;
    }
    close(fd);
    return where >= 0 ? 0 : -1;
}

/* The mappings of this executable, pointed at COPY. */
static json_t *mappings_at(const char *copy)
{
    json_t *j = samples_member(), *m, *keep = json_array();
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    size_t i;

    assert_true(n > 0);
    self[n] = '\0';
    json_array_foreach(json_object_get(j, "mappings"), i, m)
        if (strcmp(json_string_value(json_object_get(m, "path")), self)
            == 0) {
            json_object_set_new(m, "path", json_string(copy));
            json_array_append(keep, m);
        }
    json_object_set_new(j, "mappings", keep);
    return j;
}

static void test_build_id_mismatch(void **state)
{
    char dir[] = "/tmp/rcuprof-symXXXXXX", copy[256], err[512];
    struct rcuprof_symbolize *s;
    const struct rcuprof_symbol *r;
    json_t *j, *mods;
    uint64_t a = (uint64_t)(uintptr_t)&rcuprof_test_known + 4;

    assert_non_null(mkdtemp(dir));
    snprintf(copy, sizeof(copy), "%s/copy", dir);
    assert_int_equal(copy_file("/proc/self/exe", copy), 0);

    /* An identical copy: same build ID, resolves. */
    j = mappings_at(copy);
    assert_true(json_array_size(json_object_get(j, "mappings")) >= 1);
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     0);
    r = rcuprof_symbolize_addr(s, a);
    assert_int_equal(r->status, RCUPROF_SYM_OK);
    assert_string_equal(r->symbol, "rcuprof_test_known");
    rcuprof_symbolize_free(s);

    /* Rebuilt since the run: the build ID differs. */
    assert_int_equal(change_build_id(copy), 0);
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     0);
    r = rcuprof_symbolize_addr(s, a);
    assert_int_equal(r->status, RCUPROF_SYM_CHANGED);
    assert_null(r->symbol);
    mods = rcuprof_symbolize_modules_json(s);
    dump_json("modules", mods);
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(mods, 0), "status")), "binary changed since the run");
    assert_non_null(strstr(json_string_value(json_object_get(
        json_array_get(mods, 0), "message")), "binary changed since the run"));
    json_decref(mods);
    rcuprof_symbolize_free(s);

    /* A file that is gone. */
    unlink(copy);
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     0);
    assert_int_equal(rcuprof_symbolize_addr(s, a)->status,
                     RCUPROF_SYM_NOFILE);
    rcuprof_symbolize_free(s);
    json_decref(j);
    rmdir(dir);
}

static void test_malformed(void **state)
{
    struct rcuprof_symbolize *s = NULL;
    char err[512];
    json_t *j = json_pack("{s:[{s:i}]}", "mappings", "start", 1);

    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     RCUPROF_SYMBOLIZE_EINVAL);
    printf("malformed: %s\n", err);
    assert_null(s);
    json_decref(j);
    j = json_object();
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     RCUPROF_SYMBOLIZE_EINVAL);
    assert_null(rcuprof_attribute(j, NULL, NULL, err, sizeof(err)));
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_addresses),
        cmocka_unit_test(test_build_id_mismatch),
        cmocka_unit_test(test_malformed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
