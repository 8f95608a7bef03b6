// The sampled run's journal (what carries over to a resumed run and what runs again) and the
// command runner behind it (a hang is stopped with everything it started).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { appendJournal, carriedKills, readJournal, recordedBaseline, timeoutCeilingSeconds, timeoutFloorSeconds, timeoutFor } from "./journal.mjs";

function withFolder(body) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "journal-test-"));
  try {
    body(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test("entries appended are read back in order, and a torn last line is skipped", () => {
  withFolder((folder) => {
    const file = path.join(folder, "seed.jsonl");
    assert.deepEqual(readJournal(file), []);
    appendJournal(file, { type: "mutant", key: "a", outcome: "killed" });
    appendJournal(file, { type: "mutant", key: "b", outcome: "survived" });
    writeFileSync(file, "{\"type\": \"mut", { flag: "a" });
    assert.deepEqual(readJournal(file).map((entry) => entry.key), ["a", "b"]);
  });
});

test("only kills carry over, and the latest entry for a site decides", () => {
  const entries = [
    { type: "mutant", key: "killed-then-survived", outcome: "killed" },
    { type: "mutant", key: "killed-then-survived", outcome: "survived" },
    { type: "mutant", key: "survived-then-killed", outcome: "survived" },
    { type: "mutant", key: "survived-then-killed", outcome: "killed" },
    { type: "mutant", key: "stillborn", outcome: "stillborn" },
    { type: "baseline", key: "survived-then-killed", outcome: "survived" },
  ];
  assert.deepEqual([...carriedKills(entries).keys()], ["survived-then-killed"]);
});

test("a baseline is reused only for the same tree and command", () => {
  const entries = [{ type: "baseline", tree: "t1", command: "c", seconds: 40 }, { type: "baseline", tree: "t1", command: "c", seconds: 42 }];
  assert.equal(recordedBaseline(entries, "t1", "c"), 42);
  assert.equal(recordedBaseline(entries, "t2", "c"), null);
  assert.equal(recordedBaseline(entries, "t1", "d"), null);
});

test("a test command's time limit is five times its baseline, between the floor and the ceiling", () => {
  const floorBaseline = timeoutFloorSeconds / 5;
  assert.equal(timeoutFor(floorBaseline - 1), timeoutFloorSeconds);
  assert.equal(timeoutFor(floorBaseline), timeoutFloorSeconds);
  assert.equal(timeoutFor(floorBaseline + 1), timeoutFloorSeconds + 5);
  const ceilingBaseline = timeoutCeilingSeconds / 5;
  assert.equal(timeoutFor(ceilingBaseline - 1), timeoutCeilingSeconds - 5);
  assert.equal(timeoutFor(ceilingBaseline), timeoutCeilingSeconds);
  assert.equal(timeoutFor(ceilingBaseline + 1), timeoutCeilingSeconds);
  assert.equal(timeoutFor(undefined), timeoutCeilingSeconds);
});

test("a command that outlives its limit is stopped with every process it started", async () => {
  const { runIn, timedOutStatus } = await import("./scratch.mjs");
  withFolder((folder) => {
    const marker = path.join(folder, "child-alive");
    // The command starts a child that outlives it, then hangs; both must be gone after the limit.
    const command = "(sleep 3; touch " + JSON.stringify(marker) + ") & sleep 30";
    const result = runIn(folder, command, path.join(folder, "log.txt"), 1);
    assert.equal(result.ok, false);
    assert.equal(result.timedOut, true);
    assert.ok(result.seconds < 10, "stopped at its limit, not at the end of the hang: " + result.seconds + " s");
    execFileSync("sleep", ["4"]);
    assert.equal(existsSync(marker), false, "the child the command started was stopped too");
  });
  assert.equal(timedOutStatus(124, 1, 1), true);
  assert.equal(timedOutStatus(137, 2, 1), true);
  assert.equal(timedOutStatus(124, 0, 1), false, "a command that exits 124 on its own did not time out");
  assert.equal(timedOutStatus(1, 5, 1), false);
});

test("a command that passes or fails in time is reported as it ended", async () => {
  const { runIn } = await import("./scratch.mjs");
  withFolder((folder) => {
    assert.deepEqual(runIn(folder, "true", path.join(folder, "log.txt"), 30), { ok: true, timedOut: false, seconds: 0 });
    const failed = runIn(folder, "echo no; exit 3", path.join(folder, "log.txt"), 30);
    assert.equal(failed.ok, false);
    assert.equal(failed.timedOut, false);
    assert.equal(readFileSync(path.join(folder, "log.txt"), "utf8"), "no\n");
  });
});
