/*
 * rcuprof symbolizer: the run's executable mappings reported to elfutils
 * libdwfl, each distinct address resolved once into symbol, file:line and
 * inline chain; build IDs checked; x86-64 skid rule.  See
 * rcuprof_symbolize.h and probes/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "rcuprof_symbolize.h"

#define MAX_SCOPES 64
#define KERNEL_START 0xffff800000000000ULL

struct sym_module {
    char *path;
    char *build_id_run;
    char build_id_file[2 * 64 + 1];
    int status;
    char message[320];
    Dwfl_Module *mod;
    uint64_t bias;
};

struct sym_range {
    uint64_t start, end;
    size_t module;
};

struct sym_entry {
    struct rcuprof_symbol sym;
    struct rcuprof_symbolize_frame *frames;
};

struct rcuprof_symbolize {
    Dwfl *dwfl;
    Dwfl_Callbacks cb;
    char *debuginfo_path;
    struct sym_module *mods;
    size_t nmods;
    struct sym_range *ranges;
    size_t nranges;
    /* cache: open addressing on the address */
    uint64_t *keys;
    struct sym_entry **vals;
    size_t cap, n;
};

const char *rcuprof_symbolize_status_name(int status)
{
    switch (status) {
    case RCUPROF_SYM_OK:
        return "ok";
    case RCUPROF_SYM_NOMODULE:
        return "no mapping";
    case RCUPROF_SYM_CHANGED:
        return "binary changed since the run";
    case RCUPROF_SYM_NOFILE:
        return "file missing or not ELF";
    case RCUPROF_SYM_KERNEL:
        return "kernel";
    case RCUPROF_SYM_NOSYMBOL:
        return "no symbol";
    }
    return "unknown";
}

static void hex_of(const unsigned char *b, size_t len, char *hex, size_t n)
{
    size_t i;

    hex[0] = '\0';
    for (i = 0; i < len && 2 * i + 2 < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
}

/*
 * The load bias of PATH when the mapping M was recorded without one:
 * the PT_LOAD holding M's file offset maps p_offset at p_vaddr + bias.
 */
static int compute_bias(int fd, const struct rcuprof_symbolize_mapping *m,
                        uint64_t *bias)
{
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr eh;
    GElf_Phdr ph;
    size_t i, nph;
    int rc = -1;

    if (e == NULL)
        return -1;
    if (gelf_getehdr(e, &eh) != NULL && eh.e_type == ET_EXEC) {
        *bias = 0;
        rc = 0;
    } else if (elf_getphdrnum(e, &nph) == 0) {
        for (i = 0; i < nph && rc != 0; i++) {
            uint64_t pg = 4096, lo;

            if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
                continue;
            lo = ph.p_offset & ~(pg - 1);
            if (m->offset >= lo && m->offset < ph.p_offset + ph.p_filesz) {
                *bias = m->start - m->offset - (ph.p_vaddr - ph.p_offset);
                rc = 0;
            }
        }
    }
    elf_end(e);
    return rc;
}

static int report_module(struct rcuprof_symbolize *s, struct sym_module *sm,
                         const struct rcuprof_symbolize_mapping *m)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int fd, len;

    fd = open(sm->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        sm->status = RCUPROF_SYM_NOFILE;
        snprintf(sm->message, sizeof(sm->message), "%s: %s", sm->path,
                 strerror(errno));
        return 0;
    }
    if (m->has_bias) {
        sm->bias = m->bias;
    } else if (compute_bias(fd, m, &sm->bias) != 0) {
        close(fd);
        sm->status = RCUPROF_SYM_NOFILE;
        snprintf(sm->message, sizeof(sm->message), "%s: not an ELF file "
                 "with a load segment at offset 0x%" PRIx64, sm->path,
                 m->offset);
        return 0;
    }
    /* fd is consumed by libdwfl on success. */
    sm->mod = dwfl_report_elf(s->dwfl, sm->path, sm->path, fd, sm->bias,
                              true);
    if (sm->mod == NULL) {
        close(fd);
        sm->status = RCUPROF_SYM_NOFILE;
        snprintf(sm->message, sizeof(sm->message), "%s: %s", sm->path,
                 dwfl_errmsg(-1));
        return 0;
    }
    len = dwfl_module_build_id(sm->mod, &bits, &vaddr);
    if (len > 0)
        hex_of(bits, (size_t)len, sm->build_id_file,
               sizeof(sm->build_id_file));
    if (sm->build_id_run != NULL
        && strcmp(sm->build_id_run, sm->build_id_file) != 0) {
        sm->status = RCUPROF_SYM_CHANGED;
        snprintf(sm->message, sizeof(sm->message),
                 "%s: binary changed since the run (build ID %s at run "
                 "time, %s now): rebuild and run again", sm->path,
                 sm->build_id_run, sm->build_id_file[0] != '\0'
                 ? sm->build_id_file : "none");
    }
    return 0;
}

int rcuprof_symbolize_new(struct rcuprof_symbolize **out,
                          const struct rcuprof_symbolize_mapping *maps,
                          size_t nmaps, char *errbuf, size_t n)
{
    struct rcuprof_symbolize *s;
    size_t i, j;

    *out = NULL;
    elf_version(EV_CURRENT);
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        goto oom;
    s->cb.find_elf = dwfl_build_id_find_elf;
    s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
    s->cb.section_address = dwfl_offline_section_address;
    s->cb.debuginfo_path = &s->debuginfo_path;
    s->dwfl = dwfl_begin(&s->cb);
    if (s->dwfl == NULL) {
        snprintf(errbuf, n, "symbolizer: libdwfl: %s", dwfl_errmsg(-1));
        free(s);
        return RCUPROF_SYMBOLIZE_EDWFL;
    }
    s->mods = calloc(nmaps ? nmaps : 1, sizeof(*s->mods));
    s->ranges = calloc(nmaps ? nmaps : 1, sizeof(*s->ranges));
    if (s->mods == NULL || s->ranges == NULL)
        goto oom;
    dwfl_report_begin(s->dwfl);
    for (i = 0; i < nmaps; i++) {
        const struct rcuprof_symbolize_mapping *m = &maps[i];

        if (m->path == NULL || m->end <= m->start)
            continue;
        for (j = 0; j < s->nmods; j++)
            if (strcmp(s->mods[j].path, m->path) == 0)
                break;
        if (j == s->nmods) {
            struct sym_module *sm = &s->mods[s->nmods++];

            sm->path = strdup(m->path);
            sm->build_id_run = m->build_id != NULL ? strdup(m->build_id)
                                                   : NULL;
            if (sm->path == NULL
                || (m->build_id != NULL && sm->build_id_run == NULL))
                goto oom;
            if (m->path[0] == '/') {
                report_module(s, sm, m);
            } else {
                /* [vdso], anonymous JIT code: known, not readable here. */
                sm->status = RCUPROF_SYM_NOFILE;
            }
        }
        s->ranges[s->nranges].start = m->start;
        s->ranges[s->nranges].end = m->end;
        s->ranges[s->nranges].module = j;
        s->nranges++;
    }
    dwfl_report_end(s->dwfl, NULL, NULL);
    *out = s;
    return 0;
 oom:
    rcuprof_symbolize_free(s);
    snprintf(errbuf, n, "symbolizer: out of memory");
    return RCUPROF_SYMBOLIZE_ENOMEM;
}

static int parse_hex(const json_t *j, uint64_t *v)
{
    const char *str = json_string_value(j);
    char *end;

    if (str == NULL) {
        if (json_is_integer(j)) {
            *v = (uint64_t)json_integer_value(j);
            return 0;
        }
        return -1;
    }
    errno = 0;
    *v = strtoull(str, &end, 16);
    return errno != 0 || *end != '\0' ? -1 : 0;
}

int rcuprof_symbolize_from_json(struct rcuprof_symbolize **out,
                                const json_t *samples, char *errbuf,
                                size_t n)
{
    const json_t *maps = json_object_get(samples, "mappings");
    struct rcuprof_symbolize_mapping *m;
    size_t i, k = 0;
    int rc;

    *out = NULL;
    if (json_object_get(samples, "samples") != NULL
        && json_is_object(json_object_get(samples, "samples")))
        maps = json_object_get(json_object_get(samples, "samples"),
                               "mappings");
    if (!json_is_array(maps)) {
        snprintf(errbuf, n, "samples: no \"mappings\" array: was the run "
                 "made with --sample?");
        return RCUPROF_SYMBOLIZE_EINVAL;
    }
    m = calloc(json_array_size(maps) + 1, sizeof(*m));
    if (m == NULL) {
        snprintf(errbuf, n, "symbolizer: out of memory");
        return RCUPROF_SYMBOLIZE_ENOMEM;
    }
    for (i = 0; i < json_array_size(maps); i++) {
        const json_t *e = json_array_get(maps, i);
        const json_t *b = json_object_get(e, "bias");

        if (parse_hex(json_object_get(e, "start"), &m[k].start) != 0
            || parse_hex(json_object_get(e, "end"), &m[k].end) != 0
            || parse_hex(json_object_get(e, "offset"), &m[k].offset) != 0
            || (m[k].path = json_string_value(json_object_get(e, "path")))
               == NULL) {
            snprintf(errbuf, n, "samples: mapping %zu is malformed "
                     "(start, end, offset as hex strings, path)", i);
            free(m);
            return RCUPROF_SYMBOLIZE_EINVAL;
        }
        m[k].has_bias = b != NULL && !json_is_null(b)
            && parse_hex(b, &m[k].bias) == 0;
        m[k].build_id = json_string_value(json_object_get(e, "build_id"));
        k++;
    }
    rc = rcuprof_symbolize_new(out, m, k, errbuf, n);
    free(m);
    return rc;
}

static void free_entry(struct sym_entry *e)
{
    unsigned i;

    if (e == NULL)
        return;
    for (i = 0; i < e->sym.nframes; i++) {
        free((char *)e->frames[i].function);
        free((char *)e->frames[i].file);
    }
    free(e->frames);
    free((char *)e->sym.symbol);
    free((char *)e->sym.file);
    free(e);
}

void rcuprof_symbolize_free(struct rcuprof_symbolize *s)
{
    size_t i;

    if (s == NULL)
        return;
    for (i = 0; i < s->cap; i++)
        if (s->vals != NULL)
            free_entry(s->vals[i]);
    free(s->keys);
    free(s->vals);
    for (i = 0; i < s->nmods; i++) {
        free(s->mods[i].path);
        free(s->mods[i].build_id_run);
    }
    free(s->mods);
    free(s->ranges);
    if (s->dwfl != NULL)
        dwfl_end(s->dwfl);
    free(s);
}

size_t rcuprof_symbolize_resolved(const struct rcuprof_symbolize *s)
{
    return s->n;
}

json_t *rcuprof_symbolize_modules_json(const struct rcuprof_symbolize *s)
{
    json_t *a = json_array();
    size_t i;

    for (i = 0; i < s->nmods; i++) {
        const struct sym_module *m = &s->mods[i];

        json_array_append_new(a, json_pack(
            "{s:s, s:s, s:o, s:o, s:o}", "path", m->path,
            "status", rcuprof_symbolize_status_name(m->status),
            "build_id_run", m->build_id_run != NULL
                ? json_string(m->build_id_run) : json_null(),
            "build_id_file", m->build_id_file[0] != '\0'
                ? json_string(m->build_id_file) : json_null(),
            "message", m->message[0] != '\0' ? json_string(m->message)
                                             : json_null()));
    }
    return a;
}

/* ---- one address ---- */

static const char *die_name(Dwarf_Die *d)
{
    Dwarf_Attribute a;
    const char *name = NULL;

    if (dwarf_attr_integrate(d, DW_AT_name, &a) != NULL)
        name = dwarf_formstring(&a);
    if (name == NULL && dwarf_attr_integrate(d, DW_AT_linkage_name, &a)
        != NULL)
        name = dwarf_formstring(&a);
    return name;
}

static int has_pc_attrs(Dwarf_Die *d)
{
    return dwarf_hasattr(d, DW_AT_low_pc) || dwarf_hasattr(d, DW_AT_ranges)
        || dwarf_hasattr(d, DW_AT_entry_pc);
}

/*
 * The chain of subprogram / inlined_subroutine DIEs containing PC, from
 * the outermost down, into CHAIN[DEPTH..]; returns the new depth.
 */
static int scope_walk(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain,
                      int depth)
{
    Dwarf_Die child;
    int tag, d;

    if (dwarf_child(parent, &child) != 0)
        return depth;
    do {
        tag = dwarf_tag(&child);
        switch (tag) {
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
            if (dwarf_haspc(&child, pc) == 1) {
                if (depth < MAX_SCOPES)
                    chain[depth++] = child;
                return scope_walk(&child, pc, chain, depth);
            }
            break;
        case DW_TAG_lexical_block:
            if (dwarf_haspc(&child, pc) == 1)
                return scope_walk(&child, pc, chain, depth);
            if (!has_pc_attrs(&child)) {
                d = scope_walk(&child, pc, chain, depth);
                if (d > depth)
                    return d;
            }
            break;
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
            d = scope_walk(&child, pc, chain, depth);
            if (d > depth)
                return d;
            break;
        default:
            break;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return depth;
}

static char *dup_or_null(const char *p)
{
    return p != NULL ? strdup(p) : NULL;
}

static void resolve(struct rcuprof_symbolize *s, struct sym_entry *e)
{
    struct rcuprof_symbol *sym = &e->sym;
    struct sym_module *sm = NULL;
    Dwarf_Die chain[MAX_SCOPES], *cu;
    Dwarf_Addr bias = 0;
    Dwfl_Line *ln;
    GElf_Off off = 0;
    GElf_Sym es;
    const char *name, *file = NULL;
    int depth = 0, line = 0, i;
    size_t k;

    if (sym->addr >= KERNEL_START) {
        sym->status = RCUPROF_SYM_KERNEL;
        return;
    }
    for (k = 0; k < s->nranges; k++)
        if (sym->addr >= s->ranges[k].start && sym->addr < s->ranges[k].end) {
            sm = &s->mods[s->ranges[k].module];
            break;
        }
    if (sm == NULL) {
        sym->status = RCUPROF_SYM_NOMODULE;
        return;
    }
    sym->module = sm->path;
    if (sm->status != RCUPROF_SYM_OK || sm->mod == NULL) {
        sym->status = sm->status != RCUPROF_SYM_OK ? sm->status
                                                   : RCUPROF_SYM_NOFILE;
        return;
    }
    name = dwfl_module_addrinfo(sm->mod, sym->addr, &off, &es, NULL, NULL,
                                NULL);
    if (name != NULL) {
        sym->symbol = strdup(name);
        sym->symoff = off;
    }
    ln = dwfl_module_getsrc(sm->mod, sym->addr);
    if (ln != NULL)
        file = dwfl_lineinfo(ln, NULL, &line, NULL, NULL, NULL);
    sym->file = dup_or_null(file);
    sym->line = line;
    cu = dwfl_module_addrdie(sm->mod, sym->addr, &bias);
    if (cu != NULL)
        depth = scope_walk(cu, sym->addr - bias, chain, 0);
    if (depth == 0) {
        if (name == NULL) {
            sym->status = RCUPROF_SYM_NOSYMBOL;
            return;
        }
        e->frames = calloc(1, sizeof(*e->frames));
        if (e->frames == NULL)
            return;
        e->frames[0].function = strdup(name);
        e->frames[0].file = dup_or_null(file);
        e->frames[0].line = line;
        sym->nframes = 1;
        sym->frames = e->frames;
        return;
    }
    e->frames = calloc((size_t)depth, sizeof(*e->frames));
    if (e->frames == NULL)
        return;
    {
        Dwarf_Files *files = NULL;
        size_t nfiles = 0;
        const char *cur_file = file;
        int cur_line = line;

        if (cu != NULL)
            dwarf_getsrcfiles(cu, &files, &nfiles);
        /* chain[] is outermost first; frames[] innermost first. */
        for (i = depth - 1; i >= 0; i--) {
            struct rcuprof_symbolize_frame *f = &e->frames[depth - 1 - i];
            Dwarf_Attribute a;
            Dwarf_Word cf = 0, cl = 0;
            const char *fn = die_name(&chain[i]);

            f->function = strdup(fn != NULL ? fn : (name != NULL ? name
                                                            : "??"));
            f->file = dup_or_null(cur_file);
            f->line = cur_line;
            f->inlined = dwarf_tag(&chain[i]) == DW_TAG_inlined_subroutine;
            /* The next scope out is where this one was inlined. */
            if (f->inlined) {
                cur_file = NULL;
                cur_line = 0;
                if (dwarf_attr(&chain[i], DW_AT_call_file, &a) != NULL
                    && dwarf_formudata(&a, &cf) == 0 && files != NULL
                    && cf < nfiles)
                    cur_file = dwarf_filesrc(files, cf, NULL, NULL);
                if (dwarf_attr(&chain[i], DW_AT_call_line, &a) != NULL
                    && dwarf_formudata(&a, &cl) == 0)
                    cur_line = (int)cl;
            }
        }
    }
    sym->nframes = (unsigned)depth;
    sym->frames = e->frames;
}

static int cache_grow(struct rcuprof_symbolize *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 1024, i, h;
    uint64_t *nk = calloc(ncap, sizeof(*nk));
    struct sym_entry **nv = calloc(ncap, sizeof(*nv));

    if (nk == NULL || nv == NULL) {
        free(nk);
        free(nv);
        return -1;
    }
    for (i = 0; i < s->cap; i++) {
        if (s->vals[i] == NULL)
            continue;
        h = (size_t)((s->keys[i] * 0x9E3779B97F4A7C15ULL) >> 17)
            & (ncap - 1);
        while (nv[h] != NULL)
            h = (h + 1) & (ncap - 1);
        nk[h] = s->keys[i];
        nv[h] = s->vals[i];
    }
    free(s->keys);
    free(s->vals);
    s->keys = nk;
    s->vals = nv;
    s->cap = ncap;
    return 0;
}

const struct rcuprof_symbol *rcuprof_symbolize_addr(
    struct rcuprof_symbolize *s, uint64_t addr)
{
    struct sym_entry *e;
    size_t h;

    if ((s->n + 1) * 2 > s->cap && cache_grow(s) != 0)
        return NULL;
    h = (size_t)((addr * 0x9E3779B97F4A7C15ULL) >> 17) & (s->cap - 1);
    while (s->vals[h] != NULL) {
        if (s->keys[h] == addr)
            return &s->vals[h]->sym;
        h = (h + 1) & (s->cap - 1);
    }
    e = calloc(1, sizeof(*e));
    if (e == NULL)
        return NULL;
    e->sym.addr = addr;
    resolve(s, e);
    s->keys[h] = addr;
    s->vals[h] = e;
    s->n++;
    return &e->sym;
}

/* ---- skid ---- */

static int modrm_len(const unsigned char *p, size_t max)
{
    unsigned mod, rm;
    int len = 1;

    if (max < 1)
        return -1;
    mod = p[0] >> 6;
    rm = p[0] & 7;
    if (mod == 3)
        return -1;              /* register operand: lock is invalid */
    if (rm == 4) {
        if (max < 2)
            return -1;
        len++;
        if (mod == 0 && (p[1] & 7) == 5)
            len += 4;           /* SIB with no base: disp32 */
    } else if (mod == 0 && rm == 5) {
        len += 4;               /* RIP-relative */
    }
    if (mod == 1)
        len += 1;
    else if (mod == 2)
        len += 4;
    return (size_t)len <= max ? len : -1;
}

int rcuprof_symbolize_locked_insn_len(const unsigned char *p, size_t max)
{
    size_t i = 0;
    int lock = 0, opsize16 = 0, rexw = 0, m, imm = 0;
    unsigned op, reg;

    /* Legacy prefixes, in any order; lock must be among them. */
    while (i < max && i < 14) {
        if (p[i] == 0xF0)
            lock = 1;
        else if (p[i] == 0x66)
            opsize16 = 1;
        else if (p[i] != 0x67 && p[i] != 0x2E && p[i] != 0x3E
                 && p[i] != 0x26 && p[i] != 0x64 && p[i] != 0x65
                 && p[i] != 0x36 && p[i] != 0xF2 && p[i] != 0xF3)
            break;
        i++;
    }
    if (!lock || i >= max)
        return -1;
    if ((p[i] & 0xF0) == 0x40) {
        rexw = (p[i] & 0x08) != 0;
        if (++i >= max)
            return -1;
    }
    op = p[i++];
    if (op == 0x0F) {
        if (i >= max)
            return -1;
        op = 0x100 | p[i++];
    }
    if (i >= max)
        return -1;
    reg = (p[i] >> 3) & 7;
    switch (op) {
    case 0x00: case 0x01: case 0x08: case 0x09: case 0x10: case 0x11:
    case 0x18: case 0x19: case 0x20: case 0x21: case 0x28: case 0x29:
    case 0x30: case 0x31: case 0x86: case 0x87:
    case 0x1B0: case 0x1B1: case 0x1C0: case 0x1C1:
    case 0x1AB: case 0x1B3: case 0x1BB:
        break;
    case 0x80: case 0x83:
        imm = 1;
        break;
    case 0x81:
        imm = opsize16 && !rexw ? 2 : 4;
        break;
    case 0xF6: case 0xF7:
        if (reg != 2 && reg != 3)   /* not, neg */
            return -1;
        break;
    case 0xFE: case 0xFF:
        if (reg > 1)                /* inc, dec */
            return -1;
        break;
    case 0x1C7:
        if (reg != 1)               /* cmpxchg8b / cmpxchg16b */
            return -1;
        break;
    case 0x1BA:
        if (reg < 5)                /* bts, btr, btc imm8 */
            return -1;
        imm = 1;
        break;
    default:
        return -1;
    }
    m = modrm_len(p + i, max - i);
    if (m < 0 || i + (size_t)m + (size_t)imm > max)
        return -1;
    return (int)(i + (size_t)m + (size_t)imm);
}

int rcuprof_symbolize_after_locked_rmw(const unsigned char *code, size_t off)
{
    size_t k;

    for (k = 2; k <= 15 && k <= off; k++)
        if (rcuprof_symbolize_locked_insn_len(code + off - k, k) == (int)k)
            return 1;
    return 0;
}

/* Up to 15 bytes of .text right before ADDR, from the module's file. */
static int code_before(struct rcuprof_symbolize *s, uint64_t addr,
                       unsigned char *buf, size_t *got)
{
    struct sym_module *sm = NULL;
    Elf_Scn *scn = NULL;
    GElf_Addr bias = 0;
    GElf_Shdr sh;
    Elf *e;
    size_t k;

    for (k = 0; k < s->nranges; k++)
        if (addr >= s->ranges[k].start && addr < s->ranges[k].end) {
            sm = &s->mods[s->ranges[k].module];
            break;
        }
    if (sm == NULL || sm->mod == NULL || sm->status != RCUPROF_SYM_OK)
        return -1;
    e = dwfl_module_getelf(sm->mod, &bias);
    if (e == NULL)
        return -1;
    addr -= bias;
    while ((scn = elf_nextscn(e, scn)) != NULL) {
        Elf_Data *d;
        size_t rel, n;

        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS
            || !(sh.sh_flags & SHF_EXECINSTR) || addr <= sh.sh_addr
            || addr > sh.sh_addr + sh.sh_size)
            continue;
        d = elf_getdata(scn, NULL);
        if (d == NULL || d->d_buf == NULL)
            return -1;
        rel = (size_t)(addr - sh.sh_addr);
        if (rel > d->d_size)
            return -1;
        n = rel < 15 ? rel : 15;
        memcpy(buf, (const unsigned char *)d->d_buf + rel - n, n);
        *got = n;
        return 0;
    }
    return -1;
}

int rcuprof_symbolize_likely_skid(struct rcuprof_symbolize *s, uint64_t addr)
{
    unsigned char buf[16];
    size_t got = 0;

    if (code_before(s, addr, buf, &got) != 0)
        return -1;
    return rcuprof_symbolize_after_locked_rmw(buf, got);
}
