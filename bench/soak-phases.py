#!/usr/bin/env python3
"""The soak's latency against the machine's phase: alternates the in-process soak run (SoakBench run)
with its two peers from bench/soak.py (a busy loop in registers, and dependent reads over this
machine's L2, both calibrated to the run's valid-message median), pair after pair, and prints each
pair on one line, with the share of valid messages over the latency target in the run's quietest
and busiest tenth. The session is seeded: every run does the same work on the same messages in the
same order, so the same tenth of two runs differs only by what the machine did meanwhile; the
summary gives, tenth by tenth, the least and the most of that share over the runs. Then the rank
correlation of the message's p99/p50 with each peer's over the pairs, and the peers' tails in the
runs that missed the target against those that met it.

Exit status: 0 when every run finished (the figures are printed, not judged), 1 when a run lost
something, 2 when a run could not start or the arguments are wrong.

Usage: bench/soak-phases.py --soak PATH [--pairs 10] [--messages 100000] [--samples 100000] [--seed 1]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402  (the runs and the peers, exactly as make soak makes them)


def ranks(values):
    """Average ranks (ties share theirs), for Spearman's correlation."""
    order = sorted(range(len(values)), key=lambda index: values[index])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(first, second):
    """Rank correlation in [-1, 1]; None when either list does not vary."""
    a, b = ranks(first), ranks(second)
    mean_a, mean_b = statistics.mean(a), statistics.mean(b)
    covariance = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b))
    spread = (sum((x - mean_a) ** 2 for x in a) * sum((y - mean_b) ** 2 for y in b)) ** 0.5
    return covariance / spread if spread else None


def run_with_latencies(args, directory):
    """One in-process run (as soak.run_in_process, plus --latencies): its summary, whether it lost
    something, and the valid messages' latencies in us in the order they were sent."""
    path = os.path.join(directory, "latencies.txt")
    process = subprocess.run([args.soak, "run", "--messages", str(args.messages), "--seed", str(args.seed),
                              "--latencies", path], stdout=subprocess.PIPE, text=True, check=False)
    summary = soak.summary_of(process.stdout)
    if summary is None or not os.path.exists(path):
        print(f"soak-phases: SoakBench run exited {process.returncode} without a summary or latencies:\n{soak.shown(process.stdout)}",
              file=sys.stderr)
        sys.exit(2)
    with open(path) as file:
        rows = sorted((int(number), int(nanoseconds) / 1000) for number, _, nanoseconds in (line.split() for line in file))
    if not rows:
        print(f"soak-phases: the session's first {args.messages} message(s) hold no valid message with a reply; ask for more",
              file=sys.stderr)
        sys.exit(2)
    return summary, process.returncode != 0 or summary["problems"] != 0, [latency for _, latency in rows]


def over_target_by_tenth(latencies, target):
    """The percentage of messages over `target` in each tenth of the run."""
    tenths = []
    for index in range(10):
        part = latencies[len(latencies) * index // 10:len(latencies) * (index + 1) // 10]
        if part:
            tenths.append(100 * sum(1 for latency in part if latency > target) / len(part))
    return tenths


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--soak", required=True, help="the SoakBench executable (make soak builds .build/release/SoakBench)")
    parser.add_argument("--pairs", type=soak.positive_int, default=10)
    parser.add_argument("--messages", type=soak.positive_int, default=100_000)
    parser.add_argument("--samples", type=soak.positive_int, default=100_000, help="timings of each peer (as make soak)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.access(args.soak, os.X_OK):
        print(f"soak-phases: {soak.typed(args.soak)} is not an executable", file=sys.stderr)
        return 2
    peer_kib, peer_source = soak.level2_cache_kib()
    target = soak.LATENCY_TARGET_US
    print(f"soak-phases: {args.pairs} pairs of SoakBench run --messages {args.messages} --seed {args.seed} and its peers "
          f"(registers; dependent reads over {peer_kib} KiB, {peer_source}), alternating")
    print(f"  {'UTC':<8} {'valid p50':>9} {'p99':>6} {'p99/p50':>7}   {'over ' + format(target, '.0f') + ' us, quietest/busiest tenth':>34}"
          f"   {'registers p99/p50':>17}   {'memory p99/p50':>14}")
    rows = []
    lost = False
    for _ in range(args.pairs):
        with tempfile.TemporaryDirectory() as directory:
            summary, run_lost, latencies = run_with_latencies(args, directory)
        lost = lost or run_lost
        valid = summary["valid"]
        tenths = over_target_by_tenth(latencies, target)
        registers = soak.run_noise(args, valid["p50"], samples=args.samples)
        memory = soak.run_noise(args, valid["p50"], peer_kib, samples=args.samples)
        if registers is None or memory is None:
            print("soak-phases: SoakBench noise printed no summary", file=sys.stderr)
            return 2
        row = {"p50": valid["p50"], "p99": valid["p99"], "registers": registers["p99"] / registers["p50"],
               "memory": memory["p99"] / memory["p50"], "quietest": min(tenths), "busiest": max(tenths)}
        row["tenths"] = tenths
        rows.append(row)
        print(f"  {time.strftime('%H:%M:%S', time.gmtime())} {row['p50']:9.1f} {row['p99']:6.1f} {row['p99'] / row['p50']:7.2f}"
              f"   {format(row['quietest'], '.2f') + '% / ' + format(row['busiest'], '.2f') + '%':>34}"
              f"   {row['registers']:17.2f}   {row['memory']:14.2f}{'   LOST' if run_lost else ''}", flush=True)
    missed = [row for row in rows if row["p99"] > target]
    met = [row for row in rows if row["p99"] <= target]
    print(f"  runs over the target (valid p99 > {target:.0f} us): {len(missed)} of {len(rows)}; valid messages over it in the"
          f" quietest tenth of each run: median {statistics.median(row['quietest'] for row in rows):.2f}% (a p99 within the"
          f" target needs under 1%), in the busiest: median {statistics.median(row['busiest'] for row in rows):.2f}%")
    if len(rows) >= 2:
        least = [min(row["tenths"][index] for row in rows) for index in range(len(rows[0]["tenths"]))]
        most = [max(row["tenths"][index] for row in rows) for index in range(len(rows[0]["tenths"]))]
        print(f"  the same tenth of the session (the same messages) over the runs, share over the target: least"
              f" {' '.join(format(value, '.1f') for value in least)} %; most {' '.join(format(value, '.1f') for value in most)} %")
    for name, group in (("over", missed), ("within", met)):
        if group:
            print(f"  memory peer p99/p50 in the runs {name} the target: median {statistics.median(row['memory'] for row in group):.2f}"
                  f" (registers {statistics.median(row['registers'] for row in group):.2f})")
    if len(rows) >= 3:
        tail = [row["p99"] / row["p50"] for row in rows]
        for name in ("memory", "registers"):
            correlation = spearman(tail, [row[name] for row in rows])
            shown = "undefined (no spread)" if correlation is None else f"{correlation:+.2f}"
            print(f"  rank correlation of the valid message's p99/p50 with the {name} peer's, over {len(rows)} pairs: {shown}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
