#!/usr/bin/env bash
# Instructions executed inside BridgeHost.receive over the soak session, counted by callgrind:
# a measure of the work per message that does not move with the machine's load (wall-clock
# latency on a shared 2-core machine does). Pass two builds to compare them on the same session.
# Also the misses of a simulated 1 MiB last-level cache (an L2 per core: 1 MiB on the machine
# these figures began on): each goes to the L3 that other tenants share, which is where a
# message's latency tail comes from.
#
# Usage: bench/soak-instructions.sh SOAKBENCH [SOAKBENCH ...] [--messages N] [--host async|callback]
#          [--cache KIB] [--per-message]
#   SOAKBENCH: a SoakBench executable (make soak builds .build/release/SoakBench).
#   --host: the app's host in the session (SoakBench run --host; async, the default, or callback).
#   --cache: the simulated last-level cache in KiB, a power of two from 64 (default 1024): a
#     smaller one is the share of the L2 left when a neighbour on the same core uses the rest.
#   --per-message: instead, each valid message's own count (a callgrind dump after each
#     receive; about 95 KB of temporary files per message, so a few thousand messages): the
#     median, p90, p99 and maximum over the valid messages and by kind. Instructions do not
#     move with the machine, so this is the code's own tail, to hold against a run's latency tail.
# Prints, for each build: instructions in BridgeHost.receive (with everything it calls), per
# message, and as a ratio to the first build given; then last-level misses per message (all, and
# those fetching code); then the locked (atomic) instructions, reference-count calls, object
# allocations and mallocs per message.
set -euo pipefail
cd "$(dirname "$0")/.."
# What was typed, with control characters shown as '?' rather than sent to the terminal.
shown() { printf '%s' "${1//[[:cntrl:]]/?}"; }
messages=5000
host=async
per_message=false
cache_kib=1024
builds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --messages)
            [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "soak-instructions: --messages needs a positive integer, not '$(shown "${2:-}")'" >&2; exit 2; }
            messages="$2"; shift 2 ;;
        --host)
            [[ "${2:-}" =~ ^(async|callback)$ ]] || { echo "soak-instructions: --host is async or callback, not '$(shown "${2:-}")'" >&2; exit 2; }
            host="$2"; shift 2 ;;
        --cache)
            [[ "${2:-}" =~ ^(64|128|256|512|1024|2048|4096|8192|16384|32768)$ ]] || { echo "soak-instructions: --cache is a power of two of KiB from 64 to 32768, not '$(shown "${2:-}")'" >&2; exit 2; }
            cache_kib="$2"; shift 2 ;;
        --per-message) per_message=true; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        -*) echo "soak-instructions: unknown option $(shown "$1") (see --help)" >&2; exit 2 ;;
        *) builds+=("$1"); shift ;;
    esac
done
[ ${#builds[@]} -gt 0 ] || { echo "usage: bench/soak-instructions.sh SOAKBENCH [SOAKBENCH ...] [--messages N] [--host async|callback] [--cache KIB] [--per-message]" >&2; exit 2; }
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
# One message's count: a dump after each call of the receive that takes the body's bytes (the one
# SoakBench calls), its number the message's; SoakBench's --latencies file names each valid one.
per_message_counts() {
    local copy="$1" build="$2" receive
    receive=$(nm "$copy" | awk '$2 == "T" && $3 ~ /^\$s10BridgeHostAAC7receive4body6origin11isMainFrame5replyySays5UInt8VG_/ && !found { print $3; found = 1 }')
    [ -n "$receive" ] || { echo "soak-instructions: $(shown "$build") has no BridgeHost.receive(body: [UInt8] ...) to dump after" >&2; exit 1; }
    rm -rf "$work/dumps" && mkdir "$work/dumps"
    valgrind --tool=callgrind --toggle-collect='$s10BridgeHostAAC7receive*' --dump-after="$receive" \
        --callgrind-out-file="$work/dumps/count" \
        "$copy" run --messages "$messages" --latencies "$work/valid" "${host_args[@]}" >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    awk '/^summary:/ { number = FILENAME; sub(/.*\./, "", number); print number, $2; nextfile }' "$work"/dumps/count.* > "$work/counts"
    python3 - "$build" "$work/counts" "$work/valid" <<'PY'
import signal, sys
from collections import defaultdict
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (| head) ends it quietly
build, counts_path, valid_path = sys.argv[1:]
counts = dict(map(int, line.split()) for line in open(counts_path))
by_kind = defaultdict(list)
heaviest = []
for line in open(valid_path):
    number, kind, _ = line.split()
    if int(number) in counts:
        by_kind[kind].append(counts[int(number)])
        heaviest.append((counts[int(number)], int(number), kind))
if not heaviest:
    sys.exit("soak-instructions: no valid message was counted")
def row(name, values):
    values = sorted(values)
    at = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return (f"  {name:<32} n={len(values):<6} p50 {at(0.5):>8,}  p90 {at(0.9):>8,}  p99 {at(0.99):>8,}"
            f"  max {values[-1]:>9,}  (p99/p50 {at(0.99) / at(0.5):.2f})")
print(f"{build}: instructions in BridgeHost.receive per valid message with a reply")
print(row("all valid", [count for count, _, _ in heaviest]))
for kind in sorted(by_kind):
    print(row(kind, by_kind[kind]))
print("  heaviest: " + ", ".join(f"#{number} {kind} {count:,}" for count, number, kind in sorted(heaviest, reverse=True)[:5]))
PY
}

# The atomic read-modify-writes per message: executions of the binary's locked instructions (a lock
# prefix, or xchg with memory) in the profile, which is what reference counting (swift_retain and
# swift_release, weak references) and the task runtime cost; each is a full barrier, about 5 ns on
# this machine, cheap in instructions and dear in time, so they are counted apart. Also the calls
# of swift_retain and swift_release (many are on immortal objects and take no lock), object
# allocations and mallocs. Needs a profile made with --dump-instr=yes.
reference_counting() {
    objdump -d --no-show-raw-insn "$2" > "$work/disassembly"
    python3 - "$1" "$work/disassembly" "$messages" <<'PY'
import re, sys
from collections import Counter
profile, disassembly, messages = sys.argv[1], sys.argv[2], int(sys.argv[3])
locked, function = {}, None
for line in open(disassembly):
    if line.endswith(">:\n"):
        function = line.split("<", 1)[1][:-3]
    else:
        match = re.match(r"\s+([0-9a-f]+):\s+(?:lock\b|xchg\s+\S*\()", line)
        if match:
            locked[int(match.group(1), 16)] = function
names, objects, calls = {}, {}, Counter()
executed = Counter()
callee, in_binary, address, call_line = None, False, 0, False
def step(position):
    global address
    if position.startswith("0x"):
        address = int(position, 16)
    elif position[0] in "+-":
        offset = int(position[1:], 16) if position[1:].startswith("0x") else int(position[1:])
        address += offset if position[0] == "+" else -offset
for line in open(profile):
    head = line[:1]
    if head in "0+-*" and line[:2] != "--":
        fields = line.split()
        step(fields[0])
        if call_line:  # a call's inclusive cost, not this instruction's own
            call_line = False
        elif in_binary and address in locked and len(fields) > 2:
            executed[locked[address]] += int(fields[2])
    elif line.startswith(("ob=", "cob=")):
        match = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
        if match.group(2):
            objects[match.group(1)] = match.group(2)
        if line.startswith("ob="):
            in_binary = objects[match.group(1)].endswith("/SoakBench")
    elif line.startswith(("fn=", "cfn=")):
        match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
        if match and match.group(2):
            names[match.group(1)] = match.group(2)
        if line.startswith("cfn="):
            callee = names.get(match.group(1)) if match else None
    elif line.startswith("calls="):
        if callee is not None:
            calls[callee.split("'")[0]] += int(line[6:].split()[0])
        callee, call_line = None, True
def per_message(*functions):
    return sum(calls[function] for function in functions) / messages
total = sum(executed.values()) / messages
weak = sum(count for name, count in executed.items() if "weak" in name.lower() or "WeakReference" in name) / messages
print(f"{'':40} {total:6.1f} locked (atomic) instructions per message, {weak:5.1f} of them for weak references; "
      f"{per_message('swift_retain', 'swift_retain_n'):.1f} retain and {per_message('swift_release', 'swift_release_n'):.1f} release calls, "
      f"{per_message('swift_allocObject'):.1f} object allocations, {per_message('malloc'):.1f} mallocs")
PY
}

first=""
for build in "${builds[@]}"; do
    # Valgrind cannot read the DWARF of the static release build; the symbols are enough.
    copy="$work/SoakBench"
    cp "$build" "$copy"
    strip --strip-debug "$copy"
    if $per_message; then
        per_message_counts "$copy" "$build"
        continue
    fi
    valgrind --tool=callgrind --toggle-collect='$s10BridgeHostAAC7receive*' --callgrind-out-file="$work/out" \
        --dump-instr=yes --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=$((cache_kib * 1024)),16,64 \
        "$copy" run --messages "$messages" "${host_args[@]}" >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    # Events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw; the totals line has each with its percentage.
    read -r total misses code_misses < <(callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen {
        gsub(/\([^)]*\)/, ""); gsub(",", ""); print $1, $7 + $8 + $9, $7; seen = 1 }')
    [ -n "$total" ] && [ "$total" -gt 0 ] || { echo "soak-instructions: callgrind counted nothing in BridgeHost.receive" >&2; exit 1; }
    [ -n "$first" ] || first="$total"
    awk -v build="$build" -v total="$total" -v first="$first" -v n="$messages" -v misses="$misses" -v code="$code_misses" -v kib="$cache_kib" \
        'BEGIN { printf "%-40s %14.0f instructions in BridgeHost.receive, %8.0f per message, %.2fx the first; %5.1f misses of a %d KiB last-level cache per message (%.1f for code)\n", build, total, total / n, total / first, misses / n, kib, code / n }'
    reference_counting "$work/out" "$copy"
done
