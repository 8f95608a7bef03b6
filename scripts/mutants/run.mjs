#!/usr/bin/env node
// Mutation testing: how many small, plausible bugs the tests catch.
//
//   node scripts/mutants/run.mjs            run every mutant of mutants.json (make mutants)
//   node scripts/mutants/run.mjs --check    only check that every mutant still applies (make test)
//   node scripts/mutants/run.mjs --only a,b run the named mutants
//   node scripts/mutants/run.mjs --full     also run `make test` for each survivor
//
// A mutant is a file, a search string that must occur exactly once in it, its replacement and the
// narrowest test command that should catch it. The repository is copied to one scratch folder
// (MUTANTS_SCRATCH, default /tmp/bridgekit-mutants-$USER) that is reused between runs, so its .build
// stays warm: each mutant is applied there, its command is run, and the file is restored.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runIn, scratchFolder, syncScratch } from "./scratch.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const listFile = path.join(root, "scripts", "mutants", "mutants.json");
const args = process.argv.slice(2);
const checkOnly = args.includes("--check");
const full = args.includes("--full");
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? new Set((args[onlyIndex + 1] || "").split(",").filter(Boolean)) : null;
const unknown = args.filter((arg, i) => !["--check", "--full", "--only"].includes(arg) && !(onlyIndex >= 0 && i === onlyIndex + 1));
if (unknown.length > 0 || (onlyIndex >= 0 && only.size === 0)) {
  console.error("usage: run.mjs [--check] [--full] [--only NAME,NAME]  (unknown: " + unknown.join(" ") + ")");
  process.exit(2);
}

function loadList() {
  let list;
  try {
    list = JSON.parse(readFileSync(listFile, "utf8"));
  } catch (error) {
    console.error("mutants: cannot read " + path.relative(root, listFile) + ": " + error.message);
    process.exit(2);
  }
  const problems = [];
  const names = new Set();
  for (const [index, mutant] of (list.mutants || []).entries()) {
    const where = "mutant " + (mutant.name || "#" + index);
    for (const field of ["name", "layer", "file", "search", "replace", "test"]) {
      if (typeof mutant[field] !== "string" || mutant[field] === "") problems.push(where + ": no " + field);
    }
    if (names.has(mutant.name)) problems.push(where + ": the name is used twice");
    names.add(mutant.name);
    if (mutant.search === mutant.replace) problems.push(where + ": the replacement is the search string");
    const file = path.join(root, mutant.file || "");
    if (!existsSync(file)) {
      problems.push(where + ": " + mutant.file + " does not exist");
      continue;
    }
    const count = readFileSync(file, "utf8").split(mutant.search).length - 1;
    if (count !== 1) problems.push(where + ": its search string occurs " + count + " times in " + mutant.file + " (must be exactly once)");
  }
  if (only) for (const name of only) if (!names.has(name)) problems.push("--only: no mutant named " + name);
  if ((list.mutants || []).length === 0) problems.push("no mutants in the list");
  if (problems.length > 0) {
    for (const problem of problems) console.error("mutants: " + problem);
    process.exit(1);
  }
  return list.mutants;
}

const mutants = loadList();
if (checkOnly) {
  const layers = new Set(mutants.map((m) => m.layer));
  console.log("mutants: " + mutants.length + " mutants in " + layers.size + " layers, each search string found exactly once");
  process.exit(0);
}

const scratch = scratchFolder("bridgekit-mutants");
const run = (command, log) => runIn(scratch, command, log);

const copied = syncScratch(root, scratch);
console.log("scratch " + scratch + ": " + copied.total + " files (" + copied.written + " written, " + copied.removed + " removed)");

const selected = mutants.filter((m) => !only || only.has(m.name));
const equivalent = selected.filter((m) => m.equivalent);
const active = selected.filter((m) => !m.equivalent);

// Each test command must pass on the unmutated copy, or a "killed" would mean nothing.
for (const command of [...new Set(active.map((m) => m.test))]) {
  const log = path.join(scratch, "mutant-logs", "baseline-" + command.replace(/[^A-Za-z0-9]+/g, "_").slice(0, 60) + ".log");
  const baseline = run(command, log);
  console.log("baseline " + (baseline.ok ? "passes" : "FAILS") + " (" + baseline.seconds + " s): " + command);
  if (!baseline.ok) {
    console.error("mutants: the test command fails without a mutant; see " + log);
    process.exit(1);
  }
}

// What must still compile with the mutant in: the Swift package (tests included) for Swift and for
// C files the package builds, the C flags of make c-warnings for C, node --check for JS.
function buildCommand(mutant) {
  const commands = [];
  if (mutant.file.endsWith(".c")) {
    commands.push("gcc -std=c11 -fsyntax-only -Wall -Wextra -Werror -ISources/CSchemaCheck/include -ISources/CSchemaCheck -DPCRE2_CODE_UNIT_WIDTH=8 " + mutant.file);
  }
  if (/\.(m?js)$/.test(mutant.file)) commands.push("node --check " + mutant.file);
  if (mutant.file.endsWith(".swift") || mutant.test.startsWith("swift ")) commands.push("swift build --build-tests");
  return commands.length > 0 ? commands.join(" && ") : "true";
}

const survivors = [];
let killed = 0;
for (const mutant of active) {
  const file = path.join(scratch, mutant.file);
  const original = readFileSync(file, "utf8");
  if (original.split(mutant.search).length !== 2) {
    console.error("mutants: " + mutant.name + ": the search string is not found exactly once in the scratch copy of " + mutant.file);
    process.exit(1);
  }
  writeFileSync(file, original.replace(mutant.search, () => mutant.replace));
  const log = path.join(scratch, "mutant-logs", mutant.name + ".log");
  let outcome;
  try {
    // A mutant that does not build is a broken list entry, not a kill.
    const built = run(buildCommand(mutant), path.join(scratch, "mutant-logs", mutant.name + ".build.log"));
    if (!built.ok) {
      console.error("mutants: " + mutant.name + " does not build (" + buildCommand(mutant) + "); see " + path.join(scratch, "mutant-logs", mutant.name + ".build.log"));
      process.exit(1);
    }
    outcome = run(mutant.test, log);
  } finally {
    writeFileSync(file, original);
  }
  if (!outcome.ok) {
    killed += 1;
    console.log("killed   " + mutant.name + " (" + mutant.layer + ", " + outcome.seconds + " s, " + mutant.test + ")");
    continue;
  }
  let note = "";
  if (full) {
    writeFileSync(file, original.replace(mutant.search, () => mutant.replace));
    try {
      const whole = run("make test", path.join(scratch, "mutant-logs", mutant.name + ".make-test.log"));
      if (!whole.ok) { killed += 1; console.log("killed   " + mutant.name + " (" + mutant.layer + ", by make test only, " + whole.seconds + " s)"); continue; }
      note = ", make test too";
    } finally {
      writeFileSync(file, original);
    }
  }
  survivors.push(mutant.name);
  console.log("SURVIVED " + mutant.name + " (" + mutant.layer + ", " + outcome.seconds + " s, " + mutant.test + note + ")");
}
for (const mutant of equivalent) console.log("equivalent " + mutant.name + ": " + mutant.equivalent);

const score = active.length === 0 ? 100 : Math.round((1000 * killed) / active.length) / 10;
console.log(killed + " killed, " + survivors.length + " survived (" + score + "% of " + active.length + " mutants; "
  + equivalent.length + " marked equivalent, not run)" + (survivors.length ? "; survivors: " + survivors.join(", ") : ""));
process.exit(survivors.length === 0 ? 0 : 1);
