// The kit's types through a real compiler (Debian's node-typescript, tsc --strict --noEmit):
// the declarations, a typed example page that uses every action and version, a page that adds
// an app event by declaration merging and one that listens to the contract's own event compile, and
// every file of js/test/types-fail fails with exactly the errors its `// expect-error TSnnnn`
// comments name, each on the line after its comment. A file marked `// kit: wide` is compiled
// against the kit of the test-only contracts (apply v1 and v2), one marked `// kit: custom-action`
// against the kit of Tests/contracts/custom-action (share v1, answered by app code), the others
// against js/.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { bridgectl, bridgectlPath, repoRoot } from "../test-support/support.mjs";

const kit = path.join(repoRoot, "js");
const failDir = path.join(kit, "test", "types-fail");
const TSC_OPTIONS = ["--strict", "--noEmit", "--pretty", "false", "--target", "es2017", "--module", "es2020", "--moduleResolution", "node"];
let scratch;
let wideKit;
let customKit;

// A page of the custom-action kit: share resolves with its result, a test stubs it on the fake host.
const CUSTOM_ACTION_PAGE = `import { createBridge, type ShareV1Result } from "./kit/bridge.js";
import { installFakeHost } from "./kit/testing/fake-host.js";

export async function sharePage(): Promise<boolean> {
  const host = installFakeHost();
  const stubbed: ShareV1Result = { shared: false };
  host.replyNext({ ok: true, result: stubbed });
  const bridge = createBridge();
  const result: ShareV1Result = await bridge.share({ url: "https://event.sendy.co.kr/new-user-promo", title: "센디", text: "같이 가요" });
  const target: string | undefined = (await bridge.shareV1({ url: "https://sendy.co.kr/", title: "센디" })).target;
  const applied: string = (await bridge.apply({ slug: "new-user-promo" })).route;
  return result.shared && target !== undefined && applied !== "";
}
`;

// A page that adds an event of its own to BridgeEvents by declaration merging, as a generated
// bridge.d.ts can for a contract's events: bridge.on takes it with its payload type, and still the built-in one.
const MERGED_EVENTS_PAGE = `import { createBridge } from "./kit/bridge.js";

declare module "./kit/src/bridge-runtime.js" {
  interface BridgeEvents {
    coupon_issued: { couponId: string; amount?: number };
  }
}

export function listen(seen: string[]): () => void {
  const bridge = createBridge();
  const stop = bridge.on("coupon_issued", (payload, meta) => { seen.push(payload.couponId + meta.event + String(payload.amount ?? 0)); });
  bridge.on("navigation_completed", (payload) => { seen.push(payload.requestId); });
  return stop;
}
`;

// A page of this kit that listens to the contract's own event (login_state_changed, added to
// BridgeEvents by the generated bridge.d.ts) and the built-in one, with the exported payload types.
const CONTRACT_EVENTS_PAGE = `import { createBridge, type BridgeEvents, type LoginStateChangedPayload, type LoginStateChangedV1Payload, type NavigationCompletedPayload } from "./kit/bridge.js";

export function listen(seen: string[]): () => void {
  const bridge = createBridge();
  const stop = bridge.on("login_state_changed", (payload, meta) => {
    const loggedIn: boolean = payload.loggedIn;
    const reason: "login" | "logout" | "session_expired" | undefined = payload.reason;
    seen.push(String(loggedIn) + (reason ?? "") + meta.event + String(meta.version));
  });
  bridge.on("navigation_completed", (payload: NavigationCompletedPayload) => { seen.push(payload.outcome); });
  const v1: LoginStateChangedV1Payload = { loggedIn: false };
  const union: LoginStateChangedPayload = v1;
  const same: BridgeEvents["login_state_changed"] = union;
  seen.push(String(same.loggedIn));
  return stop;
}
`;

function tsc(args, cwd) {
  const result = spawnSync("tsc", TSC_OPTIONS.concat(args), { cwd, encoding: "utf8", timeout: 120000 });
  if (result.error && result.error.code === "ENOENT") assert.fail("tsc is not installed: run scripts/ensure-deps.sh node-typescript (make test does)");
  return { status: result.status, output: result.stdout + result.stderr };
}

/** file -> ["line TSnnnn", ...] from tsc's plain output. */
function diagnostics(output) {
  const found = new Map();
  for (const match of output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+):/gm)) {
    const file = path.basename(match[1]);
    if (!found.has(file)) found.set(file, []);
    found.get(file).push(`${match[2]} ${match[3]}`);
  }
  return found;
}

before(() => {
  bridgectlPath();
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-types-"));
  wideKit = path.join(scratch, "wide-kit");
  const generated = bridgectl(["generate", "js", "--contracts", path.join(kit, "test-support", "wide-contracts"), "--out", wideKit]);
  assert.equal(generated.status, 0, generated.stderr);
  customKit = path.join(scratch, "custom-action-kit");
  const custom = bridgectl(["generate", "js", "--contracts", path.join(repoRoot, "Tests", "contracts", "custom-action"), "--out", customKit]);
  assert.equal(custom.status, 0, custom.stderr);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the declarations and a typed page using every action and version compile with --strict", (t) => {
  const files = ["bridge.d.ts", "validators.d.ts", "testing/fake-host.d.ts", "examples/typed-page.ts", "examples/typed-page.test.ts"]
    .concat(readdirSync(path.join(kit, "src")).filter((name) => name.endsWith(".d.ts")).map((name) => "src/" + name));
  const run = tsc(["--lib", "es2017,dom"].concat(files), kit);
  assert.equal(run.status, 0, run.output);
  const wide = tsc(["--lib", "es2017", "bridge.d.ts", "validators.d.ts", "testing/fake-host.d.ts"], wideKit);
  assert.equal(wide.status, 0, wide.output);
  const customPage = path.join(scratch, "custom-page");
  mkdirSync(customPage);
  symlinkSync(customKit, path.join(customPage, "kit"));
  writeFileSync(path.join(customPage, "share-page.ts"), CUSTOM_ACTION_PAGE);
  const custom = tsc(["--lib", "es2017,dom", "share-page.ts"], customPage);
  assert.equal(custom.status, 0, custom.output);
  const mergedPage = path.join(scratch, "merged-events-page");
  mkdirSync(mergedPage);
  symlinkSync(kit, path.join(mergedPage, "kit"));
  writeFileSync(path.join(mergedPage, "events-page.ts"), MERGED_EVENTS_PAGE);
  const merged = tsc(["--lib", "es2017", "events-page.ts"], mergedPage);
  assert.equal(merged.status, 0, merged.output);
  writeFileSync(path.join(mergedPage, "contract-events-page.ts"), CONTRACT_EVENTS_PAGE);
  const contractEvents = tsc(["--lib", "es2017", "contract-events-page.ts"], mergedPage);
  assert.equal(contractEvents.status, 0, contractEvents.output);
  t.diagnostic(`tsc --strict: ${files.length} files of js/, the wide kit's declarations, a page of the custom-action kit, one adding an event and one listening to the contract's event compile`);
});

test("every compile-fail case fails with exactly the errors it names", (t) => {
  const cases = readdirSync(failDir).filter((name) => name.endsWith(".ts")).sort();
  assert.ok(cases.length >= 6, "the compile-fail suite is there");
  const groups = { bundled: [], wide: [], "custom-action": [] };
  const kits = { bundled: kit, wide: wideKit, "custom-action": customKit };
  for (const name of cases) {
    const marked = /^\/\/ kit: (wide|custom-action)\s*$/m.exec(readFileSync(path.join(failDir, name), "utf8"));
    groups[marked ? marked[1] : "bundled"].push(name);
  }
  for (const [group, names] of Object.entries(groups)) {
    if (names.length === 0) continue;
    const dir = path.join(scratch, "fail-" + group);
    mkdirSync(dir);
    symlinkSync(kits[group], path.join(dir, "kit"));
    for (const name of names) copyFileSync(path.join(failDir, name), path.join(dir, name));
    const run = tsc(["--lib", "es2017"].concat(names), dir);
    const found = diagnostics(run.output);
    for (const name of names) {
      const lines = readFileSync(path.join(failDir, name), "utf8").split("\n");
      const expected = [];
      lines.forEach((line, index) => {
        const match = /^\s*\/\/ expect-error (TS\d+)\s*$/.exec(line);
        if (match) expected.push(`${index + 2} ${match[1]}`);
      });
      assert.ok(expected.length > 0, `${name} names no expected error`);
      assert.deepEqual((found.get(name) || []).sort(), expected.sort(), `${name}: tsc reported\n${run.output}`);
      t.diagnostic(`${name} (${group} kit): fails with ${expected.map((entry) => entry.split(" ")[1]).join(", ")}`);
    }
  }
});
