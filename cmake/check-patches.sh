#!/usr/bin/env bash
# Do PATCH... apply, in order, exactly (patch -p1 --fuzz=0, as
# build-variant.sh applies them) to TREE?  Only the files they touch are
# copied (to a scratch folder), so this costs milliseconds, not a tree copy.
# Exit 0 when all apply; else 1 and one line "INDEX<TAB>PATCH<TAB>FILE" (the
# first patch that does not apply, 1-based, and the file it stops at).
# usage: check-patches.sh TREE PATCH...
set -euo pipefail
tree=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "$@"; do
    awk '/^(---|\+\+\+) /{ f = $2; if (f != "/dev/null") { sub(/^[ab]\//, "", f); print f } }' "$p"
done | sort -u | while IFS= read -r f; do
    if [ -f "$tree/$f" ]; then
        mkdir -p "$tmp/$(dirname "$f")"
        cp "$tree/$f" "$tmp/$f"
    fi
done
i=0
for p in "$@"; do
    i=$((i + 1))
    if ! log=$(cd "$tmp" && patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch < "$p" 2>&1); then
        file=$(printf '%s\n' "$log" | awk '/^(checking|patching) file /{f=$3} /FAILED|malformed|Only garbage|can.t find file|Reversed/{print f; exit}')
        if [ -z "$file" ]; then
            file=$(printf '%s\n' "$log" | grep -m1 -E 'can.t find file|No file to patch' | sed 's/^.*to patch: *//' || true)
        fi
        printf '%d\t%s\t%s\n' "$i" "$(basename "$p")" "${file:-the tree}"
        exit 1
    fi
done
exit 0
