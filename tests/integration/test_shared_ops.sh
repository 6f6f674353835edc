# Shared-line operations per op (issue 26, item 2): probes.shared_ops, as the
# probe layer counted them, checked for consistency with the run and the
# layer's other counters, for plausibility per store design, against libc's
# own count of rwlock acquisitions (an LD_PRELOAD shim, rwlock_count), and
# as `rcuprof run` prints it.  Every built variant with the probe layer.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
SHIM=${RCUPROF_BUILD:?}/tests/integration/librwlock_count.so
drv() { local v=$1; shift; "$RCUPROF_BINDIR/rcuprof-stress-$v" --rtt off --threads 1 "$@"; }
# check NAME FILE EXPR: d the result, o its probes.shared_ops, s probes.sum
check() {
    "$PY" - "$2" "$3" <<'PY' 2>"$TMP/pyerr" && pass "$1" || fail "$1: $(tail -1 "$TMP/pyerr")"
import json, sys
d = json.load(open(sys.argv[1])); p = d['probes']; o = p['shared_ops']; s = p['sum']
per = lambda k: o[k] / o['ops']
assert eval(sys.argv[2]), {k: o[k] for k in o}
PY
}
probed=""
for v in $(tr ',' ' ' <<< "${RCUPROF_VARIANTS_BUILT:-}"); do
    [ -x "$RCUPROF_BINDIR/rcuprof-stress-$v" ] || continue
    drv "$v" --ops 3000 > "$TMP/$v.json" 2>"$TMP/err" || { fail "$v: driver failed: $(tail -1 "$TMP/err")"; continue; }
    "$PY" -c "import json,sys; sys.exit(0 if json.load(open('$TMP/$v.json'))['probes'] is not None else 1)" || continue
    probed="$probed $v"
done
[ -n "$probed" ] || { echo "SKIPPED: no variant with the probe layer is built (${RCUPROF_VARIANTS_BUILT:-})"; exit 77; }

for v in $probed; do
    f=$TMP/$v.json
    # 1. what the layer counted, consistent with the run and its other counters
    check "$v: shared_ops present, ops = run.ops" "$f" \
        "o is not None and o['ops'] == d['run']['ops'] == 3000"
    check "$v: read_locks = rwlock_reads + rcu_reads, rcu_reads = the rcu slots' acquisitions" "$f" \
        "o['read_locks'] == o['rwlock_reads'] + o['rcu_reads'] and o['rcu_reads'] == sum(r['acquisitions'] for r in s['rcu'].values())"
    check "$v: per-op figures are the counts over ops" "$f" \
        "abs(o['read_locks_per_op'] - per('read_locks')) < 1e-9 and abs(o['refcount_ops_per_op'] - (o['ref_ups'] + o['ref_downs']) / o['ops']) < 1e-9 and abs(o['shared_rmw_per_op'] - (2 * o['read_locks'] + 2 * o['write_locks'] + o['ref_ups'] + o['ref_downs']) / o['ops']) < 1e-9"
    check "$v: every store rwlock read is among the rwlock reads" "$f" \
        "o['rwlock_reads'] >= sum(k['rwlock_reads'] for k in s['stores'].values())"
    # 2. plausible for the store's design (the count decides; these bound it)
    case $v in
    lockfree*)
        check "$v: cached MD fetch+free takes 0 read locks, 0 refcount RMWs, 0 write locks" "$f" \
            "o['read_locks'] == 0 and o['ref_ups'] == 0 and o['ref_downs'] == 0 and o['write_locks'] == 0"
        check "$v: every op looked the lock-free cache up (cache_gets >= ops), nodes visited >= lookups" "$f" \
            "s['store']['cache_gets'] >= o['ops'] and sum(x['list_nodes'] for x in s['store']['shards']) >= s['store']['cache_gets'] - s['store']['cache_misses']"
        # a MAC is not store-owned: one up_ref and one down_ref per op, still no lock
        drv "$v" --ops 3000 --fetch MAC:HMAC > "$TMP/$v.mac.json" 2>/dev/null
        check "$v: cached MAC fetch+free: 0 read locks, 1 up_ref + 1 down_ref per op" "$TMP/$v.mac.json" \
            "o['read_locks'] == 0 and o['ref_ups'] == o['ops'] and o['ref_downs'] == o['ops']" ;;
    stock*|rcu-*)
        check "$v: cached fetch+free takes read locks (>= 1 per op) and 1 up_ref + 1 down_ref per op" "$f" \
            "per('read_locks') >= 1 and o['ref_ups'] == o['ops'] and o['ref_downs'] == o['ops']" ;;
    esac
    case $v in
    stock*) check "$v: the read locks are rwlock reads, no RCU section" "$f" "o['rcu_reads'] == 0 and o['rwlock_reads'] >= o['ops']" ;;
    rcu-*)  check "$v: the store's read sections are RCU (>= 1 per op)" "$f" "o['rcu_reads'] >= o['ops']" ;;
    esac
    # 3. from outside: libc's pthread_rwlock_rdlock calls (an LD_PRELOAD
    #    shim, the whole process) against the layer's process-wide
    #    rwlock_reads, in two runs of N1 and N2 ops: what the layer did not
    #    see (set-up before the probes went on, the driver's own locks) is
    #    the same in both, so the two differences must be equal, exactly
    if [ -f "$SHIM" ]; then
        for n in 2000 6000; do
            rm -f "$TMP/cnt.$n"
            RWLOCK_COUNT_OUT=$TMP/cnt.$n LD_PRELOAD=$SHIM drv "$v" --ops $n --warmup-ms 0 > "$TMP/$v.$n.json" 2>/dev/null
        done
        if out=$("$PY" - "$TMP/cnt.2000" "$TMP/cnt.6000" "$TMP/$v.2000.json" "$TMP/$v.6000.json" 2>"$TMP/pyerr" <<'PY'
import json, sys
a = int(open(sys.argv[1]).read().split()[0]); b = int(open(sys.argv[2]).read().split()[0])
pa = json.load(open(sys.argv[3]))['probes']['shared_ops']['process']['rwlock_reads']
pb = json.load(open(sys.argv[4]))['probes']['shared_ops']['process']['rwlock_reads']
print("libc %d more, probes %d more" % (b - a, pb - pa))
assert b - a == pb - pa, (b - a, pb - pa)
PY
        ); then pass "$v: pthread_rwlock_rdlock calls from outside == the layer's rwlock_reads ($out)"
        else fail "$v: outside count: $(tail -1 "$TMP/pyerr")"; fi
    else
        fail "the LD_PRELOAD shim $SHIM is not built"
    fi
done

# 4. rcuprof run prints the line (its format; the figures are checked above)
v=${probed# }; v=${v%% *}
"$RCUPROF" run --variant "$v" --threads 1 --duration-ms 200 --rtt off > "$TMP/run.txt" 2>&1 \
    && grep -qE '^per op +[0-9.]+ read locks \([0-9.]+ rwlock, [0-9.]+ RCU\), [0-9.]+ refcount RMWs \([0-9.]+ up, [0-9.]+ down\), [0-9.]+ write locks: [0-9.]+ shared-line RMWs \(counted by the probes\)$' "$TMP/run.txt" \
    && pass "rcuprof run --variant $v prints the per-op line: $(grep '^per op' "$TMP/run.txt")" \
    || fail "rcuprof run --variant $v: no per-op line: $(cat "$TMP/run.txt" | tail -5)"
finish
