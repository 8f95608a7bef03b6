// Fails, naming the path, when the deep link stack reaches C or a layer above it.
//
// The deep link stack (JSONCore -> DeeplinkRouting -> DeeplinkNavigation) is the app's shared
// layer for push, KakaoTalk and external links: it must build without the JSON Schema checker,
// jansson or PCRE2. So, in the linked dependency graph of Package.swift (plugins excluded: they
// run at build time only):
//   1. none of those targets, nor the routing-only example or FunnelMetrics (operations' funnel,
//      pure Swift over routes.json), reaches a C target or system library;
//   2. each depends only on the layers below it (the Package.swift header; docs/app-integration.md,
//      "The layers");
//   3. TestSupport is depended on by test targets only;
//   4. the test double BridgeHostTesting (MockBridgeHost, and HostSession, the JSON-lines host
//      protocol over it) by no library but BridgeCLI, bridgectl's commands: a library an app links
//      would carry the mock into the app (ContractCatalog takes what it needs through a protocol
//      instead). Tests and executables may use it: a tool that speaks the protocol (a bench or a
//      fuzz driver) shares HostSession with bridgectl, as packages outside do through the
//      BridgeHostTesting product (fuzz/swift's FuzzHost);
//   5. HostConformance (bridgectl verify's cases) reaches neither BridgeHost nor BridgeHostTesting:
//      it judges hosts over the protocol, the Swift one included.
// Usage: node scripts/check-layers.mjs   (from anywhere; exit 1 with one line per problem)
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isC, linkedDependencies, readPackageAllTraits } from "./package-graph.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Both build modes (SystemC, VendoredC) at once: a conditional dependency counts.
const targets = readPackageAllTraits(root);

/** The pure-Swift stack, each with the only targets it may depend on directly. */
const pureStack = {
  JSONCore: [],
  DeeplinkRouting: ["JSONCore"],
  DeeplinkNavigation: ["DeeplinkRouting", "JSONCore"],
  RoutingOnly: ["DeeplinkRouting", "DeeplinkNavigation"],
  // Operations' funnel over recorded events: reads routes.json to name screens, nothing else.
  FunnelMetrics: ["DeeplinkRouting", "JSONCore"],
};

const problems = [];

/** Shortest paths from `start` to every target it reaches, as lists of names. */
function pathsFrom(start) {
  const paths = new Map([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of linkedDependencies(targets, current)) {
      if (!paths.has(next)) {
        paths.set(next, [...paths.get(current), next]);
        queue.push(next);
      }
    }
  }
  return paths;
}

for (const [name, allowed] of Object.entries(pureStack)) {
  if (!targets.has(name)) {
    problems.push(`${name} is not a target of the package (update scripts/check-layers.mjs if it was renamed)`);
    continue;
  }
  for (const dependency of linkedDependencies(targets, name)) {
    if (!allowed.includes(dependency)) {
      problems.push(`${name} depends on ${dependency}, which is not below it (allowed: ${allowed.join(", ") || "nothing"})`);
    }
  }
  for (const [reached, path] of pathsFrom(name)) {
    const target = targets.get(reached);
    if (target && isC(target)) {
      const kind = target.moduleType === "SystemLibraryTarget" ? "system library" : "C target";
      problems.push(`${name} reaches ${kind} ${reached}: ${path.join(" -> ")}`);
    }
  }
}

for (const target of targets.values()) {
  if (target.type !== "test" && target.dependencies.includes("TestSupport")) {
    problems.push(`${target.name} depends on TestSupport, which is for test targets only`);
  }
}

/** The one library that may use the mock host: bridgectl's commands. Tests and tools may too. */
const testDoubleUsers = ["BridgeCLI"];
for (const target of targets.values()) {
  const mayUse = target.type === "test" || target.type === "executable" || testDoubleUsers.includes(target.name);
  if (!mayUse && target.dependencies.includes("BridgeHostTesting")) {
    problems.push(`${target.name} depends on BridgeHostTesting, a test double (allowed: ${testDoubleUsers.join(", ")}, executables and tests)`);
  }
}

// The conformance cases judge any host over the protocol: they may not reach the Swift host they
// would then be judging by its own code.
if (targets.has("HostConformance")) {
  for (const [reached, path] of pathsFrom("HostConformance")) {
    if (reached === "BridgeHost" || reached === "BridgeHostTesting") {
      problems.push(`HostConformance reaches ${reached}, the host it judges: ${path.join(" -> ")}`);
    }
  }
} else {
  problems.push("HostConformance is not a target of the package (update scripts/check-layers.mjs if it was renamed)");
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-layers: ${problem}`);
  process.exit(1);
}
console.log(`check-layers: ${Object.keys(pureStack).join(", ")} reach no C target; each depends only on the layers below it`);
