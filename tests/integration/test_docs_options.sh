# Every option any --help lists is documented in docs/interfaces.md's CLI
# table (and every option the table lists for `run` is accepted by --help).
. "$(dirname "$0")/lib.sh"
DOC="$RCUPROF_SRC/docs/interfaces.md"
table=$(sed -n '/^## 1. CLI/,/^## 2/p' "$DOC")
{
    "$RCUPROF" --help
    "$RCUPROF" run --help
    "$RCUPROF" variant add NAME --help
    "$RCUPROF" events --help
    "$RCUPROF" attribute --help
    "$RCUPROF" sweep --help
    "$RCUPROF" compare --help
    "$RCUPROF" report --help
    "$RCUPROF" explain --help
} > "$TMP/help"
opts=$(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u)
[ -n "$opts" ] || fail "no options found in --help"
for o in $opts; do
    if grep -qE -- "\`$o( |\`)" <<< "$table"; then pass "$o documented"; else fail "$o is in --help but not in docs/interfaces.md section 1"; fi
done
for o in $(grep -E '^\| `run` \|' <<< "$table" | grep -oE -- '`--[a-z][a-z0-9-]*' | tr -d '`' | sort -u); do
    grep -qE -- "$o( |$)" "$TMP/help" && pass "$o in run --help" || fail "$o documented but not in --help"
done
finish
