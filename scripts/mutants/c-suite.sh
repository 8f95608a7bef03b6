#!/usr/bin/env bash
# The C checker alone against the JSON-Schema-Test-Suite (every draft's required files, fast and full
# mode): builds Tests/c/suite_runner with gcc, no Swift build, so a mutant of a keyword file costs
# seconds. Exit 1 when a case fails. Used by scripts/mutants/mutants.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${MUTANTS_SCRATCH:-/tmp/bridgekit-c-suite}/c-out"
make -s -f Tests/c/Makefile OUT="$out" "$out/suite_runner"
for draft in draft2020-12 draft2019-09 draft7 draft6 draft4; do
    "$out/suite_runner" Tests/json-schema-test-suite metaschemas "$draft" | tail -n 1
done
