#!/usr/bin/env bash
# Compile/link launcher of a user variant's dependents (its driver, tests and
# bench programs; set by cmake/Variants.cmake): a broken variant blocks no
# other one.
#   * the variant did not build (no build.json: build-variant.sh reported it
#     in one line): do nothing, successfully;
#   * a link whose objects are missing (their compile was left out): same;
#   * the command fails (a test needs internals this OpenSSL tree lacks):
#     one line naming the program and the first error, the log kept under
#     the variant's folder, and success, so the build goes on.
# usage: variant-gate.sh VARIANT_DIR TARGET COMMAND...
vdir=$1 target=$2
shift 2
[ -f "$vdir/build.json" ] || exit 0
compile=0
for a in "$@"; do [ "$a" = -c ] && compile=1; done
if [ $compile = 0 ]; then
    for a in "$@"; do
        case "$a" in
        *.o) [ -e "$a" ] || exit 0 ;;
        esac
    done
fi
mkdir -p "$vdir/left-out"
out=$(mktemp "$vdir/left-out/.run.XXXXXX")   # one per command: compiles run in parallel
if "$@" > "$out" 2>&1; then
    cat "$out"
    rm -f "$out"
    exit 0
fi
log="$vdir/left-out/$target.log"
mv -f "$out" "$log"
name=$(sed -n 's/^name\t//p' "$vdir/spec" 2>/dev/null)
ver=$(sed -n 's/.*"openssl_version":"\([^"]*\)".*/\1/p' "$vdir/build.json")
first=$(grep -m1 -E 'error|undefined reference' "$log" | sed 's/^[^ ]*: //' | cut -c1-160)
if [[ "$target" == rcuprof-stress-* ]]; then
    echo "rcuprof: variant ${name:-?}: its driver does not build against OpenSSL ${ver:-?} (${first:-see the log}; $log): it cannot be measured; other variants build on"
else
    echo "rcuprof: variant ${name:-?}: ${target%-*} left out (it needs what OpenSSL ${ver:-?} lacks: ${first:-see the log}; $log)"
fi
exit 0
