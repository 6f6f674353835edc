# whatif's self-check (issue 17, item 3): the variant stock+fixed carries
# an always-on extra cost C = 100 ns at the delay site method_refcount
# (patches/3.5/delay/0001-fixed-cost.patch: one call per fetch).  whatif
# on it predicts the cost per op without C (`predicted_without_fixed`, the
# fitted line moved down by C x calls per op); the same build without C is
# `stock`, measured by whatif the same way (armed at the same site, 0 ns:
# the same wait code runs, without looping).  The two must agree: the
# difference of prediction and measurement has a 95% interval (half-widths
# combined) that holds 0.
#
# Timing on a shared VM: a disagreement is retried twice with fresh seeds
# before it fails; a try whose cells spread more than 15% (CV of the 0 ns
# cell) is not judged, and three such tries make the test SKIPPED with
# the figures.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
case ",$RCUPROF_VARIANTS_BUILT," in
    *,stock+fixed,*) ;;
    *) echo "SKIPPED: variant stock+fixed is not built (default build has it)"; exit 77 ;;
esac
case ",$RCUPROF_VARIANTS_BUILT," in
    *,stock,*) ;;
    *) echo "SKIPPED: variant stock is not built"; exit 77 ;;
esac
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"

wi() {  # VARIANT DELAYS SEED OUT
    rm -rf "$4"
    "$RCUPROF" whatif --variant "$1" --site method_refcount --delays "$2" \
        --threads 1 --reps 6 --duration-ms 200 --rtt off --seed "$3" --out "$4" \
        >/dev/null 2>"$TMP/err" || { echo "whatif $1 failed: $(tail -1 "$TMP/err")"; return 1; }
}

verdict=""
for try in 1 2 3; do
    wi stock+fixed 0,100,200 $((900 + try)) "$TMP/f" || { fail "whatif stock+fixed"; break; }
    wi stock 0,100 $((950 + try)) "$TMP/s" || { fail "whatif stock"; break; }
    verdict=$($PY - "$TMP/f/whatif.json" "$TMP/s/whatif.json" <<'EOF'
import json, math, statistics, sys
f = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
assert f["fixed_ns"] == 100, f["fixed_ns"]
assert s["fixed_ns"] == 0, s["fixed_ns"]
rf, rs = f["rows"][0], s["rows"][0]
p = rf["predicted_without_fixed"]
assert p is not None and p["method"] == "linear extrapolation", p
c0 = rs["cells"][0]
assert c0["delay_ns"] == 0
# The spread of each 0 ns cell (its runs' wall ns/op, from the results)
def cv(path):
    xs = []
    for line in open(path.replace("whatif.json", "results.jsonl")):
        d = json.loads(line)
        r = ((d.get("result") or {}).get("run") or {})
        if (r.get("delay") or {}).get("ns") == 0 and r.get("wall_ns_per_op"):
            xs.append(r["wall_ns_per_op"])
    return statistics.stdev(xs) / statistics.mean(xs) if len(xs) > 1 else float("inf")
noisy = max(cv(sys.argv[1]), cv(sys.argv[2]))
hw = math.hypot((p["hi"] - p["lo"]) / 2, (c0["hi"] - c0["lo"]) / 2)
d = p["value"] - c0["mean"]
fig = ("predicted without the fixed 100 ns %.1f [%.1f, %.1f], stock measured %.1f [%.1f, %.1f]"
       " ns/op: difference %+.1f, +-%.1f; slope %.2f; CV %.1f%%"
       % (p["value"], p["lo"], p["hi"], c0["mean"], c0["lo"], c0["hi"], d, hw,
          rf["slope"]["value"], 100 * noisy))
if noisy > 0.15:
    print("skip " + fig)
elif abs(d) <= hw:
    print("ok " + fig)
else:
    print("bad " + fig)
EOF
) || { fail "whatif.json members: $verdict"; break; }
    echo "try $try: $verdict"
    case $verdict in ok*) break ;; esac
done
case $verdict in
    ok*) pass "self-check: ${verdict#ok }" ;;
    skip*) echo "SKIPPED: 3 tries too noisy to judge: ${verdict#skip }"; exit 77 ;;
    bad*) fail "self-check in 3 tries: ${verdict#bad }" ;;
esac
finish
