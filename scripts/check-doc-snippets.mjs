// Fails when a code block of the docs that says it is compiled differs from the file it names.
// A block is marked by the line `<!-- compiled: PATH -->` right before its opening fence; its body
// must equal the file PATH (relative to the repository) byte for byte, so the example the reader
// copies is the code `swift build` compiles (Examples/AppIntegration).
// Usage: node scripts/check-doc-snippets.mjs   (exit 1 with one line per difference)
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const documents = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => join("docs", name))];
const marker = /^<!--\s*compiled:\s*(\S+)\s*-->\s*$/;

const problems = [];
let checked = 0;
for (const document of documents) {
  const lines = readFileSync(join(root, document), "utf8").split("\n");
  lines.forEach((line, index) => {
    const match = marker.exec(line);
    if (!match) return;
    const fence = /^(`{3,})\w*\s*$/.exec(lines[index + 1] || "");
    if (!fence) {
      problems.push(`${document}:${index + 1}: the compiled marker is not followed by a code block`);
      return;
    }
    const end = lines.findIndex((candidate, at) => at > index + 1 && candidate.trim() === fence[1]);
    if (end < 0) {
      problems.push(`${document}:${index + 2}: the code block never closes`);
      return;
    }
    const block = lines.slice(index + 2, end).join("\n") + "\n";
    const path = join(root, match[1]);
    if (!existsSync(path)) {
      problems.push(`${document}:${index + 1}: ${match[1]} does not exist`);
      return;
    }
    const file = readFileSync(path, "utf8");
    checked += 1;
    if (block !== file) {
      const blockLines = block.split("\n");
      const fileLines = file.split("\n");
      const first = blockLines.findIndex((text, at) => text !== fileLines[at]);
      problems.push(`${document}:${index + 3 + first}: the code block differs from ${match[1]}:${first + 1}` +
        ` (doc: ${JSON.stringify(blockLines[first])}, file: ${JSON.stringify(fileLines[first])})`);
    }
  });
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`check-doc-snippets: ${problem}`);
  process.exit(1);
}
if (checked === 0) {
  console.error("check-doc-snippets: no block is marked <!-- compiled: PATH --> (expected the app-integration example)");
  process.exit(1);
}
console.log(`check-doc-snippets: ${checked} code block(s) of the docs equal the files they name, which the build compiles`);
