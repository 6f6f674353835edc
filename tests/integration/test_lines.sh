# OpenSSL lines as data (docs/interfaces.md, section 6, "Lines"): NAME@LINE
# names a variant of a line, bare names are the default line's (3.5), each
# line's source comes from its Debian suite (or a tree of that line), and
# bad input (a line without a series or without a source, a variant list
# naming a line that is not built) is one line saying what to do.
# Configure-only checks (no OpenSSL compile), then the CLI against this
# build.
. "$(dirname "$0")/lib.sh"
SRC=$RCUPROF_SRC
PY=/usr/bin/python3
cache=${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}

# configure NAME ARGS...: cmake into TMP/NAME; log in TMP/NAME.log
configure() {
    local b="$TMP/$1"
    shift
    cmake -S "$SRC" -B "$b" -G Ninja -DRCUPROF_USER_VARIANTS="$TMP/none.json" "$@" >"$b.log" 2>&1
}
# one_line NAME SUBSTRING: the configure failed with exactly one
# "rcuprof: " line before CMake's own stop line, containing SUBSTRING.
one_line() {
    local log="$TMP/$1.log" n
    n=$(grep -c '^rcuprof: ' "$log" | tr -d ' ')
    if ! grep -q "^rcuprof: .*$2" "$log"; then
        fail "$1: no 'rcuprof: ...$2' line: $(grep -m3 -E 'rcuprof|Error' "$log")"
    elif [ "$n" -ne 1 ]; then
        fail "$1: $n 'rcuprof:' lines, wanted one: $(grep '^rcuprof: ' "$log")"
    else
        pass "$1 -> $(grep -m1 '^rcuprof: ' "$log")"
    fi
}
# built JSONFILE: "name line version" of every variant to build.
built() {
    "$PY" - "$1" <<'PY'
import json, sys
for v in json.load(open(sys.argv[1]))['variants']:
    if v['built']:
        print(v['name'], v['line'], v.get('openssl_version', '-'))
PY
}

# --- A tree of a line with no series: a fake 4.1 development tree (only
# what configure reads).  The default list is its stock-pristine alone; a
# patched variant of it fails naming the lines that have a series.
mkdir -p "$TMP/t41/crypto/property"
printf 'MAJOR=4\nMINOR=1\nPATCH=0\nPRE_RELEASE_TAG=dev\n' > "$TMP/t41/VERSION.dat"
: > "$TMP/t41/crypto/property/property.c"
if configure c41 -DOPENSSL_SOURCE_DIR="$TMP/t41"; then
    got=$(built "$TMP/c41/variants.json" | tr '\n' ';')
    [ "$got" = "stock-pristine@4.1 4.1 4.1.0;" ] \
        && pass "4.1 tree, default list: $got" || fail "4.1 tree, default list built: $got"
    grep -q '^rcuprof: OpenSSL 4.1 has no patch series (lines with one: 3.5.*patches/README.md' "$TMP/c41.log" \
        && pass "4.1 tree: says only stock-pristine builds and where to read how to add a series" \
        || fail "4.1 tree: no notice: $(grep rcuprof "$TMP/c41.log")"
    grep -q "^line	4.1$" "$TMP/c41/variants/stock-pristine@4.1/spec" \
        && pass "stock-pristine@4.1's spec is of line 4.1" || fail "spec: $(cat "$TMP/c41/variants/stock-pristine@4.1/spec")"
else
    fail "configure with a 4.1 tree failed: $(grep -m3 rcuprof "$TMP/c41.log")"
fi
configure c41s -DOPENSSL_SOURCE_DIR="$TMP/t41" -DRCUPROF_VARIANTS=stock@4.1 \
    && fail "stock@4.1 was accepted" \
    || one_line c41s "variant 'stock' has no patch series for OpenSSL 4.1 (lines with one: 3.5.*): build stock-pristine@4.1, or add a series for 4.1 (patches/README.md"
configure c34s -DRCUPROF_VARIANTS=rcu-sync@3.4 \
    && fail "rcu-sync@3.4 was accepted" \
    || one_line c34s "OpenSSL line 3.4 has no source (lines from Debian: 3.5, 3.6, 4.0): pass -DOPENSSL_SOURCE_DIR=<a 3.4 tree>"
configure cbad -DRCUPROF_VARIANTS=stock@4 \
    && fail "stock@4 was accepted" || one_line cbad "'@4' is not an OpenSSL line"

# --- Bare names are the default line's: NAME@3.5 is NAME.
if configure c35 -DRCUPROF_VARIANTS=stock@3.5,stock-pristine; then
    got=$(built "$TMP/c35/variants.json" | awk '{print $1 "/" $2}' | tr '\n' ' ')
    [ "$got" = "stock-pristine/3.5 stock/3.5 " ] \
        && pass "stock@3.5 is stock: $got" || fail "stock@3.5,stock-pristine built: $got"
else
    fail "configure stock@3.5: $(grep -m3 rcuprof "$TMP/c35.log")"
fi

# --- A user variant belongs to its base's line, and the default list
# builds it (as it builds the default line's user variants).
printf '{"variants": {"mine": {"base": "stock-pristine@4.0", "configure": ["no-asm"]}}}\n' > "$TMP/uv40.json"
if cmake -S "$SRC" -B "$TMP/cu" -G Ninja -DRCUPROF_USER_VARIANTS="$TMP/uv40.json" > "$TMP/cu.log" 2>&1; then
    got=$(built "$TMP/cu/variants.json" | grep '^mine' | awk '{print $1, $2}')
    [ "$got" = "mine@4.0 4.0" ] && grep -q "^configure	no-asm$" "$TMP/cu/variants/mine@4.0/spec" \
        && pass "user variant with base stock-pristine@4.0 is mine@4.0, built by default" \
        || fail "user variant of 4.0: '$got'"
else
    fail "configure with a 4.0 user variant: $(grep -m3 rcuprof "$TMP/cu.log")"
fi

# --- Each line from its own Debian suite, pinnable per line; the fetcher
# falls back, loudly, from a listed but unserved newest version.
if configure c40 -DRCUPROF_VARIANTS=stock-pristine@4.0; then
    got=$(built "$TMP/c40/variants.json" | tr '\n' ';')
    [[ "$got" == "stock-pristine@4.0 4.0 4.0."*";" ]] \
        && pass "stock-pristine@4.0 from Debian experimental: $got" || fail "4.0 built: $got"
    if grep -q "rcuprof: warning: openssl 4.0" "$TMP/c40.log"; then
        grep -q "rcuprof: warning: openssl 4.0.*listed but .*; using the next listed 4.0.x" "$TMP/c40.log" \
            && pass "fall-back said: $(grep -m1 'warning: openssl 4.0' "$TMP/c40.log")" \
            || fail "fall-back line: $(grep -m1 'warning: openssl 4.0' "$TMP/c40.log")"
    fi
    ver=$(awk -F'\t' '$1=="source_json"{print $2}' "$TMP/c40/variants/stock-pristine@4.0/spec" \
          | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["debian_version"])')
    if configure c40p -DRCUPROF_VARIANTS=stock-pristine@4.0 -DOPENSSL_DEBIAN_VERSION="$ver"; then
        got=$(awk -F'\t' '$1=="source_json"{print $2}' "$TMP/c40p/variants/stock-pristine@4.0/spec" \
              | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["debian_version"])')
        [ "$got" = "$ver" ] \
            && pass "pin $ver selects line 4.0's version" || fail "pin $ver: $(cat "$TMP/c40p/variants/stock-pristine@4.0/spec")"
    else
        fail "pin $ver: $(grep -m3 rcuprof "$TMP/c40p.log")"
    fi
    configure c40pp -DRCUPROF_VARIANTS=stock-pristine@4.0 -DOPENSSL_DEBIAN_VERSION="$ver,4.0.0-0~x" \
        && fail "two pins of one line accepted" || one_line c40pp "pins line 4.0 twice"
    if configure c40pm -DRCUPROF_VARIANTS=stock-pristine@4.0 -DOPENSSL_DEBIAN_VERSION="4.0.0-0~nonexistent"; then
        fail "a missing 4.0 pin was accepted"
    else    # the fetcher's line, then configure's own stop line
        grep -q "^rcuprof: openssl 4.0.0-0~nonexistent is no longer in Debian experimental (newest 4.0.x there: 4.0.*pins line 4.0" "$TMP/c40pm.log" \
            && pass "missing 4.0 pin: $(grep -m1 'no longer' "$TMP/c40pm.log")" \
            || fail "missing 4.0 pin: $(grep -m3 rcuprof "$TMP/c40pm.log")"
    fi
elif grep -q "cannot reach the Debian archive" "$TMP/c40.log"; then
    echo "SKIPPED (Debian lines): the archive is unreachable: $(grep -m1 'cannot reach' "$TMP/c40.log")"
else
    fail "configure stock-pristine@4.0: $(grep -m3 rcuprof "$TMP/c40.log")"
fi

# --- The CLI: NAME@3.5 is NAME; a line this build has no variant of, or a
# variant not built, says what to build; nothing is written.
"$RCUPROF" variants --json > "$TMP/vars.json" || fail "rcuprof variants --json"
expect_error 2 "variant 'stock-pristine@9.9' is of OpenSSL 9.9, which this build has no variant of: configure with -DRCUPROF_VARIANTS=" \
    "$RCUPROF" run --variant stock-pristine@9.9 -n 1
expect_error 2 "stock-pristine@9.9 (a line without a Debian source also needs -DOPENSSL_SOURCE_DIR=<a 9.9 tree>)" \
    "$RCUPROF" sweep --variants stock,stock-pristine@9.9 --threads 1 --reps 1 --out "$TMP/sw-bad"
[ -e "$TMP/sw-bad" ] && fail "a refused sweep wrote $TMP/sw-bad" || pass "refused sweep wrote nothing"
for v in stock-pristine@3.6 stock@3.6 stock-pristine@4.0; do
    grep -q "\"$v\"" "$TMP/vars.json" && pass "rcuprof variants lists $v (built or not)" \
        || fail "rcuprof variants does not list $v (every line's variants are listed, built or not)"
done
# A --variants list naming a variant of a line this build does not build:
# one line with the -DRCUPROF_VARIANTS to configure, nothing written.  The
# default build has every line, so the case is made: a configure of 3.5's
# stock alone (no compile) is the build, its bin directory holds only
# stock's driver.
if configure cnb -DRCUPROF_VARIANTS=stock; then
    mkdir -p "$TMP/nbbin"
    ln -s "$RCUPROF_BINDIR/rcuprof-stress-stock" "$TMP/nbbin/"
    expect_error 2 "variant 'stock@4.0' is not built (no $TMP/nbbin/rcuprof-stress-stock@4.0): build it with cmake -S . -B build -DRCUPROF_VARIANTS=stock,stock@4.0 && cmake --build build" \
        env RCUPROF_VARIANTS_FILE="$TMP/cnb/variants.json" RCUPROF_BINDIR="$TMP/nbbin" \
        "$RCUPROF" sweep --variants stock,stock@4.0 --threads 1 --reps 1 --out "$TMP/sw-bad"
    [ -e "$TMP/sw-bad" ] && fail "a refused sweep wrote $TMP/sw-bad" || pass "refused sweep wrote nothing"
else
    fail "configure -DRCUPROF_VARIANTS=stock: $(grep -m3 rcuprof "$TMP/cnb.log")"
fi
expect_error 2 "repeated" "$RCUPROF" sweep --variants stock,stock@3.5 --threads 1 --reps 1 --out "$TMP/sw-bad"
f=docs/case-study-24344/nochurn/results.jsonl
if (cd "$SRC" && "$RCUPROF" compare "$f" --baseline stock > "$TMP/c1" && "$RCUPROF" compare "$f" --baseline stock@3.5 > "$TMP/c2"); then
    cmp -s "$TMP/c1" "$TMP/c2" && grep -q "| stock (baseline) |" "$TMP/c1" \
        && pass "a results file of before lines: --baseline stock@3.5 is stock" \
        || fail "compare --baseline stock@3.5 differs from --baseline stock"
    grep -q "OpenSSL of each variant" "$TMP/c1" \
        && fail "one-version table names versions" || pass "a table of one OpenSSL adds no version note"
else
    fail "compare $f"
fi
# --- Across lines: stock-pristine@4.0 runs under rcuprof, and a sweep of
# 3.5's stock against it compares with a note naming each variant's
# OpenSSL version and line.
if grep -q "stock-pristine@4.0" <<< "$RCUPROF_VARIANTS_BUILT"; then
    if "$RCUPROF" run --variant stock-pristine@4.0 -n 1 --duration-ms 50 --warmup-ms 10 --json > "$TMP/r40.json" 2> "$TMP/r40.err"; then
        got=$("$PY" -c 'import json,sys; b=json.load(open(sys.argv[1]))["build"]; print(b["variant"], b["line"], b["openssl_version"])' "$TMP/r40.json")
        [[ "$got" == "stock-pristine@4.0 4.0 4.0."* ]] && pass "run --variant stock-pristine@4.0: $got" || fail "stock-pristine@4.0 result build: $got"
    else
        fail "run --variant stock-pristine@4.0: $(cat "$TMP/r40.err")"
    fi
    if "$RCUPROF" sweep --variants stock@3.5,stock-pristine@4.0 --threads 1,2 --reps 2 \
            --duration-ms 50 --warmup-ms 10 --out "$TMP/x" > "$TMP/x.log" 2>&1; then
        "$RCUPROF" compare "$TMP/x/results.jsonl" --baseline stock --notes > "$TMP/xc" 2>&1 || fail "compare across lines: $(cat "$TMP/xc")"
        v35=$("$PY" -c 'import json; print(json.load(open("'"$RCUPROF_BUILD"'/variants.json"))["lines"]["3.5"]["openssl_version"])')
        v40=$("$PY" -c 'import json; print(json.load(open("'"$RCUPROF_BUILD"'/variants.json"))["lines"]["4.0"]["openssl_version"])')
        grep -qF "OpenSSL of each variant: stock $v35 (line 3.5), stock-pristine@4.0 $v40 (line 4.0)" "$TMP/xc" \
            && pass "compare across lines names each variant's version and line" \
            || fail "compare across lines: no version note: $(cat "$TMP/xc")"
        grep -q "| stock (baseline) | stock-pristine@4.0 |" "$TMP/xc" \
            && pass "one table, both lines' columns" || fail "cross-line table: $(head -5 "$TMP/xc")"
        grep -q "stock-pristine@4.0@" "$TMP/xc" \
            && fail "a note writes a cell as NAME@LINE@THREADS: $(grep -m1 'stock-pristine@4.0@' "$TMP/xc")" \
            || pass "cells of a NAME@LINE variant in notes are NAME@LINE/Nt"
        "$RCUPROF" report "$TMP/x/results.jsonl" --baseline stock --out "$TMP/xr" > /dev/null 2>&1 \
            && grep -qF "stock-pristine@4.0 $v40 (line 4.0)" "$TMP/xr/results.md" \
            && pass "report across lines names them too" || fail "report across lines"
    else
        fail "sweep stock@3.5,stock-pristine@4.0: $(tail -3 "$TMP/x.log")"
    fi
    # The issue's own question, in one sweep: 3.5's stock, 4.0's stock (the
    # sharded rwlock store) and 4.0's RCU store per shard; one table whose
    # note names each variant's OpenSSL; explain names its variant's too.
    case ",$RCUPROF_VARIANTS_BUILT," in
    *,stock@4.0,*rcu-sync@4.0,*|*,rcu-sync@4.0,*stock@4.0,*)
        if "$RCUPROF" sweep --variants stock@3.5,stock@4.0,rcu-sync@4.0 --threads 1,2 --reps 2 \
                --duration-ms 50 --warmup-ms 10 --out "$TMP/x3" > "$TMP/x3.log" 2>&1 \
           && "$RCUPROF" compare "$TMP/x3/results.jsonl" --baseline stock > "$TMP/x3c" 2>&1; then
            grep -qF "OpenSSL of each variant: stock $v35 (line 3.5), stock@4.0 $v40 (line 4.0), rcu-sync@4.0 $v40 (line 4.0)" "$TMP/x3c" \
                && grep -q "| stock (baseline) | stock@4.0 | rcu-sync@4.0 |" "$TMP/x3c" \
                && pass "sweep stock@3.5,stock@4.0,rcu-sync@4.0: one table, each variant's OpenSSL named" \
                || fail "three-variant cross-line table: $(cat "$TMP/x3c")"
        else
            fail "sweep/compare stock@3.5,stock@4.0,rcu-sync@4.0: $(tail -3 "$TMP/x3.log") $(cat "$TMP/x3c" 2>/dev/null)"
        fi
        if "$RCUPROF" explain --variant rcu-sync@4.0 --threads 1,2 --reps 1 --duration-ms 50 \
                --warmup-ms 10 --max-pairs 1 --out "$TMP/x3e" > /dev/null 2> "$TMP/x3e.err" || [ -s "$TMP/x3e/explain.json" ]; then
            grep -qF "OpenSSL $v40 (line 4.0)." "$TMP/x3e/explain.md" \
                && pass "explain --variant rcu-sync@4.0 names OpenSSL $v40 (line 4.0)" \
                || fail "explain rcu-sync@4.0: no version line: $(head -5 "$TMP/x3e/explain.md")"
        else
            fail "explain --variant rcu-sync@4.0: $(tail -3 "$TMP/x3e.err")"
        fi
        ;;
    *) echo "not checked here: stock@3.5,stock@4.0,rcu-sync@4.0 in one sweep (stock@4.0 and rcu-sync@4.0 not both built: $RCUPROF_VARIANTS_BUILT)" ;;
    esac
    # A real tree of a line with no series: a copy of 4.0's pristine tree
    # whose VERSION.dat says 4.1 (a development tree).  stock-pristine@4.1
    # builds (mostly ccache hits of stock-pristine@4.0) and runs: its driver
    # only, run by this build's rcuprof (the same CLI: not compiled twice)
    # with the 4.1 build's bin and variants.json.
    t40=$(awk -F'\t' '$1=="tree"{print $2}' "$RCUPROF_BUILD/variants/stock-pristine@4.0/spec")
    cp -a "$t40" "$TMP/t41real" && rm -f "$TMP/t41real/.rcuprof-complete"
    sed -i 's/^MINOR=.*/MINOR=1/; s/^PATCH=.*/PATCH=0/' "$TMP/t41real/VERSION.dat"
    if configure b41 -DOPENSSL_SOURCE_DIR="$TMP/t41real" \
       && cmake --build "$TMP/b41" --target rcuprof-stress-stock-pristine_at_4.1 >> "$TMP/b41.log" 2>&1; then
        if RCUPROF_BINDIR="$TMP/b41/bin" "$RCUPROF" run --variant stock-pristine@4.1 -n 1 --duration-ms 50 --warmup-ms 10 --json > "$TMP/r41.json" 2> "$TMP/r41.err"; then
            got=$("$PY" -c 'import json,sys; b=json.load(open(sys.argv[1]))["build"]; print(b["variant"], b["line"], b["openssl_version"])' "$TMP/r41.json")
            [ "$got" = "stock-pristine@4.1 4.1 4.1.0" ] && pass "a 4.1 tree: stock-pristine@4.1 builds and runs ($got)" \
                || fail "stock-pristine@4.1 result build: $got"
        else
            fail "run --variant stock-pristine@4.1: $(cat "$TMP/r41.err")"
        fi
        expect_error 2 "variant 'stock@4.1' has no patch series for OpenSSL 4.1 yet (OpenSSL 4.1 has: stock-pristine@4.1)" \
            env RCUPROF_BINDIR="$TMP/b41/bin" "$RCUPROF" run --variant stock@4.1 -n 1
    else
        fail "build stock-pristine@4.1: $(grep -m3 -E 'rcuprof|FAILED|rror' "$TMP/b41.log")"
    fi
    rm -rf "$TMP/b41" "$TMP/t41real"
else
    echo "not checked here: the cross-line run and the 4.1 tree (stock-pristine@4.0 is not built in this build: RCUPROF_VARIANTS)"
fi
finish
