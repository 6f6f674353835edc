/*
 * usdt_count: count the hits of one USDT probe in a program run, through
 * perf_event_open's uprobe PMU (no tracefs).  Needs root.
 *
 *   usdt_count BINARY PROVIDER NAME -- CMD [ARGS...]
 *
 * Finds every site of PROVIDER:NAME in BINARY's .note.stapsdt (an ELF64
 * little-endian file), converts each site's address to a file offset, opens
 * one counting uprobe per site and CPU (pid -1: a uprobe belongs to the
 * file, so give BINARY a private copy to count one run only), runs CMD with
 * stdout and stderr passed through, and prints "usdt_count: sites S hits H"
 * on stderr.  Not per process with inherit: the kernel re-reads the path
 * (config1, a pointer) in the forking thread when it copies an inherited
 * uprobe event, and clone() then fails with EFAULT.  Exit: CMD's exit status;
 * 77 when it cannot count here (not root, no uprobe PMU, open refused);
 * 99 for a bad binary or a probe that is not there.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#define MAX_SITES 16
#define MAX_CPUS 256

static int skip(const char *why)
{
    fprintf(stderr, "usdt_count: SKIPPED: %s\n", why);
    return 77;
}

/* The file offsets of PROVIDER:NAME's sites in the ELF image |m|. */
static int find_sites(const unsigned char *m, size_t len, const char *prov,
                      const char *name, uint64_t *off, int max)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m;
    const Elf64_Shdr *sh;
    const Elf64_Phdr *ph;
    const char *shstr;
    uint64_t base_addr = 0;
    int n = 0, i, have_base = 0;

    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0
        || eh->e_ident[EI_CLASS] != ELFCLASS64
        || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > len)
        return -1;
    sh = (const Elf64_Shdr *)(m + eh->e_shoff);
    ph = (const Elf64_Phdr *)(m + eh->e_phoff);
    shstr = (const char *)m + sh[eh->e_shstrndx].sh_offset;
    for (i = 0; i < eh->e_shnum; i++)
        if (strcmp(shstr + sh[i].sh_name, ".stapsdt.base") == 0) {
            base_addr = sh[i].sh_addr;
            have_base = 1;
        }
    for (i = 0; i < eh->e_shnum; i++) {
        const unsigned char *p, *end;

        if (sh[i].sh_type != SHT_NOTE
            || strcmp(shstr + sh[i].sh_name, ".note.stapsdt") != 0)
            continue;
        p = m + sh[i].sh_offset;
        end = p + sh[i].sh_size;
        while (p + sizeof(Elf64_Nhdr) <= end) {
            const Elf64_Nhdr *nh = (const Elf64_Nhdr *)p;
            const char *owner = (const char *)(p + sizeof(*nh));
            const unsigned char *desc = p + sizeof(*nh)
                                        + ((nh->n_namesz + 3) & ~3u);

            if (nh->n_type == 3 && nh->n_namesz == 8
                && strcmp(owner, "stapsdt") == 0) {
                uint64_t pc, base;
                const char *pv = (const char *)desc + 24, *nm;
                int k;

                memcpy(&pc, desc, 8);
                memcpy(&base, desc + 8, 8);
                nm = pv + strlen(pv) + 1;
                if (strcmp(pv, prov) == 0 && strcmp(nm, name) == 0 && n < max) {
                    if (have_base)
                        pc += base_addr - base;     /* prelink adjustment */
                    for (k = 0; k < eh->e_phnum; k++)
                        if (ph[k].p_type == PT_LOAD && pc >= ph[k].p_vaddr
                            && pc < ph[k].p_vaddr + ph[k].p_filesz) {
                            off[n++] = pc - ph[k].p_vaddr + ph[k].p_offset;
                            break;
                        }
                }
            }
            p += sizeof(*nh) + ((nh->n_namesz + 3) & ~3u)
                 + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *bin, *prov, *name;
    uint64_t off[MAX_SITES], total = 0;
    static int fds[MAX_SITES * MAX_CPUS];
    int nfds = 0, nsites, i, cpu, ncpu, type, pipefd[2], st;
    unsigned char *m;
    struct stat sb;
    char path[4096], c = 0;
    FILE *f;
    pid_t pid;
    int fd;

    if (argc < 6 || strcmp(argv[4], "--") != 0) {
        fprintf(stderr, "usage: usdt_count BINARY PROVIDER NAME -- CMD [ARGS...]\n");
        return 99;
    }
    bin = argv[1];
    prov = argv[2];
    name = argv[3];
    if (realpath(bin, path) == NULL) {
        fprintf(stderr, "usdt_count: %s: %s\n", bin, strerror(errno));
        return 99;
    }
    if (geteuid() != 0)
        return skip("not root: uprobes through perf_event_open need root");
    f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
    if (f == NULL)
        return skip("no uprobe PMU (/sys/bus/event_source/devices/uprobe/type)");
    if (fscanf(f, "%d", &type) != 1) {
        fclose(f);
        return skip("cannot read the uprobe PMU type");
    }
    fclose(f);

    if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0) {
        fprintf(stderr, "usdt_count: %s: %s\n", path, strerror(errno));
        return 99;
    }
    m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        fprintf(stderr, "usdt_count: cannot map %s\n", path);
        return 99;
    }
    nsites = find_sites(m, (size_t)sb.st_size, prov, name, off, MAX_SITES);
    munmap(m, (size_t)sb.st_size);
    if (nsites <= 0) {
        fprintf(stderr, "usdt_count: %s: no USDT probe %s:%s in .note.stapsdt\n",
                path, prov, name);
        return 99;
    }

    if (pipe(pipefd) != 0)
        return 99;
    pid = fork();
    if (pid < 0)
        return 99;
    if (pid == 0) {
        close(pipefd[1]);
        if (read(pipefd[0], &c, 1) != 1 || c != 'g')
            _exit(98);
        execvp(argv[5], argv + 5);
        _exit(127);
    }
    close(pipefd[0]);
    ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
    if (ncpu > MAX_CPUS)
        ncpu = MAX_CPUS;
    for (i = 0; i < nsites; i++) for (cpu = 0; cpu < ncpu; cpu++) {
        struct perf_event_attr a;
        int fd1;

        memset(&a, 0, sizeof(a));
        a.size = sizeof(a);
        a.type = (uint32_t)type;
        a.config = 0;                           /* uprobe, not uretprobe */
        a.config1 = (uint64_t)(uintptr_t)path;  /* uprobe_path */
        a.config2 = off[i];                     /* probe_offset */
        fd1 = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
                           PERF_FLAG_FD_CLOEXEC);
        if (fd1 < 0 && errno == ENODEV)
            continue;                           /* CPU offline */
        fds[nfds++] = fd1;
        if (fd1 < 0) {
            char why[4096 + 128];

            snprintf(why, sizeof(why),
                     "perf_event_open(uprobe %s+0x%llx): %s", path,
                     (unsigned long long)off[i], strerror(errno));
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            return skip(why);
        }
    }
    c = 'g';
    if (write(pipefd[1], &c, 1) != 1)
        return 99;
    close(pipefd[1]);
    if (waitpid(pid, &st, 0) != pid)
        return 99;
    for (i = 0; i < nfds; i++) {
        uint64_t v = 0;

        if (read(fds[i], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
            fprintf(stderr, "usdt_count: cannot read the count: %s\n",
                    strerror(errno));
            return 99;
        }
        total += v;
        close(fds[i]);
    }
    fprintf(stderr, "usdt_count: sites %d hits %llu\n", nsites,
            (unsigned long long)total);
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
