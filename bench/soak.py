#!/usr/bin/env python3
"""The soak benchmark: one long seeded session (bench/soak/SoakSession.swift) through
`bridgectl host --stdio` and through BridgeHost + DeeplinkNavigator in process (SoakBench run),
at two lengths. Prints, for each path, the peak memory of the long run against the short one
(the short run is the peer), the in-process per-message latency of the long run against its
target, and whether anything was lost (every request answered exactly once, every envelope
consumed exactly once). Each measurement is the median of --rounds runs (the machine is shared).
Also the same session with a CallbackNavigationHost against the async host, the runs alternating:
what the async adapter costs a message, and a check that both hosts answer the session alike.

Exit status: 1 when something was lost in any run, the two hosts answered differently, or a
peak-memory ratio is over its target,
0 otherwise (latency is reported PASS/FAIL against its target but does not fail the run: it is a
wall-clock figure on a shared machine); 2 when a run could not start.

Usage: bench/soak.py run --bridgectl PATH --soak PATH [--messages 20000,500000] [--rounds 3] [--seed 1]
                         [--short] [--host-args "..."]
       bench/soak.py instructions SOAKBENCH [SOAKBENCH ...] [--messages 5000] [--host async|callback]
                                  [--cache 1024]

`instructions` counts, under callgrind, the instructions executed inside BridgeHost.receive over
the same session: the work per message, which does not move with the machine's load. Pass two
builds to compare them. For each build, one line: the total, per message, the ratio to the first
build, and the misses of a simulated last-level cache (--cache KiB); then the locked (atomic)
instructions, retain and release calls, object allocations and mallocs per message. Exit status
2 when an argument or a build is wrong, 1 when callgrind counted nothing.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import sys
import time
from collections import Counter

MEMORY_TARGET = 1.5
MEMORY_PEER_FALLBACK_KIB = 1024
LATENCY_TARGET_US = 20.0
HOST_ARGS = "--manual-clock --detail-latency 150 --tab-latency 50"


def wait_for(process):
    """wait4 on one child: (exit status, resource usage of that child alone)."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage


def summary_of(text):
    for line in text.splitlines():
        if line.startswith("summary "):
            return json.loads(line[len("summary "):])
    return None


def run_stdio(args, messages):
    """session | bridgectl host --stdio | check; returns the host's peak RSS and CPU, and the check."""
    session = subprocess.Popen([args.soak, "session", "--messages", str(messages), "--seed", str(args.seed)],
                               stdout=subprocess.PIPE)
    started = time.monotonic()
    host = subprocess.Popen([args.bridgectl, "host", "--stdio"] + args.host_args.split(),
                            stdin=session.stdout, stdout=subprocess.PIPE)
    session.stdout.close()
    check = subprocess.Popen([args.soak, "check", "--messages", str(messages), "--seed", str(args.seed)],
                             stdin=host.stdout, stdout=subprocess.PIPE, text=True)
    host.stdout.close()
    host_status, host_usage = wait_for(host)
    wall = time.monotonic() - started
    report = check.stdout.read()
    check_status, _ = wait_for(check)
    session_status, _ = wait_for(session)
    if host_status != 0 or session_status != 0:
        print(f"soak: host --stdio exited {host_status}, session {session_status}", file=sys.stderr)
        sys.exit(2)
    summary = summary_of(report)
    if summary is None:
        print(f"soak: the check printed no summary:\n{shown(report)}", file=sys.stderr)
        sys.exit(2)
    return {
        "peak_mib": host_usage.ru_maxrss / 1024,
        "cpu_us": (host_usage.ru_utime + host_usage.ru_stime) * 1e6 / messages,
        "wall": wall,
        "report": report,
        "lost": check_status != 0 or summary["problems"] != 0,
        "summary": summary,
    }


def run_in_process(args, messages, host="async"):
    # --host only when it is not the default, so a SoakBench from before the option still runs.
    host_args = [] if host == "async" else ["--host", host]
    process = subprocess.Popen([args.soak, "run", "--messages", str(messages), "--seed", str(args.seed)] + host_args,
                               stdout=subprocess.PIPE, text=True)
    report = process.stdout.read()
    status, usage = wait_for(process)
    summary = summary_of(report)
    if summary is None:
        print(f"soak: SoakBench run exited {status} without a summary:\n{shown(report)}", file=sys.stderr)
        sys.exit(2)
    return {
        "peak_mib": usage.ru_maxrss / 1024,
        "cpu_us": summary["cpuSeconds"] * 1e6 / messages,
        "wall": summary["wallSeconds"],
        "report": report,
        "lost": status != 0 or summary["problems"] != 0,
        "summary": summary,
    }


def level2_cache_kib():
    """The L2 of CPU 0 in KiB as the kernel reports it, and where the figure came from: the memory
    peer reads that much (machines differ: 1 MiB per core on one, 2 MiB on another)."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(name for name in os.listdir(base) if name.startswith("index")):
            with open(os.path.join(base, index, "level")) as level, open(os.path.join(base, index, "type")) as kind:
                if level.read().strip() != "2" or kind.read().strip() not in ("Unified", "Data"):
                    continue
            with open(os.path.join(base, index, "size")) as size:
                text = size.read().strip()
            units = {"K": 1, "M": 1024}
            if text[-1:] in units and text[:-1].isdigit():
                return int(text[:-1]) * units[text[-1]], "the L2 of one core here"
    except OSError:
        pass
    return MEMORY_PEER_FALLBACK_KIB, "an assumed L2: the kernel does not report this machine's"


def run_noise(args, microseconds, working_set_kib=0, samples=100_000):
    """The latency's peers: a fixed loop with the valid message's median, timed like it. In registers,
    its tail is what the machine takes from computing (other tenants, interrupts); over a working set
    of this machine's L2 size, also what it takes from a task that touches memory (the shared L3)."""
    output = subprocess.run([args.soak, "noise", "--microseconds", f"{microseconds:.2f}", "--samples", str(samples),
                             "--working-set", str(working_set_kib)],
                            stdout=subprocess.PIPE, text=True, check=False).stdout
    return summary_of(output)


def repeatable_spikes(args, messages, runs=3):
    """Valid messages over twice their run's median in every one of `runs` runs of the same seeded
    session: the machine's hiccups land on different messages each run, so what is slow every
    time is work the code does at that point (a batch drop, a rehash, a first use)."""
    slow = None
    latencies = []
    with tempfile.TemporaryDirectory() as directory:
        for index in range(runs):
            path = os.path.join(directory, f"latencies-{index}.txt")
            subprocess.run([args.soak, "run", "--messages", str(messages), "--seed", str(args.seed), "--latencies", path],
                           stdout=subprocess.DEVNULL, check=False)
            if not os.path.exists(path):
                return None
            with open(path) as file:
                rows = {int(number): (kind, int(nanoseconds)) for number, kind, nanoseconds in (line.split() for line in file)}
            if not rows:
                return None
            middle = statistics.median(nanoseconds for _, nanoseconds in rows.values())
            over = {number for number, (_, nanoseconds) in rows.items() if nanoseconds > 2 * middle}
            slow = over if slow is None else slow & over
            latencies.append(rows)
    worst = sorted(slow, key=lambda number: -min(rows[number][1] for rows in latencies))
    return {
        "count": len(slow),
        "messages": len(latencies[0]),
        "worst": [(number, latencies[0][number][0], min(rows[number][1] for rows in latencies) / 1000) for number in worst[:6]],
    }


def host_comparison(args, messages, rounds):
    """The async host against a CallbackNavigationHost on the same session, the runs alternating so
    the machine's minute is the same for both: what the async adapter (a task per asynchronous step)
    costs a message. Medians of the rounds, or None when a run lost something."""
    runs = {"async": [], "callback": []}
    for _ in range(max(1, rounds)):
        for host in ("async", "callback"):
            run = run_in_process(args, messages, host)
            if run["lost"]:
                return None
            runs[host].append(run)

    def answers(run):
        # What the session came to: the replies by code, the envelopes' outcomes, what the app saw.
        return [line for line in run["report"].splitlines() if line.startswith(("replies:", "envelope outcomes:", "app:"))]

    reference = answers(runs["async"][0])
    figures = {host: {"p50": median([run["summary"]["valid"]["p50"] for run in host_runs]),
                      "p99": median([run["summary"]["valid"]["p99"] for run in host_runs]),
                      "cpu_us": median([run["cpu_us"] for run in host_runs])}
               for host, host_runs in runs.items()}
    figures["alike"] = all(answers(run) == reference for host_runs in runs.values() for run in host_runs)
    if not figures["alike"]:
        for run in runs["callback"][:1]:
            print("  async host answered:\n    " + "\n    ".join(reference) + "\n  callback host answered:\n    "
                  + "\n    ".join(answers(run)))
    return figures


def message_counts(text):
    """--messages: the short and the long run, two positive integers, the short one smaller."""
    parts = text.split(",")
    if len(parts) != 2 or not all(part.isdigit() and int(part) > 0 for part in parts) or int(parts[0]) >= int(parts[1]):
        raise argparse.ArgumentTypeError(f"must be two positive message counts, the short run first (20000,500000), not {typed(text)}")
    return int(parts[0]), int(parts[1])


def positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {typed(text)}")
    return int(text)


def typed(text):
    """What was typed, quoted, with control characters escaped rather than sent to the terminal."""
    return repr(text)


def shown(text):
    """Another program's output as text to read: control characters other than newline and tab
    escaped, so an executable that is not SoakBench cannot steer the terminal."""
    return "".join(c if c in "\n\t" or (c.isprintable() and c != "\x7f") else repr(c)[1:-1] for c in text)


def median(values):
    return statistics.median(values)


def run_main(argv):
    parser = argparse.ArgumentParser(prog="bench/soak.py run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bridgectl", required=True)
    parser.add_argument("--soak", required=True, help="the SoakBench executable")
    parser.add_argument("--messages", type=message_counts, default=(20000, 500000),
                        help="the short and the long run, e.g. 20000,500000")
    parser.add_argument("--rounds", type=positive_int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--host-args", default=HOST_ARGS)
    parser.add_argument("--short", action="store_true",
                        help="CI: latency is printed, not judged (a debug build on a shared machine)")
    args = parser.parse_args(argv)
    short_n, long_n = args.messages
    for path in (args.bridgectl, args.soak):
        if not os.access(path, os.X_OK):
            print(f"soak: {typed(path)} is not an executable", file=sys.stderr)
            return 2

    print(f"soak: seed {args.seed}, {short_n} and {long_n} messages, {args.rounds} round(s) each; figures are medians of the rounds")
    print(f"  bridgectl {args.bridgectl}, SoakBench {args.soak}")
    results = {}
    for path, runner in (("stdio", run_stdio), ("in-process", run_in_process)):
        for n in (short_n, long_n):
            runs = []
            for round_number in range(args.rounds):
                run = runner(args, n)
                runs.append(run)
                state = "LOST" if run["lost"] else "ok"
                print(f"  {path} {n} round {round_number + 1}: peak {run['peak_mib']:.1f} MiB, {run['cpu_us']:.1f} us CPU/msg, "
                      f"{run['wall']:.1f} s, {state}", flush=True)
            results[(path, n)] = runs

    def peak(path, n):
        return median([run["peak_mib"] for run in results[(path, n)]])

    def cpu(path, n):
        return median([run["cpu_us"] for run in results[(path, n)]])

    lost = any(run["lost"] for runs in results.values() for run in runs)
    print()
    print(f"host --stdio {args.host_args} (peak RSS of the host process, from wait4):")
    for n in (short_n, long_n):
        print(f"  {n:>7} messages  peak {peak('stdio', n):6.1f} MiB  {cpu('stdio', n):6.1f} us CPU/msg")
    stdio_ratio = peak("stdio", long_n) / peak("stdio", short_n)
    print(f"  ratio {long_n} / {short_n}: {stdio_ratio:.2f}x (peer: the {short_n}-message run)")
    print("  " + results[("stdio", long_n)][-1]["report"].strip().replace("\n", "\n  "))

    print()
    print("in process: BridgeHost + DeeplinkNavigator (async NavigationHost, SystemNavigationClock), SoakBench run:")
    for n in (short_n, long_n):
        print(f"  {n:>7} messages  peak {peak('in-process', n):6.1f} MiB  {cpu('in-process', n):6.1f} us CPU/msg")
    process_ratio = peak("in-process", long_n) / peak("in-process", short_n)
    print(f"  ratio {long_n} / {short_n}: {process_ratio:.2f}x (peer: the {short_n}-message run)")
    long_runs = results[("in-process", long_n)]
    print(f"  latency of the {long_n}-message run, us, median of {args.rounds} run(s) "
          "(from BridgeHost.receive to its reply callback, monotonic clock):")

    def latency_row(name, pick):
        values = [pick(run["summary"]) for run in long_runs]
        n = values[-1]["n"]
        p50 = median([value["p50"] for value in values])
        p99 = median([value["p99"] for value in values])
        worst = median([value["max"] for value in values])
        print(f"    {name:<58} n={n:<7} p50 {p50:7.1f}  p99 {p99:7.1f}  max {worst:9.1f}")
        return p99

    valid_p99 = latency_row("valid, all with a reply", lambda summary: summary["valid"])
    valid_p50 = median([run["summary"]["valid"]["p50"] for run in long_runs])
    for category in long_runs[-1]["summary"]["categories"]:
        latency_row(category, lambda summary, name=category: summary["categories"][name])
    latency_row("synchronous part of receive, valid", lambda summary: summary["synchronous"])
    peer_kib, peer_source = level2_cache_kib()
    peers = [] if args.short else [
        ("a fixed busy loop in registers", run_noise(args, valid_p50)),
        (f"dependent reads over {peer_kib} KiB ({peer_source})", run_noise(args, valid_p50, peer_kib)),
    ]
    for name, noise in peers:
        if noise is None:
            print(f"  peer ({name}): SoakBench noise printed no summary; the machine's own tail is not measured in this run")
            continue
        print(f"  peer, the machine's own tail: {name}, calibrated to the same median (SoakBench noise), {noise['samples']} timings:"
              f" p50 {noise['p50']:.1f}  p99 {noise['p99']:.1f}  max {noise['max']:.1f}; p99/p50 {noise['p99'] / noise['p50']:.2f}"
              f" against the valid message's {valid_p99 / valid_p50:.2f}")
    spikes = None if args.short else repeatable_spikes(args, short_n)
    if spikes is None and not args.short:
        print("  repeatable spikes: not measured (SoakBench run --latencies wrote no latencies)")
    if spikes:
        shown = ", ".join(f"#{number} {kind} {latency:.1f}" for number, kind, latency in spikes["worst"])
        print(f"  repeatable spikes: {spikes['count']} of {spikes['messages']} valid messages over twice the median in each of 3 runs "
              f"of {short_n} (work at that point, not the machine){': ' + shown + ' us (least of the runs)' if shown else ''}")
    # Long enough that the first thousands of messages (warm-up) do not decide it; in --short (CI,
    # a debug build) one pair of the short run, for the check that both hosts answer alike.
    comparison_n, comparison_rounds = (short_n, 1) if args.short else (min(long_n, 100_000), args.rounds)
    hosts = host_comparison(args, comparison_n, comparison_rounds)
    if hosts is None:
        lost = True
        print("  async host against a callback host: a run lost something (SoakBench run --host async|callback --messages "
              f"{comparison_n} says what)")
    if hosts:
        a, c = hosts["async"], hosts["callback"]
        print(f"  the async NavigationHost against a CallbackNavigationHost (no adapter, no task per step), {comparison_n} messages, "
              f"alternating, median of {max(1, comparison_rounds)}: valid p50 {a['p50']:.1f} / {c['p50']:.1f} us, p99 {a['p99']:.1f} / "
              f"{c['p99']:.1f} us, CPU {a['cpu_us']:.1f} / {c['cpu_us']:.1f} us per message; callback/async p50 {c['p50'] / a['p50']:.2f}x, "
              f"p99 {c['p99'] / a['p99']:.2f}x{' (printed, not judged, in --short)' if args.short else ''}")
    print("  " + long_runs[-1]["report"].strip().split("\n", 1)[0])
    for line in long_runs[-1]["report"].strip().splitlines():
        if line.startswith(("replies:", "envelope outcomes:", "largest seen", "nothing lost", "LOST", "  - ")):
            print("  " + line)

    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other work; wall-clock latency moves with it)")
    print("targets:")
    failed = False

    def target(ok, text, value, gating=True):
        nonlocal failed
        if not ok and gating:
            failed = True
        print(f"  {'PASS' if ok else 'FAIL'}  {text:<62} {value}")

    target(stdio_ratio <= MEMORY_TARGET, f"host --stdio peak memory, {long_n} within {MEMORY_TARGET}x of {short_n}", f"{stdio_ratio:.2f}x")
    target(process_ratio <= MEMORY_TARGET, f"in-process peak memory, {long_n} within {MEMORY_TARGET}x of {short_n}", f"{process_ratio:.2f}x")
    if args.short:
        print(f"  (not judged in --short: in-process p99 of a valid message {valid_p99:.1f} us; target {LATENCY_TARGET_US} us on a release build)")
    else:
        target(valid_p99 <= LATENCY_TARGET_US, f"in-process p99 of a valid message <= {LATENCY_TARGET_US:.0f} us", f"{valid_p99:.1f} us",
               gating=False)
        if valid_p99 > LATENCY_TARGET_US:
            print("        (a wall-clock figure on a shared machine: `bench/soak.py instructions` counts the work per"
                  " message, which does not move with the machine's load)")
    target(not lost, "nothing lost (every run, both paths)", "ok" if not lost else "LOST")
    if hosts:
        target(hosts["alike"], "the async and the callback host answer the session alike", "same" if hosts["alike"] else "DIFFERENT")
    return 1 if failed else 0


# ---- instructions: the work per message under callgrind ------------------------------------

RECEIVE_SYMBOL = "s10BridgeHostAAC7receive"
LOCKED = re.compile(r"\s+([0-9a-f]+):\s+(?:lock\b|xchg\s+\S*\()")


def cache_kib(text):
    if text not in {str(1 << bits) for bits in range(6, 16)}:
        raise argparse.ArgumentTypeError(f"is a power of two of KiB from 64 to 32768, not {typed(text)}")
    return int(text)


def is_soak_bench(path):
    """An executable whose symbols hold BridgeHost.receive (nm's whole output read: no early exit)."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return False
    symbols = subprocess.run(["nm", path], capture_output=True, text=True).stdout
    return RECEIVE_SYMBOL in symbols


def program_totals(profile):
    """Ir, last-level misses (ILmr + DLmr + DLmw) and code misses (ILmr) from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", profile], capture_output=True, text=True).stdout
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            fields = re.sub(r"\([^)]*\)", "", line).replace(",", "").split()
            return int(fields[0]), int(fields[6]) + int(fields[7]) + int(fields[8]), int(fields[6])
    return 0, 0, 0


def reference_counting(profile, binary, messages):
    """Executions of the binary's locked instructions (a lock prefix, or xchg with memory): reference
    counting and the task runtime, each a full barrier, cheap in instructions and dear in time. Also
    the calls of swift_retain and swift_release, object allocations and mallocs. Needs --dump-instr=yes."""
    disassembly = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True).stdout
    locked, function = {}, None
    for line in disassembly.splitlines(keepends=True):
        if line.endswith(">:\n"):
            function = line.split("<", 1)[1][:-3]
        else:
            match = LOCKED.match(line)
            if match:
                locked[int(match.group(1), 16)] = function
    names, objects, calls, executed = {}, {}, Counter(), Counter()
    callee, in_binary, address, call_line = None, False, 0, False
    with open(profile) as lines:
        for line in lines:
            head = line[:1]
            if head in "0+-*" and line[:2] != "--":
                fields = line.split()
                position = fields[0]
                if position.startswith("0x"):
                    address = int(position, 16)
                elif position[0] in "+-":
                    offset = int(position[1:], 16) if position[1:].startswith("0x") else int(position[1:])
                    address += offset if position[0] == "+" else -offset
                if call_line:  # a call's inclusive cost, not this instruction's own
                    call_line = False
                elif in_binary and address in locked and len(fields) > 2:
                    executed[locked[address]] += int(fields[2])
            elif line.startswith(("ob=", "cob=")):
                match = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match.group(2):
                    objects[match.group(1)] = match.group(2)
                if line.startswith("ob="):
                    in_binary = objects[match.group(1)].endswith("/SoakBench")
            elif line.startswith(("fn=", "cfn=")):
                match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match and match.group(2):
                    names[match.group(1)] = match.group(2)
                if line.startswith("cfn="):
                    callee = names.get(match.group(1)) if match else None
            elif line.startswith("calls="):
                if callee is not None:
                    calls[callee.split("'")[0]] += int(line[6:].split()[0])
                callee, call_line = None, True

    def per_message(*functions):
        return sum(calls[function] for function in functions) / messages

    total = sum(executed.values()) / messages
    weak = sum(count for name, count in executed.items() if "weak" in name.lower() or "WeakReference" in name) / messages
    print(f"{'':40} {total:6.1f} locked (atomic) instructions per message, {weak:5.1f} of them for weak references; "
          f"{per_message('swift_retain', 'swift_retain_n'):.1f} retain and {per_message('swift_release', 'swift_release_n'):.1f} release calls, "
          f"{per_message('swift_allocObject'):.1f} object allocations, {per_message('malloc'):.1f} mallocs")


def instructions_main(argv):
    parser = argparse.ArgumentParser(prog="bench/soak.py instructions",
                                     description="Instructions in BridgeHost.receive over the soak session, under callgrind.")
    parser.add_argument("builds", nargs="+", metavar="SOAKBENCH", help="SoakBench executables (the first is the reference)")
    parser.add_argument("--messages", type=positive_int, default=5000)
    parser.add_argument("--host", choices=("async", "callback"), default="async", help="the app's host in the session")
    parser.add_argument("--cache", type=cache_kib, default=1024, help="the simulated last-level cache in KiB")
    args = parser.parse_args(argv)
    # Every build checked before the first (a minute-long) count, so a typo in the last one fails at once.
    for build in args.builds:
        if not is_soak_bench(build):
            print(f"soak instructions: {typed(build)} is not a SoakBench executable (no BridgeHost.receive in its symbols)",
                  file=sys.stderr)
            return 2
    subprocess.run(["scripts/ensure-deps.sh", "valgrind"], check=True, cwd=os.path.join(os.path.dirname(__file__), ".."))
    # Only when asked: builds from before SoakBench had --host still compare on the async host.
    host_args = [] if args.host == "async" else ["--host", args.host]
    first = None
    with tempfile.TemporaryDirectory(prefix="bridgekit-soak-") as work:
        for build in args.builds:
            # Valgrind cannot read the DWARF of the static release build; the symbols are enough.
            copy, profile = os.path.join(work, "SoakBench"), os.path.join(work, "out")
            shutil.copy(build, copy)
            subprocess.run(["strip", "--strip-debug", copy], check=True)
            llc = args.cache * 1024
            run = subprocess.run(["valgrind", "--tool=callgrind", f"--toggle-collect=${RECEIVE_SYMBOL}*",
                                  f"--callgrind-out-file={profile}", "--dump-instr=yes", "--cache-sim=yes",
                                  "--I1=32768,8,64", "--D1=32768,8,64", f"--LL={llc},16,64",
                                  copy, "run", "--messages", str(args.messages)] + host_args,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if run.returncode != 0:
                print(shown(run.stderr), file=sys.stderr)
                return 1
            total, misses, code_misses = program_totals(profile)
            if total <= 0:
                print("soak instructions: callgrind counted nothing in BridgeHost.receive", file=sys.stderr)
                return 1
            first = first or total
            n = args.messages
            print(f"{build:<40} {total:14.0f} instructions in BridgeHost.receive, {total / n:8.0f} per message, "
                  f"{total / first:.2f}x the first; {misses / n:5.1f} misses of a {args.cache} KiB last-level cache "
                  f"per message ({code_misses / n:.1f} for code)", flush=True)
            reference_counting(profile, copy, n)
    return 0


def main():
    commands = {"run": run_main, "instructions": instructions_main}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print("usage: bench/soak.py run ... | bench/soak.py instructions SOAKBENCH ... (see --help of each)", file=sys.stderr)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
