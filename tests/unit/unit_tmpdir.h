/*
 * A scratch folder for a unit test group: tmpdir is created by
 * unit_tmpdir_setup and removed with everything in it by
 * unit_tmpdir_teardown, cmocka's group setup and teardown:
 *   cmocka_run_group_tests(tests, unit_tmpdir_setup, unit_tmpdir_teardown)
 * Include after <cmocka.h>, with _GNU_SOURCE defined (mkdtemp).
 */
#ifndef RCUPROF_UNIT_TMPDIR_H
# define RCUPROF_UNIT_TMPDIR_H

# include <stdio.h>
# include <stdlib.h>
# include <unistd.h>

static char tmpdir[256];

static int unit_tmpdir_setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/rcuprof-unit-XXXXXX");
    return mkdtemp(tmpdir) == NULL;
}

static int unit_tmpdir_teardown(void **state)
{
    char cmd[300];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) != 0;
}

#endif
