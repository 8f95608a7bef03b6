// A small Chrome DevTools Protocol client for tests: starts Debian's headless Chromium with
// --remote-debugging-pipe (messages are JSON, each ended by a NUL byte, on file descriptors 3 and
// 4; no WebSocket, no network port) and drives one page. Node 20 built-ins only.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export class Browser {
  static async launch() {
    const profile = mkdtempSync(path.join(tmpdir(), "bridgekit-chromium-"));
    const flags = [
      "--headless=new", "--disable-gpu", "--remote-debugging-pipe", `--user-data-dir=${profile}`,
      "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--lang=en-US", "about:blank",
    ];
    // Chromium refuses its sandbox to root; CI containers run as root.
    if (typeof process.getuid === "function" && process.getuid() === 0) flags.unshift("--no-sandbox");
    const child = spawn(process.env.CHROMIUM || "chromium", flags, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    const browser = new Browser(child, profile);
    await browser.ready;
    return browser;
  }

  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    this.stderr = "";
    let buffer = Buffer.alloc(0);
    child.stderr.on("data", (chunk) => { this.stderr = (this.stderr + chunk).slice(-4000); });
    child.stdio[4].on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const message = JSON.parse(buffer.subarray(0, end).toString("utf8"));
        buffer = buffer.subarray(end + 1);
        this.dispatch(message);
      }
    });
    this.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    this.exited.then((how) => {
      for (const { reject } of this.pending.values()) reject(new Error(`chromium exited (${how.code ?? how.signal}): ${this.stderr}`));
      this.pending.clear();
    });
    this.ready = new Promise((resolve, reject) => {
      child.on("error", (error) => reject(new Error(`cannot start chromium (scripts/ensure-deps.sh chromium installs it): ${error.message}`)));
      child.on("spawn", resolve);
    });
  }

  dispatch(message) {
    if (message.id !== undefined && this.pending.has(message.id)) {
      const { resolve, reject, method } = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve(message.result);
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.child.stdio[3].write(JSON.stringify(message) + "\0");
    });
  }

  /**
   * A new tab: {session, errors} where errors collects console errors and uncaught exceptions.
   * `mobile` emulates a phone: the page's viewport meta tag applies, as on a device.
   */
  async newPage({ width = 1200, height = 900, mobile = false } = {}) {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId);
    for (const domain of ["Page", "Runtime", "Log"]) await page.send(`${domain}.enable`);
    await page.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile });
    return page;
  }

  async close() {
    try {
      await Promise.race([this.send("Browser.close"), new Promise((resolve) => setTimeout(resolve, 3000))]);
    } catch (error) {
      // Already gone.
    }
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    await this.exited;
    // Chromium's helper processes (crash handler, utility) can outlive the browser by a moment and
    // still write into the profile, so removing it retries instead of failing on ENOTEMPTY.
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch (error) {
      process.stderr.write(`note: could not remove the browser profile ${this.profile}: ${error.message}\n`);
    }
  }
}

class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.errors = [];
    this.loadWaiters = [];
    browser.listeners.push((message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params || {};
      if (message.method === "Runtime.exceptionThrown") {
        const details = params.exceptionDetails || {};
        this.errors.push(`uncaught ${details.exception ? details.exception.description : details.text} at ${details.url}:${details.lineNumber}`);
      } else if (message.method === "Runtime.consoleAPICalled" && (params.type === "error" || params.type === "assert")) {
        this.errors.push(`console.${params.type}: ${params.args.map((arg) => arg.value ?? arg.description).join(" ")}`);
      } else if (message.method === "Log.entryAdded" && params.entry.level === "error") {
        this.errors.push(`${params.entry.source}: ${params.entry.text}${params.entry.url ? " (" + params.entry.url + ")" : ""}`);
      } else if (message.method === "Page.loadEventFired") {
        for (const resolve of this.loadWaiters.splice(0)) resolve();
      }
    });
  }

  send(method, params) {
    return this.browser.send(method, params, this.sessionId);
  }

  async goto(url) {
    const loaded = new Promise((resolve) => this.loadWaiters.push(resolve));
    const result = await this.send("Page.navigate", { url });
    if (result.errorText) throw new Error(`cannot open ${url}: ${result.errorText}`);
    await loaded;
  }

  /** The value of a JS expression in the page (awaited when it is a promise). */
  async evaluate(expression) {
    const result = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (result.exceptionDetails) {
      throw new Error(`in the page: ${result.exceptionDetails.exception ? result.exceptionDetails.exception.description : result.exceptionDetails.text}`);
    }
    return result.result.value;
  }

  /** A PNG of the whole page (not just the window), as a Buffer. */
  async screenshot() {
    const metrics = await this.send("Page.getLayoutMetrics");
    const size = metrics.cssContentSize || metrics.contentSize;
    const shot = await this.send("Page.captureScreenshot", {
      format: "png", captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 },
    });
    return Buffer.from(shot.data, "base64");
  }
}
