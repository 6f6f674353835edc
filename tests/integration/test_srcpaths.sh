# Sources that match their binaries (cmake/build-variant.sh builds every
# tree with -ffile-prefix-map=TREE=.): no driver's debug information names
# another variant's tree, even though ccache shares objects between trees;
# a sampled line in crypto/property/property.c resolves to the measured
# variant's own file; and a result whose tree is gone, rebuilt or not
# recorded says so instead of guessing (one row per case, tagged with its
# line).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
IFS=',' read -r -a variants <<< "$RCUPROF_VARIANTS_BUILT"
B=$(cd "$RCUPROF_BUILD" && pwd)

# 1. Debug strings of each driver: the trees they name are its own.
for v in "${variants[@]}"; do
    d="$RCUPROF_BINDIR/rcuprof-stress-$v"
    readelf --string-dump=.debug_line_str --string-dump=.debug_str "$d" 2>/dev/null \
        | grep -o '/variants/[^/]*/tree' | sort -u > "$TMP/trees-$v"
    others=$(grep -v -x "/variants/$v/tree" "$TMP/trees-$v" | tr '\n' ' ')
    [ -z "$others" ] && pass "$v: debug information names no other variant's tree" \
        || fail "$v: debug information names $others"
    "$d" --version | "$PY" -c "import json,sys; b=json.load(sys.stdin); assert b['tree']==sys.argv[1] and b['debug_paths']=='tree-relative', b.get('tree')" \
        "$B/variants/$v/tree" && pass "$v: build record names its own tree" || fail "$v: build.tree"
done

# 2. A sampled run resolves property.c in the measured variant's tree.
pick=()
for v in stock-pristine rcu-nosync; do
    case ",$RCUPROF_VARIANTS_BUILT," in *,"$v",*) pick+=("$v") ;; esac
done
[ ${#pick[@]} -eq 0 ] && pick=("${variants[0]}")
for v in "${pick[@]}"; do
    if ! "$RCUPROF" run --variant "$v" -n 1 -d 400 -w 20 --rtt off --sample on \
            --output "$TMP/$v.json" > /dev/null 2> "$TMP/err"; then
        if grep -q "perf_event_open" "$TMP/err"; then
            echo "SKIPPED: sampling refused here: $(cat "$TMP/err")"; exit 77
        fi
        fail "$v: sampled run: $(cat "$TMP/err")"; continue
    fi
    "$RCUPROF" attribute "$TMP/$v.json" --json --top 1000 > "$TMP/$v-a.json" \
        || { fail "$v: attribute failed"; continue; }
    "$PY" - "$TMP/$v-a.json" "$B/variants/$v/tree" <<'PY' 2> "$TMP/pyerr" \
        && pass "$v: sampled property.c lines resolve to $v's own tree" \
        || fail "$v: $(tail -1 "$TMP/pyerr")"
import json, os, sys
a, tree = json.load(open(sys.argv[1])), sys.argv[2]
st = a["source_tree"]
assert st["status"] == "ok" and st["tree"] == tree, ("source_tree", st)
rows = [r for r in a["top_lines"] if r["line"].startswith("crypto/property/property.c:")]
assert rows, ("no sampled line in crypto/property/property.c", [r["line"] for r in a["top_lines"]][:10])
for r in rows:
    want = os.path.join(tree, "crypto/property/property.c")
    assert r["path"] == want, ("path", r["path"], "want", want)
    n = int(r["line"].rsplit(":", 1)[1])
    assert 0 < n <= sum(1 for _ in open(r["path"])), ("line beyond the file", r["line"])
for r in a["top_lines"] + a["get_hold_current_qp"]["lines"]:
    for s in (r["line"], r.get("path") or ""):
        assert "/variants/" not in s or s.startswith(tree + "/"), ("another tree", s)
PY
done

# 3. Trees that cannot be trusted are named, not guessed.
v=${pick[0]}
[ -f "$TMP/$v.json" ] || finish
# case LINE EDIT(python on d["build"]) STATUS TEXT_SUBSTRING
case_() {
    local line=$1 edit=$2 status=$3 text=$4
    "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); b=d['build']; $edit; json.dump(d,open(sys.argv[2],'w'))" \
        "$TMP/$v.json" "$TMP/edited.json"
    if ! "$RCUPROF" attribute "$TMP/edited.json" --json > "$TMP/e.json" 2> "$TMP/err" \
        || ! "$RCUPROF" attribute "$TMP/edited.json" > "$TMP/e.txt" 2>> "$TMP/err"; then
        fail "line $line: attribute failed: $(cat "$TMP/err")"; return
    fi
    "$PY" - "$TMP/e.json" "$status" <<'PY' 2> "$TMP/pyerr" \
        && grep -q "warning: .*$text" "$TMP/e.txt" \
        && pass "line $line: $status: said so, no path resolved" \
        || fail "line $line: $status: $(tail -1 "$TMP/pyerr") $(grep warning "$TMP/e.txt" | head -2)"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["source_tree"]["status"] == sys.argv[2], a["source_tree"]
assert a["source_tree"]["message"] in a["errors"], "message not among the errors"
for r in a["top_lines"] + a["get_hold_current_qp"]["lines"]:
    if not r["line"].startswith("/"):
        assert r["path"] is None, ("resolved anyway", r)
PY
}
case_ $LINENO "b['tree'] = '/nonexistent/rcuprof/variants/$v/tree'" missing "is not on this machine"
case_ $LINENO "b['libcrypto_sha256'] = '0' * 64" changed "was rebuilt since the run"
case_ $LINENO "del b['tree']" not_recorded "does not record its variant's tree"
finish
