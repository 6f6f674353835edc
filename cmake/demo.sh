#!/usr/bin/env bash
# The default comparison of `make demo`: every built variant, EVP_MD_fetch
# with no write churn and then with a writer churning the store, 1 and 2
# threads, interleaved repetitions, compared with paired statistics.
# Results, tables and plots go to BUILD/demo/.
set -euo pipefail
build=${1:-build}
rcuprof="$build/bin/rcuprof"
reps=${RCUPROF_DEMO_REPS:-5}
threads=${RCUPROF_DEMO_THREADS:-1,2}
out="$build/demo"

"$rcuprof" variants
variants=$("$rcuprof" variants --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(n for n, v in d.items() if v.get("built") and not v.get("pending")))')
baseline=stock
case ",$variants," in *,stock,*) ;; *) baseline=${variants%%,*} ;; esac
rm -rf "$out"
mkdir -p "$out"
for churn in none query; do
    args=()
    [ "$churn" = none ] || args=(--writers 1 --churn "$churn")
    echo
    echo "== EVP_MD_fetch(SHA256), own lib ctx, churn: $churn; $reps interleaved blocks of 300 ms runs =="
    "$rcuprof" sweep --variants "$variants" --threads "$threads" --reps "$reps" \
        --duration-ms 300 --warmup-ms 100 "${args[@]}" --out "$out/$churn"
    "$rcuprof" report "$out/$churn/results.jsonl" --baseline "$baseline" --out "$out/$churn/report" >/dev/null
    cat "$out/$churn/report/results.md"
done
echo
echo "Tables, CSV, JSON and plots: $out/*/report/.  More: $rcuprof --help, docs/interfaces.md"
