# What a new user reads (issue 19): labels that match the JSON, one unit
# (ns/op) for every cost a person reads, -t the documented exception, a
# compare table that fits a PR comment, help columns that line up, and
# paths the README suggests that stay out of the clone's status.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
CS="$RCUPROF_SRC/docs/case-study-24344"
case ",$RCUPROF_VARIANTS_BUILT," in
*,stock,*) ;;
*) echo "SKIPPED: the stock variant is not built (RCUPROF_VARIANTS=$RCUPROF_VARIANTS_BUILT)"; exit 77 ;;
esac

# --- help: every option's text starts at one column, in every --help ---
for cmd in "run" "sweep" "compare" "report" "explain" "variant add NAME" \
           "variant" "variants" "events" "attribute" "pack" "bundle" "import"; do
    # shellcheck disable=SC2086
    "$RCUPROF" $cmd --help > "$TMP/help" 2>&1; rc=$?
    [ "$rc" -eq 0 ] || fail "rcuprof $cmd --help exits $rc: $(head -1 "$TMP/help")"
    "$PY" - "$TMP/help" <<'PY' && pass "rcuprof $cmd --help: one help column" || fail "rcuprof $cmd --help: columns differ"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
cols, bad = set(), []
for i, l in enumerate(lines):
    if not re.match(r"^  (-|RESULTS)", l):
        continue
    m = re.match(r"^(  \S+(?: \S+)*?)(\s{2,})\S", l)
    if m:
        cols.add(m.end(2))
    elif i + 1 < len(lines) and re.match(r"^ +\S", lines[i + 1]):
        cols.add(len(lines[i + 1]) - len(lines[i + 1].lstrip()))
    else:
        bad.append(l)
if len(cols) != 1 or bad:
    sys.exit(f"help text columns {sorted(cols)}; no help text: {bad}")
PY
done
# --- help: every short letter a command accepts is in its --help (issue
# 28: run took -n, -d, ... and listed none; the man page tags them too:
# test_manpage).  A letter is accepted when `CMD -X --help` answers
# otherwise than an unknown option does. ---
for cmd in "run" "sweep" "compare" "report" "explain" "whatif" "variant add NAME" \
           "variant" "variants" "events" "attribute"; do
    # shellcheck disable=SC2086
    "$RCUPROF" $cmd --zz-no-such --help > "$TMP/o0" 2> "$TMP/e0"; r0=$?
    # shellcheck disable=SC2086
    "$RCUPROF" $cmd --help > "$TMP/help" 2>&1
    missing="" accepted=""
    for X in {a..z} {A..Z}; do
        # shellcheck disable=SC2086
        "$RCUPROF" $cmd "-$X" --help > "$TMP/o1" 2> "$TMP/e1"; r1=$?
        if [ "$r0" = "$r1" ] && [ "$(sed "s/'--zz-no-such'/'ARG'/" "$TMP/e0")" = "$(sed "s/'-$X'/'ARG'/" "$TMP/e1")" ] \
            && cmp -s "$TMP/o0" "$TMP/o1"; then
            continue
        fi
        accepted="$accepted$X"
        grep -qE -- "^  -$X(,| |\$)" "$TMP/help" || missing="$missing -$X"
    done
    [ -z "$missing" ] && pass "rcuprof $cmd: every letter it takes (${accepted:-none}) is in its --help" \
        || fail "rcuprof $cmd takes$missing, which its --help does not list"
done
"$RCUPROF" run --help | grep -qE -- '^  -n, --threads N ' && pass "run --help: -n, --threads N" \
    || fail "run --help lacks '-n, --threads N'"
"$RCUPROF" -h > "$TMP/h1" && "$RCUPROF" --help > "$TMP/h2" && cmp -s "$TMP/h1" "$TMP/h2" \
    && head -1 "$TMP/h1" | grep -qF -- "[-h|--help]" && pass "rcuprof -h prints the usage, which lists -h" \
    || fail "rcuprof -h: $(head -1 "$TMP/h1")"

"$RCUPROF" variant --help > "$TMP/vh" 2>&1 && grep -q -- "--description TEXT" "$TMP/vh" \
    && grep -q -- "--source DIR" "$TMP/vh" && pass "variant --help: exit 0, lists --source and --description" \
    || fail "variant --help: $(cat "$TMP/vh")"
# compare's RESULTS says what several files give: one experiment, else refused (test_input checks the refusal)
"$RCUPROF" compare --help > "$TMP/ch" && grep -q "one experiment" "$TMP/ch" && grep -q "else refused" "$TMP/ch" \
    && ! grep -q "several: runs pooled" "$TMP/ch" && pass "compare --help: several files must be one experiment, else refused" \
    || fail "compare --help RESULTS: $(grep -A3 RESULTS "$TMP/ch")"
"$RCUPROF" run --help | grep -E '^  -t ' | grep -q "microseconds" \
    && "$RCUPROF" run --help | grep -E '^  -t ' | grep -q "the one figure not in ns/op" \
    && pass "-t's help says microseconds, the exception to ns/op" || fail "-t help: $("$RCUPROF" run --help | grep -E '^  -t ')"

# --- one unit: ns/op in compare, report, scaling and the plots ---
RES="$CS/nochurn-2cpu/results.jsonl"
"$RCUPROF" compare "$RES" --baseline stock > "$TMP/c.md" || fail "compare"
"$RCUPROF" compare "$RES" --baseline stock --format md-wide > "$TMP/cw.md" || fail "compare md-wide"
"$RCUPROF" compare "$RES" --baseline stock --format csv > "$TMP/c.csv" || fail "compare csv"
"$RCUPROF" compare "$RES" --baseline stock --scaling > "$TMP/cs.md" || fail "compare --scaling"
rm -rf "$TMP/rep"
"$RCUPROF" report "$RES" --baseline stock --out "$TMP/rep" > /dev/null 2>"$TMP/rep.err" \
    || grep -q "gnuplot not found" "$TMP/rep.err" || fail "report: $(cat "$TMP/rep.err")"
for f in "$TMP/c.md" "$TMP/cw.md" "$TMP/cs.md" "$TMP/rep/results.md" "$TMP/rep/scaling.md" "$TMP/rep/plots.gp"; do
    if grep -qi "usec" "$f"; then fail "$(basename "$f") still says usecs: $(grep -i -m1 usec "$f")"
    elif grep -q "ns/op" "$f"; then pass "$(basename "$f") names its unit ns/op"
    else fail "$(basename "$f") names no unit"; fi
done
# The figures are ns, not a rescaled number: each table's and the plot
# data's value is the CSV's geomean_ns (the machine-readable member, in
# ns), and the wide table's and the plot's interval its geomean_lo_ns and
# geomean_hi_ns; centre_ns (the log-normal mean) is another figure.
"$PY" - "$TMP/c.csv" "$TMP/c.md" "$TMP/cw.md" "$TMP/rep/plots.gp" <<'PY' && pass "compact, wide and plot figures equal geomean_ns, their intervals geomean_lo_ns..geomean_hi_ns" || fail "figures are not in ns"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = {(r["threads"], r["variant"]): float(r["geomean_ns"]) for r in rows}
ivs = {(r["threads"], r["variant"]): (float(r["geomean_lo_ns"]),
                                      float(r["geomean_hi_ns"])) for r in rows}
for k, (lo, hi) in ivs.items():
    if not lo <= want[k] <= hi:
        sys.exit(f"{k}: geomean_ns {want[k]} outside [{lo}, {hi}]")
def check_iv(got, what):
    for k, (lo, hi) in ivs.items():
        g = got.get(k)
        if g is None or abs(g[0] - lo) > 0.051 or abs(g[1] - hi) > 0.051:
            sys.exit(f"{what}: {k}: interval {g} against [{lo}, {hi}]")
order = ["stock", "rcu-sync", "rcu-nosync"]
def check(got, what):
    for k, v in want.items():
        g = got.get(k)
        if g is None or abs(g - v) > 0.051:
            sys.exit(f"{what}: {k}: {g} against geomean_ns {v}")
def first_table(path):
    # the comparison: the first table (the machine-state table follows)
    out, inside = [], False
    for l in open(path):
        if l.startswith("| threads |"):
            inside = True
        elif inside and not l.startswith("|"):
            break
        if inside:
            out.append(l)
    return out
got = {}
for l in first_table(sys.argv[2]):
    m = re.match(r"^\| (\d+)[^|]* \|(.*)\|$", l)
    if m:
        for name, cell in zip(order, m.group(2).split("|")):
            got[(m.group(1), name)] = float(cell.split()[0])
check(got, "compact")
got, iv = {}, {}
for l in first_table(sys.argv[3]):
    m = re.match(r"^\| (\d+)[^|]* \|(.*)\|$", l)
    if m:
        c = m.group(2).split("|")
        for i, name in enumerate(order):
            f = re.match(r"^ ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] $", c[2 * i])
            if f is None:
                sys.exit(f"wide cell {c[2 * i]!r}")
            got[(m.group(1), name)] = float(f.group(1))
            iv[(m.group(1), name)] = (float(f.group(2)), float(f.group(3)))
check(got, "wide")
check_iv(iv, "wide")
gp = open(sys.argv[4]).read()
got, iv = {}, {}
for v, name in enumerate(order):
    block = re.search(r"\$d%d << EOD\n(.*?)EOD" % v, gp, re.S).group(1)
    for l in block.splitlines():
        if not l.startswith("#"):
            f = l.split()
            got[(f[0], name)] = float(f[1])
            iv[(f[0], name)] = (float(f[2]), float(f[3]))
check(got, "plots.gp")
check_iv(iv, "plots.gp")
if "usecs" in gp or "ns/op" not in gp:
    sys.exit("plots.gp labels")
PY

# --- the compact table: the default md, one column per variant, fits ---
head -3 "$TMP/c.md" | grep -qF "| threads | stock (baseline) | rcu-sync | rcu-nosync |" \
    && pass "compact table: one column per variant" || fail "compact header: $(head -3 "$TMP/c.md")"
w=$("$PY" -c "import sys; print(max(len(l.rstrip('\n')) for l in open(sys.argv[1]) if l.startswith('|')))" "$TMP/c.md")
[ "$w" -le 120 ] && pass "compact table, three variants: widest row $w characters (<= 120)" || fail "compact table rows up to $w characters"
grep -q "✓ resolved (p Holm-adjusted over [0-9]* tests below 0.05); MDE: " "$TMP/c.md" \
    && pass "the resolved mark and the MDE are explained under the table" || fail "no legend for the mark"
head -1 "$TMP/c.md" | grep -q " MDE |$" && [ "$(grep -c '^[^|]' "$TMP/c.md")" -le 4 ] && ! grep -q "^Notes:" "$TMP/c.md" \
    && pass "compact table: the row's MDE, a legend of one line, at most three more lines, no notes" \
    || fail "compact table: $(grep '^[^|]' "$TMP/c.md")"
w=$("$PY" -c "import sys; print(max(len(l.rstrip('\n')) for l in open(sys.argv[1]) if l.startswith('|')))" "$TMP/cw.md")
[ "$w" -gt 120 ] && pass "md-wide keeps the wide table ($w characters)" || fail "md-wide is not the wide table"
cmp -s "$TMP/rep/results.md" "$TMP/c.md" && cmp -s "$TMP/rep/results-wide.md" "$TMP/cw.md" \
    && pass "report: results.md compact, results-wide.md wide" || fail "report's tables differ from compare's"
if command -v gnuplot > /dev/null; then
    [ "$(head -c 8 "$TMP/rep/change.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
        && pass "report draws change.png" || fail "no change.png"
fi

# --- README: the paths it suggests are under build/ (ignored) ---
usage=$(sed -n '/^## Usage/,/^## /p' "$RCUPROF_SRC/README.md")
bad=$(grep -oE -- '--(out|output) [^ ]+' <<< "$usage" | grep -vE -- '--(out|output) build/' || true)
[ -z "$bad" ] && pass "README Usage writes only under build/" || fail "README Usage writes outside build/: $bad"

# --- README shows the compact table as compare prints it, and the plots ---
"$PY" - "$RCUPROF_SRC/README.md" "$TMP/readme" <<'PY' || fail "README: no compare block"
import re, sys
m = re.search(r"<!-- rcuprof:table compare (.*?) -->\n(.*?)<!-- /rcuprof:table -->",
              open(sys.argv[1]).read(), re.S)
open(sys.argv[2] + ".args", "w").write(m.group(1))
open(sys.argv[2] + ".want", "w").write(m.group(2))
PY
read -r -a args < "$TMP/readme.args"
(cd "$RCUPROF_SRC" && "$RCUPROF" compare "${args[@]}") > "$TMP/readme.got" \
    && cmp -s "$TMP/readme.got" "$TMP/readme.want" \
    && pass "README's compact table is what 'rcuprof compare ${args[*]}' prints" \
    || fail "README's table differs from 'rcuprof compare ${args[*]}': $(diff "$TMP/readme.want" "$TMP/readme.got" | head -5)"
n=$("$PY" -c "import sys; print(len(open(sys.argv[1], encoding='utf-8').read()))" "$TMP/readme.want")
[ "$n" -le 1500 ] && pass "README's compare output is $n characters (<= 1,500)" \
    || fail "README's compare output is $n characters, over 1,500"
for png in docs/readme/cost.png docs/readme/change.png; do
    [ "$(head -c 8 "$RCUPROF_SRC/$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
        && grep -qF "]($png)" "$RCUPROF_SRC/README.md" \
        && pass "README shows $png" || fail "README lacks $png"
done

# --- variants: patches counted one way before and after the build ---
printf 'x\n' > "$TMP/fix.patch"
RCUPROF_USER_VARIANTS="$TMP/user.json" "$RCUPROF" variant add mine --base stock --patch "$TMP/fix.patch" > /dev/null \
    || fail "variant add"
RCUPROF_USER_VARIANTS="$TMP/user.json" "$RCUPROF" variants --json > "$TMP/v.json"
"$PY" - "$TMP/v.json" <<'PY' && pass "pending variant: base's patches + its own, description from what it is made of" || fail "pending variant count or description"
import json, sys
d = json.load(open(sys.argv[1]))
m, s = d["mine"], d["stock"]
assert m["pending"] and len(m["patches"]) == len(s["patches"]) + 1, (m, len(s["patches"]))
assert m["description"] == "stock + fix.patch", m["description"]
PY

# --- variants: each once, with its OpenSSL line and version; per-line descriptions ---
"$RCUPROF" variants > "$TMP/vl.txt" && "$RCUPROF" variants --json > "$TMP/vl.json" || fail "variants"
"$PY" - "$TMP/vl.txt" "$TMP/vl.json" "$RCUPROF_SRC/patches/variants.json" <<'PY' \
    && pass "variants: LINE and OPENSSL columns as resolved, each variant once, description@LINE used on its line" \
    || fail "variants table: $(head -3 "$TMP/vl.txt")"
import json, sys
rows = open(sys.argv[1]).read().splitlines()
assert rows[0].split() == ["VARIANT", "LINE", "OPENSSL", "DRIVER", "PATCHES", "DESCRIPTION"], rows[0]
known = json.load(open(sys.argv[2]))
defs = json.load(open(sys.argv[3]))["variants"]
names = [r.split()[0] for r in rows[1:]]
assert sorted(names) == sorted(known) and len(set(names)) == len(names), names
for r in rows[1:]:
    f = r.split(None, 5)
    v = known[f[0]]
    assert f[1] == v.get("line") and f[2] == v.get("openssl_version", "-"), (r, v.get("line"), v.get("openssl_version"))
    base, _, line = f[0].partition("@")
    d = defs.get(base, {})
    want = d.get("description@" + line) if line else None
    if want is not None:
        assert f[5] == want, (r, want)
    elif line and base in defs:
        assert f[5] == d["description"], (r, d["description"])
if "stock@4.0" in known:
    assert "sharded" in known["stock@4.0"]["description"], known["stock@4.0"]["description"]
PY
# --- run: labels that match the JSON; compat said; no 0.00 figure ---
"$RCUPROF" run --variant stock -n 2 --workload rwlock -d 100 -w 20 --output "$TMP/rw.json" > "$TMP/rw.txt" \
        || fail "rwlock run"
    kind=$("$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['run']['workload']['kind'])" "$TMP/rw.json")
    grep -q "^workload       $kind$" "$TMP/rw.txt" && ! grep -q "(null)" "$TMP/rw.txt" \
        && pass "the workload line says '$kind', as the JSON does, and no (null)" || fail "workload line: $(grep workload "$TMP/rw.txt")"
    "$RCUPROF" run --variant stock -n 1 -d 100 --compat perftools > "$TMP/pt.txt" || fail "compat run"
    grep -q "^harness        --compat perftools (" "$TMP/pt.txt" && pass "--compat perftools is said in the text" \
        || fail "compat not shown: $(cat "$TMP/pt.txt")"
    # the value the summary names is one --compat accepts, and asks for the same harness
    "$RCUPROF" run --variant stock -n 1 -d 50 --compat clock,unpadded --output "$TMP/cu.json" > "$TMP/cu.txt" || fail "compat list run"
    for t in pt cu; do
        val=$(sed -n 's/^harness        --compat \([^ :]*\).*/\1/p' "$TMP/$t.txt")
        "$RCUPROF" run --variant stock -n 1 -d 50 --compat "$val" --output "$TMP/again.json" > "$TMP/again.txt" 2>&1 \
            && cmp -s <(grep "^harness" "$TMP/$t.txt") <(grep "^harness" "$TMP/again.txt") \
            && pass "the summary's '--compat $val' is accepted and gives the same harness" \
            || fail "the summary's '--compat $val' is refused or differs: $(cat "$TMP/again.txt")"
    done
    # churn: achieved against asked, both counted in the window, as the JSON has them
    "$RCUPROF" run --variant stock -n 1 -d 200 --writers 1 --write-rate 500 --output "$TMP/ch.json" > "$TMP/ch.txt" || fail "churn run"
    want=$("$PY" -c "
import json, sys
c = json.load(open(sys.argv[1]))['run']['churn']
print('churn          %s, 1 writer: %d writes in the %.3f s window, %.0f per s against 500 per s asked'
      % (','.join(c['kinds']), c['writes'], c['window_s'], c['writes_per_s']))" "$TMP/ch.json")
    grep -qxF "$want" "$TMP/ch.txt" && pass "run shows the churn achieved against asked, in the window: $want" \
        || fail "churn line: wanted '$want' in: $(cat "$TMP/ch.txt")"
    grep -q "^harness        rcuprof" "$TMP/rw.txt" && pass "the default harness is named" || fail "no harness line"
    # A window with no op in it (a stand-in driver replays a real result
    # with its ops zeroed): said so, exit 1, no figure, no file.
    fake="$TMP/fakebin"; mkdir -p "$fake"; cp "$RCUPROF" "$fake/rcuprof"
    "$PY" -c "
import json, sys
d = json.load(open(sys.argv[1])); r = d['run']
r['ops'] = 0; r['wall_ns_per_op'] = 0; r['cpu_ns_per_op'] = 0; r['ops_per_s'] = 0; r['wall_ns'] = 1000000
for t in d['threads']: t['ops'] = 0
print(json.dumps(d))" "$TMP/rw.json" > "$fake/zero.json"
    printf '#!/bin/sh\ncat "%s"\n' "$fake/zero.json" > "$fake/rcuprof-stress-stock"; chmod +x "$fake/rcuprof-stress-stock"
    RCUPROF_BINDIR=$fake RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json" \
        expect_error 1 "completed no op in its 1.000 ms window" "$fake/rcuprof" run --variant stock -d 1 --output "$TMP/zero-out.json"
    [ ! -e "$TMP/zero-out.json" ] && pass "no result file for a run that is not a measurement" || fail "zero-op result written"
finish
