#!/usr/bin/env bash
# Runs bridgectl under valgrind memcheck and fails on memory definitely lost in our code.
#   scripts/leaks.sh [BRIDGECTL]     default: builds .build/debug/bridgectl (swift build)
# Runs: validate on a valid, an invalid and a garbage file; validate --ndjson on a mixed
# stream (skipped loudly when the option is missing); host --stdio on a scripted session.
# "definitely lost" counts as a leak. "possibly lost" and "still reachable" do not: the
# Swift runtime keeps metadata caches and type descriptors alive until exit, and its
# interior pointers look "possible" to valgrind (scripts/leaks/swift.supp documents the rest).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
command -v valgrind >/dev/null || { echo "leaks: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
BRIDGECTL="${1:-}"
if [ -z "$BRIDGECTL" ]; then
    swift build --product bridgectl >&2 || { echo "leaks: build failed" >&2; exit 2; }
    BRIDGECTL="$(swift build --show-bin-path)/bridgectl"
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Inputs.
cp examples/apply.json "$WORK/valid.json"
cp examples/apply-invalid.json "$WORK/invalid.json"
printf '{"v":1,"id":"abc\xff\xfe' >"$WORK/garbage.json"
head -c 3000 /dev/urandom >>"$WORK/garbage.json"
{
    jq -c . examples/apply.json
    jq -c . examples/apply-invalid.json
    echo '{"v":1,"action":"apply","version":1,"payload":{"slug":"a","slug":"b"}}'
    echo 'not json at all'
    echo '[1,2,3]'
} >"$WORK/stream.ndjson"
valid_body="$(jq -c . examples/apply.json)"
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
    local log="$WORK/$name.valgrind"
    valgrind --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --error-exitcode=99 --suppressions="$ROOT/scripts/leaks/swift.supp" --log-file="$log" \
        "$BRIDGECTL" "$@" <"$input" >"$WORK/$name.out" 2>&1
    local status=$?
    local definite errors
    definite="$(grep -o 'definitely lost: [0-9,]* bytes in [0-9,]* blocks' "$log" | tail -1)"
    errors="$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$log" | tail -1)"
    local verdict="ok"
    if [ "$status" -eq 99 ]; then
        verdict="LEAK OR MEMORY ERROR (see below)"
        failures=$((failures + 1))
        grep -A12 'definitely lost in\|Invalid read\|Invalid write\|uninitialised' "$log" | head -40
    elif [[ " $expected " != *" $status "* ]]; then
        verdict="UNEXPECTED EXIT $status (expected $expected)"
        failures=$((failures + 1))
        head -5 "$WORK/$name.out"
    fi
    summary+=("$(printf '%-16s exit=%-3s %-40s %-24s %s' "$name" "$status" "${definite:-definitely lost: 0 bytes}" "${errors:-?}" "$verdict")")
}

run validate-valid "0" /dev/null validate "$WORK/valid.json"
run validate-invalid "1" /dev/null validate "$WORK/invalid.json"
run validate-garbage "1 2" /dev/null validate "$WORK/garbage.json"
if "$BRIDGECTL" validate --help 2>&1 | grep -q -- '--ndjson'; then
    run validate-ndjson "0 1" "$WORK/stream.ndjson" validate --ndjson -
else
    echo "leaks: SKIPPED validate --ndjson: this bridgectl has no --ndjson option yet" >&2
    summary+=("validate-ndjson  SKIPPED (no --ndjson option)")
fi
run host-stdio "0" "$WORK/session.jsonl" host --stdio --manual-clock

echo "---- leak check summary (valgrind memcheck, definitely lost = failure) ----"
printf '%s\n' "${summary[@]}"
if [ "$failures" -ne 0 ]; then
    echo "leaks: $failures run(s) failed"
    exit 1
fi
echo "leaks: no memory definitely lost, no memory errors"
