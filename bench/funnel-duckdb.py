#!/usr/bin/env python3
"""`bridgectl funnel` against DuckDB over the same NDJSON export, on one core each.

usage: funnel-duckdb.py [MEGABYTES] [--bridgectl PATH] [--log EXISTING.ndjson] [--keep]

Generates the seeded export (bench/funnel_gen.py) under a temporary folder, then
  - runs `bridgectl funnel FILE --format json` pinned to core 1 (taskset -c 1) under
    /usr/bin/time -v (wall time, peak RSS);
  - runs DuckDB in this process, pinned to core 1 and with `SET threads=1`, computing the same
    four metrics with SQL over the same file (read_json: parsing, visits cut with a window,
    the rules as joins);
and checks the numerators and denominators agree before printing MB/s for both and the ratio.
Exit 1 when the numbers differ. DuckDB comes from PyPI: without it, this script installs it into
bench/.venv (the bench's own, as bench/run.sh does for its peers) and runs again from there.
The SQL covers the visit rules the generated export uses (entries, screens, sign-in, campaign
steps); the push-opens-a-page and repeated-push rules are the Swift tests' business.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import funnel_gen  # noqa: E402

HOMES = ("home_screen", "home")

SQL = """
WITH ev AS (
  SELECT event, properties.distinct_id AS person, properties."time" AS t, properties.campaign_id AS campaign,
         properties.source AS source, properties.target_screen AS target, properties.screen AS screen,
         coalesce(properties.cold_start, false) AS cold
  FROM read_json('{path}', format = 'newline_delimited', columns = {{
    'event': 'VARCHAR',
    'properties': 'STRUCT(distinct_id VARCHAR, "time" BIGINT, campaign_id VARCHAR, source VARCHAR, target_screen VARCHAR, screen VARCHAR, cold_start BOOLEAN)'
  }})
),
cut AS (
  SELECT *, sum(CASE WHEN event IN ('push_clicked', 'deeplink_opened')
                       OR (event = 'event_webview_opened' AND coalesce(source, '') <> 'appInternal') THEN 1 ELSE 0 END)
            OVER (PARTITION BY person ORDER BY t ROWS UNBOUNDED PRECEDING) AS visit
  FROM ev
),
v AS (
  SELECT person, visit, arg_min(event, t) AS entry, arg_min(target, t) AS target, arg_min(campaign, t) AS campaign,
         min(t) AS t0, arg_min(cold, t) AS cold
  FROM cut WHERE visit > 0 GROUP BY person, visit
),
s AS (
  SELECT person, visit, t, CASE WHEN event = 'screen_view' THEN screen ELSE event END AS shown
  FROM cut WHERE visit > 0 AND ((event = 'screen_view' AND screen IS NOT NULL) OR event IN {homes})
),
intended AS (
  SELECT person, visit, target AS screen FROM v WHERE target IS NOT NULL
  UNION SELECT person, visit, target FROM cut WHERE visit > 0 AND event = 'event_webview_cta_clicked' AND target IS NOT NULL
),
reach AS (SELECT DISTINCT s.person, s.visit FROM s JOIN v ON s.person = v.person AND s.visit = v.visit AND s.shown = v.target),
home AS (SELECT person, visit, min(t) AS th FROM s WHERE shown IN {homes} GROUP BY person, visit),
signin AS (SELECT person, visit, min(t) AS ts FROM cut WHERE visit > 0 AND event = 'sign_in_success' GROUP BY person, visit),
login AS (SELECT DISTINCT person, visit FROM cut WHERE visit > 0 AND event = 'login_presented'),
needs AS (SELECT DISTINCT person, visit FROM intended WHERE screen IN {login_screens}),
consumed AS (
  SELECT DISTINCT s.person, s.visit FROM s JOIN signin si ON s.person = si.person AND s.visit = si.visit
  JOIN intended i ON i.person = s.person AND i.visit = s.visit AND i.screen = s.shown WHERE s.t > si.ts
),
steps AS (
  SELECT c.person, c.visit, c.campaign FROM cut c WHERE c.visit > 0 AND (
    c.event IN ('push_clicked', 'event_webview_cta_clicked')
    OR (c.event = 'event_webview_opened' AND coalesce(c.source, '') <> 'appInternal'))
  UNION ALL
  SELECT c.person, c.visit, c.campaign FROM cut c JOIN intended i ON i.person = c.person AND i.visit = c.visit AND i.screen = c.screen
  WHERE c.visit > 0 AND c.event = 'screen_view'
),
broken AS (
  SELECT DISTINCT st.person, st.visit FROM steps st JOIN v ON v.person = st.person AND v.visit = st.visit
  WHERE st.campaign IS NULL OR st.campaign IS DISTINCT FROM v.campaign
),
per AS (
  SELECT v.*, r.person IS NOT NULL AS reached, h.th, cs.person IS NOT NULL AS was_consumed,
         (v.entry = 'push_clicked' AND v.cold AND (si.ts IS NOT NULL OR lg.person IS NOT NULL OR nd.person IS NOT NULL)) AS cold_applies,
         (v.campaign IS NOT NULL AND b.person IS NULL) AS consistent
  FROM v
  LEFT JOIN reach r ON r.person = v.person AND r.visit = v.visit
  LEFT JOIN home h ON h.person = v.person AND h.visit = v.visit
  LEFT JOIN signin si ON si.person = v.person AND si.visit = v.visit
  LEFT JOIN login lg ON lg.person = v.person AND lg.visit = v.visit
  LEFT JOIN needs nd ON nd.person = v.person AND nd.visit = v.visit
  LEFT JOIN consumed cs ON cs.person = v.person AND cs.visit = v.visit
  LEFT JOIN broken b ON b.person = v.person AND b.visit = v.visit
)
SELECT count(*) AS sessions,
       count(*) FILTER (WHERE reached) AS reach, count(*) FILTER (WHERE target IS NOT NULL) AS reach_of,
       count(*) FILTER (WHERE th IS NOT NULL AND th - t0 <= 10) AS wrong, count(*) AS wrong_of,
       count(*) FILTER (WHERE cold_applies AND was_consumed) AS cold, count(*) FILTER (WHERE cold_applies) AS cold_of,
       count(*) FILTER (WHERE consistent) AS consistent, count(*) AS consistent_of
FROM per
"""


def sql_list(values):
    return "(" + ", ".join("'" + value.replace("'", "''") + "'" for value in values) + ")"


def run_bridgectl(bridgectl, path):
    command = ["taskset", "-c", "1", "/usr/bin/time", "-v", bridgectl, "funnel", path, "--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bridgectl funnel failed: {done.stderr}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([0-9.]+)", done.stderr).group(1)) for kind in ("User", "System"))
    report = json.loads(done.stdout)["all"]
    counts = {"sessions": report["sessions"]}
    for key, name in [("targetReach", "reach"), ("wrongLanding", "wrong"), ("coldStartConsumption", "cold"),
                      ("metadataConsistency", "consistent")]:
        counts[name], counts[name + "_of"] = report[key]["numerator"], report[key]["denominator"]
    return counts, seconds, cpu, rss


def run_duckdb(path):
    import duckdb
    with open(os.path.join(ROOT, "contracts", "routes.json"), encoding="utf-8") as f:
        login_screens = sorted({route["screen"] for route in json.load(f)["routes"] if route.get("requiresAuth")})
    os.sched_setaffinity(0, {1})
    started, cpu_started = time.perf_counter(), time.process_time()
    connection = duckdb.connect()
    connection.execute("SET threads = 1")
    cursor = connection.execute(SQL.format(path=path.replace("'", "''"), homes=sql_list(HOMES), login_screens=sql_list(login_screens)))
    row = cursor.fetchone()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    counts = dict(zip([column[0] for column in cursor.description], row))
    return counts, seconds, cpu


def ensure_duckdb():
    """Runs this script again from bench/.venv, with DuckDB installed there, unless it is importable."""
    try:
        import duckdb  # noqa: F401
        return
    except ImportError:
        pass
    venv = os.path.join(HERE, ".venv")
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.executable) == os.path.realpath(python) and os.environ.get("FUNNEL_BENCH_INSTALLED"):
        sys.exit("bench: duckdb cannot be imported after installing it")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "duckdb"], check=True)
    os.environ["FUNNEL_BENCH_INSTALLED"] = "1"
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


def main():
    ensure_duckdb()
    arguments = [argument for index, argument in enumerate(sys.argv[1:], 1)
                 if not argument.startswith("--") and sys.argv[index - 1] not in ("--log", "--bridgectl")]
    megabytes = int(arguments[0]) if arguments else 200
    bridgectl = os.path.join(ROOT, ".build", "release", "bridgectl")
    if "--bridgectl" in sys.argv:
        bridgectl = sys.argv[sys.argv.index("--bridgectl") + 1]
    folder = tempfile.mkdtemp(prefix="funnel-bench-")
    try:
        if "--log" in sys.argv:
            path = sys.argv[sys.argv.index("--log") + 1]
        else:
            path = os.path.join(folder, "events.ndjson")
            funnel_gen.generate(path, megabytes)
        size = os.path.getsize(path)
        ours, our_seconds, our_cpu, rss = run_bridgectl(bridgectl, path)
        theirs, their_seconds, their_cpu = run_duckdb(path)
        mb = size / 1_000_000
        print(f"log: {mb:.1f} MB, {ours['sessions']} visits")
        print("metric          bridgectl      duckdb")
        for key in ["sessions", "reach", "reach_of", "wrong", "wrong_of", "cold", "cold_of", "consistent", "consistent_of"]:
            print(f"{key:<15} {ours[key]:>9} {theirs[key]:>11}{'' if ours[key] == theirs[key] else '   DIFFERENT'}")
        print(f"bridgectl funnel: {our_seconds:.2f} s wall, {our_cpu:.2f} s CPU, {mb / our_seconds:.1f} MB/s wall, "
              f"{mb / our_cpu:.1f} MB/s of CPU, peak RSS {rss / 1024:.1f} MiB (one core)")
        print(f"duckdb (threads=1): {their_seconds:.2f} s wall, {their_cpu:.2f} s CPU, {mb / their_seconds:.1f} MB/s wall, "
              f"{mb / their_cpu:.1f} MB/s of CPU (one core)")
        print(f"bridgectl / duckdb throughput: {their_seconds / our_seconds:.2f} (wall), {their_cpu / our_cpu:.2f} (CPU)")
        if ours != theirs:
            print("the numbers differ", file=sys.stderr)
            return 1
        return 0
    finally:
        if "--keep" in sys.argv:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
