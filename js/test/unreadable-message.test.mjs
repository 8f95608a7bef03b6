// Text the app cannot read. A string cut inside an emoji ("😀".slice(0, 1)) keeps a lone UTF-16
// surrogate, which has no UTF-8 form: the app's parser refuses the whole message. On every channel
// the shim supports, the shim refuses such a call itself (INVALID_PARAMS naming the field, at once,
// nothing posted); and text the app cannot read that reaches it anyway (a page posting by hand, a
// transport that corrupts it) is answered INVALID_MESSAGE with the request id the raw text shows,
// by the fake host and by the Swift host (`bridgectl host --stdio`), so the call settles at once
// instead of waiting for its timeout: on Android's channels a reply with id null matches no call.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { fullCapabilities, installFakeHost } from "../testing/fake-host.js";
import { rawRequestId } from "../src/raw-request-id.js";
import { bridgectl, bridgectlPath, contractsDir, fakeWindow, manualClock, rejection, settleQueue } from "../test-support/support.mjs";

const MODES = ["promise", "callback", "androidListener", "androidInterface"];
const CUT = "hello " + "😀".slice(0, 1);
const TIMEOUT_MS = 2000;

/** Whether `promise` has settled by now (after the queued reactions ran), without waiting on timers. */
async function settledNow(promise) {
  let settled = false;
  promise.then(() => { settled = true; }, () => { settled = true; });
  await settleQueue();
  return settled;
}

describe("the shim never posts a string with a lone surrogate", () => {
  for (const mode of MODES) {
    test(`${mode}: the call rejects at once with INVALID_PARAMS naming the field, and nothing is posted`, async () => {
      const win = fakeWindow();
      const host = installFakeHost({ window: win, mode });
      const clock = manualClock();
      const bridge = createBridge({ window: win, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout });
      const call = bridge.applyV1({ slug: "new-user-promo", memo: CUT }, { timeoutMs: TIMEOUT_MS });
      assert.equal(await settledNow(call), true, "settled with no timer run");
      const error = await rejection(call);
      assert.equal(error.code, "INVALID_PARAMS");
      assert.match(error.message, /^\/payload\/memo has a lone surrogate/);
      assert.deepEqual(error.details, [{ instanceLocation: "/payload/memo", keyword: "unpairedSurrogate", error: "a lone surrogate" }]);
      assert.deepEqual(host.messages, [], "nothing reached the app");
      assert.deepEqual(clock.pendingDelays(), [], "no deadline was armed");
      assert.equal(bridge.stats.rejectedBeforeSending, 1);
      assert.equal(bridge.stats.sent, 0);
    });

    test(`${mode}: a notification with a lone surrogate is refused too, and not posted`, async () => {
      const win = fakeWindow();
      const host = installFakeHost({ window: win, mode });
      const bridge = createBridge({ window: win });
      const error = await rejection(bridge.send("view_vehicles", 1, { region: "서울" + "😀".slice(1) }, { notify: true }));
      assert.equal(error.code, "INVALID_PARAMS");
      assert.equal(error.details[0].instanceLocation, "/payload/region");
      assert.deepEqual(host.messages, []);
      assert.equal(bridge.stats.notifications, 0);
      assert.equal(bridge.stats.rejectedBeforeSending, 1);
    });

    test(`${mode}: a real emoji (a surrogate pair) is posted and answered`, async () => {
      const win = fakeWindow();
      const host = installFakeHost({ window: win, mode });
      const bridge = createBridge({ window: win, validate: true });
      const result = await bridge.applyV1({ slug: "new-user-promo", memo: "hello 😀" });
      assert.equal(result.route, "applyForm");
      assert.equal(host.messages[0].payload.memo, "hello 😀");
      assert.equal(bridge.stats.rejectedBeforeSending, 0);
    });
  }

  test("with validate: true the refusal is the same, before the validators", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win });
    const bridge = createBridge({ window: win, validate: true });
    const error = await rejection(bridge.applyV1({ slug: "new-user-promo", memo: CUT }));
    assert.equal(error.code, "INVALID_PARAMS");
    assert.deepEqual(error.details.map((detail) => [detail.instanceLocation, detail.keyword]), [["/payload/memo", "unpairedSurrogate"]]);
    assert.deepEqual(host.messages, []);
    assert.equal(bridge.stats.rejectedBeforeSending, 1);
  });

  test("every string is checked: a lone low surrogate, member names (with ~0 and ~1), arrays, the campaign", async () => {
    const win = fakeWindow();
    installFakeHost({ window: win, mode: "androidInterface" });
    const bridge = createBridge({ window: win });
    const at = async (payload) => (await rejection(bridge.send("apply", 1, payload))).details[0].instanceLocation;
    assert.equal(await at({ slug: "a", memo: "\udc00 first" }), "/payload/memo");
    assert.equal(await at({ slug: "a", memo: "ok", ["a/b~c\ud800"]: "fine" }), "/payload/a~1b~0c\ud800");
    assert.equal(await at({ slug: "a", extra: [{ n: 1 }, { "x/y": ["ok", "\udfff"] }] }), "/payload/extra/1/x~1y/1");
    assert.equal(await at({ slug: "a", memo: "😀\udc00" }), "/payload/memo", "a low surrogate after a whole pair");
    assert.equal(await at({ slug: "a", memo: "\ud83d😀" }), "/payload/memo", "a high surrogate before a whole pair");
    const pairs = await bridge.send("apply", 1, { slug: "new-user-promo", memo: "😀😀 \ud83d\ude00" });
    assert.equal(pairs.route, "applyForm", "pairs only: posted");

    const campaigned = createBridge({ window: win, campaign: { utm_source: "kakao", utm_term: "x\ud800" } });
    assert.equal(campaigned.campaign.utm_term, "x\ud800", "the page's campaign object keeps it");
    const error = await rejection(campaigned.start({}));
    assert.equal(error.code, "INVALID_PARAMS");
    assert.equal(error.details[0].instanceLocation, "/campaign/utm_term");
  });
});

// ---------------------------------------------------------------------------------------------
// Text the app cannot read that reaches it anyway.

/** A call's envelope text with its memo marker replaced by a lone surrogate escape: a transport that corrupts the message. */
const corrupt = (text) => text.replace('"memo":"CORRUPT"', '"memo":"hello \\ud83d"');

/**
 * Replaces the channel of `mode` on `win` with one that hands `answer` the text the app would get
 * (WebKit's object body as its JSON text) and delivers the reply (an object) as the app does on
 * that channel. `transform` changes the text on the way.
 */
function installChannel(win, mode, answer, transform) {
  const receive = (reply) => win[CONTRACT.receiveFunction](JSON.stringify(reply));
  const send = (body) => answer(transform(typeof body === "string" ? body : JSON.stringify(body)));
  if (mode === "promise" || mode === "callback") {
    const handler = { postMessage: (body) => mode === "promise" ? send(body) : void send(body).then(receive) };
    win.webkit = { messageHandlers: { [CONTRACT.bridge]: handler } };
  } else if (mode === "androidListener") {
    const listeners = [];
    win[CONTRACT.bridge] = {
      postMessage: (text) => { send(text).then((reply) => listeners.forEach((listener) => listener({ data: JSON.stringify(reply) }))); },
      addEventListener: (type, listener) => { if (type === "message") listeners.push(listener); },
    };
  } else {
    win[CONTRACT.androidInterface] = { postMessage: (text) => { send(text).then(receive); } };
  }
  win[CONTRACT.capabilitiesGlobal] = fullCapabilities();
}

/** The Swift host's reply to one message text: `bridgectl host --stdio`, its reply line without type and line. */
function swiftReply(text) {
  return new Promise((resolve, reject) => {
    const child = spawn(bridgectlPath(), ["host", "--stdio", "--manual-clock", "--contracts", contractsDir], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => { output += chunk; });
    child.on("error", reject);
    child.on("close", (status) => {
      const reply = output.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line)).filter((record) => record.type === "reply")[0];
      if (status !== 0 || !reply) return reject(new Error(`bridgectl host --stdio exited ${status} with ${output}`));
      delete reply.type;
      delete reply.line;
      resolve(reply);
    });
    child.stdin.end(JSON.stringify({ type: "message", body: text }) + "\n");
  });
}

/** A call whose text is corrupted on the way: it must settle INVALID_MESSAGE well before its timeout. */
async function corruptedCall(bridge) {
  const started = Date.now();
  const error = await rejection(bridge.applyV1({ slug: "new-user-promo", memo: "CORRUPT" }, { timeoutMs: TIMEOUT_MS }));
  const elapsed = Date.now() - started;
  assert.equal(error.code, "INVALID_MESSAGE", `${error.code}: ${error.message}`);
  assert.ok(elapsed < TIMEOUT_MS / 2, `settled after ${elapsed} ms, not at once`);
  assert.equal(bridge.stats.timeouts, 0);
  assert.equal(bridge.stats.unmatchedReplies, 0, "the reply named the call");
  return error;
}

describe("text the app cannot read is answered with the id it shows, and the call settles at once", () => {
  for (const mode of MODES) {
    test(`${mode}: the fake host answers a corrupted call INVALID_MESSAGE with its id`, async () => {
      const win = fakeWindow();
      const host = installFakeHost({ window: win, mode });
      const bridge = createBridge({ window: win });
      const channel = mode === "promise" || mode === "callback" ? win.webkit.messageHandlers[CONTRACT.bridge]
        : win[mode === "androidListener" ? CONTRACT.bridge : CONTRACT.androidInterface];
      const post = channel.postMessage;
      channel.postMessage = (body) => post(corrupt(typeof body === "string" ? body : JSON.stringify(body)));
      const error = await corruptedCall(bridge);
      assert.match(error.message, /lone \\u surrogate escape/);
      assert.equal(host.replies.length, 1);
      assert.equal(typeof host.replies[0].id, "string");
      assert.equal(host.replies[0].reply.error.code, "INVALID_MESSAGE");
      assert.deepEqual(host.messages, [null], "the app read no message");
    });

    test(`${mode}: the Swift host answers a corrupted call INVALID_MESSAGE with its id`, async () => {
      bridgectlPath();
      const win = fakeWindow();
      const sent = [];
      installChannel(win, mode, (text) => { sent.push(text); return swiftReply(text); }, corrupt);
      const bridge = createBridge({ window: win });
      const error = await corruptedCall(bridge);
      assert.match(error.message, /^the message is not valid JSON: line 1 column \d+: invalid Unicode '\\uD83D'.*lone UTF-16 surrogate/);
      assert.equal(sent.length, 1);
      assert.match(sent[0], /"memo":"hello \\ud83d"/);
    });

    test(`${mode}: the Swift host takes a real emoji`, async () => {
      bridgectlPath();
      const win = fakeWindow();
      installChannel(win, mode, swiftReply, (text) => text);
      const result = await createBridge({ window: win }).applyV1({ slug: "new-user-promo", memo: "hello 😀" }, { timeoutMs: 10000 });
      assert.equal(result.route, "applyForm");
    });
  }

  test("a page posting unreadable text by hand gets INVALID_MESSAGE with its id from the fake host; id null when none shows", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win, mode: "androidInterface" });
    const replies = [];
    win[CONTRACT.receiveFunction] = (text) => replies.push(JSON.parse(text));
    const post = (text) => win[CONTRACT.androidInterface].postMessage(text);
    post('{"v":1,"id":"raw-0000001","action":"apply","version":1,"payload":{"slug":"a","memo":"\\udc00"}}');
    post('{"v":1,"payload":{"slug":"a",},"id":"raw-0000002"}');
    post('{"v":1,"payload":{"id":"inner-000001","memo":"\\ud800"}}');
    post('{"v":1,"id":"raw-0000003","id":"raw-0000003","payload":{"memo":"\\ud800"}}');
    await host.flush();
    assert.deepEqual(replies.map((reply) => [reply.id, reply.error.code]), [
      ["raw-0000001", "INVALID_MESSAGE"], ["raw-0000002", "INVALID_MESSAGE"], [null, "INVALID_MESSAGE"], [null, "INVALID_MESSAGE"],
    ]);
    assert.match(replies[1].error.message, /^fake host: the message is not valid JSON: /);
  });

  test("the fake host's id rule is the Swift host's: the same id, or none, for each unreadable text", () => {
    const big = "x".repeat(70000);
    const texts = [
      '{"v":1,"id":"same-000001","payload":{"memo":"\\ud83d"}}',
      '{"payload":{"memo":"\\udc00","id":"inner-000001"},"id":"same-000002"}',
      '{"id":"same-000003","id":"same-000004","payload":{"memo":"\\ud83d"}}',
      '{"\\u0069d":"same-000005","payload":{"memo":"\\ud83d"}}',
      '{"id":"same-\\ud83d-000006","payload":{"memo":"\\ud83d"}}',
      '{"id":"same-\\ud83d\\ude00-07","payload":{"memo":"\\ud83d"}}',
      '{"id":"same-\\"8\\"","note":"a \\"} ], \\"id\\": \\"fake\\" {","x":"\\\\"',
      '{"v":1,"id":"same-000009","payload":{"memo":"cut',
      '{"v":1,"id":"same-0000',
      '{"id":"s' + "😀".repeat(127) + '","x":NaN}',
      '{"id":"s' + "😀".repeat(128) + '","x":NaN}',
      '{"id":"","x":NaN}',
      '{"id":5,"x":NaN}',
      '{"action":"id","x":"same-000010",}',
      '{"v":1,"id":"same-000011","payload":{}}trailing',
      '[{"id":"same-000012"}]x',
      '{"v":1,"id":"same-000013","payload":{"memo":"' + big + '"}}',
      '{"pad":"' + "p".repeat(1100) + '","id":"same-000014","payload":{"memo":"' + big + '"}}',
    ];
    const input = texts.map((text) => JSON.stringify({ type: "message", body: text })).join("\n") + "\n";
    const run = bridgectl(["host", "--stdio", "--manual-clock", "--contracts", contractsDir], input);
    assert.equal(run.status, 0, run.stderr);
    const replies = run.stdout.trim().split("\n").map((line) => JSON.parse(line)).filter((record) => record.type === "reply");
    assert.equal(replies.length, texts.length);
    texts.forEach((text, index) => {
      assert.equal(replies[index].error.code, "INVALID_MESSAGE", text.slice(0, 80));
      // The Swift host searches only the first KiB of a message over the size limit.
      const shown = text.length > 65536 ? rawRequestId(text.slice(0, 1024)) : rawRequestId(text);
      assert.equal(replies[index].id, shown, text.slice(0, 80));
    });
    assert.deepEqual(replies.map((reply) => reply.id !== null), [
      true, true, false, true, false, true, true, true, false, true, false, false, false, false, true, false, true, false,
    ], "the table has ids found and ids refused");
  });
});
