# The rebuild rules, checked on the recipe hashes cmake/build-variant.sh
# computes (no compile): an unchanged build compiles nothing; editing a patch
# changes the recipe of exactly the variants that use it; changing a
# variant's Configure options changes that variant's recipe only.
. "$(dirname "$0")/lib.sh"
SRC=$RCUPROF_SRC
BV="$SRC/cmake/build-variant.sh"

# 1. A second build of the real tree compiles no OpenSSL file.
out=$(cmake --build "$RCUPROF_BUILD" 2>&1)
if echo "$out" | grep -q "rcuprof: building variant"; then
    fail "second build rebuilt a variant: $(echo "$out" | grep 'building variant')"
else
    n=$(echo "$out" | grep -c "is up to date")
    [ "$n" -ge 1 ] && pass "second build: $n variants up to date, none rebuilt" || fail "no up-to-date line: $out"
fi

# 2./3. Synthetic specs over a copy of two patches.
mkdir -p "$TMP/p"
echo "--- a/x" > "$TMP/p/one.patch"; echo "--- a/y" > "$TMP/p/two.patch"
tree=$(awk -F'\t' '$1=="tree"{print $2}' "$RCUPROF_BUILD/variants/$(first_variant)/spec")
spec() {  # name patches... -> spec file
    local n=$1 f="$TMP/$1.spec"; shift
    printf 'name\t%s\ntree\t%s\nline\t3.5\nsource_json\t{}\nconfigure\tno-apps\n' "$n" "$tree" > "$f"
    for p in "$@"; do printf 'patch\t%s\n' "$TMP/p/$p" >> "$f"; done
    echo "$f"
}
recipe() { RCUPROF_RECIPE_ONLY=1 "$BV" "$1" "$TMP/out-$(basename "$1")" 1; }
a=$(spec a one.patch); b=$(spec b two.patch); c=$(spec c)
ra=$(recipe "$a"); rb=$(recipe "$b"); rc=$(recipe "$c")
[ "$(recipe "$a")" = "$ra" ] && pass "recipe is stable" || fail "recipe not stable"
echo "+ changed" >> "$TMP/p/one.patch"
[ "$(recipe "$a")" != "$ra" ] && pass "editing one.patch changes a" || fail "a unchanged after editing its patch"
[ "$(recipe "$b")" = "$rb" ] && pass "editing one.patch leaves b" || fail "b changed by another variant's patch"
[ "$(recipe "$c")" = "$rc" ] && pass "editing one.patch leaves c" || fail "c changed"
sed -i 's/no-apps/no-apps\nconfigure\tno-asm/' "$c"
[ "$(recipe "$c")" != "$rc" ] && pass "Configure option change rebuilds c" || fail "c unchanged after Configure change"
finish
