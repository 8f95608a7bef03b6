#!/usr/bin/env bash
# Instructions executed inside BridgeHost.receive over the soak session, counted by callgrind:
# a measure of the work per message that does not move with the machine's load (wall-clock
# latency on a shared 2-core machine does). Pass two builds to compare them on the same session.
# Also the misses of a simulated 1 MiB last-level cache (this machine's L2 per core): each goes to
# the L3 that other tenants share, which is where a message's latency tail comes from.
#
# Usage: bench/soak-instructions.sh SOAKBENCH [SOAKBENCH ...] [--messages N] [--host async|callback]
#   SOAKBENCH: a SoakBench executable (make soak builds .build/release/SoakBench).
#   --host: the app's host in the session (SoakBench run --host; async, the default, or callback).
# Prints, for each build: instructions in BridgeHost.receive (with everything it calls), per
# message, and as a ratio to the first build given; then last-level misses per message.
set -euo pipefail
cd "$(dirname "$0")/.."
# What was typed, with control characters shown as '?' rather than sent to the terminal.
shown() { printf '%s' "${1//[[:cntrl:]]/?}"; }
messages=5000
host=async
builds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --messages)
            [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "soak-instructions: --messages needs a positive integer, not '$(shown "${2:-}")'" >&2; exit 2; }
            messages="$2"; shift 2 ;;
        --host)
            [[ "${2:-}" =~ ^(async|callback)$ ]] || { echo "soak-instructions: --host is async or callback, not '$(shown "${2:-}")'" >&2; exit 2; }
            host="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "soak-instructions: unknown option $(shown "$1") (see --help)" >&2; exit 2 ;;
        *) builds+=("$1"); shift ;;
    esac
done
[ ${#builds[@]} -gt 0 ] || { echo "usage: bench/soak-instructions.sh SOAKBENCH [SOAKBENCH ...] [--messages N] [--host async|callback]" >&2; exit 2; }
scripts/ensure-deps.sh valgrind
# Only when asked: builds from before SoakBench had --host still compare on the async host.
host_args=()
[ "$host" = async ] || host_args=(--host "$host")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every build checked before the first (a minute-long) count, so a typo in the last one fails at once.
for build in "${builds[@]}"; do
    [ -f "$build" ] && [ -x "$build" ] || { echo "soak-instructions: $(shown "$build") is not an executable file" >&2; exit 2; }
    # Not `nm | grep -q`: grep stops at the first hit, nm dies of SIGPIPE and pipefail calls it a miss.
    grep -q 's10BridgeHostAAC7receive' < <(nm "$build" 2>/dev/null) \
        || { echo "soak-instructions: $(shown "$build") is not a SoakBench build (no BridgeHost.receive in its symbols)" >&2; exit 2; }
done
first=""
for build in "${builds[@]}"; do
    # Valgrind cannot read the DWARF of the static release build; the symbols are enough.
    copy="$work/SoakBench"
    cp "$build" "$copy"
    strip --strip-debug "$copy"
    valgrind --tool=callgrind --toggle-collect='$s10BridgeHostAAC7receive*' --callgrind-out-file="$work/out" \
        --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64 \
        "$copy" run --messages "$messages" "${host_args[@]}" >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    # Events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw; the totals line has each with its percentage.
    read -r total misses < <(callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen {
        gsub(/\([^)]*\)/, ""); gsub(",", ""); print $1, $7 + $8 + $9; seen = 1 }')
    [ -n "$total" ] && [ "$total" -gt 0 ] || { echo "soak-instructions: callgrind counted nothing in BridgeHost.receive" >&2; exit 1; }
    [ -n "$first" ] || first="$total"
    awk -v build="$build" -v total="$total" -v first="$first" -v n="$messages" -v misses="$misses" \
        'BEGIN { printf "%-40s %14.0f instructions in BridgeHost.receive, %8.0f per message, %.2fx the first; %5.1f last-level misses per message\n", build, total, total / n, total / first, misses / n }'
done
