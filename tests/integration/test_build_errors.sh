# Bad build input: each fails with one line naming the cause and what to do,
# non-zero, and leaves no variant looking complete.  Configure-only (no
# OpenSSL compile), except the failing patch, which stops before Configure.
. "$(dirname "$0")/lib.sh"
SRC=$RCUPROF_SRC

# expect_cmake_error SUBSTRING ARGS...: cmake configure must fail with an
# "rcuprof: " line containing SUBSTRING.
expect_cmake_error() {
    local want=$1 b="$TMP/b$RANDOM"
    shift
    if cmake -S "$SRC" -B "$b" -G Ninja "$@" >"$TMP/log" 2>&1; then
        fail "cmake $* succeeded"
    elif ! grep -q "rcuprof: .*$want" "$TMP/log"; then
        fail "cmake $*: no 'rcuprof: ...$want' line: $(grep -m3 -E 'rcuprof|Error' "$TMP/log")"
    else
        pass "cmake $* -> $(grep -m1 -o "rcuprof: .*" "$TMP/log")"
    fi
    rm -rf "$b"
}

expect_cmake_error "does not exist" -DOPENSSL_SOURCE_DIR=/nonexistent/openssl
mkdir -p "$TMP/old" && printf 'MAJOR=3\nMINOR=2\nPATCH=1\n' > "$TMP/old/VERSION.dat"
expect_cmake_error "no internal RCU" -DOPENSSL_SOURCE_DIR="$TMP/old"
mkdir -p "$TMP/notssl"
expect_cmake_error "no VERSION.dat" -DOPENSSL_SOURCE_DIR="$TMP/notssl"
echo "not a tarball" > "$TMP/x.tar.gz"
expect_cmake_error "needs -DOPENSSL_SOURCE_SHA256" -DOPENSSL_SOURCE_TARBALL="$TMP/x.tar.gz"
expect_cmake_error "has SHA-256" -DOPENSSL_SOURCE_TARBALL="$TMP/x.tar.gz" \
    -DOPENSSL_SOURCE_SHA256=0000000000000000000000000000000000000000000000000000000000000000
expect_cmake_error "does not exist" -DOPENSSL_SOURCE_TARBALL="$TMP/none.tar.gz" -DOPENSSL_SOURCE_SHA256=00
expect_cmake_error "unknown variant 'nope'" -DRCUPROF_VARIANTS=nope
echo '{"variants": {"x": {"base": "nope"}}}' > "$TMP/uv1.json"
expect_cmake_error "base 'nope', which is not defined" -DRCUPROF_USER_VARIANTS="$TMP/uv1.json"
echo '{"variants": {"x": ' > "$TMP/uv2.json"
expect_cmake_error "is not valid" -DRCUPROF_USER_VARIANTS="$TMP/uv2.json"
echo '{"variants": {"y": {"base": "stock", "patches": ["/nonexistent/p.patch"]}}}' > "$TMP/uv3.json"
expect_cmake_error "does not exist" -DRCUPROF_USER_VARIANTS="$TMP/uv3.json"

# The Debian path: a pin that is not in the suite names the newest, and an
# archive that cannot be reached says so.  Both use the fetch script alone.
fetch="$SRC/cmake/fetch-openssl-debian.sh"
cache=${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}
if "$fetch" "$cache" "3.5.0-0~nonexistent" >/dev/null 2>"$TMP/err"; then
    fail "a missing pin was accepted"
elif grep -q "is no longer in Debian trixie (newest 3.5.x there: 3.5" "$TMP/err"; then
    pass "missing pin names the newest: $(cat "$TMP/err")"
elif grep -q "cannot reach" "$TMP/err"; then
    echo "SKIPPED (pin check): the Debian archive is unreachable from here: $(cat "$TMP/err")"
else
    fail "missing pin: $(cat "$TMP/err")"
fi
if RCUPROF_APT_URI=http://127.0.0.1:9/debian "$fetch" "$TMP/emptycache" >/dev/null 2>"$TMP/err"; then
    fail "an unreachable archive was accepted"
else
    [ "$(grep -c . "$TMP/err")" -eq 1 ] && grep -q "^rcuprof: cannot reach the Debian archive" "$TMP/err" \
        && pass "unreachable archive: $(cat "$TMP/err")" || fail "unreachable archive: $(cat "$TMP/err")"
fi

# A patch that does not apply: the build fails naming the patch, the file
# and the hunk, and the variant is not left looking complete.
cat > "$TMP/bad.patch" <<'P'
--- a/crypto/property/property.c
+++ b/crypto/property/property.c
@@ -1,3 +1,3 @@
-this line is not in property.c
+nor is this one
 neither is this
 or this
P
printf '{"variants": {"badpatch": {"base": "stock", "patches": ["%s"]}}}\n' "$TMP/bad.patch" > "$TMP/uv4.json"
b="$TMP/bp"
if ! cmake -S "$SRC" -B "$b" -G Ninja -DRCUPROF_USER_VARIANTS="$TMP/uv4.json" -DRCUPROF_VARIANTS=badpatch >"$TMP/log" 2>&1; then
    fail "configure with a bad patch variant: $(tail -3 "$TMP/log")"
elif ! cmake --build "$b" --target openssl-badpatch >"$TMP/log" 2>&1; then
    # a user variant: reported in one line, and the build goes on
    fail "a user variant that fails stopped the build: $(grep -m3 rcuprof "$TMP/log")"
elif grep -q "rcuprof: variant badpatch failed to build: patch bad.patch does not apply exactly (--fuzz=0) to crypto/property/property.c (Hunk #1 FAILED at 1., hunk @@ -1,3 +1,3 @@): rebase it onto OpenSSL 3.5.[0-9]* or drop it from the variant; other variants build on ('rcuprof variant remove badpatch' drops it)$" "$TMP/log" \
     && [ "$(grep -c '^rcuprof: variant badpatch' "$TMP/log")" -eq 1 ]; then
    pass "bad patch: $(grep -o 'rcuprof: variant badpatch.*' "$TMP/log")"
    [ -e "$b/variants/badpatch/build.json" ] && fail "failed variant has build.json" || pass "failed variant not marked complete"
else
    fail "bad patch message: $(grep -m3 rcuprof "$TMP/log")"
fi
rm -rf "$b"
# Exact patches (--fuzz=0): 3.5's probe layer on a 3.6 tree.  The build
# stops at the first hunk that does not match exactly, with one line
# naming the patch, the file and the hunk (its @@ line).  Then 3.5's
# probes/0005 alone: with patch's default fuzz (what the build used
# before) it applies, its first hunk placed by part of its context; now
# the build refuses it.
P35="$SRC/patches/3.5/probes"
build_36() {   # NAME PATCH...: a user variant NAME on stock-pristine@3.6
    local name=$1 list="" p
    shift
    for p in "$@"; do list="$list${list:+,}\"$p\""; done
    printf '{"variants": {"%s": {"base": "stock-pristine@3.6", "patches": [%s]}}}\n' "$name" "$list" > "$TMP/$name.json"
    b="$TMP/$name"
    if ! cmake -S "$SRC" -B "$b" -G Ninja -DRCUPROF_USER_VARIANTS="$TMP/$name.json" \
            -DRCUPROF_VARIANTS="$name@3.6" >"$TMP/$name.log" 2>&1; then
        if grep -q "cannot reach the Debian archive" "$TMP/$name.log"; then
            echo "SKIPPED ($name): the Debian archive is unreachable: no 3.6 source"
            return 2
        fi
        fail "configure $name@3.6: $(grep -m3 rcuprof "$TMP/$name.log")"
        return 1
    fi
    # a user variant's failure does not fail the build: build.json says
    cmake --build "$b" --target "openssl-${name}_at_3.6" >"$TMP/$name.log" 2>&1
    [ -f "$b/variants/$name@3.6/build.json" ] && return 0
    return 1
}
if build_36 p35layer "$P35/0001-probes-core.patch" "$P35/0002-probes-threads-stock.patch" \
        "$P35/0004-probes-store-stock.patch" "$P35/0005-probes-store-kinds-stock.patch"; then
    fail "3.5's probe layer built on 3.6"
elif [ $? -eq 1 ]; then
    l=$(grep '^rcuprof: variant p35layer@3.6 failed to build: ' "$TMP/p35layer.log")
    if [ "$(grep -c . <<< "$l")" -eq 1 ] \
       && grep -qE "patch 0001-probes-core.patch does not apply exactly \(--fuzz=0\) to crypto/build.info \(Hunk #1 FAILED at [0-9]+\., hunk @@ " <<< "$l"; then
        pass "3.5 probe layer on 3.6: $l"
    else
        fail "3.5 probe layer on 3.6: $(grep -m3 rcuprof "$TMP/p35layer.log")"
    fi
    [ -e "$TMP/p35layer/variants/p35layer@3.6/build.json" ] && fail "failed variant has build.json" \
        || pass "failed 3.6 variant not marked complete"
fi
tree36=$(awk -F'\t' '$1=="tree"{print $2}' "$TMP/p35layer/variants/p35layer@3.6/spec" 2>/dev/null)
if [ -f "$tree36/crypto/context.c" ]; then
    mkdir -p "$TMP/fz/crypto" && cp "$tree36/crypto/context.c" "$TMP/fz/crypto/"
    for f in evp/evp_fetch.c encoder_decoder/decoder_meth.c encoder_decoder/encoder_meth.c store/store_meth.c; do
        mkdir -p "$TMP/fz/crypto/$(dirname "$f")" && cp "$tree36/crypto/$f" "$TMP/fz/crypto/$f"
    done
    fz=$(cd "$TMP/fz" && patch -p1 --dry-run --forward --batch < "$P35/0005-probes-store-kinds-stock.patch" 2>&1)
    if grep -q "Hunk #1 succeeded .* with fuzz" <<< "$fz" && ! grep -q FAILED <<< "$fz"; then
        pass "premise: default fuzz applies 3.5's probes/0005 to 3.6 ($(grep -m1 'with fuzz' <<< "$fz"))"
        if build_36 p35kinds "$P35/0005-probes-store-kinds-stock.patch"; then
            fail "3.5's probes/0005 built on 3.6 (applied with fuzz)"
        else
            l=$(grep '^rcuprof: variant p35kinds@3.6 failed to build: ' "$TMP/p35kinds.log")
            grep -qE "patch 0005-probes-store-kinds-stock.patch does not apply exactly \(--fuzz=0\) to crypto/context.c \(Hunk #1 FAILED at [0-9]+\., hunk @@ " <<< "$l" \
                && pass "fuzz refused: $l" || fail "probes/0005 on 3.6: $(grep -m3 rcuprof "$TMP/p35kinds.log")"
        fi
    else
        fail "premise changed: 3.5's probes/0005 on 3.6 with default fuzz: $fz"
    fi
fi
rm -rf "$TMP/p35layer" "$TMP/p35kinds"
finish
