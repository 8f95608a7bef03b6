// The table check: reads the rows under a heading, and refuses a name no file of its cell defines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cellProblems, tableRows } from "./check-test-tables.mjs";

const files = {
  "Tests/A/ATests.swift": "@Test func holdsOnTheDay() {}\n",
  "js/test/b.test.mjs": 'test("refuses past the limit", () => {});\n',
  "Tests/c/c_tests.c": "static void test_slabs(void)\n{\n    test_slabs_helper(1);\n}\n",
};
const read = (file) => files[file] ?? null;

test("the rows of the table under a heading, without its header and separator", () => {
  const markdown = "# Doc\n\n## Boundaries: all\n\ntext\n\n| rule | tests |\n|---|---|\n| a | `x` |\n| b | `y` |\n\n## Next\n| c | d |\n";
  assert.deepEqual(tableRows(markdown, "Boundaries"), [["a", "`x`"], ["b", "`y`"]]);
  assert.equal(tableRows(markdown, "Missing"), null);
});

test("a Swift func, a JS test or a C test function of the cell's files is found", () => {
  assert.deepEqual(cellProblems("`holdsOnTheDay` (`Tests/A/ATests.swift`)", read), []);
  assert.deepEqual(cellProblems("`refuses past the limit` (`js/test/b.test.mjs`)", read), []);
  assert.deepEqual(cellProblems("`test_slabs` (`Tests/c/c_tests.c`)", read), []);
  // A call is not a definition.
  assert.deepEqual(cellProblems("`test_slabs_helper` (`Tests/c/c_tests.c`)", read), ["no test test_slabs_helper in Tests/c/c_tests.c"]);
});

test("a test name no file defines, a missing file, or a cell without either is refused", () => {
  assert.deepEqual(cellProblems("`holdsTheDayAfter` (`Tests/A/ATests.swift`)", read), ["no test holdsTheDayAfter in Tests/A/ATests.swift"]);
  assert.deepEqual(cellProblems("`holdsOnTheDay` (`Tests/A/Gone.swift`)", read), ["no file Tests/A/Gone.swift", "no test holdsOnTheDay in Tests/A/Gone.swift"]);
  assert.deepEqual(cellProblems("tried by hand", read), ["names no test and file: tried by hand"]);
});
