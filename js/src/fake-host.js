// fake-host.js: a fake native host for the web team's tests, hand-written and contract-free like
// bridge-runtime.js: each function takes the contract table (the generated testing/fake-host.js
// passes the one of bridge.js).
import { BridgeError } from "./errors.js";
import { buildUniversalLinkFor } from "./links.js";
import { errorForVerdict } from "./validation.js";
import { loneSurrogateRefusal } from "./surrogates.js";
import { rawRequestId } from "./raw-request-id.js";

/** Returned by a responder for "no reply at all" (a host that stays silent: the call times out). */
export const NO_REPLY = Object.freeze({ noReply: true });

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function sameJSON(left, right) {
  return JSON.stringify(sortedCopy(left)) === JSON.stringify(sortedCopy(right));
}

function sortedCopy(value) {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === "object") {
    const copy = {};
    Object.keys(value).sort().forEach(function (key) { copy[key] = sortedCopy(value[key]); });
    return copy;
  }
  return value;
}

/**
 * Where a posted envelope differs from a fixture's message, as JSON Pointers. `id` and `sentAt`
 * are chosen by the shim at run time, so only their presence is compared, not their values. A
 * fixture without `sentAt` accepts the shim's stamp: the envelope never requires one, and the
 * shim always writes it.
 */
export function differencesFromFixture(expected, actual) {
  const found = [];
  function walk(left, right, pointer, topLevel) {
    const bothObjects = left !== null && right !== null && typeof left === "object" && typeof right === "object"
      && Array.isArray(left) === Array.isArray(right);
    if (!bothObjects) {
      if (!sameJSON(left, right)) found.push(pointer);
      return;
    }
    const keys = Object.keys(left).concat(Object.keys(right).filter(function (key) { return !(key in left); }));
    keys.forEach(function (key) {
      const child = pointer + "/" + String(key).replace(/~/g, "~0").replace(/\//g, "~1");
      if (topLevel && key === "sentAt" && !(key in left)) return;
      if (!(key in left) || !(key in right)) found.push(child);
      else if (!(topLevel && (key === "id" || key === "sentAt"))) walk(left[key], right[key], child, false);
    });
  }
  walk(expected, actual, "", true);
  return found;
}

/** The reply a fixture's `expect` describes (reply fields without v and id), or NO_REPLY. */
export function replyForFixture(fixture) {
  const expect = fixture.expect;
  if (expect.valid) {
    if (expect.reply === null) return NO_REPLY;
    if (expect.reply && expect.reply.result) return { ok: true, result: clone(expect.reply.result) };
    const navigation = expect.navigation || {};
    return { ok: true, result: { route: navigation.route, url: navigation.url, pendingLogin: navigation.pendingLogin === true } };
  }
  return {
    ok: false,
    error: {
      code: expect.code || "INVALID_PARAMS",
      message: fixture.description,
      details: (expect.errors || []).map(function (item) {
        return { instanceLocation: item.instanceLocation, keyword: item.keyword, error: "expected by the fixture" };
      })
    }
  };
}

/** The capability manifest of a host that supports every action and version of the contract. */
export function fullCapabilitiesFor(contract, app) {
  const actions = {};
  Object.keys(contract.actions).forEach(function (action) {
    actions[action] = Object.keys(contract.actions[action].versions).map(Number);
  });
  const manifest = { bridge: contract.bridge, envelope: contract.envelope };
  if (app) manifest.app = app;
  manifest.actions = actions;
  return manifest;
}

/**
 * The capability manifest of an app build of releases.json ("ios@5.12.0"), as the Swift host
 * gives it (HostCapabilities): its platform and version, and the action versions it takes in
 * the contract's order. Throws for a build that is not recorded.
 */
export function releaseCapabilitiesFor(contract, releases, reference) {
  const build = (releases || []).filter(function (release) { return release.platform + "@" + release.version === reference; })[0];
  if (!build) {
    throw new Error("fake host: release " + JSON.stringify(reference) + " is not in releases.json (releases: "
      + (releases || []).map(function (release) { return release.platform + "@" + release.version; }).join(", ") + ")");
  }
  const actions = {};
  Object.keys(contract.actions).forEach(function (action) {
    const versions = Object.prototype.hasOwnProperty.call(build.actions, action) ? build.actions[action] : [];
    if (versions.length > 0) actions[action] = versions.slice().sort(function (a, b) { return a - b; });
  });
  return { bridge: contract.bridge, envelope: contract.envelope, app: { platform: build.platform, version: build.version }, actions: actions };
}

/** A usage file's text: the page, then its calls one a line (each action with the versions it can send). */
function usageText(usage) {
  const calls = usage.calls.map(function (call) {
    return "    {\"action\": " + JSON.stringify(call.action) + ", \"versions\": [" + call.versions.join(", ") + "]}";
  });
  return "{\n  \"page\": " + JSON.stringify(usage.page) + ",\n  \"calls\": [" + (calls.length ? "\n" + calls.join(",\n") + "\n  " : "") + "]\n}\n";
}

/** "event/new-user-promo" for a page at https://www.example.com/event/new-user-promo; "" when unknown. */
function pathOf(win) {
  try {
    return new URL(win.location.href).pathname.replace(/^\/+|\/+$/g, "");
  } catch (error) {
    return "";
  }
}

/**
 * A fake native host of the contract, not yet installed: host.install(window) puts it on a page
 * (default options.window, else globalThis) and returns it. installFakeHostFor does both.
 *
 * options.mode: "promise" (default; WKWebView/WebKitGTK with reply: postMessage returns a
 * promise of the reply), "callback" (WebKit without reply: the host calls
 * window.<bridge>Receive(json)), "androidListener" (addWebMessageListener: window.<bridge> with
 * postMessage/onmessage), "androidInterface" (JavascriptInterface: window.<bridge>Android.postMessage
 * with replies through window.<bridge>Receive).
 * options.release: act as that app build of releases.json ("ios@5.12.0"): its capability manifest,
 * and exactly its action versions (options.releases, the table testing/fake-host.js passes).
 * options.capabilities: the capability manifest instead; null: an app that predates manifests
 * (injects none, answers the capabilities request UNKNOWN_ACTION); default: every version.
 * options.inject: false: no manifest at document start; the page must ask (the handshake).
 * options.page: the page's name in the usage file (default: the window's path).
 * options.replyAsString: in promise mode, resolve with JSON text instead of an object.
 * options.installed: the apps installed on the simulated device, by URL scheme (["mapsapp"]), as
 * `bridgectl host --installed`: a destination outside the app (open_directions) opens its app when
 * installed, else its fallback; host.setInstalled(list) changes them.
 * host.emit(name, version, payload) sends the page an event ({v: 1, event, version, payload}) on
 * the mode's channel, as the app does; the host itself sends navigation_completed when a
 * destination whose reply said pendingLogin or waitingForReady ends (completeLogin, ready, logout).
 * options.validators: the contract's validators module (testing/fake-host.js passes it): every
 * message is checked first, as the app checks it, and one the app would reject gets the app's
 * error reply whatever else the test queued. options.validate: false turns that off.
 */
export function createFakeHostFor(contract, options) {
  const settings = options || {};
  let win = settings.window || globalThis;
  const mode = settings.mode || "promise";
  const modes = ["promise", "callback", "androidListener", "androidInterface"];
  if (modes.indexOf(mode) < 0) throw new Error("fake host: mode must be one of " + modes.join(", "));
  const capabilities = settings.release !== undefined ? releaseCapabilitiesFor(contract, settings.releases, settings.release)
    : settings.capabilities === undefined ? fullCapabilitiesFor(contract) : settings.capabilities;
  const validators = settings.validate === false ? null : settings.validators || null;
  const examples = settings.exampleResults || {};
  const calls = [];

  const queue = [];
  let responder = null;
  // The app's states: who is logged in, a cold start, a slow app, the duplicate-tap window.
  let loggedIn = settings.loggedIn !== false;
  let ready = settings.coldStart !== true;
  const delayMs = settings.delayMs || 0;
  const setTimer = settings.setTimeout || setTimeout;
  const clock = settings.now || Date.now;
  // testing/fake-host.js passes the manifest's limits.duplicateWindowMs; 2000 is the manifest's default.
  const duplicateWindowMs = typeof settings.duplicateWindowMs === "number" ? settings.duplicateWindowMs : 2000;
  const recentTaps = [];
  const waiting = [];
  let installedApps = (settings.installed || []).slice();
  const held = [];
  const host = {
    mode: mode,
    /** Every message received, parsed, in arrival order (null for text the app could not read). */
    messages: [],
    /**
     * What the app did with each destination it accepted, in order: {route, url, outcome}, outcome
     * "navigated", or "cancelled" (logged out before login completed).
     */
    navigations: [],
    /** Every event sent to the page, in order: {v, event, version, payload}. */
    events: [],
    /**
     * Sends the page an event on the mode's channel (window.<bridge>Receive, or the Android
     * listener's message event), now; the bridge's handlers run asynchronously (await flush()).
     */
    emit: function (name, version, payload) {
      const message = { v: 1, event: name, version: version, payload: payload === undefined ? {} : payload };
      host.events.push(message);
      toPage(message);
      return host;
    },
    /** Logs in: every destination waiting for login navigates. */
    completeLogin: function () {
      loggedIn = true;
      waiting.forEach(function (item) { item.login = false; });
      release(function (item) { return !item.ready; }, "navigated");
      return host;
    },
    /** Logs out: every destination waiting for login is cancelled, as the app cancels it. */
    logout: function () {
      loggedIn = false;
      release(function (item) { return item.login; }, "cancelled", "cancelled_by_logout");
      return host;
    },
    /** The cold start ends: every destination waiting for the app to be ready navigates (unless it waits for login). */
    ready: function () {
      ready = true;
      waiting.forEach(function (item) { item.ready = false; });
      release(function (item) { return !item.login; }, "navigated");
      return host;
    },
    /** Every reply sent or held: {id, reply, delivered}. */
    replies: [],
    /** Fixture comparisons that failed: {fixture, differences}. */
    mismatches: [],
    /** Messages the validators rejected, as the app would: {message, code, errors}. */
    rejected: [],
    /** The capability manifest this host gives the page (null: none, an app that predates it). */
    capabilities: capabilities,
    /** Every distinct call the page made: {action, versions} (the versions it can send, highest first). */
    calls: calls,
    /** The page-usage file's content: {page, calls}, for bridgectl can-i-deploy. */
    usage: function (usageOptions) {
      return { page: (usageOptions && usageOptions.page) || settings.page || pathOf(win) || "page", calls: clone(calls) };
    },
    /**
     * Writes the usage file (node only; in a browser runner send host.usage() to your runner).
     * { merge: true } adds this host's calls to those already in the file. Resolves with the usage.
     */
    writeUsage: function (path, usageOptions) {
      const usage = host.usage(usageOptions);
      return import("node:fs").then(function (fs) {
        if (usageOptions && usageOptions.merge && fs.existsSync(path)) {
          const before = JSON.parse(fs.readFileSync(path, "utf8"));
          usage.calls = before.calls.concat(usage.calls.filter(function (call) {
            return !before.calls.some(function (other) { return sameJSON(other, call); });
          }));
        }
        // A temporary file next to it, then a rename: a reader never sees half a file.
        fs.writeFileSync(path + ".tmp", usageText(usage));
        fs.renameSync(path + ".tmp", path);
        return usage;
      });
    },
    /** Puts the host on a page (its globals); returns the host. */
    install: install,
    /** Answers every request not covered by a queued behaviour; return NO_REPLY for silence. */
    respondWith: function (fn) { responder = fn; return host; },
    /** The next request gets this reply (fields without v and id, e.g. {ok: true, result}). */
    replyNext: function (reply) { queue.push(function () { return reply; }); return host; },
    /** The next request fails with this BridgeError code. */
    failNext: function (code, message, details) {
      return host.replyNext({ ok: false, error: { code: code, message: message || code, details: details || [] } });
    },
    /** The next request gets no reply: the shim times it out. */
    dropNext: function () { queue.push(function () { return NO_REPLY; }); return host; },
    /** The next request's reply is held back until releaseHeld(): a late reply. */
    holdNext: function (reply) {
      queue.push(function (envelope) { return { hold: reply || defaultReply(envelope) }; });
      return host;
    },
    /**
     * The next message is compared with fixture.message (id and sentAt by presence only; a
     * fixture without sentAt accepts the shim's) and answered as fixture.expect says. A differing
     * message is recorded in mismatches and answered with an INTERNAL error naming the differing
     * JSON Pointers.
     */
    expectFixture: function (fixture) {
      if (!fixture || !fixture.message) throw new Error("fake host: the fixture has no message (a raw body cannot be produced by the shim)");
      queue.push(function (envelope) {
        const differences = differencesFromFixture(fixture.message, envelope);
        if (differences.length > 0) {
          host.mismatches.push({ fixture: fixture.description, differences: differences });
          return {
            ok: false,
            error: {
              code: "INTERNAL",
              message: "fake host: the message differs from the fixture at " + differences.join(", "),
              details: differences.map(function (pointer) { return { instanceLocation: pointer, error: "differs from the fixture" }; })
            }
          };
        }
        return replyForFixture(fixture);
      });
      return host;
    },
    /** Delivers every held reply now (after the shim timed out, they count as late replies). */
    releaseHeld: function () {
      const count = held.length;
      held.splice(0).forEach(function (item) { item.entry.delivered = true; item.deliver(item.reply); });
      return count;
    },
    /**
     * Resolves once every reply scheduled so far has been delivered, and every event sent so far
     * has reached the handlers (the shim loads its events module on first use; this waits for it).
     */
    flush: function () {
      return import("./events.js").then(function () { return new Promise(function (resolve) { setTimeout(resolve, 0); }); });
    },
    /** The apps installed on the simulated device, by URL scheme. */
    setInstalled: function (schemes) { installedApps = schemes.slice(); return host; },
    defaultReply: defaultReply,
    uninstall: uninstall
  };

  // What an app that knows the contract answers to a message it accepts: the destination, a custom
  // action's example result, or the error for an action or version it does not support.
  function defaultReply(envelope) {
    const ownMember = function (table, key) { return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined; };
    if (envelope.action === "capabilities" && capabilities !== null) {
      // The built-in request, answered as the Swift host answers it.
      if (envelope.version !== 1) return unsupported("capabilities", envelope.version, [1]);
      return { ok: true, result: clone(capabilities) };
    }
    const action = ownMember(contract.actions, envelope.action);
    if (!action) return { ok: false, error: { code: "UNKNOWN_ACTION", message: "unknown action " + envelope.action, details: [] } };
    const supported = capabilities && capabilities.actions ? ownMember(capabilities.actions, envelope.action) || [] : Object.keys(action.versions).map(Number);
    if (supported.length === 0) {
      return { ok: false, error: { code: "UNKNOWN_ACTION", message: "this app build does not have " + envelope.action, details: [] } };
    }
    if (!ownMember(action.versions, envelope.version) || supported.indexOf(envelope.version) < 0) {
      return unsupported(envelope.action, envelope.version, supported);
    }
    const version = action.versions[envelope.version];
    if (version.handler === "custom") {
      // App code answers: the contract's example result, unless a test stubs it (replyNext, respondWith).
      const example = ownMember(examples, envelope.action) && ownMember(examples[envelope.action], envelope.version);
      if (example === undefined) {
        return { ok: false, error: { code: "INTERNAL", message: "fake host: no example result for " + envelope.action + " v" + envelope.version
          + " (its result schema's examples); stub one with replyNext({ ok: true, result })", details: [] } };
      }
      return { ok: true, result: clone(example) };
    }
    try {
      const url = buildUniversalLinkFor(contract, envelope.action, envelope.version, envelope.payload);
      if (version.external) return externalReply(version, url, envelope.payload);
      return { ok: true, result: { route: version.route, url: url, pendingLogin: false } };
    } catch (error) {
      if (error instanceof BridgeError) return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
      throw error;
    }
  }

  // A destination outside the app, as the app's router decides it: the provider's app when
  // installed, else its fallback, else NAVIGATION_FAILED fallback_unavailable.
  function externalReply(version, url, payload) {
    const field = version.query.filter(function (entry) { return entry[0] === version.external.providerField; })[0];
    let provider = null;
    if (field) {
      let value = payload;
      field[1].split("/").slice(2).forEach(function (token) { value = value === null || value === undefined ? undefined : value[token]; });
      provider = value;
    }
    const entry = Object.prototype.hasOwnProperty.call(version.external.providers, provider) ? version.external.providers[provider] : null;
    if (!entry) return { ok: false, error: { code: "NAVIGATION_FAILED", message: "no provider " + provider, details: [{ reason: "scheme_creation_failed", route: version.route, provider: String(provider) }] } };
    const opened = installedApps.indexOf(entry.app) >= 0 ? "app" : entry.fallback ? "fallback" : null;
    if (opened === null) return { ok: false, error: { code: "NAVIGATION_FAILED", message: provider + " is not installed and has no fallback", details: [{ reason: "fallback_unavailable", route: version.route, step: "openExternal", provider: provider }] } };
    return { ok: true, result: { route: version.route, url: url, pendingLogin: false, opened: opened, provider: provider } };
  }

  function unsupported(action, version, supported) {
    return { ok: false, error: { code: "UNSUPPORTED_VERSION", message: action + " has no version " + version + " here (supported versions: " + supported.join(", ") + ")",
      details: [{ action: action, supportedVersions: supported.slice() }] } };
  }

  // What the app makes of a posted body: the message, or (problem) why it cannot read it. Text is
  // read as the app reads it; WebKit's object body as its JSON text. JavaScript's JSON.parse takes
  // lone surrogate escapes, which the app's parser refuses: those are refused here too.
  function readBody(body) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    try {
      const message = JSON.parse(text);
      const lone = loneSurrogateRefusal(message);
      if (lone === null) return { message: message, problem: null };
      return { message: null, text: text, problem: "the message is not valid JSON: " + lone.details[0].instanceLocation
        + " has a lone \\u surrogate escape (a lone UTF-16 surrogate, which has no UTF-8 form: was a string cut inside an emoji?)" };
    } catch (error) {
      return { message: null, text: text, problem: "the message is not valid JSON: " + (error && error.message) };
    }
  }

  // An INVALID_MESSAGE reply, with the request id the app can still read (or null), delivered as a reply is.
  function refuseUnread(id, message, deliver) {
    const rejection = { v: 1, id: id, ok: false, error: { code: "INVALID_MESSAGE", message: "fake host: " + message, details: [] } };
    host.replies.push({ id: id, reply: rejection, delivered: true });
    Promise.resolve().then(function () { deliver(rejection); });
  }

  function answer(body, deliver) {
    const read = readBody(body);
    const envelope = read.message;
    host.messages.push(envelope);
    // Text the app cannot read: INVALID_MESSAGE, echoing the id its raw text shows (as the app does).
    if (read.problem !== null) return refuseUnread(rawRequestId(read.text), read.problem, deliver);
    // JSON, but no object: the envelope schema refuses it, and no id can be read.
    if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope)) return refuseUnread(null, "the body is not a JSON object", deliver);
    // A queued behaviour belongs to this message even when the app would reject it first.
    const behaviour = queue.length > 0 ? queue.shift() : responder;
    const builtIn = envelope.action === "capabilities";
    const verdict = validators === null || builtIn ? null : validators.validate(envelope);
    let outcome;
    if (verdict !== null && !verdict.valid) {
      host.rejected.push({ message: envelope, code: verdict.code, errors: verdict.errors });
      outcome = { ok: false, error: errorForVerdict(verdict, envelope.action, envelope.version) };
    } else {
      outcome = behaviour ? behaviour(envelope) : undefined;
    }
    if (outcome === undefined) outcome = defaultReply(envelope);
    if (outcome && outcome.ok === true && outcome.result && typeof outcome.result.route === "string" && !outcome.result.fallback) {
      outcome = navigationOutcome(envelope, outcome);
    }
    if (typeof envelope.id !== "string" || outcome === NO_REPLY) return;
    const hold = outcome && outcome.hold !== undefined;
    const reply = Object.assign({ v: 1, id: envelope.id }, hold ? outcome.hold : outcome);
    const entry = { id: envelope.id, reply: reply, delivered: !hold };
    host.replies.push(entry);
    if (hold) held.push({ entry: entry, reply: reply, deliver: deliver });
    else if (delayMs > 0) setTimer(function () { deliver(reply); }, delayMs);
    else Promise.resolve().then(function () { deliver(reply); });
  }

  // What the app does with a destination it accepted, as the Swift host's navigator does: a second
  // identical tap inside duplicateWindowMs is DUPLICATE; logged out it waits for login
  // (pendingLogin: true); in a cold start it waits for ready() (waitingForReady: true); else it navigates.
  function navigationOutcome(envelope, outcome) {
    const key = JSON.stringify([envelope.action, envelope.version, sortedCopy(envelope.payload)]);
    const at = clock();
    while (recentTaps.length > 0 && at - recentTaps[0].at >= duplicateWindowMs) recentTaps.shift();
    if (recentTaps.some(function (tap) { return tap.key === key; })) {
      return { ok: false, error: { code: "DUPLICATE", message: envelope.action + " was tapped again within " + duplicateWindowMs + " ms", details: [] } };
    }
    recentTaps.push({ key: key, at: at });
    const result = Object.assign({}, outcome.result, { pendingLogin: outcome.result.pendingLogin === true || !loggedIn });
    if (!ready) result.waitingForReady = true;
    const item = { requestId: envelope.id, route: result.route, url: result.url, login: !loggedIn, ready: !ready };
    if (item.login || item.ready) waiting.push(item);
    else notify(item, "navigated");
    return { ok: true, result: result };
  }

  // The destinations waiting that `which` picks end with `outcome`; each that a request started
  // (a notification has no id, and no reply to follow) is told to the page with navigation_completed,
  // whose outcome is the audit log's name (eventOutcome, when it differs from host.navigations').
  function release(which, outcome, eventOutcome) {
    waiting.filter(which).forEach(function (item) {
      waiting.splice(waiting.indexOf(item), 1);
      notify(item, outcome);
      if (typeof item.requestId === "string") {
        host.emit("navigation_completed", 1, { requestId: item.requestId, route: item.route, outcome: eventOutcome || outcome });
      }
    });
  }

  // The app's navigation outcome, in host.navigations.
  function notify(item, outcome) {
    host.navigations.push({ route: item.route, url: item.url, outcome: outcome });
  }

  function callReceive(reply) {
    const receive = win[contract.receiveFunction];
    if (typeof receive === "function") receive(JSON.stringify(reply));
  }

  // How the app sends the page a message of its own (an event): the receive function, as WebKit's
  // evaluateJavaScript and Android's JavascriptInterface host do; the listener's message event for
  // addWebMessageListener (install sets it).
  let toPage = callReceive;

  const installed = [];
  function put(target, key, value) {
    installed.push({ target: target, key: key, had: Object.prototype.hasOwnProperty.call(target, key), previous: target[key] });
    target[key] = value;
  }

  function record(action, versions) {
    // recordUsage: false keeps a negative test (an old build refusing a version) out of the usage file.
    if (settings.recordUsage === false) return;
    const call = { action: action, versions: versions.slice().sort(function (a, b) { return b - a; }) };
    if (!calls.some(function (other) { return sameJSON(other, call); })) calls.push(call);
  }

  function install(target) {
    if (target) win = target;
    if (installed.length > 0) throw new Error("fake host: already installed; uninstall() first");
    if (mode === "promise" || mode === "callback") {
      const handler = {
        postMessage: function (body) {
          // WebKit hands the native side a copy of the posted value (readBody reads it as JSON text).
          if (mode === "callback") {
            answer(body, callReceive);
            return undefined;
          }
          return new Promise(function (resolve) {
            answer(body, function (reply) { resolve(settings.replyAsString ? JSON.stringify(reply) : reply); });
          });
        }
      };
      const webkit = win.webkit || {};
      const handlers = Object.assign({}, webkit.messageHandlers || {});
      handlers[contract.bridge] = handler;
      put(win, "webkit", Object.assign({}, webkit, { messageHandlers: handlers }));
    } else if (mode === "androidListener") {
      const listeners = [];
      toPage = function (message) {
        const event = { data: JSON.stringify(message) };
        listeners.forEach(function (listener) { listener(event); });
        if (typeof port.onmessage === "function") port.onmessage(event);
      };
      const port = {
        onmessage: null,
        postMessage: function (text) { answer(text, toPage); },
        addEventListener: function (type, listener) { if (type === "message") listeners.push(listener); },
        removeEventListener: function (type, listener) {
          const index = listeners.indexOf(listener);
          if (index >= 0) listeners.splice(index, 1);
        }
      };
      put(win, contract.bridge, port);
    } else {
      put(win, contract.androidInterface, {
        postMessage: function (text) { answer(text, callReceive); }
      });
    }
    if (capabilities !== null && settings.inject !== false) put(win, contract.capabilitiesGlobal, capabilities);
    // The shim reports each call here, with the versions the page offered (for the usage file).
    put(win, contract.bridge + "Usage", record);
    return host;
  }

  function uninstall() {
    installed.splice(0).reverse().forEach(function (item) {
      if (item.had) item.target[item.key] = item.previous;
      else delete item.target[item.key];
    });
  }

  return host;
}

/** createFakeHostFor(contract, options).install(): a fake host on options.window (default globalThis). */
export function installFakeHostFor(contract, options) {
  return createFakeHostFor(contract, options).install();
}

/**
 * What the generated testing/fake-host.js exports, bound to the contract table of bridge.js and
 * its validators (the fake host validates by default). hostDefaults: options from the contracts
 * ({ duplicateWindowMs, exampleResults }) that a test's own options override.
 */
export function bindFakeHost(contract, validators, releases, hostDefaults) {
  function withKit(options) { return Object.assign({ validators: validators, releases: releases }, hostDefaults, options); }
  return {
    createFakeHost: function (options) { return createFakeHostFor(contract, withKit(options)); },
    installFakeHost: function (options) { return installFakeHostFor(contract, withKit(options)); },
    fullCapabilities: function (app) { return fullCapabilitiesFor(contract, app); },
    releaseCapabilities: function (reference) { return releaseCapabilitiesFor(contract, releases, reference); }
  };
}
