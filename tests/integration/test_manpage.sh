# docs/rcuprof.1 documents every option any --help lists, in the section
# of its command (driver options: in "Driver options"), and renders with
# man(1) and groff without a warning.
. "$(dirname "$0")/lib.sh"
MAN="$RCUPROF_SRC/docs/rcuprof.1"
[ -f "$MAN" ] || { fail "$MAN missing"; finish; }

# The options a section documents: the tag line after each .TP, with roff
# escapes removed ("\-" -> "-", font changes dropped).
tags() {  # tags SECTION-TITLE-REGEX -> options, one per line
    awk -v want="$1" '
        /^\.S[SH] / { t = $0; sub(/^\.S[SH] /, "", t); insec = (t ~ want); next }
        insec && /^\.TP/ { tag = 1; next }
        insec && tag { print; tag = 0 }
    ' "$MAN" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' \
        | grep -oE -- '(^|[ "])-(-[a-z][a-z0-9-]*|[a-z])' | tr -d ' "' | sort -u
}
opts_of() { grep -oE -- '(^|[ [(|])-(-[a-z][a-z0-9-]*|[a-z])\b' | grep -oE -- '-.*' | sort -u; }

check() {  # check NAME HELP-TEXT-FILE SECTION-REGEX...
    local name=$1 help=$2 o have
    shift 2
    have=$(for s in "$@"; do tags "$s"; done | sort -u)
    local opts
    opts=$(opts_of < "$help")
    [ -n "$opts" ] || { fail "$name: no options found in its --help"; return; }
    for o in $opts; do
        if grep -qxF -- "$o" <<< "$have"; then
            pass "$name $o documented"
        else
            fail "$name: $o is in --help but not a .TP item of the man page's section for it"
        fi
    done
}

"$RCUPROF" --help > "$TMP/global"
check "rcuprof" "$TMP/global" '^GLOBAL OPTIONS' '^rcuprof '
# The global help's synopsis line of each command, and the command's own --help.
cmd_help() {  # cmd_help OUT CMD-WORDS... : the synopsis line(s) plus CMD --help
    local out=$1
    shift
    grep -E "^  rcuprof $* " "$TMP/global" > "$out" || true
    "$RCUPROF" "$@" --help >> "$out" 2>/dev/null || true
}
cmd_help "$TMP/variants" variants
check "variants" "$TMP/variants" '^rcuprof variants'
grep -E '^  rcuprof variant add' "$TMP/global" > "$TMP/vadd"
"$RCUPROF" variant add NAME --help >> "$TMP/vadd"
check "variant add" "$TMP/vadd" '^rcuprof variant add'
cmd_help "$TMP/events" events
check "events" "$TMP/events" '^rcuprof events'
cmd_help "$TMP/run" run
check "run" "$TMP/run" '^rcuprof run' '^Driver options'
cmd_help "$TMP/sweep" sweep
check "sweep" "$TMP/sweep" '^rcuprof sweep' '^Driver options'
cmd_help "$TMP/compare" compare
check "compare" "$TMP/compare" '^rcuprof compare'
cmd_help "$TMP/report" report
check "report" "$TMP/report" '^rcuprof report'
cmd_help "$TMP/explain" explain
check "explain" "$TMP/explain" '^rcuprof explain' '^Driver options'
cmd_help "$TMP/whatif" whatif
check "whatif" "$TMP/whatif" '^rcuprof whatif' '^Driver options'
cmd_help "$TMP/attribute" attribute
check "attribute" "$TMP/attribute" '^rcuprof attribute'

# Every driver option the man page lists is one `run --help` knows.
for o in $(tags '^Driver options'); do
    grep -qE -- "(^|[ ])$o( |$)" "$TMP/run" && pass "man's $o is in run --help" \
        || fail "the man page documents $o, which run --help does not list"
done

# Every command has its section.
for c in 'variants' 'variant add' 'events' 'run' 'sweep' 'compare' 'report' 'explain' 'whatif' 'attribute'; do
    grep -qE "^\.SS rcuprof $c( |$)" "$MAN" && pass "section for $c" || fail "no .SS section for rcuprof $c"
done

# It renders, without warnings.
if command -v man > /dev/null; then
    warn=$(MANWIDTH=80 man --warnings -l "$MAN" 2>&1 > "$TMP/rendered")
    [ -z "$warn" ] && pass "man --warnings -l: no warnings" || fail "man --warnings -l: $warn"
    grep -q '^NAME' "$TMP/rendered" && grep -qE 'rcuprof +- +RCU +read-path' "$TMP/rendered" \
        && pass "man -l renders NAME" || fail "man -l did not render the NAME section"
    [ "$(wc -l < "$TMP/rendered")" -gt 200 ] && pass "man -l renders the whole page" \
        || fail "man -l rendered only $(wc -l < "$TMP/rendered") lines"
else
    echo "note: man not installed; rendering not checked with man"
fi
if command -v groff > /dev/null; then
    warn=$(groff -man -ww -z "$MAN" 2>&1)
    [ -z "$warn" ] && pass "groff -man -ww: no warnings" || fail "groff -man -ww: $warn"
fi
finish
