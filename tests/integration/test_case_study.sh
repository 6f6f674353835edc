# docs/case-study-24344.md: every table between
#   <!-- rcuprof:table compare|report|counts|file ARGS... -->  and  <!-- /rcuprof:table -->
# is regenerated from the committed files under docs/case-study-24344/ and
# must match the document byte for byte:
#   compare ARGS : rcuprof compare ARGS
#   report ARGS  : rcuprof report ARGS --out TMP, then TMP/results.md
#   counts ARGS  : python3 docs/case-study-24344/counts.py ARGS
#   file PATH    : the committed file PATH itself (e.g. whatif's DIR/whatif.md);
#                  the document must show the command that wrote it (--out DIR)
# Then the exact counts the document states are checked against the results
# files (python3): no synchronize anywhere in a process -> no retry; every
# synchronize flips reader_idx once; rcu-sync synchronizes once per store
# write; stock takes no RCU read lock on a fetch.
. "$(dirname "$0")/lib.sh"
RCUPROF=$(cd "$(dirname "$RCUPROF")" && pwd)/rcuprof   # absolute: we cd below
cd "$RCUPROF_SRC" || { fail "cd $RCUPROF_SRC"; finish; }
DOC=docs/case-study-24344.md
[ -f "$DOC" ] || { fail "$DOC missing"; finish; }
command -v python3 > /dev/null || { echo "SKIPPED: python3 not installed"; exit 77; }

# Split the document into its marked blocks: TMP/blocks/N.cmd and N.want.
mkdir -p "$TMP/blocks"
python3 - "$DOC" "$TMP/blocks" <<'PY' || fail "cannot split $DOC into its tables"
import re, sys
doc, out = sys.argv[1], sys.argv[2]
text = open(doc).read()
pat = re.compile(r"<!-- rcuprof:table (.*?) -->\n(.*?)<!-- /rcuprof:table -->", re.S)
n = 0
for n, m in enumerate(pat.finditer(text), 1):
    open(f"{out}/{n}.cmd", "w").write(m.group(1).strip() + "\n")
    open(f"{out}/{n}.want", "w").write(m.group(2))
opens = text.count("<!-- rcuprof:table ")
closes = text.count("<!-- /rcuprof:table -->")
if opens != n or closes != n:
    sys.exit(f"{opens} opening and {closes} closing markers, {n} well-formed blocks")
PY
nblocks=$(ls "$TMP/blocks"/*.cmd 2>/dev/null | wc -l)
[ "$nblocks" -ge 8 ] && pass "$nblocks tables marked in $DOC" || fail "only $nblocks marked tables in $DOC"

for c in "$TMP/blocks"/*.cmd; do
    n=${c%.cmd}
    read -r kind args < "$c"
    # shellcheck disable=SC2086
    case $kind in
    compare) "$RCUPROF" compare $args > "$n.got" 2> "$n.err" ;;
    report)  rm -rf "$n.dir"
             "$RCUPROF" report $args --out "$n.dir" > /dev/null 2> "$n.err" \
                 && cp "$n.dir/results.md" "$n.got" ;;
    counts)  python3 docs/case-study-24344/counts.py $args > "$n.got" 2> "$n.err" ;;
    file)    cp -- "$args" "$n.got" 2> "$n.err" ;;
    *) fail "unknown table kind '$kind' in marker: $(cat "$c")"; continue ;;
    esac
    rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$kind $args: exit $rc: $(head -3 "$n.err")"
    elif cmp -s "$n.got" "$n.want"; then
        pass "$kind $args: matches the document"
    else
        fail "$kind $args: differs from the document:"
        diff "$n.want" "$n.got" | head -20
    fi
    # The command printed above the table is the one the marker runs.
    case $kind in
    compare|report)
        grep -qF -- "rcuprof $kind $args" "$DOC" && pass "the document shows 'rcuprof $kind $args'" \
            || fail "the document does not show the command 'rcuprof $kind $args'" ;;
    counts)
        grep -qF -- "counts.py $args" "$DOC" && pass "the document shows 'counts.py $args'" \
            || fail "the document does not show the command 'counts.py $args'" ;;
    file)
        dir=$(dirname -- "$args")
        grep -E -- '^(\$R|rcuprof|build/bin/rcuprof) .*--out '"$dir"'( |$)' "$DOC" > /dev/null \
            && pass "the document shows the command that wrote $args (--out $dir)" \
            || fail "the document does not show a command with '--out $dir' for $args" ;;
    esac
done

# Exact counts, over every ok point of every committed results file.
python3 - docs/case-study-24344 > "$TMP/exact" <<'PY'
import glob, json, os, sys
root = sys.argv[1]
def points(path):
    for line in open(path):
        if line.endswith("\n"):
            d = json.loads(line)
            if d.get("type") == "point" and d.get("status") == "ok":
                yield d
def check(ok, what):
    print(("ok " if ok else "FAIL ") + what)
files = sorted(glob.glob(f"{root}/*/results.jsonl"))
check(len(files) >= 7, f"{len(files)} results files")
n = nosync_points = nosync_acq = 0
for path in files:
    name = os.path.basename(os.path.dirname(path))
    for d in points(path):
        n += 1
        r = d["result"]; p = r["probes"]; v = d["variant"]; t = d["threads"]
        tag = f"{name} {v}@{t} block {d['block']}"
        if p is None:
            check(False, f"{tag}: probes null"); continue
        proc, wsum = p["process"]["rcu"], p["sum"]["rcu"]
        syncs = sum(x["syncs"] for x in proc.values())
        flips = sum(x["flips"] for x in proc.values())
        retries = sum(x["retries"] for x in proc.values())
        # every synchronize flips reader_idx exactly once
        for lk, x in proc.items():
            if x["flips"] != x["syncs"]:
                check(False, f"{tag}: lock {lk}: flips {x['flips']} != syncs {x['syncs']}")
        # no synchronize anywhere in the process -> reader_idx never moved -> no retry
        if syncs == 0:
            nosync_points += 1
            nosync_acq += sum(x["acquisitions"] for x in proc.values())
            if retries != 0:
                check(False, f"{tag}: {retries} retries with no synchronize")
        # a retry needs at least one flip
        if retries > 0 and flips == 0:
            check(False, f"{tag}: retries without a flip")
        # stock: the fetch path takes no RCU read lock
        if v == "stock" and r["run"]["workload"]["kind"] == "fetch":
            acq = sum(x["acquisitions"] for x in proc.values())
            if acq != 0 or "method_store" in proc:
                check(False, f"{tag}: stock took {acq} RCU read locks on a fetch")
        # rcu-sync: one synchronize per store write transaction
        if v == "rcu-sync" and "method_store" in proc:
            w = p["process"]["store"]["write_locks"]
            if proc["method_store"]["syncs"] != w:
                check(False, f"{tag}: {proc['method_store']['syncs']} synchronize calls for {w} writes")
        # rcu-nosync: at least one batched synchronize per 64 writes; far fewer than
        # writes only when the batch was its one bound (run.store: no age or byte
        # bound; with them, a slow writer reclaims, and synchronizes, more often)
        if v == "rcu-nosync" and "method_store" in proc:
            w = p["process"]["store"]["write_locks"]; s = proc["method_store"]["syncs"]
            st = r["run"].get("store") or {}
            batch_only = not st.get("reclaim_age_ms") and not st.get("reclaim_bytes")
            if not (w // 64 <= s and (w == 0 or not batch_only or s < w / 8)):
                check(False, f"{tag}: rcu-nosync made {s} synchronize calls for {w} writes")
        # no churn: the RCU builds make no synchronize call at all
        if name.startswith("nochurn") or name == "rcu-readers":
            if syncs != 0:
                check(False, f"{tag}: {syncs} synchronize calls without a writer")
check(n > 0, f"{n} ok points checked")
check(nosync_points > 0, f"{nosync_points} points with no synchronize, {nosync_acq} read acquisitions, 0 retries")
# with a synchronizing writer the raw RCU readers do retry
rs = [d for d in points(f"{root}/rcu-sync-writer/results.jsonl")]
tot = sum(x["retries"] for d in rs for x in d["result"]["probes"]["sum"]["rcu"].values())
check(tot > 0, f"rcu-sync-writer: {tot} retries in the windows")
PY
while read -r status what; do
    if [ "$status" = ok ]; then pass "$what"; else fail "$what"; fi
done < "$TMP/exact"
[ -s "$TMP/exact" ] || fail "the exact-count checks printed nothing"

# Every number in the prose is a <!-- num ... --> marker, filled from JSON: the
# text must be what its expression gives (regen-tables.py --check names each one
# that is not).
if python3 docs/case-study-24344/regen-tables.py --check "$RCUPROF" "$DOC" > "$TMP/nums" 2>&1; then
    pass "$(tail -1 "$TMP/nums")"
else
    fail "numbers in the prose disagree with the data:"; cat "$TMP/nums"
fi
n=$(grep -c '<!-- num ' "$DOC")
[ "$n" -ge 40 ] && pass "$n number markers" || fail "only $n number markers in $DOC"
# ... and no measured-looking number (a decimal, a percentage, a thousands
# separator) stands outside a marker, a table, code or a heading, except these
# (not measurements: versions, the seed's own quoted figures, set options).
python3 - "$DOC" > "$TMP/loose" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
for pat in (r"<!-- rcuprof:table.*?<!-- /rcuprof:table -->", r"<!-- num .*?<!-- /num -->",
            r"<!--.*?-->", r"```.*?```", r"`[^`]*`", r"\]\([^)]*\)", r"(?m)^#[^\n]*$",
            r"(section|methodology\.md,?)\s+\d+\.\d+"):
    s = re.sub(pat, "", s, flags=re.S)
allowed = {"3.5.7", "6.5%", "0.2045", "0.1920", "12.2", "1,000", "4,999", "0.3"}
for t in re.findall(r"[\d][\d.,%]*\d%?|\d%", s):
    if ("." in t or "%" in t or "," in t) and t not in allowed:
        print(t)
PY
[ -s "$TMP/loose" ] && fail "numbers outside a marker in $DOC: $(tr '\n' ' ' < "$TMP/loose")" \
    || pass "no measured number outside a marker"

# The exact counts the text states are a counts.py "facts" block, regenerated above.
grep -q "<!-- rcuprof:table counts facts " "$DOC" && pass "the document has a facts block" \
    || fail "the document has no counts.py facts block"
finish
