#!/usr/bin/env bash
# End to end in a real WebKit (WebKitGTK under Xvfb) against `bridgectl host --stdio`.
# Usage: e2e/run.sh            (from anywhere; BRIDGECTL=path overrides .build/debug/bridgectl)
# Output: one `PASS name` / `FAIL name: why` line per scenario, then `N passed, M failed`.
# Exit: 0 all passed, 1 a scenario failed, 2 the run could not start (packages, bridgectl, timeout).
# It installs its own Debian packages when they are missing and fails loudly when it cannot.
# What it writes (the apt log, the output it counts) is in one temporary folder, removed on exit.
set -uo pipefail
cd "$(dirname "$0")/.."

readonly PACKAGES=(xvfb xauth gir1.2-webkit2-4.1 python3-gi glib-networking openssl)
readonly PYTHON=/usr/bin/python3          # Debian's python3, where python3-gi installs
readonly RUN_TIMEOUT_SECONDS=150          # the WebKit run itself; it takes ~10 s when healthy
BRIDGECTL=${BRIDGECTL:-.build/debug/bridgectl}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/bk-e2e.XXXXXX") || { echo "FAIL setup: mktemp failed"; exit 2; }
trap 'rm -rf "$scratch"' EXIT
E2E_NAME=e2e E2E_SCRATCH=$scratch
# shellcheck source=e2e/setup.sh
. e2e/setup.sh

install_packages
"$PYTHON" -c 'import gi; gi.require_version("Gtk", "3.0"); gi.require_version("WebKit2", "4.1"); from gi.repository import WebKit2' \
    || setup_failure "$PYTHON cannot load WebKit2 4.1 through gi"
check_bridgectl

# Headless machine: no GPU, so no accelerated compositing; software GL for anything left.
export WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1
# Keep WebKit's bubblewrap sandbox when the machine allows user namespaces; say so when it does not.
if ! bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1; then
    echo "e2e: bubblewrap cannot create a sandbox here; running WebKit without its web process sandbox"
    export WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1
fi
export NO_AT_BRIDGE=1 GDK_BACKEND=x11

run_harness "$RUN_TIMEOUT_SECONDS" env TMPDIR="$scratch" xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp" \
    "$PYTHON" e2e/harness/run_e2e.py --bridgectl "$BRIDGECTL" "$@"
