// The generated event validators (validators.js eventValidators, "event:NAME@N") against the
// contracts' event fixtures and the Swift host: every event version of the contract table has a
// check; a valid event passes and each invalid fixture fails with the errors it names; a page that
// validates events gets the valid one and drops the invalid one; and for every event fixture, and
// the built-in navigation_completed's examples and a broken copy of each, the JS check and the
// app's checker (`bridgectl host --stdio`, an emit line per message) give the same verdict and the
// same errors (instanceLocation, keyword, keywordLocation, absoluteKeywordLocation).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import * as validators from "../validators.js";
import { BUILT_IN_EVENTS } from "../src/events.js";
import { loadEventFixtures } from "../src/fixture-runner.mjs";
import { bridgectl, contractsDir, fakeWindow } from "../test-support/support.mjs";

const fixtures = loadEventFixtures(contractsDir);
const checkOf = (message) => validators.eventValidators[`event:${message.event}@${message.version}`];

/** The built-in event (no fixtures of a contract set): two valid messages and two broken ones. */
const NAVIGATION_COMPLETED = [
  { v: 1, event: "navigation_completed", version: 1, payload: { requestId: "r-1", route: "applyForm", outcome: "navigated" } },
  { v: 1, event: "navigation_completed", version: 1, payload: { requestId: "r-2", route: "vehicleDetail", outcome: "failed", reason: "step_timeout" } },
  { v: 1, event: "navigation_completed", version: 1, payload: { requestId: "", route: "applyForm", outcome: "opened_web" } },
  { v: 1, event: "navigation_completed", version: 1, payload: { route: "applyForm", outcome: "navigated", extra: true } },
];

const unitKey = (unit) => JSON.stringify([unit.instanceLocation, unit.keyword, unit.keywordLocation, unit.absoluteKeywordLocation]);

/**
 * The app's checker on each message, emitted through `bridgectl host --stdio --ack`: what the host
 * printed before a line's ack is that line's outcome, a page-event line or an error with details.
 */
function checkerVerdicts(messages) {
  const input = messages.map((message) => JSON.stringify({ type: "emit", event: message.event, version: message.version, payload: message.payload })).join("\n") + "\n";
  const run = bridgectl(["host", "--stdio", "--manual-clock", "--ack", "--contracts", contractsDir], input);
  assert.equal(run.status, 0, run.stderr);
  const verdicts = [];
  let current = null;
  for (const line of run.stdout.split("\n").filter(Boolean).map((text) => JSON.parse(text))) {
    if (line.type === "page-event") current = { valid: true, errors: [] };
    else if (line.type === "error" && current === null) current = { valid: false, errors: line.details || [], message: line.message };
    else if (line.type === "ack") {
      verdicts.push(current);
      current = null;
    }
  }
  return verdicts;
}

describe("generated event validators", () => {
  test("every event version of the contract table and of the built-in events has a check, and nothing else does", () => {
    const expected = Object.entries(Object.assign({}, BUILT_IN_EVENTS, CONTRACT.events))
      .flatMap(([name, entry]) => Object.keys(entry.versions).map((version) => `event:${name}@${version}`));
    assert.deepEqual(Object.keys(validators.eventValidators).sort(), expected.sort());
    assert.ok(expected.includes("event:navigation_completed@1") && expected.includes("event:login_state_changed@1"));
  });

  test("the event fixtures: a valid message passes, an invalid one fails with the errors it names", () => {
    assert.ok(fixtures.some((entry) => entry.fixture.expect.valid) && fixtures.some((entry) => !entry.fixture.expect.valid));
    for (const { path, fixture } of fixtures) {
      const verdict = checkOf(fixture.message)(fixture.message);
      assert.equal(verdict.valid, fixture.expect.valid, `${path}: ${JSON.stringify(verdict.errors)}`);
      for (const wanted of fixture.expect.errors || []) {
        assert.ok(verdict.errors.some((error) => error.instanceLocation === wanted.instanceLocation && (!wanted.keyword || error.keyword === wanted.keyword)),
          `${path}: no error at ${wanted.instanceLocation}: ${JSON.stringify(verdict.errors)}`);
      }
    }
  });

  test("a page validating events with them gets the valid event and drops the invalid one", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win });
    const bridge = createBridge({ window: win, validate: validators });
    const got = [];
    bridge.on("login_state_changed", (payload) => { got.push(payload); });
    const valid = fixtures.find((entry) => entry.event === "login_state_changed" && entry.fixture.expect.valid).fixture.message;
    const invalid = fixtures.find((entry) => entry.event === "login_state_changed" && !entry.fixture.expect.valid).fixture.message;
    host.emit("login_state_changed", 1, invalid.payload).emit("login_state_changed", 1, valid.payload);
    await host.flush();
    assert.deepEqual(got, [valid.payload]);
    assert.equal(bridge.stats.invalidEvents, 1);
  });

  test("the JS checks and the app's checker agree on every event fixture and on navigation_completed", (t) => {
    const messages = fixtures.map((entry) => entry.fixture.message).concat(NAVIGATION_COMPLETED);
    const verdicts = checkerVerdicts(messages);
    assert.equal(verdicts.length, messages.length, "one verdict of the host per message");
    let compared = 0;
    messages.forEach((message, index) => {
      const fromNode = checkOf(message)(message);
      const fromChecker = verdicts[index];
      assert.ok(fromChecker, `no verdict of the host for ${JSON.stringify(message)}`);
      assert.equal(fromNode.valid, fromChecker.valid, `${JSON.stringify(message)}: node ${fromNode.valid}, host ${fromChecker.valid} ${fromChecker.message || ""}`);
      assert.deepEqual(fromNode.errors.map(unitKey).sort(), fromChecker.errors.map(unitKey).sort(), JSON.stringify(message));
      compared += fromNode.errors.length;
    });
    assert.ok(verdicts.some((verdict) => verdict.valid) && verdicts.some((verdict) => !verdict.valid));
    t.diagnostic(`${messages.length} event messages (${fixtures.length} fixtures, ${NAVIGATION_COMPLETED.length} navigation_completed): same verdicts, ${compared} errors compared`);
  });
});
