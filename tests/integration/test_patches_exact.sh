# Every patch of every configured variant applies exactly: patch -p1
# --fuzz=0, no offset, on top of the patches before it, to the pristine
# tree of the variant's own OpenSSL line (its spec's tree; patches/README.md,
# "Working on the series").  Only the files the patches touch are copied
# from the pristine tree, so this takes a second.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
resolved="$RCUPROF_BUILD/variants.json"
spec=$(ls "$RCUPROF_BUILD"/variants/*/spec 2>/dev/null | head -n 1)
[ -f "$resolved" ] && [ -n "$spec" ] || { echo "SKIPPED: no variant is configured"; exit 77; }

"$PY" - "$resolved" <<'PY' > "$TMP/plan"
import json, sys
for v in json.load(open(sys.argv[1]))['variants']:
    print(v['name'] + '\t' + v['line'] + '\t' + '\t'.join(v['patches']))
PY
# The pristine tree of each configured line (from any built variant's spec).
declare -A tree_of
for s in "$RCUPROF_BUILD"/variants/*/spec; do
    l=$(awk -F'\t' '$1=="line"{print $2}' "$s")
    tree_of[$l]=$(awk -F'\t' '$1=="tree"{print $2}' "$s")
done
# A line with patches that this build does not configure: its pristine
# source from the line's Debian suite (the fetcher's cache; no build), so
# every line's series is checked whatever -DRCUPROF_VARIANTS says.
cache=${RCUPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rcuprof}
tree_for() {   # LINE -> prints the tree, or nothing
    local line=$1 suite out tb
    [ -n "${tree_of[$line]:-}" ] && { echo "${tree_of[$line]}"; return; }
    suite=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["lines"].get(sys.argv[2],{}).get("debian_suite",""))' \
            "$RCUPROF_SRC/patches/variants.json" "$line")
    [ -n "$suite" ] || return 0
    out=$("$RCUPROF_SRC/cmake/fetch-openssl-debian.sh" "$cache" "" "$line" "$suite" </dev/null 2>"$TMP/fetch-$line.err") || return 0
    tb=$(sed -n 's/^tarball=//p' <<< "$out")
    mkdir -p "$TMP/src-$line" && tar -C "$TMP/src-$line" -xf "$tb" && echo "$TMP/src-$line"/*
}
while IFS=$'\t' read -r name line patches; do
    if [ -z "${tree_of[$line]:-}" ] && [ -n "$patches" ]; then
        tree_of[$line]=$(tree_for "$line")
    fi
    pristine=${tree_of[$line]:-}
    if [ -z "$pristine" ]; then
        [ -n "$patches" ] && fail "$name: no OpenSSL $line tree to check its patches against: $(cat "$TMP/fetch-$line.err" 2>/dev/null)"
        [ -z "$patches" ] && echo "not checked: $name (no patch; OpenSSL $line is not configured in this build)"
        continue
    fi
    [ -f "$pristine/Configure" ] || { fail "$name: pristine tree $pristine is missing"; continue; }
    [ -n "$patches" ] || { pass "$name: no patch"; continue; }
    d="$TMP/$name"; mkdir -p "$d"
    ok=1
    for p in $patches; do
        case "$p" in /*) f=$p ;; *) f=$RCUPROF_SRC/$p ;; esac
        for t in $(sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p; s#^--- a/\([^[:space:]]*\).*#\1#p' "$f" | sort -u); do
            if [ -f "$pristine/$t" ] && [ ! -e "$d/$t" ]; then
                mkdir -p "$d/$(dirname "$t")" && cp "$pristine/$t" "$d/$t"
            fi
        done
        if ! out=$(cd "$d" && patch -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch < "$f" 2>&1); then
            fail "$name: $(basename "$p") does not apply with --fuzz=0: $(echo "$out" | grep -m1 -E 'FAILED|rror|garbage')"
            ok=0; break
        fi
        if echo "$out" | grep -qE "offset|fuzz"; then
            fail "$name: $(basename "$p") applies only with $(echo "$out" | grep -m1 -E 'offset|fuzz')"
            ok=0; break
        fi
    done
    [ $ok = 1 ] && pass "$name: every patch applies with --fuzz=0 and no offset"
done < "$TMP/plan"
finish
