#!/usr/bin/env bash
# Delay sites' cost when no site is armed (prints figures; not a test):
# instructions per fetch under callgrind (repeatable), single-threaded
# cached fetches (EVP_MD_fetch SHA256 + free) of bench_fetch_loop-<variant>
# (tests/bench/fetch_loop.c), counted inside fetch_loop_ops only and
# differential ((Ir of N2 ops - Ir of N1 ops) / (N2 - N1)).  The stress
# driver is not used here: its instruction count per op moved by hundreds
# between identical runs on this machine.
#   stock-pristine          no patch
#   BEFORE (optional)       fetch_loop built against the series without the
#                           delay sites: RCUPROF_DELAY_BEFORE=path/to/binary;
#                           callgrind's per-function differences are printed
#   stock                   the probe layer and the delay sites (3 per fetch)
#   rcu-sync, rcu-nosync    when built (5 sites, 4 of them per fetch)
# usage: tests/bench/delay-cost.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
bindir="$build/bin"
n1=${RCUPROF_BENCH_N1:-2000}
n2=${RCUPROF_BENCH_N2:-12000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v valgrind >/dev/null || { echo "delay-cost.sh: valgrind is not installed" >&2; exit 1; }
for v in stock-pristine stock; do
    [ -x "$bindir/bench_fetch_loop-$v" ] \
        || { echo "delay-cost.sh: $bindir/bench_fetch_loop-$v is not built" >&2; exit 1; }
done

ir() {  # BINARY OPS [OUT] -> total instructions inside fetch_loop_ops
    local out=${3:-$tmp/cg.out}
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=fetch_loop_ops \
        "$1" "$2" >/dev/null 2>"$tmp/vg.err" \
        || { echo "delay-cost.sh: callgrind run of $1 failed: $(tail -3 "$tmp/vg.err")" >&2; exit 1; }
    awk '/^summary:/{print $2; exit}' "$out"
}
per_fetch() {  # BINARY [OUT_PREFIX] -> instructions per fetch
    local a c
    a=$(ir "$1" "$n1")
    c=$(ir "$1" "$n2" "${2:-$tmp/cg2.out}")
    awk -v a="$a" -v b="$c" -v n1="$n1" -v n2="$n2" 'BEGIN{printf "%.1f", (b - a) / (n2 - n1)}'
}
row() {  # LABEL FIGURE REFERENCE
    printf "   %-40s %10s  (%+.1f)\n" "$1" "$2" "$(awk -v a="$2" -v b="$3" 'BEGIN{print a-b}')"
}
funcs() {  # CALLGRIND_OUT -> "function instructions" lines
    callgrind_annotate --threshold=100 "$1" 2>/dev/null | grep -E '^ *[0-9,]+ \(' \
        | grep -v 'PROGRAM TOTALS' | sed 's/ \[.*//; s/([^)]*)//' \
        | awk '{gsub(",", "", $1); if ($2 != "=>" && $2 ~ /:/) print $2, $1}' | sort
}

echo "rcuprof delay sites, cost when off, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "instructions per fetch (EVP_MD_fetch SHA256 + free, 1 thread, callgrind, ops $n1 vs $n2)"
base=$(per_fetch "$bindir/bench_fetch_loop-stock-pristine")
printf "   %-40s %10s\n" "stock-pristine" "$base"
ref=$base
if [ -n "${RCUPROF_DELAY_BEFORE:-}" ]; then
    before=$(per_fetch "$RCUPROF_DELAY_BEFORE" "$tmp/before.out")
    row "stock without delay sites (BEFORE)" "$before" "$base"
    ref=$before
fi
off=$(per_fetch "$bindir/bench_fetch_loop-stock" "$tmp/after.out")
row "stock, no site armed, probes off" "$off" "$ref"
for v in rcu-sync rcu-nosync; do
    [ -x "$bindir/bench_fetch_loop-$v" ] || continue
    printf "   %-40s %10s\n" "$v, no site armed, probes off" \
        "$(per_fetch "$bindir/bench_fetch_loop-$v")"
done
if [ -n "${RCUPROF_DELAY_BEFORE:-}" ] && command -v callgrind_annotate >/dev/null; then
    echo "per function, stock against BEFORE (instructions per fetch, $n2 fetches):"
    join -a1 -a2 -e0 -o 0,1.2,2.2 <(funcs "$tmp/before.out") <(funcs "$tmp/after.out") \
        | awk -v n="$n2" '$2 != $3 { d = ($3 - $2) / n; if (d > 0.05 || d < -0.05)
                                     printf "   %-60s %+8.2f\n", $1, d }'
fi
