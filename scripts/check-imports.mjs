// Fails when a target imports a module of this package that Package.swift does not declare as
// its dependency, declares one it never imports, or imports a module that is neither in the
// package nor in the toolchain.
//
// Why not `swift build --explicit-target-dependency-import-check error`: on Linux (Swift 6.3,
// native build system) it builds a package whose target imports an undeclared module without a
// word, so it cannot stand guard here. This reads the `import` lines of every Swift source instead.
// Usage: node scripts/check-imports.mjs   (exit 1 with one line per problem)
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readPackageAllTraits } from "./package-graph.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// An import may sit under `#if VendoredC`: dependencies of every trait configuration count.
const targets = readPackageAllTraits(root);

/** Modules the toolchain provides (never declared in Package.swift). */
const toolchain = new Set([
  "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "Dispatch", "Synchronization",
  "Testing", "XCTest", "PackagePlugin", "Glibc", "Musl", "Darwin", "WinSDK", "_Concurrency", "_StringProcessing",
  // Apple SDK modules, imported under #if canImport(...) only.
  "CoreFoundation", "WebKit",
]);

/** Modules that must not use Foundation at all: the bottom of the stack stays plain Swift. */
const foundationFree = new Set(["JSONCore"]);

// `import X`, `@testable import X`, `import struct X.Y`, at the start of a line. Text inside
// multi-line string literals (the JavaScript templates) is indented or is not `import <name>`.
const importLine = /^(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)/gm;

const problems = [];
for (const target of targets.values()) {
  if (target.moduleType !== "SwiftTarget" && target.moduleType !== "PluginTarget") continue;
  const imported = new Map();
  for (const source of target.sources.filter((file) => file.endsWith(".swift"))) {
    const text = readFileSync(join(root, target.path, source), "utf8");
    for (const match of text.matchAll(importLine)) {
      if (!imported.has(match[1])) imported.set(match[1], join(target.path, source));
    }
  }
  const declared = new Set(target.dependencies.filter((name) => targets.get(name)?.moduleType !== "PluginTarget"));
  for (const [module, file] of imported) {
    if (targets.has(module)) {
      if (!declared.has(module)) problems.push(`${target.name} imports ${module} (${file}) without declaring it in Package.swift`);
    } else if (!toolchain.has(module)) {
      problems.push(`${target.name} imports ${module} (${file}), which is neither a target of this package nor a toolchain module`);
    }
    if (foundationFree.has(target.name) && module.startsWith("Foundation")) {
      problems.push(`${target.name} imports ${module} (${file}); it stays free of Foundation`);
    }
  }
  for (const dependency of declared) {
    // A plugin's tool (an executable) is run at build time, not imported.
    if (!imported.has(dependency) && targets.get(dependency)?.type !== "executable") {
      problems.push(`${target.name} declares ${dependency} in Package.swift but never imports it`);
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems.sort()) console.error(`check-imports: ${problem}`);
  process.exit(1);
}
const checked = [...targets.values()].filter((target) => target.moduleType === "SwiftTarget").length;
console.log(`check-imports: the ${checked} Swift targets import exactly the modules Package.swift declares for them`);
