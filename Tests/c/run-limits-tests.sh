#!/usr/bin/env bash
# Builds Tests/c/limits_tests.c against the checker with ASan + UBSan and runs it.
# Usage: Tests/c/run-limits-tests.sh     exit 0 when every limit holds
# SC_EXTRA_CFLAGS is added to the compile (make test-c passes -DSC_REGEX_NO_JIT for a no-JIT run).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# The build goes to OUT when given (kept), else to a temporary folder removed on exit.
if [ -z "${OUT:-}" ]; then
    OUT="$(mktemp -d)"
    trap 'rm -rf "$OUT"' EXIT
fi
CC="${CC:-/opt/swift/usr/bin/clang}"
command -v "$CC" >/dev/null || CC=clang
mkdir -p "$OUT"
LD=""
"$CC" -fuse-ld=lld -x c -o /dev/null - <<<'int main(void){return 0;}' 2>/dev/null && LD="-fuse-ld=lld"
"$CC" -std=c11 -g -O1 -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=undefined $LD \
    -DPCRE2_CODE_UNIT_WIDTH=8 ${SC_EXTRA_CFLAGS:-} -I"$ROOT/Sources/CSchemaCheck/include" -I"$ROOT/Sources/CSchemaCheck" \
    "$ROOT/Tests/c/limits_tests.c" "$ROOT"/Sources/CSchemaCheck/*.c -ljansson -lpcre2-8 -lm -o "$OUT/limits_tests"
"$OUT/limits_tests"
