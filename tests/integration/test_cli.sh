# rcuprof CLI end to end against a real driver: output forms and bad input.
. "$(dirname "$0")/lib.sh"
V=$(first_variant)

"$RCUPROF" --help | grep -q "rcuprof variants" && pass "--help lists commands" || fail "--help"
"$RCUPROF" --version | grep -qE '^rcuprof [0-9]+\.[0-9]+\.[0-9]+$' && pass "--version" || fail "--version"
"$RCUPROF" variants | grep -q "^$V .*built" && pass "variants shows $V built" || fail "variants"

# -t: one number, microseconds per op.
t=$("$RCUPROF" run --variant "$V" --threads 1 --duration-ms 100 --warmup-ms 20 -t)
[[ "$t" =~ ^[0-9]+\.[0-9]+$ ]] && pass "-t prints one number ($t us)" || fail "-t printed '$t'"

# Summary names the oversubscription the machine imposes.
ncpu=$(nproc)
"$RCUPROF" run --variant "$V" --threads $((ncpu + 1)) --duration-ms 100 --warmup-ms 20 \
    | grep -q "oversubscribed" && pass "oversubscription reported" || fail "oversubscription not reported"

# --output: atomic, valid JSON, same as --json.
"$RCUPROF" run --variant "$V" -n 2 -d 100 -w 20 --output "$TMP/r.json" >/dev/null \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['run']['threads']==2 and len(d['threads'])==2" "$TMP/r.json" \
  && pass "--output writes the result" || fail "--output"
ls "$TMP" | grep -q '\.tmp\.' && fail "temp file left behind" || pass "no temp file left"

# Fixed op count: every thread does exactly N ops.
"$RCUPROF" run --variant "$V" -n 3 --ops 500 -w 10 --json \
  | python3 -c "import json,sys; d=json.load(sys.stdin); assert all(t['ops']==500 for t in d['threads']) and d['run']['ops']==1500, d['threads']" \
  && pass "--ops: every thread counted exactly" || fail "--ops"

# Every fetch type of the default list resolves through the driver.
"$RCUPROF" run --variant "$V" -n 1 -d 50 -w 10 --fetch MD:SHA256,CIPHER:AES-128-GCM,MAC:HMAC,KDF:HKDF,RAND:CTR-DRBG,KEYMGMT:RSA,SIGNATURE:RSA,KEYEXCH:X25519,KEM:ML-KEM-768,ASYM_CIPHER:RSA --json \
  | python3 -c "import json,sys; d=json.load(sys.stdin); it=d['run']['workload']['items']; assert len(it)==10 and all(i['provider']=='default' for i in it), it" \
  && pass "10 fetch types resolve from the default provider" || fail "fetch types"

# Placement: pinned threads run where the plan says.
"$RCUPROF" run --variant "$V" -n 2 -d 100 -w 10 --pin cpus:0,0 --json \
  | python3 -c "import json,sys; d=json.load(sys.stdin); p=d['run']['placement']; assert p['cpus']==[0,0] and p['oversubscribed'], p; assert all(t['cpu_start']==0 and t['cpu_end']==0 for t in d['threads']), d['threads']" \
  && pass "--pin cpus:0,0 keeps both threads on CPU 0" || fail "--pin cpus:0,0"
"$RCUPROF" run --variant "$V" -n 1 -d 50 -w 10 --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['run']['placement']['kind']=='none'" \
  && pass "unpinned by default" || fail "default placement"

# Bad input: one line, exit 2, nothing on stdout.
expect_error 2 "unknown command" "$RCUPROF" frobnicate
expect_error 2 "--variant is required" "$RCUPROF" run --threads 1
expect_error 2 "unknown variant 'nope'" "$RCUPROF" run --variant nope
for bad in 0 -1 abc 1025 1.5 ""; do
    expect_error 2 "--threads" "$RCUPROF" run --variant "$V" --threads "$bad"
done
expect_error 2 "unknown option" "$RCUPROF" run --variant "$V" --bogus
expect_error 2 "cannot fetch MD NOPE" "$RCUPROF" run --variant "$V" --fetch MD:NOPE -d 10
expect_error 2 "unknown fetch type 'FOO'" "$RCUPROF" run --variant "$V" --fetch FOO:BAR -d 10
expect_error 2 "not TYPE:ALG" "$RCUPROF" run --variant "$V" --fetch SHA256 -d 10
expect_error 2 "--libctx" "$RCUPROF" run --variant "$V" --libctx shared -d 10
expect_error 2 "--pin cpus:4096" "$RCUPROF" run --variant "$V" --pin cpus:4096 -d 10
expect_error 2 "--pin diagonal" "$RCUPROF" run --variant "$V" --pin diagonal -d 10
expect_error 2 "--timeout" "$RCUPROF" run --variant "$V" --timeout 0
expect_error 3 "cannot write" "$RCUPROF" run --variant "$V" -d 10 -w 1 --output "$TMP/missing/r.json"
[ -e "$TMP/missing" ] && fail "half-written output" || pass "no output after a failed write"
expect_error 2 "only option is --json" "$RCUPROF" variants --table
# Two outputs to stdout are one too many: refused, not one of them dropped.
expect_error 2 "-t and --json both print the result: give one" "$RCUPROF" run --variant "$V" -t --json -d 10
# A query OpenSSL cannot parse (it would fetch as if none were given).
expect_error 2 "--propq '?fips=yes,,': an empty clause at character 11" "$RCUPROF" run --variant "$V" --propq '?fips=yes,,' -d 10
expect_error 2 "--propq 'fips=yes fips=no': cannot parse" "$RCUPROF" run --variant "$V" --propq 'fips=yes fips=no' -d 10
"$RCUPROF" run --variant "$V" -n 1 -d 50 -w 10 --propq ' ?provider = default , -fips' --json \
  | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['run']['workload']['propq']==' ?provider = default , -fips', d['run']['workload']" \
  && pass "a query of every clause form OpenSSL parses is accepted and recorded" || fail "--propq of every clause form"

# The driver protocol's failure modes, with stand-in drivers.
fake="$TMP/fakebin"
mkdir -p "$fake"
cp "$RCUPROF" "$fake/rcuprof"
export RCUPROF_VARIANTS_FILE="$RCUPROF_BUILD/variants.json"
printf '#!/bin/sh\nsleep 30\n' > "$fake/rcuprof-stress-$V"; chmod +x "$fake/rcuprof-stress-$V"
RCUPROF_BINDIR=$fake expect_error 1 "timed out after 1 s" "$fake/rcuprof" run --variant "$V" --timeout 1
printf '#!/bin/sh\necho "{\\"error\\":\\"run\\",\\"message\\":\\"boom\\"}" >&2\nkill -SEGV $$\n' > "$fake/rcuprof-stress-$V"
RCUPROF_BINDIR=$fake expect_error 1 "crashed (signal 11): boom" "$fake/rcuprof" run --variant "$V"
printf '#!/bin/sh\necho "{not json"\n' > "$fake/rcuprof-stress-$V"
RCUPROF_BINDIR=$fake expect_error 1 "no valid JSON" "$fake/rcuprof" run --variant "$V"
finish
