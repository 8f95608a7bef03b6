// A custom action ("handler": "custom", answered by app code with a result) through the kit that
// bridgectl generates from Tests/contracts/custom-action (share v1 next to apply v1): the page
// calls share like any action, the fake host answers with the result schema's first example or a
// stubbed result, validators check the payload, and nothing builds a link for it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { bridgectl, fakeWindow, rejection, repoRoot } from "../test-support/support.mjs";

const contracts = path.join(repoRoot, "Tests", "contracts", "custom-action");
const exampleResult = JSON.parse(readFileSync(path.join(contracts, "schemas", "share.result.v1.json"), "utf8")).examples[0];
const sharePayload = { url: "https://event.sendy.co.kr/new-user-promo", title: "센디 첫 이용 혜택" };
let scratch;
let kit;

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-custom-action-"));
  const out = path.join(scratch, "kit");
  const generated = bridgectl(["generate", "js", "--contracts", contracts, "--out", out]);
  assert.equal(generated.status, 0, generated.stderr);
  const load = (file) => import(pathToFileURL(path.join(out, file)).href);
  kit = { out, bridge: await load("bridge.js"), host: await load("testing/fake-host.js"), validators: await load("validators.js") };
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function page(hostOptions, bridgeOptions) {
  const win = fakeWindow();
  const host = kit.host.installFakeHost(Object.assign({ window: win }, hostOptions));
  const bridge = kit.bridge.createBridge(Object.assign({ window: win }, bridgeOptions));
  return { win, host, bridge };
}

test("the contract table marks share v1 as custom, with its result schema and no route", () => {
  const share = kit.bridge.CONTRACT.actions.share;
  assert.deepEqual(share.versions["1"], {
    schema: "share.v1.json", handler: "custom", result: "share.result.v1.json", timeoutMs: 30000, fallback: "none", requiresId: true,
  });
  assert.equal(share.method, "share");
  assert.equal(kit.bridge.CONTRACT.actions.apply.versions["1"].route, "applyForm");
});

test("share resolves with the result schema's first example from the fake host, and sends the envelope", async () => {
  const { host, bridge } = page();
  for (const call of [() => bridge.share(sharePayload), () => bridge.shareV1(sharePayload), () => bridge.send("share", 1, sharePayload)]) {
    const result = await call();
    assert.deepEqual(result, exampleResult);
    assert.equal("route" in result || "url" in result, false, "a custom result carries no navigation");
  }
  assert.equal(host.messages.length, 3);
  assert.equal(host.messages[0].action, "share");
  assert.equal(host.messages[0].version, 1);
  assert.deepEqual(host.messages[0].payload, sharePayload);
  assert.deepEqual(host.calls, [{ action: "share", versions: [1] }]);
});

test("each call gets its own copy of the example result", async () => {
  const { bridge } = page();
  const first = await bridge.share(sharePayload);
  first.shared = false;
  assert.deepEqual(await bridge.share(sharePayload), exampleResult);
});

test("a test stubs the result with replyNext or respondWith, and the error with failNext", async () => {
  const { host, bridge } = page();
  host.replyNext({ ok: true, result: { shared: false } });
  assert.deepEqual(await bridge.share(sharePayload), { shared: false });
  assert.deepEqual(await bridge.share(sharePayload), exampleResult, "replyNext stubs one call only");
  host.respondWith((envelope) => (envelope.action === "share" ? { ok: true, result: { shared: true, target: "copy_link" } } : undefined));
  assert.deepEqual(await bridge.share(sharePayload), { shared: true, target: "copy_link" });
  assert.equal((await bridge.apply({ slug: "new-user-promo" })).route, "applyForm", "route actions keep their navigation result");
  host.failNext("UNAVAILABLE", "the device cannot share");
  const error = await rejection(bridge.share(sharePayload));
  assert.equal(error.code, "UNAVAILABLE");
});

test("without an example result the fake host answers INTERNAL and says how to stub one", async () => {
  const { bridge } = page({ exampleResults: {} });
  const error = await rejection(bridge.share(sharePayload));
  assert.equal(error.code, "INTERNAL");
  assert.match(error.message, /no example result for share v1.*replyNext/);
});

test("validators check share's payload as for any action: before sending, and in the fake host", async () => {
  const foreign = { url: "https://evil.example.com/", title: "x" };
  const checked = page({}, { validate: true });
  const before = await rejection(checked.bridge.share(foreign));
  assert.equal(before.code, "INVALID_PARAMS");
  assert.deepEqual(before.details.map((detail) => detail.instanceLocation), ["/payload/url"]);
  assert.equal(checked.host.messages.length, 0, "not sent");
  assert.deepEqual(await checked.bridge.share(sharePayload), exampleResult);

  const unchecked = page();
  const atHost = await rejection(unchecked.bridge.share({ url: sharePayload.url }));
  assert.equal(atHost.code, "INVALID_PARAMS");
  assert.equal(unchecked.host.rejected.length, 1);
});

test("the share fixtures get the verdict they expect from validators.js", () => {
  const folder = path.join(contracts, "fixtures", "share", "v1");
  const names = readdirSync(folder).filter((name) => name.endsWith(".json")).sort();
  assert.ok(names.length >= 4);
  for (const name of names) {
    const fixture = JSON.parse(readFileSync(path.join(folder, name), "utf8"));
    const verdict = kit.validators.validate(fixture.message);
    assert.equal(verdict.valid, fixture.expect.valid, `${name}: ${JSON.stringify(verdict.errors)}`);
    if (fixture.expect.reply && fixture.expect.reply.result) assert.deepEqual(fixture.expect.reply.result, exampleResult, name);
  }
});

test("a custom action has no link: outside the app it fails UNAVAILABLE, and linkFor says why", async () => {
  const win = fakeWindow();
  const bridge = kit.bridge.createBridge({ window: win });
  const outside = await rejection(bridge.share(sharePayload));
  assert.equal(outside.code, "UNAVAILABLE");
  assert.deepEqual(win.opened, []);
  const link = await rejection(bridge.linkFor("share", sharePayload));
  assert.equal(link && link.code, "UNAVAILABLE");
  assert.match(link.message, /share is answered by the app's code/);
});
