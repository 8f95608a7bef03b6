#!/usr/bin/env python3
"""bridgectl host --stdio against a reader that stops reading for a while.

The host writes each output line with a blocking write(2) and reads input only when it has no
whole line left, so a reader that stops makes the host stop (once the pipe's 64 KiB are full)
and, through the input pipe, stops the writer too. Nothing piles up in the host's memory. This
test feeds a steady session, stops reading the host's output for STALL_SECONDS, and checks:

  - while stalled, the host's resident memory grows by at most BOUND_MIB (the stated bound);
  - while stalled, the host accepts at most ACCEPTED_BOUND_KIB more input (it blocked, it did not
    go on handling messages into a buffer);
  - once reading resumes, every message gets exactly one reply, naming its input line.

Usage: Tests/stdio/host_backpressure.py [BRIDGECTL]   (default .build/debug/bridgectl)
Exit 0 when all hold, 1 when one does not, 2 when the host could not run.
"""
import json
import os
import subprocess
import sys
import threading
import time

BOUND_MIB = 2
ACCEPTED_BOUND_KIB = 64
STALL_SECONDS = 3.0
MESSAGES = 5_000


def session_lines():
    """Valid CTAs with distinct ids and destinations; the clock passes the duplicate window every third."""
    actions = [
        ("apply", 1, lambda n: {"slug": f"ev-{n}", "memo": "오전에 전화 주세요"}),
        ("view_vehicles", 1, lambda n: {"from": f"ev-{n}", "region": "서울"}),
        ("start", 1, lambda n: {"referrer": f"ev-{n}"}),
    ]
    for number in range(1, MESSAGES + 1):
        action, version, payload = actions[number % 3]
        body = {"v": 1, "id": f"pressure-{number:08d}", "action": action, "version": version, "payload": payload(number)}
        yield json.dumps({"type": "message", "body": body}, ensure_ascii=False, separators=(",", ":")) + "\n"
        if number % 3 == 0:
            yield '{"type":"advance","ms":2500}\n'


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    bridgectl = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/bridgectl"
    if not os.access(bridgectl, os.X_OK):
        print(f"host_backpressure: {bridgectl} is not an executable (run swift build first)", file=sys.stderr)
        return 2
    host = subprocess.Popen([bridgectl, "host", "--stdio", "--manual-clock"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, bufsize=0)
    accepted = [0]
    message_lines = []

    def feed():
        try:
            for number, line in enumerate(session_lines(), start=1):
                if '"type":"message"' in line:
                    message_lines.append(number)
                data = line.encode()
                host.stdin.write(data)  # blocks while the host does not read
                accepted[0] += len(data)
            host.stdin.close()
        except BrokenPipeError:
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    output = host.stdout
    replies = {}
    problems = []

    def read_line():
        line = output.readline()
        if not line:
            return None
        record = json.loads(line)
        if record.get("type") == "reply":
            replies[record["line"]] = replies.get(record["line"], 0) + 1
        elif record.get("type") == "error":
            problems.append(f"the host reported an input error: {line.decode().strip()}")
        return record

    # Steady state first.
    for _ in range(3_000):
        if read_line() is None:
            print("host_backpressure: the host ended early", file=sys.stderr)
            return 2
    # Stop reading.
    stall_start_rss = resident_kib(host.pid)
    time.sleep(0.5)  # the pipes fill; from here on the host must be blocked
    accepted_at_block = accepted[0]
    largest_rss = stall_start_rss
    deadline = time.monotonic() + STALL_SECONDS
    while time.monotonic() < deadline:
        largest_rss = max(largest_rss, resident_kib(host.pid))
        time.sleep(0.05)
    accepted_while_blocked = accepted[0] - accepted_at_block
    grown_kib = largest_rss - stall_start_rss
    # Read again, to the end.
    while read_line() is not None:
        pass
    status = host.wait(timeout=120)
    feeder.join(timeout=10)

    if status != 0:
        problems.append(f"the host exited with status {status}")
    if grown_kib > BOUND_MIB * 1024:
        problems.append(f"the host's memory grew by {grown_kib} KiB while its reader stalled (bound {BOUND_MIB} MiB)")
    if accepted_while_blocked > ACCEPTED_BOUND_KIB * 1024:
        problems.append(f"the host took {accepted_while_blocked // 1024} KiB of input while its output was not read "
                        f"(bound {ACCEPTED_BOUND_KIB} KiB): it did not block")
    unanswered = [line for line in message_lines if replies.get(line) != 1]
    if len(message_lines) != MESSAGES or unanswered:
        problems.append(f"{len(unanswered)} of {len(message_lines)} messages without exactly one reply (first: {unanswered[:3]})")
    print(f"host_backpressure: reader stalled {STALL_SECONDS:.1f} s: host memory +{grown_kib / 1024:.1f} MiB (bound {BOUND_MIB} MiB), "
          f"input taken while blocked {accepted_while_blocked // 1024} KiB (bound {ACCEPTED_BOUND_KIB} KiB); "
          f"{sum(1 for line in message_lines if replies.get(line) == 1)} of {MESSAGES} messages answered exactly once")
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
