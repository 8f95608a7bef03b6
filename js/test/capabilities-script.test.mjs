// The document-start script the Swift host produces (bridgectl capabilities --script, the template
// js/host/capabilities.js filled in by HostCapabilities), run as a WebView runs a user script:
// it installs exactly the manifest the host answers a capabilities request with, frozen and
// read-only, once per document. Node 20 built-ins only.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import vm from "node:vm";
import { bridgectl } from "../test-support/support.mjs";

function produced(release) {
  const flags = release ? ["--release", release] : [];
  const script = bridgectl(["capabilities", "--script"].concat(flags));
  const manifest = bridgectl(["capabilities"].concat(flags));
  assert.equal(script.status, 0, script.stderr);
  assert.equal(manifest.status, 0, manifest.stderr);
  return { script: script.stdout, manifest: JSON.parse(manifest.stdout) };
}

describe("the capability manifest's document-start script", () => {
  for (const release of ["ios@5.12.0", "android@5.13.1", null]) {
    test(`installs the manifest of ${release || "a development host"} as window.sendyBridgeCapabilities`, () => {
      const { script, manifest } = produced(release);
      const page = vm.createContext({});
      vm.runInContext(script, page, { filename: "capabilities.js" });
      const installed = vm.runInContext("this.sendyBridgeCapabilities", page);
      assert.deepEqual(JSON.parse(JSON.stringify(installed)), manifest);
      assert.equal(manifest.bridge, "sendyBridge");
      if (release) assert.deepEqual(manifest.app, { platform: release.split("@")[0], version: release.split("@")[1] });
      else assert.equal("app" in manifest, false);
    });
  }

  test("the page cannot change or replace it, and a second injection keeps the first", () => {
    const first = produced("ios@5.12.0").script;
    const page = vm.createContext({});
    vm.runInContext(first, page);
    vm.runInContext(`
      try { this.sendyBridgeCapabilities.actions.apply.push(2); } catch (error) {}
      try { this.sendyBridgeCapabilities.actions.apply = [1, 2]; } catch (error) {}
      this.sendyBridgeCapabilities = { actions: { apply: [1, 2] } };
      try { delete this.sendyBridgeCapabilities; } catch (error) {}`, page);
    vm.runInContext(produced("ios@5.13.0").script, page);
    assert.deepEqual(JSON.parse(vm.runInContext("JSON.stringify(this.sendyBridgeCapabilities)", page)).actions.apply, [1]);
    assert.equal(vm.runInContext("Object.isFrozen(this.sendyBridgeCapabilities.actions.apply)", page), true);
  });
});
