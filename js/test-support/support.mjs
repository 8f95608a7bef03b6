// Helpers shared by the Node tests in js/test/ (kept outside test/ so `node --test js/test/`
// does not run this file as a test of its own). Node 20 built-ins only.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONTRACT, encodeComponent } from "../bridge.js";
import { fakeWindow as fakeWindowAt, loadFixtures as loadFixturesOf } from "../src/fixture-runner.mjs";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const contractsDir = path.join(repoRoot, "contracts");

/** Every fixture under contracts/fixtures, sorted by path: {path, file, action, version, fixture}. */
export function loadFixtures() {
  return loadFixturesOf(contractsDir);
}

/** A page URL carrying campaign fields as a CRM link would (each value encoded once). */
export function pageURLFor(campaign) {
  const items = Object.keys(campaign || {}).map((name) => encodeComponent(name) + "=" + encodeComponent(String(campaign[name])));
  return "https://event.sendy.co.kr/event/page?lang=ko" + (items.length ? "&" + items.join("&") : "");
}

/** A fake page: the global object the shim and the fake host are installed on. */
export function fakeWindow(href) {
  return fakeWindowAt(href || "https://event.sendy.co.kr/event/page");
}

/** Timers a test advances by hand, so timeouts are tested without waiting. */
export function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map();
  return {
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, ms, callback });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    /** The delays of the timers still waiting. */
    pendingDelays() {
      return [...timers.values()].map((timer) => timer.ms);
    },
    advance(ms) {
      now += ms;
      const due = [...timers.entries()].filter(([, timer]) => timer.at <= now).sort((a, b) => a[1].at - b[1].at);
      for (const [id, timer] of due) {
        timers.delete(id);
        timer.callback();
      }
    },
  };
}

/** Waits until every already-queued promise reaction and zero-delay timer has run. */
export function settleQueue() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to be rejected");
}

/** The action function the web team calls for an action and version (e.g. applyV1). */
export function actionFunction(bridge, action, version) {
  const entry = CONTRACT.actions[action];
  return entry ? bridge[entry.method + "V" + version] : undefined;
}

/** Path of the bridgectl binary: $BRIDGECTL, else .build/debug/bridgectl. Throws (never skips) when absent. */
export function bridgectlPath() {
  const candidate = process.env.BRIDGECTL || path.join(repoRoot, ".build", "debug", "bridgectl");
  if (!existsSync(candidate)) {
    throw new Error(
      `bridgectl not found at ${candidate}. The Swift cross-checks need it: build it with \`swift build\` ` +
        "(or `make build`) and/or set BRIDGECTL=/path/to/bridgectl. These tests fail rather than skip without it."
    );
  }
  return candidate;
}

/** Runs bridgectl with arguments (and optional standard input); returns {status, stdout, stderr}. */
export function bridgectl(args, input) {
  const result = spawnSync(bridgectlPath(), args, { input, encoding: "utf8", cwd: repoRoot, timeout: 60000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
