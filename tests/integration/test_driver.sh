# The stress driver's harness discipline and workloads, on a real variant.
. "$(dirname "$0")/lib.sh"
V=$(first_variant)
D="$RCUPROF_BINDIR/rcuprof-stress-$V"
PY=/usr/bin/python3
j() { "$D" "$@" > "$TMP/r.json" 2>"$TMP/e" || { fail "driver $*: $(cat "$TMP/e")"; return 1; }; }
check() {  # check "desc" 'python expr over d'
    "$PY" -c "import json,sys; d=json.load(open('$TMP/r.json')); r=d['run']; t=d['threads']; assert ($2), ($3)" 2>"$TMP/pyerr" \
        && pass "$1" || fail "$1: $(tail -1 "$TMP/pyerr")"
}

# Barrier: every thread arrived before any thread began its first op.
j --threads=8 --duration-ms=100 --warmup-ms=20 && \
check "barrier holds at 8 threads" "min(x['first_op_ns'] for x in t) >= max(x['barrier_arrive_ns'] for x in t)" "[(x['barrier_arrive_ns'], x['first_op_ns']) for x in t]"
check "every thread counted" "len(t)==8 and all(x['ops']>0 for x in t) and sum(x['ops'] for x in t)==r['ops']" "t"
check "slots on their own cache lines" "r['harness']['counts_padded'] and r['harness']['count_stride_bytes'] % 64 == 0" "r['harness']"
check "oversubscription marked" "d['env']['oversubscribed'] == (8 > d['env']['cpus_allowed'])" "d['env']"
check "per-thread scheduler figures" "all(x['vcsw'] is not None and x['ivcsw'] is not None for x in t) and r['sched']['ivcsw_per_kop'] is not None" "r['sched']"

# The perftools artefacts are what they say.
j --threads=2 --duration-ms=100 --compat=perftools && \
check "compat perftools: no barrier, unpadded counts, clock per op" "r['harness']['mode']=='perftools' and r['harness']['count_stride_bytes']==8 and r['harness']['clock_per_op'] and all(x['barrier_arrive_ns'] is None for x in t)" "r['harness']"

# A failing fetch fails the run and names its algorithm.
RCUPROF_INJECT_FETCH_FAILURE=50 "$D" --threads=2 --duration-ms=200 --fetch=MD:SHA384 >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc -eq 4 ] && grep -q '"message":"fetch of MD SHA384 failed during the run"' "$TMP/err" && [ ! -s "$TMP/out" ] \
    && pass "failing fetch: exit 4 naming MD SHA384, no result" || fail "failing fetch: rc $rc $(cat "$TMP/err")"

# Churn reaches writers: every kind completes writes inside the window.
j --threads=2 --duration-ms=300 --writers=1 --churn=query,provider,flush && \
check "churn: query, provider and flush writes in the window, no failures" "r['churn']['failures']==0 and all(r['churn']['writes_by_kind'][k]>0 for k in ('query','provider','flush'))" "r['churn']"
j --threads=1 --duration-ms=500 --write-rate=200 && \
check "write rate is paced near its target (200/s)" "50 <= r['churn']['writes_per_s'] <= 260" "r['churn']"
j --threads=2 --duration-ms=200 --workload=rcu --writers=1 && \
check "rcu baseline with a synchronizing writer" "r['churn']['kinds']==['sync'] and r['churn']['writes']>0" "r['churn']"

# --fetch all: every fetch type, post-quantum included, each from default.
j --threads=2 --duration-ms=100 --fetch=all && \
check "--fetch all: 18 items of 11 types, PQ included, all from default" "len(r['workload']['items'])==18 and len({i['type'] for i in r['workload']['items']})==11 and {'ML-KEM-768','ML-DSA-65','SLH-DSA-SHA2-128s'} <= {i['alg'] for i in r['workload']['items']} and all(i['provider']=='default' for i in r['workload']['items'])" "r['workload']['items']"

# --reclaim-batch reaches rcu-nosync's store and is recorded; refused elsewhere.
case ",$RCUPROF_VARIANTS_BUILT," in
*,rcu-nosync,*)
    "$RCUPROF_BINDIR/rcuprof-stress-rcu-nosync" --threads=1 --duration-ms=50 --reclaim-batch=7 > "$TMP/r.json" \
        && check "--reclaim-batch 7 recorded in run.store (bytes and age at their defaults)" "r['store']=={'kind':'rcu','reclaim_policy':'nosync','reclaim_batch':7,'reclaim_bytes':1048576,'reclaim_age_ms':100}" "r['store']"
    "$RCUPROF_BINDIR/rcuprof-stress-rcu-nosync" --threads=1 --duration-ms=50 --reclaim-bytes=4096 --reclaim-age-ms=0 > "$TMP/r.json" \
        && check "--reclaim-bytes 4096 --reclaim-age-ms 0 recorded in run.store" "r['store']['reclaim_bytes']==4096 and r['store']['reclaim_age_ms']==0" "r['store']" ;;
esac
case ",$RCUPROF_VARIANTS_BUILT," in
*,rcu-sync,*)
    "$RCUPROF_BINDIR/rcuprof-stress-rcu-sync" --threads=1 --duration-ms=50 > "$TMP/r.json" \
        && check "rcu-sync: no reclaim bounds in run.store" "r['store']=={'kind':'rcu','reclaim_policy':'sync','reclaim_batch':None,'reclaim_bytes':None,'reclaim_age_ms':None}" "r['store']"
    "$RCUPROF_BINDIR/rcuprof-stress-rcu-sync" --threads=1 --duration-ms=10 --reclaim-bytes=7 >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && grep -q "has no reclaim bounds" "$TMP/err" && [ ! -s "$TMP/out" ] \
        && pass "--reclaim-bytes refused on rcu-sync (exit 2)" || fail "--reclaim-bytes on rcu-sync: rc $rc $(cat "$TMP/err")" ;;
esac
case ",$RCUPROF_VARIANTS_BUILT," in
*,stock,*)
    "$RCUPROF_BINDIR/rcuprof-stress-stock" --threads=1 --duration-ms=10 --reclaim-batch=7 >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && grep -q "has no reclaim batch" "$TMP/err" && [ ! -s "$TMP/out" ] \
        && pass "--reclaim-batch refused on stock (exit 2)" || fail "--reclaim-batch on stock: rc $rc $(cat "$TMP/err")" ;;
esac

# Every workload runs.
for w in empty atomic padded rwlock rcu urcu mac cipher; do
    j --threads=2 --duration-ms=50 --warmup-ms=10 --workload=$w && \
    check "workload $w" "r['workload']['kind']=='$w' and r['ops']>0" "r['workload']"
done
j --threads=2 --duration-ms=50 --workload=mac --mode=isolated --updates=3 && \
check "mac isolated, 3 updates" "r['workload']['mode']=='isolated' and r['workload']['updates']==3" "r['workload']"
j --threads=2 --duration-ms=50 --workload=pingpong --pin=scatter && \
check "pingpong round trips" "r['ops']>0 and r['workload']['kind']=='pingpong'" "r"
j --threads=2 --duration-ms=50 --rtt=on && \
check "line round trip measured before and after" "(r['line_rtt'] is None and d['env']['cpus_allowed']<2) or (r['line_rtt']['before_ns']>0 and r['line_rtt']['after_ns']>0)" "r['line_rtt']"
# ... and sampled inside the window: every sample starts inside it, no
# more of them than its length allows, each a number above 0 or null, and
# the sampler's own cost reported.
j --threads=2 --duration-ms=300 --rtt=on && \
check "line round trip sampled inside the window, its cost reported" "(r['line_rtt'] is None and d['env']['cpus_allowed']<2) or (lambda w: w['every_ms']==37 and len(w['at_ms'])==len(w['ns']) and len(w['ns'])<=1+300//37 and all(0<=a<=r['wall_ns']/1e6 for a in w['at_ms']) and all(x is None or x>0 for x in w['ns']) and w['cost_cpu_ns']>=0 and w['cost_share'] is not None)(r['line_rtt']['window'])" "r['line_rtt']"

# 1024 threads, heavily oversubscribed here: every one counted, exactly.
j --threads=1024 --ops=100 --warmup-ms=0 --workload=empty --rtt=off && \
check "1024 threads, 100 ops each, all counted" "len(t)==1024 and all(x['ops']==100 for x in t) and r['ops']==102400" "[x['ops'] for x in t if x['ops']!=100][:5]"

# Counters: software events count; hardware ones count or say why not; two
# independent CPU-time figures (task-clock, CLOCK_THREAD_CPUTIME_ID) agree.
j --threads=2 --duration-ms=300 --events=default && \
check "counters: task-clock agrees with the harness's CPU time within 10%" "abs(d['counters']['sums']['task-clock']['value'] - r['cpu_ns']) <= 0.1 * r['cpu_ns']" "(d['counters']['sums']['task-clock'], r['cpu_ns'])"
check "counters: every hardware event counted or reported unavailable with a reason" "all(e['name'] in d['counters']['sums'] or any(u['name']==e['name'] and u['reason'] for u in d['counters']['unavailable']) for e in d['counters']['events'])" "d['counters']['unavailable']"
if "$PY" -c "import json; d=json.load(open('$TMP/r.json')); exit(0 if d['counters']['pmu']['hardware'] else 1)"; then
    echo "this machine has a PMU: --require-hw must pass"
    j --threads=1 --duration-ms=50 --events=cycles --require-hw && pass "--require-hw with a PMU"
else
    "$D" --threads=1 --duration-ms=50 --events=cycles --require-hw >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 3 ] && grep -q "hardware counters required" "$TMP/err" && [ ! -s "$TMP/out" ] \
        && pass "no PMU: --require-hw fails with the reason (exit 3)" || fail "--require-hw without PMU: rc $rc $(cat "$TMP/err")"
fi

# Bad input.
for args in "--threads=0" "--threads=1025" "--workload=nope" "--mode=both" "--updates=0" \
            "--writers=65" "--churn=sync" "--compat=perf" "--rtt=maybe" "--workload=pingpong --threads=3" \
            "--workload=empty --writers=1" "--compat=perftools --ops=5" "--events=nope"; do
    "$D" $args --duration-ms=10 >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q '"error":"usage"' "$TMP/err" \
        && pass "bad input $args -> 2: $(cut -c1-110 "$TMP/err")" || fail "bad input $args: rc $rc $(cat "$TMP/err")"
done
finish
