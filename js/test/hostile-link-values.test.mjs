// The shared table of hostile link values (Tests/shared/hostile-link-values.json), run on the web
// side: the link builder the contract catalog uses (src/link-rules.js, with the generated shim's
// campaign rules) and the shim's reading of its page URL. Swift runs the same table through
// DeeplinkURLBuilder, DeeplinkHandler and the host (HostileLinkValuesTests); every answer in the
// table must come out on both sides, byte for byte.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { CONTRACT, createBridge } from "../bridge.js";
import { LinkError, buildLink } from "../src/link-builder.js";
import { readCampaignFromObject, readCampaignFromURL } from "../src/link-rules.js";
import { contractsDir, repoRoot } from "../test-support/support.mjs";

const table = JSON.parse(readFileSync(path.join(repoRoot, "Tests", "shared", "hostile-link-values.json"), "utf8"));
const base = "https://sendy.co.kr/event/new-user-promo";

// The routes of contracts/routes.json as a link table, with the campaign rules bridge.js carries.
const manifest = JSON.parse(readFileSync(path.join(contractsDir, "manifest.json"), "utf8"));
const routes = JSON.parse(readFileSync(path.join(contractsDir, "routes.json"), "utf8")).routes;
const linkTable = {
  webBaseURL: manifest.webBaseURL,
  customScheme: manifest.customScheme,
  routes: routes.map((route) => ({ name: route.name, pattern: route.pattern, parameters: route.parameters || {}, query: Object.entries(route.query || {}) })),
  campaignRules: CONTRACT.campaignRules,
};

test("the table is there", () => {
  assert.ok(table.build.length >= 30);
  assert.ok(table.read.length >= 20);
});

describe("the link builder gives the table's answer", () => {
  for (const row of table.build) {
    test(row.name, () => {
      let built;
      try {
        built = buildLink(linkTable, "eventCampaign", { slug: "new-user-promo" }, {}, row.campaign, { strict: row.strict === true });
      } catch (error) {
        assert.ok(error instanceof LinkError, String(error));
        assert.equal(error.message, row.expect.refused, "refused; the table expects " + JSON.stringify(row.expect));
        assert.equal(error.kind, "invalid", "a value that breaks a rule is exit 1, not a usage error");
        return;
      }
      assert.equal(row.expect.refused, undefined, `built ${built.url}; the table says it is refused`);
      assert.equal(built.url, row.expect.url);
      assert.deepEqual(built.warnings.map((warning) => `${warning.field}: ${warning.message}`), row.expect.warnings);
    });
  }
});

describe("the shim reads the table's campaign from its page URL", () => {
  for (const row of table.read) {
    test(row.name, async () => {
      const url = row.url !== undefined ? row.url : base + "?" + row.query;
      const bridge = createBridge({ window: {}, pageURL: url, navigate() {} });
      assert.deepEqual({ ...bridge.campaign }, row.expect.campaign);
      // Byte for byte, in order: key order is the shared URL order on both sides.
      assert.equal(JSON.stringify(bridge.campaign), JSON.stringify(row.expect.campaign));
      const warnings = (await bridge.campaignWarnings()).map((warning) => `${warning.field === "url" ? "url" : "query." + warning.field}: ${warning.reason}`);
      if (row.expect.unreadable !== undefined) {
        assert.deepEqual(warnings, [`url: ${row.expect.unreadable}`]);
      } else {
        assert.deepEqual(warnings, row.expect.warnings);
      }
      bridge.dispose();
    });
  }
});

test("an empty value of a string path parameter is refused, as bridgectl link build refuses it", () => {
  assert.throws(() => buildLink(linkTable, "checkout", { id: "" }, {}, {}),
    (error) => error instanceof LinkError && error.message === "path.id: \"\" is not a valid string (any non-empty text)");
  assert.equal(buildLink(linkTable, "checkout", { id: "센디" }, {}, {}).url, "https://sendy.co.kr/checkout/%EC%84%BC%EB%94%94");
});

test("a path parameter is checked by its route's type: a slug, an int", () => {
  const refused = (route, parameters, message) => assert.throws(() => buildLink(linkTable, route, parameters, {}, {}),
    (error) => error instanceof LinkError && error.message.startsWith(message), route + " " + JSON.stringify(parameters));
  refused("eventCampaign", { slug: "New Promo" }, "path.slug: \"New Promo\" is not a valid slug");
  refused("orderDetail", { id: "12a" }, "path.id: \"12a\" is not a valid int");
  refused("orderDetail", { id: "9223372036854775808" }, "path.id: \"9223372036854775808\" is not a valid int");
  assert.equal(buildLink(linkTable, "orderDetail", { id: "9223372036854775807" }, {}, {}).url, "https://sendy.co.kr/order/9223372036854775807");
  assert.equal(buildLink(linkTable, "eventCampaign", { slug: "new-user-promo" }, {}, {}).url, "https://sendy.co.kr/event/new-user-promo");
});

// The shim reads the page's campaign with its own small reader when the bridge is made, and
// loads link-rules.js only to word the warnings: both must keep the same fields.
describe("the shim's campaign reader keeps what link-rules.js keeps", () => {
  const same = (bridge, read, label) => assert.equal(JSON.stringify(bridge.campaign), JSON.stringify(read.campaign), label);

  test("for every page URL of the table", () => {
    for (const row of table.read) {
      const url = row.url !== undefined ? row.url : base + "?" + row.query;
      same(createBridge({ window: {}, pageURL: url }), readCampaignFromURL(CONTRACT.campaignRules, url), row.name);
    }
  });

  test("for campaign objects: wrong types, empty values, other fields, lone surrogates, decomposed Hangul", () => {
    const objects = [
      { campaign_id: "ok_1", source: "push", variant: "" },
      { campaign_id: "a b", utm_term: "\ud800", utm_extra: "y", variant: 3, group_id: null },
      { group_id: "\u1100\u1161".repeat(32), utm_content: "😀".repeat(65), utm_medium: "😀".repeat(64) },
      { utm_source: "x".repeat(129), utm_campaign: "x".repeat(128), campaign_id: "_a", variant: "카드" },
    ];
    for (const given of objects) same(createBridge({ window: {}, campaign: given }), readCampaignFromObject(CONTRACT.campaignRules, given), JSON.stringify(given));
  });

  test("with open campaign rules a utm_ field without a rule is kept, and unbounded lengths hold", () => {
    const fields = CONTRACT.campaignRules.fields.map((field) => Object.assign({}, field, { maxLength: null }));
    const rules = { closed: false, fields };
    const contract = Object.assign({}, CONTRACT, { campaignRules: rules });
    const url = base + "?utm_extra=1&variant=" + "v".repeat(300) + "&campaign_id=A" + "b".repeat(63) + "&group_id=" + "g".repeat(40) + "&other=2";
    const bridge = createBridge({ window: {}, pageURL: url, contract });
    assert.deepEqual(Object.keys(bridge.campaign), ["campaign_id", "group_id", "variant", "utm_extra"]);
    same(bridge, readCampaignFromURL(rules, url), url);
  });
});
