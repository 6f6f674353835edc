#!/usr/bin/env bash
# Install the Debian packages rcuprof needs, and only those missing.
# Idempotent: a second run installs nothing and prints one line.
# usage: install-deps.sh [--check]   (--check: list what is missing, exit 1 if any)
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache perl pkg-config patch
    dpkg-dev debian-archive-keyring
    libpfm4-dev libdw-dev libelf-dev libhwloc-dev hwloc
    libgsl-dev libjansson-dev liburcu-dev systemtap-sdt-dev
    libcmocka-dev gnuplot-nox python3 python3-jsonschema
    valgrind linux-perf util-linux
    openssl
    busybox-static
    openssh-client openssh-server
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "rcuprof deps: all ${#packages[@]} Debian packages present"
    exit 0
fi
if [ "${1:-}" = --check ]; then
    echo "rcuprof deps: missing: ${missing[*]}"
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "rcuprof: need root to install ${missing[*]}: run 'sudo make deps' (or install those Debian packages yourself), then run this again" >&2
    exit 1
fi

echo "rcuprof deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Package lists may be absent on a fresh machine: refresh once if a package
# is unknown to apt.
if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/rcuprof-deps.$$.log 2>&1; then
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
        || { echo "rcuprof: apt-get could not install ${missing[*]}: see the output above" >&2; exit 1; }
fi
rm -f /tmp/rcuprof-deps.$$.log
echo "rcuprof deps: done"
