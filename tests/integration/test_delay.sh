# Delay sites (docs/interfaces.md, section 3.4): the options' checks, the
# build record's site lists, the baselines' driver sites counted like ops,
# and the library's sites where the variant has them.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
has() { case ",$RCUPROF_VARIANTS_BUILT," in *,$1,*) return 0 ;; esac; return 1; }
V=stock
has $V || V=$(first_variant)
D="$RCUPROF_BINDIR/rcuprof-stress-$V"
drv() { "$D" --rtt off --warmup-ms 20 "$@" > "$TMP/r.json" 2>"$TMP/e" \
            || { fail "driver $*: $(cat "$TMP/e")"; return 1; }; }
# check "desc" 'python expr over d (r = d.run, y = r.delay)' 'shown on failure'
check() {
    "$PY" -c "import json; d=json.load(open('$TMP/r.json')); r=d['run']; y=r['delay']; assert ($2), ($3)" 2>"$TMP/pyerr" \
        && pass "$1" || fail "$1: $(tail -1 "$TMP/pyerr")"
}

# 1. Bad input: exit 2, one line saying what to do, no output file.
bad() {  # bad WANT ARGS...: through rcuprof run, with --output
    local want=$1
    shift
    rm -f "$TMP/out.json"
    expect_error 2 "$want" "$RCUPROF" run --variant "$V" --duration-ms 50 \
        --output "$TMP/out.json" "$@"
    [ ! -e "$TMP/out.json" ] && pass "no output file after: $*" \
        || fail "$*: left $TMP/out.json"
}
bad "--delay-ns needs --delay-site" --delay-ns 10
bad "no such site" --delay-site nosuch
bad "cas_window, outside: use one of them" --workload atomic --delay-site write_hold
bad "write_hold, read_hold, outside: use one of them" --workload rwlock --delay-site cas_window
bad "--workload padded has no delay sites" --workload padded --delay-site outside
bad "from 0 to 100000" --workload atomic --delay-site outside --delay-ns 100001
bad "--delay-site is empty" --delay-site=
# A library site this variant lacks: every one when it has no delay layer.
lib_sites=$("$D" --version | "$PY" -c "import json,sys; print(','.join(json.load(sys.stdin)['delay_sites']))")
if [ -z "$lib_sites" ]; then
    bad "has no library delay sites" --delay-site name_lookup
else
    missing=$("$PY" -c "import sys; h=set(sys.argv[1].split(',')); print(next((s for s in ['rcu_read_lock','rcu_read_unlock','store_read_lock','method_refcount','name_lookup','synchronize'] if s not in h), ''))" "$lib_sites")
    [ -n "$missing" ] && bad "lacks this site: use one it has" --delay-site "$missing"
fi
# The driver itself: one JSON error line of the protocol, exit 2.
"$D" --delay-ns 5 >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] \
    && grep -q '^{"error":"usage","message":"--delay-ns needs --delay-site' "$TMP/err" \
    && pass "driver: --delay-ns alone is a usage error line, exit 2" \
    || fail "driver --delay-ns alone: rc $rc $(cat "$TMP/err")"

# 2. --version: the build record carries the sites, for the CLI's checks.
IFS=',' read -r -a variants <<< "$RCUPROF_VARIANTS_BUILT"
for v in "${variants[@]}"; do
    "$RCUPROF_BINDIR/rcuprof-stress-$v" --version | "$PY" -c "
import json, sys
d = json.load(sys.stdin)
assert d['driver_delay_sites'] == {'atomic': ['cas_window', 'outside'], 'rwlock': ['write_hold', 'read_hold', 'outside']}, d['driver_delay_sites']
assert isinstance(d['delay_sites'], list) and 'delay_fixed' in d, d" 2>"$TMP/pyerr" \
        && pass "$v --version lists driver_delay_sites, delay_sites, delay_fixed" \
        || fail "$v --version: $(tail -1 "$TMP/pyerr")"
done

# 3. Driver sites: counted inside the window exactly like ops.
drv --workload atomic --duration-ms 100 && \
check "without --delay-site run.delay is null" "y is None" "y"
drv --workload atomic --delay-site outside --delay-ns 50 -n 1 --duration-ms 200 && {
check "atomic/outside at 1 thread: calls == ops, calls_per_op exactly 1" \
    "y['calls'] == r['ops'] > 0 and y['calls_per_op'] == 1" "y, r['ops']"
check "atomic/outside: the delay added is about the 50 ns asked (the wait's interval less the same wait's at 0 ns)" \
    "y['timed'] > 0 and 0.7 * 50 <= y['delay_ns_per_call'] and y['ticks'] > 0" "y"
check "atomic/outside: a driver site, no own code timed, no fixed cost" \
    "y['site'] == 'outside' and y['where'] == 'driver' and y['ns'] == 50 and y['own_ns_per_call'] is None and y['fixed_ns'] == 0" "y"
}
drv --workload atomic --delay-site outside --delay-ns 10 -n 1 --ops 10000 && \
check "--ops 10000: exactly 10000 calls" "y['calls'] == 10000 == r['ops']" "y, r['ops']"
drv --workload atomic --delay-site cas_window --delay-ns 20 -n 1 --ops 5000 && \
check "atomic/cas_window at 1 thread: no failed swap, one call and one pass per op" "y['calls'] == 5000 == y['passes']" "y"
drv --workload atomic --delay-site cas_window --delay-ns 20 -n 2 --duration-ms 200 && \
check "atomic/cas_window at 2 threads: one call per op, every attempt a pass (passes >= calls)" \
    "y['calls'] == r['ops'] > 0 and y['calls_per_op'] == 1 and y['passes'] >= y['calls'] and y['passes_per_call'] >= 1" "y, r['ops']"
drv --workload rwlock --delay-site write_hold --delay-ns 100 -n 2 --duration-ms 200 && \
check "rwlock/write_hold at 2 threads: one call per op, delay added about 100 ns" \
    "y['calls'] == r['ops'] > 0 and y['delay_ns_per_call'] >= 0.8 * 100 and all(t['ops'] > 0 for t in d['threads'])" "y, r['ops']"
drv --workload rwlock --delay-site read_hold --delay-ns 0 -n 2 --duration-ms 100 && \
check "rwlock/read_hold --delay-ns 0: counted, the wait's code run and timed, no loop (about 0 ns)" \
    "y['calls'] == r['ops'] > 0 and y['ticks'] == 0 and y['timed'] > 0 and 0 <= y['delay_ns_per_call'] < 100" "y"
drv --workload rwlock --delay-site outside --delay-ns 30 -n 1 --duration-ms 100 --probe-every 1 && \
# every call timed but the few whose wait was descheduled (left out)
check "--probe-every 1: every call timed, but descheduled waits" \
    "y['calls'] >= y['timed'] >= y['calls'] / 2 > 0 and y['delay_ns_per_call'] >= 0.5 * 30" "y"

# 4. The summary names the site.
"$RCUPROF" run --variant "$V" --workload atomic --delay-site outside --delay-ns 20 \
    --duration-ms 100 > "$TMP/sum" 2>"$TMP/err" \
    && grep -qE '^delay +outside \(driver site\) 20 ns: 1\.000 calls/op, [0-9.]+ ns/call spent' "$TMP/sum" \
    && pass "rcuprof run prints the delay line" \
    || fail "rcuprof run summary: $(cat "$TMP/sum" "$TMP/err")"

# 5. Library sites, where the variant has them.
if [ -z "$lib_sites" ]; then
    echo "SKIPPED: library sites: variant $V has no delay layer (build.delay_sites is [], no include/internal/rcuprof_delay.h in its tree)"
elif [[ ",$lib_sites," == *,name_lookup,* ]]; then
    drv --delay-site name_lookup --delay-ns 0 -n 1 --duration-ms 200 && \
    check "$V name_lookup --delay-ns 0: a library site, called on the fetch path" \
        "y['where'] == 'library' and y['calls'] > 0 and y['calls_per_op'] > 0 and 0 <= y['delay_ns_per_call'] < 50" "y"
    drv --delay-site name_lookup --delay-ns 200 -n 1 --duration-ms 200 --probe-every 4 && \
    check "$V name_lookup --delay-ns 200: timed, delay spent >= 200 ns" \
        "y['timed'] > 0 and y['delay_ns_per_call'] >= 0.8 * 200 and (y['own_ns_per_call'] is None or y['own_ns_per_call'] >= 0)" "y"
else
    echo "SKIPPED: library name_lookup: variant $V lists only $lib_sites"
fi
for rv in rcu-sync rcu-nosync; do
    has $rv || continue
    rs=$("$RCUPROF_BINDIR/rcuprof-stress-$rv" --version | "$PY" -c "import json,sys; print(','.join(json.load(sys.stdin)['delay_sites']))")
    if [[ ",$rs," != *,rcu_read_lock,* ]]; then
        echo "SKIPPED: $rv rcu_read_lock: not among its delay sites ('$rs')"
        continue
    fi
    "$RCUPROF_BINDIR/rcuprof-stress-$rv" --rtt off --warmup-ms 20 --delay-site rcu_read_lock \
        --delay-ns 0 -n 1 --duration-ms 200 > "$TMP/r.json" 2>"$TMP/e" || { fail "$rv rcu_read_lock: $(cat "$TMP/e")"; continue; }
    check "$rv rcu_read_lock: at least one call per fetch" "y['where'] == 'library' and y['calls_per_op'] >= 1" "y"
done
finish
