#!/usr/bin/env bash
# Builds Tests/c/reader_tests.c against the checker with ASan + UBSan and runs it over the
# JSON-Schema-Test-Suite and the contract fixtures: the fast reader must build exactly the
# tree jansson builds, or decline.
# Usage: Tests/c/run-reader-tests.sh     exit 0 when the two agree on every input
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
    -DPCRE2_CODE_UNIT_WIDTH=8 -I"$ROOT/Sources/CSchemaCheck/include" -I"$ROOT/Sources/CSchemaCheck" \
    "$ROOT/Tests/c/reader_tests.c" "$ROOT"/Sources/CSchemaCheck/*.c -ljansson -lpcre2-8 -lm -o "$OUT/reader_tests"
mapfile -t inputs < <(find "$ROOT/Tests/json-schema-test-suite/tests" "$ROOT/contracts" -name '*.json' | sort)
"$OUT/reader_tests" "${inputs[@]}"
