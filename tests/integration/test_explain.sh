# rcuprof explain end to end on this machine: listed counts 1, C, 2C (1, 2,
# 4 on the 2-CPU VM), five interleaved repetitions of 50 ms (a verdict rests
# on the interval of its ratio: two runs a cell give intervals too wide to
# decide anything).  Checks the classification from the measurements (2C
# threads oversubscribed, with utilisation at most about CPUs/threads and
# run-queue delay; C threads not), the round-trip matrix, that pinned runs ran where planned, both
# output files; a sweep's results explained; bad input refused with one
# line, exit 2 and nothing written.  Never asserts a timing.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"

V=stock
[[ ",$RCUPROF_VARIANTS_BUILT," == *",stock,"* ]] || V=$(first_variant)
C=$(nproc)
if [ "$C" -lt 2 ]; then
    echo "SKIPPED: needs 2 CPUs for a round-trip pair, have $C"
    exit 77
fi
if [ "$C" -gt 16 ]; then
    echo "SKIPPED: $C CPUs: 2x that many threads is too slow for this test"
    exit 77
fi
if [ "$C" -eq 2 ]; then LIST=1,2,4; else LIST=1,$C,$((2 * C)); fi
OVER=$((2 * C))

# ---- listed counts ------------------------------------------------------
OUT="$TMP/ex"
# Verdicts rest on intervals, so a loaded machine can leave the C -> 2C
# step unestablished (every rule then inconclusive, which is right).  Up to
# three tries for a run that establishes it: what is checked below is the
# classification of a step that was measured, not the machine's load.
for try in 1 2 3; do
    rm -rf "$OUT"
    "$RCUPROF" explain --threads "$LIST" --variant "$V" --reps 5 \
        --duration-ms 50 --out "$OUT" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    [ "$rc" -eq 0 ] && "$PY" - "$OUT/explain.json" "$OVER" <<'PY' && break
import json, sys
rep = json.load(open(sys.argv[1]))
case = next(c for c in rep["cases"] if c["threads"] == int(sys.argv[2]))
sys.exit(0 if "oversubscription" in case["causes"] else 1)
PY
    echo "note: try $try did not establish the $C -> $OVER step (load $(cut -d' ' -f1 /proc/loadavg)); again"
done
[ "$rc" -eq 0 ] && pass "explain --threads $LIST exits 0" \
    || fail "explain --threads $LIST: exit $rc: $(tail -3 "$TMP/stderr")"
[ -s "$OUT/explain.md" ] && pass "explain.md written" || fail "no explain.md"
[ -s "$OUT/explain.json" ] && pass "explain.json written" || fail "no explain.json"
cmp -s "$OUT/explain.md" "$TMP/stdout" && pass "explain.md is what was printed" \
    || fail "stdout differs from explain.md"
ls "$OUT" | grep -q '\.tmp\.' && fail "temporary files left in $OUT" \
    || pass "no temporary files left"

"$PY" - "$OUT/explain.json" "$OUT/explain.md" "$C" "$OVER" <<'PY' || fail "explain.json checks (above)"
import json, sys
rep = json.load(open(sys.argv[1]))
md = open(sys.argv[2]).read()
C, OVER = int(sys.argv[3]), int(sys.argv[4])
errs = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        errs.append(what)

check(rep["schema"] == "rcuprof-explain/1", "schema rcuprof-explain/1")
check(rep["mode"] == "threads", "mode threads")
vs = json.load(open(__import__("os").environ["RCUPROF_VARIANTS_FILE"]))
want_line = next((v["line"] for v in vs["variants"] if v["name"] == rep["variant"]), None)
want_ver = vs["lines"].get(want_line, {}).get("openssl_version") if want_line else None
check(want_line is not None and rep["line"] == want_line and rep["openssl_version"] == want_ver,
      "the variant's line and OpenSSL version: %s %s (build: %s %s)"
      % (rep.get("line"), rep.get("openssl_version"), want_line, want_ver))
check(("OpenSSL %s (line %s)." % (rep.get("openssl_version"), rep.get("line"))) in md,
      "explain.md names the OpenSSL version and line")
check(rep["machine"]["cpus_allowed"] == C, "cpus_allowed %d" % C)
cases = {c["threads"]: c for c in rep["cases"]}
check(sorted(cases) == sorted({1, C, OVER}), "one case per listed count")

def rule(case, rid):
    return next(r for r in case["rules"] if r["id"] == rid)

# 2C threads: oversubscribed, with its evidence.
over = cases[OVER]
check(over["reference"] == C, "%d threads compared with %d" % (OVER, C))
check("oversubscription" in over["causes"],
      "%d threads classified oversubscribed (causes: %s)" % (OVER, over["causes"]))
r = rule(over, "oversubscription")
check(r["verdict"] == "supported", "oversubscription supported")
check(any("%d threads > %d CPUs" % (OVER, C) in s for s in r["for"]),
      "evidence: threads > CPUs")
check(any("waited for a CPU" in s for s in r["for"]), "evidence: run-queue delay")
base = [m for m in over["measurements"]
        if m["threads"] == OVER and m["baseline"]][0]["metrics"]
util = base["utilisation"]
check(util is not None and 0 < util <= C / OVER * 1.25,
      "utilisation %s at most about %.2f" % (util, C / OVER))
check((base["runq_ns_per_kop"] or 0) > 0, "run-queue delay per 1k ops > 0")
check((base["runq_share"] or 0) > 0, "run-queue share > 0")

# C threads: every thread had a CPU; not oversubscription.
mid = cases[C]
check(rule(mid, "oversubscription")["verdict"] == "refuted",
      "%d threads: oversubscription refuted" % C)
check("oversubscription" not in mid["causes"], "%d threads not oversubscribed" % C)
check(mid["summary"] != over["summary"], "the two steps are classified differently")
# First count: no reference.
check(rule(cases[1], "placement")["verdict"] == "not testable",
      "1 thread: placement not testable (no reference)")

# One package, one L3, no SMT here: said, with the reason.
if rep["machine"]["packages"] <= 1 and rep["machine"]["l3_domains"] <= 1:
    r = rule(over, "cross_domain")
    check(r["verdict"] == "not testable" and "one package" in r["reason"],
          "cross-domain: not testable here, with the reason")
if not rep["machine"]["smt"]:
    check(rule(over, "smt")["verdict"] == "not testable", "SMT: not testable here")
if not rep["machine"]["pmu"]:
    check(rule(over, "frequency")["verdict"] == "not testable",
          "frequency: not testable without a PMU")
    check(any("coherence counters not collected" in n for n in rep["notes"]),
          "notes say why coherence counters were skipped")

# Round-trip matrix: the pair (0,1), a positive time.
pairs = {(p["a"], p["b"]): p for p in rep["rtt"]["pairs"]}
check((0, 1) in pairs, "round-trip matrix has the pair (0,1)")
check(((pairs.get((0, 1)) or {}).get("ns") or 0) > 0, "pair (0,1) time > 0")
check(rep["rtt"]["matrix"][0][1] is not None, "matrix cell [0][1] filled")

# Pinned runs ran where planned.
pinned = [m for c in rep["cases"] for m in c["measurements"]
          if m["planned_cpus"] is not None and m["metrics"]["runs"] > 0]
check(len(pinned) > 0, "pinned placements were run")
# A pinned thread is judged by the CPUs it reported in its window; one
# that never entered the window (late on a loaded machine) reports -1 and
# is not judged (it used to read as CPU 0, and so as misplaced).
check(all(m["metrics"]["placed"] is not False for m in pinned),
      "no pinned run started or ended off its planned CPU")
check(any(m["metrics"]["placed"] is True for m in pinned),
      "pinned runs were judged against their plan")
unpinned = [m for c in rep["cases"] for m in c["measurements"]
            if m["planned_cpus"] is None and m["metrics"]["runs"] > 0]
check(all(m["metrics"]["placed"] is None for m in unpinned),
      "unpinned runs are not judged against a plan")
check(any(m["harness"] == "perftools" for m in over["measurements"]),
      "the --compat perftools counterpart ran")

# Every rule is answered in each case, and the markdown shows it.
ids = [r["id"] for r in rep["rules"]]
check(all([r["id"] for r in c["rules"]] == ids for c in rep["cases"]),
      "every case answers every rule")
check("| oversubscription | **supported** |" in md, "markdown evidence table")
check("## Cache-line round trips" in md, "markdown round-trip section")
sys.exit(1 if errs else 0)
PY
[ $? -eq 0 ] && pass "explain.json and explain.md content"

# ---- a sweep's results file ---------------------------------------------
SW="$TMP/sweep"
if "$RCUPROF" sweep --variants "$V" --threads 1,"$OVER" --reps 2 --seed 3 \
        --duration-ms 50 --warmup-ms 10 --out "$SW" >/dev/null 2>&1; then
    "$RCUPROF" explain "$SW/results.jsonl" --reps 1 --out "$TMP/ex2" \
        >"$TMP/stdout2" 2>"$TMP/stderr2"
    rc=$?
    # Two blocks may flag no step: then a one-line refusal, nothing written.
    if [ "$rc" -eq 2 ] && [ "$(wc -l < "$TMP/stderr2")" -eq 1 ] \
       && grep -q "holds no dip and no separated knee of $V (threads 1, $OVER): explain needs a flagged step" "$TMP/stderr2" \
       && [ ! -e "$TMP/ex2" ]; then
        pass "explain RESULTS with no flagged step: refused, nothing written"
    else
    [ "$rc" -eq 0 ] && pass "explain RESULTS exits 0" \
        || fail "explain RESULTS: exit $rc: $(tail -3 "$TMP/stderr2")"
    "$PY" - "$TMP/ex2/explain.json" "$V" <<'PY' && pass "explain RESULTS: detection and the sweep's options" || fail "explain RESULTS json"
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["mode"] == "results", rep["mode"]
d = rep["detection"][sys.argv[2]]
assert [c["threads"] for c in d["counts"]] == sorted(c["threads"] for c in d["counts"])
assert all(c["runs"] == 2 for c in d["counts"]), d["counts"]
assert rep["options"].get("warmup-ms") == "10", rep["options"]
for f in d["findings"]:
    assert f["kind"] in ("dip", "knee") and f["confidence"] in ("high", "medium", "low")
flagged = [(f["threads"], f["vs"]) for f in d["findings"] if f["flagged"]]
assert flagged and sorted(flagged) == sorted((c["threads"], c["reference"]) for c in rep["cases"]), (flagged, rep["cases"])
PY
    fi
else
    fail "the sweep for explain RESULTS failed"
fi

# ---- adaptive repetitions (issue 18): --reps 3 as the first stage, then
# blocks until every cell's MDE is at most 400% or 20 s have passed.  Which
# of the two stops it depends on this machine's noise, so the test checks
# that a note says which, that whole blocks ran, and that the verdicts
# quote their ratios' intervals. ----
# (Exit 1, a run that failed, is the loaded machine's, not what this
# block is about: the report is still written and checked.)
"$RCUPROF" explain --threads 1,2 --variant "$V" --reps 3 --duration-ms 50 \
    --target-mde 400 --max-time 20 --out "$TMP/exa" >/dev/null 2>"$TMP/exa.err"
rc=$?
[ "$rc" -le 1 ] && [ -s "$TMP/exa/explain.json" ] \
    && pass "adaptive explain wrote its report (exit $rc)" \
    || fail "adaptive explain: exit $rc: $(tail -3 "$TMP/exa.err")"
[ "$(grep -c "^rcuprof: warning: explain: --target-mde with a first stage of 3 blocks (--reps 3): .*power at the target falls" "$TMP/exa.err")" = 1 ] \
    && pass "adaptive explain: one warning line for a first stage under 5 blocks" \
    || fail "adaptive explain: no first-stage warning: $(head -3 "$TMP/exa.err")"
grep -q "^explain: adaptive: [0-9]* blocks, worst MDE [0-9.]*% (.*), target 400%: [0-9]* blocks needed, eta" "$TMP/exa.err" \
    && pass "adaptive explain: progress shows the worst MDE, the blocks needed, the time left" \
    || fail "adaptive explain progress: $(grep adaptive "$TMP/exa.err" | head -3)"
"$PY" - "$TMP/exa/explain.json" <<'PY' && pass "adaptive explain: the note says why it stopped; verdicts quote intervals" || fail "adaptive explain json"
import json, re, sys
rep = json.load(open(sys.argv[1]))
notes = [n for n in rep["notes"] if n.startswith("adaptive: ")]
assert len(notes) == 1 and re.match(r"adaptive: (target reached|time ran out|block limit reached) after \d+ blocks \(first stage 3\)", notes[0]), rep["notes"]
assert int(re.search(r"after (\d+) blocks", notes[0]).group(1)) >= 3, notes
case = next(c for c in rep["cases"] if c["reference"] is not None)
lines = [l for r in case["rules"] for l in r["for"] + r["against"]]
assert any(re.search(r"\d\.\d\dx \[\d+\.\d\d, \d+\.\d\d\]", l) for l in lines), lines
PY
expect_error 2 "give --target-mde PCT too" "$RCUPROF" explain --threads 1,2 \
    --variant "$V" --max-time 60
expect_error 2 "--target-mde 'x'" "$RCUPROF" explain --threads 1,2 \
    --variant "$V" --target-mde x
expect_error 2 "need at least 3" "$RCUPROF" explain --threads 1,2 \
    --variant "$V" --target-mde 20 --reps 2

# ---- bad input: one line, exit 2, nothing written -------------------------
expect_error 2 "unknown variant" "$RCUPROF" explain --threads 1,2 \
    --variant no-such-variant --out "$TMP/bad1"
[ -e "$TMP/bad1" ] && fail "unknown variant: $TMP/bad1 was written" \
    || pass "unknown variant: nothing written"
expect_error 2 "--threads" "$RCUPROF" explain --threads 0,x --variant "$V" \
    --out "$TMP/bad2"
[ -e "$TMP/bad2" ] && fail "bad thread list: $TMP/bad2 was written" \
    || pass "bad thread list: nothing written"
echo 'this is not json' > "$TMP/corrupt.jsonl"
expect_error 2 "not a results file" "$RCUPROF" explain "$TMP/corrupt.jsonl" \
    --out "$TMP/bad3"
[ -e "$TMP/bad3" ] && fail "corrupt results: $TMP/bad3 was written" \
    || pass "corrupt results file: nothing written"
expect_error 2 "--pin" "$RCUPROF" explain --threads 1,2 --variant "$V" \
    --pin compact
expect_error 2 "results files" "$RCUPROF" explain --variant "$V"
expect_error 2 "unknown option" "$RCUPROF" explain --threads 1 --bogus
"$RCUPROF" explain --help >/dev/null && pass "explain --help" \
    || fail "explain --help failed"
finish
