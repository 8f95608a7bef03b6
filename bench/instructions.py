#!/usr/bin/env python3
"""The instruction guard: instructions counted by callgrind on two fixed paths, held against
bench/instruction-baseline.json. Instruction counts do not move with the machine's load, so a
change that makes either path dearer than the baseline plus 3% fails, on any machine.

  soak      BridgeHost.receive (and all it calls) over SoakBench's seeded in-process session
            (SoakBench run --messages N): the app's message path, navigator included.
  validate  the whole `bridgectl validate --ndjson CORPUS --jobs 1` process, CORPUS being
            bench/gen_corpus.py's seeded corpus of N lines (generated here, not checked in).

Both run with SWIFT_DETERMINISTIC_HASHING=1, so dictionary order (and with it the work done)
is the same at every run.

usage: bench/instructions.py --soak SOAKBENCH --bridgectl BRIDGECTL [--update] [--tolerance PCT]
  --update     rewrite the baseline with this run's counts (see docs/instruction-guard.md for
               when that is legitimate); otherwise compare, exit 1 above baseline + tolerance.
Exit codes: 0 within the baseline, 1 above it, 2 usage or a run that failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "instruction-baseline.json")
# Fixed inputs: changing them changes the counts, so they live here and in the baseline file.
SOAK_MESSAGES = 5000
CORPUS_LINES = 3000
CORPUS_SEED = 20261129
# Only BridgeHost.receive and what it calls: the session's own set-up and checks are not counted.
RECEIVE = "$s10BridgeHostAAC7receive*"


def fail(message, code=2):
    print(f"instructions: {message}", file=sys.stderr)
    sys.exit(code)


def callgrind(command, work, name, toggle=None):
    """Instructions counted by callgrind for one run of `command` (inside `toggle` if given)."""
    out = os.path.join(work, name + ".out")
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    if toggle:
        valgrind.append(f"--toggle-collect={toggle}")
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    run = subprocess.run(valgrind + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    # bridgectl validate exits 1 when the corpus holds invalid lines (it does, on purpose).
    if run.returncode not in (0, 1) or not os.path.exists(out):
        sys.stderr.write(run.stderr.decode(errors="replace"))
        fail(f"{os.path.basename(command[0])} failed under callgrind (exit {run.returncode})")
    with open(out) as profile:
        for line in profile:
            match = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if match:
                return int(match.group(1))
    fail(f"no instruction total in {out}")


def stripped(executable, work):
    """A copy without DWARF: Debian's valgrind cannot read the DWARF 5 that Swift writes."""
    copy = os.path.join(work, os.path.basename(executable))
    shutil.copy(executable, copy)
    subprocess.run(["strip", "--strip-debug", copy], check=True)
    return copy


def measure(soak, bridgectl):
    with tempfile.TemporaryDirectory() as work:
        soak, bridgectl = stripped(soak, work), stripped(bridgectl, work)
        corpus = os.path.join(work, "corpus.ndjson")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), str(CORPUS_LINES), corpus,
                        os.path.join(work, "expected.txt"), f"--seed={CORPUS_SEED}"], check=True)
        counts = {
            "soak": callgrind([soak, "run", "--messages", str(SOAK_MESSAGES)], work, "soak", toggle=RECEIVE),
            "validate": callgrind([bridgectl, "validate", "--ndjson", corpus, "--jobs", "1"], work, "validate"),
        }
    if counts["soak"] == 0:
        fail(f"callgrind counted nothing in BridgeHost.receive: is {soak} a SoakBench build?")
    return counts


def main():
    parser = argparse.ArgumentParser(add_help=True, usage=__doc__.split("usage: ", 1)[1].split("\n", 1)[0])
    parser.add_argument("--soak", required=True)
    parser.add_argument("--bridgectl", required=True)
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--tolerance", type=float, default=3.0)
    arguments = parser.parse_args()
    for path in (arguments.soak, arguments.bridgectl):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            fail(f"{path!r} is not an executable file")
    started = time.monotonic()
    counts = measure(arguments.soak, arguments.bridgectl)
    seconds = time.monotonic() - started
    per_unit = {"soak": SOAK_MESSAGES, "validate": CORPUS_LINES}
    unit_name = {"soak": "message", "validate": "line"}
    if arguments.update:
        with open(BASELINE, "w") as file:
            json.dump({
                "comment": "Written by bench/instructions.py --update (make instructions-baseline); "
                           "see docs/instruction-guard.md before moving it.",
                "build": "swift build -c release",
                "soak": {"messages": SOAK_MESSAGES, "instructions": counts["soak"]},
                "validate": {"corpusLines": CORPUS_LINES, "corpusSeed": CORPUS_SEED, "instructions": counts["validate"]},
            }, file, indent=2)
            file.write("\n")
        for name, count in counts.items():
            print(f"instructions: {name:<8} {count:>14,} ({count / per_unit[name]:,.0f} per {unit_name[name]}) recorded")
        print(f"instructions: baseline written to {os.path.relpath(BASELINE)} in {seconds:.0f} s; "
              "put the counts in the Figures table of docs/instruction-guard.md (the doc test compares)")
        return 0
    try:
        with open(BASELINE) as file:
            baseline = json.load(file)
    except (OSError, ValueError) as error:
        fail(f"cannot read the baseline {BASELINE}: {error}")
    if baseline["soak"]["messages"] != SOAK_MESSAGES or baseline["validate"]["corpusLines"] != CORPUS_LINES \
            or baseline["validate"]["corpusSeed"] != CORPUS_SEED:
        fail("the baseline was recorded with other inputs: record it again (make instructions-baseline)")
    over = False
    for name, count in counts.items():
        recorded = baseline[name]["instructions"]
        ratio = count / recorded
        verdict = "ok" if ratio <= 1 + arguments.tolerance / 100 else "OVER"
        over = over or verdict == "OVER"
        print(f"instructions: {name:<8} {count:>14,} now, {recorded:>14,} baseline, {ratio:.4f}x "
              f"({count / per_unit[name]:,.0f} per {unit_name[name]}) {verdict}")
    limit = f"baseline + {arguments.tolerance:g}%"
    print(f"instructions: {'above ' + limit if over else 'within ' + limit} ({seconds:.0f} s)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
