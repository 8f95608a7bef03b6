// Validation on the web side: createBridge({ validate }) refuses locally what the app would refuse,
// with the app's code and details; the fake host validates by default, so a page's own test suite
// goes red where the app would; and a page that does not ask for validation never loads
// validators.js.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { BridgeError, createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import * as validators from "../validators.js";
import { bridgectl, fakeWindow, rejection, repoRoot } from "../test-support/support.mjs";

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-validation-"));
});
after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What the app replies to this message: bridgectl validate's code and errors. */
function appVerdict(message) {
  const file = path.join(scratch, "message.json");
  writeFileSync(file, JSON.stringify(message));
  const run = bridgectl(["validate", "--format", "json", file]);
  const result = JSON.parse(run.stdout).results[0];
  return { valid: run.status === 0, code: result.code, errors: result.errors || [] };
}

const GOLD = { slug: "new-user-promo", plan: "gold" };

// The kit's modules a page script loads (its output too), from the resolve log of a loader hook.
function modulesLoadedBy(script, name) {
  const log = path.join(scratch, `resolved-${name}.log`);
  writeFileSync(log, "");
  const run = spawnSync(process.execPath, ["--no-warnings", "--experimental-loader", pathToFileURL(path.join(repoRoot, "js", "test-support", "resolve-log-loader.mjs")).href,
    "--input-type=module", "-e", script], { encoding: "utf8", env: Object.assign({}, process.env, { RESOLVE_LOG: log }) });
  assert.equal(run.status, 0, run.stderr);
  const kit = pathToFileURL(path.join(repoRoot, "js")).href + "/";
  return { output: run.stdout.trim(), modules: [...new Set(readFileSync(log, "utf8").split("\n").filter((url) => url.startsWith(kit)).map((url) => url.slice(kit.length)))] };
}

describe("createBridge({ validate })", () => {
  for (const [name, setting] of [["true (validators.js loaded on first use)", true], ["the validators module", validators]]) {
    test(`${name}: a payload the app would reject fails locally with the app's code and details, and is not sent`, async () => {
      const win = fakeWindow();
      const host = installFakeHost({ window: win, validate: false });
      const bridge = createBridge({ window: win, validate: setting });
      const error = await rejection(bridge.send("apply", 1, GOLD));
      assert.ok(error instanceof BridgeError);
      assert.equal(error.code, "INVALID_PARAMS");
      assert.equal(error.message, "apply v1: 1 invalid field");
      assert.deepEqual(host.messages, [], "nothing reached the app");
      assert.equal(bridge.stats.rejectedBeforeSending, 1);
      // The same details the app sends for that message (ids and sentAt aside).
      const app = appVerdict({ v: 1, id: "abcdefgh-1", action: "apply", version: 1, payload: GOLD, sentAt: "2026-11-29T12:00:00.000Z" });
      assert.equal(app.code, "INVALID_PARAMS");
      assert.deepEqual(error.details, app.errors);

      const result = await bridge.apply({ slug: "new-user-promo", plan: "premium" });
      assert.equal(result.route, "applyForm");
      assert.equal(host.messages.length, 1);
    });
  }

  test("a broken envelope is refused as the app refuses it (INVALID_MESSAGE), notifications too", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win, validate: false });
    const bridge = createBridge({ window: win, validate: validators });
    const error = await rejection(bridge.viewVehicles(["not", "an", "object"], { notify: true }));
    assert.equal(error.code, "INVALID_MESSAGE");
    assert.deepEqual(error.details.map((detail) => [detail.instanceLocation, detail.keyword]), [["/payload", "type"]]);
    assert.deepEqual(host.messages, []);
  });

  test("without validate nothing is checked: the app's answer decides", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win, validate: false });
    const bridge = createBridge({ window: win });
    const result = await bridge.send("apply", 1, GOLD);
    assert.equal(result.route, "applyForm", "a host that does not validate takes it");
    assert.equal(host.messages.length, 1);
  });

  test("a bad setting is refused when the bridge is made", () => {
    assert.throws(() => createBridge({ window: fakeWindow(), validate: "yes" }), (error) => error.code === "INTERNAL" && /validate must be/.test(error.message));
  });

  test("a page that does not ask for validation never loads validators.js nor validation.js, nor fallback.js in the app; one that asks loads them once, on first send", () => {
    const page = (validate) => `
      import { createBridge } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, "js", "bridge.js")).href)};
      const page = { location: { href: "https://event.sendy.co.kr/e", assign() {} }, sendyBridgeCapabilities: { bridge: "sendyBridge", envelope: 1, actions: { apply: [1, 2] } }, webkit: { messageHandlers: { sendyBridge: {
        postMessage: (message) => Promise.resolve({ v: 1, id: message.id, ok: true, result: { route: "applyForm", url: "u", pendingLogin: false } }) } } } };
      const bridge = createBridge({ window: page${validate ? ", validate: true" : ""} });
      await bridge.applyV1({ slug: "new-user-promo" });
      await bridge.applyV1({ slug: "new-user-promo" });
      await bridge.send("apply", 1, { slug: "new-user-promo", plan: "gold" }).catch((error) => console.log(error.code));`;
    const loaded = (validate) => modulesLoadedBy(page(validate), `validate-${validate}`);
    const plain = loaded(false);
    assert.deepEqual(plain.modules.sort(), ["bridge.js", "src/bridge-runtime.js", "src/errors.js", "src/handshake.js", "src/pending.js", "src/surrogates.js", "src/transports.js"]);
    assert.equal(plain.output, "", "without validation the gold plan was sent");
    const checked = loaded(true);
    assert.deepEqual(checked.modules.sort(), ["bridge.js", "src/bridge-runtime.js", "src/errors.js", "src/handshake.js", "src/pending.js", "src/schema-runtime.js",
      "src/surrogates.js", "src/transports.js", "src/validation.js", "validators.js"]);
    assert.equal(checked.output, "INVALID_PARAMS");
  });
});

describe("the fake host validates as the app does", () => {
  test("by default: the app's error reply, whatever the test queued, and the message is listed in host.rejected", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win });
    const bridge = createBridge({ window: win });
    host.replyNext({ ok: true, result: { route: "applyForm", url: "x", pendingLogin: false } });
    const error = await rejection(bridge.send("apply", 1, GOLD));
    assert.equal(error.code, "INVALID_PARAMS");
    assert.deepEqual(error.details.map((detail) => [detail.instanceLocation, detail.keyword]), [["/payload/plan", "enum"]]);
    assert.equal(host.rejected.length, 1);
    assert.equal(host.rejected[0].code, "INVALID_PARAMS");
    // The queued reply belonged to that message: the next one gets the default answer.
    const next = await bridge.applyV1({ slug: "new-user-promo" });
    assert.equal(next.url, "https://sendy.co.kr/event/new-user-promo/apply");
  });

  test("an invalid notification gets no reply, as from the app, but is listed", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win });
    const bridge = createBridge({ window: win });
    assert.equal(await bridge.viewVehicles({ page: 0 }, { notify: true }), undefined);
    await host.flush();
    assert.equal(host.replies.length, 0);
    assert.deepEqual(host.rejected.map((entry) => [entry.code, entry.errors[0].instanceLocation]), [["INVALID_PARAMS", "/payload/page"]]);
  });

  test("validate: false answers like an app that knows only the routes", async () => {
    const win = fakeWindow();
    const host = installFakeHost({ window: win, validate: false });
    const result = await createBridge({ window: win }).send("apply", 1, GOLD);
    assert.equal(result.route, "applyForm");
    assert.deepEqual(host.rejected, []);
  });
});

// A web team's own page and its test, as they would write them: the page module and a node test
// that drives it against the fake host. The page's suite must go red for a payload the app would
// reject, and green once the page is fixed.
const PAGE = `import { createBridge } from "./kit/bridge.js";

/** The event page's apply button. */
export function applyButton(page) {
  const bridge = createBridge({ window: page });
  return function onClick() {
    return bridge.send("apply", 1, { slug: "new-user-promo", plan: "gold" });
  };
}
`;

const PAGE_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { installFakeHost } from "./kit/testing/fake-host.js";
import { applyButton } from "./page.js";

test("the apply button opens the apply form", async () => {
  const page = { location: { href: "https://event.sendy.co.kr/event/new-user-promo", assign() {} } };
  installFakeHost({ window: page });
  const result = await applyButton(page)();
  assert.equal(result.route, "applyForm");
});
`;

describe("a page's own test suite", () => {
  test("goes red for a payload the app would reject (plan: gold), and green after the fix", () => {
    const project = path.join(scratch, "event-page");
    mkdirSync(project, { recursive: true });
    for (const part of ["bridge.js", "validators.js", "src", "testing"]) cpSync(path.join(repoRoot, "js", part), path.join(project, "kit", part), { recursive: true });
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(path.join(project, "page.test.js"), PAGE_TEST);
    // A run of its own, not a part of this one (NODE_TEST_CONTEXT would make it report to us).
    const env = Object.assign({}, process.env);
    delete env.NODE_TEST_CONTEXT;
    const runSuite = () => spawnSync(process.execPath, ["--test", "page.test.js"], { cwd: project, encoding: "utf8", env });

    writeFileSync(path.join(project, "page.js"), PAGE);
    const red = runSuite();
    assert.notEqual(red.status, 0, "the page's suite passed with a payload the app rejects");
    assert.match(red.stdout, /# fail 1/);
    assert.match(red.stdout, /INVALID_PARAMS/);
    assert.match(red.stdout, /apply v1: 1 invalid field/);

    writeFileSync(path.join(project, "page.js"), PAGE.replace('plan: "gold"', 'plan: "premium"'));
    const green = runSuite();
    assert.equal(green.status, 0, green.stdout);
    assert.match(green.stdout, /# pass 1/);
  });
});

test("uniqueItems in the validators: equal neighbours, equal objects in any key order, a far pair, and no false match across types", async () => {
  const { equalPair } = await import("../src/schema-runtime.js");
  assert.deepEqual(equalPair([1, 1]), [0, 1]);
  assert.deepEqual(equalPair(["a", "b", "b"]), [1, 2]);
  assert.deepEqual(equalPair([{ a: 1, b: [2] }, { b: [2], a: 1 }]), [0, 1]);
  assert.deepEqual(equalPair([1, 2, 3, 1]), [0, 3]);
  assert.equal(equalPair([1, "1", true, null, [1], { a: 1 }]), null);
  assert.equal(equalPair([]), null);
});

test("links.js and link-rules.js load only when a page first asks for a link or its campaign warnings", () => {
  const bridgeURL = JSON.stringify(pathToFileURL(path.join(repoRoot, "js", "bridge.js")).href);
  const page = (ask) => `
    import { createBridge } from ${bridgeURL};
    const bridge = createBridge({ window: {}, pageURL: "https://event.sendy.co.kr/e?utm_source=kakao&variant=A+B" });
    console.log(JSON.stringify(bridge.campaign));
    ${ask}`;
  const shim = ["bridge.js", "src/bridge-runtime.js", "src/errors.js", "src/handshake.js", "src/pending.js", "src/surrogates.js", "src/transports.js"];
  const lazy = ["src/link-rules.js", "src/links.js"];
  const none = modulesLoadedBy(page(""), "links-none");
  assert.deepEqual(none.modules.sort(), shim);
  assert.equal(none.output, '{"variant":"A+B","utm_source":"kakao"}', "the campaign is read when the bridge is made");
  const link = modulesLoadedBy(page('console.log(await bridge.linkFor("start", {}));'), "links-link");
  assert.deepEqual(link.modules.sort(), shim.concat(lazy).sort());
  assert.equal(link.output.split("\n")[1], "https://sendy.co.kr/start?variant=A%2BB&utm_source=kakao");
  const warnings = modulesLoadedBy(page("console.log((await bridge.campaignWarnings()).map((warning) => warning.field).join());"), "links-warnings");
  assert.deepEqual(warnings.modules.sort(), shim.concat(lazy).sort());
  assert.equal(warnings.output.split("\n")[1], "variant");
});
