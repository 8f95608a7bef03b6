// The sampled run's journal: what carries over to a resumed run and what runs again.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
