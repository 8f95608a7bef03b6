#!/usr/bin/env bash
# Runs the whole Swift test suite under AddressSanitizer and under UndefinedBehaviorSanitizer,
# each in its own scratch path (.build-asan, .build-ubsan) so the normal .build stays usable.
# The C checker is compiled with the same sanitizer by SwiftPM.
#   scripts/sanitizers.sh [asan|ubsan]...     default: both
# Prints the build and test time of each; exit 1 when a run fails.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
MODES=("$@")
[ ${#MODES[@]} -eq 0 ] && MODES=(asan ubsan)
# The build-tool executable (EmbedResourcesTool) is built with the sanitizer too and keeps its
# file data alive until exit, which LeakSanitizer reports; leaks are checked by
# scripts/leaks.sh (valgrind) and by the fuzz runs instead. ASan errors still fail the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=0
summary=()
for mode in "${MODES[@]}"; do
    case "$mode" in
        # swiftc has no -sanitize=undefined on Linux (and Swift code traps on overflow by
        # itself), so UBSan instruments the C checker, and clang links its runtime.
        asan) scratch=.build-asan; flags=(--sanitize=address) ;;
        ubsan) scratch=.build-ubsan
               flags=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
                      -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined) ;;
        *) echo "sanitizers: unknown mode $mode (asan or ubsan)" >&2; exit 2 ;;
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
