// Version negotiation in the shim against the fake host acting as the app builds of
// releases.json: supports, offer, the capabilities handshake (and a lost one), and the page-usage
// file the fake host writes for bridgectl can-i-deploy. Node 20 built-ins only.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { RELEASES, createFakeHost, installFakeHost, releaseCapabilities } from "../testing/fake-host.js";
import { bridgectl, fakeWindow, manualClock, rejection, settleQueue } from "../test-support/support.mjs";

const PAGE = "https://sendy.co.kr/event/new-user-promo?campaign_id=c1";
const V2 = { slug: "new-user-promo", plan: "premium", contactTime: "evening" };
const V1 = { slug: "new-user-promo", plan: "premium" };

function setup(hostOptions, bridgeOptions) {
  const win = fakeWindow(PAGE);
  const host = hostOptions === null ? null : installFakeHost(Object.assign({ window: win }, hostOptions));
  const clock = manualClock();
  const bridge = createBridge(Object.assign({ window: win, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout }, bridgeOptions));
  return { win, host, clock, bridge };
}

describe("offer: the highest version both sides know", () => {
  test("a build with apply v1 only gets v1, a build with v2 gets v2", async () => {
    const old = setup({ release: "ios@5.12.0" });
    const result = await old.bridge.offer("apply", { 2: V2, 1: V1 });
    assert.equal(result.route, "applyForm");
    assert.deepEqual(old.host.messages.map((message) => [message.version, message.payload]), [[1, V1]]);
    const current = setup({ release: "android@5.13.1" });
    await current.bridge.offer("apply", { 1: V1, 2: V2 });
    assert.deepEqual(current.host.messages.map((message) => [message.version, message.payload]), [[2, V2]]);
  });

  test("a build without the action opens the fallback of the highest offered version, posting nothing", async () => {
    const { win, host, bridge } = setup({ release: "android@5.9.4" });
    const result = await bridge.offer("apply", { 2: V2, 1: V1 });
    assert.equal(result.fallback, true);
    assert.deepEqual(win.opened, ["https://sendy.co.kr/event/new-user-promo/apply?plan=premium&contactTime=evening&campaign_id=c1"]);
    assert.equal(host.messages.length, 0);
  });

  test("without a fallback, an app that has none of the offered versions rejects with UNSUPPORTED_VERSION before posting", async () => {
    const contract = JSON.parse(JSON.stringify(CONTRACT));
    for (const version of Object.values(contract.actions.apply.versions)) version.fallback = "none";
    const { win, host, bridge } = setup({ release: "android@5.9.4" }, { contract });
    const error = await rejection(bridge.offer("apply", { 2: V2, 1: V1 }));
    assert.equal(error.code, "UNSUPPORTED_VERSION");
    assert.deepEqual(error.supportedVersions, []);
    assert.deepEqual([host.messages.length, win.opened.length], [0, 0]);
  });

  test("an app with only versions the page does not offer rejects, naming them, and never falls back", async () => {
    const { win, host, bridge } = setup({ capabilities: { bridge: "sendyBridge", envelope: 1, actions: { apply: [2] } } });
    const error = await rejection(bridge.offer("apply", { 1: V1 }));
    assert.equal(error.code, "UNSUPPORTED_VERSION");
    assert.deepEqual(error.supportedVersions, [2]);
    assert.deepEqual([host.messages.length, win.opened.length], [0, 0]);
  });

  test("a version the contract lacks, or no version at all, is refused before anything else", async () => {
    const { host, bridge } = setup({ release: "ios@5.13.0" });
    assert.equal((await rejection(bridge.offer("apply", { 3: V2, 2: V2 }))).code, "UNSUPPORTED_VERSION");
    assert.equal((await rejection(bridge.offer("apply", {}))).code, "UNSUPPORTED_VERSION");
    assert.equal((await rejection(bridge.offer("aply", { 1: V1 }))).code, "UNKNOWN_ACTION");
    assert.equal(host.messages.length, 0);
  });

  test("validate: true checks the version that is sent", async () => {
    const { host, bridge } = setup({ release: "ios@5.12.0" }, { validate: true });
    const error = await rejection(bridge.offer("apply", { 2: V2, 1: { slug: "New Promo" } }));
    assert.equal(error.code, "INVALID_PARAMS");
    assert.equal(error.details[0].instanceLocation, "/payload/slug");
    assert.equal(host.messages.length, 0);
  });

  test("outside the app an offer opens the Universal Link of its highest version", async () => {
    const { win, bridge } = setup(null);
    assert.equal(bridge.supports("apply", 1), false);
    assert.equal((await bridge.offer("apply", { 1: V1, 2: V2 })).fallback, true);
    assert.equal(win.opened.length, 1);
  });
});

describe("the host's own answer", () => {
  test("an UNSUPPORTED_VERSION reply carries the versions the app takes as error.supportedVersions", async () => {
    // A manifest that claims v2 on a build that has only v1: the app's reply decides.
    const win = fakeWindow(PAGE);
    const host = installFakeHost({ window: win, release: "ios@5.12.0" });
    host.respondWith((envelope) => host.defaultReply(envelope));
    const clock = manualClock();
    win.sendyBridgeCapabilities = { bridge: "sendyBridge", envelope: 1, actions: { apply: [1, 2] } };
    const bridge = createBridge({ window: win, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout });
    const error = await rejection(bridge.apply(V2));
    assert.equal(error.code, "UNSUPPORTED_VERSION");
    assert.deepEqual(error.supportedVersions, [1]);
    assert.equal(host.messages[0].version, 2);
  });
});

describe("the capabilities handshake", () => {
  test("an app that injects nothing is asked once; the call then sends what it takes", async () => {
    const { host, bridge } = setup({ release: "ios@5.12.0", inject: false });
    assert.equal(bridge.capabilities(), null);
    await bridge.offer("apply", { 2: V2, 1: V1 });
    await bridge.start();
    assert.deepEqual(host.messages.map((message) => [message.action, message.version]), [["capabilities", 1], ["apply", 1], ["start", 1]]);
    assert.deepEqual(host.messages[0].payload, {});
    assert.deepEqual(bridge.capabilities().app, { platform: "ios", version: "5.12.0" });
    assert.equal(bridge.supports("apply", 2), false);
  });

  test("a lost handshake is not waited on forever: the call settles TIMEOUT at its deadline, the next call asks again", async () => {
    const { host, bridge, clock } = setup({ release: "ios@5.13.0", inject: false });
    host.dropNext();
    const first = bridge.offer("apply", { 2: V2, 1: V1 });
    await settleQueue();
    assert.deepEqual(clock.pendingDelays(), [5000], "one deadline: the call's own timeout");
    clock.advance(5000);
    const error = await rejection(first);
    assert.equal(error.code, "TIMEOUT");
    assert.match(error.message, /capability manifest/);
    assert.equal(bridge.stats.timeouts, 1);
    const second = await bridge.offer("apply", { 2: V2, 1: V1 });
    assert.equal(second.route, "applyForm");
    assert.deepEqual(host.messages.map((message) => message.action), ["capabilities", "capabilities", "apply"]);
    assert.equal(host.messages[2].version, 2);
  });

  test("a notification waiting for the handshake is bounded too", async () => {
    const { host, bridge, clock } = setup({ release: "ios@5.13.0", inject: false });
    host.dropNext();
    const posted = bridge.viewVehicles({ vehicleType: "damas" }, { notify: true });
    await settleQueue();
    clock.advance(3000);
    assert.equal((await rejection(posted)).code, "TIMEOUT");
  });

  test("a handshake the app refuses fails the call with the app's code", async () => {
    const { host, bridge } = setup({ release: "ios@5.13.0", inject: false });
    host.failNext("ORIGIN_REJECTED", "not an allowed origin");
    assert.equal((await rejection(bridge.start())).code, "ORIGIN_REJECTED");
    assert.equal(host.messages.length, 1);
  });

  test("an app that injected its manifest is not asked", async () => {
    const { host, bridge } = setup({ release: "ios@5.12.0" });
    await bridge.offer("apply", { 2: V2, 1: V1 });
    assert.deepEqual(host.messages.map((message) => message.action), ["apply"]);
    assert.deepEqual(bridge.capabilities(), releaseCapabilities("ios@5.12.0"));
  });
});

describe("the fake host as any app build", () => {
  test("its manifest is the one the Swift host gives, for every build of releases.json", () => {
    assert.ok(RELEASES.length >= 5);
    for (const release of RELEASES) {
      const name = release.platform + "@" + release.version;
      const swift = bridgectl(["capabilities", "--release", name]);
      assert.equal(swift.status, 0, swift.stderr);
      assert.deepEqual(releaseCapabilities(name), JSON.parse(swift.stdout), name);
    }
  });

  test("it answers what a build lacks with the Swift host's codes", () => {
    const host = createFakeHost({ release: "android@5.9.4" });
    assert.equal(host.defaultReply({ action: "apply", version: 1 }).error.code, "UNKNOWN_ACTION");
    const old = createFakeHost({ release: "ios@5.12.0" });
    assert.deepEqual(old.defaultReply({ action: "apply", version: 2 }).error.details, [{ action: "apply", supportedVersions: [1] }]);
    assert.equal(old.defaultReply({ action: "capabilities", version: 2 }).error.code, "UNSUPPORTED_VERSION");
  });

  test("createFakeHost installs nothing until install(); an unknown build is named", () => {
    const win = fakeWindow(PAGE);
    const host = createFakeHost({ release: "ios@5.13.0" });
    assert.equal(win.sendyBridgeCapabilities, undefined);
    host.install(win);
    assert.deepEqual(win.sendyBridgeCapabilities.app, { platform: "ios", version: "5.13.0" });
    host.uninstall();
    assert.equal("sendyBridgeCapabilities" in win, false);
    assert.throws(() => createFakeHost({ release: "ios@5.1.0" }), /release "ios@5.1.0" is not in releases.json \(releases: ios@5.9.0, /);
  });
});

describe("the page-usage file", () => {
  test("records every distinct call with the versions offered, and writes it for can-i-deploy", async () => {
    // The same tap again at once: with duplicateWindowMs 0 the host takes it (the app would answer DUPLICATE).
    const { host, bridge } = setup({ release: "ios@5.13.0", duplicateWindowMs: 0 });
    await bridge.apply(V2);
    await bridge.apply(V2);
    await bridge.offer("apply", { 2: V2, 1: V1 });
    await bridge.start();
    await bridge.viewVehiclesV1({}, { notify: true });
    assert.deepEqual(host.usage(), {
      page: "event/new-user-promo",
      calls: [{ action: "apply", versions: [2] }, { action: "apply", versions: [2, 1] }, { action: "start", versions: [1] }, { action: "view_vehicles", versions: [1] }],
    });
    const folder = mkdtempSync(path.join(tmpdir(), "bridgekit-usage-"));
    try {
      const file = path.join(folder, "usage.json");
      await host.writeUsage(file);
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), host.usage());
      const blocked = bridgectl(["can-i-deploy", file]);
      assert.equal(blocked.status, 1, "plain apply (v2 only) breaks the builds with apply v1 only");
      assert.match(blocked.stdout, /BROKEN: apply v2 on ios 5\.12\.0/);

      const fixed = setup({ release: "ios@5.12.0", page: "event/new-user-promo" });
      await fixed.bridge.offer("apply", { 2: V2, 1: V1 });
      await fixed.host.writeUsage(file);
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).calls, [{ action: "apply", versions: [2, 1] }], "replaced, not merged");
      assert.equal(bridgectl(["can-i-deploy", file]).status, 0);

      const more = setup({ release: "ios@5.12.0" });
      await more.bridge.start();
      await more.host.writeUsage(file, { merge: true });
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).calls, [{ action: "apply", versions: [2, 1] }, { action: "start", versions: [1] }]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a call that fails or falls back is still a call the page makes", async () => {
    const { host, bridge } = setup({ release: "android@5.9.4" });
    await bridge.offer("apply", { 2: V2, 1: V1 });
    await rejection(bridge.applyV2({}));
    assert.deepEqual(host.calls, [{ action: "apply", versions: [2, 1] }, { action: "apply", versions: [2] }]);
  });
});
