# Sourced by sanitizers.sh and leaks.sh: the swift build flags of the sanitized builds, in one
# place so that leaks.sh reuses the build sanitizers.sh made (same flags, same scratch path).
# swiftc has no -sanitize=undefined on Linux (and Swift code traps on overflow by itself), so
# UBSan instruments the C checker, and clang links its runtime.
# shellcheck shell=bash disable=SC2034
UBSAN_FLAGS=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
             -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
ASAN_UBSAN_FLAGS=(--sanitize=address "${UBSAN_FLAGS[@]}")
ASAN_UBSAN_SCRATCH=.build-asan-ubsan
