// The scratch copy both mutation runners use: every file git knows or would add, written only when
// it changed (unchanged files keep their times, so the Swift build there stays incremental); files
// git no longer lists are removed, except the build products. Commands run there with a log file.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const kept = new Set([".build", ".git", "node_modules", "mutant-logs", "c-out"]);

export function scratchFolder(name) {
  return process.env.MUTANTS_SCRATCH || path.join(os.tmpdir(), name + "-" + (process.env.USER || os.userInfo().username));
}

export function syncScratch(root, scratch) {
  mkdirSync(path.join(scratch, "mutant-logs"), { recursive: true });
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 1 << 28 })
    .toString("utf8").split("\0").filter((file) => file && existsSync(path.join(root, file)));
  const wanted = new Set(listed);
  let written = 0;
  for (const file of listed) {
    const source = path.join(root, file);
    const target = path.join(scratch, file);
    // A link git keeps (an example target's contracts/) is made again as the same link.
    if (lstatSync(source).isSymbolicLink()) {
      const link = readlinkSync(source);
      let current = null;
      try { current = readlinkSync(target); } catch { current = null; }
      if (current !== link) {
        rmSync(target, { recursive: true, force: true });
        mkdirSync(path.dirname(target), { recursive: true });
        symlinkSync(link, target);
        written += 1;
      }
      continue;
    }
    if (!statSync(source).isFile()) continue;
    const data = readFileSync(source);
    if (existsSync(target) && readFileSync(target).equals(data)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, data, { mode: statSync(source).mode });
    written += 1;
  }
  let removed = 0;
  (function prune(dir) {
    for (const entry of readdirSync(path.join(scratch, dir), { withFileTypes: true })) {
      const relative = dir ? dir + "/" + entry.name : entry.name;
      if (!dir && kept.has(entry.name)) continue;
      if (entry.isDirectory()) prune(relative);
      else if (!wanted.has(relative)) { rmSync(path.join(scratch, relative)); removed += 1; }
    }
  })("");
  return { written, removed, total: listed.length };
}

/// Runs a shell command in the scratch copy, its output to `log`; a command past `timeoutSeconds`
/// is stopped and reported as timed out (for a mutant, a hang is a kill). coreutils' timeout runs
/// it in a process group of its own and signals the whole group, so a test runner that the
/// command started dies with it: an orphan would keep a core busy and hold SwiftPM's lock on
/// .build, and every later build would wait for it.
export function runIn(scratch, command, log, timeoutSeconds = 1800) {
  const started = Date.now();
  const result = spawnSync("timeout", ["--kill-after=10", String(timeoutSeconds),
    "bash", "-o", "pipefail", "-c", "{ " + command + "\n} > " + JSON.stringify(log) + " 2>&1"], {
    cwd: scratch, stdio: "inherit", env: Object.assign({}, process.env, { MUTANTS_SCRATCH: scratch }),
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const timedOut = timedOutStatus(result.status, seconds, timeoutSeconds);
  return { ok: result.status === 0, timedOut, seconds };
}

/// Whether timeout(1) ended the command: 124 after its signal, 137 after the KILL that follows
/// when the signal was ignored; only once the time had passed (a test killed otherwise failed).
export function timedOutStatus(status, seconds, timeoutSeconds) {
  return (status === 124 || status === 137) && seconds >= timeoutSeconds;
}
