# rcuprof whatif (issue 17): every bad input refused before anything runs
# (exit 2, one line, nothing written); the whole pipeline (plan, results
# file, fit, writers) on a stand-in driver whose cost is a known line in
# the delay; and, when the real driver has its delay sites, a short real
# run whose slope at 1 thread must be near 1.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
V=$(first_variant)
if [ -z "$V" ]; then
    echo "SKIPPED: no variant built"
    exit 77
fi
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"
OUT="$TMP/o"

# --- help, and every option of it in the contract (test_docs_options
# checks the table; here that it runs) ---
"$RCUPROF" whatif --help >"$TMP/help" 2>&1 && grep -q -- "--delays LIST" "$TMP/help" \
    && pass "whatif --help exits 0" || fail "whatif --help"

# --- bad input: exit 2, one line, nothing in --out ---
B=(--variant "$V" --threads 1,2)
nothing_written() {
    if [ -e "$OUT" ]; then fail "$1: $OUT was written"; rm -rf "$OUT"; fi
}
bad() {
    local want=$1
    shift
    expect_error 2 "$want" "$RCUPROF" whatif "$@" --out "$OUT"
    nothing_written "$*"
}
bad "--variant, --site, --delays and --threads are required" --variant "$V" --site outside --delays 0,100
bad "item 1 is not a whole number" "${B[@]}" --site outside --delays -5,100
bad "item 2 is above 100000 ns" "${B[@]}" --site outside --delays 0,100001
bad "item 2 is above 100000 ns" "${B[@]}" --site outside --delays 0,99999999999999999999
bad "--delays is empty" "${B[@]}" --site outside --delays ''
bad "item 2 is empty" "${B[@]}" --site outside --delays 0,,100
bad "item 3 is empty" "${B[@]}" --site outside --delays 0,100,
bad "item 1 is empty" "${B[@]}" --site outside --delays ,0,100
bad "at least 2 distinct delays" "${B[@]}" --site outside --delays 100
bad "is repeated" "${B[@]}" --site outside --delays 0,100,0
bad "at most 16" "${B[@]}" --site outside --delays 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
bad "is not a whole number" "${B[@]}" --site outside --delays 0,1e3
bad "unknown variant 'nope'" --variant nope --threads 1 --site outside --delays 0,100
bad "--threads" --variant "$V" --threads 0 --site outside --delays 0,100
bad "--reps" "${B[@]}" --site outside --delays 0,100 --reps 0
bad "give --target-mde PCT too" "${B[@]}" --site outside --delays 0,100 --max-time 60
bad "need at least 3" "${B[@]}" --site outside --delays 0,100 --target-mde 10 --reps 2
bad "unexpected argument" "${B[@]}" --site outside --delays 0,100 extra
bad "--delay-ns" "${B[@]}" --site outside --delays 0,100 --delay-ns 5
# A site the variant (or the workload) lacks: one line with the sites it
# has; a driver from before the delay sites has none.
bad "no such delay site (its sites:" "${B[@]}" --site no_such_site --delays 0,100
bad "the atomic workload has no such delay site" "${B[@]}" --workload atomic --site write_hold --delays 0,100
mkdir -p "$OUT.x" && : > "$OUT.x/results.jsonl"
expect_error 2 "exists" "$RCUPROF" whatif "${B[@]}" --site outside --delays 0,100 --out "$OUT.x"

# --- the pipeline on a stand-in driver: wall ns/op = 1000 + s x, x the
# delay spent per op (the asked ns + 4 per call, 2 calls per op), s 1.0 at
# 1 thread and 2.0 at 2; unarmed (no --delay-site) 960: the armed
# mechanism costs 40 ns/op; own time 25 ns per call at 0 ns, 75 at the
# other delays (the prediction takes the lowest delay's); a little
# deterministic noise per run ---
"$RCUPROF_BINDIR/rcuprof-stress-$V" --duration-ms 20 --warmup-ms 5 >"$TMP/template.json" 2>/dev/null \
    || fail "the real driver's template run"
sd="$TMP/standin"
mkdir -p "$sd"
cp "$RCUPROF" "$sd/rcuprof"
cat > "$sd/rcuprof-stress-$V" <<PY
#!/usr/bin/python3
import json, os, sys, zlib
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
if "--version" in sys.argv:
    print(json.dumps({"variant": "$V", "delay_sites": ["name_lookup", "synchronize"],
                      "driver_delay_sites": {"atomic": ["cas_window", "outside"],
                                             "rwlock": ["write_hold", "read_hold", "outside"]}}))
    sys.exit(0)
if os.environ.get("STANDIN_REFUSE"):
    print(json.dumps({"error": "usage", "message": "--delay-site: refused by the stand-in"}), file=sys.stderr)
    sys.exit(2)
t = int(args.get("threads", "1"))
unarmed = "delay-ns" not in args
if unarmed != ("delay-site" not in args):
    print(json.dumps({"error": "usage", "message": "--delay-ns without --delay-site"}), file=sys.stderr)
    sys.exit(2)
d = 0 if unarmed else int(args["delay-ns"])
if not unarmed and os.environ.get("STANDIN_FAIL_AT") == str(d) and t == 2:
    print(json.dumps({"error": "run", "message": "boom"}), file=sys.stderr)
    sys.exit(4)
spent = d + 4 if d > 0 else 0
noise = (zlib.crc32(" ".join(sys.argv[1:]).encode() + os.urandom(0)) % 1000) / 1000.0 - 0.5
cnt = os.path.join("$sd", "n")
k = int(open(cnt).read()) if os.path.exists(cnt) else 0
open(cnt, "w").write(str(k + 1))
noise = ((k * 7919) % 101) / 100.0 - 0.5
w = 1000.0 + (1.0 if t == 1 else 2.0) * spent * 2 + noise
if unarmed:
    w = 960.0 + noise
r = json.load(open("$TMP/template.json"))
r["run"]["threads"] = t
r["run"]["wall_ns_per_op"] = w
r["run"]["cpu_ns_per_op"] = w
# the raw members the per-op figures are (record.h: they must agree)
r["run"]["ops"] = 10 ** 7
r["run"]["wall_ns"] = round(w * 10 ** 7 / t)
r["run"]["cpu_ns"] = round(w * 10 ** 7)
r["run"]["ops_per_s"] = 1e9 / w
r["run"]["delay"] = None if unarmed else {"site": args["delay-site"], "where": "library", "ns": d,
    "ticks": d, "calls": 2000, "calls_per_op": 2.0, "delay_ns_per_call": float(spent),
    "own_ns_per_call": 25.0 if d == 0 else 75.0, "timed": 31, "fixed_ns": 0}
print(json.dumps(r))
PY
chmod +x "$sd/rcuprof-stress-$V"
RCUPROF_BINDIR=$sd "$sd/rcuprof" whatif --variant "$V" --site name_lookup --delays 0,100,300 \
    --threads 1,2 --reps 4 --seed 11 --duration-ms 20 --out "$TMP/w1" >"$TMP/w1.out" 2>"$TMP/w1.err"
rc=$?
[ "$rc" -eq 0 ] && pass "stand-in whatif exits 0" || fail "stand-in whatif: exit $rc: $(tail -3 "$TMP/w1.err")"
"$PY" - "$TMP/w1" "$RCUPROF_SRC/docs/schema/results-header.schema.json" "$TMP/w1.out" <<'PY' \
    && pass "stand-in: results file, whatif.json members, slopes 1 and 2, predictions, md and csv" \
    || fail "stand-in whatif outputs"
import json, sys, os, hashlib
import jsonschema
d = sys.argv[1]
schema = json.load(open(sys.argv[2]))
lines = [json.loads(l) for l in open(d + "/results.jsonl")]
h = lines[0]
jsonschema.Draft202012Validator(schema).validate(h)
assert h["spec"]["whatif"] == {"site": "name_lookup", "delays_ns": [0, 100, 300], "unarmed": True}, h["spec"]
point = dict(schema["$defs"]["point"], **{"$defs": schema["$defs"]})
cells = set()
for p in lines[1:]:
    jsonschema.Draft202012Validator(point).validate(p)
    cells.add((p["block"], p["threads"], p["delay_ns"]))
# every delay and the unarmed cell (delay_ns null) in every block and count
assert len(cells) == 4 * 2 * 4 == len(lines) - 1, len(lines)
assert sum(1 for c in cells if c[2] is None) == 4 * 2, cells
# the order within a block and thread count is shuffled, not always sorted
orders = {}
for p in lines[1:]:
    orders.setdefault((p["block"], p["threads"]), []).append(p["delay_ns"])
assert any(o != sorted(o, key=lambda x: -1 if x is None else x) for o in orders.values()), orders
w = json.load(open(d + "/whatif.json"))
top = {"schema", "variant", "site", "where", "delays_ns", "threads", "reps", "blocks",
       "seed", "options", "inputs", "rcuprof_version", "created_unix_ns", "fixed_ns",
       "rows", "notes"}
assert top <= set(w), top - set(w)
assert w["schema"] == "rcuprof-whatif/1" and w["where"] == "library" and w["blocks"] == 4
assert w["options"] == {"duration-ms": "20"}, w["options"]
r1, r2 = w["rows"]
for r in (r1, r2):
    need = {"threads", "oversubscribed", "blocks", "calls_per_op", "own_ns_per_call", "cells",
            "slope", "reading", "intercept", "predicted_without_site"}
    assert need <= set(r), need - set(r)
    assert r["blocks"] == 4 and r["calls_per_op"] == 2.0 and r["own_ns_per_call"] == 25.0
    assert [c["delay_ns"] for c in r["cells"]] == [0, 100, 300]
    assert r["cells"][2]["x_ns_per_op"] == 608.0, r["cells"][2]
    assert "predicted_without_fixed" not in r
    u, m = r["unarmed"], r["mechanism"]
    assert u["runs"] == 4 and u["failed"] == 0 and abs(u["mean"] - 960) < 1 and u["lo"] < u["mean"] < u["hi"], u
    assert m["blocks"] == 4 and abs(m["value"] - 40) < 1.5 and m["lo"] <= m["value"] <= m["hi"], m
    pu, ps = r["predicted_without_site_unarmed"], r["predicted_without_site"]
    assert pu["method"] == "linear extrapolation" and abs(pu["value"] - (ps["value"] - m["value"])) < 1e-6, (pu, ps, m)
assert 0.99 < r1["slope"]["value"] < 1.01 and r1["slope"]["lo"] <= 1 <= r1["slope"]["hi"], r1["slope"]
assert r1["reading"] == "adds", r1["reading"]
assert 1.98 < r2["slope"]["value"] < 2.02 and r2["reading"] == "amplified", r2
p = r2["predicted_without_site"]
# the own time of the lowest delay's run (25), not the other delays' (75)
assert p["method"] == "linear extrapolation" and abs(p["value"] - (1000 - 2 * 25 * 2)) < 2, p
assert abs(r2["predicted_without_site_unarmed"]["value"] - (1000 - 2 * 25 * 2 - 40)) < 3, r2
md = open(d + "/whatif.md").read()
assert md == open(sys.argv[3]).read(), "stdout is not whatif.md"
assert "linear extrapolation: removing a serialised section can move the bottleneck elsewhere" in md
assert "| 2 | 2.00 |" in md and "amplified" in md
assert "| threads | unarmed ns/op [95% CI] | mechanism ns/op [95% CI] |" in md
assert any(n.startswith("predicted_without_site is for the armed build") for n in w["notes"]), w["notes"]
csv = open(d + "/whatif.csv").read().splitlines()
assert len(csv) == 1 + 2 * 3 and csv[0].startswith("threads,delay_ns,"), csv[0]
assert csv[0].endswith(",unarmed_ns_per_op,mechanism_ns_per_op,mechanism_lo,mechanism_hi,predicted_without_site_unarmed_ns_per_op,predicted_unarmed_lo,predicted_unarmed_hi"), csv[0]
PY
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$TMP/w1/whatif.png" ] && [ -s "$TMP/w1/whatif.svg" ] && pass "whatif.png and .svg drawn" \
        || fail "no whatif.png/.svg with gnuplot installed"
else
    echo "SKIPPED (part): gnuplot not installed: the plot is not checked"
fi

# Without --out: the table on stdout, nothing left behind.
mkdir -p "$TMP/tmpdir"
TMPDIR="$TMP/tmpdir" RCUPROF_BINDIR=$sd "$sd/rcuprof" whatif --variant "$V" --site outside --workload atomic \
    --delays 0,100 --threads 1 --reps 2 --seed 3 >"$TMP/w2.out" 2>"$TMP/w2.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "| 1 | 2.00 |" "$TMP/w2.out" && [ -z "$(ls -A "$TMP/tmpdir")" ] \
    && pass "no --out: the table on stdout, no folder left" \
    || fail "no --out: exit $rc, $(ls -A "$TMP/tmpdir"), $(cat "$TMP/w2.err" | tail -2)"
grep -q "a driver site: the unarmed cell runs the baseline workload's own loop" "$TMP/w2.out" \
    && pass "a driver site: the note that its unarmed run is the workload's own loop" \
    || fail "a driver site: no note on its unarmed run"
# synchronize: "without the site" is without the grace-period wait
RCUPROF_BINDIR=$sd "$sd/rcuprof" whatif --variant "$V" --site synchronize --delays 0,100 \
    --threads 1 --reps 2 --seed 4 >"$TMP/w5.out" 2>"$TMP/w5.err"
grep -q 'synchronize: "without the site" means without the grace-period wait itself' "$TMP/w5.out" \
    && ! grep -q "a driver site" "$TMP/w5.out" \
    && pass "synchronize: the note on what without the site means" \
    || fail "synchronize: no note: $(tail -2 "$TMP/w5.err")"

# A failed run: exit 1, the files still written, the failure noted.
STANDIN_FAIL_AT=300 RCUPROF_BINDIR=$sd "$sd/rcuprof" whatif --variant "$V" --site name_lookup \
    --delays 0,100,300 --threads 1,2 --reps 2 --seed 5 --out "$TMP/w3" >/dev/null 2>"$TMP/w3.err"
rc=$?
"$PY" -c "
import json
w = json.load(open('$TMP/w3/whatif.json'))
assert w['rows'][1]['blocks'] == 0 and w['rows'][1]['reading'] == 'undetermined', w['rows'][1]
assert w['rows'][0]['blocks'] == 2
assert any('failed' in n for n in w['notes']), w['notes']
" && [ "$rc" -eq 1 ] && pass "failed runs: exit 1, files written, row undetermined, noted" \
    || fail "failed runs: exit $rc"

# The first run refused by the driver (usage): bad input, nothing written.
STANDIN_REFUSE=1 expect_error 2 "refused by the stand-in" env RCUPROF_BINDIR="$sd" "$sd/rcuprof" whatif \
    --variant "$V" --site name_lookup --delays 0,100 --threads 1 --reps 1 --out "$TMP/w4"
[ -e "$TMP/w4" ] && fail "a refused first run left $TMP/w4" || pass "a refused first run writes nothing"

# --- the real driver, when it has its delay sites (the driver half of
# issue 17): the pipeline end to end on real runs (the slope's value is
# judged by test_whatif_truth, with a control for a busy machine) ---
if "$RCUPROF_BINDIR/rcuprof-stress-$V" --version 2>/dev/null | "$PY" -c "
import json, sys
b = json.load(sys.stdin)
b = b.get('build', b)
sys.exit(0 if 'outside' in (b.get('driver_delay_sites') or {}).get('atomic', []) else 1)
"; then
    "$RCUPROF" whatif --variant "$V" --workload atomic --site outside --delays 0,200,400 \
        --threads 1,2 --reps 3 --duration-ms 100 --warmup-ms 20 --seed 1 --out "$TMP/real" \
        >"$TMP/real.out" 2>"$TMP/real.err"
    rc=$?
    "$PY" -c "
import json
w = json.load(open('$TMP/real/whatif.json'))
assert w['where'] == 'driver' and w['site'] == 'outside', w
assert [r['threads'] for r in w['rows']] == [1, 2]
for r in w['rows']:
    assert r['calls_per_op'] == 1, r
    s = r['slope']
    assert s['lo'] <= s['value'] <= s['hi'], s
    assert r['reading'] in ('adds', 'amplified', 'overlapped'), r
    assert [c['delay_ns'] for c in r['cells']] == [0, 200, 400], r
    assert 0 <= r['cells'][0]['x_ns_per_op'] < r['cells'][1]['x_ns_per_op'] < r['cells'][2]['x_ns_per_op'], r
" && [ "$rc" -eq 0 ] && pass "real driver: atomic outside, one call per op, x rising with the delay, a slope in its interval" \
        || fail "real driver whatif: exit $rc: $(tail -3 "$TMP/real.err")"
else
    echo "SKIPPED (part): the $V driver's --version has no driver_delay_sites (the driver half of issue 17 is not in this build): no real-driver run"
fi

# --- the library's sites on every built variant with the probe layer
# (issue 17: whatif runs on stock and both RCU variants): one fetch, one
# name_lookup and one method_refcount; each variant's own read-lock site
# (stock: store_read_lock; RCU: rcu_read_lock) at least once per fetch ---
for v in ${RCUPROF_VARIANTS_BUILT//,/ }; do
    sites=$("$RCUPROF_BINDIR/rcuprof-stress-$v" --version 2>/dev/null | "$PY" -c "
import json, sys
b = json.load(sys.stdin)
b = b.get('build', b)
print(' '.join(b.get('delay_sites') or []))") || continue
    [ -n "$sites" ] || continue
    for site in name_lookup method_refcount store_read_lock rcu_read_lock; do
        case " $sites " in *" $site "*) ;; *) continue ;; esac
        out="$TMP/lib-$v-$site"
        "$RCUPROF" whatif --variant "$v" --site "$site" --delays 0,100 --threads 1 \
            --reps 2 --duration-ms 50 --warmup-ms 20 --seed 3 --out "$out" \
            >/dev/null 2>"$TMP/lib.err"
        rc=$?
        "$PY" - "$out/whatif.json" "$site" <<'PY' && [ "$rc" -eq 0 ] \
            && pass "$v: whatif at library site $site (calls per op as the fetch path has them)" \
            || fail "$v: whatif at $site: exit $rc: $(tail -2 "$TMP/lib.err")"
import json, sys
w = json.load(open(sys.argv[1]))
site = sys.argv[2]
assert w["where"] == "library" and w["site"] == site, w
r = w["rows"][0]
want = {"name_lookup": 1, "method_refcount": 1}
if site in want:
    assert abs(r["calls_per_op"] - want[site]) < 0.01, r["calls_per_op"]
else:
    assert r["calls_per_op"] >= 1, r["calls_per_op"]
assert r["own_ns_per_call"] is None or r["own_ns_per_call"] >= 0, r
assert r["slope"]["value"] is not None
PY
    done
done
finish
