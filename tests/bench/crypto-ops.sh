#!/usr/bin/env bash
# mac and cipher benchmark (prints figures; not a test).  rcuprof's per-op
# cost of the peer's ops (--workload mac|cipher, 1 thread) beside a minimal
# loop of our own (tests/bench/crypto_loop.c) that makes the same calls and
# reads a clock per op, as perftools' evp_mac / evp_cipher do; and rcuprof
# with --compat clock (the same clock read per op, on rcuprof's harness).
# Runs are interleaved in a shuffled order per repetition; the load average
# is printed before and after (this machine is shared: read the spread).
# Two figures per cell: wall us per op (perftools' figure) and the thread's
# CPU us per op (leaves out time spent waiting for a CPU, which dominates
# wall time when other builds load the machine).
#
# usage: tests/bench/crypto-ops.sh [BUILD_DIR] [VARIANT] [REPS] [SECONDS]
#   CIPHER=AES-256-CBC  the cipher (default AES-128-CBC, perftools' default)
set -euo pipefail
build=${1:-build}
variant=${2:-stock-pristine}
reps=${3:-5}
secs=${4:-2}
cipher=${CIPHER:-AES-128-CBC}
rcuprof="$build/bin/rcuprof"
loop="$build/bin/bench_crypto_loop-$variant"
[ -x "$loop" ] || { echo "rcuprof: $loop is not built: build variant $variant (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms=$((secs * 1000))

# One run -> "wall_us cpu_us" appended to $tmp/KIND-MODE-HOW.
rc_json() {
    /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)["run"]; print(r["wall_ns_per_op"]/1e3, r["cpu_ns_per_op"]/1e3)'
}
cell() {  # kind(mac|cipher) mode(shared|isolated) how(rcuprof|clock|loop)
    local k=$1 m=$2 h=$3 f=() c=() line
    [ "$k" = cipher ] && f=(--fetch "CIPHER:$cipher")
    [ "$h" = clock ] && c=(--compat clock)
    case $h in
    rcuprof|clock)
        "$rcuprof" run --variant "$variant" --workload "$k" --mode "$m" \
            -n 1 -d "$ms" -w 200 --rtt off "${f[@]}" "${c[@]}" --json \
            | rc_json >> "$tmp/$k-$m-$h" ;;
    loop)
        line=$("$loop" "$k" "$m" "$secs" 1 "$cipher")
        echo "$line" | awk '{print $1, $2}' >> "$tmp/$k-$m-$h"
        echo "$line" | awk '{print $4}' >> "$tmp/clock-ns" ;;
    esac
}

echo "mac/cipher ops benchmark: variant $variant, cipher $cipher, $(nproc) CPUs, $reps interleaved repetitions of $secs s per run, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$reps"); do
    for k in mac cipher; do
        for m in shared isolated; do
            for h in rcuprof clock loop; do echo "$k $m $h"; done
        done
    done | shuf | while read -r k m h; do cell "$k" "$m" "$h"; done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 - "$tmp" <<'PY'
import os, statistics as st, sys
d = sys.argv[1]
def vals(name, col=None):
    rows = [l.split() for l in open(os.path.join(d, name)) if l.strip()]
    return [float(r[0 if col is None else col]) for r in rows]
clk = st.median(vals("clock-ns"))
print(f"\none gettimeofday (the loop's clock read), CPU time, median of the runs: {clk:.1f} ns")
for col, what in ((1, "CPU"), (0, "wall")):
    print(f"\n{what} us per op, 1 thread: median [min-max] over the repetitions")
    print(f"  {'op':<16} {'rcuprof':>24} {'rcuprof --compat clock':>24} {'minimal loop':>24}  loop - rcuprof  minus clock  loop - (compat clock)")
    for k in ("mac", "cipher"):
        for m in ("shared", "isolated"):
            row, med = [], {}
            for h in ("rcuprof", "clock", "loop"):
                v = vals(f"{k}-{m}-{h}", col)
                med[h] = st.median(v)
                row.append(f"{med[h]:.4f} [{min(v):.4f}-{max(v):.4f}]")
            gap = (med["loop"] - med["rcuprof"]) * 1000
            gc = (med["loop"] - med["clock"]) * 1000
            print(f"  {k + ' ' + m:<16} {row[0]:>24} {row[1]:>24} {row[2]:>24}  {gap:+9.1f} ns {gap - clk:+9.1f} ns {gc:+9.1f} ns")
PY
