// The package graph as SwiftPM describes it (`swift package describe --type json`): targets by
// name, each with its kind, sources and declared dependencies. Shared by check-layers.mjs and
// check-imports.mjs. PACKAGE_DESCRIPTION=file reads a saved description instead of running swift.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The package's build modes: the default traits (SystemC), and VendoredC. */
export const traitConfigurations = [null, "VendoredC"];

/** Targets as resolved for one trait configuration (`null`: the default traits). */
export function readPackage(root, traits = null) {
  const traitArguments = traits ? ["--traits", traits] : [];
  const text = process.env.PACKAGE_DESCRIPTION
    ? readFileSync(process.env.PACKAGE_DESCRIPTION, "utf8")
    : execFileSync(process.env.SWIFT || "swift", ["package", ...traitArguments, "describe", "--type", "json"], {
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

/** Targets with the dependencies of every trait configuration together (conditional ones included). */
export function readPackageAllTraits(root) {
  const merged = readPackage(root);
  for (const traits of traitConfigurations.filter(Boolean)) {
    if (process.env.PACKAGE_DESCRIPTION) break;
    for (const [name, target] of readPackage(root, traits)) {
      const known = merged.get(name);
      if (!known) merged.set(name, target);
      else known.dependencies = [...new Set([...known.dependencies, ...target.dependencies])];
    }
  }
  return merged;
}

/** Targets that end up in the program: plugins run at build time and are never linked. */
export function linkedDependencies(targets, name) {
  return targets.get(name).dependencies.filter((dependency) => targets.get(dependency)?.moduleType !== "PluginTarget");
}

/** Whether a target is C (a C target or a system library such as jansson). */
export function isC(target) {
  return target.moduleType === "ClangTarget" || target.moduleType === "SystemLibraryTarget";
}
