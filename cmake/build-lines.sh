#!/usr/bin/env bash
# build-lines.sh BUILD [VARIANT...]: build the configured OpenSSL variants
# (all, or those named) before `cmake --build`, one lane per OpenSSL line,
# two lanes at a time.
#
# Why: the build runs one variant at a time (its target has the console
# pool), and every variant has long single-threaded phases (Configure,
# make's generated files, the archive) during which one of two CPUs idles.
# Lines share no objects, so two lines build side by side without compiling
# anything twice; within a line the variants go one after another, so the
# first pays the line's ccache misses and the others hit them.  Each variant
# is built exactly as its target builds it (cmake/build-variant.sh, same
# spec, folder and jobs), so `cmake --build` then finds it up to date.  A
# variant that fails here is named and left to `cmake --build`, which
# reports it the usual way; the other variants still build.
set -euo pipefail
build=${1:?usage: build-lines.sh BUILD [VARIANT...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
jobs=${RCUPROF_OPENSSL_JOBS:-2}
lanes=${RCUPROF_BUILD_LANES:-2}
# no variants.json: a build without variants (-DRCUPROF_BUILD_VARIANTS=OFF)
[ -f "$build/variants.json" ] || exit 0
# absolute: build-variant.sh runs Configure inside the tree, where a
# relative BUILD (make's default "build") would name no folder
build=$(cd "$build" && pwd)

# "LINE NAME" per configured variant, in definition order
list=$(/usr/bin/python3 - "$build/variants.json" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
only = set(sys.argv[2:])
for v in d["variants"]:
    if v.get("built") and (not only or v["name"] in only):
        print(v["line"], v["name"])
PY
)
[ -n "$list" ] || exit 0
lines=$(printf '%s\n' "$list" | awk '{print $1}' | awk '!seen[$0]++')

lane() {   # LINE: its variants, one after another
    local l=$1 v rc=0
    for v in $(printf '%s\n' "$list" | awk -v l="$l" '$1 == l {print $2}'); do
        "$here/build-variant.sh" "$build/variants/$v/spec" "$build/variants/$v" "$jobs" \
            > "$build/variants/$v/lane.log" 2>&1 || rc=1
        grep -E '^rcuprof: ' "$build/variants/$v/lane.log" | grep -v 'is up to date' || true
        [ "$rc" = 0 ] || { echo "rcuprof: variant $v failed here; cmake --build says why"; rc=0; }
    done
}
export -f lane
export list build here jobs
start=$(date +%s)
# shellcheck disable=SC2086
printf '%s\n' $lines | xargs -P "$lanes" -I{} bash -c 'lane "$1"' _ {}
echo "rcuprof: OpenSSL variants of $(echo $lines | wc -w) line(s), $lanes at a time: $(( $(date +%s) - start )) s"
