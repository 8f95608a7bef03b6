// Every contract fixture (contracts/fixtures, the same files `swift test` and `bridgectl check`
// run) through the generated shim and the fake host.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BridgeError, CONTRACT, buildUniversalLink } from "../bridge.js";
import { NO_REPLY, replyForFixture } from "../testing/fake-host.js";
import { expectedCode, expectedResult, reasonShimCannotBuild, runFixtureThroughShim } from "../test-support/fixture-run.mjs";
import { loadFixtures } from "../test-support/support.mjs";

const fixtures = loadFixtures();

test("the fixture set is there and has both kinds", () => {
  assert.ok(fixtures.length >= 20, `found ${fixtures.length} fixtures`);
  assert.ok(fixtures.some((entry) => entry.fixture.expect.valid));
  assert.ok(fixtures.some((entry) => !entry.fixture.expect.valid));
});

describe("valid fixtures: the shim produces the fixture's message and resolves with its result", () => {
  for (const entry of fixtures.filter((item) => item.fixture.expect.valid)) {
    test(entry.path, async () => {
      const { fixture } = entry;
      assert.equal(await reasonShimCannotBuild(fixture), null, "every valid message must be producible by the shim");
      const run = await runFixtureThroughShim(fixture);
      assert.equal(run.error, undefined, run.error && run.error.message);
      assert.ok(run.envelope, "the fake host received a message");
      assert.deepEqual(run.differences, [], "envelope equals the fixture's message apart from id and sentAt");
      assert.deepEqual(run.host.mismatches, []);
      if ("id" in fixture.message) assert.match(run.envelope.id, /^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$/);
      assert.match(run.envelope.sentAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      const expected = replyForFixture(fixture);
      if (expected === NO_REPLY) {
        assert.equal(run.result, undefined, "a notification resolves with nothing");
        assert.equal(run.host.replies.length, 0);
      } else {
        assert.deepEqual(run.result, expectedResult(fixture, run.envelope));
      }
    });
  }
});

describe("valid fixtures: the shim's link builder gives the URL the Swift host is expected to reply", () => {
  for (const entry of fixtures.filter((item) => item.fixture.expect.valid)) {
    test(entry.path, async () => {
      const { message, expect } = entry.fixture;
      const expectedURL = (expect.reply && expect.reply.result && expect.reply.result.url) || (expect.navigation && expect.navigation.url);
      assert.ok(expectedURL, "the fixture names the destination URL");
      assert.equal(await buildUniversalLink(message.action, message.version, message.payload), expectedURL);
      const expectedRoute = (expect.reply && expect.reply.result && expect.reply.result.route) || expect.navigation.route;
      assert.equal(CONTRACT.actions[message.action].versions[message.version].route, expectedRoute);
    });
  }
});

describe("invalid fixtures: the call rejects with the fixture's BridgeError code", () => {
  const notBuildable = [];
  for (const entry of fixtures.filter((item) => !item.fixture.expect.valid)) {
    test(entry.path, async (t) => {
      const { fixture } = entry;
      const code = expectedCode(fixture);
      const reason = await reasonShimCannotBuild(fixture);
      if (reason !== null) {
        // Not skipped: the claim that the shim cannot produce this message is itself checked.
        notBuildable.push(`${entry.path}: ${reason}`);
        t.diagnostic(`the shim cannot produce this message: ${reason}`);
        if (fixture.message && fixture.message.campaign && /campaign fields/.test(reason)) {
          const run = await runFixtureThroughShim(fixture, { defaultReply: true });
          assert.notDeepEqual(run.differences, [], "the shim's envelope differs from the fixture's");
          assert.equal(run.envelope.campaign && run.envelope.campaign.source, undefined);
        } else if (fixture.message && /not in the contract/.test(reason)) {
          const run = await runFixtureThroughShim(fixture);
          assert.equal(run.envelope, undefined, "nothing was sent");
          assert.equal(run.error.code, "UNKNOWN_ACTION");
        }
        return;
      }
      const run = await runFixtureThroughShim(fixture);
      assert.ok(run.error instanceof BridgeError, `expected a BridgeError ${code}, got ${run.error ? run.error : JSON.stringify(run.result)}`);
      if (run.envelope === undefined) {
        t.diagnostic(`refused by the shim before sending: ${run.error.message}`);
      } else {
        assert.deepEqual(run.differences, [], "envelope equals the fixture's message apart from id and sentAt");
        assert.deepEqual(run.host.mismatches, []);
      }
      assert.equal(run.error.code, code);
      for (const item of fixture.expect.errors || []) {
        if (run.envelope !== undefined) assert.ok(run.error.details.some((detail) => detail.instanceLocation === item.instanceLocation));
      }
    });
  }
  test("only messages a page cannot produce are left out, and they are few", () => {
    const invalid = fixtures.filter((item) => !item.fixture.expect.valid).length;
    assert.ok(notBuildable.length <= invalid / 3, notBuildable.join("\n"));
  });
});
