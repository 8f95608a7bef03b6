// Cross-checks with the Swift side through the real `bridgectl` binary ($BRIDGECTL, else
// .build/debug/bridgectl). Without the binary these tests FAIL with a message saying how to
// build it; they never skip.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { CONTRACT, buildUniversalLink, createBridge } from "../bridge.js";
import { messageShouldValidate, reasonShimCannotBuild, runFixtureThroughShim } from "../test-support/fixture-run.mjs";
import { bridgectl, bridgectlPath, fakeWindow, loadFixtures, pageURLFor } from "../test-support/support.mjs";

const fixtures = loadFixtures();
let scratch;

before(() => {
  bridgectlPath(); // throws a clear error when the binary is missing
  scratch = mkdtempSync(path.join(tmpdir(), "bridgekit-js-"));
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `bridgectl validate` on a message body: {valid, output}. Exit 0 valid, 1 invalid, 2 unreadable. */
function swiftVerdict(name, body) {
  const file = path.join(scratch, name.replace(/[^A-Za-z0-9_.-]/g, "_"));
  writeFileSync(file, body);
  const run = bridgectl(["validate", "--format", "json", file]);
  assert.ok([0, 1, 2].includes(run.status), `bridgectl validate exited ${run.status}: ${run.stderr}`);
  return { valid: run.status === 0, status: run.status, output: (run.stdout + run.stderr).trim() };
}

describe("the shim's envelope for every valid fixture validates with bridgectl validate", () => {
  for (const entry of fixtures.filter((item) => item.fixture.expect.valid)) {
    test(entry.path, async () => {
      const run = await runFixtureThroughShim(entry.fixture);
      assert.ok(run.envelope, "the shim sent a message");
      const verdict = swiftVerdict(`shim-${entry.path}`, JSON.stringify(run.envelope));
      assert.equal(verdict.status, 0, verdict.output);
      const report = JSON.parse(verdict.output);
      assert.equal(report.results[0].action, entry.fixture.message.action);
      assert.equal(report.results[0].version, entry.fixture.message.version);
    });
  }
});

describe("JS and Swift agree on every fixture's verdict", () => {
  const table = [];
  for (const entry of fixtures) {
    test(entry.path, async () => {
      const { fixture } = entry;
      const body = fixture.raw !== undefined ? fixture.raw : JSON.stringify(fixture.message);
      const swift = swiftVerdict(`fixture-${entry.path}`, body);
      // The Swift checker on the fixture's own bytes agrees with what the fixture says about the message.
      assert.equal(swift.valid, messageShouldValidate(fixture), `bridgectl validate: ${swift.output}`);

      // The JS side: what a page experiences when it sends this message through the shim.
      const reason = await reasonShimCannotBuild(fixture);
      let js;
      if (reason !== null) {
        js = "not producible by the shim";
        assert.equal(fixture.expect.valid, false, `a valid message the shim cannot produce: ${reason}`);
      } else {
        const run = await runFixtureThroughShim(fixture);
        js = run.error ? `rejected ${run.error.code}` : "resolved";
        assert.equal(run.error === undefined, fixture.expect.valid, `JS outcome ${js}`);
        if (run.envelope !== undefined) {
          // The message the shim actually built gets the same Swift verdict as the fixture's own.
          const rebuilt = swiftVerdict(`rebuilt-${entry.path}`, JSON.stringify(run.envelope));
          assert.equal(rebuilt.valid, swift.valid, `shim-built envelope: ${rebuilt.output}`);
        } else {
          assert.equal(swift.valid, false, "the shim refused locally a message Swift accepts");
        }
      }
      table.push(`${entry.path}: swift ${swift.valid ? "valid" : "invalid"}, js ${js}, expect ${fixture.expect.valid ? "valid" : fixture.expect.code}`);
    });
  }
  test("verdict table", (t) => {
    assert.equal(table.length, fixtures.length);
    for (const row of table) t.diagnostic(row);
  });
});

// Inputs with Korean, spaces, +, &, =, / and % in every place a value can go.
const LINK_CASES = [
  {
    action: "apply",
    payload: { slug: "new-user-promo", plan: "premium", memo: "빠른 상담 & 감사+ a=b/c?d%20e" },
    campaign: {
      campaign_id: "2025Q3_signup_retarget", group_id: "B", variant: "카드 스캐너 CTA+",
      utm_source: "kakaotalk", utm_medium: "alimtalk", utm_campaign: "겨울 & 봄 = 50%", utm_term: "a+b c", utm_content: "x/y?z",
    },
  },
  { action: "view_vehicles", payload: { vehicleType: "2.5ton", region: "경기 남부", sort: "price", page: 2, from: "new-user-promo" }, campaign: { utm_source: "instagram" } },
  { action: "view_vehicles", payload: {}, campaign: {} },
  { action: "start", payload: { referrer: "winter-event", promoCode: "WELCOME2026" }, campaign: { variant: "+" } },
  { action: "start", payload: { promoCode: "PUSH2026" }, campaign: { campaign_id: "c.1-2_3", group_id: "그룹 A&B" } },
];

function linkBuildArguments(action, payload, campaign) {
  const entry = CONTRACT.actions[action].versions[String(CONTRACT.actions[action].latest)];
  const args = ["link", "build", entry.route];
  for (const [name, pointer] of entry.parameters) args.push("--param", `${name}=${payload[pointer.split("/").pop()]}`);
  for (const [name, pointer] of entry.query) {
    const value = payload[pointer.split("/").pop()];
    if (value !== undefined) args.push("--query", `${name}=${value}`);
  }
  const flags = { campaign_id: "--campaign-id", group_id: "--group-id", variant: "--variant" };
  for (const [name, value] of Object.entries(campaign)) {
    if (flags[name]) args.push(flags[name], value);
    else args.push("--utm", `${name}=${value}`);
  }
  return args;
}

describe("the shim's Universal Link equals `bridgectl link build` for the same input", () => {
  for (const [index, item] of LINK_CASES.entries()) {
    test(`${item.action} #${index + 1}`, async () => {
      // Outside the app: the shim opens the link itself.
      const win = fakeWindow(pageURLFor(item.campaign));
      const bridge = createBridge({ window: win });
      assert.deepEqual({ ...bridge.campaign }, item.campaign, "the page URL carried every campaign field");
      const result = await bridge.send(item.action, undefined, item.payload);
      assert.equal(win.opened.length, 1);

      const withCampaign = bridgectl(linkBuildArguments(item.action, item.payload, item.campaign));
      assert.equal(withCampaign.status, 0, withCampaign.stderr);
      assert.equal(win.opened[0], withCampaign.stdout.trim());

      // The reply-style URL (no campaign fields) equals link build without campaign options.
      const plain = bridgectl(linkBuildArguments(item.action, item.payload, {}));
      assert.equal(plain.status, 0, plain.stderr);
      assert.equal(result.url, plain.stdout.trim());
      assert.equal(await buildUniversalLink(item.action, undefined, item.payload), plain.stdout.trim());
    });
  }
});
