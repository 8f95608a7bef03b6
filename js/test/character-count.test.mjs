// A campaign length counts code points in the web kit as in Swift (CharacterCountTests) and as the
// docs and the catalog say: 👍🏽 is two characters, so at variant's 64-character limit it fits
// after 62 letters and not after 63.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CONTRACT } from "../bridge.js";
import { campaignViolation } from "../src/link-rules.js";

const variant = CONTRACT.campaignRules.fields.find((field) => field.name === "variant");

test("the contract's variant is at most 64 characters", () => {
  assert.equal(variant.maxLength, 64);
});

for (const [letters, fits] of [[61, true], [62, true], [63, false]]) {
  test(`${letters} letters and 👍🏽 are ${letters + 2} characters`, () => {
    const violation = campaignViolation(CONTRACT.campaignRules, "variant", "가".repeat(letters) + "👍🏽");
    if (fits) assert.equal(violation, null);
    else assert.equal(violation.problem, "it is 65 characters long, at most 64 allowed");
  });
}
