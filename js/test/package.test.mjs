// js/ as an installable package: `npm pack` (Debian's or Node's npm, offline), installed from the
// tarball into a scratch project with no registry to reach, then every entry imported by package
// name from JavaScript and from TypeScript (tsc --strict, node16 and classic node resolution).
// npm and tsc come from `scripts/ensure-deps.sh npm node-typescript`; without them this fails.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { repoRoot } from "../test-support/support.mjs";

const kit = path.join(repoRoot, "js");
const manifest = JSON.parse(readFileSync(path.join(kit, "package.json"), "utf8"));
let scratch;
let project;

/** Runs a tool; fails naming the command and its output. No registry can be reached. */
function run(command, args, cwd) {
  const env = Object.assign({}, process.env, {
    npm_config_registry: "http://127.0.0.1:9/", // nothing listens there: any fetch fails
    npm_config_cache: path.join(scratch, "npm-cache"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  });
  delete env.NODE_TEST_CONTEXT;
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env, timeout: 120000 });
  if (result.error && result.error.code === "ENOENT") {
    assert.fail(`${command} is not installed: run scripts/ensure-deps.sh npm node-typescript (make test does)`);
  }
  assert.equal(result.status, 0, `${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-package-"));
  project = path.join(scratch, "event-page");
  mkdirSync(project);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("npm pack gives a tarball of the kit alone, and it installs offline into a project", () => {
  const packed = JSON.parse(run("npm", ["pack", "--json", "--offline", "--ignore-scripts", "--pack-destination", scratch], kit));
  const files = packed[0].files.map((file) => file.path).sort();
  assert.deepEqual(files, [
    "bridge.d.ts", "bridge.js", "package.json",
    "src/bridge-runtime.d.ts", "src/bridge-runtime.js", "src/errors.js", "src/events.d.ts", "src/events.js", "src/fake-host.d.ts", "src/fake-host.js",
    "src/fallback.d.ts", "src/fallback.js",
    "src/fixture-runner.mjs", "src/handshake.js", "src/link-builder.d.ts", "src/link-builder.js", "src/link-rules.d.ts", "src/link-rules.js",
    "src/links.d.ts", "src/links.js", "src/pending.js", "src/raw-request-id.js", "src/schema-runtime.d.ts", "src/schema-runtime.js",
    "src/surrogates.js", "src/transports.js",
    "src/validation.d.ts", "src/validation.js",
    "testing/fake-host.d.ts", "testing/fake-host.js", "testing/fixtures.test.mjs", "testing/releases.d.ts", "testing/releases.js",
    "validators.d.ts", "validators.js",
  ], "our tests, fixtures and examples stay out of the package; the fixture runner for the web team's set is in");
  assert.equal(packed[0].name, manifest.name);
  assert.equal(packed[0].version, manifest.version);

  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "event-page", private: true, type: "module" }));
  run("npm", ["install", "--offline", "--ignore-scripts", "--no-package-lock", path.join(scratch, packed[0].filename)], project);
  assert.deepEqual(readdirSync(path.join(project, "node_modules")).filter((name) => !name.startsWith(".")), [manifest.name]);
});

test("every entry imports by package name from JavaScript", () => {
  writeFileSync(path.join(project, "page.test.js"), `
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBridge, BridgeError, CONTRACT } from "${manifest.name}";
import { validate, applyV1 } from "${manifest.name}/validators";
import { installFakeHost } from "${manifest.name}/testing/fake-host";
import packageJSON from "${manifest.name}/package.json" with { type: "json" };

test("the installed kit works", async () => {
  assert.equal(packageJSON.version, ${JSON.stringify(manifest.version)});
  assert.equal(CONTRACT.bridge, ${JSON.stringify(JSON.parse(readFileSync(path.join(repoRoot, "contracts", "manifest.json"), "utf8")).bridge)});
  const page = { location: { href: "https://event.sendy.co.kr/e?campaign_id=c1", assign() {} } };
  const host = installFakeHost({ window: page });
  const result = await createBridge({ window: page }).applyV1({ slug: "new-user-promo" });
  assert.equal(result.route, "applyForm");
  assert.equal(host.messages[0].campaign.campaign_id, "c1");
  assert.equal(validate(host.messages[0]).valid, true);
  assert.equal(applyV1({ v: 1, action: "apply", version: 1, payload: {} }).valid, false);
  const refused = await createBridge({ window: page, validate: true }).send("apply", 1, { slug: "x", plan: "gold" }).catch((error) => error);
  assert.ok(refused instanceof BridgeError && refused.code === "INVALID_PARAMS");
  const older = { location: { href: "https://sendy.co.kr/event/e", assign() {} } };
  const build = installFakeHost({ window: older, release: "ios@5.12.0" });
  await createBridge({ window: older }).offer("apply", { 2: { slug: "a", plan: "basic" }, 1: { slug: "a" } });
  assert.deepEqual(build.usage(), { page: "event/e", calls: [{ action: "apply", versions: [2, 1] }] });
  assert.equal(build.messages[0].version, 1);
});
`);
  const output = run(process.execPath, ["--no-warnings", "--test", "page.test.js"], project);
  assert.match(output, /# pass 1/);
});

test("every entry imports by package name from TypeScript (tsc --strict, node16 and node resolution)", () => {
  writeFileSync(path.join(project, "page.ts"), `
import { createBridge, BridgeError, type BridgeResult, type ApplyV1Payload } from "${manifest.name}";
import { validate, type ValidationResult } from "${manifest.name}/validators";
import { installFakeHost, type FakeHost } from "${manifest.name}/testing/fake-host";

const page = { location: { href: "https://event.sendy.co.kr/e", assign(url: string): void {} } };
const host: FakeHost = installFakeHost({ window: page });
const payload: ApplyV1Payload = { slug: "new-user-promo", plan: "premium" };
export async function apply(): Promise<string> {
  const result: BridgeResult = await createBridge({ window: page, validate: true }).applyV1(payload);
  const verdict: ValidationResult = validate(host.messages[0]);
  return result.route + (verdict.valid ? "" : String(verdict.code)) + (BridgeError.name);
}
`);
  for (const resolution of ["node16", "node"]) {
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2017", module: resolution === "node16" ? "node16" : "es2020", moduleResolution: resolution, lib: ["es2020"], types: [] },
      files: ["page.ts"],
    }));
    run("tsc", ["-p", "tsconfig.json"], project);
  }
});
