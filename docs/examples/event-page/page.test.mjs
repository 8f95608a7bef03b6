// The event page's own tests (docs/web-team.md, "Can this page ship?"): the 신청 button against
// the fake host acting as app builds of releases.json, then the page's usage file for
// `bridgectl can-i-deploy`. PAGE picks the page module (default: the fixed one), USAGE where the
// usage file goes (default: usage.json).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createBridge } from "../../../js/bridge.js";
import { createFakeHost } from "../../../js/testing/fake-host.js";

const { apply } = await import(process.env.PAGE || "./apply-offer.mjs");
const form = { slug: "new-user-promo", plan: "premium", contactTime: "evening" };
const hosts = [];

function pageIn(release) {
  const page = { location: { href: "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget", assign() {} } };
  const host = createFakeHost({ release }).install(page);
  hosts.push(host);
  return { host, bridge: createBridge({ window: page }) };
}

test("신청 opens the apply form in the newest iOS build", async () => {
  const { host, bridge } = pageIn("ios@5.13.0");
  const result = await apply(bridge, form);
  assert.equal(result.route, "applyForm");
  assert.equal(host.messages[0].payload.contactTime, "evening");
});

// Every call the page made in these tests, with the versions it offered, for can-i-deploy.
after(async () => {
  for (const [index, host] of hosts.entries()) await host.writeUsage(process.env.USAGE || "usage.json", { merge: index > 0 });
});
