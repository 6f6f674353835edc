# Real driver output of every built variant validates against the schema;
# and the validator really validates (a broken document is rejected).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
SCHEMA="$RCUPROF_SRC/docs/schema/run-result.schema.json"
validate() {
    "$PY" - "$SCHEMA" "$1" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
errs = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
for e in errs:
    print("  schema:", "/".join(map(str, e.path)), e.message)
sys.exit(1 if errs else 0)
PY
}
IFS=',' read -r -a variants <<< "$RCUPROF_VARIANTS_BUILT"
for v in "${variants[@]}"; do
    for n in 1 3; do
        "$RCUPROF_BINDIR/rcuprof-stress-$v" --threads=$n --duration-ms=50 --warmup-ms=10 > "$TMP/$v-$n.json" \
            || { fail "driver $v failed"; continue; }
        validate "$TMP/$v-$n.json" && pass "$v at $n threads validates" || fail "$v at $n threads"
    done
    "$RCUPROF_BINDIR/rcuprof-stress-$v" --version | "$PY" -c "import json,sys; d=json.load(sys.stdin); assert d['variant']=='$v' and len(d['recipe'])==64" \
        && pass "$v --version prints its build record" || fail "$v --version"
done
# Uncollected members are null: a document with zeros in their place, or
# without a required member, must fail.
f="$TMP/${variants[0]}-1.json"
"$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); d['probes']=0; json.dump(d,open(sys.argv[2],'w'))" "$f" "$TMP/bad1.json"
validate "$TMP/bad1.json" >/dev/null && fail "zeros accepted for probes" || pass "zeros for an uncollected member are rejected"
"$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); del d['build']['recipe']; json.dump(d,open(sys.argv[2],'w'))" "$f" "$TMP/bad2.json"
validate "$TMP/bad2.json" >/dev/null && fail "missing build.recipe accepted" || pass "missing build.recipe rejected"
finish
