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
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
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
