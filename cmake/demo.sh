#!/usr/bin/env bash
# The default comparison of `make demo`: every built variant, EVP_MD_fetch
# with no write churn and then with a writer churning the store, 1 and 2
# threads, interleaved repetitions, compared with paired statistics.
# Results, tables and plots go to BUILD/demo/.
set -euo pipefail
build=${1:-build}
rcuprof="$build/bin/rcuprof"
reps=${RCUPROF_DEMO_REPS:-5}
threads=${RCUPROF_DEMO_THREADS:-1,2,4,8}
out="$build/demo"

"$rcuprof" variants
variants=$("$rcuprof" variants --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(n for n, v in d.items() if v.get("built") and not v.get("pending")))')
baseline=stock
case ",$variants," in *,stock,*) ;; *) baseline=${variants%%,*} ;; esac
# Without writes, rcu-sync and rcu-nosync run the same read path: their
# difference is the noise floor of this machine (an A/A comparison).
aa_floor() {
    case ",$variants," in *,rcu-sync,*) ;; *) return 0 ;; esac
    case ",$variants," in *,rcu-nosync,*) ;; *) return 0 ;; esac
    "$rcuprof" compare "$1" --baseline rcu-sync --format json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("\nA/A noise floor: rcu-nosync against rcu-sync with no writes (the same read path;")
print("any change here is noise, so smaller changes above are not resolved):")
for r in d["rows"]:
    c = r["changes"]["rcu-nosync"]
    print("  %3d threads: %+6.1f%% [%+.1f, %+.1f], MDE %.1f%%%s" % (
        r["threads"], c["change_pct"], c["change_lo_pct"], c["change_hi_pct"],
        c["mde_pct"], "  (oversubscribed)" if r["oversubscribed"] else ""))'
}
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
    if [ "$churn" = none ]; then
        aa_floor "$out/$churn/results.jsonl"
    fi
done
echo
echo "Tables, CSV, JSON and plots: $out/*/report/.  More: $rcuprof --help, docs/interfaces.md"
