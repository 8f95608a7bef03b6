#!/usr/bin/env bash
# Installs the Debian packages bridgekit builds against, when they are missing.
# Usage: scripts/ensure-deps.sh [extra-package ...]
set -euo pipefail
packages=(libjansson-dev libpcre2-dev pkg-config "$@")
# A package counts as present when it is installed, or when an installed package provides it
# (Node from another source may ship npm itself: installing Debian's npm would replace it).
provided=$(dpkg-query -W -f='${db:Status-Abbrev} ${Provides}\n' 2>/dev/null | awk '$1 == "ii" { $1 = ""; print }' | tr ',' '\n' | awk '{ print $1 }')
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" && continue
    grep -qx -- "$package" <<<"$provided" && continue
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "ensure-deps: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "ensure-deps: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }
