# compare on small synthetic results files built for the edge cases a
# cold review of the statistics found (each failed before its fix):
#   zero:   an adaptive file whose first stage has no spread (every ratio
#           equal) and later blocks that vary: no decision, never a
#           zero-width resolved interval;
#   n0two:  an adaptive file where a failed run leaves a row 2 first-stage
#           pairs of 40: "too few (first stage n=2)", never "n=39";
#   stall:  in-window round-trip samples where one variant's runs have a
#           fast sample beside null ones (stalled bursts): those runs are
#           mixed or slow, not fast, and the mixes are noted as different;
#   tail:   39 runs at 100 ns and one at 3000: the cell prints the
#           geometric mean, inside its interval; it lies outside the
#           median's interval (all 100) and a heavy-tail note says so;
#           CSV keeps the arithmetic mean and the log-normal mean
#           (centre_ns) with its Cox interval; the run above 25x the
#           fast reference (the 10th fastest of 40) is named a stall;
#   stein:  an adaptive file (3 first-stage blocks, 5 added) whose
#           two-stage p is tiny while Wilcoxon over all 8 blocks is
#           0.109: no "tests disagree" note (the two tests see other
#           spreads; the rule before the second review named the row);
#   most:   5 runs of which 3 stall (50x): all 3 counted (the old rule,
#           5x the median, counted none: the median was a stall), and
#           2 runs of which one stalls: counted (the median rule could
#           flag nothing at n = 2).
#   corrupt: 4 blocks, cand's last line torn (ignored): the change (+5%, from
#           the 3 common blocks) and the cells (-13.8%, every run) differ
#           in sign; the change is marked [^b] and a note gives the common
#           blocks' geometric means, whose ratio is the change;
#   cpuzero: 4 blocks, one of cand's runs with cpu_ns_per_op 0 (the
#           results accept it): with --metric
#           cpu_ns_per_op the cell has no geometric mean, so it is
#           marked "has 0", its change is n/a, and a note says why;
#           CSV zero_runs 1; the wall metric is untouched;
#   aa:     --aa a,b (issue 28): the A/A pair's column; a pair that moves
#           (b = a x 1.10) marks its row and says why in one line; a
#           resolved change smaller than the pair's interval reaches is
#           marked too; bad --aa values refused, nothing written;
#   notes:  the default md has no notes, --notes and md-wide have them;
#   outl:   12 runs, the last far out: flagged as block 12 (numbered from
#           1); 5 runs (most): none flagged (outliers from 10 runs);
#   by-state on the stored case-study results (churn, nochurn,
#           rcu-readers): every change agrees in sign with the ratio of
#           the means the footnote says it is computed from, and every
#           change whose sign disagrees with the printed cells is marked
#           partial (three rows were unmarked before the fix).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
"$PY" - "$TMP" <<'PY' || fail "cannot write the synthetic files"
import hashlib, json, math, sys
tmp = sys.argv[1]

def write(name, values, reps, target=None, rtt=None):
    variants = list(values)
    spec = {"variants": variants, "threads": [1], "reps": reps,
            "options": {}, "seed": 1, "rcuprof_version": "0.1.0"}
    if target is not None:
        spec["target_mde_pct"] = target
    canon = json.dumps(spec, sort_keys=True, separators=(",", ":"),
                       ensure_ascii=True)
    out = [{"type": "header", "schema": "rcuprof-results/1", "spec": spec,
            "spec_hash": hashlib.sha256(canon.encode()).hexdigest()}]
    seq = 0
    for b in range(len(values[variants[0]])):
        for k, v in enumerate(variants):
            w = values[v][b]
            p = {"type": "point", "block": b, "threads": 1, "variant": v,
                 "order": k, "seq": seq, "message": None}
            seq += 1
            if w is None:
                p.update(status="timeout", message="t", result=None)
            else:
                run = {"wall_ns_per_op": w, "cpu_ns_per_op": w,
                       "ops_per_s": 1e9 / w}
                if rtt is not None:
                    ns = rtt[v][b]
                    run["line_rtt"] = {"cpus": [0, 1], "before_ns": 80,
                        "after_ns": 80, "window": {"every_ms": 100,
                        "round_trips": 288, "at_ms": [0] * len(ns),
                        "ns": ns, "cost_cpu_ns": 1, "cost_share": 0.001}}
                p.update(status="ok", result={"env": {"cpus_allowed": 2,
                         "hostname": "h", "kernel": "k"}, "run": run})
            out.append(p)
    with open("%s/%s.jsonl" % (tmp, name), "w") as f:
        f.write("\n".join(json.dumps(x) for x in out) + "\n")

# zero: 3 first-stage blocks at ratio exactly 1.0, then 9 that vary.
later = [0.74, 1.42, 0.9, 1.2, 0.8, 1.3, 1.1, 0.95, 1.05]
write("zero", {"base": [1000.0] * 12,
               "cand": [1000.0] * 3 + [1000.0 * r for r in later]}, 3, 10)
# n0two: 40 blocks, +4% with a little spread; cand's block 1 failed.
cand = [1000.0 * 1.04 * math.exp(0.05 * math.sin(i)) for i in range(40)]
cand[1] = None
write("n0two", {"base": [1000.0] * 40, "cand": cand}, 3, 10)
# stall: base 4 fast and 4 slow runs; cand 4 runs of one fast sample and 7
# nulls, 2 runs of nulls only, 2 slow runs.
fast, slow = [80, 82, 81, 79, 80], [660, 680, 670, 675, 665]
rb = [fast] * 4 + [slow] * 4
rc = [[80] + [None] * 7] * 4 + [[None] * 8] * 2 + [slow] * 2
write("stall", {"base": [1000.0 + i for i in range(8)],
                "cand": [1100.0 + i for i in range(8)]}, 8,
      rtt={"base": rb, "cand": rc})
write("tail", {"base": [100.0] * 39 + [3000.0], "cand": [101.0] * 40}, 40)
lr = [0.30, 0.31, 0.32, 0.305, 0.315, -0.01, -0.02, -0.03]
write("stein", {"base": [1000.0] * 8,
                "cand": [1000.0 * math.exp(r) for r in lr]}, 3, 10)
write("most", {"base": [100.0, 5000.0, 104.0, 6000.0, 7000.0],
               "cand": [100.0, 102.0, 101.0, 99.0, 103.0]}, 5)
write("two", {"base": [100.0, 4000.0], "cand": [100.0, 101.0]}, 2)
write("corrupt", {"base": [100.0, 200.0, 300.0, 400.0],
                  "cand": [105.0, 210.0, 315.0, 420.0]}, 4)
lines = open("%s/corrupt.jsonl" % tmp).read().split("\n")
assert '"variant": "cand"' in lines[-2], lines[-2]
lines[-2] = lines[-2][:40]
open("%s/corrupt.jsonl" % tmp, "w").write("\n".join(lines[:-1]))
write("cpuzero", {"base": [100.0, 110.0, 105.0, 120.0],
                  "cand": [90.0, 95.0, 99.0, 93.0]}, 4)
# aa: a is base x 0.8; b is a again (quiet), a x 1.10 (moved), or a with
# a spread of about 6% (wide) beside an a at base x 0.97.
r = [0.004, -0.003, 0.002, -0.004, 0.003, -0.002, 0.001, -0.001, 0.002, -0.002]
w = [0.08, -0.07, 0.05, -0.06, 0.07, -0.08, 0.06, -0.05, 0.04, -0.04]
base = [1000.0 * math.exp(0.03 * math.sin(3 * i)) for i in range(10)]
a = [x * 0.8 * math.exp(e) for x, e in zip(base, r)]
write("aaquiet", {"base": base, "a": a,
                  "b": [x * math.exp(-e) for x, e in zip(a, r)]}, 10)
write("aamoved", {"base": base, "a": a,
                  "b": [x * 1.10 * math.exp(e) for x, e in zip(a, r)]}, 10)
a3 = [x * 0.97 * math.exp(e) for x, e in zip(base, r)]
write("aawide", {"base": base, "a": a3,
                 "b": [x * math.exp(e) for x, e in zip(a3, w)]}, 10)
write("outl", {"base": [100.0 + i % 5 for i in range(11)] + [5000.0],
               "cand": [101.0 + i % 3 for i in range(12)]}, 12)
pts = [json.loads(l) for l in open("%s/cpuzero.jsonl" % tmp)]
next(p for p in pts if p.get("variant") == "cand")["result"]["run"]["cpu_ns_per_op"] = 0
open("%s/cpuzero.jsonl" % tmp, "w").write("\n".join(json.dumps(p) for p in pts) + "\n")
PY
"$RCUPROF" compare "$TMP/zero.jsonl" --notes > "$TMP/zero.md" 2>&1 || fail "compare zero: $(cat "$TMP/zero.md")"
grep -q "^| 1 | .* no decision | [0-9.]*% |$" "$TMP/zero.md" && grep -q "; no decision: an adaptive first stage without spread" "$TMP/zero.md" \
    && pass "first stage without spread: no decision in the cell" || fail "zero: $(grep '^| 1' "$TMP/zero.md")"
grep -q "✓ |$" "$TMP/zero.md" && fail "zero: a resolved mark on a row that decides nothing" || pass "zero: no resolved mark"
grep -q "Stein's two-stage interval does not apply" "$TMP/zero.md" \
    && pass "zero: a note says why" || fail "zero: no note"
"$RCUPROF" compare "$TMP/n0two.jsonl" > "$TMP/n0two.md" 2>&1 || fail "compare n0two: $(cat "$TMP/n0two.md")"
grep -q "too few (first stage n=2) | [0-9.]*% |$" "$TMP/n0two.md" \
    && pass "a first stage of 2 pairs: too few, with the first stage's n" || fail "n0two: $(grep '^| 1' "$TMP/n0two.md")"
grep -q "too few (n=39)" "$TMP/n0two.md" && fail "n0two: too few (n=39)" || pass "n0two: no 'too few' beside 39 pairs"
"$RCUPROF" compare "$TMP/stall.jsonl" --format json --out "$TMP/stall.json" || fail "compare stall"
"$PY" - "$TMP/stall.json" <<'PY' && pass "stalled bursts count as slow: cand 4 mixed, 4 slow; the mixes noted" || fail "stall: $(cat "$TMP/stall.json" | head -c 600)"
import json, sys
d = json.load(open(sys.argv[1]))
st = d["rows"][0]["cells"]["cand"]["states"]
assert (st["fast"], st["slow"], st["mixed"], st["unknown"]) == (0, 4, 4, 0), st
assert any("different machine-state mixes" in n for n in d["notes"]), d["notes"]
assert not any("nan" in n for n in d["notes"]), d["notes"]
PY
"$RCUPROF" compare "$TMP/tail.jsonl" --notes > "$TMP/tail.md" 2>&1 || fail "compare tail: $(cat "$TMP/tail.md")"
grep -q "heavy tail: the printed figure, the geometric mean, lies outside the 95% interval of the cell's median .*: base/1t (geometric mean 108.9, median 100.0 \[100.0, 100.0\])$" "$TMP/tail.md" \
    && ! grep -q "heavy tail:.*cand/1t" "$TMP/tail.md" \
    && pass "a geometric mean outside the median's interval is noted as a heavy tail" || fail "tail: $(grep -i tail "$TMP/tail.md")"
grep -q "^- stalls (runs above 25x their cell's reference, its ceil(n/4)-th fastest run, .*kept in the figures): base/1t 1 of 40 (reference 100.0)$" "$TMP/tail.md" \
    && pass "the run at 30x the fast reference is named a stall" || fail "tail: no stalls note: $(grep -i stall "$TMP/tail.md")"
"$RCUPROF" compare "$TMP/tail.jsonl" --format csv > "$TMP/tail.csv" || fail "compare tail csv"
"$PY" - "$TMP/tail.csv" "$TMP/tail.md" <<'PY' && pass "tail: the cell prints its geometric mean, inside its interval; CSV keeps the mean and the log-normal mean" || fail "tail: centre"
import csv, re, sys
r = next(x for x in csv.DictReader(open(sys.argv[1])) if x["variant"] == "base")
c, lo, hi, m = (float(r[k]) for k in ("centre_ns", "mean_lo_ns", "mean_hi_ns", "mean_ns"))
g, glo, ghi = (float(r[k]) for k in ("geomean_ns", "geomean_lo_ns", "geomean_hi_ns"))
assert lo <= c <= hi and not lo <= m <= hi and r["stalls"] == "1", r
assert glo <= g <= ghi and abs(g - 100 * 30 ** (1 / 40)) < 1e-6, r
row = next(l for l in open(sys.argv[2]) if l.startswith("| 1 |"))
assert abs(float(row.split("|")[2]) - g) <= 0.051, (row, g)
PY
"$RCUPROF" compare "$TMP/stein.jsonl" --format json --out "$TMP/stein.json" || fail "compare stein"
"$PY" - "$TMP/stein.json" <<'PY' && pass "adaptive row: Stein's p and Wilcoxon over every block are not set against each other" || fail "stein: $(head -c 2000 "$TMP/stein.json")"
import json, sys
d = json.load(open(sys.argv[1]))
ch = d["rows"][0]["changes"]["cand"]
assert ch["p"] < 0.05 and ch["p_wilcoxon"] > 0.1 and ch["p_min_attainable"] < 0.05, ch
assert not any(n.startswith("tests disagree") for n in d["notes"]), d["notes"]
assert any(n.startswith("adaptive sweep") and 'no "tests disagree" check' in n
           for n in d["notes"]), d["notes"]
PY
"$RCUPROF" compare "$TMP/most.jsonl" --notes > "$TMP/most.md" 2>&1 || fail "compare most: $(cat "$TMP/most.md")"
grep -q "^- stalls (.*): base/1t 3 of 5 (reference 104.0)$" "$TMP/most.md" \
    && pass "a cell where most runs stall counts them all" || fail "most: $(grep -i stall "$TMP/most.md")"
"$RCUPROF" compare "$TMP/two.jsonl" --notes > "$TMP/two.md" 2>&1 || fail "compare two: $(cat "$TMP/two.md")"
grep -q "^- stalls (.*): base/1t 1 of 2 (reference 100.0)$" "$TMP/two.md" \
    && pass "a stall among 2 runs is counted" || fail "two: $(grep -i stall "$TMP/two.md")"
"$RCUPROF" compare "$TMP/corrupt.jsonl" --notes > "$TMP/corrupt.md" 2>/dev/null || fail "compare corrupt: $(cat "$TMP/corrupt.md")"
grep -q "^| 1 | 221.3 | 190.8 +5.0% \[+5.0, +5.0\] (common blocks) ✓ | 0.0% |$" "$TMP/corrupt.md" \
    && grep -q "; common blocks: the change is over the blocks both have, the cells over all runs" "$TMP/corrupt.md" \
    && grep -q "^- changes from the common blocks only .*: cand/1t 3 blocks (cells of 4 and 3 runs): base 181.7, cand 190.8, +5.0%$" "$TMP/corrupt.md" \
    && pass "corrupt: a change from fewer blocks than the cells' runs is marked, with the means it comes from" \
    || fail "corrupt: $(cat "$TMP/corrupt.md")"
"$RCUPROF" compare "$TMP/cpuzero.jsonl" --metric cpu_ns_per_op --notes > "$TMP/cpuzero.md" 2>&1 || fail "compare cpuzero: $(cat "$TMP/cpuzero.md")"
grep -q "^| 1 | 108.5 | 71.8 (has 0) (change n/a) | n/a |$" "$TMP/cpuzero.md" \
    && grep -q "; has 0: a run of 0 ns/op, so the arithmetic mean and no change" "$TMP/cpuzero.md" \
    && grep -q "^- cells with a run of 0 ns/op (has 0: a run whose CPU time per op was recorded as 0): a geometric mean needs every run above 0, .*: cand/1t (1 of 4 runs)$" "$TMP/cpuzero.md" \
    && pass "cpuzero: a cell with a run of 0 is marked, its change n/a, and a note says a geometric mean needs runs above 0" \
    || fail "cpuzero: $(cat "$TMP/cpuzero.md")"
"$RCUPROF" compare "$TMP/cpuzero.jsonl" --metric cpu_ns_per_op --format csv > "$TMP/cpuzero.csv" || fail "compare cpuzero csv"
"$PY" - "$TMP/cpuzero.csv" <<'PY' && pass "cpuzero: CSV zero_runs" || fail "cpuzero csv: $(cat "$TMP/cpuzero.csv")"
import csv, sys
r = {x["variant"]: x for x in csv.DictReader(open(sys.argv[1]))}
assert r["cand"]["zero_runs"] == "1" and r["base"]["zero_runs"] == "0", r
assert r["cand"]["geomean_lo_ns"] == "" and r["cand"]["change_pct"] == "", r
PY
"$RCUPROF" compare "$TMP/cpuzero.jsonl" > "$TMP/cpuzero-wall.md" 2>&1 || fail "compare cpuzero wall"
grep -q "has 0" "$TMP/cpuzero-wall.md" && fail "cpuzero: the wall metric marked" || pass "cpuzero: the wall metric has no zero"
# --- aa ---
"$RCUPROF" compare "$TMP/aaquiet.jsonl" --aa a,b > "$TMP/aaquiet.md" 2>&1 || fail "compare aaquiet: $(cat "$TMP/aaquiet.md")"
head -1 "$TMP/aaquiet.md" | grep -qxF "| threads | base (baseline) | a | b | A/A b vs a | MDE |" \
    && grep -q "^| 1 | [0-9.]* | [0-9.]* -20.0% \[.*\] ✓ | [0-9.]* -20.0% \[.*\] ✓ | [-+]0.0% \[-0.[0-9], +0.[0-9]\] | [0-9.]*% |$" "$TMP/aaquiet.md" \
    && grep -q "; A/A: b against a, the same code, so its change is noise" "$TMP/aaquiet.md" \
    && ! grep -q "⚠" "$TMP/aaquiet.md" \
    && pass "aa: a quiet A/A pair gets its column and marks nothing" || fail "aaquiet: $(cat "$TMP/aaquiet.md")"
"$RCUPROF" compare "$TMP/aamoved.jsonl" --aa a,b > "$TMP/aamoved.md" 2>&1 || fail "compare aamoved"
grep -q "^| 1 ⚠ | .* | +10.0% \[+9.[0-9], +10.[0-9]\] | [0-9.]*% |$" "$TMP/aamoved.md" \
    && grep -qx "⚠ at 1 thread: the A/A pair's interval excludes 0, so this machine moved the same code; the row's changes may be the machine's." "$TMP/aamoved.md" \
    && pass "aa: a pair that moves marks its row, one line says why" || fail "aamoved: $(cat "$TMP/aamoved.md")"
"$RCUPROF" compare "$TMP/aamoved.jsonl" --aa a,b --format json --out "$TMP/aamoved.json" || fail "compare aamoved json"
"$RCUPROF" compare "$TMP/aamoved.jsonl" --aa a,b --format md-wide > "$TMP/aamoved-wide.md" || fail "compare aamoved md-wide"
"$PY" - "$TMP/aamoved.json" "$TMP/aamoved-wide.md" <<'PY' && pass "aa: JSON and md-wide keep the pair, its doubt and the note" || fail "aamoved json/wide"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
assert d["aa"] == {"a": "a", "b": "b"}, d.get("aa")
assert r["aa"]["resolved"] and abs(r["aa"]["change_pct"] - 10) < 0.01, r["aa"]
assert r["doubt"] == ["aa"], r["doubt"]
assert any(n.startswith("A/A pair moved (b against a") and "b/1t +10.0%" in n for n in d["notes"]), d["notes"]
w = open(sys.argv[2]).read()
assert "| A/A b vs a change % [95% CI] | A/A p (raw) | A/A MDE |" in w, w
assert "- A/A pair moved (b against a" in w, w
PY
"$RCUPROF" compare "$TMP/aawide.jsonl" --aa a,b > "$TMP/aawide.md" 2>&1 || fail "compare aawide"
"$RCUPROF" compare "$TMP/aamoved.jsonl" --aa a,b --format csv > "$TMP/aamoved.csv" || fail "compare aamoved csv"
"$RCUPROF" compare "$TMP/aawide.jsonl" --aa a,b --format csv > "$TMP/aawide.csv" || fail "compare aawide csv"
"$RCUPROF" compare "$TMP/aaquiet.jsonl" --format csv > "$TMP/aanone.csv" || fail "compare aanone csv"
"$PY" - "$TMP/aamoved.csv" "$TMP/aawide.csv" "$TMP/aanone.csv" <<'PY' && pass "aa: CSV keeps the pair (its change, interval, p, MDE on every row of the count) and each row's doubt; state columns stay last" || fail "aa csv: $(cat "$TMP/aamoved.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
hdr = open(sys.argv[1]).readline().strip().split(",")
assert hdr[-5:] == ["state", "runs_fast", "runs_slow", "runs_mixed", "runs_unknown"], hdr
assert rows and all(r["aa"] == "b vs a" for r in rows), rows
for r in rows:
    assert abs(float(r["aa_change_pct"]) - 10) < 0.01, r
    assert float(r["aa_change_lo_pct"]) > 9 and float(r["aa_change_hi_pct"]) < 11, r
    assert float(r["aa_p"]) < 0.05 and r["aa_resolved"] == "1" and r["aa_mde_pct"] != "", r
    assert r["doubt"] == "aa", r
w = list(csv.DictReader(open(sys.argv[2])))
assert all(r["doubt"] == "aa_floor" for r in w), w
n = list(csv.DictReader(open(sys.argv[3])))
assert all(r["aa"] == "" and r["aa_change_pct"] == "" and r["doubt"] == "" for r in n), n
PY
grep -q "^| 1 ⚠ | [0-9.]* | [0-9.]* -3.0% \[.*\] ✓ | " "$TMP/aawide.md" \
    && grep -qx "⚠ at 1 thread: a ✓ change is smaller than the A/A pair's interval reaches, so it is not established here." "$TMP/aawide.md" \
    && pass "aa: a resolved -3% inside the A/A pair's reach is marked" || fail "aawide: $(cat "$TMP/aawide.md")"
expect_error 2 "--aa 'a': give two variants as A,B" "$RCUPROF" compare "$TMP/aaquiet.jsonl" --aa a --out "$TMP/aa-bad.md"
expect_error 2 "--aa 'a,zz': give two different variants of the results, A,B" "$RCUPROF" compare "$TMP/aaquiet.jsonl" --aa a,zz --out "$TMP/aa-bad.md"
expect_error 2 "--aa 'a,a': give two different variants" "$RCUPROF" compare "$TMP/aaquiet.jsonl" --aa a,a --out "$TMP/aa-bad.md"
[ ! -e "$TMP/aa-bad.md" ] && pass "aa: nothing written on refusal" || fail "aa: wrote on refusal"
# --- notes: only with --notes (or md-wide); outliers from 10 runs ---
"$RCUPROF" compare "$TMP/tail.jsonl" > "$TMP/tail-plain.md" 2>&1 || fail "compare tail plain"
"$RCUPROF" compare "$TMP/tail.jsonl" --format md-wide > "$TMP/tail-wide.md" 2>&1 || fail "compare tail wide"
! grep -q "Notes:" "$TMP/tail-plain.md" && grep -q "^- stalls" "$TMP/tail-wide.md" && grep -q "^- stalls" "$TMP/tail.md" \
    && [ "$(grep -c . "$TMP/tail-plain.md")" -eq 4 ] \
    && pass "notes: none by default (table, legend: 4 lines), with --notes and md-wide" || fail "notes: $(cat "$TMP/tail-plain.md")"
"$RCUPROF" compare "$TMP/outl.jsonl" --notes > "$TMP/outl.md" 2>&1 || fail "compare outl"
grep -q "^- outliers (modified z-score beyond 3.5, flagged in cells of 10 runs or more; kept in the figures): base/1t block 12 (z +[0-9.]*)$" "$TMP/outl.md" \
    && ! grep -q "outliers" "$TMP/most.md" \
    && pass "outliers: the last of 12 blocks named block 12; none flagged among 5 runs" || fail "outliers: $(grep outliers "$TMP/outl.md" "$TMP/most.md")"
# --- README's showcase (docs/readme/showcase): the default compare output
# a reviewer pastes is at most 1,500 characters, and it decides something:
# a resolved change in a row nothing puts in doubt, within the CPUs.
SHOW="$RCUPROF_SRC/docs/readme/showcase/results.jsonl"
"$RCUPROF" compare "$SHOW" --baseline stock --aa rcu-sync,rcu-nosync > "$TMP/show.md" 2>"$TMP/show.err" \
    || fail "compare the showcase: $(cat "$TMP/show.err")"
"$PY" - "$TMP/show.md" <<'PY' && pass "showcase: at most 1,500 characters, a resolved change in a trusted row" || fail "showcase: $(cat "$TMP/show.md")"
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
assert len(t) <= 1500, len(t)
rows = [l for l in t.splitlines() if re.match(r"^\| \d", l)]
assert rows and all(re.match(r"^\| [12] ", l) for l in rows), rows
assert any("✓" in l and "⚠" not in l for l in rows), rows
assert "A/A rcu-nosync vs rcu-sync" in t.splitlines()[0], t
PY
for f in churn nochurn rcu-readers; do
    "$RCUPROF" compare "$RCUPROF_SRC/docs/case-study-24344/$f/results.jsonl" --by-state --format json --out "$TMP/bs-$f.json" \
        || fail "compare $f --by-state"
done
"$PY" - "$TMP"/bs-churn.json "$TMP"/bs-nochurn.json "$TMP"/bs-rcu-readers.json <<'PY' && pass "by-state, stored results: every change agrees in sign with the means it is computed from; those against the cells are marked" || fail "by-state: change and cells"
import json, math, sys
sign = lambda x: (x > 1e-12) - (x < -1e-12)
against = 0
for path in sys.argv[1:]:
    d = json.load(open(path))
    for r in d["rows"]:
        base = r["cells"][d["baseline"]]
        for v, ch in r["changes"].items():
            if ch is None:
                continue
            cell = r["cells"][v]
            if ch["paired"]:
                pr = ch["pairs_geomean"] / ch["pairs_base_geomean"] - 1
                assert sign(pr) == sign(ch["change_pct"]), (path, r["threads"], r["state"], v, ch)
                assert ch["partial"] == (ch["pairs"] < base["n"] or ch["pairs"] < cell["n"]), ch
            cr = cell["geomean"] / base["geomean"] - 1
            if sign(cr) != sign(ch["change_pct"]):
                assert ch["partial"], (path, r["threads"], r["state"], v, ch, cr)
                against += 1
assert against >= 3, against
PY
"$RCUPROF" compare "$RCUPROF_SRC/docs/case-study-24344/churn/results.jsonl" --by-state --notes > "$TMP/bs-churn.md" 2>&1 || fail "compare churn --by-state md"
grep -q "^| 16 mixed ⚠ | 1847.6 | 2026.6 -5.9% \[-\] (common blocks) too few (n=2) |" "$TMP/bs-churn.md" \
    && grep -q "^- changes from the common blocks only .*rcu-sync/16t mixed 2 blocks (cells of 2 and 3 runs): stock 1847.6, rcu-sync 1739.0, -5.9%" "$TMP/bs-churn.md" \
    && pass "churn 16 mixed: the -5.9% beside cells of +9.7% is marked and its means given" \
    || fail "churn by-state: $(grep -e '16 mixed' -e 'common blocks' "$TMP/bs-churn.md")"
# too few blocks decide nothing: no interval beside them, and a row with no
# other change prints "-" for its MDE (not 2967829597.4%)
if grep -E '\[[-+][0-9.]+, [-+][0-9.]+\]( \((unpaired|common blocks)\))* too few' "$TMP/bs-churn.md" >/dev/null; then
    fail "by-state: an interval beside too few blocks: $(grep -m1 'too few' "$TMP/bs-churn.md")"
elif grep -q '^| 16 slow ⚠ |.* too few (n=2) | - |$' "$TMP/bs-churn.md"; then
    pass "by-state: too few blocks print - for the interval and the row's MDE"
else
    fail "by-state: 16 slow row: $(grep '^| 16 slow' "$TMP/bs-churn.md")"
fi
finish
