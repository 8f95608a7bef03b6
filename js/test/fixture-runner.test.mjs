// The fixture runner the kit ships (testing/fixtures.test.mjs, runtime src/fixture-runner.mjs), run
// as the web team runs it: `BRIDGE_CONTRACTS=DIR node --test KIT/testing/`, on this repository's
// kit and set, and on kits generated in a temporary folder for other companies' sets: Larkspur
// Foods (the adopter-app template's contracts), Yumtable (Tests/contracts/food-delivery) and the
// set `bridgectl init` writes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { loadEventFixtures } from "../src/fixture-runner.mjs";
import { bridgectl, contractsDir, loadFixtures, repoRoot } from "../test-support/support.mjs";

const larkspur = path.join(repoRoot, "Tests", "adopter-app", "Sources", "LarkspurApp", "contracts");
const foodDelivery = path.join(repoRoot, "Tests", "contracts", "food-delivery", "contracts");
let scratch;
let larkspurKit;

before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-fixture-runner-"));
  larkspurKit = generateKit(larkspur, "larkspur-kit");
});

/** A kit generated for a contracts folder into the scratch folder, at `name`. */
function generateKit(contracts, name) {
  const kit = path.join(scratch, name);
  const generated = bridgectl(["generate", "js", "--contracts", contracts, "--out", kit]);
  assert.equal(generated.status, 0, generated.stderr);
  return kit;
}

/** How many fixture files a contracts folder has. */
function fixtureCount(contracts) {
  return readdirSync(path.join(contracts, "fixtures"), { recursive: true }).filter((name) => name.endsWith(".json")).length;
}

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** node --test of a kit's testing/ folder, with BRIDGE_CONTRACTS set (or not): {status, output, pass, fail}. */
function runKit(kit, contracts, cwd = repoRoot) {
  const env = { ...process.env };
  delete env.BRIDGE_CONTRACTS;
  delete env.NODE_TEST_CONTEXT; // so the child reports on its own, not into this run
  if (contracts !== undefined) env.BRIDGE_CONTRACTS = contracts;
  const result = spawnSync(process.execPath, ["--test", path.join(kit, "testing")], { cwd, env, encoding: "utf8", timeout: 120000 });
  const count = (name) => Number((result.stdout.match(new RegExp(`^# ${name} (\\d+)$`, "m")) || [])[1]);
  return { status: result.status, output: result.stdout + result.stderr, pass: count("pass"), fail: count("fail") };
}

test("the repository's kit runs every fixture and event fixture of contracts/, named relative to the working directory", () => {
  const run = runKit(path.join(repoRoot, "js"), "contracts");
  assert.equal(run.status, 0, run.output);
  assert.equal(run.fail, 0);
  const events = loadEventFixtures(contractsDir);
  assert.ok(events.length >= 2);
  assert.equal(run.pass, loadFixtures().length + events.length + 1, "one test per fixture and event fixture, and the one that the set has both kinds");
  assert.match(run.output, /event-fixtures\/login_state_changed\/v1\/invalid-unknown-reason\.json/);
});

test("an event fixture the kit does not satisfy fails, saying what the page got", () => {
  const copy = path.join(scratch, "contracts-event-broken");
  cpSync(contractsDir, copy, { recursive: true });
  const file = path.join(copy, "event-fixtures", "login_state_changed", "v1", "invalid-unknown-reason.json");
  const fixture = JSON.parse(readFileSync(file, "utf8"));
  fixture.expect = { valid: true }; // the kit's validators still refuse reason "kicked"
  writeFileSync(file, JSON.stringify(fixture));
  const run = runKit(path.join(repoRoot, "js"), copy, scratch);
  assert.notEqual(run.status, 0);
  assert.equal(run.fail, 1, run.output);
  assert.match(run.output, /invalid-unknown-reason\.json: expected the handler to get the message as written, it got \[\]/);
});

test("a kit that hands the page a changed payload fails a valid event fixture, saying what the page got", () => {
  const kit = path.join(scratch, "kit-changing-payloads");
  cpSync(path.join(repoRoot, "js"), kit, { recursive: true, filter: (source) => !source.includes("node_modules") });
  const events = path.join(kit, "src", "events.js");
  const original = readFileSync(events, "utf8");
  const handOver = "handler(message.payload, { event: message.event, version: message.version });";
  assert.ok(original.includes(handOver), "events.js hands the payload over as it did when this test was written");
  writeFileSync(events, original.replace(handOver, "handler({ ...message.payload, added: 1 }, { event: message.event, version: message.version });"));
  const run = runKit(kit, "contracts");
  assert.notEqual(run.status, 0);
  assert.equal(run.fail, loadEventFixtures(contractsDir).filter((entry) => entry.fixture.expect.valid).length, run.output);
  assert.match(run.output, /valid-login\.json: expected the handler to get the message as written, it got \[\{"v":1,"event":"login_state_changed","version":1,"payload":\{"loggedIn":true,"reason":"login","added":1\}\}\]/);
});

test("without BRIDGE_CONTRACTS the runner fails, saying how to name the folder", () => {
  const run = runKit(path.join(repoRoot, "js"), undefined);
  assert.notEqual(run.status, 0);
  assert.equal(run.fail, 1);
  assert.match(run.output, /set BRIDGE_CONTRACTS to the contracts folder/);
});

test("a kit generated for another company's set runs that set's fixtures", () => {
  const run = runKit(larkspurKit, larkspur, scratch);
  assert.equal(run.status, 0, run.output);
  assert.equal(run.pass, 3, run.output);
  assert.match(run.output, /fixtures\/order_menu\/v1\/valid-large\.json/);
});

test("a kit generated for the set bridgectl init writes passes that set's fixtures", () => {
  const project = path.join(scratch, "fresh");
  mkdirSync(project);
  const init = bridgectl(["init", project, "--bridge", "freshBridge", "--web-base-url", "https://www.fresh.example", "--scheme", "fresh"]);
  assert.equal(init.status, 0, init.stderr);
  const contracts = path.join(project, "contracts");
  const kit = generateKit(contracts, "fresh-kit");
  const run = runKit(kit, "contracts", project);
  assert.equal(run.status, 0, run.output);
  assert.equal(run.pass, fixtureCount(contracts) + 1, run.output);
});

test("a kit generated for the food-delivery set passes every fixture of it", () => {
  const run = runKit(generateKit(foodDelivery, "food-delivery-kit"), foodDelivery, scratch);
  assert.equal(run.status, 0, run.output);
  assert.equal(run.pass, fixtureCount(foodDelivery) + 1, run.output);
});

test("a fixture the shim does not satisfy fails, named with what differs", () => {
  const copy = path.join(scratch, "larkspur-broken");
  cpSync(larkspur, copy, { recursive: true });
  const file = path.join(copy, "fixtures", "order_menu", "v1", "valid-large.json");
  const fixture = JSON.parse(readFileSync(file, "utf8"));
  fixture.message.payload.size = "regular"; // the expected reply still says large
  writeFileSync(file, JSON.stringify(fixture));
  const run = runKit(larkspurKit, copy, scratch);
  assert.notEqual(run.status, 0);
  assert.equal(run.fail, 1, run.output);
  assert.match(run.output, /fixtures\/order_menu\/v1\/valid-large\.json: the shim's link is \S+size=regular, the fixture expects \S+size=large/);
});
