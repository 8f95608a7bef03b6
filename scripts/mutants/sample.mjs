#!/usr/bin/env node
// A systematic, seeded mutation run: mutation sites found mechanically in Sources/ (Swift and C)
// and js/src (sites.mjs says which operators), a seeded sample spread over every module, each
// mutant applied alone to a scratch copy and the narrowest tests of its module run.
//
//   node scripts/mutants/sample.mjs [--seed N] [--per-module N] [--modules A,B] [--fresh] [--list]
//   node scripts/mutants/sample.mjs --seed N --first-pass   the seed's scores from its journal
//   node scripts/mutants/sample.mjs --check     the equivalents file is sound (make mutants-check)
//
// A mutant that does not build is stillborn: it is replaced by the module's next site, and not
// counted. A test command that fails, or runs past its time limit (a hang), kills the mutant.
// A survivor is either "a test is missing" (write the test) or recorded as equivalent, with a
// one-line reason, in scripts/mutants/equivalents.json, a file that can only shrink.
// A journal (journal.mjs) lets a stopped run resume; --fresh starts the seed again.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appendJournal, carriedKills, readJournal, recordedBaseline, timeoutFor } from "./journal.mjs";
import { runIn, scratchFolder, syncScratch } from "./scratch.mjs";
import { findSites, languageOf, seededRandom, siteKey, spreadOrder } from "./sites.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const equivalentsFile = path.join(root, "scripts", "mutants", "equivalents.json");

const swiftBuild = "swift build --build-tests";
const swiftSuite = (suite) => "swift test --skip-build --filter " + suite;
// The C checker's own tests by the file's concern (the suite runner first: it costs seconds).
const cTests = (file) => {
  const name = path.basename(file);
  const own = /^(regex|format)/.test(name) ? "Tests/c/run-regex-format-tests.sh"
    : /^reader/.test(name) ? "Tests/c/run-reader-tests.sh"
    : /^(limits|parse|arena)/.test(name) ? "Tests/c/run-limits-tests.sh" : null;
  return own ? ["scripts/mutants/c-suite.sh", own] : ["scripts/mutants/c-suite.sh"];
};
const jsTests = "CORPUS_SIZE=2000 BRIDGECTL=$PWD/.build/debug/bridgectl node --test js/test/";
const validatorAgreement = "CORPUS_SIZE=2000 BRIDGECTL=$PWD/.build/debug/bridgectl node --test js/test/validators-agreement.test.mjs";
const generated = ".build/debug/bridgectl generate js --contracts contracts --check && .build/debug/bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes --check";

/// Per module: what must build with the mutant in, and the narrowest test commands, tried in order
/// (the first that fails kills the mutant).
const modules = {
  JSONCore: { build: swiftBuild, tests: [swiftSuite("JSONCoreTests")] },
  DeeplinkRouting: { build: swiftBuild, tests: [swiftSuite("DeeplinkRoutingTests")] },
  DeeplinkNavigation: { build: swiftBuild, tests: [swiftSuite("DeeplinkNavigationTests")] },
  FunnelMetrics: { build: swiftBuild, tests: [swiftSuite("FunnelMetricsTests")] },
  CSchemaCheck: { build: swiftBuild, tests: (file) => [...cTests(file), swiftSuite("SchemaCheckTests")] },
  SchemaCheck: { build: swiftBuild, tests: [swiftSuite("SchemaCheckTests")] },
  BridgeContracts: { build: swiftBuild, tests: [swiftSuite("BridgeContractsTests")] },
  BridgeHost: { build: swiftBuild, tests: [swiftSuite("BridgeHostTests")] },
  BridgeWebKit: { build: swiftBuild, tests: [swiftSuite("BridgeWebKitTests")] },
  BridgeHostTesting: { build: swiftBuild, tests: [swiftSuite("BridgeHostTests")] },
  // The JS validator compiler's behaviour is tested in node: the generated validators against the
  // C checker, on schemas with every keyword it compiles (js/test/validators-agreement.test.mjs).
  BridgeCodegen: { build: swiftBuild, tests: (file) => /\/Validator[A-Za-z]*\.swift$/.test(file)
    ? [swiftSuite("BridgeCodegenTests"), generated, validatorAgreement] : [swiftSuite("BridgeCodegenTests"), generated] },
  ContractCatalog: { build: swiftBuild, tests: [swiftSuite("ContractCatalogTests")] },
  ContractEvolution: { build: swiftBuild, tests: [swiftSuite("ContractEvolutionTests")] },
  BridgeCLI: { build: swiftBuild, tests: [swiftSuite("BridgeCLITests")] },
  // bridgectl verify's cases: their own suite, then verify run against the hosts it must pass and fail.
  HostConformance: { build: swiftBuild, tests: [swiftSuite("HostConformanceTests"), swiftSuite("VerifyCLITests")] },
  EmbedResourcesTool: { build: swiftBuild, tests: [swiftSuite("BridgeCodegenTests"), generated] },
  // The Swift types generator: its own tests are in BridgeCodegenTests (SwiftTypes*), and the
  // committed BridgeContractTypes must still be what it writes.
  BridgeSwiftCodegen: { build: swiftBuild, tests: [swiftSuite("SwiftTypes"), generated] },
  // The plugin's build tool runs only inside an adopter's build: the adopter app is its test.
  BridgeContractsPluginTool: { build: "swift build --product BridgeContractsPluginTool", tests: ["Tests/adopter-app/run.sh"] },
  BridgeKit: { build: swiftBuild, tests: ["swift build --product AppIntegration && .build/debug/AppIntegration | diff -u Examples/AppIntegration/expected-output.txt -"] },
  bridgectl: { build: swiftBuild, tests: [swiftSuite("BridgeCLITests")] },
  js: { build: "node --check {file}", tests: [jsTests] },
};
// Not sampled: generated code (checked by make generate-check instead) and the vendored C libraries.
const excluded = /^Sources\/(CJanssonVendored|CPCRE2Vendored|BridgeContractTypes)\//;

function testsFor(module, file) {
  const tests = modules[module].tests;
  return typeof tests === "function" ? tests(file) : tests;
}

export function moduleOf(file) {
  if (file.startsWith("js/src/")) return "js";
  return file.split("/")[1];
}

/// The modules of `files` (source files of a sampled language, not excluded) that the table does
/// not map to tests: an error, so a new module cannot drop out of the sample unnoticed.
export function unmappedModules(files, table = modules) {
  const names = new Set(files.filter((file) => languageOf(file) && !excluded.test(file)).map(moduleOf));
  return [...names].filter((name) => !Object.hasOwn(table, name)).sort();
}

const usageLine = "usage: sample.mjs [--seed N] [--per-module N] [--modules A,B] [--fresh] [--list | --first-pass] | --check";

function usage(message) {
  console.error("mutants-sample: " + message);
  console.error(usageLine);
  process.exit(2);
}

function parseArguments(argv) {
  const options = { seed: 1, perModule: 10, modules: null, list: false, check: false, fresh: false, firstPass: false };
  for (let i = 0; i < argv.length; i += 1) {
    const argument = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(argument + " needs a value");
      return argv[++i];
    };
    if (argument === "--seed" || argument === "--per-module") {
      const text = value();
      if (!/^\d+$/.test(text) || (argument === "--per-module" && Number(text) === 0)) usage(argument + " takes a whole number" + (argument === "--per-module" ? " above 0" : "") + ", not " + JSON.stringify(text));
      options[argument === "--seed" ? "seed" : "perModule"] = Number(text);
    } else if (argument === "--modules") {
      options.modules = new Set(value().split(",").filter(Boolean));
      for (const name of options.modules) if (!modules[name]) usage("no module " + JSON.stringify(name) + " (known: " + Object.keys(modules).join(", ") + ")");
    } else if (argument === "--help" || argument === "-h") {
      console.log(usageLine);
      process.exit(0);
    } else if (argument === "--list") options.list = true;
    else if (argument === "--first-pass") options.firstPass = true;
    else if (argument === "--fresh") options.fresh = true;
    else if (argument === "--check") options.check = true;
    else usage("unknown argument " + JSON.stringify(argument));
  }
  return options;
}

export function trackedSourceFiles() {
  return execFileSync("git", ["ls-files", "Sources", "js/src"], { cwd: root }).toString("utf8").split("\n").filter(Boolean);
}

/// The source tree a baseline was measured on: the commit and what differs from it.
function sourceTree() {
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root }).toString("utf8").trim();
  const changes = execFileSync("git", ["diff", "HEAD", "--binary"], { cwd: root, maxBuffer: 1 << 28 });
  const untracked = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: root }).toString("utf8");
  return head + (changes.length + untracked.length > 0 ? "+" + createHash("sha256").update(changes).update(untracked).digest("hex").slice(0, 12) : "");
}

function sourceFiles() {
  const files = trackedSourceFiles();
  const unmapped = unmappedModules(files);
  if (unmapped.length > 0) {
    console.error("mutants-sample: no tests mapped for module " + unmapped.join(", ") + " (add it to the modules table of scripts/mutants/sample.mjs)");
    process.exit(2);
  }
  return files.filter((file) => languageOf(file) && !excluded.test(file));
}

function allSites() {
  const byModule = new Map();
  for (const file of sourceFiles()) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const site of findSites(text, languageOf(file))) {
      const module = moduleOf(file);
      if (!byModule.has(module)) byModule.set(module, []);
      byModule.get(module).push(Object.assign({ file }, site));
    }
  }
  return byModule;
}

function loadEquivalents() {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(equivalentsFile, "utf8"));
  } catch (error) {
    console.error("mutants-sample: cannot read " + path.relative(root, equivalentsFile) + ": " + error.message);
    process.exit(2);
  }
  const entries = parsed.equivalents || [];
  const problems = [];
  for (const [index, entry] of entries.entries()) {
    if (typeof entry.site !== "string" || typeof entry.reason !== "string" || entry.reason.trim() === "") {
      problems.push("entry " + index + " needs a site and a one-line reason");
    }
  }
  return { entries, problems };
}

/// How many equivalents the file may hold: a ratchet. Adding one without removing another fails
/// whether or not it is committed; after removing some, lower this to the new count (--check says
/// so). Raising it is a change to this script, seen in review, never a quiet append to the file.
export const equivalentsCeiling = 23;

/// The problems of the equivalents file: entries that name no site any more, more entries than the
/// ceiling (or fewer: the ceiling must come down with them), and entries absent from the committed
/// version (`committed`, null when there is none).
export function equivalentsProblems(entries, siteKeys, committed, ceiling = equivalentsCeiling) {
  const problems = [];
  for (const entry of entries) if (!siteKeys.has(entry.site)) problems.push("no such site any more (remove the entry): " + entry.site);
  if (entries.length > ceiling) {
    problems.push(entries.length + " recorded equivalents, more than the ceiling of " + ceiling + " (the file only shrinks: remove one for each one added)");
  } else if (entries.length < ceiling) {
    problems.push(entries.length + " recorded equivalents, fewer than the ceiling of " + ceiling + ": lower equivalentsCeiling in scripts/mutants/sample.mjs to " + entries.length);
  }
  if (committed) {
    const before = new Set((committed.equivalents || []).map((entry) => entry.site));
    for (const entry of entries) if (!before.has(entry.site)) problems.push("added since the committed version (the file only shrinks): " + entry.site);
  }
  return problems;
}

/// The equivalents file is sound (equivalentsProblems), checked by make mutants-check.
function check(byModule) {
  const { entries, problems } = loadEquivalents();
  const keys = new Set();
  for (const sites of byModule.values()) for (const site of sites) keys.add(siteKey(site.file, site));
  let committed = null;
  try {
    committed = JSON.parse(execFileSync("git", ["show", "HEAD:scripts/mutants/equivalents.json"], { cwd: root, stdio: ["ignore", "pipe", "ignore"] }).toString("utf8"));
  } catch {
    committed = null;
  }
  problems.push(...equivalentsProblems(entries, keys, committed));
  for (const problem of problems) console.error("mutants-sample: " + problem);
  if (problems.length > 0) process.exit(1);
  console.log("mutants-sample: " + entries.length + " recorded equivalents (the ceiling), each a site that exists; none added");
}

/// Writes the mutated line into the scratch copy of the file; returns the function that restores it.
function plant(scratch, site) {
  const file = path.join(scratch, site.file);
  const original = readFileSync(file, "utf8");
  const lines = original.split("\n");
  if (lines[site.line - 1] !== site.original) throw new Error(site.file + ":" + site.line + " differs in the scratch copy");
  lines[site.line - 1] = site.mutated;
  writeFileSync(file, lines.join("\n"));
  return () => writeFileSync(file, original);
}

function describe(site) {
  return site.file + ":" + site.line + " " + site.kind + " " + JSON.stringify(site.from) + " -> " + JSON.stringify(site.to);
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  const byModule = allSites();
  if (options.check) return check(byModule);
  const { entries, problems } = loadEquivalents();
  if (problems.length > 0) { for (const problem of problems) console.error("mutants-sample: " + problem); process.exit(2); }
  const equivalents = new Map(entries.map((entry) => [entry.site, entry.reason]));
  if (options.firstPass) return printFirstPass(options.seed, equivalents);

  const random = seededRandom(options.seed);
  const plan = [];
  for (const module of [...byModule.keys()].sort()) {
    if (options.modules && !options.modules.has(module)) continue;
    plan.push({ module, sites: byModule.get(module).length, order: spreadOrder(byModule.get(module), random) });
  }
  if (options.list) {
    for (const entry of plan) {
      console.log(entry.module + ": " + entry.sites + " sites; the first " + options.perModule + " of seed " + options.seed + ":");
      for (const site of entry.order.slice(0, options.perModule)) console.log("  " + describe(site));
    }
    return;
  }

  const scratch = scratchFolder("bridgekit-mutants");
  const copied = syncScratch(root, scratch);
  console.log("scratch " + scratch + ": " + copied.total + " files (" + copied.written + " written, " + copied.removed + " removed); seed " + options.seed + ", " + options.perModule + " per module");
  const started = Date.now();
  const logs = path.join(scratch, "mutant-logs");

  const journal = path.join(logs, "sample-seed-" + options.seed + ".jsonl");
  const tree = sourceTree();
  const recorded = options.fresh ? [] : readJournal(journal);
  const carried = carriedKills(recorded);
  if (options.fresh) writeFileSync(journal, "");
  if (carried.size > 0) console.log("journal " + journal + ": " + carried.size + " kills recorded (carried over where the site is unchanged; --fresh ignores them)");

  // Every module's commands must pass unmutated, or a kill would mean nothing.
  const baselineBuild = runIn(scratch, swiftBuild, path.join(logs, "sample-baseline-build.log"));
  if (!baselineBuild.ok) { console.error("mutants-sample: the unmutated package does not build; see " + path.join(logs, "sample-baseline-build.log")); process.exit(1); }
  const commands = new Set(plan.flatMap((entry) => entry.order.slice(0, options.perModule * 3).flatMap((site) => testsFor(entry.module, site.file))));
  const baselineSeconds = new Map();
  for (const [index, command] of [...commands].entries()) {
    const before = recordedBaseline(recorded, tree, command);
    if (before !== null) {
      baselineSeconds.set(command, before);
      console.log("baseline passed on this tree (" + before + " s, from the journal): " + command);
      continue;
    }
    const log = path.join(logs, "sample-baseline-" + index + ".log");
    const result = runIn(scratch, command, log);
    console.log("baseline " + (result.ok ? "passes" : "FAILS") + " (" + result.seconds + " s): " + command);
    if (!result.ok) { console.error("mutants-sample: fails without a mutant; see " + log); process.exit(1); }
    baselineSeconds.set(command, result.seconds);
    appendJournal(journal, { type: "baseline", tree, command, seconds: result.seconds });
  }

  const judge = (module, site) => {
    const key = siteKey(site.file, site);
    const name = module + "-" + site.line + "-" + site.kind;
    if (equivalents.has(key)) {
      console.log("equivalent " + describe(site) + ": " + equivalents.get(key));
      return { module, site, outcome: "equivalent", reason: equivalents.get(key) };
    }
    if (carried.has(key)) {
      const kill = carried.get(key);
      console.log("killed   " + describe(site) + " (from the journal, " + kill.tree.slice(0, 12) + ")");
      return { module, site, outcome: "killed", by: kill.by, timedOut: kill.timedOut, seconds: kill.seconds, carried: kill.tree };
    }
    const restore = plant(scratch, site);
    let outcome;
    try {
      const built = runIn(scratch, modules[module].build.replace("{file}", site.file), path.join(logs, name + ".build.log"));
      if (!built.ok) {
        appendJournal(journal, { type: "mutant", key, tree, outcome: "stillborn" });
        return { module, site, outcome: "stillborn" };
      }
      outcome = { outcome: "survived", seconds: built.seconds };
      for (const command of testsFor(module, site.file)) {
        const result = runIn(scratch, command, path.join(logs, name + ".log"), timeoutFor(baselineSeconds.get(command)));
        outcome.seconds += result.seconds;
        if (!result.ok) { outcome = { outcome: "killed", by: command, timedOut: result.timedOut, seconds: outcome.seconds }; break; }
      }
    } finally {
      restore();
    }
    appendJournal(journal, Object.assign({ type: "mutant", key, tree }, outcome));
    console.log((outcome.outcome === "killed" ? "killed   " : "SURVIVED ") + describe(site) + " (" + outcome.seconds + " s" + (outcome.timedOut ? ", timed out" : "") + ")");
    return Object.assign({ module, site }, outcome);
  };
  const results = roundRobin(plan, options.perModule, judge);
  // Restore the build to the unmutated sources for the next run.
  runIn(scratch, swiftBuild, path.join(logs, "sample-restore-build.log"));
  report(results, options, Math.round((Date.now() - started) / 1000), path.join(logs, "sample-seed-" + options.seed + ".json"));
}

/// Goes round the modules one judged mutant at a time (a stillborn one is replaced by the module's
/// next site), so a run stopped part-way has touched every module; `perModule` judged each at most.
export function roundRobin(plan, perModule, judge) {
  const results = [];
  let cursors = plan.map((entry) => ({ entry, next: 0, taken: 0 }));
  while (cursors.length > 0) {
    for (const cursor of cursors) {
      while (cursor.next < cursor.entry.order.length) {
        const result = judge(cursor.entry.module, cursor.entry.order[cursor.next]);
        cursor.next += 1;
        results.push(result);
        if (result.outcome !== "stillborn") { cursor.taken += 1; break; }
      }
    }
    cursors = cursors.filter((cursor) => cursor.taken < perModule && cursor.next < cursor.entry.order.length);
  }
  return results;
}

function report(results, options, seconds, file) {
  const rows = new Map();
  for (const result of results) {
    if (!rows.has(result.module)) rows.set(result.module, { killed: 0, survived: 0, equivalent: 0, stillborn: 0 });
    rows.get(result.module)[result.outcome] += 1;
  }
  const total = { killed: 0, survived: 0, equivalent: 0, stillborn: 0 };
  console.log("\nmodule               killed  survived  equivalent  stillborn  score");
  for (const [module, row] of [...rows.entries()].sort()) {
    for (const key of Object.keys(total)) total[key] += row[key];
    console.log(module.padEnd(20) + String(row.killed).padStart(7) + String(row.survived).padStart(10) + String(row.equivalent).padStart(12)
      + String(row.stillborn).padStart(11) + "  " + score(row));
  }
  console.log("overall".padEnd(20) + String(total.killed).padStart(7) + String(total.survived).padStart(10) + String(total.equivalent).padStart(12)
    + String(total.stillborn).padStart(11) + "  " + score(total));
  const survivors = results.filter((result) => result.outcome === "survived");
  if (survivors.length > 0) {
    console.log("\nsurvivors (a test is missing, unless recorded as equivalent with a reason):");
    for (const result of survivors) console.log("  " + describe(result.site) + "\n    key: " + siteKey(result.site.file, result.site));
  }
  writeFileSync(file, JSON.stringify({ seed: options.seed, perModule: options.perModule, seconds, results }, null, 2) + "\n");
  const carriedCount = results.filter((result) => result.carried).length;
  console.log("\nseed " + options.seed + ": " + total.killed + " killed" + (carriedCount > 0 ? " (" + carriedCount + " from the journal)" : "") + ", " + total.survived + " survived, " + total.equivalent + " equivalent ("
    + score(total) + " of those not equivalent) in " + seconds + " s; details in " + file);
}

/// Each site's first judgement in a seed's journal, per module. A resumed run judges a survivor
/// again once tests were written for it; the first judgement, on the tree the run started from,
/// is the figure of the tests as they were. A first-pass survivor recorded as equivalent since is
/// counted apart, and `now` says what became of each survivor (the journal's latest judgement).
export function firstPass(entries, equivalentKeys) {
  const first = new Map();
  const latest = new Map();
  for (const entry of entries) {
    if (entry.type !== "mutant" || entry.outcome === "stillborn") continue;
    if (!first.has(entry.key)) first.set(entry.key, entry);
    latest.set(entry.key, entry);
  }
  const rows = new Map();
  const survivors = [];
  for (const [key, entry] of first) {
    const module = moduleOf(key.split(" | ")[0]);
    if (!rows.has(module)) rows.set(module, { killed: 0, survived: 0, equivalent: 0 });
    const row = rows.get(module);
    if (entry.outcome === "killed") {
      row.killed += 1;
      continue;
    }
    const now = equivalentKeys.has(key) ? "equivalent" : latest.get(key).outcome === "killed" ? "killed since" : "survived";
    if (now === "equivalent") row.equivalent += 1; else row.survived += 1;
    survivors.push({ key, now });
  }
  return { rows, survivors };
}

function printFirstPass(seed, equivalents) {
  const journal = path.join(scratchFolder("bridgekit-mutants"), "mutant-logs", "sample-seed-" + seed + ".jsonl");
  if (!existsSync(journal)) { console.error("mutants-sample: no journal at " + journal + " (MUTANTS_SCRATCH names the scratch copy)"); process.exit(2); }
  const { rows, survivors } = firstPass(readJournal(journal), new Set(equivalents.keys()));
  if (rows.size === 0) { console.error("mutants-sample: " + journal + " holds no judged mutant yet"); process.exit(2); }
  const total = { killed: 0, survived: 0, equivalent: 0 };
  console.log("seed " + seed + ", first judgement of each site (" + journal + ")\n");
  console.log("module                     killed  survived  equivalent  first pass  without equivalents");
  const line = (name, row) => {
    console.log(name.padEnd(26) + String(row.killed).padStart(7) + String(row.survived).padStart(10) + String(row.equivalent).padStart(12)
      + percent(row.killed, row.killed + row.survived + row.equivalent).padStart(12) + score(row).padStart(21));
  };
  for (const [module, row] of [...rows.entries()].sort()) {
    for (const key of Object.keys(total)) total[key] += row[key];
    line(module, row);
  }
  line("overall", total);
  if (survivors.length > 0) {
    console.log("\nfirst-pass survivors, and what became of each:");
    for (const { key, now } of survivors) console.log("  " + now.padEnd(13) + key);
  }
}

function percent(part, whole) {
  return whole === 0 ? "-" : (Math.round((1000 * part) / whole) / 10) + "%";
}

/// Killed of those judged, equivalents left out.
function score(row) {
  return percent(row.killed, row.killed + row.survived);
}

// Run as a script; imported by the tests, only the exported functions.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
