#!/usr/bin/env bash
# bench/run.sh: bridgectl against the best JSON Schema validators, side by side (not part of
# `make test`). Builds bridgectl in release mode, installs the peers into bench/.venv from
# PyPI, compiles the parse-only floors (jansson's, and bridgectl's own fast reader), then
# bench/run.py generates the seeded corpus, times everything as whole processes and prints the
# report and the targets (PASS/FAIL). Exit 1 when the validators disagree on any message.
#
# The measured bridgectl is `make release`: the Swift runtime and FoundationEssentials linked in
# (--static-swift-stdlib), not position-independent, the way the command-line tool is shipped;
# without static linking about a third of a single-file run is the dynamic loader binding
# libswiftCore and FoundationEssentials.
# The ordinary dynamic release build is built too (scratch path + "-dynamic") and its
# single-file latency printed next to it, so both numbers are in every report.
#
# Environment: BENCH_SCRATCH (swift scratch path, default .build), BENCH_MESSAGES (200000),
# BENCH_ARGS (more options for bench/run.py, e.g. "--runs 5").
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${BENCH_SCRATCH:-.build}"
out=bench/out
mkdir -p "$out"

command -v gcc >/dev/null || { echo "bench: gcc is needed for the parse floor" >&2; exit 2; }
make -s release RELEASE_SCRATCH="$scratch"
bridgectl="$scratch/release/bridgectl"
swift build -c release --scratch-path "$scratch-dynamic" --product bridgectl
bridgectl_dynamic="$scratch-dynamic/release/bridgectl"
# Route matching at 10 and 10,000 routes: a bench tool of its own, not a bridgectl command.
swift build -c release --scratch-path "$scratch-dynamic" --product RouteBench
route_bench="$scratch-dynamic/release/RouteBench"

# Peers, pinned so numbers compare across runs.
if [ ! -x bench/.venv/bin/python ]; then python3 -m venv bench/.venv; fi
bench/.venv/bin/python -m pip install -q --disable-pip-version-check \
    "jsonschema-rs==0.61.2" "orjson==3.13.0" "fastjsonschema==2.22.3" "jsonschema==4.26.0" "check-jsonschema==0.39.0"

# The floors: jansson alone, and bridgectl's own parse (the checker's sources, same -O2).
gcc -O2 -Wall -Wextra -DPCRE2_CODE_UNIT_WIDTH=8 -ISources/CSchemaCheck/include -o "$out/parse_floor" \
    bench/parse_floor.c Sources/CSchemaCheck/*.c $(pkg-config --cflags --libs jansson libpcre2-8) -lm

exec bench/.venv/bin/python bench/run.py --bridgectl "$bridgectl" --bridgectl-dynamic "$bridgectl_dynamic" --parse-floor "$out/parse_floor" --route-bench "$route_bench" \
    --venv bench/.venv --out "$out" --messages "${BENCH_MESSAGES:-200000}" ${BENCH_ARGS:-}
