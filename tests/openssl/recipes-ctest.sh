#!/usr/bin/env bash
# ctest wrapper: OpenSSL's own recipes on a variant, in a tree of its own
# (tests and apps enabled), sharing the variants' ccache.
# usage: recipes-ctest.sh SPEC OUT_DIR
# CONTROL_SPEC, CONTROL_OUT (optional): a control variant (stock-pristine),
# run only when SPEC's recipes fail, to say whether the failure is ours.
set -euo pipefail
spec=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
if command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR=${CCACHE_DIR:-${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}/ccache}
    export CCACHE_BASEDIR=$(dirname "$out")
    export CC="ccache gcc"
fi
extra=${EXTRA_CONFIG:-}
# recipes SPEC OUT: the patched tree, then the recipes in it
recipes() {
    RCUPROF_PATCH_ONLY=1 "$src/cmake/build-variant.sh" "$1" "$2" 2 || return 1
    # Debug paths relative to the tree, as in cmake/build-variant.sh:
    # objects shared through ccache then never name another tree.
    EXTRA_CONFIG="$extra -ffile-prefix-map=$2/tree=." "$here/run-recipes.sh" "$2/tree"
}
rc=0
recipes "$spec" "$out" || rc=$?
if [ "$rc" != 0 ] && [ -n "${CONTROL_SPEC:-}" ]; then
    cname=$(awk -F'\t' '$1=="name"{print $2}' "$CONTROL_SPEC")
    echo "== the same recipes on the control, $cname"
    if recipes "$CONTROL_SPEC" "$CONTROL_OUT"; then
        echo "FAIL: $cname passes: the failure above is our patches'"
    else
        echo "FAIL: $cname fails too: the failure above is OpenSSL's or this machine's"
    fi
fi
exit "$rc"
