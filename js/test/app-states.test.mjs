// The fake host plays the app's states (logged out, double taps, cold start, a slow app), and the
// shim's cancellation, its sharing of the page's receive channel, the server case and usage
// recording.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import { contractsDir, fakeWindow, manualClock, rejection, settleQueue } from "../test-support/support.mjs";

const WINDOW_MS = JSON.parse(readFileSync(path.join(contractsDir, "manifest.json"), "utf8")).limits.duplicateWindowMs;
const APPLY = { slug: "new-user-promo", plan: "premium" };
const APPLY_URL = "https://sendy.co.kr/event/new-user-promo/apply?plan=premium";

function setup(hostOptions, bridgeOptions) {
  const win = fakeWindow();
  const clock = { ms: 0 };
  const host = installFakeHost(Object.assign({ window: win, now: () => clock.ms }, hostOptions));
  return { win, clock, host, bridge: createBridge(Object.assign({ window: win }, bridgeOptions)) };
}

describe("the fake host plays the app's states", () => {
  test("logged out: the reply says pendingLogin, and completeLogin() navigates", async () => {
    const { host, bridge } = setup({ loggedIn: false });
    const result = await bridge.apply(APPLY);
    assert.equal(result.pendingLogin, true);
    assert.deepEqual(host.navigations, []);
    host.completeLogin();
    assert.deepEqual(host.navigations, [{ route: "applyForm", url: APPLY_URL, outcome: "navigated" }]);
    assert.equal((await bridge.start({})).pendingLogin, false, "logged in now");
  });

  test("logged out: logout() cancels the destination waiting for login", async () => {
    const { host, bridge } = setup({ loggedIn: false });
    await bridge.apply(APPLY);
    host.logout();
    assert.deepEqual(host.navigations, [{ route: "applyForm", url: APPLY_URL, outcome: "cancelled" }]);
    host.completeLogin();
    assert.equal(host.navigations.length, 1, "a cancelled destination never navigates");
  });

  test("a second identical tap inside duplicateWindowMs is DUPLICATE: at window - 1 ms, not at the window or after", async () => {
    for (const [later, duplicate] of [[WINDOW_MS - 1, true], [WINDOW_MS, false], [WINDOW_MS + 1, false]]) {
      const { clock, host, bridge } = setup();
      await bridge.apply(APPLY);
      clock.ms += later;
      if (duplicate) assert.equal((await rejection(bridge.apply(APPLY))).code, "DUPLICATE", `after ${later} ms`);
      else assert.equal((await bridge.apply(APPLY)).route, "applyForm", `after ${later} ms`);
      assert.equal(host.navigations.length, duplicate ? 1 : 2);
    }
  });

  test("another payload inside the window is no double tap", async () => {
    const { bridge } = setup();
    await bridge.apply(APPLY);
    assert.equal((await bridge.apply({ slug: "autumn-promo", plan: "premium" })).route, "applyForm");
  });

  test("a cold start: the reply says waitingForReady, and ready() navigates", async () => {
    const { host, bridge } = setup({ coldStart: true });
    const result = await bridge.apply(APPLY);
    assert.equal(result.waitingForReady, true);
    assert.deepEqual(host.navigations, []);
    host.ready();
    assert.deepEqual(host.navigations.map((item) => item.outcome), ["navigated"]);
  });

  test("a cold start while logged out navigates only once both are done", async () => {
    const { host, bridge } = setup({ coldStart: true, loggedIn: false });
    await bridge.apply(APPLY);
    host.ready();
    assert.deepEqual(host.navigations, []);
    host.completeLogin();
    assert.equal(host.navigations.length, 1);
  });

  test("delayMs: a slow app answers after the delay, on the test's clock", async () => {
    const timers = manualClock();
    const { bridge } = setup({ delayMs: 400, setTimeout: timers.setTimeout }, { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout });
    let result = null;
    bridge.apply(APPLY).then((value) => { result = value; });
    await settleQueue();
    timers.advance(399);
    await settleQueue();
    assert.equal(result, null, "not before 400 ms");
    timers.advance(1);
    await settleQueue();
    assert.equal(result.route, "applyForm");
  });
});

describe("cancellation: CallOptions.signal", () => {
  test("an aborted signal settles the call at once with ABORTED, and the late reply is counted, not delivered", async () => {
    const { host, bridge } = setup();
    host.holdNext();
    const controller = new AbortController();
    const call = bridge.apply(APPLY, { signal: controller.signal });
    await settleQueue();
    controller.abort();
    const error = await rejection(call);
    assert.equal(error.code, "ABORTED");
    assert.match(error.message, /may still navigate/);
    assert.equal(host.releaseHeld(), 1);
    await settleQueue();
    assert.equal(bridge.stats.lateReplies, 1);
    assert.equal(bridge.stats.aborted, 1);
  });

  test("a signal aborted before the call sends nothing", async () => {
    const { host, bridge } = setup();
    const error = await rejection(bridge.apply(APPLY, { signal: AbortSignal.abort() }));
    assert.equal(error.code, "ABORTED");
    assert.equal(host.messages.length, 0);
  });

  test("a signal that never fires changes nothing", async () => {
    const { bridge } = setup();
    assert.equal((await bridge.apply(APPLY, { signal: new AbortController().signal })).route, "applyForm");
  });
});

describe("two bridges on one page share its receive channel", () => {
  for (const mode of ["promise", "callback", "androidListener", "androidInterface"]) {
    test(`${mode}: each bridge gets its own replies`, async () => {
      const { win, host, bridge: first } = setup({ mode, validate: false });
      const second = createBridge({ window: win });
      const [a, b] = await Promise.all([first.apply(APPLY), second.start({})]);
      assert.equal(a.route, "applyForm");
      assert.equal(b.route, "onboardingStart");
      for (const bridge of [first, second]) {
        assert.equal(bridge.stats.unmatchedReplies, 0, mode);
        assert.equal(bridge.stats.replies, 1, mode);
      }
      first.dispose();
      assert.equal((await second.start({ from: "x" })).route, "onboardingStart", "the other bridge still hears after one is disposed");
      second.dispose();
      assert.equal(win[CONTRACT.receiveFunction], undefined, "the last bridge removes the receive global");
      host.uninstall();
    });
  }
});

describe("two bridges: late and unknown replies", () => {
  test("a late reply counts for the bridge whose call timed out, not as unmatched for the other", async () => {
    const timers = manualClock();
    const { win, host, bridge: first } = setup({ mode: "callback" }, { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout });
    const second = createBridge({ window: win });
    host.holdNext();
    const call = first.apply(APPLY, { timeoutMs: 100 });
    await settleQueue();
    timers.advance(100);
    assert.equal((await rejection(call)).code, "TIMEOUT");
    host.releaseHeld();
    await settleQueue();
    assert.deepEqual([first.stats.lateReplies, first.stats.unmatchedReplies], [1, 0]);
    assert.deepEqual([second.stats.lateReplies, second.stats.unmatchedReplies], [0, 0]);
  });

  test("a reply no bridge sent is unmatched for each bridge of the page; one that is no JSON object is malformed for each", () => {
    const win = fakeWindow();
    const first = createBridge({ window: win });
    const second = createBridge({ window: win });
    win[CONTRACT.receiveFunction](JSON.stringify({ v: 1, id: "r-nobody-sent-this", ok: true, result: {} }));
    win[CONTRACT.receiveFunction]("[1, 2]");
    for (const bridge of [first, second]) assert.deepEqual([bridge.stats.unmatchedReplies, bridge.stats.malformedReplies], [1, 1]);
  });

  test("aborting a call that waits for the handshake sends it later to nobody: the next call asks again", async () => {
    const { host, bridge } = setup({ inject: false });
    host.holdNext();
    const controller = new AbortController();
    const call = bridge.apply(APPLY, { signal: controller.signal });
    await settleQueue();
    controller.abort();
    assert.equal((await rejection(call)).code, "ABORTED");
    assert.match((await rejection(call)).message, /before it was sent/);
    const next = await bridge.apply(APPLY);
    assert.equal(next.route, "applyForm");
    assert.deepEqual(host.messages.map((message) => message.action), ["capabilities", "capabilities", "apply"]);
  });
});

describe("the usage file reflects the page", () => {
  test("recordUsage: false records nothing (a negative test)", async () => {
    const { host, bridge } = setup({ release: "ios@5.12.0", recordUsage: false });
    await rejection(bridge.apply(APPLY));
    assert.deepEqual(host.usage().calls, []);
  });

  test("offer records every version it offers", async () => {
    const { host, bridge } = setup();
    await bridge.offer("apply", { 2: APPLY, 1: { slug: "new-user-promo" } });
    assert.deepEqual(host.usage().calls, [{ action: "apply", versions: [2, 1] }]);
  });
});

describe("on a server (no window)", () => {
  test("createBridge() sets no global and every call rejects UNAVAILABLE", async () => {
    assert.equal(typeof globalThis.window, "undefined");
    const bridge = createBridge();
    assert.equal(globalThis[CONTRACT.receiveFunction], undefined);
    const error = await rejection(bridge.apply(APPLY));
    assert.equal(error.code, "UNAVAILABLE");
    assert.match(error.message, /without a window/);
    assert.equal(await bridge.linkFor("apply", APPLY), APPLY_URL, "links still build");
  });
});
