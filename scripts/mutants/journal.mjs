// The sampled run's journal: one JSON line per judged mutant and per passing baseline command,
// appended as the run goes, so a run stopped part-way (a machine needed for something else, a
// session that ends) resumes where it stopped instead of starting again.
//
// A kill carries over to a later run of the same seed when its site still exists unchanged (the
// site key holds the line's text): tests only grow, so a mutant they caught stays caught. A
// survivor or a stillborn mutant is always run again, and a baseline is reused only for the same
// source tree. --fresh ignores the journal.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

/// The journal's entries; a line torn by a kill mid-write is skipped, not fatal.
export function readJournal(file) {
  if (!existsSync(file)) return [];
  const entries = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      // the last line of a run killed while writing it
    }
  }
  return entries;
}

export function appendJournal(file, entry) {
  appendFileSync(file, JSON.stringify(entry) + "\n");
}

/// The kills that carry over, by site key: the latest entry for a key decides.
export function carriedKills(entries) {
  const latest = new Map();
  for (const entry of entries) if (entry.type === "mutant") latest.set(entry.key, entry);
  return new Map([...latest].filter(([, entry]) => entry.outcome === "killed"));
}

/// The seconds a baseline command took on this very source tree, or null when it must run again.
export function recordedBaseline(entries, tree, command) {
  let seconds = null;
  for (const entry of entries) {
    if (entry.type === "baseline" && entry.tree === tree && entry.command === command) seconds = entry.seconds;
  }
  return seconds;
}

/// How long a mutant's test command may run before it counts as a hang: five times its baseline,
/// at least three minutes (a loaded machine must not turn a slow pass into a kill), at most
/// fifteen; fifteen for a command with no baseline.
export const timeoutFloorSeconds = 180;
export const timeoutCeilingSeconds = 900;
export function timeoutFor(baselineSeconds) {
  if (typeof baselineSeconds !== "number") return timeoutCeilingSeconds;
  return Math.min(timeoutCeilingSeconds, Math.max(timeoutFloorSeconds, 5 * baselineSeconds));
}
