#!/usr/bin/env python3
"""The benchmark driver (bench/run.sh builds and installs, then calls this with the venv's Python).

Every number is a whole process on the same file, timed from here (wall clock), with its peak
resident memory from wait4. Prints a report and the targets as PASS/FAIL; exits 1 when the
validators disagree on any message (a target miss is reported, not an error).
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import compare  # noqa: E402


def timed(command, stdout=None):
    """(wall seconds, CPU seconds, peak RSS in MiB) of one process."""
    started = time.perf_counter()
    with open(stdout or os.devnull, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        error = process.stderr.read().decode(errors="replace")
        process.stderr.close()
    if process.returncode not in (0, 1):
        sys.exit("bench: %s exited %d\n%s" % (" ".join(command), process.returncode, error))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def best_of(runs, command, stdout=None):
    """Best wall time, best CPU time, largest peak RSS over runs."""
    results = [timed(command, stdout) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def median_latency(command, runs):
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000.0


def head(source, target, count):
    with open(source, "rb") as f, open(target, "wb") as out:
        for index, line in enumerate(f):
            if index >= count:
                break
            out.write(line)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bridgectl", required=True)
    parser.add_argument("--bridgectl-dynamic", help="the same bridgectl, dynamically linked: single-file latency only")
    parser.add_argument("--parse-floor", required=True)
    parser.add_argument("--route-bench", required=True, help="the RouteBench executable (route matching at 10 and 10,000 routes)")
    parser.add_argument("--venv", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--small", type=int, default=2_000)
    parser.add_argument("--slow-lines", type=int, default=20_000, help="lines for python jsonschema")
    parser.add_argument("--files", type=int, default=2_000, help="one-file-per-message sample for check-jsonschema")
    parser.add_argument("--runs", type=int, default=3, help="best of N for the bulk timings")
    parser.add_argument("--latency-runs", type=int, default=41)
    args = parser.parse_args()

    out = args.out
    os.makedirs(out, exist_ok=True)
    python = os.path.join(args.venv, "bin", "python")
    bridgectl = args.bridgectl
    schemas = os.path.join(ROOT, "contracts", "schemas")
    cores = os.cpu_count() or 1
    report = []

    def say(text=""):
        print(text, flush=True)
        report.append(text)

    corpus, expected = os.path.join(out, "corpus.ndjson"), os.path.join(out, "expected.txt")
    small, small_expected = os.path.join(out, "small.ndjson"), os.path.join(out, "small-expected.txt")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), str(args.messages), corpus, expected], check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), str(args.small), small, small_expected,
                    "--seed=7"], check=True)
    n = args.messages
    size_mb = os.path.getsize(corpus) / 1e6
    say("machine: %d cores (nproc), %s, %s; load average at start %.1f" % (cores, cpu_model(), platform.platform(),
                                                                         os.getloadavg()[0]))
    say("corpus: %d messages, %.1f MB, seed 20261129 (bench/gen_corpus.py)" % (n, size_mb))
    say()

    # ---- bulk throughput, whole processes on the same file
    bridgectl_out = os.path.join(out, "bridgectl.txt")
    wall, cpu, rss_big = best_of(args.runs, [bridgectl, "validate", "--ndjson", corpus], bridgectl_out)
    rates = {"bridgectl (--jobs %d)" % cores: (n / wall, cpu / n)}
    bridgectl_rate = n / wall
    wall1, cpu1, _ = best_of(args.runs, [bridgectl, "validate", "--ndjson", "--jobs", "1", corpus])
    rates["bridgectl (--jobs 1)"] = (n / wall1, cpu1 / n)
    floor_wall, floor_cpu, _ = best_of(args.runs, [args.parse_floor, corpus])
    rates["jansson parse-only floor (1 thread)"] = (n / floor_wall, floor_cpu / n)
    reader_wall, reader_cpu, _ = best_of(args.runs, [args.parse_floor, "--bridgekit", corpus])
    rates["bridgekit parse only (fast reader + arena, 1 thread)"] = (n / reader_wall, reader_cpu / n)

    peer_verdicts = []
    for peer, lines in (("jsonschema-rs", n), ("fastjsonschema", n), ("jsonschema", min(args.slow_lines, n))):
        source = corpus
        if lines < n:
            source = os.path.join(out, "corpus-head-%d.ndjson" % lines)
            head(corpus, source, lines)
        verdicts = os.path.join(out, "verdicts-%s.txt" % peer)
        runs = args.runs if peer == "jsonschema-rs" else 1
        wall_peer, cpu_peer, _ = best_of(runs, [python, os.path.join(HERE, "peers.py"), peer, schemas, source, verdicts])
        label = peer + (" + orjson" if peer == "jsonschema-rs" else " (orjson parse)")
        if lines < n:
            label += " [first %d lines]" % lines
        rates[label] = (lines / wall_peer, cpu_peer / lines)
        peer_verdicts.append((peer, verdicts, lines))
    rs_rate = rates["jsonschema-rs + orjson"][0]

    # check-jsonschema takes files, not lines: one invocation over a sample of one file per message,
    # against a local copy of the schemas (file: $ids, so nothing is fetched) joined by anyOf.
    files_dir, local = os.path.join(out, "files"), os.path.join(out, "local-schemas")
    shutil.rmtree(files_dir, ignore_errors=True)
    os.makedirs(files_dir)
    os.makedirs(local, exist_ok=True)
    for name in os.listdir(schemas):
        with open(os.path.join(schemas, name), encoding="utf-8") as f:
            schema = json.load(f)
        schema["$id"] = "file://" + os.path.abspath(os.path.join(local, name))
        with open(os.path.join(local, name), "w", encoding="utf-8") as f:
            json.dump(schema, f, ensure_ascii=False)
    dispatch = os.path.join(local, "dispatch.json")
    with open(dispatch, "w") as f:
        json.dump({"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "file://" + os.path.abspath(dispatch),
                   "anyOf": [{"$ref": "apply.v1.json"}, {"$ref": "view_vehicles.v1.json"}, {"$ref": "start.v1.json"}]}, f)
    file_count = min(args.files, n)
    names = []
    with open(corpus, "rb") as f:
        for index, line in enumerate(f):
            if index >= file_count:
                break
            name = os.path.join(files_dir, "%06d.json" % (index + 1))
            with open(name, "wb") as message:
                message.write(line)
            names.append(name)
    check_jsonschema = os.path.join(args.venv, "bin", "check-jsonschema")
    cj_out = os.path.join(out, "check-jsonschema.json")
    cj_wall, cj_cpu, _ = timed([check_jsonschema, "-o", "json", "--disable-formats", "*", "--schemafile", dispatch] + names, cj_out)
    rates["check-jsonschema [%d files, one process]" % file_count] = (file_count / cj_wall, cj_cpu / file_count)
    with open(cj_out) as f:
        cj = json.load(f)
    failed = {e["filename"] for e in cj.get("errors", [])} | {e["filename"] for e in cj.get("parse_errors", [])}
    cj_verdicts = os.path.join(out, "verdicts-check-jsonschema.txt")
    with open(cj_verdicts, "w") as f:
        f.write("".join("0\n" if name in failed else "1\n" for name in names))
    peer_verdicts.append(("check-jsonschema", cj_verdicts, file_count))

    say("bulk throughput (whole process; wall clock msgs/s and CPU time per message; best of %d for bridgectl,"
        " the floor and jsonschema-rs):" % args.runs)
    for label, (rate, cpu_each) in rates.items():
        say("  %-55s %10.0f msgs/s %8.2f us CPU/msg" % (label, rate, cpu_each * 1e6))
    ratio = bridgectl_rate / rs_rate
    say("  ratio bridgectl / jsonschema-rs: %.2fx" % ratio)
    say()

    # CPU time, not wall: per-core cost, and less sensitive to other load on the machine.
    # The target is stated against jansson's parse; bridgectl parses with its own fast reader
    # (jansson only for what the reader declines), so its own parse floor is printed too.
    overhead = cpu1 / floor_cpu - 1.0
    say("per core (CPU time): jansson parse-only floor (bench/parse_floor.c, same flags) %.2f us/msg;"
        % (floor_cpu / n * 1e6))
    say("          bridgectl --jobs 1 %.2f us/msg: %.0f%% %s the jansson floor (everything: parse, validation, output)"
        % (cpu1 / n * 1e6, abs(overhead) * 100, "over" if overhead >= 0 else "under"))
    say("          bridgectl's own parse (parse_floor --bridgekit) %.2f us/msg, so validation and the rest"
        " %.2f us/msg" % (reader_cpu / n * 1e6, (cpu1 - reader_cpu) / n * 1e6))
    say()

    # ---- single file latency
    one = os.path.join(out, "one.json")
    with open(one, "w", encoding="utf-8") as f:
        f.write('{"v":1,"id":"3f1c2a9e-7d2c-4e1a-9b3f-5c6d7e8f9a0b","action":"apply","version":1,'
                '"payload":{"slug":"new-user-promo","memo":"신청합니다"},"sentAt":"2026-11-29T12:00:00Z"}\n')
    bridgectl_ms = median_latency([bridgectl, "validate", one], args.latency_runs)
    cj_ms = median_latency([check_jsonschema, "--disable-formats", "*", "--schemafile",
                            os.path.join(local, "apply.v1.json"), one], max(5, args.latency_runs // 4))
    say("single-file validate, median wall time (subprocess from Python, %d runs / %d runs):"
        % (args.latency_runs, max(5, args.latency_runs // 4)))
    say("  bridgectl validate one.json       %7.1f ms   (make release: static, non-PIE)" % bridgectl_ms)
    if args.bridgectl_dynamic:
        dynamic_ms = median_latency([args.bridgectl_dynamic, "validate", one], args.latency_runs)
        say("  same, dynamically linked          %7.1f ms   (release; not the target's binary)" % dynamic_ms)
    say("  check-jsonschema one.json         %7.1f ms   (%.0fx bridgectl)" % (cj_ms, cj_ms / bridgectl_ms))
    say()

    # ---- routes
    routes = subprocess.run([args.route_bench], capture_output=True, text=True)
    say("route matching (RouteBench):")
    for line in (routes.stdout or routes.stderr).strip().splitlines():
        say("  " + line)
    say()

    # ---- memory
    _, _, rss_small = best_of(1, [bridgectl, "validate", "--ndjson", small])
    say("peak memory (max RSS, bridgectl validate --ndjson, --jobs %d): %d messages %.1f MiB, %d messages %.1f MiB"
        % (cores, args.small, rss_small, n, rss_big))
    say()

    # ---- verdicts
    say("verdicts:")
    arguments = ["compare.py", corpus, expected, "--bridgectl", bridgectl_out]
    failures = 0
    by_lines = {}
    for peer, path, lines in peer_verdicts:
        by_lines.setdefault(lines, []).append((peer, path))
    for lines, peers in sorted(by_lines.items(), reverse=True):
        extra = []
        for peer, path in peers:
            extra += ["--peer", "%s=%s" % (peer, path)]
        failures += compare.main(arguments + extra + ["--lines", str(lines)])
    say("  (printed above: %s)" % ("all validators agree on every message" if failures == 0 else "DISAGREEMENTS"))
    say()

    targets = [
        ("bulk throughput >= 1.5x jsonschema-rs + orjson", ratio >= 1.5, "%.2fx" % ratio),
        ("per core, validation <= 25% over the parse-only floor", overhead <= 0.25, "%+.0f%%" % (overhead * 100)),
        ("single-file validate median <= 10 ms", bridgectl_ms <= 10.0, "%.1f ms" % bridgectl_ms),
        ("peak memory for %d within 2x of %d" % (n, args.small), rss_big <= 2 * rss_small,
         "%.2fx" % (rss_big / rss_small)),
    ]
    say("load average at the end: %.1f (other work on the machine slows every wall-clock number)" % os.getloadavg()[0])
    say("targets:")
    for name, ok, value in targets:
        say("  %s  %-55s %s" % ("PASS" if ok else "FAIL", name, value))
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
