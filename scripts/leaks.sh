#!/usr/bin/env bash
# Leak and memory-error check of bridgectl with AddressSanitizer + LeakSanitizer.
#   scripts/leaks.sh [BRIDGECTL]     default: builds bridgectl with ASan + UBSan in
#                                    .build-asan-ubsan (sanitizers.sh's build)
# Runs: validate on a valid, an invalid and a garbage file; validate --ndjson on a mixed
# stream; host --stdio on a scripted session. Any LeakSanitizer or AddressSanitizer report
# fails the run. (valgrind 3.19 from Debian cannot read the DWARF 5 the Swift toolchain
# emits and gives up on the binary, so LeakSanitizer is the leak checker here.)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
command -v jq >/dev/null || { echo "leaks: jq is not installed (apt-get install jq)" >&2; exit 2; }
BRIDGECTL="${1:-}"
if [ -z "$BRIDGECTL" ]; then
    # shellcheck source=scripts/sanitizer-flags.sh
    . scripts/sanitizer-flags.sh
    # The build runs ASan-built build tools too; their leaks are not bridgectl's.
    ASAN_OPTIONS=detect_leaks=0 swift build --product bridgectl "${ASAN_UBSAN_FLAGS[@]}" \
        --scratch-path "$ASAN_UBSAN_SCRATCH" >&2 || { echo "leaks: ASan build failed" >&2; exit 2; }
    BRIDGECTL="$(swift build "${ASAN_UBSAN_FLAGS[@]}" --scratch-path "$ASAN_UBSAN_SCRATCH" --show-bin-path)/bridgectl"
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Inputs.
cp Examples/messages/apply.json "$WORK/valid.json"
cp Examples/messages/apply-invalid.json "$WORK/invalid.json"
printf '{"v":1,"id":"abc\xff\xfe' >"$WORK/garbage.json"
head -c 3000 /dev/urandom >>"$WORK/garbage.json"
{
    jq -c . Examples/messages/apply.json
    jq -c . Examples/messages/apply-invalid.json
    echo '{"v":1,"action":"apply","version":1,"payload":{"slug":"a","slug":"b"}}'
    echo 'not json at all'
    echo '[1,2,3]'
} >"$WORK/stream.ndjson"
valid_body="$(jq -c . Examples/messages/apply.json)"
{
    echo '{"type":"open","url":"https://sendy.co.kr/event/new-user-promo?campaign_id=c1&utm_source=kakaotalk","source":"kakaotalk"}'
    jq -cn --argjson b "$valid_body" '{type:"message",body:$b}'
    jq -cn --argjson b "$valid_body" '{type:"message",body:$b}'
    echo '{"type":"message","body":"{\"v\":1,\"id\":\"abcdefgh12\",\"action\":\"nope\",\"version\":1,\"payload\":{}}"}'
    echo '{"type":"message","body":"{broken","origin":"https://sendy.co.kr.evil.example"}'
    echo '{"type":"message","bodyBase64":"/w==","isMainFrame":false}'
    echo '{"type":"logout"}'
    jq -cn --argjson b "$valid_body" '{type:"message",body:($b + {id:"another-id-0001"})}'
    echo '{"type":"login"}'
    echo '{"type":"state","state":"coldStart"}'
    echo '{"type":"ready"}'
    echo 'this line is not JSON'
} >"$WORK/session.jsonl"

failures=0
summary=()
# run NAME EXPECTED_EXIT_CODES STDIN ARGS...
run() {
    local name="$1" expected="$2" input="$3"
    shift 3
    local err="$WORK/$name.err"
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" "$BRIDGECTL" "$@" <"$input" >"$WORK/$name.out" 2>"$err"
    local status=$?
    local verdict="ok"
    if grep -qE 'ERROR: (LeakSanitizer|AddressSanitizer)' "$err"; then
        verdict="LEAK OR MEMORY ERROR (see below)"
        failures=$((failures + 1))
        grep -A20 'ERROR: ' "$err" | head -40
    elif [[ " $expected " != *" $status "* ]]; then
        verdict="UNEXPECTED EXIT $status (expected $expected)"
        failures=$((failures + 1))
        head -5 "$WORK/$name.out" "$err"
    fi
    summary+=("$(printf '%-16s exit=%-3s %s' "$name" "$status" "$verdict")")
}

run validate-valid "0" /dev/null validate "$WORK/valid.json"
run validate-invalid "1" /dev/null validate "$WORK/invalid.json"
run validate-garbage "1 2" /dev/null validate "$WORK/garbage.json"
if "$BRIDGECTL" validate --help 2>&1 | grep -c -- '--ndjson' >/dev/null; then
    run validate-ndjson "0 1" "$WORK/stream.ndjson" validate --ndjson -
else
    echo "leaks: SKIPPED validate --ndjson: this bridgectl has no --ndjson option yet" >&2
    summary+=("validate-ndjson  SKIPPED (no --ndjson option)")
fi
run host-stdio "0" "$WORK/session.jsonl" host --stdio --manual-clock

echo "---- leak check summary (ASan + LeakSanitizer; any report = failure) ----"
printf '%s\n' "${summary[@]}"
if [ "$failures" -ne 0 ]; then
    echo "leaks: $failures run(s) failed"
    exit 1
fi
echo "leaks: no leaks, no memory errors (${#summary[@]} runs)"
