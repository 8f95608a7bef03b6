#!/usr/bin/env bash
# Checks that a bridgectl built with the trait VendoredC carries its own jansson and PCRE2:
# `ldd` lists neither the system libjansson nor libpcre2, and the binary defines their entry
# points itself. Prints the ldd output so the run shows it.
# Usage: scripts/check-vendored-links.sh PATH/TO/bridgectl   (exit 1 when it links either)
set -euo pipefail
binary="${1:?usage: scripts/check-vendored-links.sh PATH/TO/bridgectl}"
[ -x "$binary" ] || { echo "check-vendored-links: $binary is not an executable (build it with --traits VendoredC)" >&2; exit 2; }
libraries="$(ldd "$binary")"
echo "ldd $binary:"
echo "$libraries" | sed 's/^/  /'
status=0
if echo "$libraries" | grep -Eq 'libjansson|libpcre2'; then
    echo "check-vendored-links: $binary links a system jansson or PCRE2:" >&2
    echo "$libraries" | grep -E 'libjansson|libpcre2' >&2
    status=1
fi
defined="$(nm --defined-only "$binary")"
for symbol in json_loadb pcre2_compile_8 pcre2_match_8; do
    if ! grep -q " T $symbol\$" <<<"$defined"; then
        echo "check-vendored-links: $binary does not define $symbol itself" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "check-vendored-links: $binary links neither libjansson nor libpcre2; json_loadb, pcre2_compile_8 and pcre2_match_8 are its own"
exit "$status"
