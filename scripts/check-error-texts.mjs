// Fails when a product source could print a Swift debug description where a person reads an
// error: an Error type that is not CustomStringConvertible (so "\(error)" prints the type's
// fields: `Refusal(message: "...")`), or String(describing:), dump(...) or .debugDescription.
// Tests are not checked (a test failure message may show anything).
// Usage: node scripts/check-error-texts.mjs   (exit 1 with one line per problem)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function swiftFiles(folder) {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...swiftFiles(path));
    else if (name.endsWith(".swift")) found.push(path);
  }
  return found;
}

// A declaration whose conformance list names Error; the list may run over several lines.
const errorType = /^\s*(?:(?:public|package|internal|private|fileprivate)\s+)?(?:struct|enum|class|final class)\s+(\w+)(?:<[^>]*>)?\s*:\s*([^{]*)\{/gm;
const debugText = /String\(describing:|\bdump\(|\.debugDescription\b/;

const problems = [];
let checked = 0;
for (const file of swiftFiles(join(root, "Sources"))) {
  const text = readFileSync(file, "utf8");
  const where = relative(root, file);
  checked += 1;
  for (const match of text.matchAll(errorType)) {
    const conformances = match[2].split(",").map((part) => part.trim());
    if (conformances.includes("Error") && !conformances.includes("CustomStringConvertible")) {
      const line = text.slice(0, match.index).split("\n").length;
      problems.push(`${where}:${line}: ${match[1]} is an Error but not CustomStringConvertible, so "\\(error)" prints a debug description`);
    }
  }
  text.split("\n").forEach((line, index) => {
    if (debugText.test(line) && !line.trim().startsWith("//")) {
      problems.push(`${where}:${index + 1}: ${line.trim()} (a debug description where a person reads text)`);
    }
  });
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-error-texts: ${problem}`);
  process.exit(1);
}
console.log(`check-error-texts: ${checked} Swift sources; every Error type describes itself, no debug descriptions`);
