#!/usr/bin/env bash
# The probe layer's own cost (issue 26, item 2): each probed stock variant
# against its pristine twin (stock-pristine@LINE), in ONE interleaved sweep
# at 1 thread (rcuprof sweep: blocks in shuffled order, runs paired by
# block), with the probes on (as `run` and `sweep` leave them) and off.
# Prints, per line and mode,
# the change of wall ns/op with its 95% interval (rcuprof compare, paired),
# and whether it is within the 2% budget.  Prints figures; asserts nothing.
# usage: tests/bench/probe-cost.sh [BUILD_DIR] [REPS] [LINES]
#   LINES: comma-separated, default every line whose stock and
#   stock-pristine are both built.  RCUPROF_BENCH_MS: window per run (300).
set -euo pipefail
build=${1:-build}
reps=${2:-12}
bindir=$build/bin
dur=${RCUPROF_BENCH_MS:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name() { [ "$1" = 3.5 ] && echo "$2" || echo "$2@$1"; }
lines=${3:-}
if [ -z "$lines" ]; then
    for l in 3.5 3.6 4.0; do
        [ -x "$bindir/rcuprof-stress-$(name $l stock)" ] && [ -x "$bindir/rcuprof-stress-$(name $l stock-pristine)" ] \
            && lines="$lines,$l"
    done
    lines=${lines#,}
fi
[ -n "$lines" ] || { echo "probe-cost.sh: no line has both stock and stock-pristine built in $bindir" >&2; exit 1; }
vs=""
for l in ${lines//,/ }; do vs="$vs,$(name $l stock-pristine),$(name $l stock)"; done
vs=${vs#,}
echo "rcuprof probe layer cost, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
# Two sweeps: the probes on (what run and sweep do by default: counting),
# then off (the layer present but switched off: one branch per site).
for mode in on off; do
echo "sweep --probes $mode: $vs, 1 thread, $reps blocks of ${dur} ms, --rtt off"
rm -rf "$tmp/sw"
RCUPROF_BINDIR=$bindir "$bindir/rcuprof" sweep --variants "$vs" --threads 1 --reps "$reps" \
    --duration-ms "$dur" --warmup-ms 100 --rtt off --probes "$mode" --out "$tmp/sw" > "$tmp/sweep.log" 2>&1 \
    || { tail -3 "$tmp/sweep.log" >&2; exit 1; }
for l in ${lines//,/ }; do
    p=$(name $l stock-pristine) v=$(name $l stock)
    "$bindir/rcuprof" compare "$tmp/sw/results.jsonl" --baseline "$p" --format json > "$tmp/cmp.json"
    python3 - "$tmp/cmp.json" "$p" "$v" "$mode" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p, v, mode = sys.argv[2], sys.argv[3], sys.argv[4]
r = [r for r in d['rows'] if r['threads'] == 1][0]
c = r['changes'][v]; b = r['cells'][p]['geomean']; g = r['cells'][v]['geomean']
verdict = ('within 2%' if c['change_hi_pct'] <= 2 else
           'above 2%' if c['change_lo_pct'] > 2 else 'not resolved against 2%')
print("  %-18s probes %-3s %7.1f ns/op against %s %7.1f ns/op: %+.1f%% [%+.1f, %+.1f] (%d pairs, %s), %s"
      % (v + "/1t", mode, g, p, b, c['change_pct'], c['change_lo_pct'], c['change_hi_pct'],
         c['pairs'], 'resolved' if c['resolved'] else 'not resolved', verdict))
PY
done
done

# Where the cost is, repeatably: instructions per cached fetch+free under
# callgrind (bench_fetch_loop: the library's probes stay off, so this is
# the layer's cost when off; on, the calibration's rdtscp stops valgrind),
# the difference of 2000 and 12000 fetches, and the functions that differ
# most from the pristine twin.
command -v valgrind >/dev/null || { echo "(callgrind part skipped: valgrind is not installed)"; exit 0; }
cg() {  # VARIANT N -> callgrind out file
    local f="$tmp/cg.$1.$2"
    valgrind --tool=callgrind --callgrind-out-file="$f" --toggle-collect=fetch_loop_ops \
        "$bindir/bench_fetch_loop-${1/@/_at_}" "$2" >/dev/null 2>"$tmp/vg.err" \
        || { echo "callgrind of $1 failed: $(tail -2 "$tmp/vg.err")" >&2; exit 1; }
    echo "$f"
}
ir() { awk '/^summary:/{print $2}' "$1"; }
fns() { callgrind_annotate --inclusive=no --threshold=100 "$1" 2>/dev/null \
        | grep -E '^ *[0-9,]+ \(' | grep -v PROGRAM | sed 's/ \[.*//' \
        | awk '$NF ~ /:/ {gsub(",","",$1); print $NF, $1}' | sort; }
echo "instructions per cached fetch+free (callgrind, probes off, 12000 - 2000 fetches):"
for l in ${lines//,/ }; do
    p=$(name $l stock-pristine)
    pa=$(cg "$p" 2000) pb=$(cg "$p" 12000)
    base=$(( ($(ir "$pb") - $(ir "$pa")) / 10000 ))
    printf "  %-18s %6d\n" "$p" "$base"
    for v in $(name $l stock) $(name $l lockfree); do
        [ -x "$bindir/bench_fetch_loop-${v/@/_at_}" ] || continue
        va=$(cg "$v" 2000) vb=$(cg "$v" 12000)
        n=$(( ($(ir "$vb") - $(ir "$va")) / 10000 ))
        printf "  %-18s %6d  (%+d, %+.1f%%)\n" "$v" "$n" $((n - base)) \
            "$(awk -v a="$n" -v b="$base" 'BEGIN{print (a-b)*100/b}')"
        [ "${v%%@*}" = stock ] || continue
        join -a1 -a2 -e0 -o 0,1.2,2.2 <(fns "$pb") <(fns "$vb") \
            | awk '{d=($3-$2)/12000; if (d>=2||d<=-2) printf "      %+6.1f %s\n", d, $1}' | sort -rn | head -8
    done
done
