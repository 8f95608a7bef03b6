#!/usr/bin/env bash
# Runs the whole Swift test suite under AddressSanitizer and UndefinedBehaviorSanitizer, each
# mode in its own scratch path so the normal .build stays usable. The C checker is compiled with
# the same sanitizers by SwiftPM.
#   scripts/sanitizers.sh [asan+ubsan|asan|ubsan]...     default: asan+ubsan
# The default builds and runs once with both (as the fuzz targets do): the same reports as the
# two separate runs, for one build and one test run instead of two.
# Prints the build and test time of each; exit 1 when a run fails.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/sanitizer-flags.sh
. scripts/sanitizer-flags.sh
MODES=("$@")
[ ${#MODES[@]} -eq 0 ] && MODES=(asan+ubsan)
# The build-tool executable (EmbedResourcesTool) is built with the sanitizer too and keeps its
# file data alive until exit, which LeakSanitizer reports; leaks are checked by
# scripts/leaks.sh (valgrind) and by the fuzz runs instead. ASan errors still fail the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=0
summary=()
for mode in "${MODES[@]}"; do
    case "$mode" in
        asan+ubsan) scratch=$ASAN_UBSAN_SCRATCH; flags=("${ASAN_UBSAN_FLAGS[@]}") ;;
        asan) scratch=.build-asan; flags=(--sanitize=address) ;;
        ubsan) scratch=.build-ubsan; flags=("${UBSAN_FLAGS[@]}") ;;
        *) echo "sanitizers: unknown mode $mode (asan+ubsan, asan or ubsan)" >&2; exit 2 ;;
    esac
    echo "== $mode: swift build --build-tests ${flags[*]} --scratch-path $scratch"
    start=$(date +%s)
    if ! swift build --build-tests "${flags[@]}" --scratch-path "$scratch"; then
        summary+=("$mode: BUILD FAILED after $(( $(date +%s) - start ))s")
        failed=1
        continue
    fi
    built=$(date +%s)
    echo "== $mode: swift test ${flags[*]}"
    log="$scratch/sanitizer-test.log"
    swift test --skip-build "${flags[@]}" --scratch-path "$scratch" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    done_at=$(date +%s)
    # A sanitizer report fails the run even when the test process exit code does not show it.
    if grep -qE 'ERROR: AddressSanitizer|runtime error:' "$log"; then status=1; fi
    result="ok"
    [ "$status" -ne 0 ] && { result="FAILED"; failed=1; }
    summary+=("$mode: $result (build $((built - start))s, tests $((done_at - built))s)")
done
echo "---- sanitizer summary ----"
printf '%s\n' "${summary[@]}"
exit "$failed"
