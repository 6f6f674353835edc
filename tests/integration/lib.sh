# Helpers for integration tests (sourced).  Environment from ctest:
# RCUPROF_SRC, RCUPROF_BUILD, RCUPROF_BINDIR, RCUPROF_VARIANTS_BUILT.
set -u
RCUPROF=${RCUPROF_BINDIR:?}/rcuprof
TMP=$(mktemp -d /tmp/rcuprof-it.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { checks=$((checks + 1)); echo "ok: $*"; }

# expect_error CODE SUBSTRING CMD...: exits CODE, stderr is exactly one line
# starting "rcuprof: " and containing SUBSTRING, stdout empty.
expect_error() {
    local code=$1 want=$2 rc out err lines
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    out=$(cat "$TMP/out"); err=$(cat "$TMP/err")
    lines=$(grep -c . "$TMP/err" || true)
    if [ "$rc" -ne "$code" ]; then
        fail "$*: exit $rc, wanted $code (stderr: $err)"
    elif [ "$lines" -ne 1 ]; then
        fail "$*: $lines lines on stderr, wanted one: $err"
    elif [[ "$err" != rcuprof:* ]] || [[ "$err" != *"$want"* ]]; then
        fail "$*: stderr '$err' lacks 'rcuprof:' or '$want'"
    elif [ -n "$out" ]; then
        fail "$*: printed on stdout: $out"
    else
        pass "$* -> $code: $err"
    fi
}

finish() {
    echo "$checks passed, $failures failed"
    [ "$failures" -eq 0 ]
    exit $?
}

first_variant() { echo "${RCUPROF_VARIANTS_BUILT%%,*}"; }
