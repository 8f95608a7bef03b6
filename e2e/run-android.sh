#!/usr/bin/env bash
# End to end on Android's bridge channels in a real Chromium (Android's WebView is Chromium),
# headless, driven over the DevTools protocol, against `bridgectl host --stdio`.
# Usage: e2e/run-android.sh      (from anywhere; BRIDGECTL=path overrides .build/debug/bridgectl,
#                                 CHROMIUM=path overrides /usr/bin/chromium)
# Output: one `PASS name` / `FAIL name: why` line per scenario, then `N passed, M failed`.
# Exit: 0 all passed, 1 a scenario failed, 2 the run could not start (packages, bridgectl, timeout).
# It installs Debian's chromium when it is missing and fails loudly when it cannot. Everything it
# writes (certificate, Chromium's profile, HOME and TMPDIR) is in one temporary folder, removed on exit.
set -uo pipefail
cd "$(dirname "$0")/.."

readonly PACKAGES=(chromium openssl)
readonly PYTHON=/usr/bin/python3
readonly RUN_TIMEOUT_SECONDS=150          # the Chromium run itself; it takes ~15 s when healthy
BRIDGECTL=${BRIDGECTL:-.build/debug/bridgectl}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/bk-e2e-android.XXXXXX") || { echo "FAIL setup: mktemp failed"; exit 2; }
trap 'rm -rf "$scratch"' EXIT

setup_failure() {
    echo "FAIL setup: $*" >&2
    echo "FAIL setup: $*"
    echo "0 passed, 1 failed"
    exit 2
}

missing_packages() {
    local package
    for package in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || echo "$package"
    done
}

install_packages() {
    local missing log="$scratch/apt.log"
    missing=$(missing_packages)
    [ -z "$missing" ] && return 0
    echo "e2e-android: installing missing packages: $(echo $missing)"
    local apt=(apt-get)
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || setup_failure "packages missing ($(echo $missing)) and not root, no sudo"
        apt=(sudo apt-get)
    fi
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >"$log" 2>&1; then
        echo "e2e-android: apt-get install failed; running apt-get update and retrying"
        timeout 300 "${apt[@]}" update >>"$log" 2>&1
        # shellcheck disable=SC2086
        timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >>"$log" 2>&1 \
            || setup_failure "could not install $(echo $missing): $(tail -n 2 "$log" | tr '\n' ' ')"
    fi
    missing=$(missing_packages)
    [ -z "$missing" ] || setup_failure "still missing after apt-get install: $(echo $missing)"
}

[ "$CHROMIUM" = /usr/bin/chromium ] && install_packages
[ -x "$CHROMIUM" ] || setup_failure "Chromium not found at $CHROMIUM"
[ -x "$BRIDGECTL" ] || setup_failure "bridgectl not found at $BRIDGECTL (run 'swift build' or set BRIDGECTL)"
"$BRIDGECTL" host --help >/dev/null 2>&1 || setup_failure "$BRIDGECTL has no working 'host' command"
[ -f js/bridge.js ] || setup_failure "js/bridge.js is missing (run 'bridgectl generate js')"

output="$scratch/output.txt"
TMPDIR="$scratch" timeout --kill-after=10 "$RUN_TIMEOUT_SECONDS" \
    "$PYTHON" e2e/harness/run_android.py --bridgectl "$BRIDGECTL" --chromium "$CHROMIUM" "$@" | tee "$output"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    # The harness never printed its summary: count what it did print, plus the timeout itself.
    echo "FAIL e2e-android-finishes-in-time: killed after ${RUN_TIMEOUT_SECONDS}s"
    echo "$(grep -c '^PASS ' "$output") passed, $(( $(grep -c '^FAIL ' "$output") + 1 )) failed"
    status=2
fi
exit "$status"
