#!/usr/bin/env bash
# ctest wrapper: OpenSSL's own recipes on a variant, in a tree of its own
# (tests and apps enabled), sharing the variants' ccache.
# usage: recipes-ctest.sh SPEC OUT_DIR
set -euo pipefail
spec=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
RCUPROF_PATCH_ONLY=1 "$src/cmake/build-variant.sh" "$spec" "$out" 2
if command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR=${CCACHE_DIR:-${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}/ccache}
    export CCACHE_BASEDIR=$(dirname "$out")
    export CC="ccache gcc"
fi
# Debug paths relative to the tree, as in cmake/build-variant.sh: objects
# shared through ccache then never name another tree.
export EXTRA_CONFIG="${EXTRA_CONFIG:-} -ffile-prefix-map=$out/tree=."
exec "$here/run-recipes.sh" "$out/tree"
