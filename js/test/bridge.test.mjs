// The generated shim on its own: envelopes, transports, timeouts, late replies, error codes,
// notifications, capabilities and the Universal Link fallback. Node 20 built-ins only.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { BridgeError, CONTRACT, ERROR_CODES, buildUniversalLink, createBridge, encodeComponent } from "../bridge.js";
import { encodeComponent as encodeWithLinkRules } from "../src/link-rules.js";
import { installFakeHost } from "../testing/fake-host.js";
import { contractsDir, fakeWindow, manualClock, rejection, settleQueue } from "../test-support/support.mjs";

const ENVELOPE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$/;
const MODES = ["promise", "callback", "androidListener", "androidInterface"];

function setup(options = {}) {
  const win = fakeWindow(options.href);
  const host = options.noHost ? null : installFakeHost(Object.assign({ window: win }, options.host || {}));
  const clock = manualClock();
  const bridge = createBridge(Object.assign({ window: win, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout }, options.bridge || {}));
  return { win, host, clock, bridge };
}

describe("data table", () => {
  test("is the manifest's and routes' data, not hand-kept", () => {
    const manifest = JSON.parse(readFileSync(path.join(contractsDir, "manifest.json"), "utf8"));
    const routes = JSON.parse(readFileSync(path.join(contractsDir, "routes.json"), "utf8")).routes;
    assert.equal(CONTRACT.bridge, manifest.bridge);
    assert.equal(CONTRACT.webBaseURL, manifest.webBaseURL.replace(/\/+$/, ""));
    assert.deepEqual(Object.keys(CONTRACT.actions), Object.keys(manifest.actions));
    for (const [action, declared] of Object.entries(manifest.actions)) {
      for (const [version, contract] of Object.entries(declared.versions)) {
        const entry = CONTRACT.actions[action].versions[version];
        assert.equal(entry.timeoutMs, contract.timeoutMs, `${action} v${version} timeoutMs`);
        assert.equal(entry.fallback, contract.fallback);
        assert.equal(entry.route, contract.route);
        assert.equal(entry.pattern, routes.find((route) => route.name === contract.route).pattern);
        assert.deepEqual(entry.query.map((field) => [field[0], field[1]]), Object.entries(contract.query || {}), "query mapping in manifest order");
        assert.deepEqual(entry.parameters.map((field) => [field[0], field[1]]), Object.entries(contract.parameters || {}));
      }
    }
    assert.ok(Object.isFrozen(CONTRACT) && Object.isFrozen(CONTRACT.actions.apply.versions["1"].query));
  });
});

describe("envelope", () => {
  test("has v, id, action, version, payload, campaign, sentAt in that order", async () => {
    const { host, bridge } = setup({ href: "https://event.sendy.co.kr/e?campaign_id=c1&utm_source=kakaotalk", bridge: { now: () => new Date("2026-11-29T12:00:00Z") } });
    await bridge.applyV1({ slug: "new-user-promo" });
    const envelope = host.messages[0];
    assert.deepEqual(Object.keys(envelope), ["v", "id", "action", "version", "payload", "campaign", "sentAt"]);
    assert.match(envelope.id, ENVELOPE_ID);
    assert.deepEqual(envelope.campaign, { campaign_id: "c1", utm_source: "kakaotalk" });
    assert.equal(envelope.sentAt, "2026-11-29T12:00:00.000Z");
  });

  test("omits campaign when the page has none, and ids differ per call", async () => {
    const { host, bridge } = setup();
    await bridge.start();
    await bridge.start({ referrer: "winter-event" });
    assert.equal("campaign" in host.messages[0], false);
    assert.deepEqual(host.messages[0].payload, {});
    assert.notEqual(host.messages[0].id, host.messages[1].id);
  });

  test("fallback ids match the envelope id pattern without crypto.randomUUID", () => {
    const seen = new Set();
    const withBytes = { getRandomValues: (bytes) => bytes.map((_, index) => (index * 37) % 256) };
    for (const cryptoSource of [withBytes, {}, null]) {
      const { host, bridge } = setup({ bridge: { crypto: cryptoSource === null ? undefined : cryptoSource } });
      // crypto: undefined falls back to globalThis.crypto; {} has neither function.
      // The same tap 200 times: the host answers all but the first DUPLICATE, as the app does.
      for (let index = 0; index < 200; index += 1) bridge.start({}, { timeoutMs: 10 }).catch(() => {});
      for (const message of host.messages) {
        assert.match(message.id, ENVELOPE_ID);
        if (cryptoSource !== withBytes) seen.add(message.id);
      }
    }
    assert.equal(seen.size, 400, "fallback ids are unique");
  });
});

describe("campaign metadata from the page URL", () => {
  test("reads each field once decoded; + stays a plus, with a warning; the first non-empty value wins", async () => {
    const href = "https://event.sendy.co.kr/e?variant=%EC%B9%B4%EB%93%9C%20CTA+&group_id=&group_id=B&group_id=C&utm_campaign=a%2Bb&other=x#utm_term=no";
    const { bridge } = setup({ href });
    assert.deepEqual({ ...bridge.campaign }, { group_id: "B", variant: "카드 CTA+", utm_campaign: "a+b" });
    assert.deepEqual((await bridge.campaignWarnings()).map((warning) => [warning.field, warning.reason]), [
      ["variant", "\"카드 CTA+\": \"+\" is read as a literal plus; if a space was meant, use %20"],
      ["group_id", "repeated; the first value is kept"],
    ]);
  });

  test("drops (never trims) values that break the campaign rules, and says why", async () => {
    const long = "가".repeat(65);
    const emoji64 = "😀".repeat(64); // 64 code points, 128 UTF-16 units: fits maxLength 64
    const href = `https://e.sendy.co.kr/?campaign_id=summer%20promo&variant=${encodeComponent(long)}&group_id=${encodeComponent("x".repeat(32))}&utm_content=${encodeComponent(emoji64)}`;
    const { host, bridge } = setup({ href });
    assert.deepEqual(Object.keys(bridge.campaign), ["group_id", "utm_content"]);
    assert.equal(bridge.campaign.utm_content, emoji64);
    const reasons = Object.fromEntries((await bridge.campaignWarnings()).map((warning) => [warning.field, warning.reason]));
    assert.match(reasons.campaign_id, /^"summer promo" dropped, it breaks the campaign rule \(1 to 64 characters: .*\): character 7 is " " \(U\+0020\)/);
    assert.match(reasons.variant, /it is 65 characters long, at most 64 allowed$/);
    return bridge.start().then(() => assert.deepEqual(host.messages[0].campaign, bridge.campaign));
  });

  test("a bad escape makes the page URL unreadable, as the app finds the link: no campaign at all", async () => {
    const { bridge } = setup({ href: "https://e.sendy.co.kr/?group_id=B&utm_term=%E0%A4" });
    assert.deepEqual({ ...bridge.campaign }, {});
    assert.deepEqual((await bridge.campaignWarnings()).map((warning) => [warning.field, warning.reason]), [
      ["url", "query.utm_term: invalid percent-encoding in \"%E0%A4\""],
    ]);
  });

  test("an explicit campaign object is checked the same way", async () => {
    const { bridge } = setup({ bridge: { campaign: { campaign_id: "ok_1", source: "push", variant: "" } } });
    assert.deepEqual({ ...bridge.campaign }, { campaign_id: "ok_1" });
    assert.deepEqual((await bridge.campaignWarnings()).map((warning) => warning.field), ["source"]);
  });
});

describe("transports", () => {
  for (const mode of MODES) {
    test(`${mode}: the call resolves with the app's result`, async () => {
      const { host, bridge, win } = setup({ host: { mode } });
      const result = await bridge.viewVehicles({ region: "경기 남부", page: 2 });
      assert.deepEqual(result, {
        route: "vehicleList",
        url: "https://sendy.co.kr/vehicles?region=%EA%B2%BD%EA%B8%B0%20%EB%82%A8%EB%B6%80&page=2",
        pendingLogin: false,
      });
      assert.equal(host.messages.length, 1);
      assert.equal(typeof win[CONTRACT.receiveFunction], "function");
      assert.equal(bridge.stats.replies, 1);
    });
  }

  test("promise mode accepts a reply delivered as JSON text", async () => {
    const { bridge } = setup({ host: { replyAsString: true } });
    assert.equal((await bridge.start()).route, "onboardingStart");
  });

  test("WebKit prefers its message handler over an Android object on the same page", async () => {
    const { win, host, bridge } = setup();
    let androidPosts = 0;
    win[CONTRACT.androidInterface] = { postMessage: () => { androidPosts += 1; } };
    await bridge.start();
    assert.equal(host.messages.length, 1);
    assert.equal(androidPosts, 0);
  });

  test("a native object injected after createBridge is still found", async () => {
    const win = fakeWindow();
    const bridge = createBridge({ window: win });
    const host = installFakeHost({ window: win, mode: "callback" });
    assert.equal((await bridge.start()).route, "onboardingStart");
    assert.equal(host.messages.length, 1);
  });
});

describe("every call settles", () => {
  for (const mode of MODES) {
    test(`${mode}: no reply means TIMEOUT after the manifest's timeoutMs`, async () => {
      const { host, bridge, clock } = setup({ host: { mode } });
      host.dropNext();
      const call = bridge.applyV1({ slug: "new-user-promo" });
      let settled = false;
      call.then(() => { settled = true; }, () => { settled = true; });
      assert.deepEqual(clock.pendingDelays(), [CONTRACT.actions.apply.versions["1"].timeoutMs]);
      clock.advance(CONTRACT.actions.apply.versions["1"].timeoutMs - 1);
      await settleQueue();
      assert.equal(settled, false, "still waiting 1 ms before the timeout");
      clock.advance(1);
      const error = await rejection(call);
      assert.ok(error instanceof BridgeError);
      assert.equal(error.code, "TIMEOUT");
      assert.equal(bridge.stats.timeouts, 1);
    });

    test(`${mode}: a late reply after the timeout is dropped and counted`, async () => {
      const { host, bridge, clock } = setup({ host: { mode } });
      host.holdNext();
      const call = bridge.viewVehicles({});
      assert.deepEqual(clock.pendingDelays(), [CONTRACT.actions.view_vehicles.versions["1"].timeoutMs]);
      clock.advance(3000);
      assert.equal((await rejection(call)).code, "TIMEOUT");
      assert.equal(host.releaseHeld(), 1);
      await settleQueue();
      assert.equal(bridge.stats.lateReplies, 1);
      assert.equal(bridge.stats.replies, 0);
    });
  }

  test("a reply in time clears the timer", async () => {
    const { bridge, clock } = setup();
    await bridge.start();
    assert.deepEqual(clock.pendingDelays(), []);
  });

  test("a per-call timeoutMs overrides the manifest", async () => {
    const { host, bridge, clock } = setup();
    host.dropNext();
    const call = bridge.start({}, { timeoutMs: 50 });
    assert.deepEqual(clock.pendingDelays(), [50]);
    clock.advance(50);
    assert.equal((await rejection(call)).code, "TIMEOUT");
  });

  test("the real setTimeout is used by default", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win });
    host.dropNext();
    const bridge = createBridge({ window: win });
    const started = Date.now();
    const error = await rejection(bridge.start({}, { timeoutMs: 30 }));
    assert.equal(error.code, "TIMEOUT");
    assert.ok(Date.now() - started >= 25);
  });
});

describe("BridgeError", () => {
  for (const code of ERROR_CODES) {
    test(`the app's ${code} reply rejects with that code and its details`, async () => {
      const { host, bridge } = setup({ host: { mode: "callback" } });
      const details = [{ instanceLocation: "/payload/slug", keywordLocation: "/properties/payload/$ref/properties/slug/pattern", error: "does not match" }];
      host.failNext(code, `the app says ${code}`, details);
      const error = await rejection(bridge.applyV1({ slug: "new-user-promo" }));
      assert.ok(error instanceof BridgeError && error instanceof Error);
      assert.equal(error.name, "BridgeError");
      assert.equal(error.code, code);
      assert.equal(error.message, `the app says ${code}`);
      assert.deepEqual(error.details, details);
    });
  }

  test("an unknown code from the app becomes INTERNAL and keeps its text", async () => {
    const { host, bridge } = setup();
    host.failNext("TEAPOT", "short and stout");
    const error = await rejection(bridge.start());
    assert.equal(error.code, "INTERNAL");
    assert.match(error.message, /TEAPOT/);
  });

  test("a reply that is neither ok nor an error, or not JSON, rejects with INTERNAL", async () => {
    const { host, bridge } = setup();
    host.replyNext({ ok: "yes" });
    assert.equal((await rejection(bridge.start())).code, "INTERNAL");
    host.respondWith(() => ({ ok: true, result: {} }));
    const win = fakeWindow();
    const text = createBridge({ window: win });
    win.webkit = { messageHandlers: { [CONTRACT.bridge]: { postMessage: () => Promise.resolve("not json") } } };
    assert.equal((await rejection(text.start())).code, "INTERNAL");
    assert.equal(text.stats.malformedReplies, 1);
  });

  test("a rejected WebKit reply promise carrying a reply is read as that reply", async () => {
    const win = fakeWindow();
    win.webkit = { messageHandlers: { [CONTRACT.bridge]: { postMessage: (envelope) => Promise.reject(new Error(JSON.stringify({ v: 1, id: envelope.id, ok: false, error: { code: "ORIGIN_REJECTED", message: "no" } }))) } } };
    const bridge = createBridge({ window: win });
    assert.equal((await rejection(bridge.start())).code, "ORIGIN_REJECTED");
    win.webkit.messageHandlers[CONTRACT.bridge].postMessage = () => Promise.reject(new Error("handler gone"));
    const error = await rejection(bridge.start());
    assert.equal(error.code, "INTERNAL");
    assert.match(error.message, /handler gone/);
  });

  test("a reply must answer its own request: a WebKit promise reply with another id rejects with INTERNAL", async () => {
    const win = fakeWindow();
    let answerId = (envelope) => envelope.id;
    win.webkit = { messageHandlers: { [CONTRACT.bridge]: { postMessage: (envelope) => Promise.resolve(envelope.action === "capabilities"
      ? { v: 1, id: envelope.id, ok: false, error: { code: "UNKNOWN_ACTION", message: "an app without a manifest" } }
      : { v: 1, id: answerId(envelope), ok: true, result: { route: "onboardingStart" } }) } } };
    const bridge = createBridge({ window: win });
    assert.deepEqual(await bridge.start(), { route: "onboardingStart" }, "the same transport with the request's own id resolves");
    answerId = () => "another-request-0001";
    const error = await rejection(bridge.start());
    assert.equal(error.code, "INTERNAL");
    assert.match(error.message, /another-request-0001 is not the request's id/);
  });

  test("replies for unknown ids and malformed callback replies are counted, not thrown", async () => {
    const { win, bridge } = setup({ host: { mode: "callback" } });
    win[CONTRACT.receiveFunction](JSON.stringify({ v: 1, id: "never-sent-1", ok: true, result: {} }));
    win[CONTRACT.receiveFunction]("{broken");
    win[CONTRACT.receiveFunction]("[1,2]");
    assert.equal(bridge.stats.unmatchedReplies, 1);
    assert.equal(bridge.stats.malformedReplies, 2);
  });

  test("unknown actions and versions are refused before sending", async () => {
    const { host, bridge } = setup();
    assert.equal((await rejection(bridge.send("fly", 1, {}))).code, "UNKNOWN_ACTION");
    assert.equal((await rejection(bridge.send("apply", 999, { slug: "a" }))).code, "UNSUPPORTED_VERSION");
    assert.equal(host.messages.length, 0);
  });

  test("dispose rejects pending calls with UNAVAILABLE and removes the receive global", async () => {
    const { win, host, bridge } = setup({ host: { mode: "callback" } });
    host.dropNext();
    const call = bridge.start();
    bridge.dispose();
    assert.equal((await rejection(call)).code, "UNAVAILABLE");
    assert.equal(win[CONTRACT.receiveFunction], undefined);
  });
});

describe("notifications", () => {
  test("{notify: true} sends without an id and resolves once posted", async () => {
    const { host, bridge, clock } = setup();
    const result = await bridge.viewVehicles({ vehicleType: "damas" }, { notify: true });
    assert.equal(result, undefined);
    assert.equal("id" in host.messages[0], false);
    assert.deepEqual(clock.pendingDelays(), [], "no timer for a notification");
    assert.equal(host.replies.length, 0, "the host does not answer a notification");
    assert.equal(bridge.stats.notifications, 1);
  });

  test("an action whose schema requires an id cannot be a notification", async () => {
    const { host, bridge } = setup();
    const error = await rejection(bridge.apply({ slug: "new-user-promo" }, { notify: true }));
    assert.equal(error.code, "INVALID_PARAMS");
    assert.equal(error.details[0].keyword, "required");
    assert.equal(host.messages.length, 0);
  });
});

describe("capabilities and fallback", () => {
  test("supports follows the injected capability manifest (isSupported is its older name)", () => {
    const { bridge } = setup({ host: { capabilities: { bridge: CONTRACT.bridge, envelope: 1, app: { platform: "ios", version: "5.2.0" }, actions: { apply: [1, 2] } } } });
    assert.equal(bridge.supports("apply"), true);
    assert.equal(bridge.supports("apply", 1), true);
    assert.equal(bridge.supports("apply", 2), true);
    assert.equal(bridge.supports("apply", 3), false);
    assert.equal(bridge.supports("start"), false);
    assert.equal(bridge.supports("no_such_action"), false);
    assert.equal(bridge.isSupported("start"), false);
    assert.equal(bridge.isSupported("apply", 2), true);
    assert.deepEqual(bridge.capabilities().app, { platform: "ios", version: "5.2.0" });
  });

  test("an app build that knows only apply v1: plain apply (v2) rejects with UNSUPPORTED_VERSION naming v1, never falls back", async () => {
    const { win, host, bridge } = setup({ host: { release: "ios@5.12.0" } });
    assert.equal(bridge.supports("apply", 1), true);
    assert.equal(bridge.supports("apply"), false);
    const error = await rejection(bridge.apply({ slug: "new-user-promo", plan: "premium" }));
    assert.equal(error.code, "UNSUPPORTED_VERSION");
    assert.deepEqual(error.supportedVersions, [1]);
    assert.deepEqual(error.details, [{ action: "apply", supportedVersions: [1] }]);
    assert.match(error.message, /takes apply v1 only/);
    assert.equal(host.messages.length, 0, "nothing posted");
    assert.deepEqual(win.opened, [], "no Universal Link opened inside the app's own WebView");
    assert.equal(bridge.stats.fallbacks, 0);
    const pinned = await bridge.applyV1({ slug: "new-user-promo" });
    assert.equal(pinned.route, "applyForm");
  });

  test("an action the app does not support opens its Universal Link instead of hanging", async () => {
    const href = "https://event.sendy.co.kr/e?campaign_id=2025Q3_signup_retarget&variant=%EC%B9%B4%EB%93%9C%20%2B";
    const { win, host, bridge, clock } = setup({ href, host: { capabilities: { bridge: CONTRACT.bridge, envelope: 1, actions: { apply: [1] } } } });
    const result = await bridge.start({ referrer: "winter-event", promoCode: "WELCOME2026" });
    assert.equal(host.messages.length, 0, "nothing posted to an app that cannot take it");
    assert.deepEqual(clock.pendingDelays(), []);
    const opened = "https://sendy.co.kr/start?referrer=winter-event&promoCode=WELCOME2026&campaign_id=2025Q3_signup_retarget&variant=%EC%B9%B4%EB%93%9C%20%2B";
    assert.deepEqual(win.opened, [opened]);
    assert.deepEqual(result, { route: "onboardingStart", url: "https://sendy.co.kr/start?referrer=winter-event&promoCode=WELCOME2026", pendingLogin: false, fallback: true, openedURL: opened });
    assert.equal(bridge.stats.fallbacks, 1);
  });

  test("a capability manifest for another envelope version supports nothing", () => {
    const { bridge } = setup({ host: { capabilities: { bridge: CONTRACT.bridge, envelope: 2, actions: { apply: [1] } } } });
    assert.equal(bridge.isSupported("apply"), false);
  });

  test("an app that predates capability manifests is asked once, answers UNKNOWN_ACTION, and is trusted to know the contract", async () => {
    const { host, bridge } = setup({ host: { capabilities: null } });
    assert.equal(bridge.supports("start"), true);
    await bridge.start();
    await bridge.start({ referrer: "again" });
    assert.deepEqual(host.messages.map((message) => message.action), ["capabilities", "start", "start"]);
    assert.equal(host.replies[0].reply.error.code, "UNKNOWN_ACTION");
    assert.equal(bridge.capabilities(), null);
  });

  test("outside the app every call opens the Universal Link (window.location.assign)", async () => {
    const { win, bridge } = setup({ noHost: true, href: "https://sendy.co.kr/event/new-user-promo?campaign_id=c1&group_id=B" });
    assert.equal(bridge.isSupported("apply"), false);
    const result = await bridge.apply({ slug: "new-user-promo", plan: "premium", memo: "빠른 상담 & 감사+" });
    assert.deepEqual(win.opened, ["https://sendy.co.kr/event/new-user-promo/apply?plan=premium&memo=%EB%B9%A0%EB%A5%B8%20%EC%83%81%EB%8B%B4%20%26%20%EA%B0%90%EC%82%AC%2B&campaign_id=c1&group_id=B"]);
    assert.equal(result.fallback, true);
    assert.equal(result.url, "https://sendy.co.kr/event/new-user-promo/apply?plan=premium&memo=%EB%B9%A0%EB%A5%B8%20%EC%83%81%EB%8B%B4%20%26%20%EA%B0%90%EC%82%AC%2B");
  });

  test("the fallback refuses a payload whose link the app could not route", async () => {
    const { win, bridge } = setup({ noHost: true });
    const badSlug = await rejection(bridge.apply({ slug: "New Promo" }));
    assert.equal(badSlug.code, "INVALID_PARAMS");
    assert.equal(badSlug.details[0].instanceLocation, "/payload/slug");
    assert.equal((await rejection(bridge.apply({}))).code, "INVALID_PARAMS");
    assert.equal((await rejection(bridge.viewVehicles({ page: -1 }))).code, "INVALID_PARAMS");
    assert.deepEqual(win.opened, []);
  });

  test("with fallback \"none\": UNAVAILABLE outside the app, UNSUPPORTED_VERSION in an app without the action", async () => {
    const contract = JSON.parse(JSON.stringify(CONTRACT));
    contract.actions.start.versions["1"].fallback = "none";
    const outside = setup({ noHost: true, bridge: { contract } });
    const error = await rejection(outside.bridge.start());
    assert.equal(error.code, "UNAVAILABLE");
    assert.deepEqual(outside.win.opened, []);
    const unsupported = setup({ host: { capabilities: { bridge: CONTRACT.bridge, envelope: 1, actions: {} } }, bridge: { contract } });
    const inApp = await rejection(unsupported.bridge.start());
    assert.equal(inApp.code, "UNSUPPORTED_VERSION");
    assert.deepEqual(inApp.supportedVersions, []);
    assert.equal(unsupported.host.messages.length, 0);
  });

  test("a navigation that throws rejects with NAVIGATION_FAILED", async () => {
    const { bridge } = setup({ noHost: true, bridge: { navigate: () => { throw new Error("blocked"); } } });
    assert.equal((await rejection(bridge.start())).code, "NAVIGATION_FAILED");
  });

  test("linkFor builds the same link without sending anything", async () => {
    const { bridge } = setup({ href: "https://e.sendy.co.kr/?utm_source=kakaotalk" });
    assert.equal(await bridge.linkFor("apply", { slug: "a-b" }), "https://sendy.co.kr/event/a-b/apply?utm_source=kakaotalk");
    assert.equal(await bridge.linkFor("apply", { slug: "a-b" }, { campaign: false }), "https://sendy.co.kr/event/a-b/apply");
  });
});

describe("URL encoding", () => {
  test("encodes exactly once, keeping only unreserved characters", () => {
    assert.equal(encodeComponent("A-Z a-z 0-9 -._~"), "A-Z%20a-z%200-9%20-._~");
    assert.equal(encodeComponent("!'()*+&=/?%#"), "%21%27%28%29%2A%2B%26%3D%2F%3F%25%23");
    assert.equal(encodeComponent("서울"), "%EC%84%9C%EC%9A%B8");
    assert.equal(encodeComponent("%41"), "%2541");
    // The shim keeps its own copy so that a page that only calls the app never loads link-rules.js.
    for (const text of ["A-Z a-z 0-9 -._~", "!'()*+&=/?%#", "서울", "😀\u0000\u007f"]) assert.equal(encodeComponent(text), encodeWithLinkRules(text), text);
  });

  test("query fields follow the manifest's order, absent and empty ones omitted", async () => {
    const link = await buildUniversalLink("view_vehicles", 1, { from: "abc", page: 3, vehicleType: "1ton", region: "" });
    assert.equal(link, "https://sendy.co.kr/vehicles?vehicleType=1ton&page=3&from=abc");
    assert.equal(await buildUniversalLink("view_vehicles", undefined, {}), "https://sendy.co.kr/vehicles");
  });

  test("route parameters follow routes.json's types as the app's router reads them: slug a-z 0-9 - (1 to 64), int up to 2^63-1", async () => {
    const refused = (action, payload, pointer) => assert.rejects(buildUniversalLink(action, 1, payload),
      (error) => error.code === "INVALID_PARAMS" && error.details[0].instanceLocation === pointer, JSON.stringify(payload));
    assert.equal(await buildUniversalLink("apply", 1, { slug: "a".repeat(64) }), "https://sendy.co.kr/event/" + "a".repeat(64) + "/apply");
    await refused("apply", { slug: "a".repeat(65) }, "/payload/slug");
    await refused("apply", { slug: "New-User" }, "/payload/slug");
    await refused("view_vehicles", { from: "Home" }, "/payload/from");
    assert.equal(await buildUniversalLink("view_vehicles", 1, { page: 9223372036854775000 }), "https://sendy.co.kr/vehicles?page=9223372036854775000");
    await refused("view_vehicles", { page: 1e19 }, "/payload/page");
    await refused("view_vehicles", { page: 9223372036854775808 }, "/payload/page");
  });

  test("a lone surrogate cannot be put into a link", async () => {
    await assert.rejects(buildUniversalLink("apply", 1, { slug: "a", memo: "\ud800" }), (error) => error.code === "INVALID_PARAMS");
  });
});
