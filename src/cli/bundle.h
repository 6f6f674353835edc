/*
 * A bundle for machines nothing can reach (issue 27): the packed drivers
 * (pack.h), run.sh (bundle-run.sh, POSIX sh) and the plan, in one
 * .tar.gz; `rcuprof import` turns what run.sh wrote into a results file.
 *
 * Layout of the bundle NAME.tar.gz (one folder NAME/):
 *   run.sh, BUNDLE_ID, plan.txt (for run.sh), plan.json (for import),
 *   packs/ID/ (one pack per variant)
 * plan.txt: "rcuprof-bundle-plan 1 TIMEOUT_S NPOINTS", then one line per
 * point in run order: "SEQ PACK BLOCK VARIANT THREADS ARGS", ARGS the
 * driver's argv without argv[0], each word single-quoted for sh.
 * plan.json: {schema "rcuprof-bundle/1", id, header (the results header
 * import writes: spec, spec_hash, timeout_s), packs {variant: id}, points
 * [{seq, block, threads, variant, order, pack, argv}]}.
 */
#ifndef RCUPROF_BUNDLE_H
# define RCUPROF_BUNDLE_H

# include <stddef.h>
# include <jansson.h>

# include "executor.h"

# define RCUPROF_BUNDLE_SCHEMA "rcuprof-bundle/1"
# define RCUPROF_BUNDLE_IDLEN 16

/*
 * The bundle executor, staging into the new folder root (must not exist).
 * prepare() packs a variant's driver into root/packs; run() appends the
 * measurement (variant and pack of argv[0], argv without argv[0], the
 * point in flight, rcuprof_exp_current) to the plan and returns
 * RCUPROF_EXEC_DEFERRED: nothing runs here, there is no result.  Outside
 * an experiment engine's run, run() refuses (RCUPROF_EXEC_ERROR): a
 * point needs its cell.  NULL after one line in err.
 */
struct rcuprof_executor *rcuprof_executor_bundle(const char *root, char *err,
                                                 size_t errlen);
/*
 * Write run.sh, plan.txt, plan.json (with header, the results header
 * import writes; NULL: the engine's, e->header) and BUNDLE_ID into root; the bundle's id into id
 * (RCUPROF_BUNDLE_IDLEN + 1).  0, or -1 after one line in err.
 */
int rcuprof_bundle_finish(struct rcuprof_executor *x, const json_t *header,
                          char *id, size_t idlen, char *err, size_t errlen);

int rcuprof_cmd_bundle(int argc, char **argv);
int rcuprof_cmd_import(int argc, char **argv);

/* Remove a folder tree (a staging or an extraction folder); 0 or -1. */
int rcuprof_remove_tree(const char *dir);

#endif
