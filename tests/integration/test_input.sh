# Input the commands read (issue 28, item 6), on the committed case-study
# results (copied, never changed) and files made from them; no driver is
# run.  Every refusal: exit 2, one line naming the file or argument and
# what is allowed, nothing written (--out names a path that must stay
# absent).  Each case failed before its fix:
#   whatif:    compare of a whatif's file printed a scaling table; with a
#              sweep's it pooled the delayed runs into the sweep's stock
#              cell; report wrote 17 files (now: alone, whatif's own
#              outputs, as committed); explain read it as a sweep;
#   options:   two sweeps of other driver options (churn, no churn) were
#              pooled cell by cell; the same file twice counted its runs
#              twice;
#   explain:   a file of one thread count, or one without a flagged step,
#              ran nothing and wrote explain.md ("0 runs");
#   shape:     a mid-file line of valid JSON and wrong types was skipped
#              with a warning and the table printed as if whole;
#   1e308:     an ns/op of 1e308 was a measurement;
#   truncated: a file cut before its first ok run gave a warning and an
#              error (two lines);
#   stock@:    an empty line after @ said "is of OpenSSL , which".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
CS="$RCUPROF_SRC/docs/case-study-24344"
SW="$TMP/sweep.jsonl"
WI="$TMP/whatif.jsonl"
cp "$CS/nochurn-2cpu/results.jsonl" "$SW"
cp "$CS/whatif-stock/results.jsonl" "$WI"
cp "$CS/churn-2cpu/results.jsonl" "$TMP/churn.jsonl"

# refused CMD SUBSTRING ARGS...: exit 2, one line, and no $TMP/dest.
refused() {
    local cmd=$1 want=$2
    shift 2
    expect_error 2 "$want" "$RCUPROF" "$cmd" "$@" --out "$TMP/dest"
    [ -e "$TMP/dest" ] && { fail "$cmd $*: wrote $TMP/dest"; rm -rf "$TMP/dest"; } \
        || pass "$cmd $*: nothing written"
}

# ---- whatif ----------------------------------------------------------------
for cmd in compare explain; do
    refused "$cmd" "$WI is a whatif's results file" "$WI"
    refused "$cmd" "$WI is a whatif's results file" "$SW" "$WI"
done
refused report "$WI is a whatif's results file: give it alone" "$SW" "$WI"
refused report "$WI is a whatif's results file: give it alone" "$WI" "$SW"
refused report "--baseline, --metric and --by-state are for results files of rcuprof sweep" "$WI" --baseline stock
# report of a whatif's file alone: whatif's outputs made again (issue 28:
# whatif could not rebuild its report); the committed ones are current,
# byte for byte (run from the top, as whatif wrote them: inputs[] is the
# path given; whatif.gp names its output folder, so it is not compared).
for d in whatif-stock whatif-rcu-sync whatif-stock-churn whatif-rcu-sync-churn; do
    rm -rf "$TMP/wr"
    ( cd "$RCUPROF_SRC" && "$RCUPROF" report "docs/case-study-24344/$d/results.jsonl" --out "$TMP/wr" ) > "$TMP/wr.out" 2> "$TMP/wr.err" \
        || fail "report $d: $(cat "$TMP/wr.err")"
    ok=1
    for f in whatif.md whatif.json whatif.csv; do
        cmp -s "$TMP/wr/$f" "$CS/$d/$f" || { ok=0; fail "report $d: $f differs from the committed one: $(diff "$CS/$d/$f" "$TMP/wr/$f" | head -5)"; }
    done
    [ "$ok" = 1 ] && [ ! -s "$TMP/wr.err" ] && grep -qx "report: $TMP/wr/whatif.md, whatif.json, whatif.csv.*" "$TMP/wr.out" \
        && [ -s "$TMP/wr/whatif.gp" ] \
        && pass "report $d/results.jsonl: whatif.md, .json and .csv as committed, the plot's script written, one line on stdout"
done

# ---- options: one experiment, each file once --------------------------------
refused compare "$SW and $TMP/churn.jsonl are different experiments (--churn not given in $SW, query in $TMP/churn.jsonl)" "$SW" "$TMP/churn.jsonl"
refused report "different experiments" "$SW" "$TMP/churn.jsonl"
refused compare "$SW and $SW are the same sweep" "$SW" "$SW"
"$RCUPROF" compare "$SW" --baseline stock > "$TMP/one.md" 2> "$TMP/one.err" \
    && [ ! -s "$TMP/one.err" ] && grep -q "^| 1 | " "$TMP/one.md" \
    && pass "compare of the sweep alone: a table, no warning" \
    || fail "compare sweep: $(cat "$TMP/one.err")"

# ---- explain: a step to run -------------------------------------------------
"$PY" - "$SW" "$TMP" <<'PY' || fail "cannot write the explain inputs"
import hashlib, json, sys
src, tmp = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
# one thread count: the sweep's header and its 1-thread points
with open(tmp + "/t1.jsonl", "w") as f:
    f.write(lines[0] + "\n")
    for l in lines[1:]:
        if json.loads(l)["threads"] == 1:
            f.write(l + "\n")
# no flagged step: one variant at 1 and 2 threads, 6 blocks each, the same
# cost per op at both (perfect scaling: no knee, no dip)
spec = {"variants": ["stock"], "threads": [1, 2], "reps": 6, "options": {},
        "seed": 1, "rcuprof_version": "0.1.0"}
canon = json.dumps(spec, sort_keys=True, separators=(",", ":"))
out = [{"type": "header", "schema": "rcuprof-results/1", "spec": spec,
        "spec_hash": hashlib.sha256(canon.encode()).hexdigest()}]
seq = 0
for b in range(6):
    for t in (1, 2):
        w = 100.0 + b
        out.append({"type": "point", "block": b, "threads": t,
                    "variant": "stock", "order": t - 1, "seq": seq,
                    "message": None, "status": "ok",
                    "result": {"env": {"cpus_allowed": 2},
                               "run": {"threads": t, "wall_ns_per_op": w,
                                       "cpu_ns_per_op": w,
                                       "ops_per_s": 1e9 * t / w}}})
        seq += 1
open(tmp + "/flat.jsonl", "w").write("".join(json.dumps(x) + "\n" for x in out))
PY
refused explain "$TMP/t1.jsonl holds stock at one thread count (1): explain needs a sweep of 2 or more thread counts, or --threads LIST" "$TMP/t1.jsonl" --variant stock
refused explain "$TMP/flat.jsonl holds no dip and no separated knee of stock (threads 1, 2): explain needs a flagged step, or --threads LIST" "$TMP/flat.jsonl"

# ---- shape, 1e308 -------------------------------------------------------------
# Line 5 (a point) with block a string; line 6 with wall_ns_per_op 1e308.
"$PY" - "$SW" "$TMP" <<'PY' || fail "cannot write the bad lines"
import json, sys
src, tmp = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
def edit(name, i, fn):
    ls = list(lines)
    p = json.loads(ls[i - 1])
    fn(p)
    ls[i - 1] = json.dumps(p)
    open("%s/%s.jsonl" % (tmp, name), "w").write("\n".join(ls) + "\n")
edit("shape", 5, lambda p: p.update(block="2"))
def big(p):
    assert p["status"] == "ok", p["status"]
    p["result"]["run"]["wall_ns_per_op"] = 1e308
edit("big", 6, big)
PY
for cmd in compare report explain; do
    refused "$cmd" "$TMP/shape.jsonl line 5 is not a valid point (block is not a whole number of at least 0): give a results file as rcuprof sweep wrote it (only a torn last line is ignored)" "$TMP/shape.jsonl"
done
refused compare "$TMP/big.jsonl line 6 is not a valid point (an ok point's result: run.wall_ns_per_op 1e+308 is above 8.85e+16" "$TMP/big.jsonl"

# ---- truncated: one line; a torn last line alone stays a warning ----------------
head -c 3000 "$SW" > "$TMP/cut.jsonl"
refused compare "($TMP/cut.jsonl: its torn last line was ignored)" "$TMP/cut.jsonl"
head -c 1000000 "$SW" > "$TMP/torn.jsonl"
"$RCUPROF" compare "$TMP/torn.jsonl" > "$TMP/torn.md" 2> "$TMP/torn.err" \
    && [ "$(wc -l < "$TMP/torn.err")" -eq 1 ] \
    && grep -q "^rcuprof: warning: $TMP/torn.jsonl: torn last line ignored" "$TMP/torn.err" \
    && grep -q "^| 1 | " "$TMP/torn.md" \
    && pass "a torn last line: one warning, the table" \
    || fail "torn: $(cat "$TMP/torn.err")"

# ---- stock@: the line after @ ------------------------------------------------
printf '{"variants":[{"name":"stock","built":true},{"name":"stock@4.0","built":true}]}\n' \
    > "$TMP/variants.json"
for v in stock@ stock@4 stock@4.0@1; do
    RCUPROF_VARIANTS_FILE="$TMP/variants.json" RCUPROF_USER_VARIANTS="$TMP/none.json" \
        expect_error 2 "run: variant '$v': after @ give an OpenSSL line, MAJOR.MINOR (this build has 3.5, 4.0)" \
        "$RCUPROF" run --variant "$v"
done
finish
