# rcuprof pack: a packed binary runs under `env -i` in a chroot that holds
# only busybox (Debian's busybox-static) and the pack: no glibc, no hwloc,
# no libpfm there.  rcuprof itself (it loads libdw, GSL, hwloc...) is packed
# always; a stress driver when one is built (--version and a short run).
# Controls: the unpacked binary does not run in that chroot, and a pack
# with a library removed does not either.  A few seconds.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"

# --- Bad input: one line, exit 2, nothing written. ---
expect_error 2 "not an x86-64 ELF executable" "$RCUPROF" pack /etc/hostname --out "$TMP/bad"
expect_error 2 "either --variant V or a FILE" "$RCUPROF" pack --out "$TMP/bad"
expect_error 2 "--out DIR is required" "$RCUPROF" pack "$RCUPROF"
[ -e "$TMP/bad" ] && fail "a refused pack wrote $TMP/bad" || pass "refused packs wrote nothing"

# --- Content-addressed: the same binary twice, one folder; ID = digest. ---
id=$("$RCUPROF" pack "$RCUPROF" --out "$TMP/packs") || fail "pack rcuprof"
id2=$("$RCUPROF" pack "$RCUPROF" --out "$TMP/packs")
[ "$id" = "$id2" ] && [ "$(ls "$TMP/packs" | wc -l)" -eq 1 ] \
    && pass "packed twice: one folder $id" || fail "packed twice: '$id' '$id2': $(ls -a "$TMP/packs")"
want=$(sha256sum "$TMP/packs/$id/MANIFEST" | cut -c1-32)
[ "$want" = "$id" ] && pass "id is the MANIFEST's digest" || fail "id $id, MANIFEST digest $want"
(cd "$TMP/packs/$id" && tail -n +3 MANIFEST | while read -r _ sha f; do
    echo "$sha  $f"; done | sha256sum -c --quiet) \
    && pass "MANIFEST digests match the files" || fail "MANIFEST digests differ"
for lib in $(ldd "$RCUPROF" | awk '/=>/ {print $1}'); do
    [ -f "$TMP/packs/$id/lib/$lib" ] || fail "pack lacks $lib (ldd lists it)"
done
ls -a "$TMP/packs" | grep -q tmp && fail "a temporary folder was left" || true

BUSYBOX=$(command -v busybox || true)
if [ -z "$BUSYBOX" ] || ! file -L "$BUSYBOX" 2>/dev/null | grep -q "statically linked"; then
    echo "SKIPPED: no static busybox (apt-get install busybox-static; make deps)"
    exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
    # Still show the pack runs on its own loader, without a chroot.
    mapfile -t pre < <("$RCUPROF" pack "$RCUPROF" --out "$TMP/packs" --argv | tail -n +2)
    env -i "${pre[@]}" --version | grep -q '^rcuprof ' && pass "pack runs under env -i" || fail "pack under env -i"
    echo "SKIPPED: chroot needs root ($checks checks passed, $failures failed)"
    exit 77
fi

# The chroot: busybox, its sh, and the packs.  Nothing else.
ROOT=$TMP/root
mkdir -p "$ROOT/bin"
cp "$BUSYBOX" "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"
cp -a "$TMP/packs" "$ROOT/p"
[ -z "$(find "$ROOT" -name 'libc.so*' -not -path "$ROOT/p/*")" ] || fail "libc outside the pack"

# run_in ROOT_RELATIVE_PACK ARGS...: argv prefix of the pack, run in the chroot.
run_in() {
    local pack=$1
    shift
    env -i /usr/sbin/chroot "$ROOT" "/p/$pack/lib/ld-linux-x86-64.so.2" \
        --inhibit-cache --library-path "/p/$pack/lib" "/p/$pack/driver" "$@"
}

# Control: the binary itself cannot run there (no loader, no libraries).
if env -i /usr/sbin/chroot "$ROOT" "/p/$id/driver" --version >/dev/null 2>&1; then
    fail "the unpacked binary ran in the chroot: the chroot is not bare"
else
    pass "unpacked binary does not run in the bare chroot"
fi
# The argv prefix rcuprof gives, relative to the chroot's /.
mapfile -t pre < <(cd "$ROOT" && "$RCUPROF" pack "$RCUPROF" --out p --argv | tail -n +2)
[ "${pre[0]}" = "p/$id/lib/ld-linux-x86-64.so.2" ] && [ "${pre[4]}" = "p/$id/driver" ] \
    && pass "argv prefix: ${pre[*]}" || fail "argv prefix: ${pre[*]}"
out=$(env -i /usr/sbin/chroot "$ROOT" "${pre[@]}" --version 2>&1)
[[ "$out" == "rcuprof "* ]] && pass "packed rcuprof --version in the chroot: $out" || fail "packed rcuprof in the chroot: $out"
# The same from busybox sh, inside the pack's folder (as run.sh does it).
out=$(env -i /usr/sbin/chroot "$ROOT" /bin/sh -c "cd /p/$id && ./lib/ld-linux-x86-64.so.2 --inhibit-cache --library-path lib ./driver --version" 2>&1)
[[ "$out" == "rcuprof "* ]] && pass "from busybox sh: $out" || fail "from busybox sh: $out"
# Control: a pack missing a library does not run.
cp -a "$ROOT/p/$id" "$ROOT/p/broken"
rm "$ROOT/p/broken/lib/libjansson.so.4"
if run_in broken --version >/dev/null 2>&1; then
    fail "a pack without libjansson ran: the target's libraries were used"
else
    pass "a pack missing a library does not run"
fi

# --- A stress driver: --version and a short run. ---
A=$(first_variant)
if [ -z "$A" ]; then
    echo "SKIPPED: no stress driver built (CLI-only build): rcuprof itself was packed and ran ($checks checks passed, $failures failed)"
    [ "$failures" -eq 0 ] || exit 1
    exit 77
fi
did=$("$RCUPROF" pack --variant "$A" --out "$ROOT/p") || fail "pack --variant $A"
[ -f "$ROOT/p/$did/lib/libhwloc.so.15" ] && pass "driver pack carries libhwloc" || fail "driver pack lacks libhwloc: $(ls "$ROOT/p/$did/lib")"
run_in "$did" --version >"$TMP/ver.json" 2>"$TMP/ver.err" \
    && "$PY" -c 'import json,sys; b=json.load(open(sys.argv[1])); assert b["variant"]==sys.argv[2], b["variant"]' "$TMP/ver.json" "$A" \
    && pass "packed $A --version in the chroot" || fail "packed $A --version: $(cat "$TMP/ver.err")"
run_in "$did" --threads 2 --duration-ms 50 --warmup-ms 10 >"$TMP/run.json" 2>"$TMP/run.err"
rc=$?
[ "$rc" -eq 0 ] && "$PY" - "$TMP/run.json" <<'PY' && pass "packed $A ran 2 threads in the chroot" || fail "packed $A run: exit $rc: $(tail -3 "$TMP/run.err")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"].startswith("rcuprof-run/"), r["schema"]
ops = r["run"]["ops"]
assert ops > 0, ops
PY
finish
