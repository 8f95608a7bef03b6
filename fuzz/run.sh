#!/usr/bin/env bash
# Builds and runs every fuzz target for a bounded time with ASan + UBSan (+ LeakSanitizer,
# on by default under libFuzzer), then prints per target: executions, corpus size, crashes.
#
#   fuzz/run.sh [SECONDS]        SECONDS per target, default 60
#   FUZZ_TARGETS="validate compile" fuzz/run.sh 30    run a subset
#
# Targets:
#   compile   C: sc_compile_document on arbitrary JSON (registry holds the meta-schemas)
#   validate  C: arbitrary bytes -> sc_parse -> sc_is_valid and sc_validate on the contract
#             schemas; the two modes must agree
#   parse     C: arbitrary bytes -> sc_parse with the fast reader on and with jansson alone,
#             under three sets of limits; the results must agree (Tests/c/parse_agreement.h)
#   regex     C: a pattern and a subject; a pattern on the checker's fast path must answer as
#             PCRE2 answers the same pattern in a group
#   host      Swift: BridgeHost.receive on arbitrary sessions (fuzz/swift, libFuzzer driver)
#   url       Swift: DeeplinkHandler URL parsing (fuzz/swift, libFuzzer driver)
# Everything goes to fuzz/out/ (git-ignored). Crash inputs: fuzz/out/artifacts/<target>/.
# Exit status: 0 when every target ran and found nothing, 1 on any crash, leak, timeout
# or out-of-memory, 2 when a target could not be built. A slow or timed-out unit that replays
# within the timeout three times was a machine stall: kept in fuzz/out/stalls/<target>/, not counted.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
TARGETS="${FUZZ_TARGETS:-compile validate parse regex host url}"
OUT="$ROOT/fuzz/out"
BUILD="$OUT/build"
CLANG="${CLANG:-/opt/swift/usr/bin/clang}"
command -v "$CLANG" >/dev/null || CLANG=clang
mkdir -p "$BUILD" "$OUT/artifacts" "$OUT/logs"

log() { printf '[fuzz] %s\n' "$*" >&2; }

# ---- build ------------------------------------------------------------------------------
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-std=c11 -g -O1 -Wall -Wextra $SAN -DPCRE2_CODE_UNIT_WIDTH=8 \
 -I$ROOT/Sources/CSchemaCheck/include -I$ROOT/Sources/CSchemaCheck -I$ROOT/Tests/c -DBRIDGEKIT_ROOT=\"$ROOT\""
LDLIBS="-ljansson -lpcre2-8 -lm"
LDFLAGS=""
"$CLANG" -fuse-ld=lld -x c -o /dev/null - <<<'int main(void){return 0;}' 2>/dev/null && LDFLAGS="-fuse-ld=lld"

build_checker_objects() {
    mkdir -p "$BUILD/checker"
    local source object
    for source in "$ROOT"/Sources/CSchemaCheck/*.c; do
        object="$BUILD/checker/$(basename "$source" .c).o"
        if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ -n "$(find "$ROOT/Sources/CSchemaCheck" -name '*.h' -newer "$object")" ]; then
            # shellcheck disable=SC2086
            "$CLANG" $CFLAGS -fsanitize=fuzzer-no-link -c "$source" -o "$object" || return 1
        fi
    done
}

build_c_target() {
    local name="$1"
    # shellcheck disable=SC2086
    "$CLANG" $CFLAGS $LDFLAGS -fsanitize=fuzzer "$ROOT/fuzz/fuzz_$name.c" "$BUILD"/checker/*.o $LDLIBS \
        -o "$BUILD/fuzz_$name"
}

SWIFT_BUILT=""
build_swift_targets() {
    [ -n "$SWIFT_BUILT" ] && return "$SWIFT_BUILT"
    log "building the Swift fuzz package (fuzz/swift): ASan + libFuzzer coverage"
    if "$ROOT/fuzz/swift/build.sh" "$BUILD/swift" >"$OUT/logs/swift-build.log" 2>&1; then
        SWIFT_BUILT=0
    else
        tail -20 "$OUT/logs/swift-build.log" >&2
        SWIFT_BUILT=1
    fi
    return "$SWIFT_BUILT"
}

# ---- run ----------------------------------------------------------------------------------
# A unit libFuzzer timed as slow or timed out on (10 s) is replayed three times: an input that
# hangs is slow again, while a stall of the shared machine (the VM paused for seconds, every unit
# of that moment slow alike) is not. Prints the replay times; status 0 when each replay ran
# and ended within the timeout.
replays_in_time() {
    local binary="$1" unit="$2" times="" start elapsed
    for _ in 1 2 3; do
        start="$(date +%s.%N)"
        BRIDGEKIT_ROOT="$ROOT" timeout 30 "$binary" -timeout=10 -rss_limit_mb=2048 "$unit" >/dev/null 2>&1 \
            || { echo "${times:+$times, then }failed or hung"; return 1; }
        elapsed="$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')"
        times="${times:+$times, }${elapsed} s"
        awk -v e="$elapsed" 'BEGIN { exit !(e < 10) }' || { echo "$times"; return 1; }
    done
    echo "$times"
}

[ -d "$OUT/corpus/validate" ] && [ -d "$OUT/corpus/parse" ] && [ -d "$OUT/corpus/regex" ] || "$ROOT/fuzz/build-corpus.sh" "$OUT/corpus" >&2

declare -A EXECS CORPUS CRASHES STATUS
ANY_CRASH=0
ANY_BUILD_FAILURE=0
if [[ " $TARGETS " == *" compile "* || " $TARGETS " == *" validate "* || " $TARGETS " == *" parse "* || " $TARGETS " == *" regex "* ]]; then
    log "building the checker objects with ASan + UBSan + fuzzer coverage"
    build_checker_objects || { log "checker build failed"; exit 2; }
fi

for target in $TARGETS; do
    binary=""
    case "$target" in
        compile|validate|parse|regex)
            if build_c_target "$target"; then binary="$BUILD/fuzz_$target"; fi ;;
        host|url)
            if build_swift_targets; then binary="$BUILD/swift/fuzz-$target"; fi ;;
        *) log "unknown target $target"; exit 2 ;;
    esac
    if [ -z "$binary" ] || [ ! -x "$binary" ]; then
        STATUS[$target]="BUILD FAILED"; EXECS[$target]="-"; CORPUS[$target]="-"; CRASHES[$target]="-"
        ANY_BUILD_FAILURE=1
        continue
    fi
    corpus="$OUT/corpus/$target"
    artifacts="$OUT/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    before="$(find "$artifacts" -type f | wc -l)"
    started="$OUT/logs/$target.started"
    touch "$started"
    log "running $target for ${SECONDS_PER_TARGET}s"
    # -timeout: one input taking 10 s is a hang and counts as a failure ("no hang").
    BRIDGEKIT_ROOT="$ROOT" "$binary" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" \
        >"$OUT/logs/$target.log" 2>&1
    rc=$?
    stalls=0
    while IFS= read -r unit; do
        if times="$(replays_in_time "$binary" "$unit")"; then
            mkdir -p "$OUT/stalls/$target"
            mv "$unit" "$OUT/stalls/$target/"
            stalls=$((stalls + 1))
            log "$target: $(basename "$unit") was slow once and replays in $times: the machine stalled, not the input (kept in fuzz/out/stalls/$target/)"
        else
            log "$target: $(basename "$unit") is slow again on replay ($times): counted"
        fi
    done < <(find "$artifacts" -type f \( -name 'slow-unit-*' -o -name 'timeout-*' \) -newer "$started")
    after="$(find "$artifacts" -type f | wc -l)"
    # libFuzzer stops at a timeout (exit 70); one that was a stall leaves nothing behind to count.
    stopped_by_stall=0
    if [ "$rc" -eq 70 ] && [ "$stalls" -gt 0 ] && [ "$after" -eq "$before" ]; then rc=0; stopped_by_stall=1; fi
    EXECS[$target]="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/logs/$target.log" | grep -o '[0-9]*$' | tail -1)"
    CORPUS[$target]="$(find "$corpus" -type f | wc -l)"
    CRASHES[$target]=$((after - before))
    if [ "$rc" -ne 0 ] || [ "${CRASHES[$target]}" -ne 0 ]; then
        STATUS[$target]="FAILED (exit $rc)"
        ANY_CRASH=1
        grep -m3 -E 'ERROR: |fuzz invariant failed|runtime error|Test unit written' "$OUT/logs/$target.log" >&2
    else
        STATUS[$target]="ok"
        [ "$stalls" -eq 0 ] || STATUS[$target]="ok ($stalls slow unit(s) replayed in time: machine stalls)"
        [ "$stopped_by_stall" -eq 0 ] || STATUS[$target]="ok (stopped early at a machine stall; its unit replays in time)"
    fi
    printf '%-9s executions=%-10s corpus=%-6s crashes=%-3s %s\n' "$target" "${EXECS[$target]:-?}" \
        "${CORPUS[$target]}" "${CRASHES[$target]}" "${STATUS[$target]}"
done

echo "---- fuzz summary (${SECONDS_PER_TARGET}s per target, ASan+UBSan, logs in fuzz/out/logs) ----"
for target in $TARGETS; do
    printf '%-9s executions=%-10s corpus=%-6s crashes=%-3s %s\n' "$target" "${EXECS[$target]:-?}" \
        "${CORPUS[$target]:-?}" "${CRASHES[$target]:-?}" "${STATUS[$target]:-?}"
done
if [ "$ANY_CRASH" -ne 0 ]; then
    echo "fuzz: FAILED, crash inputs are in fuzz/out/artifacts/ (reproduce: fuzz/out/build/fuzz_<target> FILE)"
    exit 1
fi
if [ "$ANY_BUILD_FAILURE" -ne 0 ]; then
    echo "fuzz: a target could not be built (see above)"
    exit 2
fi
echo "fuzz: all targets ran, no crash"
