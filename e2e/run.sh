#!/usr/bin/env bash
# End to end in a real WebKit (WebKitGTK under Xvfb) against `bridgectl host --stdio`.
# Usage: e2e/run.sh            (from anywhere; BRIDGECTL=path overrides .build/debug/bridgectl)
# Output: one `PASS name` / `FAIL name: why` line per scenario, then `N passed, M failed`.
# Exit: 0 all passed, 1 a scenario failed, 2 the run could not start (packages, bridgectl, timeout).
# It installs its own Debian packages when they are missing and fails loudly when it cannot.
set -uo pipefail
cd "$(dirname "$0")/.."

readonly PACKAGES=(xvfb xauth gir1.2-webkit2-4.1 python3-gi glib-networking openssl)
readonly PYTHON=/usr/bin/python3          # Debian's python3, where python3-gi installs
readonly RUN_TIMEOUT_SECONDS=150          # the WebKit run itself; it takes ~10 s when healthy
BRIDGECTL=${BRIDGECTL:-.build/debug/bridgectl}

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
    local missing
    missing=$(missing_packages)
    [ -z "$missing" ] && return 0
    echo "e2e: installing missing packages: $(echo $missing)"
    local apt=(apt-get)
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || setup_failure "packages missing ($(echo $missing)) and not root, no sudo"
        apt=(sudo apt-get)
    fi
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >/tmp/bridgekit-e2e-apt.log 2>&1; then
        echo "e2e: apt-get install failed; running apt-get update and retrying"
        timeout 300 "${apt[@]}" update >>/tmp/bridgekit-e2e-apt.log 2>&1
        # shellcheck disable=SC2086
        timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >>/tmp/bridgekit-e2e-apt.log 2>&1 \
            || setup_failure "could not install $(echo $missing) (log: /tmp/bridgekit-e2e-apt.log: $(tail -n 2 /tmp/bridgekit-e2e-apt.log | tr '\n' ' '))"
    fi
    missing=$(missing_packages)
    [ -z "$missing" ] || setup_failure "still missing after apt-get install: $(echo $missing)"
}

install_packages
"$PYTHON" -c 'import gi; gi.require_version("Gtk", "3.0"); gi.require_version("WebKit2", "4.1"); from gi.repository import WebKit2' \
    || setup_failure "$PYTHON cannot load WebKit2 4.1 through gi"
[ -x "$BRIDGECTL" ] || setup_failure "bridgectl not found at $BRIDGECTL (run 'swift build' or set BRIDGECTL)"
"$BRIDGECTL" host --help >/dev/null 2>&1 || setup_failure "$BRIDGECTL has no working 'host' command"
[ -f js/bridge.js ] || setup_failure "js/bridge.js is missing (run 'bridgectl generate js')"

# Headless machine: no GPU, so no accelerated compositing; software GL for anything left.
export WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1
# Keep WebKit's bubblewrap sandbox when the machine allows user namespaces; say so when it does not.
if ! bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1; then
    echo "e2e: bubblewrap cannot create a sandbox here; running WebKit without its web process sandbox"
    export WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1
fi
export NO_AT_BRIDGE=1 GDK_BACKEND=x11

output=$(mktemp /tmp/bridgekit-e2e-output.XXXXXX)
trap 'rm -f "$output"' EXIT
timeout --kill-after=10 "$RUN_TIMEOUT_SECONDS" \
    xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" \
    "$PYTHON" e2e/harness/run_e2e.py --bridgectl "$BRIDGECTL" "$@" | tee "$output"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    # The harness never printed its summary: count what it did print, plus the timeout itself.
    echo "FAIL e2e-finishes-in-time: killed after ${RUN_TIMEOUT_SECONDS}s"
    echo "$(grep -c '^PASS ' "$output") passed, $(( $(grep -c '^FAIL ' "$output") + 1 )) failed"
    status=2
fi
rm -f "$output"
exit "$status"
