#!/usr/bin/env bash
# Instrument overhead (prints figures; not a test), interleaved runs:
#   counters: --events default against none, at 1 and 64 threads (target
#             within 1%);
#   sampling: --sample on at 1 kHz against off, at 1 and 2 threads (target
#             within 3%).
# usage: tests/bench/overhead.sh [BUILD_DIR] [VARIANT] [REPS]
set -euo pipefail
build=${1:-build}
variant=${2:-stock}
reps=${3:-10}
rcuprof="$build/bin/rcuprof"
dur=${RCUPROF_BENCH_MS:-500}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() {  # name threads args...
    local name=$1 n=$2
    shift 2
    "$rcuprof" run --variant "$variant" --threads "$n" --duration-ms "$dur" "$@" -t >> "$tmp/$name-$n"
}
echo "rcuprof instrument overhead: variant $variant, $(nproc) CPUs, $reps interleaved runs of ${dur} ms, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$reps"); do
    for n in 1 64; do
        for c in plain counters; do echo $c; done | shuf | while read -r c; do
            if [ "$c" = plain ]; then one plain "$n"; else one counters "$n" --events default; fi
        done
    done
    for n in 1 2; do
        for c in plain sampled; do echo $c; done | shuf | while read -r c; do
            if [ "$c" = plain ]; then one splain "$n"; else one sampled "$n" --sample on --sample-freq 1000; fi
        done
    done
done
/usr/bin/python3 - "$tmp" <<'PY'
import os, statistics as st, sys
d = sys.argv[1]
v = lambda name, n: [float(x) for x in open(os.path.join(d, f"{name}-{n}")).read().split()]
def row(label, a, b, n, target):
    x, y = v(a, n), v(b, n)
    r = st.median(y) / st.median(x)
    # per-rep ratios show the spread the medians hide
    rs = sorted(q / p for p, q in zip(x, y))
    print(f"  {label:<28} {n:>3} threads: off {st.median(x):.4f} us, on {st.median(y):.4f} us, "
          f"ratio {r:.3f} (per-rep ratios {rs[0]:.3f}..{rs[-1]:.3f}; target <= {target})")
print("\nmedians of wall us/op:")
for n in (1, 64):
    row("counters (--events default)", "plain", "counters", n, 1.01)
for n in (1, 2):
    row("sampling (1 kHz)", "splain", "sampled", n, 1.03)
PY
