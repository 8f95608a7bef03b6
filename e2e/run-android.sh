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

E2E_NAME=e2e-android E2E_SCRATCH=$scratch
# shellcheck source=e2e/setup.sh
. e2e/setup.sh

[ "$CHROMIUM" = /usr/bin/chromium ] && install_packages
[ -x "$CHROMIUM" ] || setup_failure "Chromium not found at $CHROMIUM"
check_bridgectl

run_harness "$RUN_TIMEOUT_SECONDS" env TMPDIR="$scratch" \
    "$PYTHON" e2e/harness/run_android.py --bridgectl "$BRIDGECTL" --chromium "$CHROMIUM" "$@"
