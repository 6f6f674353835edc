#!/usr/bin/env bash
# The commands that produced docs/case-study-24344/ (docs/case-study-24344.md).
# Run from the top of the clone after `make demo` (or cmake --build build).
# If others may rebuild build/ meanwhile, run from a private copy of the
# binaries (what was done here: a rebuild during a sweep makes its points
# fail with "Permission denied" and mixes two driver builds):
#   mkdir -p /tmp/rcuprof-snap/bin && cp build/variants.json /tmp/rcuprof-snap/ &&
#   cp build/bin/rcuprof build/bin/rcuprof-stress-* /tmp/rcuprof-snap/bin/ &&
#   RCUPROF=/tmp/rcuprof-snap/bin/rcuprof docs/case-study-24344/run.sh
# Takes about 20 minutes on a 2-CPU machine; more when the machine is loaded.
# Every output folder must not exist yet (a sweep refuses an existing
# results file): move the committed ones aside first to measure again.
# Raw sampled results go to $SAMPLES (not committed: megabytes of samples);
# their attribution reports are committed as text and JSON.
set -euo pipefail
R=${RCUPROF:-build/bin/rcuprof}
D=docs/case-study-24344
SAMPLES=${SAMPLES:-/tmp/rcuprof-case-study-samples}
V=stock,rcu-sync,rcu-nosync
mkdir -p "$SAMPLES" "$D/attribute"
# A sweep exits 1 when a point failed; it is recorded in the file, so go on.
step() { echo >&2 "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*"; "$@" || echo "== exit $?"; }

# 1. No write churn: the loop #24344's figures came from.
step $R sweep --variants $V --threads 1,2 --reps 12 --duration-ms 300 --seed 2434401 --out $D/nochurn-2cpu
step $R sweep --variants $V --threads 1,2,4,8,16,32,64 --reps 5 --duration-ms 300 --seed 2434402 --out $D/nochurn
# 2. One writer churning the store with unique optional queries (cache_set).
step $R sweep --variants $V --threads 1,2 --reps 12 --duration-ms 300 --writers 1 --churn query --seed 2434403 --out $D/churn-2cpu
step $R sweep --variants $V --threads 4,8,16 --reps 5 --duration-ms 300 --writers 1 --churn query --seed 2434404 --timeout 60 --out $D/churn
# 3. The raw RCU read lock (--workload rcu), without and with a synchronizing writer.
step $R sweep --variants $V --threads 1,2,4 --reps 6 --duration-ms 300 --workload rcu --seed 2434405 --out $D/rcu-readers
step $R sweep --variants $V --threads 1,2,4 --reps 6 --duration-ms 300 --workload rcu --writers 1 --churn sync --seed 2434406 --out $D/rcu-sync-writer
# 4. Sampled runs: where each build's read side spends its time.
# Two runs of each, interleaved: the spread between them is the noise of one sampled run.
for rep in 1 2; do
    for v in stock rcu-sync rcu-nosync; do
        step $R run --variant $v --threads 2 --duration-ms 1000 --sample on --output "$SAMPLES/$v-nochurn-$rep.json" > /dev/null
        step $R run --variant $v --threads 2 --duration-ms 1000 --writers 1 --churn query --sample on --output "$SAMPLES/$v-churn-$rep.json" > /dev/null
    done
done
for f in "$SAMPLES"/*.json; do
    b=$(basename "$f" .json)
    $R attribute "$f" --top 10 > "$D/attribute/$b.txt"
    $R attribute "$f" --json --top 10 > "$D/attribute/$b.json"
done
# 5. whatif (issue 17): what the read lock's own time costs an op, by
# delay injection at 1 and 2 threads: rcu-sync's acquire (rcu_read_lock)
# and stock's rwlock read hold (store_read_lock), without and with one
# writer churning the query cache.
step $R whatif --variant rcu-sync --site rcu_read_lock --delays 0,50,100,200 --threads 1,2 --reps 8 --duration-ms 300 --seed 2434407 --out $D/whatif-rcu-sync
step $R whatif --variant stock --site store_read_lock --delays 0,50,100,200 --threads 1,2 --reps 8 --duration-ms 300 --seed 2434408 --out $D/whatif-stock
step $R whatif --variant rcu-sync --site rcu_read_lock --delays 0,50,100,200 --threads 1,2 --reps 8 --duration-ms 300 --writers 1 --churn query --seed 2434409 --out $D/whatif-rcu-sync-churn
step $R whatif --variant stock --site store_read_lock --delays 0,50,100,200 --threads 1,2 --reps 8 --duration-ms 300 --writers 1 --churn query --seed 2434410 --out $D/whatif-stock-churn
# 6. The tables of the case study and the report folders.
for s in nochurn-2cpu nochurn churn-2cpu churn rcu-readers rcu-sync-writer; do
    step $R report $D/$s/results.jsonl --baseline stock --out $D/$s/report
done
echo "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): done"
