#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build only what OpenSSL's own method-store recipes need in an already
# patched (or stock) OpenSSL source tree (3.5 and later), then run them.
#
# usage: run-recipes.sh TREE
#
# Environment (all optional):
#   CC            compiler, e.g. "ccache gcc" (default: gcc)
#   JOBS          make parallelism (default 2; the CI machine has 2 cores)
#   RECIPES       recipes to run (default: the six below)
#   EXTRA_CONFIG  extra Configure arguments, e.g. "-fsanitize=address"
#   HARNESS_JOBS  passed to OpenSSL's test harness (default 1)
#
# The tree is configured once (tests and apps enabled: no-apps would turn the
# tests off) with "linux-x86_64 no-fips no-docs -g -fno-omit-frame-pointer";
# it is re-configured only when the configuration line changes.  no-fips:
# property.c is also compiled into the FIPS module, which rcuprof does not
# build.  Exit status: non-zero if any step or recipe fails.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/Configure" ]; then
    echo "usage: $0 OPENSSL_SOURCE_TREE" >&2
    exit 2
fi
TREE=$(cd "$1" && pwd)
CC="${CC:-gcc}"
JOBS="${JOBS:-2}"
RECIPES="${RECIPES:-test_property test_threads test_evp_fetch_prov test_provider test_provfetch test_evp_libctx test_evp_extra}"
EXTRA_CONFIG="${EXTRA_CONFIG:-}"
export HARNESS_JOBS="${HARNESS_JOBS:-1}"

# Programs and modules the recipes above run (the notes, section 2): the
# test programs themselves plus what test_provider / test_threads use.
# test_evp_extra dlopens engines/dasync.so, which links libcrypto.so: a
# probed libcrypto.so must still load that way (patches/README.md, "TLS").
PROGRAMS="test/property_test test/threadstest test/threadstest_fips
  test/threadpool_test test/evp_fetch_prov_test test/provider_test
  test/provfetchtest test/evp_libctx_test test/user_property_test
  apps/openssl test/p_minimal.so test/p_test.so providers/legacy.so
  test/evp_extra_test test/evp_extra_test2 engines/dasync.so
  util/wrap.pl util/shlib_wrap.sh"
# OpenSSL 4.0 removed ENGINEs (no engines/ folder): test_evp_extra does
# not load dasync there.
[ -d "$TREE/engines" ] || PROGRAMS=${PROGRAMS/engines\/dasync.so/}

CONFIG_LINE="linux-x86_64 no-fips no-docs -g -fno-omit-frame-pointer $EXTRA_CONFIG CC=$CC"
STAMP="$TREE/.rcuprof-configured"

t0=$(date +%s)
phase() { echo "== $(( $(date +%s) - t0 ))s: $*"; }

cd "$TREE"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$CONFIG_LINE" ] || [ ! -f Makefile ]; then
    phase "configure: $CONFIG_LINE"
    # shellcheck disable=SC2086
    ./Configure linux-x86_64 no-fips no-docs -g -fno-omit-frame-pointer \
        $EXTRA_CONFIG CC="$CC" > configure.log 2>&1 \
        || { tail -20 configure.log; exit 1; }
    echo "$CONFIG_LINE" > "$STAMP"
fi

phase "make depend"
make depend > /dev/null
phase "make -j$JOBS build_generated"
make -j"$JOBS" build_generated > build.log 2>&1 || { tail -30 build.log; exit 1; }
phase "make -j$JOBS (needed programs and modules)"
# shellcheck disable=SC2086
make -j"$JOBS" $PROGRAMS >> build.log 2>&1 || { grep -E "error|Error" build.log | tail -30; exit 1; }

phase "make run_tests TESTS=\"$RECIPES\""
rc=0
make run_tests TESTS="$RECIPES" 2>&1 | tee run_tests.log || rc=$?
if [ $rc -eq 0 ] && ! grep -q "^Result: PASS" run_tests.log; then
    rc=1
fi
phase "done (exit $rc)"
exit $rc
