# The USDT probe at the RCU retry, counted by a uprobe opened through
# perf_event_open's uprobe PMU (offset from .note.stapsdt; no tracefs),
# equals the probe layer's own retry count for the same run.  Needs root
# and the uprobe PMU: SKIPPED (77) with the reason otherwise.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
V=rcu-sync
case ",$RCUPROF_VARIANTS_BUILT," in
*,rcu-sync,*) ;;
*) echo "SKIPPED: the rcu-sync variant is not built ($RCUPROF_VARIANTS_BUILT)"; exit 77 ;;
esac
[ "$(id -u)" = 0 ] || { echo "SKIPPED: not root: a uprobe through perf_event_open needs root"; exit 77; }
[ -r /sys/bus/event_source/devices/uprobe/type ] \
    || { echo "SKIPPED: no uprobe PMU (/sys/bus/event_source/devices/uprobe/type)"; exit 77; }
# A private copy: a uprobe belongs to a file (inode), and usdt_count counts
# on every CPU, so only this run's process may execute this copy.
cp "$RCUPROF_BINDIR/rcuprof-stress-$V" "$TMP/rcuprof-stress-$V"
DRV=$TMP/rcuprof-stress-$V
COUNT=$RCUPROF_BINDIR/usdt_count

# The probes are in the driver's .note.stapsdt (readelf agrees with ours).
if command -v readelf >/dev/null; then
    readelf -n "$DRV" > "$TMP/notes"
    grep -q "Name: rcu_retry" "$TMP/notes" && pass "readelf -n lists rcuprof:rcu_retry" || fail "no rcu_retry in .note.stapsdt"
    grep -q "Name: rcu_writer_wait" "$TMP/notes" && pass "readelf -n lists rcuprof:rcu_writer_wait" || fail "no rcu_writer_wait in .note.stapsdt"
fi

# Count retries both ways on the same run; repeat until the run retried at
# least once (a synchronizing writer makes readers retry), at most 10 s.
deadline=$((SECONDS + 10)); runs=0; done=0
while [ $SECONDS -lt $deadline ]; do
    runs=$((runs + 1))
    "$COUNT" "$DRV" rcuprof rcu_retry -- "$DRV" --rtt off --workload rcu -n 2 -d 300 -w 20 \
        --writers 1 --churn sync --probes on > "$TMP/r.json" 2> "$TMP/err"
    rc=$?
    if [ $rc = 77 ]; then
        echo "SKIPPED: $(grep -m1 SKIPPED "$TMP/err")"; exit 77
    elif [ $rc != 0 ]; then
        fail "usdt_count/driver exit $rc: $(tail -3 "$TMP/err")"; finish
    fi
    hits=$(sed -n 's/^usdt_count: sites [0-9]* hits \([0-9]*\)$/\1/p' "$TMP/err")
    mine=$("$PY" -c "import json; p=json.load(open('$TMP/r.json'))['probes']['process']; print(sum(v['retries'] for v in p['rcu'].values()))")
    echo "run $runs: uprobe hits $hits, rcuprof retries $mine"
    if [ -z "$hits" ] || [ "$hits" != "$mine" ]; then
        fail "uprobe count $hits != rcuprof's retry count $mine"
        finish
    fi
    [ "$hits" -gt 0 ] && { done=1; break; }
done
[ $done = 1 ] && pass "uprobe hits == rcuprof retries == $hits (> 0, run $runs)" \
    || fail "no retry in 10 s ($runs runs, every one with equal counts)"
finish
