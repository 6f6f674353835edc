#!/usr/bin/env bash
# Benchmark of the comparison method (prints figures; not a test).
#
# The same A/B and A/A questions, answered by the old design and the new one,
# trial after trial, alternating:
#   old: 5 interleaved blocks, the Wilcoxon signed-rank p with Holm
#        (what compare reported before: p_wilcoxon_holm);
#   new: 5 blocks as a first stage, then blocks added until every MDE is at
#        most the target or the trial's time budget is spent (sweep
#        --target-mde/--max-time), decided by the coherent paired t on log
#        ratios with Holm (compare's `resolved`).
# A/B: stock against rcu-sync; A/A: rcu-nosync against rcu-sync, with no
# writes (the same read path).  Prints per trial the blocks and seconds
# used, the MDE reached and what was resolved, then per design the median
# MDE and the A/A false-positive rate with its exact 95% interval, over the
# real trials and over resampled null trials (tests/bench/method.py).
#
# usage: tests/bench/method.sh [BUILD_DIR] [TRIALS]
# environment: RCUPROF_BENCH_BUDGET (seconds per new-design trial, 60),
#   RCUPROF_BENCH_TARGET (target MDE %, 5), RCUPROF_BENCH_THREADS (1,2),
#   RCUPROF_BENCH_MS (run length, 200), RCUPROF_BENCH_RESAMPLES (400),
#   RCUPROF_BENCH_KEEP (a folder to keep the trials' results files in)
set -euo pipefail
build=${1:-build}
trials=${2:-6}
rcuprof="$build/bin/rcuprof"
budget=${RCUPROF_BENCH_BUDGET:-60}
target=${RCUPROF_BENCH_TARGET:-5}
threads=${RCUPROF_BENCH_THREADS:-1,2}
ms=${RCUPROF_BENCH_MS:-200}
resamples=${RCUPROF_BENCH_RESAMPLES:-400}
if [ -n "${RCUPROF_BENCH_KEEP:-}" ]; then
    tmp=$RCUPROF_BENCH_KEEP
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi
[ -x "$rcuprof" ] || { echo "rcuprof: method.sh: $rcuprof not built: run make first" >&2; exit 1; }

echo "rcuprof method benchmark: $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $trials trials per design, runs of $ms ms, threads $threads, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "old: 5 blocks, Wilcoxon (Holm); new: first stage 5, target MDE $target%, budget ${budget}s, paired t on log ratios (Holm)"
common=(--variants rcu-sync,rcu-nosync,stock --threads "$threads"
        --duration-ms "$ms" --warmup-ms 50 --reps 5)
for i in $(seq "$trials"); do
    # Alternate which design goes first, so drift hits both alike.
    order="old new"
    [ $((i % 2)) -eq 0 ] && order="new old"
    for design in $order; do
        dir="$tmp/$design-$i"
        args=()
        [ "$design" = new ] && args=(--target-mde "$target" --max-time "${budget}s")
        s=$(date +%s.%N)
        "$rcuprof" sweep "${common[@]}" "${args[@]}" --out "$dir" \
            > "$dir.log" 2>&1 || { tail -n 3 "$dir.log" >&2; exit 1; }
        e=$(date +%s.%N)
        awk -v e="$e" -v s="$s" 'BEGIN { print e - s }' > "$dir.seconds"
        "$rcuprof" compare "$dir/results.jsonl" --baseline rcu-sync \
            --format json --out "$dir/compare.json"
        echo "trial $i $design: $(tail -n 1 "$dir.log")"
    done
done
/usr/bin/python3 "$(dirname "$0")/method.py" "$rcuprof" "$tmp" "$trials" \
    "$resamples"
