// open_directions through the shim and the fake host: the fake host mirrors `bridgectl host
// --installed`, and coordinates go into the Universal Link in plain decimal. Node 20 built-ins only.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createBridge } from "../bridge.js";
import { installFakeHost } from "../testing/fake-host.js";
import { contractsDir, fakeWindow } from "../test-support/support.mjs";
import { readFileSync } from "node:fs";
import path from "node:path";

const CONTRACT_DUPLICATE_WINDOW_MS = JSON.parse(readFileSync(path.join(contractsDir, "manifest.json"), "utf8")).limits.duplicateWindowMs;

const GANGNAM = { lat: 37.4979502, lng: 127.0276368, name: "강남역 2번 출구" };

function setup(installed) {
  const win = fakeWindow();
  const clock = { ms: 0 };
  const host = installFakeHost({ window: win, installed, now: () => clock.ms });
  return { host, clock, bridge: createBridge({ window: win }) };
}

describe("open_directions with the fake host's installed apps", () => {
  test("Kakao Map installed: the app opens", async () => {
    const { host, bridge } = setup(["kakaomap"]);
    const result = await bridge.openDirections({ destination: GANGNAM, provider: "kakaomap" });
    assert.equal(result.opened, "app");
    assert.equal(result.provider, "kakaomap");
    assert.equal(result.url, "https://sendy.co.kr/directions?lat=37.4979502&lng=127.0276368&name=%EA%B0%95%EB%82%A8%EC%97%AD%202%EB%B2%88%20%EC%B6%9C%EA%B5%AC&provider=kakaomap");
    host.uninstall();
  });

  test("nothing installed: the fallback opens; setInstalled changes the device", async () => {
    const { host, clock, bridge } = setup([]);
    assert.equal((await bridge.openDirections({ destination: GANGNAM, provider: "nmap" })).opened, "fallback");
    host.setInstalled(["nmap"]);
    clock.ms += CONTRACT_DUPLICATE_WINDOW_MS; // the same tap later: not a double tap
    assert.equal((await bridge.openDirections({ destination: GANGNAM, provider: "nmap" })).opened, "app");
    host.uninstall();
  });

  test("coordinates near zero are plain decimal in the link, never an exponent", async () => {
    const { host, bridge } = setup([]);
    const result = await bridge.openDirections({ destination: { lat: -0.0000001, lng: 1e-7, name: "Null Island" }, provider: "tmap" });
    assert.match(result.url, /[?&]lat=-0\.0000001&lng=0\.0000001&/);
    host.uninstall();
  });

  test("an unknown provider is rejected before it reaches the app", async () => {
    const { host, bridge } = setup(["kakaomap"]);
    await assert.rejects(bridge.openDirections({ destination: GANGNAM, provider: "googlemaps" }), (error) => error.code === "INVALID_PARAMS");
    host.uninstall();
  });
});
