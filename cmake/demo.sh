#!/usr/bin/env bash
# The default comparison of `make demo`: every built variant, no write churn,
# 1 and 2 threads, a few interleaved repetitions, microseconds per fetch.
# (The statistics-backed version is `rcuprof sweep` + `rcuprof compare`.)
set -euo pipefail
build=${1:-build}
rcuprof="$build/bin/rcuprof"
reps=${RCUPROF_DEMO_REPS:-3}
threads=${RCUPROF_DEMO_THREADS:-"1 2"}

"$rcuprof" variants
variants=$("$rcuprof" variants --json | awk -F'"' '/^  "[^"]+": \{/{print $2}')
echo
echo "EVP_MD_fetch(SHA256) + free, own lib ctx, no write churn; wall us/op, median of $reps interleaved runs"
printf '%-8s' threads
for v in $variants; do printf ' %16s' "$v"; done
echo
for t in $threads; do
    printf '%-8s' "$t"
    declare -A vals=()
    for r in $(seq "$reps"); do
        for v in $(printf '%s\n' $variants | shuf); do
            [ -x "$build/bin/rcuprof-stress-$v" ] || continue
            vals[$v]+="$("$rcuprof" run --variant "$v" --threads "$t" --duration-ms 300 --warmup-ms 100 -t) "
        done
    done
    for v in $variants; do
        if [ -n "${vals[$v]:-}" ]; then
            printf ' %16s' "$(printf '%s\n' ${vals[$v]} | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')"
        else
            printf ' %16s' "not built"
        fi
    done
    echo
    unset vals
done
echo
echo "More: $rcuprof run --help; docs/interfaces.md"
