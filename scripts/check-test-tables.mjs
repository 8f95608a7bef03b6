#!/usr/bin/env node
// The tables of docs that name tests must name tests that exist: RELIABILITY.md's boundary table
// (each rule with a number or a date, and the tests that try it at n - 1, n and n + 1).
// A row's last cell holds the test names and, in the same cell, the files they are in, each in
// backticks: a name is a Swift `func NAME`, a JS `test("NAME"` or a C `static void NAME(void)`
// in one of the row's files.
// Run by `make layers` (no build needed).
//
//   node scripts/check-test-tables.mjs [FILE.md#Heading ...]
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tables = ["RELIABILITY.md#Boundaries"];

/// The rows of the first table under the heading that starts with `heading`, as arrays of cells.
export function tableRows(markdown, heading) {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, "").startsWith(heading));
  if (start < 0) return null;
  const rows = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#+ /.test(line)) break;
    if (line.startsWith("|")) {
      inTable = true;
      const cells = line.slice(1, line.endsWith("|") ? -1 : undefined).split("|").map((cell) => cell.trim());
      if (!cells.every((cell) => /^-+$/.test(cell))) rows.push(cells);
    } else if (inTable) break;
  }
  return rows.slice(1); // the header row
}

/// What is wrong with one row's test cell: names that no file of the cell defines, files that do
/// not exist, a cell with no test.
export function cellProblems(cell, read) {
  const quoted = [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  const files = quoted.filter((item) => item.includes("/"));
  const names = quoted.filter((item) => !item.includes("/"));
  const problems = [];
  if (files.length === 0 || names.length === 0) return ["names no test and file: " + cell];
  const texts = [];
  for (const file of files) {
    const text = read(file);
    if (text === null) problems.push("no file " + file);
    else texts.push(text);
  }
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const defined = new RegExp("\\bfunc " + escaped + "\\(|\\btest\\(\"" + escaped + "\"|^static void " + escaped + "\\(void\\)", "m");
    if (!texts.some((text) => defined.test(text))) problems.push("no test " + name + " in " + files.join(", "));
  }
  return problems;
}

function main() {
  const read = (file) => {
    const full = path.join(root, file);
    return existsSync(full) ? readFileSync(full, "utf8") : null;
  };
  let failures = 0;
  let checked = 0;
  for (const target of process.argv.length > 2 ? process.argv.slice(2) : tables) {
    const [file, heading] = target.split("#");
    const rows = tableRows(read(file) ?? "", heading);
    if (!rows || rows.length === 0) {
      console.error("check-test-tables: " + file + ": no table under a heading \"" + heading + "\"");
      failures += 1;
      continue;
    }
    for (const row of rows) {
      checked += 1;
      for (const problem of cellProblems(row[row.length - 1], read)) {
        console.error("check-test-tables: " + file + ", row \"" + row[0] + "\": " + problem);
        failures += 1;
      }
    }
  }
  if (failures > 0) process.exit(1);
  console.log("check-test-tables: every test the tables name exists (" + checked + " rows)");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
