#!/usr/bin/env bash
# Regenerate patch files from a git repository of an OpenSSL tree that holds
# the series as commits (patches/README.md, "Working on the series").
#
# usage: patches/tools/regen.sh REPO BASE BRANCH... [-o DIR]
#   REPO    the OpenSSL git repository (pristine source committed as BASE)
#   BASE    the pristine commit or tag (for example v3.5.7)
#   BRANCH  branches holding the series; each commit since BASE is one patch
#   -o DIR  where to write (default: patches/<line>/ of this clone, line from
#           the tree's VERSION.dat)
#
# Each commit's message is the patch header verbatim, plus a trailer line
# "Patch-File: <path under patches/<line>/>" that names the file.  A patch
# that several branches carry must come out byte for byte the same from
# each, or nothing is written.  The diff is plain `git diff` (3 lines of
# context), so the file applies with `patch -p1 --fuzz=0` on top of the
# commits before it, with no offset.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
out=""
args=()
while [ $# -gt 0 ]; do
    case "$1" in
    -o) out=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
    esac
done
[ ${#args[@]} -ge 3 ] || { echo "usage: $0 REPO BASE BRANCH... [-o DIR]" >&2; exit 2; }
repo=${args[0]} base=${args[1]}
branches=("${args[@]:2}")
g() { git -C "$repo" "$@"; }
g rev-parse --verify -q "$base^{commit}" >/dev/null \
    || { echo "rcuprof: $base is not a commit of $repo: give the pristine tag" >&2; exit 2; }
if [ -z "$out" ]; then
    line=$(g show "$base:VERSION.dat" | awk -F= '/^MAJOR=/{a=$2} /^MINOR=/{b=$2} END{print a "." b}')
    out="$here/patches/$line"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A seen
for b in "${branches[@]}"; do
    g rev-parse --verify -q "$b^{commit}" >/dev/null \
        || { echo "rcuprof: no branch $b in $repo" >&2; exit 2; }
    for c in $(g rev-list --reverse "$base..$b"); do
        msg=$(g log -1 --format=%B "$c")
        file=$(printf '%s\n' "$msg" | sed -n 's/^Patch-File: //p' | tail -n 1)
        [ -n "$file" ] || { echo "rcuprof: commit $c on $b has no Patch-File trailer: amend it" >&2; exit 1; }
        # patch(1)'s leftovers committed by mistake would be shipped as files
        junk=$(g diff --name-only "$c^" "$c" | grep -E '\.(orig|rej)$|~$' || true)
        [ -z "$junk" ] || { echo "rcuprof: commit $c on $b adds ${junk//$'\n'/, }: remove it (git rm) and amend" >&2; exit 1; }
        mkdir -p "$tmp/$b/$(dirname "$file")"
        {
            printf '%s\n' "$msg" | sed '/^Patch-File: /d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
            echo "---"
            g diff --no-color --no-renames -U3 "$c^" "$c"
        } > "$tmp/$b/$file"
        if [ -n "${seen[$file]:-}" ]; then
            cmp -s "$tmp/$b/$file" "${seen[$file]}" \
                || { echo "rcuprof: $file differs between branches ($b and another): make the commits the same" >&2; exit 1; }
        else
            seen[$file]="$tmp/$b/$file"
        fi
    done
done
for f in "${!seen[@]}"; do
    mkdir -p "$out/$(dirname "$f")"
    cp "${seen[$f]}" "$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"
    echo "wrote $f"
done | sort
