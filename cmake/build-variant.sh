#!/usr/bin/env bash
# Build one OpenSSL variant: copy the pristine tree, apply its patches,
# Configure, make libcrypto.a.  Incremental by recipe: the recipe hash covers
# the source, every patch's content, the Configure options, flags, defines and
# this script; an unchanged recipe does nothing (no compiler runs), a changed
# one rebuilds that variant from a fresh copy (ccache makes unchanged objects
# cheap).  A variant is complete only once <out>/build.json exists: it is
# written last, so an interrupted or failed build never looks complete.
#
# usage: build-variant.sh SPEC OUT_DIR JOBS
# SPEC: lines "key<TAB>value"; keys: name tree line source_json, and
#       repeated patch, configure, cflag, define.
set -euo pipefail

spec=$1 out=$2 jobs=${3:-2}
me=$(readlink -f "$0")

name="" tree="" line="" source_json="{}" tolerant=0 note=""
patches=() configure=() cflags=() defines=()
while IFS=$'\t' read -r k v; do
    case "$k" in
    name) name=$v ;;
    tree) tree=$v ;;
    line) line=$v ;;
    source_json) source_json=$v ;;
    patch) patches+=("$v") ;;
    configure) configure+=("$v") ;;
    cflag) cflags+=("$v") ;;
    define) defines+=("$v") ;;
    tolerant) tolerant=$v ;;
    note) note=$v ;;
    "") ;;
    *) echo "rcuprof: $spec: unknown key '$k': re-run cmake" >&2; exit 1 ;;
    esac
done < "$spec"

# A user variant (spec "tolerant 1") that fails is reported in one line and
# the build goes on: its dependents compile through cmake/variant-gate.sh,
# which skips them; .failed keeps the recipe, so an unchanged recipe is not
# rebuilt only to fail again.
recipe=""
fail() {
    if [ "$tolerant" = 1 ] && [ "${RCUPROF_PATCH_ONLY:-0}" != 1 ]; then
        mkdir -p "$out"
        printf '%s\t%s\n' "$recipe" "$*" > "$out/.failed"
        echo "rcuprof: variant $name failed to build: $*; other variants build on ('rcuprof variant remove ${name%@*}' drops it)"
        exit 0
    fi
    echo "rcuprof: variant $name: $*" >&2
    exit 1
}
trap 'fail "unexpected error (build-variant.sh line $LINENO)"' ERR

[ -f "$tree/Configure" ] || fail "source tree $tree is gone: re-run cmake to fetch it again"

recipe=$( {
    echo "script $(sha256sum "$me" | cut -d' ' -f1)"
    cat "$spec"
    for p in "${patches[@]}"; do
        [ -f "$p" ] || fail "patch $p does not exist: fix the variant definition"
        echo "patch-content $(sha256sum "$p" | cut -d' ' -f1)"
    done
} | sha256sum | cut -d' ' -f1)

if [ "${RCUPROF_RECIPE_ONLY:-0}" = 1 ]; then
    echo "$recipe"
    exit 0
fi

# RCUPROF_PATCH_ONLY=1: only the patched source in OUT/tree (for OpenSSL's
# own test recipes, which need a tree configured with tests enabled).
if [ "${RCUPROF_PATCH_ONLY:-0}" = 1 ]; then
    if [ "$(cat "$out/.recipe-src" 2>/dev/null)" = "$recipe" ] && [ -d "$out/tree" ]; then
        echo "rcuprof: patched source of $name is up to date"
        exit 0
    fi
    rm -rf "$out/tree" "$out/.recipe-src"
    mkdir -p "$out"
    cp -a "$tree" "$out/tree"
    for p in "${patches[@]}"; do
        patch -d "$out/tree" -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch --quiet < "$p" \
            || fail "patch $(basename "$p") does not apply exactly (--fuzz=0): rebuild the variant to see where"
    done
    echo "$recipe" > "$out/.recipe-src"
    echo "rcuprof: patched source of $name in $out/tree"
    exit 0
fi

if [ -f "$out/build.json" ] && [ "$(cat "$out/.recipe" 2>/dev/null)" = "$recipe" ] \
   && [ -f "$out/tree/libcrypto.a" ]; then
    echo "rcuprof: variant $name is up to date (recipe ${recipe:0:12})"
    exit 0
fi
if [ "$tolerant" = 1 ] && [ -f "$out/.failed" ] \
   && [ "$(cut -f1 "$out/.failed")" = "$recipe" ]; then
    echo "rcuprof: variant $name failed to build: $(cut -f2- "$out/.failed"); other variants build on ('rcuprof variant remove ${name%@*}' drops it)"
    exit 0
fi

echo "rcuprof: building variant $name (recipe ${recipe:0:12})"
[ -z "$note" ] || echo "rcuprof: variant $name: $note"
rm -f "$out/build.json" "$out/.recipe" "$out/.failed"
rm -rf "$out/left-out"
rm -rf "$out/tree"
mkdir -p "$out"
cp -a "$tree" "$out/tree"
cd "$out/tree"
ver=$(awk -F= '/^(MAJOR|MINOR|PATCH)=/{printf "%s%s", (n++ ? "." : ""), $2}' VERSION.dat)

# The @@ line of hunk N of FILE in patch P (what a failed hunk was meant to
# change: its lines and the function git named).
hunk_header() {
    awk -v want="$2" -v n="$3" '
        /^\+\+\+ / { f = $2; sub(/^b\//, "", f); k = 0; next }
        /^@@ / && f == want { if (++k == n) { print; exit } }' "$1"
}

# Patches apply exactly or not at all: no fuzz (a hunk whose context does
# not match is never placed by its neighbours' lines: on another line's
# tree that puts code into the wrong function).  Offsets are allowed: the
# context still matches line for line.
patch_json="[]"
patches_out=()
for p in "${patches[@]}"; do
    base=$(basename "$p")
    if ! log=$(patch -p1 --fuzz=0 --forward --batch --dry-run < "$p" 2>&1); then
        file=$(printf '%s\n' "$log" | awk '/^(checking|patching) file /{f=$3} /FAILED|malformed|Only garbage|can.t find file/{print f; exit}')
        hunk=$(printf '%s\n' "$log" | grep -m1 -E 'FAILED|malformed|garbage|can.t find file|Reversed' || true)
        where=""
        if [[ "$hunk" =~ ^Hunk\ \#([0-9]+)\ FAILED ]] && [ -n "$file" ]; then
            where=$(hunk_header "$p" "$file" "${BASH_REMATCH[1]}")
            [ -z "$where" ] || where=", hunk $where"
        fi
        fail "patch $base does not apply exactly (--fuzz=0) to ${file:-the tree} (${hunk:-see patch output}$where): rebase it onto OpenSSL $ver or drop it from the variant"
    fi
    patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch --quiet < "$p"
    patches_out+=("{\"name\":\"$base\",\"sha256\":\"$(sha256sum "$p" | cut -d' ' -f1)\"}")
done
if [ ${#patches_out[@]} -gt 0 ]; then
    patch_json="[$(IFS=,; echo "${patches_out[*]}")]"
fi

# What was compiled, exactly: the patched source, before Configure.
tree_sha=$(find . -type f ! -name '.rcuprof-*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)

# Debug information names sources relative to the tree (DW_AT_comp_dir
# "."): the object is then the same in every tree, so ccache can share it
# without naming another variant's tree, and rcuprof resolves each path in
# the measured variant's own tree (build.json "tree").  Not a recipe input
# by itself: it follows from the tree's place, and the script is hashed.
prefix_map="-ffile-prefix-map=$out/tree=."
ccache_log=""
if command -v ccache >/dev/null 2>&1 && [ "${RCUPROF_NO_CCACHE:-0}" != 1 ]; then
    # One cache for every variant tree and every clone.  base_dir makes
    # absolute paths below it relative; with the prefix map ccache hashes
    # the mapped working directory ("."), so hash_dir stays on and a hit is
    # still exactly what this tree's compiler would have written.
    export CCACHE_DIR=${CCACHE_DIR:-${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}/ccache}
    export CCACHE_BASEDIR=$(dirname "$(dirname "$out")")
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
    # This build's own hits and misses (the cache's totals mix every build).
    ccache_log="$out/ccache-stats.log"
    rm -f "$ccache_log"
    export CCACHE_STATSLOG="$ccache_log"
    export CC="ccache ${CC:-gcc}"
fi

define_args=()
for d in "${defines[@]}"; do define_args+=("-D$d"); done
if ! ./Configure "${configure[@]}" "${cflags[@]}" "$prefix_map" "${define_args[@]}" > "$out/configure.log" 2>&1; then
    fail "Configure failed (options: ${configure[*]} ${cflags[*]}): see $out/configure.log"
fi
if ! { make -j"$jobs" build_generated && make -j"$jobs" libcrypto.a; } > "$out/make.log" 2>&1; then
    [ "$tolerant" = 1 ] || tail -n 20 "$out/make.log" >&2
    fail "make failed: see $out/make.log"
fi

if [ -n "$ccache_log" ] && [ -f "$ccache_log" ]; then
    # One "# file" line per ccache call, then its counters; calls that are
    # neither a hit nor a miss (preprocessing, empty output) are not counted.
    awk '/^(direct|preprocessed)_cache_hit$/{h++} /^cache_miss$/{m++}
         END{printf "rcuprof: variant %s: ccache hits %d of %d compiles (%d misses)\n", v, h, h + m, m}' \
        v="$name" "$ccache_log"
fi
cc_version=$(${CC:-cc} --version 2>/dev/null | head -n 1 | sed 's/"/\\"/g')
join_json() { local first=1 x; printf '['; for x in "$@"; do [ $first = 1 ] || printf ','; first=0; printf '"%s"' "${x//\"/\\\"}"; done; printf ']'; }
# The probe layer: present when its core patch was applied; absent says why
# when the configure step dropped it (spec "note").
probe_layer="\"probe_layer\":\"absent\""
for p in "${patches[@]}"; do
    case "$p" in */probes/0001-probes-core.patch) probe_layer="\"probe_layer\":\"present\"" ;; esac
done
[ -z "$note" ] || probe_layer="$probe_layer,\"probe_layer_note\":\"${note//\"/\\\"}\""
cat > "$out/build.json.tmp" <<JSON
{"variant":"$name","openssl_version":"$ver","line":"$line","source":$source_json,"patches":$patch_json,"configure":$(join_json "${configure[@]}"),"cflags":$(join_json "${cflags[@]}"),"defines":$(join_json "${defines[@]}"),"compiler":"$cc_version","recipe":"$recipe","patched_tree_sha256":"$tree_sha","libcrypto_sha256":"$(sha256sum libcrypto.a | cut -d' ' -f1)","tree":"${out//\"/\\\"}/tree","debug_paths":"tree-relative",$probe_layer}
JSON
echo "$recipe" > "$out/.recipe"
mv "$out/build.json.tmp" "$out/build.json"
echo "rcuprof: variant $name built"
