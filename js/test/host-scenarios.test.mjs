// The shared table Tests/shared/host-scenarios.json, run through both hosts: the JS fake host
// (behind the shim) and the Swift host (`bridgectl host --stdio`). Each must give every reply and
// navigation the table names, so the two agree with each other and with the table.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import { bridgectl, bridgectlPath, contractsDir, fakeWindow, repoRoot } from "../test-support/support.mjs";

const table = JSON.parse(readFileSync(path.join(repoRoot, "Tests", "shared", "host-scenarios.json"), "utf8"));
const WINDOW_MS = JSON.parse(readFileSync(path.join(contractsDir, "manifest.json"), "utf8")).limits.duplicateWindowMs;

/** A reply as the table writes it. */
function summary(reply) {
  if (!reply.ok) return { ok: false, code: reply.code };
  return { ok: true, route: reply.result.route, pendingLogin: reply.result.pendingLogin === true, waitingForReady: reply.result.waitingForReady === true };
}

async function runOnFakeHost(scenario) {
  const win = fakeWindow("https://event.sendy.co.kr/event/new-user-promo");
  const clock = { ms: 0 };
  const host = installFakeHost(Object.assign({ window: win, now: () => clock.ms }, scenario.host));
  const bridge = createBridge({ window: win });
  const replies = [];
  for (const step of scenario.steps) {
    if (step.call) {
      const [action, version, payload] = step.call;
      replies.push(await bridge.send(action, version, payload).then((result) => ({ ok: true, result }), (error) => ({ ok: false, code: error.code })));
    } else if (step.login) host.completeLogin();
    else if (step.logout) host.logout();
    else if (step.ready) host.ready();
    else if (step.advanceWindow !== undefined) clock.ms += WINDOW_MS + step.advanceWindow;
  }
  return { replies: replies.map(summary), navigations: host.navigations.map((item) => ({ route: item.route, outcome: item.outcome })) };
}

function runOnSwiftHost(scenario) {
  const flags = ["host", "--stdio", "--manual-clock"];
  if (scenario.host.loggedIn === false) flags.push("--logged-out");
  if (scenario.host.coldStart === true) flags.push("--cold-start");
  let calls = 0;
  const lines = scenario.steps.map((step) => {
    if (step.call) {
      calls += 1;
      const [action, version, payload] = step.call;
      return JSON.stringify({ type: "message", body: { v: 1, id: "stdio-" + String(calls).padStart(6, "0"), action, version, payload } });
    }
    if (step.login) return JSON.stringify({ type: "login" });
    if (step.logout) return JSON.stringify({ type: "logout" });
    if (step.ready) return JSON.stringify({ type: "ready" });
    return JSON.stringify({ type: "advance", ms: WINDOW_MS + step.advanceWindow });
  });
  const run = bridgectl(flags, lines.join("\n") + "\n");
  assert.equal(run.status, 0, run.stderr);
  const records = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const errors = records.filter((record) => record.type === "error");
  assert.deepEqual(errors, [], "the Swift host understood every line");
  const replies = records.filter((record) => record.type === "reply")
    .map((record) => record.ok ? { ok: true, result: record.result } : { ok: false, code: record.error.code });
  const outcomes = { navigated: "navigated", cancelled_by_logout: "cancelled" };
  const navigations = records.filter((record) => record.type === "envelope" && outcomes[record.outcome])
    .map((record) => ({ route: record.route, outcome: outcomes[record.outcome] }));
  return { replies: replies.map(summary), navigations };
}

describe("the shared host scenarios: the JS fake host and the Swift host play the app alike", () => {
  test("the table names scenarios", () => assert.ok(table.scenarios.length >= 7));
  for (const scenario of table.scenarios) {
    test(scenario.name, async () => {
      bridgectlPath();
      const expected = { replies: scenario.replies, navigations: scenario.navigations };
      const js = await runOnFakeHost(scenario);
      const swift = runOnSwiftHost(scenario);
      assert.deepEqual(js, expected, "the JS fake host");
      assert.deepEqual(swift, expected, "the Swift host");
    });
  }
});
