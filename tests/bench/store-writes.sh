#!/usr/bin/env bash
# Method-store write costs per variant, side by side (prints figures; not a
# test): one cache_set, a fetch that misses, a cached fetch, the first fetch
# of an operation.  tests/openssl/bench_store_writes.c does the measuring.
# usage: tests/bench/store-writes.sh [BUILD_DIR] [VARIANTS...]
set -euo pipefail
build=${1:-build}
shift || true
variants=${*:-stock rcu-sync rcu-nosync}
echo "rcuprof store-write benchmark, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for v in $variants; do
    b="$build/bin/bench_store_writes-$v"
    [ -x "$b" ] || { echo "$v: not built ($b)"; continue; }
    echo
    "$b"
done
