#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Sanitizer checks of one OpenSSL variant (tests/openssl/README.md):
#
#   sanitizer-ctest.sh tsan   SPEC OUT   ThreadSanitizer: store_stress and
#                                        OpenSSL's recipe test_threads
#   sanitizer-ctest.sh asan   SPEC OUT   AddressSanitizer + LSan: store_stress,
#                                        reclaim_bound_test,
#                                        libctx_thread_exit_test
#   sanitizer-ctest.sh mutant SPEC OUT   the rcu-sync SPEC with 0003 replaced
#                                        by mutants/0003-mutant-free-at-unlock:
#                                        store_stress under ASan MUST report a
#                                        heap-use-after-free (exit 0 if it
#                                        does, 1 if the stress stayed blind)
#
# SPEC is a variant's spec (build/variants/<v>/spec, written by cmake).  The
# sanitizer tree is a build-variant.sh variant of its own in OUT (its SPEC
# is OUT/spec: the variant's lines, a new name, the sanitizer's configure or
# cflag lines), built incrementally by recipe with the shared ccache.  Only
# libcrypto.a is built, plus, for tsan, the programs test_threads runs (the
# tsan tree keeps tests enabled: no no-apps).
#
# Environment: STORE_STRESS_SECONDS (default 3), JOBS (default 2).
set -euo pipefail
mode=$1 spec=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
jobs=${JOBS:-2}
secs=${STORE_STRESS_SECONDS:-3}
t0=$(date +%s)
phase() { echo "== $(( $(date +%s) - t0 ))s: $*"; }

[ -f "$spec" ] || { echo "no variant spec $spec: re-run cmake" >&2; exit 2; }
mkdir -p "$out"
name=$(awk -F'\t' '$1=="name"{print $2}' "$spec")

# ---- the sanitizer tree's spec
case "$mode" in
tsan)
    # Tests enabled (test_threads needs its programs), hence no no-apps;
    # no-shared stays, so every program links libcrypto.a and each source
    # file is compiled once.
    # OSSL_TSAN_BUILD: what include/internal/refcount.h defines by itself
    # under clang's TSan (__has_feature), but gcc 12 has no __has_feature:
    # without it CRYPTO_DOWN_REF is a release decrement plus an acquire
    # atomic_thread_fence, which gcc's TSan does not model (gcc -Wtsan says
    # so), and every last free of a shared refcounted object (EVP_PKEY_free
    # in test_threads) is reported as a race.  With it, OpenSSL's own TSan
    # form: an acq_rel decrement.  No suppression needed.
    grep -v -E $'^(name\t|configure\tno-apps$)' "$spec" > "$out/spec.new"
    printf 'name\t%s-tsan\ncflag\t-fsanitize=thread\ndefine\tOSSL_TSAN_BUILD\n' \
        "$name" >> "$out/spec.new"
    san=thread
    ;;
asan)
    grep -v -E $'^name\t' "$spec" > "$out/spec.new"
    printf 'name\t%s-asan\nconfigure\tenable-asan\n' "$name" >> "$out/spec.new"
    san=address
    ;;
mutant)
    grep -q -E $'^patch\t.*/0003-rcu-sync\\.patch$' "$spec" \
        || { echo "mutant: $spec is not an rcu-sync spec" >&2; exit 2; }
    grep -v -E $'^name\t' "$spec" \
        | sed -E $'s#^patch\t.*/0003-rcu-sync\\.patch$#patch\t'"$here"'/mutants/0003-mutant-free-at-unlock.patch#' \
        > "$out/spec.new"
    printf 'name\tmutant-free-at-unlock-asan\nconfigure\tenable-asan\n' >> "$out/spec.new"
    san=address
    ;;
*)
    echo "usage: $0 tsan|asan|mutant SPEC OUT" >&2
    exit 2
    ;;
esac
# -O1 (after the tree's -O3): the optimisation level the sanitizers'
# manuals recommend, and a faster compile for the cold CI build; the
# accesses and atomics are the same ones, only scheduled less.
printf 'cflag\t-O1\n' >> "$out/spec.new"
# Rewritten only when it changes (its content is the recipe anyway)
if ! cmp -s "$out/spec.new" "$out/spec" 2>/dev/null; then
    mv "$out/spec.new" "$out/spec"
else
    rm -f "$out/spec.new"
fi

phase "build $(awk -F'\t' '$1=="name"{print $2}' "$out/spec") (libcrypto.a)"
"$src/cmake/build-variant.sh" "$out/spec" "$out" "$jobs"
tree="$out/tree"

# The same ccache set-up as build-variant.sh, for the programs built here
if command -v ccache >/dev/null 2>&1 && [ "${RCUPROF_NO_CCACHE:-0}" != 1 ]; then
    export CCACHE_DIR=${CCACHE_DIR:-${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}/ccache}
    export CCACHE_BASEDIR=$(dirname "$(dirname "$out")")
    export CCACHE_NOHASHDIR=1
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
    cc="ccache gcc"
else
    cc=gcc
fi

# Sanitizer runtimes of gcc 12 can abort when vm.mmap_rnd_bits > 28;
# without ASLR they always start (the notes, section 7).
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then
    run=(setarch "$(uname -m)" -R)
fi

# Our test programs, compiled with the tree's sanitizer
build_prog() {
    local p=$1
    # shellcheck disable=SC2086
    $cc -O1 -g -fno-omit-frame-pointer -fsanitize=$san -Wall \
        -I"$tree/include" -I"$tree" -I"$here" "$here/$p.c" "$tree/libcrypto.a" \
        -lpthread -ldl -o "$out/$p"
}

# lockfree@4.0: lockfree_test (readers against inserts and flushes, and
# the cached path) on trees with the lock-free cache
lockfree_prog() {
    [ -f "$tree/include/internal/property_lockfree.h" ] || return 0
    # shellcheck disable=SC2086
    $cc -O1 -g -fno-omit-frame-pointer -fsanitize=$san -Wall \
        -I"$tree/include" -I"$tree" -I"$here" "$here/lockfree_test.c" "$tree/libcrypto.a" \
        -Wl,--wrap=pthread_rwlock_rdlock,--wrap=pthread_rwlock_wrlock \
        -lpthread -ldl -o "$out/lockfree_test"
    run_prog lockfree_test flush "$secs"
    run_prog lockfree_test hits 20000
}

# Sanitizer reports go to files as well: a report is a failure even where
# a harness swallows an exit code.
reports() { ls "$out"/reports/*.* 2>/dev/null || true; }
rm -rf "$out/reports"
mkdir -p "$out/reports"
tsan_supp="$here/tsan.supp"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$tsan_supp log_path=$out/reports/tsan"
export ASAN_OPTIONS="halt_on_error=1 detect_leaks=1 abort_on_error=0 log_path=$out/reports/asan"
# The report is also wanted on the terminal (ctest --output-on-failure)
show_reports() {
    local f
    for f in $(reports); do
        echo "---- $f"
        head -n 60 "$f"
    done
}

fail=0
run_prog() {
    local p=$1; shift
    phase "run $p $*"
    if "${run[@]}" "$out/$p" "$@"; then
        :
    else
        echo "$p: exit $?"
        fail=1
    fi
}

case "$mode" in
tsan)
    phase "build the test_threads programs"
    (
        cd "$tree"
        make -j"$jobs" test/threadstest test/threadstest_fips test/threadpool_test \
            providers/legacy.so util/wrap.pl util/shlib_wrap.sh
    ) > "$out/make-tests.log" 2>&1 || { tail -n 30 "$out/make-tests.log"; exit 1; }
    build_prog store_stress
    run_prog store_stress "$secs"
    lockfree_prog
    # Thread-stop handlers against lib ctx frees: needs patch 0004 (stock
    # frees a ctx under threads that still hold handlers for it)
    if [ -f "$tree/include/internal/property_rcu.h" ]; then
        build_prog thread_handlers_stress
        run_prog thread_handlers_stress "$secs"
    fi
    phase "make run_tests TESTS=test_threads"
    (
        cd "$tree"
        # threadstest's TSan reports go to the report files; the harness
        # prints its own verdict
        HARNESS_JOBS=1 "${run[@]}" make run_tests TESTS=test_threads
    ) > "$out/run_tests.log" 2>&1 || fail=1
    grep -E "^(Result|Files|Tests|\.\./.*test_threads|[0-9]+-test_threads)" "$out/run_tests.log" || true
    grep -q "^Result: PASS" "$out/run_tests.log" || { tail -n 30 "$out/run_tests.log"; fail=1; }
    ;;
asan)
    for p in store_stress reclaim_bound_test libctx_thread_exit_test; do
        build_prog "$p"
    done
    run_prog store_stress "$secs"
    # lockfree@4.0 keeps removed implementations until the context is freed
    # (patches/4.0/README.md): reclaim_bound_test's stock expectation that an
    # unload drops the store's references does not hold there by design
    if [ ! -f "$tree/include/internal/property_lockfree.h" ]; then
        run_prog reclaim_bound_test
    fi
    run_prog libctx_thread_exit_test
    lockfree_prog
    ;;
mutant)
    build_prog store_stress
    # Up to 3 tries: one use-after-free report is what is asked for
    for try in 1 2 3; do
        phase "run store_stress $secs (mutant, try $try)"
        if "${run[@]}" "$out/store_stress" "$secs"; then rc=0; else rc=$?; fi
        if grep -l "heap-use-after-free" "$out"/reports/asan.* >/dev/null 2>&1; then
            f=$(grep -l "heap-use-after-free" "$out"/reports/asan.* | head -n 1)
            # the access and the free (the report's first lines)
            sed -n '/ERROR: AddressSanitizer/,/^$/p' "$f" | head -n 12
            sed -n '/freed by thread/,/^$/p' "$f" | head -n 10
            echo "ok: the mutant (free at write unlock, no grace period) fails"\
                 "under ASan with a heap-use-after-free (exit $rc, try $try):"\
                 "the stress can see the bug"
            exit 0
        fi
        if [ -n "$(reports)" ]; then
            show_reports
            echo "FAIL: the mutant failed under ASan, but not with a heap-use-after-free"
            exit 1
        fi
    done
    echo "FAIL: the mutant (free at write unlock) passed the ASan stress 3 times:"\
         "the stress no longer detects the use-after-free it exists to catch"
    exit 1
    ;;
esac

if [ -n "$(reports)" ]; then
    show_reports
    fail=1
fi
phase "done ($([ $fail = 0 ] && echo clean || echo FAILED))"
exit $fail
