# Sampling attribution end to end: a sampled run with a synchronizing writer
# on an RCU variant attributes samples to the inlined get_hold_current_qp
# and the writer's time to ossl_synchronize_rcu.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
case ",$RCUPROF_VARIANTS_BUILT," in
*,rcu-sync,*) V=rcu-sync ;;
*) echo "SKIPPED: the rcu-sync variant is not built (RCUPROF_VARIANTS=$RCUPROF_VARIANTS_BUILT)"; exit 77 ;;
esac
if ! "$RCUPROF" run --variant "$V" -n 2 -d 600 -w 50 --writers 1 --sample on --output "$TMP/s.json" >"$TMP/summary" 2>"$TMP/err"; then
    if grep -q "perf_event_open" "$TMP/err"; then
        echo "SKIPPED: sampling refused here: $(cat "$TMP/err")"; exit 77
    fi
    fail "sampled run: $(cat "$TMP/err")"; finish
fi
grep -q "^attribution .*get_hold_current_qp [0-9.]*%" "$TMP/summary" && pass "run summary shows each bucket's share" || fail "summary lacks attribution"
# run prints the short form; the whole report is attribute's, named.
! grep -qE "^(top functions|top lines|get_hold_current_qp:)" "$TMP/summary" && grep -qF "rcuprof attribute $TMP/s.json" "$TMP/summary" \
    && pass "run prints a short attribution and names 'rcuprof attribute FILE'" || fail "run prints the whole attribution: $(cat "$TMP/summary")"
"$RCUPROF" attribute "$TMP/s.json" --json > "$TMP/a.json" || fail "attribute failed"
check() {
    "$PY" -c "import json; a=json.load(open('$TMP/a.json')); b={x['bucket']: x for x in a['buckets']}; assert ($2), ($3)" 2>"$TMP/pyerr" \
        && pass "$1" || fail "$1: $(tail -1 "$TMP/pyerr")"
}
check "samples resolved" "a['on_cpu_samples'] > 100 and a['unresolved_samples'] < a['on_cpu_samples'] / 10" "a['on_cpu_samples'], a['unresolved_samples']"
check "inlined get_hold_current_qp gets samples by inline scope" "b['get_hold_current_qp']['samples'] > 0" "b.get('get_hold_current_qp')"
check "the writer's time lands in ossl_synchronize_rcu" "b['synchronize_rcu']['samples'] > 0 and any(t['role']=='writer' for t in a['threads'])" "b.get('synchronize_rcu')"
check "get_hold_current_qp: bucket = samples by line + in callees, and the lines sum to samples" "b['get_hold_current_qp']['samples'] == a['get_hold_current_qp']['samples'] + a['get_hold_current_qp']['in_callees'] and sum(l['samples'] for l in a['get_hold_current_qp']['lines']) == a['get_hold_current_qp']['samples']" "b['get_hold_current_qp']['samples'], a['get_hold_current_qp']['samples'], a['get_hold_current_qp'].get('in_callees')"
"$RCUPROF" attribute "$TMP/s.json" > "$TMP/a.txt" && grep -qE "^get_hold_current_qp: [0-9]+ samples in its body, by line below" "$TMP/a.txt" \
    && pass "attribute's text says which samples the per-line figures count" || fail "attribute text: $(grep get_hold "$TMP/a.txt" | head -2)"
check "each distinct address resolved once" "a['distinct_addresses'] <= a['on_cpu_samples'] + a['kernel_samples']" "a['distinct_addresses']"
"$PY" -c "import json; d=json.load(open('$TMP/s.json')); s=d['samples']; assert s is not None" && pass "samples member present" || fail "samples member"

# Bad input.
"$RCUPROF" run --variant "$V" -n 1 -d 50 --output "$TMP/nos.json" >/dev/null
expect_error 2 "no samples: run it with --sample on" "$RCUPROF" attribute "$TMP/nos.json"
echo "{broken" > "$TMP/bad.json"
expect_error 2 "is not a result file" "$RCUPROF" attribute "$TMP/bad.json"
expect_error 2 "give a result file" "$RCUPROF" attribute
expect_error 2 "--sample 'maybe'" "$RCUPROF" run --variant "$V" --sample maybe
finish
