#!/usr/bin/env bash
# The default comparison of `make demo`: stock against the two RCU stores,
# EVP_MD_fetch at 1 and 2 threads, first with no write churn and then with a
# writer churning the store's query cache.  Each sweep is adaptive (sweep
# --target-mde/--max-time): a first stage of interleaved blocks, then blocks
# added until every change is resolved to the target or the time budget is
# spent.  The output starts with what the data decided: the resolved
# changes, and the A/A row (rcu-nosync against rcu-sync with no writes: the
# same read path, so any change there is noise).  Results, tables and plots
# go to BUILD/demo/.
#
# Settings (environment): RCUPROF_DEMO_VARIANTS (default: stock, rcu-sync,
# rcu-nosync, those built), RCUPROF_DEMO_THREADS (1,2),
# RCUPROF_DEMO_REPS (first stage, 8: a larger first stage
# costs little more and keeps the two-stage interval from inheriting one
# stalled run of a 5-block first stage), RCUPROF_DEMO_TARGET_MDE (10, %),
# RCUPROF_DEMO_MAX_TIME (150s per sweep: two sweeps, 5 minutes in all),
# RCUPROF_DEMO_MS (run length, 300), RCUPROF_DEMO_OUT (BUILD/demo).
#
# Then, across OpenSSL lines: the newest line built (4.0 in the default
# build) against 3.5, no write churn: 3.5's stock (the baseline), that
# line's stock, its RCU variants and its lock-free cache (lockfree@4.0),
# those built, in one adaptive sweep of its own (same first stage, target
# and budget: the demo's measuring is then at most 3 x
# RCUPROF_DEMO_MAX_TIME).  RCUPROF_DEMO_LINE names the line (none: skip
# the section).
#
# A variant counts as built when its driver (BUILD/bin/rcuprof-stress-NAME)
# exists.  RCUPROF_DEMO_BUILD=1 first builds rcuprof and the drivers of
# the variants above that the build is configured for, and only those
# (their OpenSSL trees, not every variant's, nor the tests); =only builds
# them and stops (make demo's first stage).
set -euo pipefail
build=${1:-build}
py=/usr/bin/python3
# The cross-line section's variants on LINE, baseline first.
xline_want() { echo "stock,stock@$1,rcu-sync@$1,rcu-nosync@$1,lockfree@$1"; }
if [ "${RCUPROF_DEMO_BUILD:-0}" != 0 ]; then
    # Configured variants (cmake's resolved list): the demo's, and on the
    # newest configured line besides 3.5 its cross-line set.
    targets=$(WANT="${RCUPROF_DEMO_VARIANTS:-stock,rcu-sync,rcu-nosync}" \
              LINE="${RCUPROF_DEMO_LINE:-}" XWANT="$(xline_want LINE)" \
              "$py" - "$build/variants.json" <<'PY'
import json, os, re, sys
d = json.load(open(sys.argv[1]))
conf = [v["name"] for v in d["variants"] if v.get("built")]
want = [w for w in os.environ["WANT"].split(",") if w]
line = os.environ["LINE"]
if not line:
    ls = {n.split("@")[1] for n in conf if re.match(r"stock@[0-9]+[.][0-9]+$", n)} - {"3.5"}
    ls = sorted(ls, key=lambda l: tuple(int(x) for x in l.split(".")))
    line = ls[-1] if ls else "none"
if line != "none":
    want += os.environ["XWANT"].replace("@LINE", "@" + line).split(",")
seen = []
for w in want:
    if w in conf and w not in seen:
        seen.append(w)
print(" ".join("rcuprof-stress-" + w.replace("@", "_at_") for w in seen))
PY
)
    names=${targets//rcuprof-stress-/}
    echo "rcuprof: demo: building rcuprof and $(echo "$targets" | wc -w) drivers: ${names//_at_/@}"
    # their OpenSSL trees first, a line per lane (cmake/build-lines.sh;
    # RCUPROF_BUILD_LANES=0: none, cmake --build alone)
    if [ "${RCUPROF_BUILD_LANES:-2}" != 0 ]; then
        "$(dirname "$0")/build-lines.sh" "$build" ${names//_at_/@}
    fi
    cmake --build "$build" --target rcuprof $targets
    [ "$RCUPROF_DEMO_BUILD" != only ] || exit 0
fi
rcuprof="$build/bin/rcuprof"
reps=${RCUPROF_DEMO_REPS:-8}
threads=${RCUPROF_DEMO_THREADS:-1,2}
target=${RCUPROF_DEMO_TARGET_MDE:-10}
budget=${RCUPROF_DEMO_MAX_TIME:-150s}
want=${RCUPROF_DEMO_VARIANTS:-stock,rcu-sync,rcu-nosync}
ms=${RCUPROF_DEMO_MS:-300}
out=${RCUPROF_DEMO_OUT:-$build/demo}

"$rcuprof" variants
vjson=$("$rcuprof" variants --json)
# built VARIANTS_JSON: the variants whose driver is in BUILD/bin
built_py='
import json, os, sys
d = json.load(sys.stdin)
bindir = os.environ["BINDIR"]
built = [n for n, v in d.items() if v.get("built") and not v.get("pending")
         and os.path.exists(os.path.join(bindir, "rcuprof-stress-" + n))]
'
export BINDIR="${RCUPROF_BINDIR:-$build/bin}"
variants=$(printf '%s' "$vjson" | WANT="$want" "$py" -c "$built_py"'
want = [w for w in os.environ["WANT"].split(",") if w]
print(",".join(w for w in want if w in built))')
case "$variants" in
*,*) ;;
*) echo "rcuprof: demo: needs two of $want built, has '${variants}': run make (or set RCUPROF_DEMO_VARIANTS)" >&2
   exit 1 ;;
esac
baseline=${variants%%,*}

rm -rf "$out"
mkdir -p "$out"
started=$(date +%s)
# sweep_report NAME VARIANTS TITLE BASELINE [SWEEP ARGS...]: one adaptive
# sweep into OUT/NAME (its log there, the stop line printed), then its
# report against BASELINE.
sweep_report() {
    local name=$1 vs=$2 title=$3 base=$4
    shift 4
    echo
    echo "== $title; variants $vs; threads $threads"
    echo "   $reps interleaved blocks of $ms ms runs, then blocks added until every MDE <= $target% or $budget is spent"
    echo "   (progress: $out/$name/sweep.log)"
    mkdir -p "$out/$name"
    "$rcuprof" sweep --variants "$vs" --threads "$threads" --reps "$reps" \
        --target-mde "$target" --max-time "$budget" \
        --duration-ms "$ms" --warmup-ms 100 "$@" --out "$out/$name" \
        > "$out/$name/sweep.log" 2>&1 || { cat "$out/$name/sweep.log" >&2; exit 1; }
    tail -n 1 "$out/$name/sweep.log"
    "$rcuprof" report "$out/$name/results.jsonl" --baseline "$base" \
        --out "$out/$name/report" >/dev/null
}
for churn in none query; do
    args=()
    [ "$churn" = none ] || args=(--writers 1 --churn "$churn")
    sweep_report "$churn" "$variants" \
        "sweep: EVP_MD_fetch(SHA256), own lib ctx, churn: $churn" "$baseline" "${args[@]}"
done
# Across lines: the newest line with a stock built, against 3.5's stock.
line=${RCUPROF_DEMO_LINE:-$(printf '%s' "$vjson" | "$py" -c "$built_py"'
import re
ls = {n.split("@")[1] for n in built if re.match(r"stock@[0-9]+[.][0-9]+$", n)}
ls = sorted(ls - {"3.5"}, key=lambda l: tuple(int(x) for x in l.split(".")))
print(ls[-1] if ls else "none")')}
xvariants=none
if [ "$line" != none ]; then
    xvariants=$(printf '%s' "$vjson" | WANT="$(xline_want "$line")" "$py" -c "$built_py"'
want = os.environ["WANT"].split(",")
print(",".join(w for w in want if w in built))')
    case "$xvariants" in
    stock,stock@*) ;;
    *) echo "rcuprof: demo: no cross-line section: needs stock and stock@$line built, has '$xvariants' (run make demo, or set RCUPROF_DEMO_LINE=none)" >&2
       exit 1 ;;
    esac
    sweep_report lines "$xvariants" \
        "sweep across lines: OpenSSL 3.5 against $line, EVP_MD_fetch(SHA256), own lib ctx, no churn" stock
else
    echo
    echo "== no sweep across lines: no OpenSSL line besides 3.5 has its stock built (the default build has 4.0's)"
fi
if [ -n "$(echo "$variants" | tr , '\n' | grep -x rcu-sync)" ] \
   && [ -n "$(echo "$variants" | tr , '\n' | grep -x rcu-nosync)" ]; then
    "$rcuprof" compare "$out/none/results.jsonl" --baseline rcu-sync \
        --format json --out "$out/aa.json"
fi
elapsed=$(( $(date +%s) - started ))

echo
echo "== rcuprof demo: what this machine decided ($elapsed s of measuring) =="
OUT="$out" "$py" - <<'EOF'
import json, os
out = os.environ["OUT"]

def load(p):
    with open(p) as f:
        return json.load(f)

resolved = []
for churn in ("none", "query", "lines"):
    p = os.path.join(out, churn, "report", "results.json")
    if churn == "lines" and not os.path.exists(p):
        continue
    t = load(p)
    for r in t["rows"]:
        for v, c in r["changes"].items():
            if c.get("resolved"):
                resolved.append((abs(c["change_pct"]), churn, r["threads"], v,
                                 t["baseline"], c))
aa = []
aa_path = os.path.join(out, "aa.json")
if os.path.exists(aa_path):
    for r in load(aa_path)["rows"]:
        c = r["changes"].get("rcu-nosync")
        if c is not None and c.get("change_lo_pct") is not None:
            aa.append((r["threads"], r["oversubscribed"], c))
# The A/A floor, per thread count: how far the identical read path moved,
# in either direction, at the edge of its interval.  A resolved change
# smaller than the floor at its thread count is not established on this
# machine, whatever its p.
floor = {th: max(abs(c["change_lo_pct"]), abs(c["change_hi_pct"]))
         for th, _, c in aa}
below = [x for x in resolved if x[2] in floor and x[0] < floor[x[2]]]
fl = ", ".join("+-%.1f%% at %d" % (floor[th], th) for th in sorted(floor))
if below:
    print("WARNING: the A/A floor (%s threads) is wider than %d of the %d "
          "resolved changes below: those are not established here."
          % (fl, len(below), len(resolved)))
elif floor:
    print("A/A floor %s threads: every resolved change below is larger."
          % fl)
resolved.sort(key=lambda x: -x[0])
print("Resolved changes (95%% intervals; Holm over each table): %d"
      % len(resolved))
for mag, churn, th, v, bl, c in resolved:
    p = c.get("p_holm")
    print("  %-11s %2d thread%s  %-14s vs %-8s %+7.1f%% [%+.1f, %+.1f]  "
          "p (Holm) %s" % ("lines" if churn == "lines" else "churn " + churn,
                           th, " " if th == 1 else "s", v, bl,
                           c["change_pct"], c["change_lo_pct"],
                           c["change_hi_pct"],
                           "<0.001" if p < 0.001 else "%.3f" % p))
if aa:
    print("A/A, rcu-nosync against rcu-sync with no writes (the same read "
          "path: this should not be resolved):")
    for th, over, c in aa:
        p = c.get("p_holm")
        verdict = ("RESOLVED: a false positive, or the two builds differ"
                   if c.get("resolved") else "not resolved, as it should be")
        print("  %2d thread%s %+7.1f%% [%+.1f, %+.1f], MDE %.1f%%, p (Holm) "
              "%s: %s%s" % (th, " " if th == 1 else "s", c["change_pct"],
                            c["change_lo_pct"], c["change_hi_pct"],
                            c["mde_pct"],
                            "n/a" if p is None else "%.3f" % p, verdict,
                            "  (oversubscribed)" if over else ""))
EOF
for churn in none query; do
    echo
    echo "== churn: $churn =="
    cat "$out/$churn/report/results.md"
done
if [ -s "$out/lines/report/results.md" ]; then
    echo
    echo "== across lines: 3.5 against $line, no churn =="
    cat "$out/lines/report/results.md"
fi
echo
echo "Tables, CSV, JSON and plots: $out/*/report/.  More: $rcuprof --help, docs/interfaces.md"
