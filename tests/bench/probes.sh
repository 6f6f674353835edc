#!/usr/bin/env bash
# Probe layer overhead (prints figures; not a test):
#   1. instructions per fetch under callgrind (repeatable): stock-pristine,
#      stock with --probes off, stock with --probes on (and the same for an
#      RCU variant when built).  Instructions are collected inside the op
#      (fetch_op) only, and differential: (Ir of N2 ops - Ir of N1 ops) /
#      (N2 - N1), so warm-up misses and first-use costs cancel out.
#   2. timed ratios at 1 and 2 threads against stock-pristine: interleaved
#      runs, the median of wall ns/op per configuration.
# usage: tests/bench/probes.sh [BUILD_DIR] [REPS]
set -euo pipefail
build=${1:-build}
reps=${2:-7}
bindir="$build/bin"
dur=${RCUPROF_BENCH_MS:-400}
n1=${RCUPROF_BENCH_N1:-2000}
n2=${RCUPROF_BENCH_N2:-12000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { [ -x "$bindir/rcuprof-stress-$1" ]; }
for v in stock-pristine stock; do
    have "$v" || { echo "probes.sh: $bindir/rcuprof-stress-$v is not built" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "probes.sh: valgrind is not installed" >&2; exit 1; }

# ir VARIANT OPS ARGS...: total instructions of one run under callgrind.
ir() {
    local v=$1 ops=$2 out="$tmp/cg.out"
    shift 2
    # Only inside fetch_op (src/stress/workloads/fetch.c, one op): the harness's own
    # waits and spins, which vary with timing, are not counted.
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=fetch_op \
        "$bindir/rcuprof-stress-$v" --rtt off --threads 1 --warmup-ms 0 \
        --ops "$ops" "$@" >/dev/null 2>"$tmp/vg.err" \
        || { echo "probes.sh: callgrind run of $v failed: $(tail -3 "$tmp/vg.err")" >&2; exit 1; }
    awk '/^summary:/{print $2; exit} /^totals:/{t=$2} END{if (t) print t}' "$out" | head -1
}
per_fetch() {  # VARIANT ARGS... -> instructions per fetch
    local v=$1 a b
    shift
    a=$(ir "$v" "$n1" "$@")
    b=$(ir "$v" "$n2" "$@")
    awk -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" 'BEGIN{printf "%.1f", (b - a) / (n2 - n1)}'
}

echo "rcuprof probe layer overhead, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "1. instructions per fetch (EVP_MD_fetch SHA256 + free, 1 thread, callgrind, ops $n1 vs $n2)"
base=$(per_fetch stock-pristine)
off=$(per_fetch stock --probes off)
on=$(per_fetch stock --probes on)
printf "   %-28s %10s\n" "stock-pristine" "$base"
printf "   %-28s %10s  (%+.1f)\n" "stock, probes off" "$off" "$(awk -v a="$off" -v b="$base" 'BEGIN{print a-b}')"
printf "   %-28s %10s  (%+.1f)\n" "stock, probes on (K=64)" "$on" "$(awk -v a="$on" -v b="$base" 'BEGIN{print a-b}')"
for v in rcu-sync; do
    have "$v" || continue
    roff=$(per_fetch "$v" --probes off)
    ron=$(per_fetch "$v" --probes on)
    printf "   %-28s %10s\n" "$v, probes off" "$roff"
    printf "   %-28s %10s  (%+.1f vs off)\n" "$v, probes on (K=64)" "$ron" "$(awk -v a="$ron" -v b="$roff" 'BEGIN{print a-b}')"
done

echo
echo "2. timed: median wall ns/op over $reps interleaved runs of ${dur} ms (EVP_MD_fetch SHA256)"
run() {  # name variant threads args...
    local name=$1 v=$2 n=$3
    shift 3
    "$bindir/rcuprof-stress-$v" --rtt off --threads "$n" --duration-ms "$dur" "$@" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["wall_ns_per_op"])' \
        >> "$tmp/t-$name-$n"
}
for r in $(seq "$reps"); do
    for n in 1 2; do
        printf '%s\n' pristine off on | shuf | while read -r c; do
            case $c in
            pristine) run pristine stock-pristine "$n" ;;
            off) run off stock "$n" --probes off ;;
            on) run on stock "$n" --probes on ;;
            esac
        done
    done
done
median() { sort -g "$1" | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for n in 1 2; do
    p=$(median "$tmp/t-pristine-$n"); o=$(median "$tmp/t-off-$n"); q=$(median "$tmp/t-on-$n")
    printf "   %d thread(s): pristine %.1f ns, off %.1f ns (ratio %.3f), on %.1f ns (ratio %.3f)\n" \
        "$n" "$p" "$o" "$(awk -v a="$o" -v b="$p" 'BEGIN{print a/b}')" \
        "$q" "$(awk -v a="$q" -v b="$p" 'BEGIN{print a/b}')"
done
