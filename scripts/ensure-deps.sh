#!/usr/bin/env bash
# Installs the Debian packages bridgekit builds against, when they are missing.
# Usage: scripts/ensure-deps.sh [extra-package ...]
set -euo pipefail
packages=(libjansson-dev libpcre2-dev pkg-config "$@")
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "ensure-deps: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "ensure-deps: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }
