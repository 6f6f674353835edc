#!/usr/bin/env bash
# Build-cost benchmark (prints figures; not a test).  From an EMPTY ccache:
#   1. one variant from scratch, then every defined variant from scratch
#      (another empty cache): the ratio should stay at or under 1.5;
#   2. a second build of everything: OpenSSL compiler calls (should be 0);
#   3. one patch edited: which variants rebuild (only those using it);
#   4. one variant's Configure options changed: which variants rebuild;
#   5. per OpenSSL line (NAME@LINE; bare names are 3.5): the variants, their
#      OpenSSL build seconds and ccache misses in the empty-cache build of 1.
#      A line's first variant pays its cache misses; the others share them.
# usage: tests/bench/build-cost.sh [ONE_VARIANT [VARIANTS]]
#   ONE_VARIANT default stock-pristine; VARIANTS (-DRCUPROF_VARIANTS of the
#   all-variants build) default: the project's default list.
#
# The three figures of issue 26 (tests/bench/build-cost.md), each alone:
#   build-cost.sh --user   (a) a user variant, stock@4.0 plus a one-file
#                          patch, in a new build folder, from the ccache as
#                          it is (warm): configure + its driver; goal 90 s
#   build-cost.sh --demo   (b) a fresh clone of this clone's HEAD, `make
#                          demo` with CCACHE_DIR an empty folder: time to
#                          its first table, and each stage; goal 15 min
#   build-cost.sh --test   (c) the same clone and cold ccache, `make test`:
#                          each stage and the total; goal 45 min
# (b) and (c) keep the downloaded OpenSSL sources (RCUPROF_CACHE): only the
# compiler cache starts empty, as on CI with a source mirror.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
--user|--demo|--test)
    mode=$1
    work=$(mktemp -d /tmp/rcuprof-buildcost.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    now() { date +%s.%N; }
    secs() { awk "BEGIN{printf \"%.1f\", $2 - $1}"; }
    echo "rcuprof build cost $mode, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), HEAD $(git -C "$src" rev-parse --short HEAD)"
    if [ "$mode" = --user ]; then
        # The patch: one line in crypto/evp/digest.c of 4.0's pristine tree
        # (a file the probe layer leaves alone), made here with diff.
        cmake -S "$src" -B "$work/p" -G Ninja -DRCUPROF_VARIANTS=stock-pristine@4.0 \
            -DRCUPROF_USER_VARIANTS="$work/none.json" > "$work/p.log" 2>&1 \
            || { tail -3 "$work/p.log"; exit 1; }
        tree=$(awk -F'\t' '$1=="tree"{print $2}' "$work/p/variants/stock-pristine@4.0/spec")
        mkdir -p "$work/a/crypto/evp" "$work/b/crypto/evp"
        cp "$tree/crypto/evp/digest.c" "$work/a/crypto/evp/"
        sed '0,/^#include/s//static const int rcuprof_bench_user_change = 1;\n#include/' \
            "$tree/crypto/evp/digest.c" > "$work/b/crypto/evp/digest.c"
        (cd "$work" && diff -u a/crypto/evp/digest.c b/crypto/evp/digest.c > "$work/user.patch") || true
        [ -s "$work/user.patch" ] || { echo "no patch made from $tree/crypto/evp/digest.c"; exit 1; }
        printf '{"variants": {"bench-user": {"base": "stock@4.0", "patches": ["%s"]}}}\n' \
            "$work/user.patch" > "$work/uv.json"
        t0=$(now)
        cmake -S "$src" -B "$work/u" -G Ninja -DRCUPROF_VARIANTS=bench-user@4.0 \
            -DRCUPROF_USER_VARIANTS="$work/uv.json" > "$work/u.log" 2>&1 \
            || { tail -3 "$work/u.log"; exit 1; }
        t1=$(now)
        cmake --build "$work/u" --target rcuprof-stress-bench-user_at_4.0 >> "$work/u.log" 2>&1 \
            || { tail -20 "$work/u.log"; exit 1; }
        t2=$(now)
        echo "(a) user variant bench-user@4.0 (stock@4.0 + a one-file patch), warm ccache: $(secs "$t0" "$t2") s (configure $(secs "$t0" "$t1") s, OpenSSL and driver $(secs "$t1" "$t2") s; goal <= 90 s)"
        grep "ccache hits" "$work/u.log" | sed 's/^/    /'
        exit 0
    fi
    git clone -q "$src" "$work/clone"
    mkdir -p "$work/ccache"
    export CCACHE_DIR="$work/ccache"
    target=${mode#--}
    # Each output line stamped with the seconds since the start.
    t0=$(date +%s)
    set +o pipefail
    (cd "$work/clone" && nice -n "${RCUPROF_BENCH_NICE:-10}" make "$target") 2>&1 \
        | while IFS= read -r l; do printf '%5d %s\n' $(( $(date +%s) - t0 )) "$l"; done > "$work/make.log"
    rc=${PIPESTATUS[0]}
    set -o pipefail
    [ "$rc" = 0 ] || echo "make $target FAILED (exit $rc): the figures below are not a passing run"
    cp "$work/make.log" "/tmp/rcuprof-buildcost-$target.log" 2>/dev/null || true
    grep -E '^ *[0-9]+ rcuprof stage ' "$work/make.log" | sed 's/^ *[0-9]* /    /'
    total=$(tail -n 1 "$work/make.log" | awk '{print $1}')
    if [ "$mode" = --demo ]; then
        first=$(awk '$2 ~ /^\|/ {print $1; exit}' "$work/make.log")
        echo "(b) first make demo, fresh clone, empty ccache: first table at ${first:-none} s, done at $total s (goal <= 900 s)"
    else
        echo "(c) make test, fresh clone, empty ccache: $total s ($(grep -c 'Test #' "$work/make.log" || true) tests run; goal <= 2700 s)"
    fi
    echo "    log: /tmp/rcuprof-buildcost-$target.log"
    exit 0
    ;;
esac
one=${1:-stock-pristine}
list=${2:-default}
work=$(mktemp -d /tmp/rcuprof-buildcost.XXXXXX)
trap 'rm -rf "$work"' EXIT

secs() { awk "BEGIN{printf \"%.1f\", $2 - $1}"; }
now() { date +%s.%N; }
calls() { CCACHE_DIR=$1 ccache --print-stats 2>/dev/null | awk -F'\t' '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"||$1=="cache_miss"{s+=$2} END{print s+0}'; }

cp "$src/patches/variants.json" "$work/variants.json"
echo "rcuprof build cost, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"

export CCACHE_DIR="$work/cc1"
cmake -S "$src" -B "$work/b1" -G Ninja -DRCUPROF_VARIANTS="$one" -DRCUPROF_USER_VARIANTS="$work/none.json" >/dev/null
t0=$(now); cmake --build "$work/b1" --target "openssl-${one//@/_at_}" >"$work/b1.log" 2>&1; t1=$(now)
t_one=$(secs "$t0" "$t1")
echo "one variant ($one), empty ccache:         ${t_one} s"

export CCACHE_DIR="$work/cc2"
cmake -S "$src" -B "$work/b2" -G Ninja -DRCUPROF_USER_VARIANTS="$work/none.json" -DRCUPROF_VARIANTS="$list" >/dev/null
all=$(grep -o 'variants to build: .*' "$work/b2/CMakeCache.txt" 2>/dev/null || true)
targets=$(ninja -C "$work/b2" -t targets all | awk -F: '/^openssl-[^:]*: phony/{print $1}' | tr '\n' ' ')
[ -n "$targets" ] || { echo "no openssl-* targets found in $work/b2"; exit 1; }
# OpenSSL only, like the one-variant figure; rcuprof's own code after.
# One target at a time (ninja runs them one at a time anyway: console
# pool), each timed, so the figure splits by variant and by line.
: > "$work/b2.log"
t0=$(now)
for t in $targets; do
    ta=$(now)
    cmake --build "$work/b2" --target "$t" >>"$work/b2.log" 2>&1
    tb=$(now)
    v=$(sed -n "s/^rcuprof: building variant \([^ ]*\) .*/\1/p" "$work/b2.log" | tail -n 1)
    echo "rcuprof-bench: $v $(secs "$ta" "$tb")" >> "$work/b2.log"
done
t1=$(now)
t_all=$(secs "$t0" "$t1")
n=$(grep -c "rcuprof: variant .* built" "$work/b2.log" || true)
echo "all $n variants, empty ccache:              ${t_all} s   ratio $(awk "BEGIN{printf \"%.2f\", $t_all / $t_one}") (target <= 1.5)"
t0=$(now); cmake --build "$work/b2" >"$work/b2b.log" 2>&1; t1=$(now)
echo "then rcuprof's own code, drivers and tests: $(secs "$t0" "$t1") s"
# Per line: the timed targets above ("rcuprof-bench: V SECONDS") and
# build-variant.sh's "rcuprof: variant V: ccache hits H of N compiles (M misses)".
echo "per OpenSSL line (empty ccache, in build order; the first variant of a line pays its misses):"
awk '/^rcuprof-bench: / {
         v = $2; s = $3; l = (v ~ /@/) ? substr(v, index(v, "@") + 1) : "3.5";
         if (!(l in secs)) order[++n] = l; secs[l] += s; vars[l] = vars[l] " " v }
     /^rcuprof: variant .*: ccache hits/ {
         v = $3; sub(/:$/, "", v); l = (v ~ /@/) ? substr(v, index(v, "@") + 1) : "3.5";
         if (match($0, /\([0-9]+ misses\)/)) miss[l] += substr($0, RSTART + 1, RLENGTH - 9) }
     END { for (i = 1; i <= n; i++) { l = order[i];
             printf "  line %-4s %7.1f s  %5d ccache misses  variants:%s\n", l, secs[l], miss[l], vars[l] } }' "$work/b2.log"

c0=$(calls "$CCACHE_DIR")
t0=$(now); cmake --build "$work/b2" >"$work/b3.log" 2>&1; t1=$(now)
c1=$(calls "$CCACHE_DIR")
echo "second build: $(secs "$t0" "$t1") s, OpenSSL compiler calls: $((c1 - c0)), variants rebuilt: $(grep -c 'building variant' "$work/b3.log" || true)"

# Edit one patch of a patched variant (a copy of the tree, so the clone
# stays clean): find the first patch file used by any variant.
patch=$(awk -F'\t' '$1=="patch"{print $2; exit}' "$work"/b2/variants/*/spec || true)
if [ -n "$patch" ]; then
    users=$(grep -l -F "$patch" "$work"/b2/variants/*/spec | xargs -n1 dirname | xargs -n1 basename | tr '\n' ' ')
    cp "$patch" "$work/patch.bak"
    printf '\n' >> "$patch"
    cmake --build "$work/b2" >"$work/b4.log" 2>&1 || true
    cp "$work/patch.bak" "$patch"
    echo "edited $(basename "$patch") (used by: $users): rebuilt $(grep -o 'building variant [^ ]*' "$work/b4.log" | awk '{print $3}' | tr '\n' ' ')"
    # Back to the original patch: its users rebuild once more (not counted).
    cmake --build "$work/b2" >/dev/null 2>&1 || true
else
    echo "edited patch: no variant has patches yet, nothing to show"
fi

# Change one variant's Configure options through a user variant file.
# (a user variant's line is its base's: NAME-noasm@LINE)
printf '{"variants": {"%s-noasm": {"base": "%s", "configure": ["no-asm"]}}}\n' "${one%%@*}" "$one" > "$work/uv.json"
noasm="${one%%@*}-noasm"
case "$one" in *@*) noasm="$noasm@${one#*@}" ;; esac
cmake -S "$src" -B "$work/b2" -DRCUPROF_USER_VARIANTS="$work/uv.json" -DRCUPROF_VARIANTS="$list,$noasm" >/dev/null
cmake --build "$work/b2" >"$work/b5.log" 2>&1 || true
echo "added Configure option no-asm to a copy of $one: rebuilt $(grep -o 'building variant [^ ]*' "$work/b5.log" | awk '{print $3}' | tr '\n' ' ')"
