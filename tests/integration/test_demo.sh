# make demo's script (cmake/demo.sh) end to end, small: 1 thread, a
# first stage of 3 blocks of 100 ms runs and 6 s of adaptive blocks per
# sweep.  Checks that it runs both sweeps adaptively, reports what it
# decided (resolved changes and the A/A row, with the floor line first),
# writes the reports, and refuses a variant list it cannot compare with one
# line.  Never asserts a timing or a verdict: those are the machine's.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
DEMO="$RCUPROF_SRC/cmake/demo.sh"
BUILD=$RCUPROF_BUILD
for v in stock rcu-sync rcu-nosync; do
    case ",$RCUPROF_VARIANTS_BUILT," in
    *,"$v",*) ;;
    *) echo "SKIPPED: needs stock, rcu-sync and rcu-nosync built (have $RCUPROF_VARIANTS_BUILT)"; exit 77 ;;
    esac
done
export RCUPROF_DEMO_OUT="$TMP/demo" RCUPROF_DEMO_THREADS=1 RCUPROF_DEMO_REPS=3 \
       RCUPROF_DEMO_MAX_TIME=6s RCUPROF_DEMO_MS=100
if bash "$DEMO" "$BUILD" > "$TMP/out" 2> "$TMP/err"; then
    pass "demo exits 0"
else
    fail "demo: exit $?: $(tail -5 "$TMP/err")"
fi
for churn in none query; do
    grep -q "sweep: adaptive: " "$TMP/demo/$churn/sweep.log" \
        && pass "churn $churn: the sweep was adaptive and said why it stopped" \
        || fail "churn $churn: no adaptive stop line in sweep.log"
    for f in results.md results-wide.md results.csv results.json cost.png change.png; do
        [ -s "$TMP/demo/$churn/report/$f" ] || fail "churn $churn: report/$f missing"
    done
    grep -q "^== churn: $churn ==" "$TMP/out" \
        && pass "churn $churn: its table is printed" || fail "churn $churn: no table"
done
# Across lines: the newest line built against 3.5, one table naming each
# variant's OpenSSL version and line.
case ",$RCUPROF_VARIANTS_BUILT," in
*,stock@4.0,*)
    grep -q "^== sweep across lines: OpenSSL 3.5 against 4.0, .*variants stock,stock@4.0" "$TMP/out" \
        && pass "a sweep across lines, 3.5 against 4.0" || fail "no sweep across lines: $(grep -m2 'across' "$TMP/out")"
    grep -q "sweep: adaptive: " "$TMP/demo/lines/sweep.log" \
        && pass "the cross-line sweep was adaptive" || fail "lines: no adaptive stop line in sweep.log"
    grep -q "^== across lines: 3.5 against 4.0, no churn ==" "$TMP/out" \
        && grep -q "OpenSSL of each variant: stock 3\.5\..* (line 3\.5), stock@4\.0 4\.0\..* (line 4\.0)" "$TMP/out" \
        && pass "its table is printed, naming each variant's version and line" \
        || fail "cross-line table: $(sed -n '/== across lines/,$p' "$TMP/out" | head -8)"
    # the designs side by side: 3.5's stock, 4.0's stock (sharded rwlock),
    # its RCU stores and its lock-free cache, those built, in one table
    want=stock
    for v in stock@4.0 rcu-sync@4.0 rcu-nosync@4.0 lockfree@4.0; do
        case ",$RCUPROF_VARIANTS_BUILT," in *,"$v",*) want="$want,$v" ;; esac
    done
    hdr="| stock (baseline) |$(echo "${want#stock,}" | sed 's/,/ | /g; s/^/ /; s/$/ |/')"
    grep -q "^== sweep across lines: .*variants $want; threads" "$TMP/out" \
        && sed -n '/^== across lines/,$p' "$TMP/out" | grep -qF "$hdr" \
        && pass "cross-line sweep and table: $want" \
        || fail "cross-line variants are not $want: $(grep -m1 'sweep across lines' "$TMP/out"); $(sed -n '/^== across lines/,$p' "$TMP/out" | grep -m1 baseline)"
    ;;
*)
    grep -q "^== no sweep across lines" "$TMP/out" \
        && pass "no other line built: the demo says it skipped the cross-line sweep" \
        || fail "no line besides 3.5 built and no word of it"
    ;;
esac
"$PY" - "$TMP/out" <<'PY' && pass "the decisions come first: floor line, resolved list, A/A rows" || fail "summary: $(sed -n '/what this machine decided/,/== churn/p' "$TMP/out")"
import re, sys
text = open(sys.argv[1]).read()
head = text.split("== rcuprof demo: what this machine decided", 1)[1]
lines = head.split("\n")[1:]
assert re.match(r"(WARNING: the A/A floor|A/A floor) .*", lines[0]), lines[0]
assert re.match(r"Resolved changes \(95% intervals; Holm over each table\): \d+$", lines[1]), lines[1]
i = next(k for k, l in enumerate(lines) if l.startswith("A/A, rcu-nosync against rcu-sync"))
assert re.match(r" +1 thread +[+-]\d+\.\d% \[[+-]\d+\.\d, [+-]\d+\.\d\], MDE .*: (not resolved, as it should be|RESOLVED: .*)$", lines[i + 1]), lines[i + 1]
assert text.index("what this machine decided") < text.index("== churn: none ==")
PY
# make demo's build stage (RCUPROF_DEMO_BUILD=only): rcuprof and the
# drivers of the variants the comparison uses, those configured, and no
# other target (a stub cmake records the call).
mkdir -p "$TMP/stub"
printf '#!/bin/sh\necho "$*" >> "%s"\n' "$TMP/stub.log" > "$TMP/stub/cmake"
chmod +x "$TMP/stub/cmake"
PATH="$TMP/stub:$PATH" RCUPROF_DEMO_BUILD=only RCUPROF_BUILD_LANES=0 bash "$DEMO" "$BUILD" > "$TMP/b.out" 2>&1 || fail "demo build stage: $(cat "$TMP/b.out")"
want=$("$PY" - "$BUILD/variants.json" <<'PY'
import json, sys
conf = [v["name"] for v in json.load(open(sys.argv[1]))["variants"] if v.get("built")]
demo = ["stock", "rcu-sync", "rcu-nosync", "stock@4.0", "rcu-sync@4.0", "rcu-nosync@4.0", "lockfree@4.0"]
print(" ".join(["rcuprof"] + ["rcuprof-stress-" + v.replace("@", "_at_") for v in demo if v in conf]))
PY
)
[ "$(cat "$TMP/stub.log" 2>/dev/null)" = "--build $BUILD --target $want" ] \
    && pass "make demo builds only: $want" \
    || fail "make demo's build: '$(cat "$TMP/stub.log" 2>/dev/null)', wanted '--build $BUILD --target $want'"
# Bad input: no two of the wanted variants built.
RCUPROF_DEMO_VARIANTS=stock,no-such-variant bash "$DEMO" "$BUILD" > "$TMP/bad.out" 2> "$TMP/bad.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(grep -c . "$TMP/bad.err")" -eq 1 ] && grep -q "^rcuprof: demo: needs two of" "$TMP/bad.err" \
    && pass "a variant list with one built variant: one line, exit 1" \
    || fail "bad variant list: exit $rc: $(cat "$TMP/bad.err")"
finish
