# Every option any --help lists is documented in docs/interfaces.md's CLI
# table (and every option the table lists for `run` is accepted by --help);
# no cell of interfaces.md is over 400 characters; README is at most 120
# lines and every option of its Usage commands is one the command takes.
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
    "$RCUPROF" pack --help
    "$RCUPROF" bundle --help
    "$RCUPROF" import --help
    "$RCUPROF" host --help
} > "$TMP/help"
opts=$(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u)
[ -n "$opts" ] || fail "no options found in --help"
for o in $opts; do
    if grep -qE -- "\`$o( |\`)" <<< "$table"; then pass "$o documented"; else fail "$o is in --help but not in docs/interfaces.md section 1"; fi
done
# The other way: every option in the table's option column is one its
# command's --help lists.
while IFS='|' read -r _ cmd opt _; do
    cmd=$(tr -d '`' <<< "$cmd" | sed -e 's/^ *//' -e 's/ *$//' -e 's/ RESULTS*$//')
    case $cmd in
    "(global)") words=() ;;
    command|---*|"") continue ;;
    *) read -r -a words <<< "$cmd" ;;
    esac
    case $opt in *"(every driver option"*) continue ;; esac  # names exclusions
    for o in $(grep -oE -- '`--[a-z][a-z0-9-]*' <<< "$opt" | tr -d '`'); do
        "$RCUPROF" "${words[@]}" --help > "$TMP/one" 2>&1
        grep -qE -- "(^|[ ,|\[])$o( |,|\]|$)" "$TMP/one" && pass "${cmd} $o in its --help" \
            || fail "docs/interfaces.md lists ${cmd} $o, which rcuprof ${words[*]} --help does not"
    done
done < <(grep -E '^\| ' <<< "$(sed -n '/^## 1. CLI/,/^### 1.1/p' "$DOC")")
# --- interfaces.md: terse tables, no cell over 400 characters ---
cells=$(python3 - "$DOC" <<'PY'
import re, sys
for i, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    if line.lstrip().startswith("|"):
        for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]:
            if len(c.strip()) > 400:
                print("%d: %d characters: %s..." % (i, len(c.strip()), c.strip()[:50]))
PY
)
[ -z "$cells" ] && pass "docs/interfaces.md: no table cell over 400 characters" \
    || fail "docs/interfaces.md has table cells over 400 characters (move the explanation to docs/methodology.md): $cells"
# The check sees a long cell.
printf '| a | %s |\n' "$(printf 'x%.0s' $(seq 401))" > "$TMP/long.md"
grep -q 'x\{401\}' "$TMP/long.md" && python3 - "$TMP/long.md" <<'PY' && pass "the cell check counts a 401-character cell" || fail "the cell check missed a 401-character cell"
import re, sys
line = open(sys.argv[1]).read()
assert max(len(c.strip()) for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]) == 401
PY

# --- README: at most 120 lines; its Usage commands use options they take ---
README="$RCUPROF_SRC/README.md"
n=$(wc -l < "$README")
[ "$n" -le 120 ] && pass "README.md is $n lines (<= 120)" || fail "README.md is $n lines, over 120"
usage=$(sed -n '/^## Usage/,/^## /p' "$README" | grep -E '^build/bin/rcuprof [a-z]')
[ -n "$usage" ] || fail "README's Usage has no rcuprof command"
while read -r _ cmd rest; do
    "$RCUPROF" "$cmd" --help > "$TMP/h.$cmd" 2>&1 || { fail "README uses 'rcuprof $cmd', which has no --help"; continue; }
    for o in $(grep -oE -- '(^| )--?[a-z][a-z0-9-]*' <<< "${rest%%#*}" | tr -d ' ' | sort -u); do
        grep -qE -- "^  (.*[ ,])?$o( |,|$)" "$TMP/h.$cmd" && pass "README: rcuprof $cmd $o" \
            || fail "README's Usage gives rcuprof $cmd $o, which rcuprof $cmd --help does not list"
    done
done <<< "$usage"
finish
