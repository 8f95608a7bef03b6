// The package graph as SwiftPM describes it (`swift package describe --type json`): targets by
// name, each with its kind, sources and declared dependencies. Shared by check-layers.mjs and
// check-imports.mjs. PACKAGE_DESCRIPTION=file reads a saved description instead of running swift.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export function readPackage(root) {
  const text = process.env.PACKAGE_DESCRIPTION
    ? readFileSync(process.env.PACKAGE_DESCRIPTION, "utf8")
    : execFileSync(process.env.SWIFT || "swift", ["package", "describe", "--type", "json"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
  const description = JSON.parse(text);
  const targets = new Map();
  for (const target of description.targets) {
    targets.set(target.name, {
      name: target.name,
      // SwiftTarget, ClangTarget, SystemLibraryTarget, PluginTarget, BinaryTarget
      moduleType: target.module_type,
      // library, executable, test, system-target, plugin, ...
      type: target.type,
      path: target.path,
      sources: target.sources || [],
      dependencies: target.target_dependencies || [],
      products: target.product_dependencies || [],
    });
  }
  return targets;
}

/** Targets that end up in the program: plugins run at build time and are never linked. */
export function linkedDependencies(targets, name) {
  return targets.get(name).dependencies.filter((dependency) => targets.get(dependency)?.moduleType !== "PluginTarget");
}

/** Whether a target is C (a C target or a system library such as jansson). */
export function isC(target) {
  return target.moduleType === "ClangTarget" || target.moduleType === "SystemLibraryTarget";
}
