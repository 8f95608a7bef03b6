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

// docs/operations.md shows the same table to operations staff, row for row.
test("docs/operations.md shows the shared table, row for row", () => {
  const docs = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8").split("\n");
  const start = docs.findIndex((line) => line.includes("The rows of Tests/shared/encoded-twice.json"));
  assert.ok(start >= 0, "docs/operations.md has the table's marker");
  const rows = [];
  for (const line of docs.slice(start + 3)) {
    const cells = /^\| `(.*)` \| (yes|no) \| (.*) \|$/.exec(line);
    if (!cells) break;
    rows.push({ value: cells[1], encodedTwice: cells[2] === "yes", why: cells[3] });
  }
  assert.deepEqual(rows, table.cases);
});
