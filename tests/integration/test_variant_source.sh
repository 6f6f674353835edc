# Any OpenSSL tree at any commit as a variant (issue 26, items 3 and 4),
# end to end in a build folder of its own:
#   * a local git repository made from the build's 4.0 source, with a commit
#     that plants a slowdown in the fetch path (a spin in
#     ossl_method_store_cache_get); `variant add --source REPO --ref REF`
#     adds both refs, the build exports each commit (the repository is
#     untouched) and a small sweep resolves the planted change;
#   * bad input to `variant add`: one line, exit 2, nothing written;
#   * a user's patch to crypto/property/property.c that applies to the
#     pristine tree builds on stock@4.0 (the probe layer goes after it, and
#     is left out, in one line, where it no longer applies);
#   * a variant that fails to build is reported in one line, `cmake --build`
#     goes on and succeeds, the others' drivers build; `variant remove`.
# Costs two variant builds from a warm ccache (the build's 4.0 objects):
# the time of the first is printed.
. "$(dirname "$0")/lib.sh"
SRC=$RCUPROF_SRC
PY=python3

spec=""
for v in stock-pristine@4.0 stock@4.0; do
    [ -f "$RCUPROF_BUILD/variants/$v/spec" ] && { spec="$RCUPROF_BUILD/variants/$v/spec"; break; }
done
tree40=$(awk -F'\t' '$1=="tree"{print $2}' "$spec" 2>/dev/null)
if [ -z "$spec" ] || [ ! -f "$tree40/VERSION.dat" ]; then
    echo "SKIPPED: this build has no OpenSSL 4.0 variant (its source is the repository's): configure with -DRCUPROF_VARIANTS=stock-pristine@4.0"
    exit 77
fi
command -v git >/dev/null || { echo "SKIPPED: git is not installed (apt-get install git)"; exit 77; }

G=(git -c user.name=rcuprof -c user.email=rcuprof@localhost -c init.defaultBranch=main)
repo=$TMP/repo
cp -a "$tree40" "$repo"
rm -f "$repo"/.rcuprof-*
( cd "$repo" && "${G[@]}" init -q . && "${G[@]}" add -A && "${G[@]}" commit -qm "OpenSSL 4.0" \
  && "${G[@]}" tag base && "${G[@]}" checkout -qb planted ) || { fail "git repository of the 4.0 source"; finish; }
"$PY" - "$repo/crypto/property/property.c" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = "    sa = stored_algs_shard(store, nid);\n    if (!ossl_property_read_lock(sa))\n        return 0;\n    alg = ossl_method_store_retrieve(sa, nid);\n    if (alg == NULL)\n        goto err;\n\n    elem.query = prop_query;"
assert s.count(old) == 1, "ossl_method_store_cache_get changed"
spin = "    {   /* planted: a spin on every cached lookup */\n        volatile unsigned spin;\n\n        for (spin = 0; spin < 3000; spin++)\n            ;\n    }\n"
open(p, "w").write(s.replace(old, spin + old))
EOF
( cd "$repo" && "${G[@]}" commit -qam "spin in ossl_method_store_cache_get" && "${G[@]}" checkout -q main ) \
    || { fail "planted commit"; finish; }
state_before=$(cd "$repo" && git status --porcelain | wc -l; git rev-parse HEAD; git branch --show-current)

export RCUPROF_USER_VARIANTS=$TMP/uv.json RCUPROF_VARIANTS_FILE=$RCUPROF_BUILD/variants.json

# ---- bad input: one line, exit 2, nothing written
mkdir -p "$TMP/notgit" "$TMP/notssl" "$TMP/old"
expect_error 2 "--ref 'nope' is not a commit of $repo" "$RCUPROF" variant add x --source "$repo" --ref nope
expect_error 2 "is not a git repository: --ref needs one" "$RCUPROF" variant add x --source "$TMP/notgit" --ref main
( cd "$TMP/notssl" && "${G[@]}" init -q . && echo hi > README && "${G[@]}" add README && "${G[@]}" commit -qm x )
expect_error 2 "has no VERSION.dat: it is not an OpenSSL source tree" "$RCUPROF" variant add x --source "$TMP/notssl" --ref main
( cd "$TMP/old" && "${G[@]}" init -q . && mkdir -p crypto/property && printf 'MAJOR=3\nMINOR=2\nPATCH=4\n' > VERSION.dat \
  && touch crypto/property/property.c && "${G[@]}" add -A && "${G[@]}" commit -qm x )
expect_error 2 "is OpenSSL 3.2.4, older than 3.3" "$RCUPROF" variant add x --source "$TMP/old" --ref main
expect_error 2 "is OpenSSL 3.2.4, older than 3.3" "$RCUPROF" variant add x --source "$TMP/old"
expect_error 2 "has no VERSION.dat" "$RCUPROF" variant add x --source "$TMP/notgit"
expect_error 2 "--ref REF needs --source DIR" "$RCUPROF" variant add x --base stock-pristine@4.0 --ref main
expect_error 2 "no user variant 'x'" "$RCUPROF" variant remove x
[ -e "$TMP/uv.json" ] && fail "refused input wrote $TMP/uv.json" || pass "refused input wrote nothing"

# ---- the two refs, and a user patch to property.c on stock@4.0
"$RCUPROF" variant add base --source "$repo" --ref base >/dev/null \
    && "$RCUPROF" variant add spin --source "$repo" --ref planted >/dev/null \
    || { fail "variant add --source --ref: $("$RCUPROF" variant add spin --source "$repo" --ref planted 2>&1)"; finish; }
[ "$(cd "$repo" && git status --porcelain | wc -l; git rev-parse HEAD; git branch --show-current)" = "$state_before" ] \
    && pass "the repository is untouched (work tree, HEAD, branch)" || fail "variant add changed $repo"
"$PY" - "$TMP/uv.json" "$(git -C "$repo" rev-parse planted)" <<'EOF' && pass "uv.json: spin at planted's commit, line 4.0" || fail "uv.json: $(cat "$TMP/uv.json")"
import json, sys
v = json.load(open(sys.argv[1]))["variants"]["spin"]
assert v["ref"] == "planted" and v["commit"] == sys.argv[2] and v["line"] == "4.0", v
assert v["description"].endswith(" at planted"), v
EOF
out=$("$RCUPROF" variants)
[ "$(grep -c '^spin' <<< "$out")" -eq 1 ] && grep -Eq '^spin@4.0 +4\.0 +[^ ]+ +pending ' <<< "$out" \
    && pass "listed once, pending: $(grep '^spin' <<< "$out")" || fail "variants: $(grep -E '^(spin|base)' <<< "$out")"
expect_error 2 "variant 'spin@4.0' is not built yet (added after the last build): build it with cmake --build" \
    "$RCUPROF" run --variant spin@4.0

# A user's change at the probe layer's hunk in ossl_method_store_cache_get
# (it applies to the pristine tree, not after the probe layer).
mkdir -p "$TMP/p/a/crypto/property" "$TMP/p/b/crypto/property"
cp "$tree40/crypto/property/property.c" "$TMP/p/a/crypto/property/"
"$PY" - "$tree40/crypto/property/property.c" "$TMP/p/b/crypto/property/property.c" <<'EOF'
import sys
s = open(sys.argv[1]).read()
old = "err:\n    ossl_property_unlock(sa);\n    return res;\n}\n\nint ossl_method_store_cache_set("
assert s.count(old) == 1
open(sys.argv[2], "w").write(s.replace(old, old.replace("    return res;", "    res = res != 0; /* a user's change */\n    return res;")))
EOF
( cd "$TMP/p" && diff -u a/crypto/property/property.c b/crypto/property/property.c > "$TMP/user.patch" )
probes40=()
for f in $("$PY" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["layers"]["probes-stock"]))' "$SRC/patches/variants.json"); do
    probes40+=("$SRC/patches/4.0/$f")
done
# premise: the old order (probe layer, then the user's patch) fails at property.c
if bash "$SRC/cmake/check-patches.sh" "$tree40" "${probes40[@]}" "$TMP/user.patch" > "$TMP/chk"; then
    fail "premise: the user patch applies after the probe layer (pick a change in a probe hunk)"
else
    pass "premise: probe layer then user patch stops at: $(cat "$TMP/chk")"
fi
"$RCUPROF" variant add mine --base stock@4.0 --patch "$TMP/user.patch" >/dev/null || fail "variant add mine"

# A variant that does not build: its patch does not apply.
printf -- '--- a/crypto/property/property.c\n+++ b/crypto/property/property.c\n@@ -1,3 +1,3 @@\n-not in property.c\n+nor this\n neither\n this\n' > "$TMP/bad.patch"
"$RCUPROF" variant add broken --base stock-pristine@4.0 --patch "$TMP/bad.patch" >/dev/null || fail "variant add broken"

b=$TMP/b
if ! cmake -S "$SRC" -B "$b" -G Ninja -DRCUPROF_USER_VARIANTS="$TMP/uv.json" \
        -DRCUPROF_VARIANTS=base@4.0 -DRCUPROF_SANITIZER_TESTS=OFF >"$TMP/conf.log" 2>&1; then
    fail "configure: $(grep -m3 rcuprof "$TMP/conf.log")"
    finish
fi
grep -q "rcuprof: variants to build: base@4.0, broken@4.0, mine@4.0, spin@4.0$" "$TMP/conf.log" \
    && pass "every user variant is built beside the list asked for (base@4.0; user variants in name order)" || fail "variants to build: $(grep 'variants to build' "$TMP/conf.log")"
l=$(grep "^rcuprof: variant mine@4.0: " "$TMP/conf.log")
[ "$(grep -c . <<< "$l")" -eq 1 ] && grep -q "the probe layer (patches/4.0/probes) does not apply to OpenSSL 4.0.[0-9]* after its own patches (0004-probes-store-stock.patch, crypto/property/property.c): built without probes" <<< "$l" \
    && pass "user patch in a probe hunk: $l" || fail "mine@4.0 probe line: $(grep -m3 'mine@4.0' "$TMP/conf.log")"
awk -F'\t' '$1=="patch"{print $2}' "$b/variants/spin@4.0/spec" | grep -q "/probes/0001-probes-core.patch" \
    && pass "spin@4.0 keeps the probe layer (after its commit)" || fail "spin@4.0 spec: $(cat "$b/variants/spin@4.0/spec")"
[ "$(awk -F'\t' '$1=="patch"{print $2}' "$b/variants/mine@4.0/spec")" = "$TMP/user.patch" ] \
    && pass "mine@4.0: the user's patch alone" || fail "mine@4.0 spec: $(cat "$b/variants/mine@4.0/spec")"

# Build everything, no -k: the broken variant is one line, the rest builds.
start=$(date +%s)
cmake --build "$b" --target rcuprof-stress-base_at_4.0 > "$TMP/b1.log" 2>&1
t1=$(( $(date +%s) - start ))
# (a driver's store.c depends on every variant's build.json, src/CMakeLists.txt:
# this builds base, spin and mine, the one broken stopping at its patch)
echo "figure: the user variants base, spin, mine @4.0 (4.0 source at git refs or a patch, + the probe layer) to base's driver, warm ccache: $t1 s (per variant: $(grep -o 'ccache hits [0-9]* of [0-9]*' "$TMP/b1.log" | paste -sd,); load average $(cut -d' ' -f1-3 /proc/loadavg))"
if cmake --build "$b" > "$TMP/build.log" 2>&1; then
    pass "cmake --build succeeds with a broken user variant"
else
    fail "cmake --build: $(grep -E 'FAILED|rcuprof:|error' "$TMP/build.log" | head -5)"
fi
echo "figure: then cmake --build (broken@4.0 stops at its patch; every other driver, test and bench program): $(( $(date +%s) - start - t1 )) s"
l=$(grep "^rcuprof: variant broken@4.0 failed to build" "$TMP/build.log")
[ "$(grep -c . <<< "$l")" -eq 1 ] && grep -q "patch bad.patch does not apply exactly (--fuzz=0) to crypto/property/property.c.*'rcuprof variant remove broken' drops it" <<< "$l" \
    && pass "broken variant: $l" || fail "broken line: $(grep -m3 broken "$TMP/build.log")"
for v in base spin mine; do
    n=$v@4.0
    [ -x "$b/bin/rcuprof-stress-$n" ] && pass "driver of $n built" || fail "no driver for $n"
done
[ -e "$b/bin/rcuprof-stress-broken@4.0" ] && fail "broken@4.0 has a driver" || pass "broken@4.0 has no driver"
RB=$b/bin/rcuprof
# the test build's CLI, its drivers and its resolved list
RBE=(env RCUPROF_VARIANTS_FILE= RCUPROF_BINDIR="$b/bin" "$RB")
grep -Eq '^broken@4.0 +4\.0 +[^ ]+ +failed ' <<< "$("${RBE[@]}" variants)" \
    && pass "variants says broken@4.0 failed" || fail "variants: $("${RBE[@]}" variants | grep broken)"
expect_error 2 "variant 'broken@4.0' failed to build (patch bad.patch" "${RBE[@]}" run --variant broken@4.0
"$b/bin/rcuprof-stress-mine@4.0" --version > "$TMP/mine.json" 2>&1
"$b/bin/rcuprof-stress-spin@4.0" --version > "$TMP/spin.json" 2>&1
"$PY" - "$TMP/mine.json" "$TMP/spin.json" "$(git -C "$repo" rev-parse planted)" <<'EOF' && pass "build records: git source of spin, probe layer present/absent" || fail "build records: $(head -c 600 "$TMP/spin.json")"
import json, sys
m, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert m["probe_layer"] == "absent" and "does not apply" in m["probe_layer_note"], m
assert [p["name"] for p in m["patches"]] == ["user.patch"], m["patches"]
assert s["probe_layer"] == "present", s
src = s["source"]
assert src["kind"] == "git" and src["ref"] == "planted" and src["commit"] == sys.argv[3], src
EOF
# run: probes null without the layer, an object with it
"${RBE[@]}" run --variant mine@4.0 --threads 1 --duration-ms 50 --warmup-ms 10 --json > "$TMP/r1.json" 2>"$TMP/r1.err"
"${RBE[@]}" run --variant spin@4.0 --threads 1 --duration-ms 50 --warmup-ms 10 --json > "$TMP/r2.json" 2>"$TMP/r2.err"
"$PY" - "$TMP/r1.json" "$TMP/r2.json" <<'EOF' && pass "run JSON: probes null on mine@4.0, present on spin@4.0" || fail "run JSON: $(cat "$TMP/r1.err" "$TMP/r2.err" | head -3)"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["probes"] is None and a["build"]["probe_layer"] == "absent", a["probes"]
assert b["probes"] is not None and b["build"]["probe_layer"] == "present"
EOF

# ---- the planted change, resolved
"${RBE[@]}" sweep --variants base@4.0,spin@4.0 --threads 1 --reps 6 \
    --duration-ms 100 --warmup-ms 20 --out "$TMP/sw" >"$TMP/sw.out" 2>"$TMP/sw.err" \
    || fail "sweep: $(tail -3 "$TMP/sw.err")"
"${RBE[@]}" compare "$TMP/sw/results.jsonl" --baseline base@4.0 --format json --out "$TMP/cmp.json" >/dev/null 2>"$TMP/cmp.err" \
    || fail "compare: $(cat "$TMP/cmp.err")"
"$PY" - "$TMP/cmp.json" <<'EOF' && pass "the planted spin is resolved: $(cat "$TMP/cmp.line")" || fail "compare: $(cat "$TMP/cmp.line" 2>/dev/null) $(head -c 400 "$TMP/cmp.json")"
import json, os, sys
t = json.load(open(sys.argv[1]))
row = [r for r in t["rows"] if r["threads"] == 1][0]
c = row["changes"]["spin@4.0"]
open(os.path.join(os.path.dirname(sys.argv[1]), "cmp.line"), "w").write(
    "spin@4.0/1t against base@4.0: %+.1f%%, resolved %s" % (c["change_pct"], c["resolved"]))
assert c["resolved"], c
EOF

# ---- variant remove: the next build no longer has it
"${RBE[@]}" variant remove broken >/dev/null && ! grep -q '"broken"' "$TMP/uv.json" \
    && pass "variant remove broken" || fail "variant remove: $(cat "$TMP/uv.json")"
expect_error 2 "'stock@4.0' is not a user variant" "${RBE[@]}" variant remove stock@4.0
cmake --build "$b" --target rcuprof > "$TMP/b3.log" 2>&1
grep -q "rcuprof: variants to build: base@4.0, mine@4.0, spin@4.0$" "$TMP/b3.log" \
    && pass "the next build has no broken@4.0 (re-configured by itself)" || fail "after remove: $(grep 'variants to build' "$TMP/b3.log")"
finish
