#!/usr/bin/env bash
# stage.sh NAME CMD...: run one stage of make demo/test and say how long it took.
name=$1; shift
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
printf 'rcuprof stage %-16s %7.1f s%s\n' "$name" "$(awk "BEGIN{print $end - $start}")" \
    "$([ $rc -eq 0 ] || echo "  (FAILED, exit $rc)")"
exit $rc
