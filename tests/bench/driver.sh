#!/usr/bin/env bash
# Driver benchmark (prints figures; not a test).  Interleaved runs:
#   1. the empty op's ns/op at 1 thread (the harness's own cost; target <= 1)
#   2. EVP_MD_fetch on the clean harness against --compat perftools at 1 and
#      2 threads: the ratio, and each artefact's share of the difference
#   3. the coefficient of variation over the runs at 1 and 2 threads, both
# usage: tests/bench/driver.sh [BUILD_DIR] [VARIANT] [REPS]
set -euo pipefail
build=${1:-build}
variant=${2:-stock}
reps=${3:-10}
rcuprof="$build/bin/rcuprof"
dur=${RCUPROF_BENCH_MS:-500}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # name threads args... -> appends one us/op to $tmp/name-threads
    local name=$1 n=$2
    shift 2
    "$rcuprof" run --variant "$variant" --threads "$n" --duration-ms "$dur" "$@" -t >> "$tmp/$name-$n"
}

echo "rcuprof driver benchmark: variant $variant, $(nproc) CPUs, $reps interleaved runs of ${dur} ms, $(date -u +%Y-%m-%dT%H:%MZ)"
for r in $(seq "$reps"); do
    run empty 1 --workload empty
    for n in 1 2; do
        for c in none perftools clock nobarrier early-deadline unpadded; do
            echo "$c"
        done | shuf | while read -r c; do run "$c" "$n" --compat "$c"; done
    done
done

/usr/bin/python3 - "$tmp" <<'PY'
import os, statistics as st, sys
d = sys.argv[1]
def vals(name, n):
    return [float(x) for x in open(os.path.join(d, f"{name}-{n}")).read().split()]
def med(name, n): return st.median(vals(name, n))
def cv(name, n):
    v = vals(name, n); return 100 * st.stdev(v) / st.mean(v)
e = vals("empty", 1)
print(f"\nempty op, 1 thread: {1000 * st.median(e):.3f} ns/op (median; min {1000 * min(e):.3f}, max {1000 * max(e):.3f}); target <= 1 ns")
print("\nEVP_MD_fetch(SHA256), us/op (median)    1 thread   2 threads")
for name in ("none", "perftools"):
    print(f"  {'clean harness' if name == 'none' else '--compat perftools':<36} {med(name, 1):9.4f}  {med(name, 2):9.4f}")
print(f"  {'ratio perftools / clean':<36} {med('perftools', 1) / med('none', 1):9.3f}  {med('perftools', 2) / med('none', 2):9.3f}")
print("\neach artefact alone, change vs clean (share of the perftools change):")
for a in ("clock", "nobarrier", "early-deadline", "unpadded"):
    row = []
    for n in (1, 2):
        base, full = med("none", n), med("perftools", n)
        dlt = med(a, n) - base
        share = 100 * dlt / (full - base) if full != base else float("nan")
        row.append(f"{100 * dlt / base:+7.1f}% ({share:5.0f}%)")
    print(f"  {a:<16} 1 thread {row[0]}   2 threads {row[1]}")
print("\ncoefficient of variation over the runs:")
for name in ("none", "perftools"):
    print(f"  {'clean harness' if name == 'none' else '--compat perftools':<20} 1 thread {cv(name, 1):5.1f}%   2 threads {cv(name, 2):5.1f}%")
PY
