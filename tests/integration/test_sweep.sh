# rcuprof sweep, compare and report end to end: the results file, resume
# after a kill, a changed spec refused, failed runs recorded, the tables and
# the plots.  Two built variants; short windows (about 30 s in all).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
IFS=',' read -r -a built <<< "$RCUPROF_VARIANTS_BUILT"
if [ "${#built[@]}" -lt 2 ]; then
    echo "SKIPPED: needs two built variants, have '$RCUPROF_VARIANTS_BUILT'"
    exit 77
fi
A=${built[0]}
B=${built[1]}
RUN=(--duration-ms 50 --warmup-ms 10)
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"

# check_points FILE WANT: the header validates against the schema, every
# point line is a point, no (block, threads, variant) twice, WANT points.
check_points() {
    "$PY" - "$RCUPROF_SRC/docs/schema/results-header.schema.json" "$1" "$2" <<'PY'
import json, sys, hashlib
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
lines = open(sys.argv[2]).read().split("\n")
assert lines[-1] == "", "file does not end with a newline"
rows = [json.loads(l) for l in lines[:-1]]
h = rows[0]
errs = list(jsonschema.Draft202012Validator(schema).iter_errors(h))
assert not errs, errs
canon = json.dumps(h["spec"], sort_keys=True, separators=(",", ":"))
assert hashlib.sha256(canon.encode()).hexdigest() == h["spec_hash"], "hash"
point = dict(schema["$defs"]["point"], **{"$defs": schema["$defs"]})
keys = []
for p in rows[1:]:
    e = list(jsonschema.Draft202012Validator(point).iter_errors(p))
    assert not e, e
    keys.append((p["block"], p["threads"], p["variant"]))
assert len(keys) == len(set(keys)), "duplicated points"
assert len(keys) == int(sys.argv[3]), "%d points, wanted %s" % (len(keys), sys.argv[3])
PY
}

# --- Bad input: one line, exit 2, nothing written. ---
expect_error 2 "unknown variant 'nope'" "$RCUPROF" sweep --variants "$A",nope --threads 1 --reps 1 --out "$TMP/bad"
expect_error 2 "--threads" "$RCUPROF" sweep --variants "$A","$B" --threads 4-1 --reps 1 --out "$TMP/bad"
expect_error 2 "--reps '0'" "$RCUPROF" sweep --variants "$A","$B" --threads 1 --reps 0 --out "$TMP/bad"
expect_error 2 "repeated" "$RCUPROF" sweep --variants "$A","$A" --threads 1 --reps 1 --out "$TMP/bad"
# A point given twice, directly or through a range or a line alias.
expect_error 2 "--threads: thread list '1,1': 1 is given twice" "$RCUPROF" sweep --variants "$A","$B" --threads 1,1 --reps 1 --out "$TMP/bad"
expect_error 2 "2 is given twice" "$RCUPROF" sweep --variants "$A","$B" --threads 1-4,2 --reps 1 --out "$TMP/bad"
expect_error 2 "--propq '?fips=yes,,'" "$RCUPROF" sweep --variants "$A","$B" --threads 1 --reps 1 --propq '?fips=yes,,' --out "$TMP/bad"
expect_error 2 "'stock' is repeated" "$RCUPROF" sweep --variants stock,stock@3.5 --threads 1 --reps 1 --out "$TMP/bad"
expect_error 2 "unknown option" "$RCUPROF" sweep --variants "$A" --threads 1 --reps 1 --out "$TMP/bad" --bogus 1
expect_error 2 "does not exist" "$RCUPROF" sweep --variants "$A" --threads 1 --reps 1 --out "$TMP/bad" --resume
# A driver option the driver rejects: the first run says so, nothing kept.
expect_error 2 "libctx" "$RCUPROF" sweep --variants "$A","$B" --threads 1 --reps 1 --libctx shared "${RUN[@]}" --out "$TMP/bad"
[ -e "$TMP/bad" ] && fail "a refused sweep wrote $TMP/bad" || pass "refused sweeps wrote nothing"

# --- A tiny sweep: header + 2 variants x 2 thread counts x 3 reps. ---
if "$RCUPROF" sweep --variants "$A","$B" --threads 1,2 --reps 3 "${RUN[@]}" --out "$TMP/s1" \
        >"$TMP/s1.out" 2>"$TMP/s1.err"; then
    pass "tiny sweep ran"
else
    fail "tiny sweep: $(cat "$TMP/s1.err")"
fi
[ "$(wc -l < "$TMP/s1/results.jsonl")" -eq 13 ] && pass "header + 12 lines" || fail "$(wc -l < "$TMP/s1/results.jsonl") lines"
check_points "$TMP/s1/results.jsonl" 12 && pass "header validates, 12 distinct points" || fail "results file check"
"$PY" - "$TMP/s1/results.jsonl" "$A" "$B" <<'PY' && pass "every block has every point, orders shuffled per thread count, all ok" || fail "plan"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][1:]
assert all(r["status"] == "ok" and r["result"]["run"]["threads"] == r["threads"] for r in rows)
for b in range(3):
    for t in (1, 2):
        g = [r for r in rows if r["block"] == b and r["threads"] == t]
        assert sorted(r["variant"] for r in g) == sorted(sys.argv[2:]), g
        assert sorted(r["order"] for r in g) == [0, 1]
assert [r["seq"] for r in rows] == list(range(12))
assert [r["block"] for r in rows] == sorted(r["block"] for r in rows)
PY
grep -q "sweep: 12/12" "$TMP/s1.err" && pass "plain progress lines when stderr is not a terminal" || fail "progress: $(cat "$TMP/s1.err")"
expect_error 2 "exists: add --resume" "$RCUPROF" sweep --variants "$A","$B" --threads 1,2 --reps 3 "${RUN[@]}" --out "$TMP/s1"

# --- Killed midway, then resumed to completion. ---
S2=(--variants "$A","$B" --threads 1,2 --reps 6 "${RUN[@]}" --seed 42 --out "$TMP/s2")
timeout -s TERM 1.5 "$RCUPROF" sweep "${S2[@]}" >/dev/null 2>&1
rc=$?
n=$(($(wc -l < "$TMP/s2/results.jsonl") - 1))
if [ "$rc" -eq 124 ] && [ "$n" -ge 1 ] && [ "$n" -lt 24 ]; then pass "killed after $n of 24 points"; else fail "kill: rc $rc, $n points"; fi
# As if killed mid-write: a torn last line.
printf '{"type":"point","block":5,"thr' >> "$TMP/s2/results.jsonl"
expect_error 2 "spec differs" "$RCUPROF" sweep --variants "$A","$B" --threads 1,2 --reps 7 "${RUN[@]}" --seed 42 --out "$TMP/s2" --resume
expect_error 2 "spec differs" "$RCUPROF" sweep --variants "$A","$B" --threads 1,2 --reps 6 --duration-ms 60 --warmup-ms 10 --seed 42 --out "$TMP/s2" --resume
if "$RCUPROF" sweep "${S2[@]}" --resume >"$TMP/s2.out" 2>"$TMP/s2.err"; then
    pass "resumed"
else
    fail "resume: $(cat "$TMP/s2.err")"
fi
grep -q "torn last line" "$TMP/s2.err" && pass "torn line reported" || fail "torn line not reported"
grep -q "$((24 - n)) points run .*, $n already done" "$TMP/s2.out" && pass "ran only the $((24 - n)) missing points" || fail "resume ran: $(cat "$TMP/s2.out")"
check_points "$TMP/s2/results.jsonl" 24 && pass "24 points after resume, none twice" || fail "after resume"
"$RCUPROF" sweep --out "$TMP/s2" --resume 2>/dev/null | grep -q "0 points run" \
    && pass "bare --resume of a finished sweep runs nothing" || fail "bare resume"

# --- Failed runs are recorded and the sweep goes on (stand-in drivers). ---
fake="$TMP/fakebin"
mkdir -p "$fake"
cp "$RCUPROF" "$fake/rcuprof"
ln -s "$RCUPROF_BINDIR/rcuprof-stress-$A" "$fake/rcuprof-stress-$A"
printf '#!/bin/sh\necho "{\\"error\\":\\"run\\",\\"message\\":\\"boom\\"}" >&2\nkill -SEGV $$\n' > "$fake/rcuprof-stress-$B"
chmod +x "$fake/rcuprof-stress-$B"
RCUPROF_BINDIR=$fake "$fake/rcuprof" sweep --variants "$A","$B" --threads 1,2 --reps 2 "${RUN[@]}" --out "$TMP/s3" >/dev/null 2>"$TMP/s3.err"
rc=$?
[ "$rc" -eq 1 ] && pass "sweep with crashes exits 1" || fail "sweep with crashes: exit $rc"
"$PY" - "$TMP/s3/results.jsonl" "$A" "$B" <<'PY' && pass "crashes recorded with signal and message, the rest ok" || fail "crash records"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][1:]
assert len(rows) == 8, len(rows)
for r in rows:
    if r["variant"] == sys.argv[3]:
        assert r["status"] == "crashed" and r["signal"] == 11 and r["message"] == "boom" and r["result"] is None and "boom" in r["stderr"], r
    else:
        assert r["status"] == "ok" and r["result"] is not None, r
PY
printf '#!/bin/sh\nsleep 30\n' > "$fake/rcuprof-stress-$B"
RCUPROF_BINDIR=$fake "$fake/rcuprof" sweep --variants "$B","$A" --threads 1 --reps 1 --timeout 1 "${RUN[@]}" --out "$TMP/s4" >/dev/null 2>&1
"$PY" -c "
import json, sys
rows = [json.loads(l) for l in open('$TMP/s4/results.jsonl')][1:]
st = {r['variant']: r['status'] for r in rows}
assert st == {'$B': 'timeout', '$A': 'ok'}, st
" && pass "a hung run is killed, recorded as timeout, and the sweep goes on" || fail "timeout record"
# A driver result that is not a measurement (no op in the window): the
# point is failed with the decoder's reason, its result kept (one rule for a
# bad value: analysis/record.h).
printf '#!/bin/sh\necho "{\\"schema\\":\\"rcuprof-run/1\\",\\"build\\":{\\"driver_protocol\\":1},\\"run\\":{\\"threads\\":1,\\"wall_ns_per_op\\":null,\\"cpu_ns_per_op\\":null}}"\n' > "$fake/rcuprof-stress-$B"
RCUPROF_BINDIR=$fake "$fake/rcuprof" sweep --variants "$A","$B" --threads 1 --reps 1 "${RUN[@]}" --out "$TMP/s6" >/dev/null 2>&1
rc=$?
"$PY" -c "
import json
rows = [json.loads(l) for l in open('$TMP/s6/results.jsonl')][1:]
st = {r['variant']: r for r in rows}
b = st['$B']
assert b['status'] == 'failed' and 'not a measurement' in b['message'] and 'run.wall_ns_per_op' in b['message'] and b['result'] is not None, b
assert st['$A']['status'] == 'ok'
" && [ "$rc" -eq 1 ] && pass "a result that is not a measurement is a failed point, with the reason" || fail "invalid result record (exit $rc)"
# A driver of another protocol (build.driver_protocol, rcuprof_protocol.h):
# refused with one line, and a fresh sweep writes nothing.
printf '#!/bin/sh\necho "{\\"schema\\":\\"rcuprof-run/1\\",\\"build\\":{\\"driver_protocol\\":99},\\"run\\":{\\"threads\\":1}}"\n' > "$fake/rcuprof-stress-$B"
RCUPROF_BINDIR=$fake expect_error 2 "$B: the driver speaks protocol 99" "$fake/rcuprof" sweep --variants "$B" --threads 1 --reps 1 "${RUN[@]}" --out "$TMP/s7"
[ ! -e "$TMP/s7/results.jsonl" ] && pass "a refused protocol writes no results file" || fail "s7 written"
# --host NAME (issue 27): an unknown host is one line before anything runs.
expect_error 2 "--host nosuch: unknown host" "$RCUPROF" sweep --variants "$A" --threads 1 --reps 1 "${RUN[@]}" --host nosuch --out "$TMP/h1"
[ ! -e "$TMP/h1" ] && pass "an unknown host creates nothing" || fail "h1 created"
# A failing fetch in the real driver (exit 4): failed, with the driver's message.
RCUPROF_INJECT_FETCH_FAILURE=1 "$RCUPROF" sweep --variants "$A" --threads 1 --reps 1 "${RUN[@]}" --out "$TMP/s5" >/dev/null 2>&1
"$PY" -c "
import json
r = [json.loads(l) for l in open('$TMP/s5/results.jsonl')][1]
assert r['status'] == 'failed' and r['exit'] == 4 and r['message'], r
" && pass "driver exit 4 recorded as failed with its message" || fail "injected failure"

# --- Adaptive repetitions (--target-mde, --max-time; issue 18), on
# stand-in drivers whose figures are a recorded result with set costs: the
# baseline costs 1000 ns, the candidate exp(0.1), exp(0.3), exp(0.2) times
# that in the three first-stage blocks (log ratios of SD 0.1) and
# exp(0.25) times after.  Stein's rule (docs/methodology.md section 3): a 20% MDE
# needs (5.363313 x 0.1 / ln 1.2)^2 = 8.65, so 9 blocks.  Deterministic:
# nothing here depends on the machine's speed but the --max-time part,
# which asserts the reason and the file, not a count. ---
"$PY" - "$TMP/s1/results.jsonl" "$TMP/template.json" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][1]["result"]
json.dump(r, open(sys.argv[2], "w"))
PY
adir="$TMP/adapt"
mkdir -p "$adir"
cp "$RCUPROF" "$adir/rcuprof"
for v in "$A" "$B"; do
cat > "$adir/rcuprof-stress-$v" <<PY
#!/usr/bin/python3
import json, math, os, time
base = "$v" == "$A"
cnt = "$adir/count-$v"
k = int(open(cnt).read()) if os.path.exists(cnt) else 0
open(cnt, "w").write(str(k + 1))
time.sleep(float(os.environ.get("STANDIN_SLEEP", "0")))
lr = [0.1, 0.3, 0.2][k] if k < 3 else 0.25
w = 1000.0 if base else 1000.0 * math.exp(lr)
r = json.load(open("$TMP/template.json"))
r["run"]["wall_ns_per_op"] = w
r["run"]["cpu_ns_per_op"] = w
# the raw members the per-op figures are (record.h: they must agree)
r["run"]["ops"] = 10 ** 7
r["run"]["wall_ns"] = round(w * 10 ** 7 / r["run"]["threads"])
r["run"]["cpu_ns"] = round(w * 10 ** 7)
r["run"]["ops_per_s"] = 1e9 / w
print(json.dumps(r))
PY
chmod +x "$adir/rcuprof-stress-$v"
done
AS=(--variants "$A","$B" --threads 1 --reps 3 --target-mde 20 "${RUN[@]}" --seed 7)
expect_error 2 "--target-mde '0'" "$adir/rcuprof" sweep "${AS[@]}" --target-mde 0 --out "$TMP/abad"
expect_error 2 "--max-time 'soon'" "$adir/rcuprof" sweep "${AS[@]}" --max-time soon --out "$TMP/abad"
expect_error 2 "need at least 3" "$adir/rcuprof" sweep "${AS[@]}" --reps 2 --out "$TMP/abad"
expect_error 2 "give --target-mde PCT too" "$adir/rcuprof" sweep --variants "$A","$B" --threads 1 --reps 3 --max-time 60 "${RUN[@]}" --out "$TMP/abad"
# Interrupted in the adaptive blocks (the stand-in's count file tells when
# the candidate's fourth run started), then resumed: nothing lost, the
# same 9 blocks in the end.
( STANDIN_SLEEP=0.1 RCUPROF_BINDIR=$adir "$adir/rcuprof" sweep "${AS[@]}" --out "$TMP/a1" >/dev/null 2>"$TMP/a1a.err" & echo $! > "$TMP/a1.pid"; wait ) &
for _ in $(seq 1 600); do
    [ "$(cat "$adir/count-$B" 2>/dev/null || echo 0)" -ge 4 ] && break
    sleep 0.05
done
kill -TERM "$(cat "$TMP/a1.pid")" 2>/dev/null
wait
[ "$(grep -c "^rcuprof: warning: sweep: --target-mde with a first stage of 3 blocks (--reps 3): .*--reps 5 to 10 recommended$" "$TMP/a1a.err")" = 1 ] \
    && pass "adaptive sweep: one warning line for a first stage under 5 blocks" \
    || fail "adaptive sweep: no first-stage warning: $(head -3 "$TMP/a1a.err")"
n1=$(($(wc -l < "$TMP/a1/results.jsonl") - 1))
if RCUPROF_BINDIR=$adir "$adir/rcuprof" sweep "${AS[@]}" --out "$TMP/a1" --resume >"$TMP/a1.out" 2>"$TMP/a1.err"; then
    pass "adaptive sweep resumed after a kill at $n1 points"
else
    fail "adaptive resume: $(cat "$TMP/a1.err")"
fi
grep -q "adaptive: target reached after 9 blocks: worst MDE 1[0-9].[0-9]% <= 20%" "$TMP/a1.out" \
    && pass "stopped when the target was reached: 9 blocks" || fail "adaptive stop: $(cat "$TMP/a1.out" "$TMP/a1.err")"
cat "$TMP/a1a.err" "$TMP/a1.err" | grep -q "sweep: adaptive: [0-9]* blocks, worst MDE [0-9.]*% ($B@1), target 20%: 9 blocks needed, eta" \
    && pass "progress shows the worst MDE, the blocks needed and the time left" || fail "adaptive progress: $(cat "$TMP/a1a.err" "$TMP/a1.err")"
check_points "$TMP/a1/results.jsonl" 18 && pass "18 points, each appended once, none twice across the kill" || fail "adaptive points"
"$PY" - "$TMP/a1/results.jsonl" <<'PY' && pass "spec records the target; blocks 0..8, each complete" || fail "adaptive file"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows[0]["spec"]["target_mde_pct"] == 20 and rows[0]["spec"]["reps"] == 3, rows[0]
blocks = sorted(r["block"] for r in rows[1:])
assert blocks == sorted(list(range(9)) * 2), blocks
PY
# compare: MDE at or below the target at 9 blocks, above it at 8 (the
# file cut after block 7), the row Stein's.
"$RCUPROF" compare "$TMP/a1/results.jsonl" --format csv --out "$TMP/a9.csv"
"$PY" - "$TMP/a1/results.jsonl" "$TMP/a8.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
keep = [lines[0]] + [l for l in lines[1:] if json.loads(l)["block"] < 8]
open(sys.argv[2], "w").write("\n".join(keep) + "\n")
PY
"$RCUPROF" compare "$TMP/a8.jsonl" --format csv --out "$TMP/a8.csv"
"$PY" - "$TMP/a9.csv" "$TMP/a8.csv" "$B" <<'PY' && pass "compare: MDE <= 20% at 9 blocks, > 20% at 8" || fail "adaptive MDE in compare"
import csv, sys
m9 = [r for r in csv.DictReader(open(sys.argv[1])) if r["variant"] == sys.argv[3]][0]
m8 = [r for r in csv.DictReader(open(sys.argv[2])) if r["variant"] == sys.argv[3]][0]
assert float(m9["mde_pct"]) <= 20 < float(m8["mde_pct"]), (m9["mde_pct"], m8["mde_pct"])
assert m9["resolved"] == "1", m9
PY
"$RCUPROF" compare "$TMP/a1/results.jsonl" --notes | grep -q "adaptive sweep (target MDE 20%).*Stein's two-stage" \
    && pass "compare says how the adaptive intervals are made" || fail "adaptive note"
# --max-time: an unreachable target (1%: thousands of blocks), runs of
# 0.3 s; it stops with the reason, every point appended whole.
rm -f "$adir"/count-*
STANDIN_SLEEP=0.3 RCUPROF_BINDIR=$adir "$adir/rcuprof" sweep "${AS[@]}" --target-mde 1 --max-time 4 --out "$TMP/a2" >"$TMP/a2.out" 2>"$TMP/a2.err"
grep -q "adaptive: time ran out after [0-9]* blocks: worst MDE .* > target 1% .* blocks needed); the intervals are valid, only wider than asked" "$TMP/a2.out" \
    && pass "stopped when --max-time ran out, and says so" || fail "max-time: $(cat "$TMP/a2.out" "$TMP/a2.err")"
"$PY" - "$TMP/a2/results.jsonl" <<'PY' && pass "after --max-time: whole blocks, every line complete" || fail "max-time file"
import json, sys, collections
text = open(sys.argv[1]).read()
assert text.endswith("\n")
rows = [json.loads(l) for l in text.splitlines()][1:]
per = collections.Counter(r["block"] for r in rows)
assert min(per) == 0 and sorted(per) == list(range(len(per))) and set(per.values()) == {2}, per
assert 3 <= len(per) < 100, per
PY

# --- compare ---
"$RCUPROF" compare "$TMP/s2/results.jsonl" > "$TMP/c.md" 2>"$TMP/c.err" && pass "compare md" || fail "compare: $(cat "$TMP/c.err")"
grep -qF "| threads | $A (baseline) | $B |" "$TMP/c.md" \
    && pass "md (compact) header: one column per variant" || fail "md header: $(head -5 "$TMP/c.md")"
grep -qE '^\| 1( ⚠)? \| [0-9.]+ \| [0-9.]+ [+-][0-9.]+% \[[+-][0-9.]+, [+-][0-9.]+\]( \(unpaired\))?( ✓)? \| ([0-9.]+%|n/a) \|$' "$TMP/c.md" \
    && grep -qE '^\| 2 ' "$TMP/c.md" && pass "md rows for 1 and 2 threads" || fail "md rows: $(cat "$TMP/c.md")"
"$RCUPROF" compare "$TMP/s2/results.jsonl" --format md-wide > "$TMP/cw.md" 2>"$TMP/cw.err" || fail "compare md-wide: $(cat "$TMP/cw.err")"
grep -qF "| threads | $A ns/op [95% CI] | $A geo SD | $B ns/op [95% CI] | $B geo SD | change % [95% CI] | p (Holm) | MDE |" "$TMP/cw.md" \
    && pass "md-wide header in the seed's shape" || fail "md-wide header: $(head -5 "$TMP/cw.md")"
grep -qE '^\| 1 \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| ×[0-9.]+ \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| ×[0-9.]+ \| [+-][0-9.]+ \[[+-][0-9.]+, [+-][0-9.]+\] \| [0-9.<]+( \(raw [0-9.<]+\))? \| [0-9.]+% \|$' "$TMP/cw.md" \
    && grep -qE '^\| 2 ' "$TMP/cw.md" && pass "md-wide rows for 1 and 2 threads" || fail "md-wide rows: $(cat "$TMP/cw.md")"
"$RCUPROF" compare "$TMP/s2/results.jsonl" --format csv --out "$TMP/c.csv" && "$PY" - "$TMP/c.csv" "$A" "$B" <<'PY' && pass "CSV parses: 4 rows, 6 runs per cell, changes for $B" || fail "csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4, rows
assert all(int(r["n"]) == 6 for r in rows)
b = [r for r in rows if r["variant"] == sys.argv[3]]
assert all(r["paired"] == "1" and int(r["pairs"]) == 6 and float(r["mde_pct"]) > 0 for r in b), b
assert all(0 <= float(r["p_holm"]) <= 1 for r in b)
PY
"$RCUPROF" compare "$TMP/s2/results.jsonl" --format json --baseline "$B" --metric cpu_ns_per_op \
  | "$PY" -c "
import json, sys
d = json.load(sys.stdin)
assert d['schema'] == 'rcuprof-compare/1' and d['baseline'] == '$B' and d['metric'] == 'cpu_ns_per_op'
assert [r['threads'] for r in d['rows']] == [1, 2] and d['tests'] == 2
" && pass "compare json, --baseline, --metric" || fail "compare json"
# Machine state: every cell's runs by state add up to its runs; by state,
# the rows of a thread count split its runs, each row one state.
"$RCUPROF" compare "$TMP/s2/results.jsonl" --format json > "$TMP/st.json" \
  && "$RCUPROF" compare "$TMP/s2/results.jsonl" --format json --by-state > "$TMP/bs.json" \
  && "$PY" - "$TMP/st.json" "$TMP/bs.json" <<'PY' && pass "state mix per cell; --by-state splits each cell's runs by state" || fail "by-state: $(cat "$TMP/bs.json" | head -c 600)"
import json, sys
st, bs = (json.load(open(p)) for p in sys.argv[1:3])
assert st['by_state'] is False and bs['by_state'] is True
ms = st['files'][0]['machine_state']
assert ms['clusters'] in (0, 1, 2) and ms['samples'] >= 0, ms
for r in st['rows']:
    assert r['state'] == 'all'
    for c in r['cells'].values():
        assert sum(c['states'].values()) == c['n'], c
for r in st['rows']:
    for v, c in r['cells'].items():
        split = [b['cells'][v] for b in bs['rows'] if b['threads'] == r['threads']]
        assert sum(x['n'] for x in split) == c['n'], (r['threads'], v)
for b in bs['rows']:
    assert b['state'] in ('fast', 'slow', 'mixed', 'unknown'), b['state']
    for c in b['cells'].values():
        assert c['states'][b['state']] == c['n'], (b['state'], c)
PY
# Results written before the sampler load, compare and report: state unknown.
"$PY" - "$TMP/s2/results.jsonl" "$TMP/old.jsonl" <<'PY'
import json, sys
with open(sys.argv[2], 'w') as out:
    for line in open(sys.argv[1]):
        d = json.loads(line)
        rtt = ((d.get('result') or {}).get('run') or {}).get('line_rtt')
        if rtt:
            del rtt['window']
        out.write(json.dumps(d) + '\n')
PY
"$RCUPROF" compare "$TMP/old.jsonl" > "$TMP/old.md" 2>/dev/null && ! grep -qi "machine state" "$TMP/old.md" \
  && "$RCUPROF" compare "$TMP/old.jsonl" --by-state --notes 2>/dev/null | grep -q "machine state unknown: no round trip sampled inside the window" \
  && pass "results without the sampler: compared as before; by state, unknown" || fail "old results: $(cat "$TMP/old.md")"
"$RCUPROF" compare "$TMP/old.jsonl" --by-state --format csv | "$PY" -c "
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows and all(r['state'] == 'unknown' and int(r['runs_unknown']) == int(r['n']) for r in rows), rows
" && pass "results without the sampler, --by-state: one unknown row per count" || fail "old results by state"
"$RCUPROF" report "$TMP/old.jsonl" --by-state --out "$TMP/oldrep" >/dev/null 2>&1 && grep -q "rows by machine state (--by-state)" "$TMP/oldrep/results.md" \
  && pass "report --by-state on results without the sampler" || fail "old results report"
# Crashed points are left out and named.
"$RCUPROF" compare "$TMP/s3/results.jsonl" --notes 2>/dev/null | grep -q "failed runs, left out: $B/1t x2" \
    && pass "failed runs named in the notes" || fail "failed runs note"
# A torn last line is ignored with a warning; a corrupt middle line refused.
cp "$TMP/s1/results.jsonl" "$TMP/torn.jsonl"
printf '{"type":"po' >> "$TMP/torn.jsonl"
"$RCUPROF" compare "$TMP/torn.jsonl" >/dev/null 2>"$TMP/torn.err" && grep -q "torn last line ignored" "$TMP/torn.err" \
    && pass "torn line: warning, table still made" || fail "torn: $(cat "$TMP/torn.err")"
{ head -3 "$TMP/s1/results.jsonl"; echo 'garbage'; tail -n +4 "$TMP/s1/results.jsonl"; } > "$TMP/mid.jsonl"
expect_error 2 "$TMP/mid.jsonl line 4 is not a valid point (not JSON" "$RCUPROF" compare "$TMP/mid.jsonl"
echo 'this is not json' > "$TMP/notjson.jsonl"
expect_error 2 "is not a results file" "$RCUPROF" compare "$TMP/notjson.jsonl"
tail -n +2 "$TMP/s1/results.jsonl" > "$TMP/nohdr.jsonl"
expect_error 2 "not a results header" "$RCUPROF" compare "$TMP/nohdr.jsonl"
sed '1s/"reps":3/"reps":4/' "$TMP/s1/results.jsonl" > "$TMP/edited.jsonl"
expect_error 2 "spec_hash does not match" "$RCUPROF" compare "$TMP/edited.jsonl"
expect_error 2 "cannot read" "$RCUPROF" compare "$TMP/missing.jsonl"
expect_error 2 "--baseline 'nope'" "$RCUPROF" compare "$TMP/s1/results.jsonl" --baseline nope
expect_error 2 "--format" "$RCUPROF" compare "$TMP/s1/results.jsonl" --format xml
expect_error 2 "--metric" "$RCUPROF" compare "$TMP/s1/results.jsonl" --metric ops
# s5's only point failed: nothing to report, one variant or several.
expect_error 2 "no successful run" "$RCUPROF" compare "$TMP/s5/results.jsonl"
expect_error 2 "--scaling takes --format md or json" "$RCUPROF" compare "$TMP/s1/results.jsonl" --scaling --format csv
# --scaling: the comparison unchanged, then each variant's scaling report.
"$RCUPROF" compare "$TMP/s1/results.jsonl" > "$TMP/c1.md" 2>/dev/null
"$RCUPROF" compare "$TMP/s1/results.jsonl" --scaling > "$TMP/c1s.md" 2>/dev/null
if [ "$(head -c "$(wc -c < "$TMP/c1.md")" "$TMP/c1s.md")" = "$(cat "$TMP/c1.md")" ] \
   && grep -q "^## Scaling of each variant" "$TMP/c1s.md" \
   && grep -q "^### $A" "$TMP/c1s.md" && grep -q "^### $B" "$TMP/c1s.md"; then
    pass "compare --scaling: the comparison, then a scaling report per variant"
else
    fail "compare --scaling: $(tail -5 "$TMP/c1s.md")"
fi
"$RCUPROF" compare "$TMP/s1/results.jsonl" --scaling --format json | "$PY" -c "
import json, sys
d = json.load(sys.stdin)
assert d['schema'] == 'rcuprof-compare/1' and sorted(d['scaling']) == sorted(['$A', '$B']), d.keys()
assert [r['threads'] for r in d['scaling']['$A']['rows']] == [1, 2]
" && pass "compare --scaling --format json: member scaling" || fail "compare --scaling json"

# --- report ---
if "$RCUPROF" report "$TMP/s2/results.jsonl" --out "$TMP/rep" >/dev/null 2>"$TMP/rep.err"; then
    pass "report ran"
else
    fail "report: $(cat "$TMP/rep.err")"
fi
for f in results.md results.csv results.json plots.gp; do
    [ -s "$TMP/rep/$f" ] && pass "report wrote $f" || fail "report: no $f"
done
cmp -s "$TMP/rep/results.md" "$TMP/c.md" && pass "results.md is compare's table" || fail "results.md differs from compare"
cmp -s "$TMP/rep/results-wide.md" "$TMP/cw.md" && pass "results-wide.md is compare's md-wide table" || fail "results-wide.md differs from compare --format md-wide"
for f in scaling.md scaling.csv; do
    [ -s "$TMP/rep/$f" ] && pass "report wrote $f" || fail "report: no $f"
done
grep -q "^Scaling of $A:" "$TMP/rep/scaling.md" && grep -q "^Scaling of $B:" "$TMP/rep/scaling.md" \
    && pass "scaling.md: a scaling report per variant" || fail "scaling.md per variant"
"$PY" -c "
import json
d = json.load(open('$TMP/rep/results.json'))
assert sorted(d['scaling']) == sorted(['$A', '$B']) and d['scaling']['$A']['rows'][0]['eff_first'] == 1, d['scaling']
" && pass "results.json: each variant's scaling beside the comparison" || fail "results.json scaling"
"$PY" -c "
import json
d = json.load(open('$TMP/rep/results.json'))
u = d['usl']['$A']
assert u['fitted'] is False and 'needs 5 distinct thread counts' in u['reason'], u
" && pass "USL not fitted with fewer than 5 thread counts, reason given" || fail "usl reason"
if command -v gnuplot >/dev/null; then
    for f in cost.png change.png throughput.png; do
        [ "$(head -c 8 "$TMP/rep/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
            && pass "$f is a PNG" || fail "$f is not a PNG"
    done
    grep -q "<svg" "$TMP/rep/cost.svg" && pass "cost.svg" || fail "cost.svg"
    [ "$(head -c 8 "$TMP/rep/efficiency.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
        && pass "efficiency.png is a PNG" || fail "efficiency.png is not a PNG"
    # Results from variants with the probe layer also get the probe plot.
    if "$PY" -c "
import json, sys
f = open(sys.argv[1]); next(f)
sys.exit(0 if any((json.loads(l).get('result') or {}).get('probes') for l in f if l.strip()) else 1)" "$TMP/s2/results.jsonl" 2>/dev/null; then
        [ "$(head -c 8 "$TMP/rep/probes.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
            && pass "probes.png is a PNG (results carry the probe layer)" || fail "probes.png missing"
    else
        [ ! -e "$TMP/rep/probes.png" ] && pass "no probe plot without probe results" || fail "probes.png without probes"
    fi
else
    echo "note: gnuplot not installed, plot checks skipped"
fi
ls "$TMP/rep" | grep -q '\.tmp' && fail "temp files left in the report folder" || pass "no temp files left"
# Without gnuplot: one line, tables still written.
PATH=/nonexistent "$RCUPROF" report "$TMP/s2/results.jsonl" --out "$TMP/rep2" >/dev/null 2>"$TMP/rep2.err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c . "$TMP/rep2.err")" -eq 1 ] && grep -q "gnuplot not found" "$TMP/rep2.err" \
   && [ -s "$TMP/rep2/results.md" ] && [ ! -e "$TMP/rep2/cost.png" ]; then
    pass "no gnuplot: one line, tables written"
else
    fail "no gnuplot: rc $rc, $(cat "$TMP/rep2.err")"
fi
# --- One build: its scaling report, from compare and report. ---
"$RCUPROF" sweep --variants "$A" --threads 1,2 --reps 3 "${RUN[@]}" --out "$TMP/one" >/dev/null 2>&1 \
    && pass "one-variant sweep ran" || fail "one-variant sweep"
"$RCUPROF" compare "$TMP/one/results.jsonl" > "$TMP/one.md" 2>"$TMP/one.err" \
    && grep -q "^Scaling of $A: wall time per op in ns/op" "$TMP/one.md" \
    && grep -qF "| threads | runs | ns/op [interval] | M ops/s [interval] | efficiency vs 1 | step efficiency | dip or knee |" "$TMP/one.md" \
    && grep -qE '^\| 1 \| 3 \| [0-9.]+ \[-?[0-9.]+, [0-9.]+\] \| [0-9.]+ \[-?[0-9.]+, [0-9.]+\] \| 1\.00 \| - \|' "$TMP/one.md" \
    && grep -qE '^\| 2 \| 3 \| [0-9.]+ \[' "$TMP/one.md" \
    && grep -q "^USL fit of the throughput" "$TMP/one.md" \
    && pass "compare on one variant: its scaling table" || fail "compare one variant: $(cat "$TMP/one.err" "$TMP/one.md")"
"$RCUPROF" compare "$TMP/one/results.jsonl" --format csv | "$PY" -c "
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert [int(r['threads']) for r in rows] == [1, 2] and all(r['variant'] == '$A' for r in rows), rows
assert float(rows[0]['eff_first']) == 1 and rows[0]['eff_step'] == '' and float(rows[1]['eff_step']) > 0, rows
" && pass "compare --format csv on one variant: the scaling rows" || fail "one-variant csv"
"$RCUPROF" compare "$TMP/one/results.jsonl" --format json | "$PY" -c "
import json, sys
d = json.load(sys.stdin)
assert d['schema'] == 'rcuprof-scaling/1' and d['variants'] == ['$A'], d
v = d['scaling']['$A']
assert [r['threads'] for r in v['rows']] == [1, 2] and v['usl']['fitted'] is False, v
" && pass "compare --format json on one variant: rcuprof-scaling/1" || fail "one-variant json"
expect_error 2 "--baseline 'nope'" "$RCUPROF" compare "$TMP/one/results.jsonl" --baseline nope
expect_error 2 "--by-state stratifies a comparison" "$RCUPROF" compare "$TMP/one/results.jsonl" --by-state
expect_error 2 "--by-state stratifies a comparison" "$RCUPROF" report "$TMP/one/results.jsonl" --by-state --out "$TMP/onebs"
[ ! -e "$TMP/onebs" ] && pass "report --by-state refused: nothing written" || fail "report --by-state on one variant wrote $TMP/onebs"
if "$RCUPROF" report "$TMP/one/results.jsonl" --out "$TMP/onerep" >/dev/null 2>"$TMP/onerep.err"; then
    pass "report on one variant ran"
else
    fail "report on one variant: $(cat "$TMP/onerep.err")"
fi
cmp -s "$TMP/onerep/results.md" "$TMP/one.md" && cmp -s "$TMP/onerep/scaling.md" "$TMP/one.md" \
    && pass "one variant: results.md and scaling.md are compare's scaling table" || fail "one-variant report tables"
if command -v gnuplot >/dev/null; then
    for f in cost.png throughput.png efficiency.png; do
        [ "$(head -c 8 "$TMP/onerep/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
            && pass "one variant: $f is a PNG" || fail "one variant: $f is not a PNG"
    done
fi
# The USL fit on a synthetic sweep: 8 thread counts on 8 CPUs, throughput
# from known coefficients (lambda 1e6, sigma 0.05, kappa 0.002) with a
# little deterministic noise; the fit recovers them and draws its line.
"$PY" - "$TMP/usl.jsonl" <<'PY'
import json, sys, hashlib
spec = {"variants": ["a", "b"], "threads": list(range(1, 9)), "reps": 2,
        "options": {}, "seed": 1, "rcuprof_version": "0.1.0"}
canon = json.dumps(spec, sort_keys=True, separators=(",", ":"))
h = {"type": "header", "schema": "rcuprof-results/1", "spec": spec,
     "spec_hash": hashlib.sha256(canon.encode()).hexdigest(),
     "timeout_s": 120, "created_unix_ns": 0}
out = [json.dumps(h)]
seq = 0
for b in range(2):
    for n in range(1, 9):
        for o, v in enumerate(["a", "b"]):
            x = 1e6 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1))
            x *= 1 + (0.004 if (n + b) % 2 else -0.004) * (1 if v == "a" else 1.5)
            out.append(json.dumps({"type": "point", "block": b, "threads": n,
                "variant": v, "order": o, "seq": seq, "start_unix_ns": 0,
                "status": "ok", "exit": 0, "signal": None, "seconds": 0.1,
                "message": None, "result": {"env": {"cpus_allowed": 8},
                "run": {"wall_ns_per_op": 1e9 * n / x, "cpu_ns_per_op": 1e9 * n / x,
                        "ops_per_s": x}}}))
            seq += 1
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
"$RCUPROF" report "$TMP/usl.jsonl" --out "$TMP/repusl" >/dev/null 2>"$TMP/repusl.err" && "$PY" -c "
import json
u = json.load(open('$TMP/repusl/results.json'))['usl']['a']
assert u['fitted'] and u['points'] == 16, u
assert abs(u['sigma'] - 0.05) < 0.01 and abs(u['kappa'] - 0.002) < 0.0005, u
assert u['sigma_lo'] <= 0.05 <= u['sigma_hi'], u
" && grep -q "usl0(x)" "$TMP/repusl/plots.gp" && pass "USL fitted on 8 counts: sigma, kappa recovered, line drawn" \
  || fail "USL fit: $(cat "$TMP/repusl.err")"
expect_error 2 "--out DIR is required" "$RCUPROF" report "$TMP/s2/results.jsonl"
expect_error 2 "is not a results file" "$RCUPROF" report "$TMP/notjson.jsonl" --out "$TMP/rep3"
[ -e "$TMP/rep3" ] && fail "report on a corrupt file made its folder" || pass "corrupt input: no report folder"
finish
