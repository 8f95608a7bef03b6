#!/usr/bin/env bash
# Builds the Swift fuzz targets (host, url) into OUT_DIR/fuzz-host and OUT_DIR/fuzz-url.
# The package is assembled under OUT_DIR/package from fuzz/swift and depends on the main
# package by path; everything is built with libFuzzer coverage and AddressSanitizer.
# Usage: fuzz/swift/build.sh OUT_DIR
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:?usage: build.sh OUT_DIR}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
PKG="$OUT/package"
mkdir -p "$PKG"
rm -rf "$PKG/Sources"
cp -R "$ROOT/fuzz/swift/Sources" "$PKG/Sources"
identity="$(basename "$ROOT" | tr '[:upper:]' '[:lower:]')"
sed -e "s|@ROOT@|$ROOT|g" -e "s|@IDENTITY@|$identity|g" "$ROOT/fuzz/swift/Package.swift.in" >"$PKG/Package.swift.new"
cmp -s "$PKG/Package.swift.new" "$PKG/Package.swift" 2>/dev/null || mv "$PKG/Package.swift.new" "$PKG/Package.swift"
rm -f "$PKG/Package.swift.new"
cd "$PKG"
# Not --sanitize=fuzzer: that makes swiftc parse every main.swift as a library (libFuzzer owns
# main), which breaks the package's build-tool executable. Coverage flags plus libFuzzer
# without its main instead; the targets call LLVMFuzzerRunDriver themselves.
TOOLCHAIN="$(dirname "$(readlink -f "$(command -v swift)")")/.."
FUZZER_LIB="$(ls "$TOOLCHAIN"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1)"
[ -n "$FUZZER_LIB" ] || { echo "no libclang_rt.fuzzer_no_main in the Swift toolchain" >&2; exit 2; }
FLAGS=(--sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
       -Xcc -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp -Xlinker "$FUZZER_LIB" -Xlinker -lstdc++)
# The build-tool executable (EmbedResourcesTool) is ASan-built too; LeakSanitizer would fail
# the build on what it keeps alive until exit. Leaks are checked in the fuzz runs instead.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
swift build --scratch-path "$OUT/scratch" "${FLAGS[@]}"
bin="$(swift build --scratch-path "$OUT/scratch" "${FLAGS[@]}" --show-bin-path)"
cp "$bin/FuzzHost" "$OUT/fuzz-host"
cp "$bin/FuzzURL" "$OUT/fuzz-url"
