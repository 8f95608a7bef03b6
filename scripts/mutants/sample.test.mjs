// The sampled run's module table: every module with source under Sources/ and js/src has tests
// mapped, and one without is reported (so a new module cannot be skipped without a word).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { equivalentsCeiling, equivalentsProblems, firstPass, moduleOf, roundRobin, trackedSourceFiles, unmappedModules } from "./sample.mjs";

test("every module of the repository has tests mapped for the sampled run", () => {
  assert.deepEqual(unmappedModules(trackedSourceFiles()), []);
});

test("a module missing from the table is reported, an excluded or non-source one is not", () => {
  const files = [
    "Sources/JSONCore/JSONValue.swift",
    "Sources/BrandNewModule/Thing.swift",
    "Sources/AnotherNew/impl.c",
    "Sources/BridgeContractTypes/ApplyV1.swift",
    "Sources/CJansson/module.modulemap",
    "js/src/bridge-runtime.js",
  ];
  assert.deepEqual(unmappedModules(files), ["AnotherNew", "BrandNewModule"]);
  assert.deepEqual(unmappedModules(files, { JSONCore: {}, js: {}, AnotherNew: {}, BrandNewModule: {} }), []);
});

test("a file's module is its folder under Sources, and js for the web kit", () => {
  assert.equal(moduleOf("Sources/DeeplinkRouting/Sub/Rules.swift"), "DeeplinkRouting");
  assert.equal(moduleOf("js/src/link-rules.js"), "js");
});

const entry = (site) => ({ site, reason: "the same behaviour" });

test("an equivalent added without removing another is refused even once committed", () => {
  const sites = new Set(["a", "b"]);
  const committed = { equivalents: [entry("a"), entry("b")] };
  assert.deepEqual(equivalentsProblems([entry("a")], sites, { equivalents: [entry("a")] }, 1), []);
  const problems = equivalentsProblems([entry("a"), entry("b")], sites, committed, 1);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /2 recorded equivalents, more than the ceiling of 1/);
});

test("the repository's equivalents are within the ceiling the script records", () => {
  const recorded = JSON.parse(readFileSync(new URL("./equivalents.json", import.meta.url), "utf8")).equivalents;
  assert.equal(recorded.length, equivalentsCeiling);
});

test("fewer equivalents than the ceiling ask for the ceiling to come down", () => {
  const problems = equivalentsProblems([], new Set(), null, 2);
  assert.deepEqual(problems, ["0 recorded equivalents, fewer than the ceiling of 2: lower equivalentsCeiling in scripts/mutants/sample.mjs to 0"]);
});

test("an equivalent whose site is gone, or that is new since the commit, is refused", () => {
  const problems = equivalentsProblems([entry("gone")], new Set(["a"]), { equivalents: [] }, 1);
  assert.deepEqual(problems, ["no such site any more (remove the entry): gone", "added since the committed version (the file only shrinks): gone"]);
});

const planOf = (counts) => Object.entries(counts).map(([module, outcomes]) => ({ module, order: outcomes.map((outcome, index) => ({ outcome, index })) }));
const fakeJudge = (module, site) => ({ module, outcome: site.outcome, index: site.index });

test("the run goes round the modules one judged mutant at a time", () => {
  const results = roundRobin(planOf({ A: ["killed", "killed", "killed"], B: ["survived", "killed", "killed"] }), 2, fakeJudge);
  assert.deepEqual(results.map((result) => result.module + result.index), ["A0", "B0", "A1", "B1"]);
});

test("a stillborn mutant is replaced by its module's next site and not counted", () => {
  const results = roundRobin(planOf({ A: ["stillborn", "stillborn", "killed", "killed"], B: ["killed"] }), 1, fakeJudge);
  assert.deepEqual(results.map((result) => result.module + result.index), ["A0", "A1", "A2", "B0"]);
});

test("a module with fewer sites than asked gives what it has", () => {
  const results = roundRobin(planOf({ A: ["killed"], B: ["killed", "killed", "killed"] }), 3, fakeJudge);
  assert.deepEqual(results.map((result) => result.module + result.index), ["A0", "B0", "B1", "B2"]);
});

test("the first pass counts each site's first judgement; later ones only say what became of a survivor", () => {
  const key = (file, n) => file + " | line " + n + " | relational: \" < \" -> \" <= \"";
  const mutant = (k, outcome) => ({ type: "mutant", key: k, tree: "t", outcome });
  const entries = [
    { type: "baseline", tree: "t", command: "x", seconds: 1 },
    mutant(key("Sources/JSONCore/A.swift", 1), "stillborn"),
    mutant(key("Sources/JSONCore/A.swift", 1), "killed"),
    mutant(key("Sources/JSONCore/A.swift", 2), "survived"),
    mutant(key("Sources/JSONCore/A.swift", 2), "killed"),
    mutant(key("Sources/JSONCore/A.swift", 3), "survived"),
    mutant(key("js/src/b.js", 4), "survived"),
    mutant(key("js/src/b.js", 5), "killed"),
    mutant(key("js/src/b.js", 5), "survived"),
  ];
  const { rows, survivors } = firstPass(entries, new Set([key("js/src/b.js", 4)]));
  assert.deepEqual(Object.fromEntries(rows), {
    JSONCore: { killed: 1, survived: 2, equivalent: 0 },
    js: { killed: 1, survived: 0, equivalent: 1 },
  });
  assert.deepEqual(survivors.map((s) => s.now), ["killed since", "survived", "equivalent"]);
});
