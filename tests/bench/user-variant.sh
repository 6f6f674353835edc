#!/usr/bin/env bash
# Figure (issue 26, item 4): a user variant, a 4.0 base (stock@4.0, probed)
# plus a one-file patch to crypto/property/property.c, built from a warm
# ccache: `rcuprof variant add` to a runnable driver, in a build folder of
# its own.  Prints the seconds, the ccache hits and the load; asserts
# nothing (goal: at most 90 s on 2 idle cores).
# usage: tests/bench/user-variant.sh BUILD   (BUILD: a build with stock@4.0)
set -euo pipefail
build=$(readlink -f "${1:?usage: user-variant.sh BUILD}")
src=$(cd "$(dirname "$0")/../.." && pwd)
spec=$build/variants/stock@4.0/spec
[ -f "$spec" ] || { echo "rcuprof: $build has no stock@4.0: build it first (-DRCUPROF_VARIANTS=stock@4.0)" >&2; exit 2; }
tree=$(awk -F'\t' '$1=="tree"{print $2}' "$spec")
tmp=$(mktemp -d /tmp/rcuprof-uv.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a/crypto/property" "$tmp/b/crypto/property"
cp "$tree/crypto/property/property.c" "$tmp/a/crypto/property/"
sed 's|^    sa = stored_algs_shard(store, nid);$|    sa = stored_algs_shard(store, nid); /* a one-line change */|' \
    "$tree/crypto/property/property.c" > "$tmp/b/crypto/property/property.c"
(cd "$tmp" && diff -u a/crypto/property/property.c b/crypto/property/property.c > one-file.patch) || true
[ -s "$tmp/one-file.patch" ] || { echo "rcuprof: property.c changed: update the bench's sed" >&2; exit 1; }
export RCUPROF_USER_VARIANTS=$tmp/uv.json RCUPROF_VARIANTS_FILE=$build/variants.json
start=$(date +%s.%N)
"$build/bin/rcuprof" variant add onefile --base stock@4.0 --patch "$tmp/one-file.patch" >/dev/null
cmake -S "$src" -B "$tmp/b" -G Ninja -DRCUPROF_USER_VARIANTS="$tmp/uv.json" \
    -DRCUPROF_VARIANTS=onefile@4.0 -DRCUPROF_SANITIZER_TESTS=OFF > "$tmp/conf.log" 2>&1
cmake --build "$tmp/b" --target rcuprof-stress-onefile_at_4.0 > "$tmp/build.log" 2>&1
end=$(date +%s.%N)
[ -x "$tmp/b/bin/rcuprof-stress-onefile@4.0" ] || { echo "rcuprof: the driver did not build: see $tmp/build.log" >&2; tail -5 "$tmp/build.log" >&2; exit 1; }
hits=$(grep -o 'ccache hits [0-9]* of [0-9]* compiles ([0-9]* misses)' "$tmp/build.log" || echo "no ccache figures")
probes=$(grep -o '"probe_layer":"[a-z]*"' "$tmp/b/variants/onefile@4.0/build.json")
printf 'user variant (stock@4.0 + one-file patch to property.c), variant add to driver, warm ccache: %.0f s (%s; %s; load average at end %s; %s CPUs)\n' \
    "$(echo "$end - $start" | bc)" "$hits" "$probes" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
