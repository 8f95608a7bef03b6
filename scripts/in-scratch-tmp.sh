#!/usr/bin/env bash
# Runs a command with TMPDIR set to a fresh folder under the system's temporary folder, and removes
# that folder when the command ends, however it ends. The tests remove what they make themselves;
# this also takes what the tools under them leave in TMPDIR (SwiftPM's lock files, a browser's
# crash-handler folders), so that `make test` leaves /tmp as it found it.
set -uo pipefail
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bridgekit-make.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" "$@"
