// The hand-written runtime (js/src) on its own, with a hand-made contract table: nothing here
// comes from contracts/ or from the generated files.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { BridgeError, bindContract, createBridgeFor, deepFreeze } from "../src/bridge-runtime.js";
import { buildUniversalLinkFor } from "../src/links.js";
import { bindFakeHost, installFakeHostFor } from "../src/fake-host.js";

const srcDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src");

/** A contract of two actions, one with two versions, under another bridge name. */
const TABLE = deepFreeze({
  bridge: "demoBridge",
  envelope: 3,
  webBaseURL: "https://demo.example",
  receiveFunction: "demoBridgeReceive",
  capabilitiesGlobal: "demoBridgeCapabilities",
  androidInterface: "demoBridgeAndroid",
  // ^[a-z]+$ with minLength 2, maxLength 8, as bridgectl writes campaign rules.
  campaignRules: {
    closed: true,
    fields: [{
      name: "campaign_id", minLength: 2, maxLength: 8, summary: "2 to 8 characters: one or more of a-z",
      pattern: [{ ranges: [[97, 122]], min: 1, max: null, allowed: "a-z" }],
    }],
  },
  actions: {
    open_box: {
      title: "Open",
      method: "openBox",
      latest: 2,
      versions: {
        1: { schema: "open_box.v1.json", route: "box", pattern: "/box/:code", parameters: [["code", "/payload/code", "slug"]], query: [], timeoutMs: 100, fallback: "universalLink", requiresId: true },
        2: { schema: "open_box.v2.json", route: "box", pattern: "/box/:code", parameters: [["code", "/payload/box/code", "slug"]], query: [["size", "/payload/size", "int"]], timeoutMs: 200, fallback: "none", requiresId: false },
      },
    },
    ping: {
      title: "Ping",
      method: "ping",
      latest: 1,
      versions: { 1: { schema: "ping.v1.json", route: "home", pattern: "/", parameters: [], query: [], timeoutMs: 50, fallback: "none", requiresId: false } },
    },
  },
});

function page(href) {
  const opened = [];
  return { opened, location: { href: href || "https://demo.example/e", assign: (url) => opened.push(url) } };
}

describe("the runtime with a hand-made contract table", () => {
  test("one function per action (latest version) and per version, from the table's method names", async () => {
    const win = page("https://demo.example/e?campaign_id=abc&utm_source=x");
    const host = installFakeHostFor(TABLE, { window: win });
    const bridge = createBridgeFor(TABLE, { window: win });
    assert.deepEqual(
      ["openBox", "openBoxV1", "openBoxV2", "ping", "pingV1"].map((name) => typeof bridge[name]),
      ["function", "function", "function", "function", "function"]
    );
    await bridge.openBox({ box: { code: "b-1" }, size: 3 });
    await bridge.openBoxV1({ code: "b-2" });
    assert.deepEqual(host.messages.map((m) => [m.v, m.action, m.version]), [[3, "open_box", 2], [3, "open_box", 1]]);
    assert.deepEqual(host.messages[0].campaign, { campaign_id: "abc" }, "only the table's campaign fields");
    assert.equal(typeof win.demoBridgeReceive, "function", "the receive global is named by the table");
    bridge.dispose();
    assert.equal(win.demoBridgeReceive, undefined);
    host.uninstall();
  });

  test("links follow the table's routes, parameter types and base URL", () => {
    assert.equal(buildUniversalLinkFor(TABLE, "open_box", 2, { box: { code: "b-1" }, size: 4 }, { campaign_id: "abc" }),
      "https://demo.example/box/b-1?size=4&campaign_id=abc");
    assert.throws(() => buildUniversalLinkFor(TABLE, "open_box", 2, { box: { code: "b-1" }, size: "four" }),
      (error) => error instanceof BridgeError && error.code === "INVALID_PARAMS" && error.details[0].instanceLocation === "/payload/size");
    assert.throws(() => buildUniversalLinkFor(TABLE, "open_box", 7, {}), (error) => error.code === "UNSUPPORTED_VERSION");
    assert.throws(() => buildUniversalLinkFor(TABLE, "apply", 1, {}), (error) => error.code === "UNKNOWN_ACTION");
  });

  test("the timeout and the fallback of each version come from the table", async () => {
    const win = page();
    const timers = [];
    const bridge = createBridgeFor(TABLE, { window: win, setTimeout: (fn, ms) => { timers.push(ms); return 0; }, clearTimeout() {} });
    // No host on the page: v1 falls back to its Universal Link, v2 has no fallback.
    const result = await bridge.openBoxV1({ code: "b-9" });
    assert.equal(result.fallback, true);
    assert.deepEqual(win.opened, ["https://demo.example/box/b-9"]);
    await assert.rejects(bridge.openBox({ box: { code: "b-9" } }), (error) => error.code === "UNAVAILABLE");
    const host = installFakeHostFor(TABLE, { window: win });
    host.dropNext();
    bridge.ping();
    assert.deepEqual(timers, [50]);
    host.uninstall();
  });

  test("bindContract and bindFakeHost give what the generated files export, for that table", async () => {
    const kit = bindContract(TABLE);
    const fake = bindFakeHost(TABLE, undefined, [{ platform: "android", version: "9.9.0", status: "supported", share: null, actions: { ping: [1] } }]);
    const win = page();
    const host = fake.installFakeHost({ window: win });
    assert.deepEqual(fake.fullCapabilities({ platform: "ios", version: "9.9.0" }), {
      bridge: "demoBridge", envelope: 3, app: { platform: "ios", version: "9.9.0" }, actions: { open_box: [1, 2], ping: [1] } });
    assert.deepEqual(fake.releaseCapabilities("android@9.9.0"), { bridge: "demoBridge", envelope: 3, app: { platform: "android", version: "9.9.0" }, actions: { ping: [1] } });
    const result = await kit.createBridge({ window: win }).ping();
    assert.deepEqual(result, { route: "home", url: "https://demo.example/", pendingLogin: false });
    assert.equal(await kit.buildUniversalLink("ping", undefined, {}), "https://demo.example/");
    host.uninstall();
  });
});

test("names inherited from Object.prototype are no action and no version", async () => {
  const win = page();
  const host = installFakeHostFor(TABLE, { window: win });
  const bridge = createBridgeFor(TABLE, { window: win });
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    assert.equal((await bridge.send(name, 1, {}).catch((error) => error)).code, "UNKNOWN_ACTION", name);
    assert.equal(bridge.isSupported(name), false, name);
    assert.throws(() => buildUniversalLinkFor(TABLE, name, 1, {}), (error) => error.code === "UNKNOWN_ACTION", name);
    assert.equal((await bridge.send("ping", name, {}).catch((error) => error)).code, "UNSUPPORTED_VERSION", name);
    assert.equal(host.defaultReply({ v: 3, id: "abcdefgh1", action: name, version: 1, payload: {} }).error.code, "UNKNOWN_ACTION", name);
  }
  assert.deepEqual(host.messages, []);
  host.uninstall();
});

test("the runtime imports nothing but its own folder", () => {
  for (const name of readdirSync(srcDir).filter((file) => /\.(js|d\.ts)$/.test(file))) {
    const text = readFileSync(path.join(srcDir, name), "utf8");
    const imports = [...text.matchAll(/\bfrom\s+"([^"]+)"/g)].map((match) => match[1]);
    for (const target of imports) assert.match(target, /^\.\/[a-z-]+\.js$/, `${name} imports ${target}`);
  }
});
