# docs/rcuprof.1 documents every option any --help lists, in the section
# of its command (driver options: in "Driver options"), and no option the
# help does not list; it renders with man(1) and groff without a warning.
. "$(dirname "$0")/lib.sh"
MAN="$RCUPROF_SRC/docs/rcuprof.1"
[ -f "$MAN" ] || { fail "$MAN missing"; finish; }

# The options, both ways: every option a --help lists (and the global
# help's synopsis line of its command) is a .TP item of the command's
# section (driver options: of "Driver options"), and every .TP item is an
# option of that --help (tests/tools/check-man-options.py; it prints a
# .TP stub for an option the page lacks).
CHK="$RCUPROF_SRC/tests/tools/check-man-options.py"
if python3 "$CHK" "$RCUPROF" "$MAN" > "$TMP/chk" 2>&1; then
    pass "man page and --help list the same options: $(tail -1 "$TMP/chk")"
else
    fail "man page and --help differ:"; cat "$TMP/chk"
fi
# The check itself catches a missing and a stray item.
sed -e '0,/^\.B \\-\\-by\\-state$/{/^\.B \\-\\-by\\-state$/s/.*/.B \\-\\-by\\-statex/}' "$MAN" > "$TMP/mut.1"
python3 "$CHK" "$RCUPROF" "$TMP/mut.1" > "$TMP/mut" 2>&1
grep -q 'compare --help lists --by-state' "$TMP/mut" && grep -q 'documents --by-statex' "$TMP/mut" \
    && pass "check-man-options catches a missing and a stray option" \
    || fail "check-man-options missed the mutation: $(head -3 "$TMP/mut")"

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
