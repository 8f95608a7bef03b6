// Mutation sites, found mechanically in Swift, C and JS source: every place where one of a fixed
// set of small, plausible bugs can be planted. Pure functions over text, so they are tested alone
// (scripts/mutants/sites.test.mjs).
//
// The operators:
//   relational   <  <=  >  >=  ==  !=  ===  !==     each to its boundary or its opposite
//   logical      &&  ||                             each to the other
//   negation     if !x, guard !x, while !x          the ! removed
//   offset       + 1  - 1                           each to the other
//   constant     true false ""                      true/false swapped, "" to "x"
//   removal      a call statement of append/insert/remove…, and an early return
//                (`if …{ return … }` or `guard … else { return … }` binding no name, on one
//                line, or C/JS `if (…) return …;`)
//   swap         f(a, b) with two plain names       the arguments swapped
// Code only: string literals and comments are masked first.

/// A mask of `text`: true where a character is code (not inside a string literal or a comment).
/// Knows `//` and `/* */` comments, "…" and '…' strings with escapes, Swift's """ blocks and JS
/// template literals (their ${…} holes are treated as string: no sites there).
export function codeMask(text, language) {
  const mask = new Array(text.length).fill(true);
  mask.emptyStrings = new Set();
  let i = 0;
  const hide = (from, to) => { for (let k = from; k < to && k < text.length; k += 1) mask[k] = false; };
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (two === "//") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      hide(i, stop);
      i = stop;
    } else if (two === "/*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      hide(i, stop);
      i = stop;
    } else if (language === "swift" && text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      const stop = end < 0 ? text.length : end + 3;
      hide(i, stop);
      i = stop;
    } else if (text[i] === '"' || (text[i] === "'" && language !== "swift") || (text[i] === "`" && language === "js")) {
      const quote = text[i];
      let k = i + 1;
      while (k < text.length && text[k] !== quote && (quote === "`" || text[k] !== "\n")) k += text[k] === "\\" ? 2 : 1;
      if (k === i + 1 && quote === '"') mask.emptyStrings.add(i);
      hide(i, k + 1);
      i = k + 1;
    } else if (language === "swift" && text[i] === "#" && text[i + 1] === '"') {
      // A raw string #"…"#: ends at "# (raw strings of more # signs are rare here).
      const end = text.indexOf('"#', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      hide(i, stop);
      i = stop;
    } else {
      i += 1;
    }
  }
  return mask;
}

/// The language of a source file by its name, or null.
export function languageOf(file) {
  if (file.endsWith(".swift")) return "swift";
  if (file.endsWith(".c")) return "c";
  if (/\.m?js$/.test(file)) return "js";
  return null;
}

const skippedLine = /^\s*(import |#include|#define|#if|#elif|#else|#endif|@|precondition|assert|fatalError|case .*:$|default:)/;

function isCode(mask, offset, start, length) {
  for (let k = start; k < start + length; k += 1) if (!mask[offset + k]) return false;
  return true;
}

// A compile condition that holds only on Apple platforms: its code never builds on Linux, so a
// mutant there would build, pass every test and count as a survivor. And one that always holds on
// Linux, whose #else branch is dead there for the same reason.
const appleOnly = /^(?:defined\(__APPLE__\)|__APPLE__|canImport\((?:Darwin|WebKit|UIKit|AppKit|Cocoa|ObjectiveC)\)|os\((?:iOS|macOS|tvOS|watchOS|visionOS)\))(?:\s*(?:\|\||&&)\s*(?:canImport\((?:Darwin|WebKit|UIKit|AppKit|Cocoa|ObjectiveC)\)|os\((?:iOS|macOS|tvOS|watchOS|visionOS)\)))*$/;
const linuxAlways = /^(?:canImport\((?:Glibc|FoundationEssentials)\)|os\(Linux\)|defined\(__linux__\)|__linux__)$/;

/// For each line of `lines`: true when it sits in a conditional-compilation branch that Linux never
/// compiles (`#if canImport(Darwin)`, `#if os(iOS)`, the `#else` of `#if canImport(Glibc)`, C's
/// `#ifdef __APPLE__`). Nested blocks inherit their parent's state.
export function appleOnlyLines(lines) {
  const stack = [];
  const dead = [];
  for (const line of lines) {
    const directive = /^\s*#\s*(if|ifdef|ifndef|elseif|elif|else|endif)\b\s*(.*?)\s*(?:\/\/.*)?$/.exec(line);
    if (directive) {
      const [, word, rawCondition] = directive;
      const condition = word === "ifndef" ? "!" + rawCondition : rawCondition;
      if (word === "if" || word === "ifdef" || word === "ifndef") {
        stack.push({ taken: linuxAlways.test(condition), dead: appleOnly.test(condition) });
      } else if ((word === "elseif" || word === "elif") && stack.length > 0) {
        const top = stack[stack.length - 1];
        top.dead = top.taken || appleOnly.test(condition);
        top.taken = top.taken || linuxAlways.test(condition);
      } else if (word === "else" && stack.length > 0) {
        const top = stack[stack.length - 1];
        top.dead = top.taken;
      } else if (word === "endif") {
        stack.pop();
      }
      dead.push(true);
      continue;
    }
    dead.push(stack.some((frame) => frame.dead));
  }
  return dead;
}

/// Every site of one file: { line (1-based), column, kind, from, to, text (the mutated line) }.
/// None in a branch Linux never compiles (appleOnlyLines).
export function findSites(text, language) {
  const mask = codeMask(text, language);
  const sites = [];
  let offset = 0;
  const lines = text.split("\n");
  const notOnLinux = appleOnlyLines(lines);
  for (const [index, line] of lines.entries()) {
    const lineOffset = offset;
    offset += line.length + 1;
    if (notOnLinux[index] || skippedLine.test(line) || line.trim() === "") continue;
    const add = (kind, start, from, to) => {
      if (!isCode(mask, lineOffset, start, from.length)) return;
      const mutated = line.slice(0, start) + to + line.slice(start + from.length);
      sites.push({ line: index + 1, column: start + 1, kind, from, to, original: line, mutated });
    };
    const each = (pattern, callback) => {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(line); match; match = pattern.exec(line)) callback(match);
    };
    const relational = language === "js"
      ? { " === ": [" !== "], " !== ": [" === "], " <= ": [" < "], " >= ": [" > "], " < ": [" <= "], " > ": [" >= "] }
      : { " == ": [" != "], " != ": [" == "], " <= ": [" < "], " >= ": [" > "], " < ": [" <= "], " > ": [" >= "] };
    each(/ (===|!==|==|!=|<=|>=|<|>) /g, (match) => {
      for (const to of relational[match[0]] || []) add("relational", match.index, match[0], to);
    });
    each(/ (&&|\|\|) /g, (match) => add("logical", match.index, match[0], match[0] === " && " ? " || " : " && "));
    each(/\b(if|guard|while) (\(?)!(?!=)/g, (match) => {
      const start = match.index + match[0].length - 1;
      add("negation", start, "!", "");
    });
    each(/ ([+-]) 1(?![\d.xX_])/g, (match) => add("offset", match.index, match[0], match[1] === "+" ? " - 1" : " + 1"));
    each(/\b(true|false)\b/g, (match) => add("constant", match.index, match[0], match[0] === "true" ? "false" : "true"));
    if (language !== "c") {
      each(/""/g, (match) => {
        if (!mask.emptyStrings.has(lineOffset + match.index)) return;
        sites.push({
          line: index + 1, column: match.index + 1, kind: "constant", from: '""', to: '"x"', original: line,
          mutated: line.slice(0, match.index) + '"x"' + line.slice(match.index + 2),
        });
      });
    }
    // A call statement that only adds to or removes from a collection: the whole line goes.
    const statement = line.trim();
    if (/^[\w.$\[\]]+\.(append|insert|remove\w*|push|unshift|add|set|delete)\(.*\);?$/.test(statement) && isCode(mask, lineOffset, line.indexOf(statement), 1)) {
      sites.push({ line: index + 1, column: line.indexOf(statement) + 1, kind: "removal", from: statement, to: "", original: line, mutated: "" });
    }
    // An early return on one line. A Swift guard only when it binds no name (guard let/var/case):
    // without it the code after it would not build, a stillborn mutant.
    if ((/^if .*\{ *return\b[^}]*\}$/.test(statement) && language === "swift")
      || (/^guard .* else \{ *return\b[^}]*\}$/.test(statement) && !/^guard (?:.*[,(] *)?(?:let|var|case) /.test(statement) && language === "swift")
      || (/^if \(.*\) return\b.*;$/.test(statement) && language !== "swift")) {
      if (isCode(mask, lineOffset, line.indexOf(statement), 2)) {
        sites.push({ line: index + 1, column: line.indexOf(statement) + 1, kind: "removal", from: statement, to: "", original: line, mutated: "" });
      }
    }
    each(/\b([A-Za-z_]\w*)\(([A-Za-z_]\w*), ([A-Za-z_]\w*)\)/g, (match) => {
      const [, callee, first, second] = match;
      if (first === second || /^(if|while|for|switch|return|guard|sizeof|max|min)$/.test(callee)) return;
      if (!isCode(mask, lineOffset, match.index, match[0].length)) return;
      add("swap", match.index, match[0], callee + "(" + second + ", " + first + ")");
    });
  }
  return sites;
}

/// A seeded generator (mulberry32): the same seed draws the same sample.
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled(items, random) {
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/// The order in which one module's sites are tried: shuffled, then taken kind by kind in turn so
/// that every operator family is represented before any is repeated.
export function spreadOrder(sites, random) {
  const byKind = new Map();
  for (const site of shuffled(sites, random)) {
    if (!byKind.has(site.kind)) byKind.set(site.kind, []);
    byKind.get(site.kind).push(site);
  }
  const kinds = shuffled([...byKind.keys()].sort(), random);
  const order = [];
  for (let round = 0; order.length < sites.length; round += 1) {
    for (const kind of kinds) if (byKind.get(kind)[round]) order.push(byKind.get(kind)[round]);
  }
  return order;
}

/// The key an equivalent mutant is recorded by: file, the trimmed original line and the change,
/// so the record survives lines moving.
export function siteKey(file, site) {
  return file + " | " + site.original.trim() + " | " + site.kind + ": " + JSON.stringify(site.from) + " -> " + JSON.stringify(site.to);
}
