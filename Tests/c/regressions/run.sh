#!/usr/bin/env bash
# Replays every saved fuzz input under Tests/c/regressions/<target>/ through that target's
# harness (fuzz/fuzz_<target>.c), built without libFuzzer but with ASan + UBSan, so a
# crash the fuzzer once found stays fixed. The harness invariants (fast and full
# validation agree, output units well formed) are checked for each input.
# Usage: Tests/c/regressions/run.sh     exit 0 all pass, 1 a regression failed, 2 build error
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
HERE="$ROOT/Tests/c/regressions"
# The build goes to OUT when given (kept), else to a temporary folder removed on exit.
if [ -z "${OUT:-}" ]; then
    OUT="$(mktemp -d)"
    trap 'rm -rf "$OUT"' EXIT
fi
CLANG="${CLANG:-/opt/swift/usr/bin/clang}"
command -v "$CLANG" >/dev/null || CLANG=clang
mkdir -p "$OUT"
LD=""
"$CLANG" -fuse-ld=lld -x c -o /dev/null - <<<"int main(void){return 0;}" 2>/dev/null && LD="-fuse-ld=lld"
FLAGS="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
 -DPCRE2_CODE_UNIT_WIDTH=8 -I$ROOT/Sources/CSchemaCheck/include -I$ROOT/Sources/CSchemaCheck -I$ROOT/Tests/c -DBRIDGEKIT_ROOT=\"$ROOT\""
failed=0
total=0
for dir in "$HERE"/*/; do
    target="$(basename "$dir")"
    [ -f "$ROOT/fuzz/fuzz_$target.c" ] || continue
    inputs=("$dir"*)
    [ -e "${inputs[0]}" ] || continue
    # shellcheck disable=SC2086
    if ! "$CLANG" $FLAGS $LD "$ROOT/fuzz/fuzz_$target.c" "$ROOT/fuzz/standalone_main.c" "$ROOT"/Sources/CSchemaCheck/*.c \
        -ljansson -lpcre2-8 -lm -o "$OUT/replay_$target"; then
        echo "regressions: cannot build the $target replayer" >&2
        exit 2
    fi
    for input in "${inputs[@]}"; do
        total=$((total + 1))
        if timeout 60 "$OUT/replay_$target" "$input" >/dev/null 2>"$OUT/last.err"; then
            echo "PASS $target/$(basename "$input")"
        else
            echo "FAIL $target/$(basename "$input")"
            head -5 "$OUT/last.err"
            failed=$((failed + 1))
        fi
    done
done
echo "C fuzz regressions: $((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
