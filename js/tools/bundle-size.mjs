// What a page downloads for the shim, with and without the validators, as a bundler serves it:
// the modules an entry loads before its first call (following static imports; the dynamic
// imports the shim makes later, of links.js, fallback.js, validators.js, are not followed),
// joined in import order into one script without their relative import statements and re-exports
// (the modules of the shim share one top-level scope: a name declared twice fails here), then
// minified by uglifyjs (Debian's, fixed options: --module --compress --mangle) and gzipped at
// level 9. "Shim + validators" adds the chunk createBridge({ validate: true }) loads
// (validators.js, schema-runtime.js, validation.js, bundled the same way, without the modules
// the shim has). The sum of each module minified and gzipped on its own, as a page fetching the
// ES modules unbundled gets them, is shown for comparison; the budgets apply to the bundles.
// Deterministic.
//
//   node js/tools/bundle-size.mjs           prints the table
//   node js/tools/bundle-size.mjs --check   also fails (exit 1) when a budget is exceeded
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const kit = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Budgets in bytes, minified and gzipped, of the bundles. The shim's is the target the runtime was
 * split into modules and its links made lazy for: as one runtime file that loaded link-rules.js
 * with it, it measured 8,229 B bundled (8,819 B module by module). The row with the validators
 * is its size when the shim was split, rounded up, then raised by 100 B for the shim's part of the
 * app's events (subscriptions, their counters, loading events.js), which both rows carry; then by
 * 100 B for the events' contract table and the request id that a navigation not yet ended carries
 * in its result (what the page matches navigation_completed with), and the validators row by
 * 800 B more for the generated checks of the example contracts' two event versions
 * (eventValidators: each event version's check is about 350 to 400 B). Both rows were then raised
 * to just above what they measured (shim 6,223 B, from 6,029 B) for surrogates.js, which every call
 * runs before posting: a string with a lone surrogate (an emoji cut by .slice()) is refused with
 * INVALID_PARAMS naming its JSON Pointer, because the app cannot parse it and on Android's channels
 * its INVALID_MESSAGE reply used to leave the call waiting for its timeout. It cannot be loaded
 * lazily: it runs on the first call, and a dynamic import would delay every first call.
 */
export const BUDGETS = {
  "shim": { minifiedGzip: 6230 },
  "shim + validators": { minifiedGzip: 11860 },
};

// A static import or re-export of a module of the kit: `import {…} from "./x.js";`, `export {…} from "./x.js";`.
const STATIC_IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)";\n?/gms;

/** The modules `file` of the kit in `root` imports statically, as paths in the kit. */
const importsOf = (root, file) => Array.from(readFileSync(path.join(root, file), "utf8").matchAll(STATIC_IMPORT),
  (match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])));

/** The modules `entry` loads, itself first, following static imports only. */
function modules(root, entry, seen = []) {
  if (seen.includes(entry)) return seen;
  seen.push(entry);
  for (const file of importsOf(root, entry)) modules(root, file, seen);
  return seen;
}

/** `files` with every module after the modules of `files` it imports, as a bundler orders them. */
function dependencyOrder(root, files) {
  const ordered = [];
  const visiting = new Set();
  const visit = (file) => {
    if (ordered.includes(file) || visiting.has(file) || !files.includes(file)) return;
    visiting.add(file);
    importsOf(root, file).forEach(visit);
    ordered.push(file);
  };
  files.forEach(visit);
  return ordered;
}

function minified(text, name) {
  const run = spawnSync("uglifyjs", ["--module", "--compress", "--mangle"], { input: text, encoding: "utf8" });
  if (run.error && run.error.code === "ENOENT") throw new Error("uglifyjs is not installed: run scripts/ensure-deps.sh uglifyjs (make test does)");
  if (run.status !== 0) throw new Error(`uglifyjs ${name}: ${run.stderr}`);
  return run.stdout;
}

/** The modules joined into one script, dependencies first, as a bundler joins them. */
function bundled(root, files) {
  const text = dependencyOrder(root, files).map((file) => readFileSync(path.join(root, file), "utf8").replace(STATIC_IMPORT, "")).join("\n");
  const check = spawnSync(process.execPath, ["--input-type=module", "--check"], { input: text, encoding: "utf8" });
  if (check.status !== 0) throw new Error(`the bundle of ${files.join(", ")} does not parse (a top-level name declared in two modules?): ${check.stderr}`);
  return text;
}

const gzipped = (text) => gzipSync(text, { level: 9 }).length;

/** Each chunk (a list of modules) bundled, minified and gzipped; and each module on its own. */
function measure(root, chunks) {
  const files = chunks.flat();
  const sizes = { files, raw: 0, gzip: 0, minified: 0, minifiedGzip: 0, oneByOne: 0 };
  for (const chunk of chunks) {
    const text = bundled(root, chunk);
    const small = minified(text, chunk[0]);
    sizes.raw += Buffer.byteLength(text);
    sizes.gzip += gzipped(text);
    sizes.minified += Buffer.byteLength(small);
    sizes.minifiedGzip += gzipped(small);
  }
  for (const file of files) sizes.oneByOne += gzipped(minified(readFileSync(path.join(root, file), "utf8"), file));
  return sizes;
}

/** The table's rows for the kit in `root` (default: this kit). */
export function measureKit(root = kit) {
  const shim = modules(root, "bridge.js");
  // validate: true imports validation.js with validators.js, in one chunk without the shim's modules.
  const validators = modules(root, "validators.js").concat(modules(root, "src/validation.js")).filter((file, index, all) => !shim.includes(file) && all.indexOf(file) === index);
  return { "shim": measure(root, [shim]), "shim + validators": measure(root, [shim, validators]) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = measureKit();
  const failures = [];
  console.log("| what a page loads | modules | bytes | gzip -9 | minified | minified + gzip -9 | budget | modules one by one |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, sizes] of Object.entries(rows)) {
    const budget = BUDGETS[name];
    console.log(`| ${name} | ${sizes.files.join(", ")} | ${sizes.raw} | ${sizes.gzip} | ${sizes.minified} | ${sizes.minifiedGzip} | ${budget.minifiedGzip} | ${sizes.oneByOne} |`);
    if (sizes.minifiedGzip > budget.minifiedGzip) failures.push(`${name}: ${sizes.minifiedGzip} bytes minified and gzipped, over its budget of ${budget.minifiedGzip}`);
  }
  if (process.argv.includes("--check")) {
    for (const failure of failures) console.error("bundle-size: " + failure);
    console.log(failures.length === 0 ? "bundle-size: within budget" : `bundle-size: ${failures.length} over budget`);
    process.exit(failures.length === 0 ? 0 : 1);
  }
}
