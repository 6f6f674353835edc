#!/usr/bin/env bash
# Fetch the pristine upstream tarball of one OpenSSL line from Debian's source
# packages (the line's suite: patches/variants.json "lines"; 3.5 from trixie
# by default), with a private apt configuration: our own source list
# (reusing the Debian archive URI this system already uses), our own lists and
# archive directories.  The system's apt state is never touched, and no mirror
# host is written anywhere in the repository.
#
# usage: fetch-openssl-debian.sh CACHE_DIR [VERSION [LINE SUITE]]
#   LINE and SUITE default to $RCUPROF_OPENSSL_SERIES (3.5) and
#   $RCUPROF_DEBIAN_SUITE (trixie).  Each suite has its own apt folder
#   (CACHE_DIR/apt-SUITE), so fetches of different lines never share an index.
# prints on stdout, one per line:  version=...  tarball=...  sha256=...
# errors: one line on stderr starting with "rcuprof: ", exit 1.
set -euo pipefail

die() { echo "rcuprof: $*" >&2; exit 1; }

cache=${1:?usage: fetch-openssl-debian.sh CACHE_DIR [VERSION]}
pin=${2:-}
series=${3:-${RCUPROF_OPENSSL_SERIES:-3.5}}
suite=${4:-${RCUPROF_DEBIAN_SUITE:-trixie}}
case "$suite" in *[!a-z0-9-]*|"") die "Debian suite '$suite' is not a suite name: fix patches/variants.json \"lines\"" ;; esac

command -v apt-get >/dev/null || die "apt-get not found: pass -DOPENSSL_SOURCE_DIR=<$series.x tree> or -DOPENSSL_SOURCE_TARBALL=<file> instead"

# The archive URI already configured on this system (deb822 .sources or
# one-line .list).  The first main Debian archive wins; security and
# third-party repositories are skipped.
find_uri() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        awk '$1=="deb" || $1=="deb-src" {
                 for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }' "$f"
    done
}
uri=${RCUPROF_APT_URI:-$(find_uri | grep -E '/debian/?$' | head -n 1 || true)}
[ -n "$uri" ] || die "no Debian archive URI in /etc/apt sources: pass -DOPENSSL_SOURCE_DIR=<tree> or -DOPENSSL_SOURCE_TARBALL=<file>"

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die "$keyring missing: install debian-archive-keyring"

apt_dir="$cache/apt-$suite"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/etc/preferences.d" "$apt_dir/etc/apt.conf.d" "$cache/downloads"
printf 'deb-src [signed-by=%s] %s %s main\n' "$keyring" "$uri" "$suite" > "$apt_dir/etc/sources.list"
: > "$apt_dir/status"

apt_opts=(
    -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/etc/none.d"
    -o "Dir::Etc::Preferences=$apt_dir/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$apt_dir/etc/preferences.d"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::State::status=$apt_dir/status"
    -o "Dir::Cache=$apt_dir/cache"
    -o "Dir::Cache::Archives=$apt_dir/archives"
    -o "APT::Sandbox::User=$(id -un)"
    -o "Acquire::Languages=none"
    -o "Debug::NoLocking=1"
)
mkdir -p "$apt_dir/cache"

# Refresh the index at most once an hour; a pinned version already
# downloaded needs no network at all.
stamp="$apt_dir/lists/.rcuprof-updated"
have_index() { ls "$apt_dir/lists/"*_source_Sources* >/dev/null 2>&1; }
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
    # apt-get update exits 0 on fetch failures (warnings): judge by the log.
    apt-get "${apt_opts[@]}" -qq update >"$apt_dir/update.log" 2>&1 || true
    if grep -qE '^(E|W): (Failed to fetch|Some index files failed)' "$apt_dir/update.log" || ! have_index; then
        if ! have_index; then
            die "cannot reach the Debian archive at $uri ($(grep -m1 -E '^(E|W):' "$apt_dir/update.log" | cut -c1-160 || echo 'no index')): check the network, or pass -DOPENSSL_SOURCE_DIR=<tree>"
        fi
        echo "rcuprof: warning: archive unreachable, using the cached index" >&2
    else
        touch "$stamp"
    fi
fi

versions=$( { apt-cache "${apt_opts[@]}" showsrc openssl 2>/dev/null || true; } \
           | awk '$1=="Package:" {p=$2} $1=="Version:" && p=="openssl" {print $2}' | sort -u)
newest=""
for v in $versions; do
    case "$v" in "$series".*) ;; *) continue ;; esac
    if [ -z "$newest" ] || dpkg --compare-versions "$v" gt "$newest"; then newest=$v; fi
done
[ -n "$newest" ] || die "no openssl $series.x source package in Debian $suite: pass -DOPENSSL_SOURCE_DIR=<tree>"

if [ -n "$pin" ] && ! printf '%s\n' $versions | grep -qxF "$pin"; then
    die "openssl $pin is no longer in Debian $suite (newest $series.x there: $newest): set -DOPENSSL_DEBIAN_VERSION=$newest (pins line $series) or leave it unset"
fi

# Candidates, newest first.  A mirror can list a version before (or after) it
# serves its files: without a pin, an unreachable newest falls back to the
# next one, loudly.
if [ -n "$pin" ]; then
    candidates=$pin
else
    candidates=$(printf '%s\n' $versions | grep -E "^$series\." | sort -r -V)
fi

fetch_one() {   # version -> sets $tarball, or returns 1 with $why set
    local want=$1 upstream dl tmp
    upstream=${want#*:}; upstream=${upstream%-*}
    dl="$cache/downloads/$want"
    tarball=$(ls "$dl"/openssl_"$upstream".orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1 || true)
    [ -z "$tarball" ] || return 0
    tmp=$(mktemp -d "$cache/downloads/.tmp.XXXXXX")
    # apt-get source verifies every file against the signed .dsc.
    if ! (cd "$tmp" && apt-get "${apt_opts[@]}" -qq --download-only source "openssl=$want" >"$tmp/source.log" 2>&1); then
        why=$(grep -m1 -E '^(E|W):' "$tmp/source.log" || echo 'no detail')
        rm -rf "$tmp"
        return 1
    fi
    mkdir -p "$dl"
    mv "$tmp"/openssl_* "$dl"/
    rm -rf "$tmp"
    tarball=$(ls "$dl"/openssl_"$upstream".orig.tar.* | grep -v '\.asc$' | head -n 1)
}

want=""
for v in $candidates; do
    marker="$cache/downloads/.unavailable-$v"
    if [ -z "$pin" ] && [ -n "$(find "$marker" -mmin -60 2>/dev/null)" ]; then
        # Known unserved within the hour: no second download, same warning.
        echo "rcuprof: warning: openssl $v is listed but was not served at the last try (within the hour); using the next listed $series.x" >&2
        continue
    fi
    if fetch_one "$v"; then want=$v; break; fi
    [ -n "$pin" ] && die "download of openssl $v failed ($why): check the network, or pass -DOPENSSL_SOURCE_DIR=<tree>"
    echo "rcuprof: warning: openssl $v is listed but could not be downloaded ($why); using the next listed $series.x" >&2
    touch "$marker"
done
[ -n "$want" ] || die "no openssl $series.x source package could be downloaded from $uri: check the network, or pass -DOPENSSL_SOURCE_DIR=<tree>"
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
echo "version=$want"
echo "tarball=$tarball"
echo "sha256=$sha"
