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
# Then, with valgrind, instructions per op under callgrind (not timed, so
# not disturbed by the load): rcuprof's worker thread and the minimal loop,
# each the difference between runs of N and 2N ops (set-up cancels out).
#
# usage: tests/bench/crypto-ops.sh [BUILD_DIR] [VARIANT] [REPS] [SECONDS]
#   REPS 0: only the instruction counts
#   CIPHER=AES-256-CBC  the cipher (default AES-128-CBC, perftools' default)
#   CALLGRIND=0         skip the instruction counts; CALLGRIND_OPS=N (20000)
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
if [ "$reps" -gt 0 ]; then
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
fi


[ "${CALLGRIND:-1}" = 0 ] && exit 0
command -v valgrind >/dev/null || { echo "(no valgrind: instruction counts skipped)"; exit 0; }
n=${CALLGRIND_OPS:-20000}
drv="$build/bin/rcuprof-stress-$variant"
# cg_fn FUNC FILE...: "calls inclusive_Ir thread_total_Ir" of FUNC over
# its call sites, in the callgrind file (one per thread) that calls it.
cg_fn() {
    /usr/bin/python3 - "$@" <<'PY'
import re, sys
fn, files = sys.argv[1], sys.argv[2:]
best = (0, 0, 0)
for f in files:
    names, calls, incl, total, want, pending = {}, 0, 0, 0, False, 0
    for line in open(f):
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3).strip()
            want = m.group(1) == "cfn" and names.get(m.group(2)) == fn
            continue
        if line.startswith("calls=") and want:
            calls += int(line.split()[0][6:])
            pending = 1
            continue
        if pending:
            incl += int(line.split()[1])
            pending, want = 0, False
            continue
        if line.startswith("totals:") or line.startswith("summary:"):
            total = int(line.split()[1])
    if calls > best[0]:
        best = (calls, incl, total)
print(*best)
PY
}
cg_driver() {  # kind mode ops -> "calls incl total" of crypto_op
    local f=() d="$tmp/cg-$1-$2-$3"
    [ "$1" = cipher ] && f=(--fetch="CIPHER:$cipher")
    mkdir -p "$d"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$d/cg.%p" \
        "$drv" --workload="$1" --mode="$2" --threads=1 --ops="$3" --warmup-ms=0 \
        --rtt=off "${f[@]}" > /dev/null 2>&1
    cg_fn crypto_op "$d"/cg.*
}
cg_loop() {  # kind mode ops -> "calls incl total" of loop_op
    local d="$tmp/cgl-$1-$2-$3"
    mkdir -p "$d"
    valgrind --tool=callgrind --callgrind-out-file="$d/cg" "$loop" "$1" "$2" 100000 1 "$cipher" "$3" > /dev/null 2>&1
    cg_fn loop_op "$d/cg"
}
echo
echo "instructions per op under callgrind (runs of $n and $((2 * n)) ops, the difference):"
echo "  'op': the op function alone (rcuprof's crypto_op, the loop's loop_op), inclusive, per call;"
echo "  'per op': everything the thread did per op (op + harness, or op + clock read + loop)"
printf '  %-16s %10s %10s %8s %12s %12s %14s\n' op "rcuprof op" "loop op" "diff" "rcuprof/op" "loop/op" "loop - rcuprof"
for k in mac cipher; do
    for m in shared isolated; do
        read -r ac1 ai1 at1 <<< "$(cg_driver "$k" "$m" "$n")"
        read -r ac2 ai2 at2 <<< "$(cg_driver "$k" "$m" $((2 * n)))"
        read -r bc1 bi1 bt1 <<< "$(cg_loop "$k" "$m" "$n")"
        read -r bc2 bi2 bt2 <<< "$(cg_loop "$k" "$m" $((2 * n)))"
        awk -v k="$k $m" -v ac1="$ac1" -v ai1="$ai1" -v at1="$at1" -v ac2="$ac2" -v ai2="$ai2" -v at2="$at2" \
            -v bc1="$bc1" -v bi1="$bi1" -v bt1="$bt1" -v bc2="$bc2" -v bi2="$bi2" -v bt2="$bt2" 'BEGIN{
            aop = (ai2 - ai1) / (ac2 - ac1); bop = (bi2 - bi1) / (bc2 - bc1)
            a = (at2 - at1) / (ac2 - ac1); b = (bt2 - bt1) / (bc2 - bc1)
            printf "  %-16s %10.1f %10.1f %+8.1f %12.1f %12.1f %+14.1f\n", k, aop, bop, bop - aop, a, b, b - a }'
    done
done
