#!/bin/sh
# run.sh of an rcuprof bundle: runs every point of plan.txt once, each with
# its packed driver (packs/ID: the driver with its own loader and
# libraries), and writes results/ beside this script:
#   results/BUNDLE_ID, results/plan.json   which bundle wrote the folder
#   results/env.txt                         this machine, recorded once
#   results/points/SEQ.json, SEQ.err        the driver's stdout and stderr
#   results/points/SEQ.done                 exit, timeout, start, end: the
#                                           point is done once this exists
# Each file is written under a temporary name and renamed, so an
# interrupted run leaves no half-written point; run it again and it skips
# the points done.  Needs a POSIX sh on Linux x86-64; no root, nothing
# installed.  Then bring results/ back and run `rcuprof import`.
set -u
case $0 in */*) cd "${0%/*}" || exit 1 ;; esac
out=results
log=$out/run.log

say() { echo "run.sh: $*" >&2; }

magic='' version='' timeout='' total=''
[ -r plan.txt ] && exec 3< plan.txt && read -r magic version timeout total <&3
if [ "$magic" != rcuprof-bundle-plan ] || [ "$version" != 1 ]; then
    say "plan.txt is missing or not an rcuprof bundle plan: run run.sh from the unpacked bundle"
    exit 2
fi
read -r id < BUNDLE_ID || exit 2
if ! mkdir -p "$out/points"; then
    say "cannot write $out here: copy the bundle to a writable folder"
    exit 1
fi
if [ -f "$out/BUNDLE_ID" ]; then
    read -r had < "$out/BUNDLE_ID"
    if [ "$had" != "$id" ]; then
        say "$out holds the results of another bundle ($had): move it away first"
        exit 1
    fi
else
    cp plan.json "$out/.plan.json.tmp" && mv "$out/.plan.json.tmp" "$out/plan.json" \
        && echo "$id" > "$out/.BUNDLE_ID.tmp" && mv "$out/.BUNDLE_ID.tmp" "$out/BUNDLE_ID" \
        || { say "cannot write $out: check the disk"; exit 1; }
fi

# Centiseconds since boot (/proc/uptime), or nothing without /proc.
now_cs() {
    if [ -r /proc/uptime ]; then
        read -r u _ < /proc/uptime
        echo "${u%.*}${u#*.}"
    fi
}

# rd FILE: its first line, or nothing when it cannot be read.
rd() { if [ -r "$1" ]; then read -r v < "$1" && echo "$v"; fi; }

env_record() {
    echo "schema=rcuprof-bundle-env/1"
    echo "name=$(uname -n)"
    echo "os=$(uname -s)"
    echo "kernel=$(uname -r)"
    echo "arch=$(uname -m)"
    n=0 model=
    if [ -r /proc/cpuinfo ]; then
        while IFS= read -r l; do
            case $l in
            processor*) n=$((n + 1)) ;;
            "model name"*) [ -n "$model" ] || model=${l#*: } ;;
            esac
        done < /proc/cpuinfo
    fi
    echo "cpuinfo_processors=$n"
    echo "cpu_model=$model"
    if command -v nproc >> "$log" 2>&1; then echo "nproc=$(nproc)"; else echo "nproc="; fi
    s=/sys/devices/system/cpu
    echo "online=$(rd $s/online)"
    echo "boost=$(rd $s/cpufreq/boost)"
    echo "no_turbo=$(rd $s/intel_pstate/no_turbo)"
    echo "governor=$(rd $s/cpu0/cpufreq/scaling_governor)"
    for d in "$s"/cpu[0-9]*; do
        [ -d "$d/topology" ] || continue
        echo "cpu=${d##*/cpu} package=$(rd "$d/topology/physical_package_id") die=$(rd "$d/topology/die_id") core=$(rd "$d/topology/core_id") siblings=$(rd "$d/topology/thread_siblings_list") l3=$(rd "$d/cache/index3/shared_cpu_list")"
    done
    for d in /sys/devices/system/node/node[0-9]*; do
        [ -r "$d/cpulist" ] && echo "node=${d##*/node} cpus=$(rd "$d/cpulist")"
    done
    echo "recorded=$(date +%s)"
}
if [ ! -f "$out/env.txt" ]; then
    env_record > "$out/.env.txt.tmp" 2>> "$log" && mv "$out/.env.txt.tmp" "$out/env.txt" \
        || { say "cannot write $out/env.txt: check the disk"; exit 1; }
fi

# How a run is bounded by the timeout: timeout(1); else a watchdog in the
# background (sh needs /dev/null for that); else not at all (said once).
if timeout 5 true >> "$log" 2>&1; then
    how=timeout
elif [ -c /dev/null ]; then
    how=watchdog
else
    how=none
    say "no timeout(1) and no /dev/null here: runs are not stopped after $timeout s; interrupt a hung one by hand"
fi

pid='' wd='' cur=''
stop() {
    [ -n "$pid" ] && kill -9 "$pid" 2>> "$log"
    [ -n "$wd" ] && kill "$wd" 2>> "$log"
    [ -n "$cur" ] && rm -f "$out/points/.$cur."*
    say "interrupted at point $k of $total: run 'sh run.sh' again to go on (done points are kept)"
    exit 130
}
trap stop INT TERM HUP

k=0 ndone=0 ran=0
while read -r seq pack block variant threads args <&3; do
    k=$((k + 1))
    if [ -f "$out/points/$seq.done" ]; then
        ndone=$((ndone + 1))
        continue
    fi
    [ "$ndone" -gt 0 ] && [ "$ran" -eq 0 ] && say "$ndone of $total points already done: going on"
    p=packs/$pack
    { read -r _; read -r _ loader; } < "$p/MANIFEST" || { say "packs/$pack is missing: unpack the whole bundle"; exit 2; }
    eval "set -- $args"
    if [ "$loader" = - ]; then
        set -- "$p/driver" "$@"
    else
        set -- "$p/$loader" --inhibit-cache --library-path "$p/lib" "$p/driver" "$@"
    fi
    say "point $k of $total: block $block, $variant/${threads}t"
    cur=$seq
    t=$out/points/.$seq
    rm -f "$t."*
    start=$(date +%s)
    start_cs=$(now_cs)
    case $how in
    timeout)
        timeout -s KILL "$timeout" "$@" > "$t.json" 2> "$t.err"
        rc=$?
        # Killed at the limit: 128 + KILL, the whole timeout after start.
        if [ "$rc" -eq 137 ] && [ $(($(date +%s) - start)) -ge "$timeout" ]; then
            : > "$t.timeout"
        fi
        ;;
    watchdog)
        "$@" > "$t.json" 2> "$t.err" &
        pid=$!
        (
            i=0
            while [ "$i" -lt "$timeout" ]; do
                sleep 1
                kill -0 "$pid" 2>> "$log" || exit 0
                i=$((i + 1))
            done
            : > "$t.timeout"
            kill -9 "$pid" 2>> "$log"
        ) &
        wd=$!
        wait "$pid"
        rc=$?
        pid=''
        kill "$wd" 2>> "$log"
        wait "$wd" 2>> "$log"
        wd=''
        ;;
    *)
        "$@" > "$t.json" 2> "$t.err"
        rc=$?
        ;;
    esac
    to=0
    [ -f "$t.timeout" ] && to=1
    end_cs=$(now_cs)
    cs=''
    [ -n "$start_cs" ] && [ -n "$end_cs" ] && cs=$((end_cs - start_cs))
    printf 'seq=%s\nexit=%s\ntimeout=%s\nstart=%s\nend=%s\nelapsed_cs=%s\n' "$seq" "$rc" "$to" "$start" "$(date +%s)" "$cs" > "$t.done" \
        && mv "$t.json" "$out/points/$seq.json" && mv "$t.err" "$out/points/$seq.err" \
        && mv "$t.done" "$out/points/$seq.done" \
        || { say "cannot write $out/points: check the disk"; exit 1; }
    rm -f "$t.timeout"
    cur=
    ran=$((ran + 1))
    ndone=$((ndone + 1))
    [ "$rc" -eq 0 ] || say "point $k of $total: exit $rc$( [ "$to" -eq 1 ] && echo ' (timed out)')"
done
exec 3<&-
say "all $ndone of $total points done: bring $out/ back (e.g. tar czf results.tar.gz $out) and run 'rcuprof import results.tar.gz --out DIR'"
