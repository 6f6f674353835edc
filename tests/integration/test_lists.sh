# Every list option of the driver and the CLI refuses an empty item
# ("a,,b", "a,", ",a") with one line, exit 2 and nothing on stdout, like
# every other malformed list; well-formed lists still run.  One row per
# case, tagged with its line.
. "$(dirname "$0")/lib.sh"
V=$(first_variant)
RUN=(run --variant "$V" -n 1 -d 20 -w 5 --rtt off)

# bad LINE SUBSTRING ARGS...: refused, exit 2, one line naming the problem.
bad() {
    local line=$1 want=$2
    shift 2
    echo "# line $line"
    expect_error 2 "$want" "$RCUPROF" "$@"
}
# good LINE ARGS...: accepted and run.
good() {
    local line=$1
    shift
    if "$RCUPROF" "$@" > "$TMP/good.out" 2> "$TMP/good.err"; then
        pass "line $line: $* runs"
    else
        fail "line $line: $* refused: $(cat "$TMP/good.err")"
    fi
}

bad  $LINENO "--events 'cycles,,task-clock': item 2 is empty" "${RUN[@]}" --events cycles,,task-clock
bad  $LINENO "item 2 is empty"  "${RUN[@]}" --events task-clock,
bad  $LINENO "item 1 is empty"  "${RUN[@]}" --events ,task-clock
bad  $LINENO "item 2 is empty"  "${RUN[@]}" --events "task-clock, ,page-faults"
bad  $LINENO "--fetch 'MD:SHA256,,MD:SHA512': item 2 is empty" "${RUN[@]}" --fetch MD:SHA256,,MD:SHA512
bad  $LINENO "item 2 is empty"  "${RUN[@]}" --fetch MD:SHA256,
bad  $LINENO "item 1 is empty"  "${RUN[@]}" --workload mac --fetch ,MAC:HMAC
bad  $LINENO "--churn 'query,,flush': item 2 is empty" "${RUN[@]}" --writers 1 --churn query,,flush
bad  $LINENO "--churn 'query,': item 2 is empty" "${RUN[@]}" --churn query,
bad  $LINENO "--compat 'clock,,nobarrier': item 2 is empty" "${RUN[@]}" --compat clock,,nobarrier
bad  $LINENO "--compat ',clock': item 1 is empty" "${RUN[@]}" --compat ,clock
bad  $LINENO "expected a CPU number" "${RUN[@]}" --pin cpus:0,,1
bad  $LINENO "ends with a comma" "${RUN[@]}" --pin cpus:0,
bad  $LINENO "expected a CPU number" "${RUN[@]}" --pin cpus:,0
bad  $LINENO "--variants '$V,,$V': item 2 is empty" sweep --variants "$V,,$V" --threads 1 --reps 1 --out "$TMP/s"
bad  $LINENO "--variants '$V,': item 2 is empty" sweep --variants "$V," --threads 1 --reps 1 --out "$TMP/s"
bad  $LINENO "bad thread list" sweep --variants "$V" --threads 1,,2 --reps 1 --out "$TMP/s"
bad  $LINENO "bad thread list" sweep --variants "$V" --threads ,1 --reps 1 --out "$TMP/s"
bad  $LINENO "bad thread list" explain --variant "$V" --threads 1,,2 --reps 1
bad  $LINENO "--events 'task-clock,,cycles': item 2 is empty" sweep --variants "$V" --threads 1 --reps 1 --out "$TMP/s" --duration-ms 20 --warmup-ms 5 --events task-clock,,cycles
[ ! -e "$TMP/s" ] && pass "no sweep output left behind" || fail "a refused sweep wrote $TMP/s"

good $LINENO "${RUN[@]}" --events task-clock,page-faults
good $LINENO "${RUN[@]}" --events " task-clock , page-faults "
good $LINENO "${RUN[@]}" --fetch MD:SHA256,MD:SHA512
good $LINENO "${RUN[@]}" --compat clock,unpadded
grep -q "^harness        --compat clock,unpadded:" "$TMP/good.out" \
    && pass "line $LINENO: the summary names the list as given, a value --compat takes" \
    || fail "line $LINENO: harness line: $(grep harness "$TMP/good.out")"
good $LINENO "${RUN[@]}" --pin cpus:0
good $LINENO "${RUN[@]}" --writers 1 --churn query,flush
finish
