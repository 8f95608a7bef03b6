// The generated validators (js/validators.js) agree with the app's C checker, message by message:
// every fixture, and a seeded corpus of generated messages (valid and mutated, Korean, astral,
// code-point boundary lengths, numbers spelled 1.0 and 1e2), run through node and through
// `bridgectl validate --ndjson --format json`. The verdict, the reply code and the set of
// (instanceLocation, keyword, keywordLocation) of the errors must be the same for every message,
// and so must each error's absoluteKeywordLocation; a disagreement fails and prints the message.
// Two contract sets: the bundled contracts, and the test-only js/test-support/wide-contracts
// whose probe action uses every keyword the generator compiles (with assertFormat on).
//
// Size: CORPUS_SIZE messages for the bundled contracts (default 100000) and a third of that for
// the wide set; `make test` runs the default (about ten seconds with a debug bridgectl).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import * as bundled from "../validators.js";
import { corpus } from "../test-support/message-corpus.mjs";
import { bridgectl, bridgectlPath, contractsDir, loadFixtures, repoRoot } from "../test-support/support.mjs";

const SIZE = Number(process.env.CORPUS_SIZE || 100000);
const SEED = Number(process.env.CORPUS_SEED || 20261129);
const wideContracts = path.join(repoRoot, "js", "test-support", "wide-contracts");
let scratch;
let wide;

before(async () => {
  bridgectlPath();
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-agreement-"));
  const generated = bridgectl(["generate", "js", "--contracts", wideContracts, "--out", path.join(scratch, "wide-kit")]);
  assert.equal(generated.status, 0, generated.stderr);
  wide = await import(pathToFileURL(path.join(scratch, "wide-kit", "validators.js")).href);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** bridgectl's verdict on each line: line number -> {valid, code, errors}. */
function checkerVerdicts(lines, contracts, name) {
  const file = path.join(scratch, name + ".ndjson");
  writeFileSync(file, lines.join("\n") + "\n");
  const args = ["validate", "--ndjson", "--format", "json", "--jobs", "2", file];
  if (contracts) args.push("--contracts", contracts);
  // The report runs to tens of megabytes: straight into a file, not through a pipe buffer.
  const output = path.join(scratch, name + ".json");
  const descriptor = openSync(output, "w");
  const run = spawnSync(bridgectlPath(), args, { stdio: ["ignore", descriptor, "pipe"], encoding: "utf8", timeout: 300000 });
  closeSync(descriptor);
  assert.ok(run.status === 0 || run.status === 1, `bridgectl exited ${run.status}: ${run.stderr}`);
  const report = JSON.parse(readFileSync(output, "utf8"));
  const verdicts = new Map();
  for (const result of report.results) verdicts.set(result.line, result);
  return { verdicts, valid: report.valid, invalid: report.invalid };
}

function unitKey(unit) {
  return JSON.stringify([unit.instanceLocation, unit.keyword, unit.keywordLocation]);
}

/**
 * Compares node and bridgectl on every line; returns the counts. Fails with the first
 * disagreements (message text, both verdicts) printed.
 */
function agree(lines, validators, contracts, name, t) {
  const checker = checkerVerdicts(lines, contracts, name);
  const disagreements = [];
  const counts = { messages: lines.length, valid: 0, invalid: 0, errors: 0, falseSchemaUnits: 0, codes: {}, keywords: new Set() };
  lines.forEach((text, index) => {
    const fromChecker = checker.verdicts.get(index + 1) || { valid: true, errors: [] };
    const fromNode = validators.validate(JSON.parse(text));
    const checkerValid = fromChecker.valid !== false;
    const nodeUnits = fromNode.errors.map(unitKey).sort();
    const checkerUnits = (fromChecker.errors || []).map(unitKey).sort();
    const same = fromNode.valid === checkerValid && (fromNode.code || null) === (fromChecker.code || null)
      && JSON.stringify([...new Set(nodeUnits)]) === JSON.stringify([...new Set(checkerUnits)]);
    if (!same) {
      disagreements.push(`line ${index + 1}: ${text}\n  node:      ${fromNode.valid ? "valid" : fromNode.code} ${JSON.stringify(nodeUnits)}\n  bridgectl: ${checkerValid ? "valid" : fromChecker.code} ${JSON.stringify(checkerUnits)}`);
      return;
    }
    // absoluteKeywordLocation too, `false` subschemas included: each names its own place.
    for (const unit of fromChecker.errors || []) {
      const twin = fromNode.errors.find((other) => unitKey(other) === unitKey(unit) && other.absoluteKeywordLocation === unit.absoluteKeywordLocation)
        || fromNode.errors.find((other) => unitKey(other) === unitKey(unit));
      if (twin.error === "no value is allowed here (the schema is false)") counts.falseSchemaUnits += 1;
      if (twin.absoluteKeywordLocation !== unit.absoluteKeywordLocation) {
        disagreements.push(`line ${index + 1}: ${text}\n  absoluteKeywordLocation of ${unitKey(unit)}: node ${twin.absoluteKeywordLocation}, bridgectl ${unit.absoluteKeywordLocation}`);
        return;
      }
    }
    counts[checkerValid ? "valid" : "invalid"] += 1;
    if (!checkerValid) counts.codes[fromChecker.code] = (counts.codes[fromChecker.code] || 0) + 1;
    counts.errors += checkerUnits.length;
    for (const unit of fromChecker.errors || []) counts.keywords.add(unit.keyword);
  });
  assert.equal(checker.valid + checker.invalid, lines.length, "bridgectl read every line");
  assert.equal(disagreements.length, 0, `${disagreements.length} of ${lines.length} messages disagree:\n${disagreements.slice(0, 8).join("\n")}`);
  t.diagnostic(`${name}: ${counts.messages} messages agree: ${counts.valid} valid, ${counts.invalid} invalid ` +
    `(${Object.entries(counts.codes).map(([code, n]) => `${code} ${n}`).join(", ")}), ${counts.errors} errors compared ` +
    `(instanceLocation, keyword, keywordLocation and absoluteKeywordLocation; ${counts.falseSchemaUnits} of them reported by a false subschema)`);
  t.diagnostic(`${name}: keywords with errors: ${[...counts.keywords].sort().join(", ")}`);
  return counts;
}

describe("generated validators and the C checker agree", () => {
  test("on every fixture's message (the bundled contracts)", (t) => {
    const fixtures = loadFixtures();
    const raw = fixtures.filter((entry) => entry.fixture.raw !== undefined);
    const lines = fixtures.filter((entry) => entry.fixture.raw === undefined).map((entry) => JSON.stringify(entry.fixture.message));
    const counts = agree(lines, bundled, contractsDir, "fixtures", t);
    assert.ok(counts.valid > 0 && counts.invalid > 0);
    // A raw body (duplicate keys) is refused by the app's parser before any schema; JSON.parse
    // cannot see it, so it is not a validator's case. Named, not hidden:
    t.diagnostic(`not comparable (raw bodies the parser refuses): ${raw.map((entry) => entry.path).join(", ")}`);
    assert.ok(raw.length <= 3);
  });

  test(`on ${SIZE} generated messages (the bundled contracts, seed ${SEED})`, (t) => {
    const counts = agree(corpus("bundled", SIZE, SEED), bundled, undefined, "bundled corpus", t);
    assert.ok(counts.valid >= SIZE / 20, `too few valid messages (${counts.valid}) to mean much`);
    for (const code of ["INVALID_MESSAGE", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION", "INVALID_PARAMS"]) {
      assert.ok(counts.codes[code] > 0, `no ${code} in the corpus`);
    }
    for (const keyword of ["type", "enum", "const", "required", "additionalProperties", "pattern", "minLength", "maxLength", "minimum", "maximum"]) {
      assert.ok(counts.keywords.has(keyword), `the corpus never breaks ${keyword}`);
    }
  });

  test(`on ${Math.round(SIZE / 3)} generated messages (the wide test contracts: every compiled keyword, formats asserted)`, (t) => {
    const counts = agree(corpus("wide", Math.round(SIZE / 3), SEED + 1), wide, wideContracts, "wide corpus", t);
    assert.ok(counts.valid >= SIZE / 200, `too few valid messages (${counts.valid})`);
    const expected = [
      "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
      "pattern", "format", "maxItems", "minItems", "uniqueItems", "contains", "maxProperties", "minProperties", "required",
      "dependentRequired", "dependencies", "additionalProperties", "propertyNames", "prefixItems", "items", "anyOf", "oneOf",
      "not", "properties",
    ];
    const missing = expected.filter((keyword) => !counts.keywords.has(keyword));
    assert.deepEqual(missing, [], "keywords the corpus never breaks");
  });
});
