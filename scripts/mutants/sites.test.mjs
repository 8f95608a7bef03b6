// The mutation-site finder: which sites it finds in code, and that it finds none in strings and
// comments. Run with `node --test scripts/mutants/` (make mutants-check).
import assert from "node:assert/strict";
import { test } from "node:test";
import { codeMask, findSites, seededRandom, siteKey, spreadOrder } from "./sites.mjs";

const kinds = (sites) => sites.map((site) => site.kind + " " + site.from.trim() + "->" + site.to.trim());

test("relational operators mutate to their boundary and their opposite", () => {
  const sites = findSites("if a < b && c == d {\n", "swift");
  assert.deepEqual(kinds(sites), ["relational <-><=", "relational ==->!=", "logical &&->||"]);
  assert.equal(sites[0].mutated, "if a <= b && c == d {");
});

test("JS uses the strict equality operators and never the loose ones", () => {
  assert.deepEqual(kinds(findSites("if (a === b) x();\n", "js")), ["relational ===->!=="]);
  assert.deepEqual(kinds(findSites("if (a == b) x();\n", "js")), []);
});

test("nothing inside a string or a comment is a site", () => {
  const text = 'let s = "a < b && true" // x == y\n/* if !z { return } */\nlet t = """\nq > 1\n"""\n';
  assert.deepEqual(findSites(text, "swift"), []);
  assert.deepEqual(findSites("const s = `a ${b} < c`;\n", "js"), []);
});

test("an escaped quote does not end the string", () => {
  assert.deepEqual(findSites('let s = "a \\" < b"\n', "swift"), []);
});

test("negation, offsets and constants are found", () => {
  assert.deepEqual(kinds(findSites("guard !done else { return }\n", "swift")), ["negation !->", "removal guard !done else { return }->"]);
  assert.deepEqual(kinds(findSites("if (!ok) { }\n", "c")), ["negation !->"]);
  assert.deepEqual(kinds(findSites("let n = i + 1\n", "swift")), ["offset + 1->- 1"]);
  assert.deepEqual(kinds(findSites("let n = i + 10\n", "swift")), [], "+ 10 is not + 1");
  assert.deepEqual(kinds(findSites("let f = false\n", "swift")), ["constant false->true"]);
  assert.deepEqual(kinds(findSites('let e = ""\n', "swift")), ['constant ""->"x"']);
});

test("a != comparison is not a negation site", () => {
  assert.deepEqual(kinds(findSites("if !=x {}\n", "swift")), []);
});

test("an append statement and a one-line early return are removal sites", () => {
  const append = findSites("    items.append(value)\n", "swift");
  assert.deepEqual(kinds(append), ["removal items.append(value)->"]);
  assert.equal(append[0].mutated, "");
  assert.deepEqual(kinds(findSites("if count > limit { return nil }\n", "swift")).filter((k) => k.startsWith("removal")).length, 1);
  assert.deepEqual(kinds(findSites("if (n == 0) return -1;\n", "c")).filter((k) => k.startsWith("removal")).length, 1);
});

test("two plain arguments are swapped, the same name twice is not", () => {
  assert.deepEqual(kinds(findSites("let r = merge(left, right)\n", "swift")), ["swap merge(left, right)->merge(right, left)"]);
  assert.deepEqual(kinds(findSites("let r = merge(left, left)\n", "swift")), []);
  assert.deepEqual(kinds(findSites("let r = max(a, b)\n", "swift")), [], "max and min are symmetric");
});

test("imports, preprocessor lines and assertions are skipped", () => {
  assert.deepEqual(findSites("#if a == b\nimport X\nprecondition(a < b)\n", "swift"), []);
});

test("the code mask knows comments and strings", () => {
  const mask = codeMask('a "b" // c\nd', "swift");
  assert.deepEqual(mask.slice(0, 6), [true, true, false, false, false, true]);
  assert.equal(mask[11], true);
});

test("the same seed draws the same order; another seed another", () => {
  const sites = findSites("a < b\nc > d\ne == f\ng && h\nlet x = true\nlet y = i + 1\n", "swift");
  const first = spreadOrder(sites, seededRandom(3)).map((site) => site.line);
  assert.deepEqual(spreadOrder(sites, seededRandom(3)).map((site) => site.line), first);
  const others = [4, 5, 6, 7, 8].map((seed) => spreadOrder(sites, seededRandom(seed)).map((site) => site.line).join());
  assert.ok(others.some((order) => order !== first.join()), "some other seed orders differently");
});

test("the spread order takes every kind before repeating one", () => {
  const sites = findSites("a < b\nc < d\ne < f\ng && h\nlet x = true\n", "swift");
  const order = spreadOrder(sites, seededRandom(1)).slice(0, 3).map((site) => site.kind);
  assert.deepEqual(new Set(order), new Set(["relational", "logical", "constant"]));
});

test("a site's key names the file, the line's text and the change", () => {
  const [site] = findSites("  if a < b {\n", "swift");
  assert.equal(siteKey("F.swift", site), 'F.swift | if a < b { | relational: " < " -> " <= "');
});

test("a guard that returns early is a removal site unless it binds a name", () => {
  const removals = (line) => kinds(findSites(line + "\n", "swift")).filter((kind) => kind.startsWith("removal"));
  assert.deepEqual(removals("    guard count <= limit else { return nil }"), ["removal guard count <= limit else { return nil }->"]);
  assert.equal(findSites("    guard count <= limit else { return nil }\n", "swift").at(-1).mutated, "");
  assert.deepEqual(removals("guard let value = optional else { return }"), []);
  assert.deepEqual(removals("guard ready, var rest = items else { return }"), []);
  assert.deepEqual(removals("guard case .some(let x) = y else { return }"), []);
  assert.deepEqual(removals("guard ready else { throw Failure() }"), [], "only a return is removed");
});

test("no site in a branch Linux never compiles", () => {
  const swift = [
    "#if canImport(Darwin)", "let a = b < c", "#elseif os(iOS)", "let d = e < f", "#else", "let g = h < i", "#endif",
    "#if canImport(Glibc)", "let j = k < l", "#else", "let m = n < o", "#endif",
    "#if os(macOS) || os(iOS)", "#if DEBUG", "let p = q < r", "#endif", "#endif",
    "let s = t < u", "",
  ].join("\n");
  assert.deepEqual(findSites(swift, "swift").map((site) => site.original), ["let g = h < i", "let j = k < l", "let s = t < u"]);
  const c = "#ifdef __APPLE__\nint a = b < c;\n#else\nint d = e < f;\n#endif\n";
  assert.deepEqual(findSites(c, "c").map((site) => site.original), ["int d = e < f;"]);
});

test("a negated or mixed condition is compiled on Linux and keeps its sites", () => {
  const text = "#if !os(iOS)\nlet a = b < c\n#endif\n#if os(Linux) || os(iOS)\nlet d = e < f\n#endif\n";
  assert.deepEqual(findSites(text, "swift").map((site) => site.original), ["let a = b < c", "let d = e < f"]);
});
