#!/bin/sh
# Compiles and runs Tests/c/regex_format_tests.c against the regex and format sources of
# CSchemaCheck: once with -Wall -Wextra -Werror, once with ASan+UBSan.
# Usage: Tests/c/run-regex-format-tests.sh [suite-dir]
# SC_EXTRA_CFLAGS is added to the compile (make test-c passes -DSC_REGEX_NO_JIT for a no-JIT run).
# The suite dir defaults to $JSON_SCHEMA_TEST_SUITE, then to a copy in the repo, then to
# ../shared/json-schema-test-suite. The last line printed is "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src="$root/Sources/CSchemaCheck"

suite=${1:-${JSON_SCHEMA_TEST_SUITE:-}}
if [ -z "$suite" ]; then
    for d in "$root/Tests/JSON-Schema-Test-Suite" "$root/Tests/json-schema-test-suite" \
             "$root/Tests/Resources/JSON-Schema-Test-Suite" "$root/../shared/json-schema-test-suite" \
             /work/shared/json-schema-test-suite; do
        if [ -d "$d/tests/draft2020-12" ]; then suite=$d; break; fi
    done
fi

sources="$here/regex_format_tests.c $src/regex_ecma.c $src/regex_simple.c $src/format.c"
for f in "$src"/format_*.c; do [ -e "$f" ] && sources="$sources $f"; done
flags="-std=c11 -Wall -Wextra -Werror -pthread ${SC_EXTRA_CFLAGS:-} -I$src $(pkg-config --cflags libpcre2-8 jansson)"
libs="$(pkg-config --libs libpcre2-8 jansson)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

total_pass=0
total_fail=0
status=0
for mode in plain sanitized; do
    if [ $mode = plain ]; then extra="-O2"; else extra="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"; fi
    echo "== $mode build"
    # shellcheck disable=SC2086
    if ! gcc $flags $extra -o "$out/t_$mode" $sources $libs; then
        echo "compile failed ($mode)"
        total_fail=$((total_fail + 1))
        status=1
        continue
    fi
    "$out/t_$mode" ${suite:+"$suite"} > "$out/log_$mode" 2>&1
    rc=$?
    if [ $mode = plain ]; then cat "$out/log_$mode"; else grep -v '^  ' "$out/log_$mode"; fi
    last=$(tail -n 1 "$out/log_$mode")
    p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=1; echo "($mode run crashed or printed no summary, exit $rc)"; fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    [ $rc -ne 0 ] && status=1
done
echo "$total_pass passed, $total_fail failed"
[ $status -eq 0 ] && [ $total_fail -eq 0 ]
