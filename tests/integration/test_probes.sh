# The probe layer's counters against what the test itself made the driver do
# (patches/<line>/probes, probes/probe_readout.c, docs/interfaces.md "probes").
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
N=3000
has() { case ",$RCUPROF_VARIANTS_BUILT," in *,$1,*) return 0 ;; esac; return 1; }
drv() { local v=$1; shift; "$RCUPROF_BINDIR/rcuprof-stress-$v" --rtt off "$@"; }
# check NAME FILE PYTHON-EXPR [what to print on failure]: d is the result,
# p its probes member, s = p['sum'], pr = p['process'].
check() {
    "$PY" - "$2" "$3" "${4:-None}" <<'PY' 2>"$TMP/pyerr" && pass "$1" || fail "$1: $(tail -1 "$TMP/pyerr")"
import json, sys
d = json.load(open(sys.argv[1])); p = d['probes']
s = p['sum'] if p else None; pr = p['process'] if p else None
def rcu(c, name):
    return c['rcu'].get(name, {})
def total(c, k):
    return sum(v[k] for v in c['rcu'].values())
assert eval(sys.argv[2]), eval(sys.argv[3])
PY
}

RCUV=""
for v in rcu-sync rcu-nosync; do has $v && RCUV="$RCUV $v"; done
if [ -z "$RCUV" ] && ! tr ',' '\n' <<< "$RCUPROF_VARIANTS_BUILT" | grep -qE '^stock(@[0-9.]+)?$'; then
    echo "SKIPPED: neither stock nor an RCU variant is built ($RCUPROF_VARIANTS_BUILT)"; exit 77
fi

# 1. N fetches on an RCU variant: >= N read acquisitions on the store's
#    lock, 0 store rwlock reads.
for v in $RCUV; do
    drv $v --ops $N -n 1 > "$TMP/$v-fetch.json" 2>"$TMP/err" || { fail "$v fetch run: $(cat "$TMP/err")"; continue; }
    check "$v: $N fetches -> >= $N acquisitions of method_store" "$TMP/$v-fetch.json" \
        "rcu(s, 'method_store')['acquisitions'] >= $N" "s"
    check "$v: 0 store rwlock reads" "$TMP/$v-fetch.json" "s['store']['rwlock_reads'] == 0" "s['store']"
    check "$v: every fetch asked the cache, no slow path after warm-up" "$TMP/$v-fetch.json" \
        "s['store']['cache_gets'] >= $N and s['store']['cache_misses'] == 0" "s['store']"
    check "$v: store lock layout reported once" "$TMP/$v-fetch.json" \
        "any(l['name'] == 'method_store' and l['reader_idx']['line_offset'] == int(l['reader_idx']['addr'], 16) % 64 and int(l['write_lock']['addr'], 16) - int(l['reader_idx']['addr'], 16) == 16 for l in p['locks'])" "p['locks']"
    check "$v: timed 1 in 64 of the acquisitions, with a histogram" "$TMP/$v-fetch.json" \
        "rcu(s, 'method_store')['timed'] >= $N // 64 and sum(rcu(s, 'method_store')['acquire_hist']['log2_buckets'].values()) == rcu(s, 'method_store')['timed']" "rcu(s, 'method_store')"
    check "$v: every store kind counted apart; store is stores.evp; the measured EVP store's locks" "$TMP/$v-fetch.json" \
        "set(s['stores']) == {'other','evp','decoder','encoder','store_loader','tmp'} and s['store'] == s['stores']['evp'] and s['stores']['decoder']['cache_gets'] == 0 and p['summary']['store']['kind'] == 'evp' and p['summary']['store']['libctx'] == 'own' and p['summary']['store']['lock'] is not None" "s['stores'], p['summary']['store']"
    check "$v: the summary is the measured store's (its lock, its events), and locks[] describes that lock" "$TMP/$v-fetch.json" \
        "p['summary']['scope'] == 'measured_store' and p['summary']['acquisitions'] == s['measured']['rcu']['acquisitions'] >= $N and any(l['measured'] and l['lock']['addr'] == p['summary']['store']['lock']['addr'] for l in p['locks'])" "p['summary'], s['measured'], p['locks']"
    check "$v: timer quantum reported, at most the pair's cost" "$TMP/$v-fetch.json" \
        "1 <= p['timer_quantum_ticks'] <= max(p['timer_cost_ticks'], 1)" "p['timer_quantum_ticks'], p['timer_cost_ticks']"
    check "$v: per-thread counts sum to the total" "$TMP/$v-fetch.json" \
        "sum(t['rcu']['method_store']['acquisitions'] for t in p['threads']) == rcu(s, 'method_store')['acquisitions']" "p['threads']"
done

# 2. stock: the reverse, on every line's stock (stock, stock@3.6, ...).
STOCKS=$(tr ',' '\n' <<< "$RCUPROF_VARIANTS_BUILT" | grep -E '^stock(@[0-9.]+)?$' | tr '\n' ' ')
for sv in $STOCKS; do
    drv $sv --ops $N -n 1 > "$TMP/$sv-fetch.json" 2>"$TMP/err" || fail "$sv fetch run: $(cat "$TMP/err")"
    check "$sv: $N fetches -> >= $N store rwlock reads" "$TMP/$sv-fetch.json" "s['store']['rwlock_reads'] >= $N" "s['store']"
    check "$sv: 0 RCU read acquisitions (no lock is named method_store)" "$TMP/$sv-fetch.json" \
        "total(s, 'acquisitions') == 0 and 'method_store' not in s['rcu']" "s['rcu']"
    drv $sv --ops 500 -n 1 --probes off > "$TMP/$sv-off.json" 2>"$TMP/err" || fail "$sv --probes off: $(cat "$TMP/err")"
    check "$sv --probes off: enabled false, no counts" "$TMP/$sv-off.json" \
        "p['enabled'] is False and p['threads'] is None and p['sum'] is None" "p"
    # Churn writes reach the store: cache_set and biglock, in the writer.
    drv $sv -n 1 -d 300 -w 20 --writers 1 --churn query > "$TMP/$sv-churn.json" 2>"$TMP/err" || fail "$sv churn: $(cat "$TMP/err")"
    check "$sv: query churn shows as cache_set, biglock and rwlock writes (process)" "$TMP/$sv-churn.json" \
        "pr['store']['cache_sets'] >= d['run']['churn']['writes'] > 0 and pr['store']['biglock'] > 0 and pr['store']['write_locks'] > 0" "pr['store'], d['run']['churn']"
done

for v in $RCUV; do
    # 3. Churn reaching the store: cache_set / biglock / write txns, and
    #    flush_all + remove_all_provided for provider/flush churn.
    drv $v -n 1 -d 300 -w 20 --writers 1 --churn query,provider,flush > "$TMP/$v-churn.json" 2>"$TMP/err" || { fail "$v churn: $(cat "$TMP/err")"; continue; }
    check "$v: churn shows as cache_set, biglock, flush_all, remove_all_provided" "$TMP/$v-churn.json" \
        "pr['store']['cache_sets'] >= d['run']['churn']['writes_by_kind']['query'] > 0 and pr['store']['biglock'] > 0 and pr['store']['flush_alls'] >= d['run']['churn']['writes_by_kind']['flush'] > 0 and pr['store']['remove_all_provided'] >= d['run']['churn']['writes_by_kind']['provider'] > 0" "pr['store'], d['run']['churn']"
    check "$v: the writers' RCU writes are write transactions (not rwlock reads)" "$TMP/$v-churn.json" \
        "pr['store']['write_locks'] > 0 and pr['store']['rwlock_reads'] == 0" "pr['store']"
done

# 4. The raw RCU API (--workload rcu, an unnamed lock: slot "other").
V1=$(echo $RCUV stock | awk '{print $1}')
for thr in 1 2; do
    drv $V1 --workload rcu --ops $((N * 10)) -n $thr > "$TMP/rcu-$thr.json" 2>"$TMP/err" || { fail "$V1 rcu: $(cat "$TMP/err")"; continue; }
    check "$V1 rcu, $thr thread(s), no synchronize: acquisitions == read locks taken" "$TMP/rcu-$thr.json" \
        "rcu(s, 'other')['acquisitions'] == d['run']['ops'] == $((N * 10 * thr))" "rcu(s, 'other')['acquisitions'], d['run']['ops']"
    check "$V1 rcu, $thr thread(s), no synchronize: exactly 0 retries and 0 flips" "$TMP/rcu-$thr.json" \
        "total(s, 'retries') == 0 and total(s, 'flips') == 0 and total(s, 'syncs') == 0" "s['rcu']"
done
# With a writer synchronizing in a loop: flips == synchronize calls, at
# least the writes the churn counted in the window; retries appear (loop
# until one is seen, at most 10 s).
deadline=$((SECONDS + 10)); seen=0; runs=0
while [ $SECONDS -lt $deadline ]; do
    runs=$((runs + 1))
    drv $V1 --workload rcu -n 2 -d 300 -w 20 --writers 1 --churn sync > "$TMP/rcu-sync.json" 2>"$TMP/err" || { fail "$V1 rcu + sync: $(cat "$TMP/err")"; break; }
    if "$PY" -c "import json,sys; p=json.load(open('$TMP/rcu-sync.json'))['probes']; sys.exit(0 if sum(v['retries'] for v in p['sum']['rcu'].values()) > 0 else 1)"; then
        seen=1; break
    fi
done
[ $seen = 1 ] && pass "$V1 rcu + synchronizing writer: retries seen (run $runs)" || fail "$V1 rcu + synchronizing writer: no retry in 10 s ($runs runs)"
check "$V1 rcu + sync: flips == synchronize calls (process), >= the window's sync writes" "$TMP/rcu-sync.json" \
    "rcu(pr, 'other')['flips'] == rcu(pr, 'other')['syncs'] >= d['run']['churn']['writes_by_kind']['sync'] > 0" "rcu(pr, 'other'), d['run']['churn']"
check "$V1 rcu + sync: max retries per acquisition >= 1, writer waits counted" "$TMP/rcu-sync.json" \
    "rcu(s, 'other')['max_retries'] >= 1 and rcu(pr, 'other')['spins'] >= rcu(pr, 'other')['syncs'] and rcu(pr, 'other')['wait_hist']['p50'] is not None" "rcu(pr, 'other')"
check "$V1 rcu + sync: summary has writer wait per synchronize" "$TMP/rcu-sync.json" \
    "p['summary']['writer_wait_ns_per_sync'] > 0 and p['summary']['retries_per_acquisition'] > 0" "p['summary']"

# 4b. Writer waits, whole (issue 14): a sampled rcu-sync run with two
#     query writers (each write a synchronize) shows the spinning and the
#     blocked waits separately, in the JSON and in rcuprof run's summary.
if has rcu-sync; then
    "$RCUPROF" run --variant rcu-sync -n 1 --duration-ms 400 --warmup-ms 20 --rtt off \
        --writers 2 --churn query --sample on --output "$TMP/rs-w2.json" > "$TMP/rs-w2.txt" 2>"$TMP/err" \
        || fail "rcu-sync 2 writers sampled: $(cat "$TMP/err")"
    check "rcu-sync, 2 writers, sampled: spinning and blocked waits, separately" "$TMP/rs-w2.json" \
        "p['summary']['syncs'] > 0 and p['summary']['writer_spin_ns_per_sync'] > 0 and p['summary']['blocked_syncs'] > 0 and p['summary']['writer_blocked_ns_per_sync'] > 0 and abs(p['summary']['writer_wait_ns_per_sync'] - p['summary']['writer_spin_ns_per_sync'] - p['summary']['writer_blocked_ns_per_sync']) < 1e-6 * p['summary']['writer_wait_ns_per_sync'] + 1e-9 and d['samples'] is not None" \
        "p['summary']"
    # blocked_syncs counts each synchronize that blocked once, wherever
    # (entry, alloc, prior); prior waits are 0 on a lock with 2 qps.
    check "rcu-sync, 2 writers: blocked waits split entry/alloc/prior, blocked_syncs once per synchronize, no prior wait with 2 qps" "$TMP/rs-w2.json" \
        "(lambda m: max(m['entry_waits'], m['alloc_waits'], m['prior_waits']) <= m['blocked_syncs'] <= m['entry_waits'] + m['alloc_waits'] + m['prior_waits'] and m['blocked_syncs'] <= m['syncs'] and m['prior_waits'] == 0 and p['summary']['blocked_syncs'] == pr['measured']['rcu']['blocked_syncs'])(rcu(pr, 'method_store'))" \
        "rcu(pr, 'method_store'), pr['measured']['rcu']"
    grep -Eq "spinning [0-9]+ ns, blocked [0-9]+ ns" "$TMP/rs-w2.txt" \
        && pass "rcuprof run summary prints spinning and blocked writer waits" \
        || fail "summary lacks spinning/blocked: $(cat "$TMP/rs-w2.txt")"
fi

# 4c. The layout layer (option +padded): the reader-side words of the
#     store's RCU lock never share a cache line with the write lock, and
#     sit at least a line away from it, whatever the allocation's alignment.
for v in $(echo "$RCUPROF_VARIANTS_BUILT" | tr ',' ' '); do
    case "$v" in *+padded*) ;; *) continue ;; esac
    drv "$v" --ops 2000 -n 1 > "$TMP/$v-layout.json" 2>"$TMP/err" || { fail "$v fetch run: $(cat "$TMP/err")"; continue; }
    check "$v: reader_idx on its own line, a line or more from write_lock" "$TMP/$v-layout.json" \
        "any(l['name'] == 'method_store' and l['reader_idx_shares_line_with_write_lock'] is False and int(l['write_lock']['addr'], 16) - int(l['reader_idx']['addr'], 16) >= 64 for l in p['locks'])" "p['locks']"
    check "$v: the users array (qp_group) on whole lines of its own" "$TMP/$v-layout.json" \
        "any(l['measured'] and l['qp_group']['line_offset'] == 0 and 0 < l['qp_group_bytes'] <= 64 and int(l['qp_group']['addr'], 16) // 64 not in (int(l['write_lock']['addr'], 16) // 64, int(l['reader_idx']['addr'], 16) // 64, int(l['lock']['addr'], 16) // 64) for l in p['locks'])" "p['locks']"
    check "$v: build record ends with the option's patch" "$TMP/$v-layout.json" \
        "d['build']['patches'][-1]['name'] == '0001-rcu-lock-padded.patch'" "d['build']['patches']"
done

# 5. stock-pristine carries no layer: probes null.
if has stock-pristine; then
    drv stock-pristine --ops 200 -n 1 > "$TMP/pristine.json" 2>"$TMP/err" || fail "stock-pristine: $(cat "$TMP/err")"
    check "stock-pristine: probes null" "$TMP/pristine.json" "d['probes'] is None" "d['probes']"
fi

# 6. The CLI summary shows the figures; bad --probes values are refused.
if [ -n "$RCUV" ]; then
    "$RCUPROF" run --variant $V1 -n 1 --ops 1000 > "$TMP/summary" 2>"$TMP/err" || fail "rcuprof run: $(cat "$TMP/err")"
    grep -q "retries/acq" "$TMP/summary" && grep -q "slow-path fetches" "$TMP/summary" \
        && grep -Eq "timer quantum [0-9]+ ticks \(pair cost [0-9]+ subtracted\)" "$TMP/summary" \
        && pass "run summary shows retries/acq, slow-path fetches and the timer quantum beside the ticks" || fail "summary: $(cat "$TMP/summary")"
fi
expect_error 2 "--probes 'maybe'" "$RCUPROF" run --variant "$(first_variant)" --probes maybe
finish
