# rcuprof explain --whatif-site (issue 17 item 4) end to end on the rwlock
# baseline's driver sites: whatif cells at each step's two counts in the
# same interleaved blocks, each case's whatif[] (slopes at T and R with
# intervals, their ratio, the blocks paired), the rule serialised_site with
# a verdict from its set and evidence naming both sites, the markdown
# table; bad input refused with one line, exit 2, nothing written.  Never
# asserts a verdict or a slope: the VM's timing decides those.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"

V=stock
[[ ",$RCUPROF_VARIANTS_BUILT," == *",stock,"* ]] || V=$(first_variant)

# ---- bad input, before anything runs ------------------------------------
B=(--variant "$V" --workload rwlock --threads 1,2 --reps 2 --duration-ms 20)
bad() {
    local want=$1
    shift
    rm -rf "$TMP/bad"
    expect_error 2 "$want" "$RCUPROF" explain "${B[@]}" "$@" --out "$TMP/bad"
    [ -e "$TMP/bad" ] && fail "$*: wrote $TMP/bad" || pass "$*: nothing written"
}
bad "the rwlock workload has no such delay site (its sites: write_hold, read_hold, outside)" \
    --whatif-site write_hold,cas_window
bad "is the delays of --whatif-site" --whatif-delays 0,100
bad "--whatif-delays '0': a slope needs at least 2" --whatif-site write_hold --whatif-delays 0
bad "is above 100000 ns" --whatif-site write_hold --whatif-delays 0,100001
bad "item 2 is not a whole number" --whatif-site write_hold --whatif-delays 0,-5
bad "100 ns is repeated" --whatif-site write_hold --whatif-delays 0,100,100
bad "--whatif-delays" --whatif-site write_hold --whatif-delays ""
bad "outside is repeated" --whatif-site outside,outside
bad "--whatif-site" --whatif-site write_hold,,outside
bad "explain's to set with --whatif-site" --whatif-site outside --delay-site outside --delay-ns 10
rm -rf "$TMP/bad"
expect_error 2 "variant $V has no such delay site" "$RCUPROF" explain --variant "$V" \
    --threads 1,2 --reps 2 --whatif-site no_such_site --out "$TMP/bad"

# ---- a run ---------------------------------------------------------------
OUT="$TMP/ew"
"$RCUPROF" explain --variant "$V" --workload rwlock --threads 1,2 \
    --whatif-site write_hold,outside --whatif-delays 0,300,600 --reps 3 \
    --duration-ms 50 --seed 7 --out "$OUT" >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] && pass "explain --whatif-site exits $rc" \
    || fail "explain --whatif-site: exit $rc: $(tail -3 "$TMP/stderr")"
cmp -s "$OUT/explain.md" "$TMP/stdout" && pass "explain.md is what was printed" \
    || fail "stdout differs from explain.md"

"$PY" - "$OUT/explain.json" "$OUT/explain.md" <<'PY' || fail "explain.json whatif checks (above)"
import json, math, sys
rep = json.load(open(sys.argv[1]))
md = open(sys.argv[2]).read()
errs = []
def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
verdicts = {"supported", "refuted", "inconclusive", "not testable"}
if rep.get("whatif") != {"sites": ["write_hold", "outside"], "delays_ns": [0, 300, 600], "where": "driver"}:
    errs.append(f"top-level whatif {rep.get('whatif')}")
ids = [r["id"] for r in rep["rules"]]
if "serialised_site" not in ids or ids[-1] != "unexplained":
    errs.append(f"rules table: {ids}")
# 2 counts x 2 sites x 3 delays whatif cells, 3 blocks: 36 runs of them
delays = 0
for c in rep["cases"]:
    w = c.get("whatif")
    if not isinstance(w, list) or [s["site"] for s in w] != ["write_hold", "outside"]:
        errs.append(f"case {c['threads']}: whatif {w}")
        continue
    rule = next(r for r in c["rules"] if r["id"] == "serialised_site")
    if rule["verdict"] not in verdicts:
        errs.append(f"verdict {rule['verdict']}")
    for s in w:
        if s["label"] != "rwlock " + s["site"]:
            errs.append(f"label {s['label']}")
        t = s["t"]
        if t["threads"] != c["threads"] or not (0 <= t["blocks"] <= 3):
            errs.append(f"t {t}")
        if t["blocks"] >= 1 and not num(t["slope"]):
            errs.append(f"t slope {t}")
        if t["blocks"] >= 2 and not (num(t["lo"]) and t["lo"] <= t["slope"] <= t["hi"]):
            errs.append(f"t interval {t}")
        if c["reference"] is None:
            if s["r"] is not None or s["ratio"] is not None or s["blocks_paired"] != 0:
                errs.append(f"no reference yet r/ratio: {s}")
            if rule["verdict"] != "not testable":
                errs.append(f"no reference: {rule}")
            continue
        r = s["r"]
        if r["threads"] != c["reference"] or not (0 <= s["blocks_paired"] <= min(t["blocks"], r["blocks"])):
            errs.append(f"r/paired {s}")
        if s["blocks_paired"] >= 2:
            if not num(s["ratio"]):
                errs.append(f"ratio {s}")
            if s["bounded"] and not (num(s["ratio_lo"]) and s["ratio_lo"] <= s["ratio"] <= s["ratio_hi"]):
                errs.append(f"ratio interval {s}")
            if not s["bounded"] and (s["ratio_lo"] is not None or s["ratio_hi"] is not None):
                errs.append(f"unbounded with bounds {s}")
            # the slopes over the paired blocks divide to the ratio
            pt, pr = s.get("paired_slope_t"), s.get("paired_slope_r")
            if not (num(pt) and num(pr) and pr != 0 and abs(pt / pr - s["ratio"]) <= 1e-9 * max(1, abs(s["ratio"]))):
                errs.append(f"paired slopes {pt}, {pr} do not divide to the ratio {s['ratio']}")
        T, R = c["threads"], c["reference"]
        want = min(1.5, 1 + (T / R - 1) / 2) if T > R else 1.5
        if not (num(s.get("threshold")) and abs(s["threshold"] - want) < 1e-12):
            errs.append(f"threshold {s.get('threshold')} at {T} vs {R}, wanted {want}")
        print(f"  {s['label']}: slope {r['slope']} [{r['lo']}, {r['hi']}] at {r['threads']}"
              f" -> {t['slope']} [{t['lo']}, {t['hi']}] at {t['threads']}:"
              f" ratio {s['ratio']} [{s['ratio_lo']}, {s['ratio_hi']}]"
              f" ({s['blocks_paired']} paired): {rule['verdict']}")
    if c["reference"] is not None:
        lines = rule["for"] + rule["against"]
        for site in ("write_hold", "outside"):
            if rule["verdict"] != "not testable" and not any(l.startswith("rwlock " + site + ": slope") for l in lines):
                errs.append(f"no evidence line for {site}: {lines}")
if md.count("| site | slope at ") != len(rep["cases"]):
    errs.append("markdown whatif tables")
if "| rwlock write_hold |" not in md or "serialised site" not in md:
    errs.append("markdown rows")
if rep["runs"]["total"] < 36:
    errs.append(f"runs {rep['runs']}")
for e in errs:
    print("  " + e)
sys.exit(1 if errs else 0)
PY
[ $? -eq 0 ] && pass "explain.json: whatif[] per case, serialised_site with a verdict of its set, markdown tables"

# without --whatif-site: the rule says why it is not testable, whatif[] empty
OUT2="$TMP/ew2"
"$RCUPROF" explain --variant "$V" --workload rwlock --threads 1,2 --reps 2 \
    --duration-ms 20 --out "$OUT2" >/dev/null 2>"$TMP/stderr2"
"$PY" - "$OUT2/explain.json" <<'PY' && pass "without --whatif-site: not testable, no whatif" || fail "without --whatif-site (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
ok = True
for c in rep["cases"]:
    rule = next(r for r in c["rules"] if r["id"] == "serialised_site")
    if rep["whatif"] is not None or c["whatif"] != [] or rule["verdict"] != "not testable" or "no --whatif-site" not in rule["reason"]:
        print("  ", c["threads"], c["whatif"], rule); ok = False
sys.exit(0 if ok else 1)
PY
finish
