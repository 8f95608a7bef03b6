// The sampled run's module table: every module with source under Sources/ and js/src has tests
// mapped, and one without is reported (so a new module cannot be skipped without a word).
import assert from "node:assert/strict";
import { test } from "node:test";
import { moduleOf, trackedSourceFiles, unmappedModules } from "./sample.mjs";

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
