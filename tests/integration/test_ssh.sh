# Remote hosts over OpenSSH (issue 27, src/cli/host.c) against a real sshd
# this test starts on 127.0.0.1 (ssh_lib.sh): host add/list/check/remove,
# a measurement through the ssh executor with the same JSON as a local one,
# and the faults: unreachable, another architecture, the connection killed
# mid-measurement (RCUPROF_EXEC_LOST, the remote driver killed too), the
# remote timeout, a driver deleted on the host (copied again).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ssh_lib.sh"
PROBE=$RCUPROF_BUILD/bin/exec_probe
ME=$(id -un)
ssh_start

# --- the registry --------------------------------------------------------
DEAD=$(free_port)  # nothing listens there
"$RCUPROF" host add lo "ssh://$ME@127.0.0.1:$PORT" --remote-dir "$REMOTE" > "$TMP/out" \
    && grep -q "added host lo" "$TMP/out" && pass "host add lo" || fail "host add lo: $(cat "$TMP/out")"
"$RCUPROF" host add arm "ssh://$ME@127.0.0.1:$PORT_ARM" --remote-dir "$REMOTE" > /dev/null || fail "host add arm"
"$RCUPROF" host add dead "ssh://127.0.0.1:$DEAD" > /dev/null || fail "host add dead"
expect_error 2 "already a host" "$RCUPROF" host add lo "ssh://127.0.0.1:$PORT"
expect_error 2 "stores no secret" "$RCUPROF" host add pw "ssh://me:hunter2@box"
expect_error 2 "ssh://[user@]host[:port]" "$RCUPROF" host add bad "http://box"
expect_error 2 "1 to 65535" "$RCUPROF" host add bad "ssh://box:70000"
expect_error 2 "not 'local'" "$RCUPROF" host add local "ssh://box"
expect_error 2 "give add, list, check or remove" "$RCUPROF" host frobnicate
grep -q hunter2 "$RCUPROF_HOSTS" && fail "a refused password reached the registry" || pass "no secret in the registry"
"$RCUPROF" host list > "$TMP/list"
[ "$(grep -cE '^(lo|arm|dead) ' "$TMP/list")" -eq 3 ] && pass "host list: three hosts" || fail "host list: $(cat "$TMP/list")"
"$RCUPROF" host list --json | python3 -c "
import json, sys
h = json.load(sys.stdin)
assert h['lo']['url'] == 'ssh://$ME@127.0.0.1:$PORT' and h['lo']['remote_dir'] == '$REMOTE', h
" && pass "host list --json: url and remote_dir" || fail "host list --json"

# --- host check ----------------------------------------------------------
"$RCUPROF" host check lo > "$TMP/check" 2>&1 && grep -q "^arch        x86_64" "$TMP/check" \
    && grep -q "^topology    [0-9]* socket" "$TMP/check" && grep -q "^pmu " "$TMP/check" \
    && pass "host check lo: $(grep ^topology "$TMP/check")" || fail "host check lo: $(cat "$TMP/check")"
"$RCUPROF" host check lo --json > "$TMP/check.json" && python3 - "$TMP/check.json" <<'EOF' && pass "host check --json: the remote's /sys topology and kernel" || fail "host check --json: $(cat "$TMP/check.json")"
import glob, json, os, platform, sys
r = json.load(open(sys.argv[1]))
cpus = glob.glob('/sys/devices/system/cpu/cpu[0-9]*/topology')
assert r['topology']['threads'] == len(cpus), r
assert r['kernel'] == platform.release() and r['cpus'] == os.cpu_count(), r
assert isinstance(r['pmu']['cpu_pmu'], bool) and 'home' not in r, r
assert set(r) >= {'name', 'url', 'arch', 'kernel', 'cpus', 'topology', 'pmu', 'perf_event_paranoid'}, r
EOF
expect_error 1 "refused: its architecture is aarch64, the drivers are x86_64" "$RCUPROF" host check arm
expect_error 3 "unreachable" "$RCUPROF" host check dead
expect_error 2 "unknown host" "$RCUPROF" host check nosuch

# --- unreachable and refused: one line before anything runs --------------
DRV=$(ssh_driver)
PROBE_DRV=${DRV:-/bin/true}
expect_error 3 "host dead (ssh://127.0.0.1:$DEAD): unreachable" "$PROBE" dead 60 "$PROBE_DRV"
expect_error 3 "refused: its architecture is aarch64" "$PROBE" arm 60 "$PROBE_DRV"
[ -z "$(ls "$RCUPROF_CACHE")" ] && [ -z "$(ls "$REMOTE")" ] \
    && pass "nothing packed or copied for an unreachable or refused host" \
    || fail "packed or copied before refusing: $(ls -R "$RCUPROF_CACHE" "$REMOTE")"

"$RCUPROF" host remove dead > /dev/null && ! "$RCUPROF" host list | grep -q '^dead ' \
    && pass "host remove dead" || fail "host remove dead"
expect_error 2 "not a host" "$RCUPROF" host remove dead

if [ -z "$DRV" ]; then
    skip "the host commands and faults pass ($checks checks), but no driver is built here (CLI-only build): set RCUPROF_TEST_DRIVERS to a build's bin to run measurements over the host"
fi
[ "$failures" -eq 0 ] || finish

# --- a measurement over the host: the local one's JSON -------------------
OPTS=(--threads=1 --duration-ms=200 --warmup-ms=50)
"$PROBE" local 60 "$DRV" "${OPTS[@]}" > "$TMP/local.json" || fail "exec_probe local"
"$PROBE" lo 60 "$DRV" "${OPTS[@]}" > "$TMP/lo.json" 2> "$TMP/lo.err" || fail "exec_probe lo: $(cat "$TMP/lo.err")"
python3 - "$TMP/local.json" "$TMP/lo.json" <<'EOF' && pass "a measurement over lo has the local one's JSON shape, and lo's host record" || fail "ssh measurement: $(head -c 600 "$TMP/lo.json")"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def keys(o, p=''):
    s = set()
    if isinstance(o, dict):
        for k, v in o.items():
            s |= {p + '/' + k} | keys(v, p + '/' + k)
    return s
assert a['rc'] == b['rc'] == 'RAN' and a['status'] == b['status'] == 0, (a['rc'], b['rc'], b['err'])
assert a['host'] is None and b['host']['name'] == 'lo' and b['host']['arch'] == 'x86_64', b['host']
d = keys(a['result']) ^ keys(b['result'])
assert not d, sorted(d)
assert b['result']['run']['ops'] > 0
EOF
PACK=$(ls -d "$REMOTE"/packs/*/ 2>/dev/null | head -n 1)
[ -n "$PACK" ] && [ -x "$PACK/driver" ] && [ -f "$PACK/MANIFEST" ] \
    && pass "the driver went as a pack to $(basename "$PACK") (content-addressed)" || fail "no pack on the host: $(ls -R "$REMOTE")"
ino=$(stat -c %i "$PACK/driver")
"$PROBE" lo 60 "$DRV" "${OPTS[@]}" > "$TMP/lo2.json" || fail "second run"
[ "$(stat -c %i "$PACK/driver")" = "$ino" ] && pass "second measurement: the pack was not copied again" \
    || fail "the pack was copied again though present"
# A driver deleted on the host: copied again (prepare checks every file)
rm -f "$PACK/driver"
"$PROBE" lo 60 "$DRV" "${OPTS[@]}" > "$TMP/lo3.json" && grep -q '"rc": *"RAN"' "$TMP/lo3.json" \
    && [ -x "$PACK/driver" ] && pass "a driver deleted on the host is copied again (prepare)" || fail "deleted driver: $(head -c 300 "$TMP/lo3.json")"
# A driver's own failure is RAN with its exit code, never LOST
"$PROBE" lo 60 "$DRV" --threads=0 > "$TMP/bad.json"
python3 -c "
import json, sys; r = json.load(open('$TMP/bad.json'))
assert r['rc'] == 'RAN' and r['exited'] and r['status'] == 2, r
" && pass "a driver refusing its options over ssh: RAN, exit 2 (not LOST)" || fail "driver usage error over ssh: $(cat "$TMP/bad.json")"
# The remote timeout: the driver's process group killed on the host
"$PROBE" lo 2 "$DRV" --threads=1 --duration-ms=30000 > "$TMP/to.json"
python3 -c "
import json; r = json.load(open('$TMP/to.json'))
assert r['rc'] == 'RAN' and r['timed_out'] and r['seconds'] < 25, r
" && pass "remote timeout: timed out, killed on the host" || fail "remote timeout: $(head -c 400 "$TMP/to.json")"
sleep 1
pgrep -f "^$REMOTE/packs/" > /dev/null && fail "a timed-out driver still runs on the host" || pass "no driver left after the timeout"

# --- the connection killed mid-measurement: LOST, remote driver killed ---
"$PROBE" lo 60 "$DRV" --threads=1 --duration-ms=30000 > "$TMP/lost.json" 2>&1 &
probe_pid=$!
for i in $(seq 150); do
    pgrep -f "^$REMOTE/packs/" > /dev/null && break
    sleep 0.2
done
pgrep -f "^$REMOTE/packs/" > /dev/null || fail "the remote driver never started"
t0=$(date +%s)
kill -KILL $(ssh_sessions) 2>/dev/null
wait "$probe_pid"
t1=$(date +%s)
python3 -c "
import json; r = json.load(open('$TMP/lost.json'))
assert r['rc'] == 'LOST' and r['result'] is None, r
" && pass "connection killed mid-measurement: RCUPROF_EXEC_LOST after $((t1 - t0)) s ($(python3 -c "import json; print(json.load(open('$TMP/lost.json'))['err'].strip()[:120])"))" \
    || fail "connection killed: $(head -c 400 "$TMP/lost.json")"
for i in $(seq 100); do  # 20 s: this 2-CPU machine is shared and loaded
    pgrep -f "^$REMOTE/packs/" > /dev/null || break
    sleep 0.2
done
t2=$(date +%s)
if pgrep -f "^$REMOTE/packs/" > /dev/null; then
    fail "the driver still runs on the host $((t2 - t1)) s after the connection dropped: $(ps -eo pid,ppid,pgid,etimes,args | grep -E "[r]cuprof|[s]shd|[t]imeout" | cut -c1-160)"
else
    pass "the dropped connection killed the remote driver (no orphan) within $((t2 - t1)) s"
fi
# The host is usable again at once
"$PROBE" lo 60 "$DRV" "${OPTS[@]}" | grep -q '"rc": *"RAN"' && pass "a new connection after the drop runs" || fail "no run after the drop"

# --- figures (printed, not asserted): a 2-point sweep's measurements over
# lo against locally, and what one channel costs (an ssh no-op through a
# master connection: the host's login shell starting, its rc files run)
"$PROBE" --points 1,2 local 60 "$DRV" --duration-ms=1000 --warmup-ms=200 > "$TMP/b.local" || fail "bench local"
"$PROBE" --points 1,2 lo 60 "$DRV" --duration-ms=1000 --warmup-ms=200 > "$TMP/b.lo" || fail "bench lo"
ssh $RCUPROF_SSH_OPTS -o BatchMode=yes -o ControlMaster=yes -o ControlPath="$TMP/ctl" \
    -o ControlPersist=30 -N -f -p "$PORT" "$ME@127.0.0.1"
n0=$(date +%s.%N)
ssh $RCUPROF_SSH_OPTS -o BatchMode=yes -o ControlPath="$TMP/ctl" -p "$PORT" "$ME@127.0.0.1" true
n1=$(date +%s.%N)
ssh $RCUPROF_SSH_OPTS -o ControlPath="$TMP/ctl" -O exit -p "$PORT" "$ME@127.0.0.1" 2>/dev/null
cat "$TMP/b.local" "$TMP/b.lo"
python3 - "$TMP/b.local" "$TMP/b.lo" "$n0" "$n1" <<'EOF2'
import re, sys
def nums(p):
    return [float(x) for x in re.findall(r"([0-9.]+) s", open(p).read())]
lo_, ssh_ = nums(sys.argv[1]), nums(sys.argv[2])
noop = float(sys.argv[4]) - float(sys.argv[3])
print("figure: 2 points over loopback ssh: measurements %.2f s against %.2f s locally (ratio %.2f); "
      "overhead %.2f s = %.0f%% of the %.2f s of timed windows; one ssh no-op through the master %.2f s; "
      "once per sweep: open %.2f s, prepare (pack, copy) %.2f s"
      % (ssh_[2], lo_[2], ssh_[2] / lo_[2], ssh_[2] - lo_[2],
         100 * (ssh_[2] - lo_[2]) / lo_[3], lo_[3], noop, ssh_[0], ssh_[1]))
EOF2
finish
