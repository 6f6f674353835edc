# `sweep --host` over the private sshd of ssh_lib.sh (issue 27, item 6): a
# sweep over the host has the shape of a local one and records the host; a
# connection killed mid-sweep loses at most the point in flight and
# `--resume` completes it; an unreachable or foreign host is refused in one
# line before anything is written.  Prints the time of the same 2-point
# sweep over the loopback host against locally (a ratio from one run).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ssh_lib.sh"
ME=$(id -un)
"$RCUPROF" sweep --help 2>&1 | grep -qE -- '^  --host ' \
    || skip "rcuprof sweep --help has no --host yet (the experiment engine adds it; test_ssh covers the hosts through the executor seam)"
DRV=$(ssh_driver)
[ -n "$DRV" ] || skip "no driver is built here (CLI-only build): set RCUPROF_TEST_DRIVERS to a build's bin"
export RCUPROF_BINDIR=$(dirname "$DRV")
[ -f "$RCUPROF_BINDIR/../variants.json" ] && export RCUPROF_VARIANTS_FILE=$RCUPROF_BINDIR/../variants.json
V=${DRV##*/rcuprof-stress-}
ssh_start
"$RCUPROF" host add lo "ssh://$ME@127.0.0.1:$PORT" --remote-dir "$REMOTE" > /dev/null || fail "host add lo"
"$RCUPROF" host add arm "ssh://$ME@127.0.0.1:$PORT_ARM" --remote-dir "$REMOTE" > /dev/null || fail "host add arm"
"$RCUPROF" host add dead "ssh://127.0.0.1:$(free_port)" > /dev/null || fail "host add dead"
SW=(sweep --variants "$V" --threads 1,2 --reps 1 --seed 7 --duration-ms 1000 --warmup-ms 100)

# --- refused before anything runs ---------------------------------------
# refused WANT CMD...: a non-zero exit (the engine picks it), one line on
# stderr naming WANT, nothing on stdout
refused() {
    local want=$1 rc
    shift
    "$@" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$(grep -c . "$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err" \
        && [ ! -s "$TMP/out" ]; then
        pass "refused in one line, exit $rc: $(cat "$TMP/err")"
    else
        fail "$*: exit $rc, stdout $(head -c 200 "$TMP/out"), stderr $(cat "$TMP/err")"
    fi
}
refused "unreachable" "$RCUPROF" "${SW[@]}" --out "$TMP/dead" --host dead
refused "aarch64" "$RCUPROF" "${SW[@]}" --out "$TMP/arm" --host arm
[ ! -e "$TMP/dead/results.jsonl" ] && [ ! -e "$TMP/arm/results.jsonl" ] \
    && pass "no results file for a refused host" || fail "a refused host left a results file"

# --- the same 2-point sweep, locally and over lo -------------------------
t0=$(date +%s.%N)
"$RCUPROF" "${SW[@]}" --out "$TMP/local" > /dev/null 2> "$TMP/local.err" || fail "local sweep: $(cat "$TMP/local.err")"
t1=$(date +%s.%N)
"$RCUPROF" "${SW[@]}" --out "$TMP/lo" --host lo > /dev/null 2> "$TMP/lo.err" || fail "sweep --host lo: $(cat "$TMP/lo.err")"
t2=$(date +%s.%N)
python3 - "$TMP/local/results.jsonl" "$TMP/lo/results.jsonl" "$t0" "$t1" "$t2" <<'EOF' && pass "sweep over lo: the local sweep's shape, lo recorded" || fail "sweep --host lo shape"
import json, sys
def load(p):
    lines = [json.loads(l) for l in open(p) if l.strip()]
    return lines[0], lines[1:]
def keys(o, p=''):
    s = set()
    if isinstance(o, dict):
        for k, v in o.items():
            s |= {p + '/' + k} | keys(v, p + '/' + k)
    return s
(ha, pa), (hb, pb) = load(sys.argv[1]), load(sys.argv[2])
assert len(pa) == len(pb) == 2, (len(pa), len(pb))
assert '"lo"' in json.dumps(hb) + json.dumps(pb), 'no record of host lo'
extra = {k for k in keys(pb[0]) - keys(pa[0]) if not k.startswith('/host')}
assert not (keys(pa[0]) - keys(pb[0])) and not extra, sorted(keys(pa[0]) ^ keys(pb[0]))
t0, t1, t2 = map(float, sys.argv[3:6])
windows = sum(p.get('result', p).get('run', {}).get('wall_ns', 0) for p in pa) / 1e9
print("figure: 2-point sweep local %.2f s, over loopback ssh %.2f s: ratio %.3f; overhead %.2f s = %.0f%% of the %.2f s of timed windows"
      % (t1 - t0, t2 - t1, (t2 - t1) / (t1 - t0), (t2 - t1) - (t1 - t0),
         100 * ((t2 - t1) - (t1 - t0)) / windows if windows else float('nan'), windows))
EOF

# --- the connection killed mid-sweep: --resume completes ------------------
"$RCUPROF" sweep --variants "$V" --threads 1,2 --reps 2 --seed 7 --duration-ms 4000 \
    --warmup-ms 100 --out "$TMP/cut" --host lo > /dev/null 2> "$TMP/cut.err" &
sweep_pid=$!
for i in $(seq 300); do
    [ "$(grep -c . "$TMP/cut/results.jsonl" 2>/dev/null || echo 0)" -ge 2 ] \
        && pgrep -f "^$REMOTE/packs/" > /dev/null && break
    sleep 0.2
done
kill -KILL $(ssh_sessions) 2>/dev/null
wait "$sweep_pid"
rc=$?
n=$(grep -c . "$TMP/cut/results.jsonl")
[ "$rc" -ne 0 ] && [ "$n" -ge 2 ] && [ "$n" -lt 5 ] && [ "$(grep -c '^rcuprof:' "$TMP/cut.err")" -eq 1 ] \
    && grep -q '^rcuprof: .*lost.*--resume' "$TMP/cut.err" \
    && pass "connection killed mid-sweep: exit $rc, $((n - 1)) points kept, one error line: $(grep '^rcuprof:' "$TMP/cut.err")" \
    || fail "connection killed mid-sweep: exit $rc, $n lines, stderr: $(cat "$TMP/cut.err")"
python3 -c "
import json
for l in open('$TMP/cut/results.jsonl'): json.loads(l)
" && pass "every line of the cut sweep is whole" || fail "a torn line after the cut"
"$RCUPROF" sweep --resume --out "$TMP/cut" --host lo > /dev/null 2> "$TMP/resume.err" \
    && [ "$(grep -c . "$TMP/cut/results.jsonl")" -eq 5 ] \
    && pass "--resume over lo completed the sweep (4 points)" \
    || fail "--resume: $(cat "$TMP/resume.err"); $(grep -c . "$TMP/cut/results.jsonl") lines"
finish
