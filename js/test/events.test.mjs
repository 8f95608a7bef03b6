// App events (app-to-page messages {v: 1, event, version, payload}) through the shim: bridge.on on
// each of the four channels, unsubscribing, what is counted and dropped (before any subscriber,
// unknown, malformed, rejected by the validators), handlers that throw, the fake host's
// navigation_completed after a wait (login, cold start, logout), and replies alongside events.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import { fakeWindow } from "../test-support/support.mjs";

const MODES = ["promise", "callback", "androidListener", "androidInterface"];
const APPLY = { slug: "new-user-promo", plan: "premium" };
const DONE = { requestId: "r-0123456789", route: "applyForm", outcome: "navigated" };
// A contract with an event of its own, as the generated table will list it.
const WITH_EVENTS = Object.assign({}, CONTRACT, { events: { coupon_issued: { versions: { 1: true, 2: true }, latest: 2 } } });

function setup(hostOptions, bridgeOptions) {
  const win = fakeWindow();
  const host = installFakeHost(Object.assign({ window: win }, hostOptions));
  return { win, host, bridge: createBridge(Object.assign({ window: win }, bridgeOptions)) };
}

/** Subscribes a recorder to `event`: its calls as [payload, meta]. */
function record(bridge, event) {
  const calls = [];
  const unsubscribe = bridge.on(event, (payload, meta) => { calls.push([payload, meta]); });
  return { calls, unsubscribe };
}

/** The event counters of a bridge's stats. */
function eventStats(bridge) {
  const { events, unhandledEvents, unknownEvents, malformedEvents, invalidEvents, handlerErrors } = bridge.stats;
  return { events, unhandledEvents, unknownEvents, malformedEvents, invalidEvents, handlerErrors };
}

const counts = (changes) => Object.assign({ events: 0, unhandledEvents: 0, unknownEvents: 0, malformedEvents: 0, invalidEvents: 0, handlerErrors: 0 }, changes);

describe("bridge.on: events on each channel", () => {
  for (const mode of MODES) {
    test(`${mode}: a subscribed handler gets the payload and {event, version}, in the order the events came`, async () => {
      const { host, bridge } = setup({ mode });
      const { calls } = record(bridge, "navigation_completed");
      host.emit("navigation_completed", 1, DONE).emit("navigation_completed", 1, Object.assign({}, DONE, { outcome: "failed", reason: "route_not_found" }));
      await host.flush();
      assert.deepEqual(calls, [
        [DONE, { event: "navigation_completed", version: 1 }],
        [Object.assign({}, DONE, { outcome: "failed", reason: "route_not_found" }), { event: "navigation_completed", version: 1 }],
      ]);
      assert.deepEqual(eventStats(bridge), counts({ events: 2 }));
    });
  }

  test("an event of the contract's own events, at each version it lists, reaches its handlers", async () => {
    const { host, bridge } = setup({}, { contract: WITH_EVENTS });
    const { calls } = record(bridge, "coupon_issued");
    host.emit("coupon_issued", 1, { couponId: "c1" }).emit("coupon_issued", 2, { couponId: "c2", amount: 5000 }).emit("coupon_issued", 3, {});
    await host.flush();
    assert.deepEqual(calls.map(([payload, meta]) => [payload.couponId, meta.version]), [["c1", 1], ["c2", 2]]);
    assert.deepEqual(eventStats(bridge), counts({ events: 2, unknownEvents: 1 }));
  });

  test("the event as JSON text, or as an object, through the receive function itself", async () => {
    const { win, host, bridge } = setup({ mode: "callback" });
    const { calls } = record(bridge, "navigation_completed");
    win[CONTRACT.receiveFunction](JSON.stringify({ v: 1, event: "navigation_completed", version: 1, payload: DONE }));
    win[CONTRACT.receiveFunction]({ v: 1, event: "navigation_completed", version: 1, payload: DONE });
    await host.flush();
    assert.equal(calls.length, 2);
  });
});

describe("bridge.on: subscriptions", () => {
  test("unsubscribing removes that handler only, and again does nothing", async () => {
    const { host, bridge } = setup();
    const first = record(bridge, "navigation_completed");
    const second = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    first.unsubscribe();
    first.unsubscribe();
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual([first.calls.length, second.calls.length], [1, 2]);
    second.unsubscribe();
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual([first.calls.length, second.calls.length], [1, 2]);
    assert.deepEqual(eventStats(bridge), counts({ events: 3, unhandledEvents: 1 }));
  });

  test("the same function subscribed twice is two subscriptions: each unsubscribe ends one", async () => {
    const { host, bridge } = setup();
    let calls = 0;
    const handler = () => { calls += 1; };
    const unsubscribe = bridge.on("navigation_completed", handler);
    bridge.on("navigation_completed", handler);
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    unsubscribe();
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.equal(calls, 3);
  });

  test("an event before any subscriber is counted unhandled and dropped, not kept for a later one", async () => {
    const { host, bridge } = setup();
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual(eventStats(bridge), counts({ events: 1, unhandledEvents: 1 }));
    const { calls } = record(bridge, "navigation_completed");
    await host.flush();
    assert.deepEqual(calls, []);
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.equal(calls.length, 1);
  });

  test("a handler of another event does not make an event handled", async () => {
    const { host, bridge } = setup({}, { contract: WITH_EVENTS });
    const { calls } = record(bridge, "coupon_issued");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual(calls, []);
    assert.deepEqual(eventStats(bridge), counts({ events: 1, unhandledEvents: 1 }));
  });

  test("two bridges on one page: each has its own subscriptions and counts every event", async () => {
    const { win, host, bridge: first } = setup();
    const second = createBridge({ window: win });
    const { calls } = record(first, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.equal(calls.length, 1);
    assert.deepEqual(eventStats(first), counts({ events: 1 }));
    assert.deepEqual(eventStats(second), counts({ events: 1, unhandledEvents: 1 }));
    first.dispose();
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.equal(calls.length, 1, "a disposed bridge hears no more events");
    assert.equal(second.stats.unhandledEvents, 2);
  });
});

describe("unknown, malformed and throwing: counted, never thrown", () => {
  test("a name or version neither the contract nor the built-in events have is unknown", async () => {
    const { host, bridge } = setup();
    const { calls } = record(bridge, "navigation_completed");
    record(bridge, "coupon_issued");
    host.emit("coupon_issued", 1, {}).emit("navigation_completed", 2, DONE).emit("constructor", 1, {}).emit("__proto__", 1, {});
    await host.flush();
    assert.deepEqual(calls, []);
    assert.deepEqual(eventStats(bridge), counts({ unknownEvents: 4 }));
  });

  test("v not 1, a name not a string, a version not a positive integer or a payload not an object is malformed", async () => {
    const { win, host, bridge } = setup();
    const { calls } = record(bridge, "navigation_completed");
    const receive = win[CONTRACT.receiveFunction];
    const event = { v: 1, event: "navigation_completed", version: 1, payload: DONE };
    const broken = [
      { v: 2 }, { v: "1" }, { event: 7 }, { event: null }, { version: 0 }, { version: -1 }, { version: 1.5 }, { version: "1" },
      { payload: null }, { payload: [] }, { payload: "{}" }, { payload: undefined },
    ];
    for (const change of broken) assert.equal(receive(Object.assign({}, event, change)), undefined);
    receive(JSON.stringify({ v: 1, event: "navigation_completed", version: 1 }));
    await host.flush();
    assert.deepEqual(calls, []);
    assert.deepEqual(eventStats(bridge), counts({ malformedEvents: broken.length + 1 }));
    assert.deepEqual([bridge.stats.unmatchedReplies, bridge.stats.malformedReplies], [0, 0], "none of them is counted as a reply");
  });

  test("a handler that throws is counted and reported; the other handlers and the bridge go on", async () => {
    const { win, host, bridge } = setup();
    const reported = [];
    win.reportError = (error) => { reported.push(error.message); };
    const before = record(bridge, "navigation_completed");
    bridge.on("navigation_completed", () => { throw new Error("page bug"); });
    const after = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual([before.calls.length, after.calls.length], [1, 1]);
    assert.deepEqual(reported, ["page bug"]);
    assert.equal(bridge.stats.handlerErrors, 1);
    assert.equal((await bridge.apply(APPLY)).route, "applyForm", "replies still work");
  });

  test("without window.reportError, a throwing handler is only counted (no uncaught error)", async () => {
    const { host, bridge } = setup({ mode: "androidListener" });
    bridge.on("navigation_completed", () => { throw new Error("page bug"); });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.equal(calls.length, 1);
    assert.equal(bridge.stats.handlerErrors, 1);
  });
});

describe("the fake host sends navigation_completed when a wait ends", () => {
  for (const mode of MODES) {
    test(`${mode}: logged out, the reply says pendingLogin; completeLogin() -> navigated, with the call's id`, async () => {
      const { host, bridge } = setup({ mode, loggedIn: false });
      const { calls } = record(bridge, "navigation_completed");
      const result = await bridge.apply(APPLY);
      assert.equal(result.pendingLogin, true);
      await host.flush();
      assert.deepEqual(calls, [], "nothing before the login");
      host.completeLogin();
      await host.flush();
      const requestId = host.messages.filter((message) => message.action === "apply")[0].id;
      assert.equal(typeof requestId, "string");
      assert.equal(result.requestId, requestId, "the unfinished call's result names the id the event names");
      assert.deepEqual(calls, [[{ requestId, route: "applyForm", outcome: "navigated" }, { event: "navigation_completed", version: 1 }]]);
    });
  }

  test("logout while waiting for login -> cancelled_by_logout, without a reason", async () => {
    const { host, bridge } = setup({ loggedIn: false });
    const { calls } = record(bridge, "navigation_completed");
    await bridge.apply(APPLY);
    host.logout();
    host.completeLogin();
    await host.flush();
    assert.deepEqual(calls.map(([payload]) => payload), [{ requestId: host.messages.at(-1).id, route: "applyForm", outcome: "cancelled_by_logout" }]);
    assert.deepEqual(host.navigations.map((item) => item.outcome), ["cancelled"], "host.navigations keeps its own names");
  });

  test("a cold start: the reply says waitingForReady; ready() -> navigated", async () => {
    const { host, bridge } = setup({ coldStart: true });
    const { calls } = record(bridge, "navigation_completed");
    assert.equal((await bridge.start({})).waitingForReady, true);
    host.ready();
    await host.flush();
    assert.deepEqual(calls.map(([payload]) => [payload.route, payload.outcome]), [["onboardingStart", "navigated"]]);
  });

  test("a navigation that ended before its reply carries no request id", async () => {
    const { bridge } = setup({});
    const result = await bridge.apply(APPLY);
    assert.equal(result.pendingLogin, false);
    assert.equal("requestId" in result, false);
  });

  test("a destination that navigates at once, or a notification (no id, no reply), sends no event", async () => {
    const { host, bridge } = setup();
    await bridge.apply(APPLY);
    const waiting = setup({ loggedIn: false });
    await waiting.bridge.viewVehiclesV1({ sort: "price" }, { notify: true });
    waiting.host.completeLogin();
    await Promise.all([host.flush(), waiting.host.flush()]);
    assert.deepEqual([host.events, waiting.host.events], [[], []]);
    assert.equal(waiting.host.navigations.length, 1, "the notification did navigate");
  });
});

describe("replies alongside events", () => {
  test("a message with an id is a reply even with an event field; one with neither id nor event stays an unmatched reply", async () => {
    const { win, host, bridge } = setup({ mode: "callback" });
    const { calls } = record(bridge, "navigation_completed");
    const receive = win[CONTRACT.receiveFunction];
    receive({ v: 1, id: "r-nobody-sent-this", event: "navigation_completed", version: 1, payload: DONE });
    receive({ v: 1, ok: true, result: {} });
    await host.flush();
    assert.deepEqual(calls, []);
    assert.equal(bridge.stats.unmatchedReplies, 2);
    assert.equal(bridge.stats.events, 0);
  });

  for (const mode of MODES) {
    test(`${mode}: a call waiting for its reply settles while events arrive`, async () => {
      const { host, bridge } = setup({ mode });
      const { calls } = record(bridge, "navigation_completed");
      host.holdNext();
      const call = bridge.apply(APPLY);
      await host.flush();
      host.emit("navigation_completed", 1, DONE);
      assert.equal(host.releaseHeld(), 1);
      assert.equal((await call).route, "applyForm");
      await host.flush();
      assert.equal(calls.length, 1);
      assert.deepEqual([bridge.stats.replies, bridge.stats.unmatchedReplies, bridge.stats.lateReplies], [1, 0, 0]);
    });
  }
});

describe("events with validation on", () => {
  const checkRequestId = (message) => ({ valid: typeof message.payload.requestId === "string" });

  test("an event the validators reject is counted invalid and not delivered; one they accept is", async () => {
    const validators = { validate: () => ({ valid: true, errors: [] }), eventValidators: { "event:navigation_completed@1": checkRequestId } };
    const { host, bridge } = setup({}, { validate: validators });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, { route: "applyForm", outcome: "navigated" }).emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual(calls.map(([payload]) => payload), [DONE]);
    assert.deepEqual(eventStats(bridge), counts({ events: 2, invalidEvents: 1 }));
  });

  test("validators that have no check for the event (a kit generated before events): delivered", async () => {
    const { host, bridge } = setup({}, { validate: { validate: () => ({ valid: true, errors: [] }) } });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, { anything: true });
    await host.flush();
    assert.equal(calls.length, 1);
    assert.equal(bridge.stats.invalidEvents, 0);
  });

  test("validate: true loads the generated validators, whose check of navigation_completed drops a broken one", async () => {
    const { host, bridge } = setup({}, { validate: true });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, { anything: true }).emit("navigation_completed", 1, DONE);
    // The validators module loads on the first event: wait for it, then for the handlers.
    await import("../validators.js");
    await host.flush();
    assert.deepEqual(calls.map(([payload]) => payload), [DONE]);
    assert.equal(bridge.stats.invalidEvents, 1);
  });

  test("a check that throws counts the event invalid, without an uncaught error", async () => {
    const validators = { validate: () => ({ valid: true, errors: [] }), eventValidators: { "event:navigation_completed@1": () => { throw new Error("validator bug"); } } };
    const { host, bridge } = setup({}, { validate: validators });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual(calls, []);
    assert.equal(bridge.stats.invalidEvents, 1);
  });

  test("validators that cannot be loaded: the event is counted invalid, not delivered", async () => {
    const { host, bridge } = setup({}, { validate: true, loadValidators: () => Promise.reject(new Error("offline")) });
    const { calls } = record(bridge, "navigation_completed");
    host.emit("navigation_completed", 1, DONE);
    await host.flush();
    assert.deepEqual(calls, []);
    assert.equal(bridge.stats.invalidEvents, 1);
  });
});
