#!/usr/bin/env bash
# Runs a command with TMPDIR set to a fresh folder under the system's temporary folder, and removes
# that folder when the command ends, however it ends. The tests remove what they make themselves;
# this also takes what the tools under them leave in TMPDIR (SwiftPM's lock files, a browser's
# crash-handler folders), so that `make test` leaves /tmp as it found it.
#
# Then it compares the temporary folder's entries with those it had before the command, and prints
# "tmp: NAME left nothing in /tmp" or the new entries. New entries fail the run (exit 1) when
# CI=true; elsewhere they are a warning, since other programs on a developer's machine write there.
# Usage: scripts/in-scratch-tmp.sh [--name NAME] COMMAND [ARGUMENT ...]   (NAME: how to call it)
set -uo pipefail
name=""
if [ "${1:-}" = "--name" ]; then
    name=$2
    shift 2
fi
name=${name:-$1}
system_tmp=${TMPDIR:-/tmp}
entries() { find "$system_tmp" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | LC_ALL=C sort; }
before=$(entries)
scratch=$(mktemp -d "$system_tmp/bridgekit-make.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" "$@"
status=$?
rm -rf "$scratch"
left=$(LC_ALL=C comm -13 <(printf '%s\n' "$before") <(entries))
if [ -z "$left" ]; then
    echo "tmp: $name left nothing in $system_tmp"
elif [ "${CI:-}" = true ]; then
    echo "tmp: $name left these in $system_tmp:" >&2
    sed 's/^/  /' <<<"$left" >&2
    [ "$status" -ne 0 ] || status=1
else
    echo "tmp: warning: new in $system_tmp since $name started (it, or another program, made them):" >&2
    sed 's/^/  /' <<<"$left" >&2
fi
exit "$status"
