#!/usr/bin/env bash
# Mutation check for libctx_thread_exit_test: built against rcu-sync WITHOUT
# patch 0004 (per-thread RCU data outliving its lib ctx), the test must fail
# under valgrind memcheck; if it passes, the test has gone blind.
# usage: mutation-libctx.sh RCU_SYNC_SPEC OUT_DIR
set -euo pipefail
spec=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mkdir -p "$out"
# The rcu-sync recipe minus 0004 and the probe layer.
grep -v -E $'^patch\t.*(0004-rcu-thread-data-lifetime|/probes/)' "$spec" \
    | sed $'s/^name\t.*/name\tmutant-no0004/' > "$out/spec"
"$src/cmake/build-variant.sh" "$out/spec" "$out" 2 >/dev/null
tree="$out/tree"
gcc -O1 -g -I"$tree/include" -I"$tree" "$here/libctx_thread_exit_test.c" \
    "$tree/libcrypto.a" -lpthread -ldl -o "$out/libctx_thread_exit_test"
if valgrind --quiet --error-exitcode=99 --errors-for-leak-kinds=none \
       "$out/libctx_thread_exit_test" >"$out/log" 2>&1; then
    echo "FAIL: without 0004 the test still passes under memcheck: it no longer detects the bug"
    exit 1
fi
rc=$?
grep -m1 -E "Invalid (read|write)" "$out/log" || true
if grep -q "Invalid \(read\|write\)" "$out/log"; then
    echo "ok: without 0004 memcheck reports the use-after-free (exit $rc): the test can see the bug"
    exit 0
fi
echo "FAIL: the mutant failed, but not with an invalid access: $(tail -3 "$out/log")"
exit 1
