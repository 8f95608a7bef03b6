// "Encoded twice" means encoded twice, in the JS link rules as in Swift: the shared table of real
// campaign copy (Tests/shared/encoded-twice.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { looksEncoded } from "../src/link-rules.js";

const table = JSON.parse(readFileSync(new URL("../../Tests/shared/encoded-twice.json", import.meta.url), "utf8"));

test("the shared table has both verdicts", () => {
  assert.ok(table.cases.some((c) => c.encodedTwice) && table.cases.some((c) => !c.encodedTwice));
});

for (const item of table.cases) {
  test("encoded twice is " + item.encodedTwice + " for " + JSON.stringify(item.value), () => {
    assert.equal(looksEncoded(item.value), item.encodedTwice, item.why);
  });
}
