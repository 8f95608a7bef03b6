// fixture-runner.mjs: runs a contract set's fixtures through the shim and the fake host, for Node
// (`node --test`), as a web page would produce each message: the action function called with the
// fixture's payload, on a page whose URL carries the fixture's campaign fields; and the event
// fixtures (event-fixtures/) as the app would send each event to a page. Hand-written and
// contract-free like fake-host.js: the generated testing/fixtures.test.mjs passes the kit's
// contract table, createBridge and installFakeHost. Unlike the rest of src/ it is for Node only
// (it reads the fixtures with node:fs), so it is an .mjs file, never loaded by a page.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { differencesFromFixture, replyForFixture, NO_REPLY } from "./fake-host.js";

const SCHEMA_LEVEL_CODES = ["INVALID_MESSAGE", "INVALID_PARAMS", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION"];
const ENVELOPE_MEMBERS = ["v", "id", "action", "version", "payload", "campaign", "sentAt"];

/** The .json files under DIR/folder, sorted by path: {path (relative to DIR), file, parts, fixture}. */
function jsonFilesUnder(contractsDir, folder) {
  const found = [];
  (function walk(current) {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".json")) found.push(full);
    }
  })(path.join(contractsDir, folder));
  return found.map((full) => {
    const relative = path.relative(contractsDir, full).split(path.sep).join("/");
    return { path: relative, file: full, parts: relative.split("/"), fixture: JSON.parse(readFileSync(full, "utf8")) };
  });
}

/** Every fixture under DIR/fixtures, sorted by path: {path, file, action, version, fixture}. */
export function loadFixtures(contractsDir) {
  return jsonFilesUnder(contractsDir, "fixtures").map(({ path: relative, file, parts, fixture }) =>
    ({ path: relative, file, action: parts[1], version: Number(parts[2].slice(1)), fixture }));
}

/**
 * Every event fixture under DIR/event-fixtures (none when a set has no such folder), sorted by
 * path: {path, file, event, version, fixture}; a fixture is {description, message, expect: {valid, errors}}.
 */
export function loadEventFixtures(contractsDir) {
  if (!existsSync(path.join(contractsDir, "event-fixtures"))) return [];
  return jsonFilesUnder(contractsDir, "event-fixtures").map(({ path: relative, file, parts, fixture }) =>
    ({ path: relative, file, event: parts[1], version: Number(parts[2].slice(1)), fixture }));
}

/** The code an invalid fixture expects (INVALID_PARAMS when it does not say). */
/**
 * What the call resolves with for a valid fixture: the reply's result, with the call's request id
 * first when the navigation has not ended (the shim adds it for navigation_completed).
 */
export function expectedResult(fixture, envelope) {
  const result = fixture.expect.reply && fixture.expect.reply.result;
  const unfinished = result && (result.pendingLogin || result.waitingForReady || result.resolving);
  return unfinished && envelope ? Object.assign({ requestId: envelope.id }, result) : result;
}

export function expectedCode(fixture) {
  return fixture.expect.valid ? null : fixture.expect.code || "INVALID_PARAMS";
}

/**
 * Whether the message itself breaks the contract (what `bridgectl validate` decides), as opposed
 * to a message that is fine but refused for where it came from (ORIGIN_REJECTED...).
 */
export function messageShouldValidate(fixture) {
  return fixture.expect.valid || SCHEMA_LEVEL_CODES.indexOf(expectedCode(fixture)) < 0;
}

/** A page URL on `base` carrying campaign fields as a CRM link would (each value encoded once). */
export function pageURLOn(base, campaign, encodeComponent) {
  const items = Object.keys(campaign || {}).map((name) => encodeComponent(name) + "=" + encodeComponent(String(campaign[name])));
  return base + (items.length ? "?" + items.join("&") : "");
}

/** A fake page: the global object the shim and the fake host are installed on. */
export function fakeWindow(href) {
  const opened = [];
  return { opened, location: { href, assign: (url) => opened.push(url) } };
}

/**
 * The fixture runner of one kit. `kit` is {CONTRACT, createBridge, installFakeHost, encodeComponent,
 * buildUniversalLink, validators} (validators: the kit's validators module, for event fixtures)
 * and `pageURLFor(campaign)` the URL of the page a message comes from (default: a page under the
 * contract's webBaseURL).
 */
export function fixtureRunner(kit, pageURLFor) {
  const { CONTRACT, createBridge, installFakeHost } = kit;
  const pageURL = pageURLFor || ((campaign) => pageURLOn(CONTRACT.webBaseURL + "/page", campaign, kit.encodeComponent));

  /** The action function the web team calls for an action and version (e.g. applyV1). */
  function actionFunction(bridge, action, version) {
    const entry = CONTRACT.actions[action];
    return entry ? bridge[entry.method + "V" + version] : undefined;
  }

  /** Why the shim cannot produce this fixture's message from a page, or null when it can (a promise). */
  async function reasonShimCannotBuild(fixture) {
    if (fixture.raw !== undefined) return "a raw body (e.g. duplicate keys) that a JavaScript object cannot hold";
    const message = fixture.message;
    if (message === null || typeof message !== "object" || Array.isArray(message)) return "the message is not an object";
    const extra = Object.keys(message).filter((key) => ENVELOPE_MEMBERS.indexOf(key) < 0);
    if (extra.length) return `envelope members the shim never writes: ${extra.join(", ")}`;
    if (message.v !== CONTRACT.envelope) return `envelope version ${JSON.stringify(message.v)}; the shim always writes ${CONTRACT.envelope}`;
    if (!("payload" in message)) return "no payload; the shim always sends one ({} by default)";
    if (!(message.action in CONTRACT.actions) && expectedCode(fixture) !== "UNKNOWN_ACTION") {
      return `action ${JSON.stringify(message.action)} is not in the contract: the shim refuses it before sending (UNKNOWN_ACTION), the app answers ${expectedCode(fixture)}`;
    }
    if (message.campaign !== undefined) {
      const probe = createBridge({ window: {}, pageURL: pageURL(message.campaign), navigate() {} });
      const kept = probe.campaign;
      const lost = Object.keys(message.campaign).filter((name) => kept[name] !== message.campaign[name]);
      if (lost.length) {
        const warnings = await probe.campaignWarnings();
        const reasons = lost.map((name) => {
          const warning = warnings.find((item) => item.field === name);
          return `${name} (${warning ? warning.reason : "not a campaign field"})`;
        });
        return `campaign fields the shim drops from a page URL: ${reasons.join(", ")}`;
      }
    }
    return null;
  }

  /**
   * Calls the action function for the fixture's action and version (bridge.send for one the
   * contract does not have) with the fixture's payload; the fake host compares what arrives with
   * the fixture and answers as the fixture expects. Returns {envelope, differences, result, error, host, bridge, opened}.
   */
  async function runFixtureThroughShim(fixture, options = {}) {
    const message = fixture.message;
    const win = fakeWindow(pageURL(message.campaign));
    const host = installFakeHost({ window: win, mode: options.mode || "promise" });
    if (!options.defaultReply) host.expectFixture(fixture);
    const bridge = createBridge({ window: win });
    const callOptions = "id" in message ? undefined : { notify: true };
    const typed = actionFunction(bridge, message.action, message.version);
    const call = typed ? typed(message.payload, callOptions) : bridge.send(message.action, message.version, message.payload, callOptions);
    let result;
    let error;
    try {
      result = await call;
    } catch (caught) {
      error = caught;
    }
    await host.flush();
    const envelope = host.messages[0];
    return {
      envelope,
      differences: envelope === undefined ? null : differencesFromFixture(message, envelope),
      result,
      error,
      host,
      bridge,
      opened: win.opened,
    };
  }

  /**
   * What one fixture comes to: [] when the shim and the fake host do what it expects, else the
   * problems, one line each; `skipped` names why the shim cannot build an invalid message.
   */
  async function checkFixture(fixture) {
    const reason = await reasonShimCannotBuild(fixture);
    if (fixture.expect.valid) {
      if (reason !== null) return { problems: [`the shim cannot produce this valid message: ${reason}`] };
      const run = await runFixtureThroughShim(fixture);
      const problems = [];
      if (run.error !== undefined) problems.push(`the call failed: ${run.error.code || ""} ${run.error.message}`);
      if (run.differences && run.differences.length) problems.push(`the envelope differs from the fixture at ${run.differences.join(", ")}`);
      if (!run.envelope) problems.push("the fake host received no message");
      // The link the shim builds for the message is where the app is expected to navigate.
      const { message, expect } = fixture;
      const expectedURL = (expect.reply && expect.reply.result && expect.reply.result.url) || (expect.navigation && expect.navigation.url);
      if (kit.buildUniversalLink && expectedURL && message.action in CONTRACT.actions) {
        const built = await kit.buildUniversalLink(message.action, message.version, message.payload);
        if (built !== expectedURL) problems.push(`the shim's link is ${built}, the fixture expects ${expectedURL}`);
      }
      const expected = replyForFixture(fixture);
      const wanted = expected === NO_REPLY ? undefined : expectedResult(fixture, run.envelope);
      if (run.error === undefined && JSON.stringify(run.result) !== JSON.stringify(wanted)) {
        problems.push(`resolved with ${JSON.stringify(run.result)}, the fixture expects ${JSON.stringify(wanted)}`);
      }
      return { problems };
    }
    if (reason !== null) return { problems: [], skipped: reason };
    const run = await runFixtureThroughShim(fixture);
    const code = run.error && run.error.code;
    return { problems: code === expectedCode(fixture) ? [] : [`expected ${expectedCode(fixture)}, got ${code === undefined ? "a result" : code}`] };
  }

  /**
   * An event fixture through the fake host's emit to a page that validates events (the kit's
   * validators module, else validate: true) and listens to the event: a valid message must reach
   * the handler as written, an invalid one be counted in stats.invalidEvents and never reach it,
   * and the kit's check of it must name the errors the fixture names. Returns {problems}.
   */
  async function checkEventFixture(fixture) {
    const message = fixture.message;
    const members = message !== null && typeof message === "object" ? Object.keys(message) : [];
    if (message === null || typeof message !== "object" || message.v !== 1 || members.some((key) => ["v", "event", "version", "payload"].indexOf(key) < 0)) {
      return { problems: ["the message must be {v: 1, event, version, payload}, as the app sends it (nothing else)"] };
    }
    const win = fakeWindow(pageURL());
    const host = installFakeHost({ window: win });
    const bridge = createBridge({ window: win, validate: kit.validators || true });
    const received = [];
    bridge.on(message.event, (payload, meta) => { received.push({ v: 1, event: meta.event, version: meta.version, payload }); });
    host.emit(message.event, message.version, message.payload);
    await host.flush();
    bridge.dispose();
    host.uninstall();
    const problems = [];
    if (fixture.expect.valid) {
      if (received.length !== 1 || !isDeepStrictEqual(received[0], message)) problems.push(`expected the handler to get the message as written, it got ${JSON.stringify(received)}`);
    } else {
      if (received.length) problems.push(`expected the page to drop it, the handler got ${JSON.stringify(received)}`);
      if (bridge.stats.invalidEvents !== 1) problems.push(`expected stats.invalidEvents 1, got ${bridge.stats.invalidEvents} (unknown ${bridge.stats.unknownEvents}, malformed ${bridge.stats.malformedEvents})`);
      problems.push(...missingEventErrors(fixture));
    }
    return { problems };
  }

  /** The errors an invalid event fixture names that the kit's check of its message does not give. */
  function missingEventErrors(fixture) {
    const check = kit.validators && kit.validators.eventValidators && kit.validators.eventValidators["event:" + fixture.message.event + "@" + fixture.message.version];
    if (typeof check !== "function") return [];
    const errors = check(fixture.message).errors;
    return (fixture.expect.errors || []).filter((wanted) => !errors.some((error) => error.instanceLocation === wanted.instanceLocation
      && (wanted.keyword === undefined || error.keyword === wanted.keyword)))
      .map((wanted) => `the kit's check gives no error at ${JSON.stringify(wanted.instanceLocation)}${wanted.keyword ? ` (keyword ${wanted.keyword})` : ""}: ${JSON.stringify(errors)}`);
  }

  return { actionFunction, reasonShimCannotBuild, runFixtureThroughShim, checkFixture, checkEventFixture };
}

/**
 * Registers one node:test test per fixture and per event fixture of the folder named by
 * BRIDGE_CONTRACTS (relative to the working directory); `test` is node:test's. Without BRIDGE_CONTRACTS, one failing test says
 * how to name it: the runner never passes on nothing.
 */
export function registerFixtureTests(kit, test, environment) {
  const folder = environment.BRIDGE_CONTRACTS;
  if (!folder) {
    test("BRIDGE_CONTRACTS names the contracts folder", () => {
      throw new Error("set BRIDGE_CONTRACTS to the contracts folder whose fixtures to run, e.g. BRIDGE_CONTRACTS=contracts node --test <kit>/testing/");
    });
    return;
  }
  const contractsDir = path.resolve(folder);
  const fixtures = loadFixtures(contractsDir);
  const runner = fixtureRunner(kit);
  test(`${contractsDir} has fixtures, valid and invalid`, () => {
    if (!fixtures.some((entry) => entry.fixture.expect.valid)) throw new Error(`no valid fixture under ${contractsDir}/fixtures`);
    if (!fixtures.some((entry) => !entry.fixture.expect.valid)) throw new Error(`no invalid fixture under ${contractsDir}/fixtures`);
  });
  for (const entry of fixtures) {
    test(entry.path, async (t) => {
      const outcome = await runner.checkFixture(entry.fixture);
      if (outcome.skipped) t.diagnostic(`the shim cannot build it (${outcome.skipped}); bridgectl check runs it on the app's side`);
      if (outcome.problems.length) throw new Error(`${entry.path}: ${outcome.problems.join("; ")}`);
    });
  }
  for (const entry of loadEventFixtures(contractsDir)) {
    test(entry.path, async () => {
      const outcome = await runner.checkEventFixture(entry.fixture);
      if (outcome.problems.length) throw new Error(`${entry.path}: ${outcome.problems.join("; ")}`);
    });
  }
}
