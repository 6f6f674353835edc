# rcuprof bundle, run.sh and rcuprof import end to end: a bundle of
# 2 variants x 1 thread count x 2 blocks, extracted into a chroot that holds
# only busybox (Debian's busybox-static), run under `env -i` with
# `chroot DIR /bin/sh run.sh`: first with /proc and /sys mounted (in a
# private mount namespace) and interrupted after its first point, then
# restarted bare; imported from a .tar.gz of its results and compared.
# Refusals: bad options, a foreign, half-written, unrun or changed folder.
# Timeouts: timeout(1) and the watchdog.  About 15 s of CPU; 30 to 70 s
# wall here, with the 2 CPUs shared.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"
IFS=',' read -r -a built <<< "$RCUPROF_VARIANTS_BUILT"
A=${built[0]:-stock}
B=${built[1]:-rcu-sync}

# --- Bad input: one line, exit 2, nothing written. ---
expect_error 2 "--variants, --threads, --blocks and --out are required" "$RCUPROF" bundle --variants "$A","$B" --threads 1 --out "$TMP/b.tar.gz"
expect_error 2 "ending in .tar.gz" "$RCUPROF" bundle --variants "$A","$B" --threads 1 --blocks 2 --out "$TMP/b.zip"
expect_error 2 "--target-mde: a bundle runs fixed blocks" "$RCUPROF" bundle --variants "$A","$B" --threads 1 --blocks 2 --target-mde 5 --out "$TMP/b.tar.gz"
expect_error 2 "--reps: a bundle runs fixed blocks" "$RCUPROF" bundle --variants "$A","$B" --threads 1 --reps 2 --out "$TMP/b.tar.gz"
if [ -f "$RCUPROF_VARIANTS_FILE" ]; then
    expect_error 2 "unknown variant 'nope'" "$RCUPROF" bundle --variants "$A",nope --threads 1 --blocks 2 --out "$TMP/b.tar.gz"
else
    expect_error 2 "cannot read the variant list" "$RCUPROF" bundle --variants "$A",nope --threads 1 --blocks 2 --out "$TMP/b.tar.gz"
fi
expect_error 2 "--threads" "$RCUPROF" bundle --variants "$A","$B" --threads 4-1 --blocks 2 --out "$TMP/b.tar.gz"
expect_error 2 "repeated" "$RCUPROF" bundle --variants "$A","$A" --threads 1 --blocks 2 --out "$TMP/b.tar.gz"
expect_error 2 "give what run.sh wrote and --out DIR" "$RCUPROF" import "$TMP"
expect_error 2 "not what an rcuprof bundle's run.sh wrote" "$RCUPROF" import "$TMP" --out "$TMP/imp0"
# explain re-runs cells on this machine and plans them on its topology:
# refused over a host, and on points another machine ran (a bundle's).
expect_error 2 "explain: --host far: explain plans its placements" "$RCUPROF" explain --host far --threads 1,2 --out "$TMP/ex0"
printf '%s\n' '{"type":"header"}' '{"type":"point","block":0,"host":{"name":"box","kind":"bundle","bundle":"0123456789abcdef"}}' > "$TMP/bundled.jsonl"
expect_error 2 "ran on bundle host box" "$RCUPROF" explain "$TMP/bundled.jsonl" --out "$TMP/ex0"
[ -e "$TMP/ex0" ] && fail "a refused explain wrote $TMP/ex0" || pass "the refused explains wrote nothing"
ls "$TMP"/b.* "$TMP/imp0" > /dev/null 2>&1 && fail "refused commands wrote: $(ls -A "$TMP")" || pass "refused commands wrote nothing"

# --- docs/bigbox.md: at most 60 lines; every option of its commands is
# one the command's --help lists. ---
BIG="$RCUPROF_SRC/docs/bigbox.md"
[ "$(wc -l < "$BIG")" -le 60 ] && pass "bigbox.md: $(wc -l < "$BIG") lines" || fail "bigbox.md over 60 lines"
ncmd=0
while read -r cmd rest; do
    ncmd=$((ncmd + 1))
    "$RCUPROF" "$cmd" --help > "$TMP/h" 2>&1 || fail "bigbox.md: rcuprof $cmd --help"
    for o in $(grep -oE -- '--[a-z][a-z0-9-]*' <<< "$rest" | sort -u); do
        grep -qE -- "(^|[ ,|\[])$o( |,|\]|$)" "$TMP/h" || fail "bigbox.md: rcuprof $cmd $o: not in its --help"
    done
done < <(sed -n '/^```sh/,/^```/p' "$BIG" | sed 's/ && /\n/g' | grep -oE 'rcuprof [a-z]+ .*' | sed 's/^rcuprof //')
[ "$ncmd" -ge 4 ] && pass "bigbox.md: the options of its $ncmd commands are the commands'" || fail "bigbox.md: only $ncmd commands found"

if [ "${#built[@]}" -lt 2 ]; then
    echo "SKIPPED: needs two built variants, have '$RCUPROF_VARIANTS_BUILT' (bad input checked: $checks passed, $failures failed)"
    [ "$failures" -eq 0 ] || exit 1
    exit 77
fi
# --- The engine plans a bundle as it plans a sweep: the same --seed, the
# same order (block, threads, variant, order) point for point. ---
"$RCUPROF" bundle --variants "$A","$B" --threads 1,2 --blocks 3 --seed 5 \
    --duration-ms 1 --warmup-ms 0 --out "$TMP/order.tar.gz" > /dev/null 2> "$TMP/order.err" \
    || fail "bundle for the order: $(cat "$TMP/order.err")"
"$RCUPROF" sweep --variants "$A","$B" --threads 1,2 --reps 3 --seed 5 \
    --duration-ms 1 --warmup-ms 0 --out "$TMP/order-sw" > /dev/null 2> "$TMP/order.err" \
    || fail "sweep for the order: $(cat "$TMP/order.err")"
mkdir "$TMP/order" && tar -xzf "$TMP/order.tar.gz" -C "$TMP/order" order/plan.json \
    || fail "order.tar.gz has no plan.json"
bo=$($PY -c 'import json,sys; print(" ".join("%(block)d/%(threads)d/%(variant)s/%(order)d" % p for p in json.load(open(sys.argv[1]))["points"]))' "$TMP/order/order/plan.json")
so=$($PY -c 'import json,sys; print(" ".join("%(block)d/%(threads)d/%(variant)s/%(order)d" % p for p in map(json.loads, open(sys.argv[1])) if p["type"] == "point"))' "$TMP/order-sw/results.jsonl")
[ -n "$bo" ] && [ "$bo" = "$so" ] && pass "bundle and sweep, seed 5: the same order of $(wc -w <<< "$bo") points" \
    || fail "seed 5: bundle order '$bo', sweep order '$so'"
rm -rf "$TMP/order" "$TMP/order-sw" "$TMP/order.tar.gz"

BUSYBOX=$(command -v busybox || true)
if [ -z "$BUSYBOX" ] || readelf -l "$BUSYBOX" | grep -q "program interpreter"; then
    echo "SKIPPED: no static busybox (apt-get install busybox-static; make deps)"
    exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: chroot needs root ($checks checks passed, $failures failed)"
    exit 77
fi

# Options a driver refuses: caught here by a 1 ms local run, nothing written.
expect_error 2 "$A refuses the options (a 1 ms run here): cannot fetch MD NOPE" "$RCUPROF" bundle --variants "$A","$B" --threads 2 --blocks 2 --fetch MD:NOPE --out "$TMP/b.tar.gz"
ls "$TMP"/b.* "$TMP"/.b.* > /dev/null 2>&1 && fail "a refused bundle wrote: $(ls -A "$TMP")" || pass "the refused bundle wrote nothing"

# --- The bundle. ---
t0=$(date +%s.%N)
"$RCUPROF" bundle --variants "$A","$B" --threads 1 --blocks 2 --seed 11 \
    --duration-ms 100 --warmup-ms 10 --out "$TMP/tiny.tar.gz" > "$TMP/bundle.out" 2> "$TMP/bundle.err" \
    && pass "bundle: $(head -1 "$TMP/bundle.out")" || fail "bundle: $(cat "$TMP/bundle.err")"
echo "bundle took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
ls -a "$TMP" | grep -q '\.stage\|\.tmp' && fail "bundle left a staging file: $(ls -a "$TMP")"
mkdir "$TMP/x"
# Unpacked by busybox's tar, as on a target with nothing else.
"$BUSYBOX" tar -xzf "$TMP/tiny.tar.gz" -C "$TMP/x" || fail "busybox tar xzf"
ROOT=$TMP/x/tiny
# The packs share their libraries: one file, hard-linked; each pack whole.
[ "$(stat -c %i "$ROOT"/packs/*/lib/libc.so.6 | sort -u | wc -l)" -eq 1 ] \
    && pass "libc.so.6 stored once for both packs" || fail "libc.so.6 not shared: $(ls -i "$ROOT"/packs/*/lib/libc.so.6)"
for p in "$ROOT"/packs/*/; do
    (cd "$p" && tail -n +3 MANIFEST | while read -r _ sha f; do echo "$sha  $f"; done | sha256sum -c --quiet) \
        || fail "$p: files differ from its MANIFEST"
done
for f in run.sh plan.txt plan.json BUNDLE_ID; do
    [ -f "$ROOT/$f" ] || fail "the bundle lacks $f"
done
[ "$(ls "$ROOT/packs" | wc -l)" -eq 2 ] && pass "two packs" || fail "packs: $(ls "$ROOT/packs")"
[ "$(tail -n +2 "$ROOT/plan.txt" | wc -l)" -eq 4 ] && pass "plan of 4 points" || fail "plan.txt: $(cat "$ROOT/plan.txt")"
expect_error 2 "a bundle without results: run 'sh run.sh' there first" "$RCUPROF" import "$ROOT" --out "$TMP/imp0"

# The chroot: busybox and the bundle, nothing else (proc and sys: empty
# mount points).
mkdir -p "$ROOT/bin" "$ROOT/proc" "$ROOT/sys"
cp "$BUSYBOX" "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"
[ -z "$(find "$ROOT" -name 'libc.so*' -not -path "$ROOT/packs/*")" ] || fail "libc outside the packs"

# --- First run, with /proc and /sys, interrupted after its first point. ---
if unshare -m true 2>/dev/null; then
    setsid unshare -m --propagation private sh -c \
        'mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" && exec env -i /usr/sbin/chroot "$1" /bin/sh run.sh' \
        _ "$ROOT" > "$TMP/run1.out" 2> "$TMP/run1.err" &
    mounted=1
else
    echo "note: no mount namespace here: the first run is bare too"
    setsid env -i /usr/sbin/chroot "$ROOT" /bin/sh run.sh > "$TMP/run1.out" 2> "$TMP/run1.err" &
    mounted=0
fi
pid=$!
for _ in $(seq 600); do
    [ -f "$ROOT/results/points/0.done" ] && break
    sleep 0.1
done
kill -TERM -- -"$pid" 2>/dev/null
wait "$pid"
rc=$?
ndone=$(ls "$ROOT/results/points" | grep -c '\.done$')
grep -q "interrupted at point" "$TMP/run1.err" && [ "$rc" -ne 0 ] \
    && pass "run.sh interrupted (exit $rc) with $ndone point(s) done" || fail "interrupt: exit $rc, $(cat "$TMP/run1.err")"
[ "$ndone" -ge 1 ] && [ "$ndone" -lt 4 ] || fail "after the interrupt $ndone points done, wanted 1 to 3"
leftover=$(ls -A "$ROOT/results/points" | grep '^\.' || true)
[ -z "$leftover" ] && pass "no temporary file left" || fail "left: $leftover"
grep -q "^point 1 of 4\|point 1 of 4: block 1" "$TMP/run1.err" && pass "progress: $(grep -m1 'point 1 of 4' "$TMP/run1.err")" || fail "no progress line: $(cat "$TMP/run1.err")"
sum0=$(cat "$ROOT/results/points/0".{json,done} | sha256sum)

# --- Restart, bare: the done points are kept, the rest run. ---
env -i /usr/sbin/chroot "$ROOT" /bin/sh run.sh > "$TMP/run2.out" 2> "$TMP/run2.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "$ndone of 4 points already done: going on" "$TMP/run2.err" \
    && grep -q "all 4 of 4 points done" "$TMP/run2.err" \
    && pass "restart: skipped $ndone, finished" || fail "restart: exit $rc: $(cat "$TMP/run2.err")"
[ "$(cat "$ROOT/results/points/0".{json,done} | sha256sum)" = "$sum0" ] \
    && pass "point 0 untouched by the restart" || fail "point 0 was run again"
[ "$(ls "$ROOT/results/points" | grep -c '\.done$')" -eq 4 ] || fail "not 4 points done"
env -i /usr/sbin/chroot "$ROOT" /bin/sh run.sh > /dev/null 2> "$TMP/run3.err"
grep -q "all 4 of 4 points done" "$TMP/run3.err" && ! grep -q "point 1 of 4: block" "$TMP/run3.err" \
    && pass "a third run runs nothing" || fail "third run: $(cat "$TMP/run3.err")"

# --- run.sh's timeouts, on this machine's sh: timeout(1), then (no
# timeout on PATH) the background watchdog.  A copy of the bundle whose
# plan.txt gives a 3 s timeout, an 8 s window to its first point and 50 ms
# to the others. ---
tb=$TMP/tb
mkdir -p "$tb/results"
cp -a "$ROOT/packs" "$ROOT/run.sh" "$ROOT/plan.json" "$ROOT/BUNDLE_ID" "$tb/"
echo 0123456789abcdef > "$tb/results/BUNDLE_ID"
awk 'NR == 1 { $3 = 3 } NR == 2 { sub(/--duration-ms=100/, "--duration-ms=8000") } NR > 2 { sub(/--duration-ms=100/, "--duration-ms=50") } { print }' "$ROOT/plan.txt" > "$tb/plan.txt"
grep -c "duration-ms=50'" "$tb/plan.txt" | grep -q 3 || fail "the timeout plan: $(cat "$tb/plan.txt")"
env -i PATH=/usr/bin:/bin sh "$tb/run.sh" 2> "$TMP/tb.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "holds the results of another bundle (0123456789abcdef)" "$TMP/tb.err" \
    && pass "run.sh refuses another bundle's results folder" || fail "another bundle's results: exit $rc: $(cat "$TMP/tb.err")"
mkdir "$TMP/nt"
for p in mkdir cp mv rm cat date uname sleep nproc; do ln -s "$(command -v "$p")" "$TMP/nt/$p"; done
for how in timeout watchdog; do
    rm -rf "$tb/results"
    if [ "$how" = timeout ]; then
        env -i PATH=/usr/bin:/bin sh "$tb/run.sh" 2> "$TMP/tb.err"
    else
        env -i PATH="$TMP/nt" /bin/sh "$tb/run.sh" 2> "$TMP/tb.err"
    fi
    # run.log holds the probe's "timeout: not found" exactly when it fell back.
    if grep -q "timeout.*not found" "$tb/results/run.log"; then used=watchdog; else used=timeout; fi
    [ "$used" = "$how" ] || fail "$how: run.sh used the $used path"
    "$RCUPROF" import "$tb" --out "$TMP/tb-$how" > /dev/null 2>> "$TMP/tb.err"
    got=$("$PY" -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]).read().split("\n")[1:-1]]
print(" ".join("%d:%s" % (p["seq"], p["status"]) for p in rows))' "$TMP/tb-$how/results.jsonl" 2>&1)
    [ "$got" = "0:timeout 1:ok 2:ok 3:ok" ] && pass "$how: an 8 s run killed at the 3 s timeout, recorded timeout: $got" \
        || fail "$how: $got: $(cat "$TMP/tb.err")"
done

# --- Import from a .tar.gz of results/, then compare. ---
(cd "$ROOT" && tar -czf "$TMP/results.tar.gz" results)
"$RCUPROF" import "$TMP/results.tar.gz" --out "$TMP/imp" > "$TMP/imp.out" 2> "$TMP/imp.err" \
    && pass "$(cat "$TMP/imp.out")" || fail "import: $(cat "$TMP/imp.err")"
"$PY" - "$RCUPROF_SRC/docs/schema/results-header.schema.json" "$TMP/imp/results.jsonl" "$A" "$B" "$(nproc)" "$mounted" <<'PY' \
    && pass "imported: header valid, 4 ok points of 2 variants x 2 blocks, each with its host" || fail "imported file"
import json, sys, hashlib
import jsonschema
schema = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2]).read().split("\n")[:-1]]
h = rows[0]
errs = list(jsonschema.Draft202012Validator(schema).iter_errors(h))
assert not errs, errs
canon = json.dumps(h["spec"], sort_keys=True, separators=(",", ":"))
assert hashlib.sha256(canon.encode()).hexdigest() == h["spec_hash"]
assert h["spec"]["reps"] == 2 and h["spec"]["threads"] == [1], h["spec"]
point = dict(schema["$defs"]["point"], **{"$defs": schema["$defs"]})
pts = rows[1:]
assert len(pts) == 4, len(pts)
for p in pts:
    e = list(jsonschema.Draft202012Validator(point).iter_errors(p))
    assert not e, e
    assert p["status"] == "ok", (p["status"], p["message"])
    host = p["host"]
    assert host["kind"] == "bundle" and host["arch"] == "x86_64", host
    assert host["cpus"] == int(sys.argv[5]), (host["cpus"], sys.argv[5])
    if sys.argv[6] == "1":
        assert host["packages"] >= 1 and host["cores"] >= 1, host
        assert len(host["topology"]) == host["cpus"], host["topology"]
cells = sorted((p["block"], p["variant"]) for p in pts)
assert cells == sorted((b, v) for b in (0, 1) for v in sys.argv[3:5]), cells
assert sorted(p["seq"] for p in pts) == [0, 1, 2, 3]
PY
expect_error 2 "ran on bundle host" "$RCUPROF" explain "$TMP/imp/results.jsonl" --out "$TMP/imp-ex"
"$RCUPROF" compare "$TMP/imp/results.jsonl" > "$TMP/cmp.out" 2> "$TMP/cmp.err"
grep -q "^| threads |" "$TMP/cmp.out" && grep -q "$B" "$TMP/cmp.out" \
    && pass "compare prints the table" || fail "compare: $(cat "$TMP/cmp.out" "$TMP/cmp.err")"
cat "$TMP/cmp.out"
"$RCUPROF" import "$ROOT" --out "$TMP/imp2" > /dev/null 2>&1 && cmp -s <(tail -n +2 "$TMP/imp/results.jsonl") <(tail -n +2 "$TMP/imp2/results.jsonl") \
    && pass "the bundle folder imports the same points" || fail "import of the folder differs"

# --- Refusals: one line, exit 2, nothing written. ---
expect_error 2 "exists" "$RCUPROF" import "$ROOT/results" --out "$TMP/imp"
cp -a "$ROOT/results" "$TMP/half"
rm "$TMP/half/points/3.done"
expect_error 2 "half-written: 3 of 4 points done" "$RCUPROF" import "$TMP/half" --out "$TMP/imp3"
cp -a "$ROOT/results" "$TMP/changed"
sed -i 's/"reps": 2/"reps": 3/' "$TMP/changed/plan.json"
expect_error 2 "changed after rcuprof bundle wrote it" "$RCUPROF" import "$TMP/changed" --out "$TMP/imp3"
cp -a "$ROOT/results" "$TMP/foreign"
echo 0123456789abcdef > "$TMP/foreign/BUNDLE_ID"
expect_error 2 "mixes two bundles" "$RCUPROF" import "$TMP/foreign" --out "$TMP/imp3"
echo "not a tarball" > "$TMP/junk.tar.gz"
expect_error 2 "not a .tar.gz tar can read (tar failed: gzip: stdin: not in gzip format)" "$RCUPROF" import "$TMP/junk.tar.gz" --out "$TMP/imp3"
[ -e "$TMP/imp3" ] && fail "a refused import wrote $TMP/imp3" || pass "refused imports wrote nothing"
finish
