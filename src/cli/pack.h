/*
 * Drivers that run anywhere (issue 27): a driver packed with everything it
 * loads, so it runs on a Linux x86-64 machine that has none of the build's
 * packages (no hwloc, libpfm, jansson, liburcu, libudev, not even glibc).
 *
 * Why a pack and not a static driver: Debian ships no libudev.a (hwloc's
 * dependency), so a fully static driver means rebuilding hwloc without
 * udev, and glibc's static mode still dlopens at run time.  A pack keeps
 * the very binaries the build tested:
 *
 *   ID/driver          the driver, byte for byte
 *   ID/lib/NAME        every shared library the build's dynamic loader
 *                      resolves for it (NAME: the name it is asked for),
 *                      the loader itself, and libgcc_s.so.1 (glibc loads
 *                      it at thread exit and cancellation)
 *   ID/MANIFEST        "rcuprof-pack 1", "loader lib/NAME" ("loader -" for
 *                      a static driver), then "file SHA256 PATH" per file
 *
 * It runs as `ID/lib/LOADER --inhibit-cache --library-path ID/lib
 * ID/driver ARGS`: the carried loader and libraries only, never the
 * target's (its ld.so.cache is not read).  Needs a Linux kernel glibc
 * supports (3.2 or later) and nothing else.
 *
 * Content-addressed: ID is the first 32 hex digits of the SHA-256 of
 * MANIFEST, so it changes whenever the driver or any carried file does
 * (a rebuilt driver, or the build machine's libraries upgraded), and a
 * folder named ID never needs copying twice.
 */
#ifndef RCUPROF_PACK_H
# define RCUPROF_PACK_H

# include <stddef.h>

# define RCUPROF_PACK_IDLEN 32          /* hex digits of an id */

/*
 * Pack the driver at drv into outdir/ID (outdir made if missing; ID is
 * also written to id, idlen >= RCUPROF_PACK_IDLEN + 1).  The folder
 * appears whole or not at all (written beside it, then renamed); one
 * already there with the same MANIFEST is kept as it is.  0, or -1 after
 * one line in err (no newline): drv not an x86-64 ELF executable, a
 * library the loader cannot find, outdir not writable.
 */
int rcuprof_pack_driver(const char *drv, const char *outdir, char *id,
                        size_t idlen, char *err, size_t errlen);

/*
 * The argv prefix that runs the pack in the local folder packdir, placed
 * at rundir on the target (NULL: packdir itself; e.g. a remote path, or
 * "." for a relative one): rundir/lib/LOADER, --inhibit-cache,
 * --library-path, rundir/lib, rundir/driver (or only rundir/driver for a
 * static driver).  The strings go into buf, pointers into av (cap >= 6,
 * NULL-terminated).  The count, or -1 after one line in err (no pack in
 * packdir, buf too small).
 */
int rcuprof_pack_argv(const char *packdir, const char *rundir, char *buf,
                      size_t buflen, char **av, size_t cap, char *err,
                      size_t errlen);

/* rcuprof pack (docs/interfaces.md): pack a variant's driver or a file. */
int rcuprof_cmd_pack(int argc, char **argv);

#endif
