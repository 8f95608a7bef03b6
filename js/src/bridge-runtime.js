// bridge-runtime.js: the hand-written part of the web bridge shim. It knows no contract: every
// function takes the contract table (the generated bridge.js holds the one built from
// contracts/ and passes it in), so it is tested on its own with hand-made tables.
// Plain ES2017, no dependencies outside js/src: no optional chaining, no object spread.
//
// The bridge is put together from small parts, each a section below: errors, links (the
// Universal Link of a destination), pending calls, transports (and the page's one receive
// channel), the handshake. What a page needs only sometimes is a module of its own, imported when
// first needed: fallback.js (outside the app) and validation.js (createBridge({ validate })).
// A page that calls the app loads only this file, link-rules.js and bridge.js.

import { PARAMETER_RULES, encodeComponent, readCampaignFromObject, readCampaignFromURL } from "./link-rules.js";

export { encodeComponent };

// ---------------------------------------------------------------------------------------------
// Errors.

/** The closed set of the app's reply error codes (the host's BridgeErrorCode). */
export const ERROR_CODES = Object.freeze([
  "INVALID_MESSAGE", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION", "INVALID_PARAMS", "ORIGIN_REJECTED",
  "DUPLICATE", "NAVIGATION_FAILED", "TIMEOUT", "UNAVAILABLE", "INTERNAL"
]);


/**
 * Why a call did not succeed: the app's error reply, TIMEOUT, ABORTED, or a problem found before
 * sending. `details` lists JSON Schema errors ({instanceLocation, keywordLocation, error}) when
 * there are any; for UNSUPPORTED_VERSION, {action, supportedVersions}, also set as `supportedVersions`.
 */
export class BridgeError extends Error {
  constructor(code, message, details) {
    // ABORTED is the page's own code, never an app's: the page cancelled the call (CallOptions.signal).
    const known = ERROR_CODES.indexOf(code) >= 0 || code === "ABORTED";
    super(known ? message || code : "(unknown code " + String(code) + ") " + (message || ""));
    this.name = "BridgeError";
    this.code = known ? code : "INTERNAL";
    this.details = Array.isArray(details) ? details : [];
    const first = this.details[0];
    if (first && Array.isArray(first.supportedVersions)) this.supportedVersions = first.supportedVersions;
  }
}

/** An error's text, for a message that wraps it. */
export const describe = (error) => error && error.message ? error.message : String(error);

/** A member of a table by name, never one inherited from Object.prototype ("constructor"). */
const own = (table, key) => table !== null && typeof table === "object" && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

// ---------------------------------------------------------------------------------------------
// Links: the shared URL rules, so a fallback link equals `bridgectl link build` output.

// A number in plain decimal, as the app writes it into a URL: never an exponent (1e-7 is
// 0.0000001), the shortest digits that read back as the same number.
function plainNumber(value) {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[2] + (match[3] || "");
  const point = 1 + Number(match[4]);
  if (point <= 0) return match[1] + "0." + "0".repeat(-point) + digits;
  if (point >= digits.length) return match[1] + digits + "0".repeat(point - digits.length);
  return match[1] + digits.slice(0, point) + "." + digits.slice(point);
}

function pointerValue(root, pointer) {
  let current = root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (own(current, token) === undefined) return undefined;
    current = current[token];
  }
  return current;
}

const invalidParam = (pointer, message) => new BridgeError("INVALID_PARAMS", pointer + ": " + message, [{ instanceLocation: pointer, error: message }]);

// The text a payload value has in a URL (strings as they are, numbers in decimal, booleans as
// words), percent-encoded once; "" for an empty string. field: [name, pointer, type].
function fieldText(value, field) {
  const kind = typeof value;
  const text = kind === "string" ? value : kind === "number" && isFinite(value) ? plainNumber(value) : kind === "boolean" ? String(value) : null;
  if (text === null) throw invalidParam(field[1], "a " + (value === null ? "null" : kind) + " cannot be put into a link");
  const rule = PARAMETER_RULES[field[2]] || PARAMETER_RULES.string;
  if (text !== "" && !rule(text)) throw invalidParam(field[1], JSON.stringify(text) + " is not a valid " + field[2]);
  return encodeChecked(text, field[1]);
}

function encodeChecked(text, pointer) {
  try {
    return encodeComponent(text);
  } catch (error) {
    throw invalidParam(pointer, "contains a lone surrogate, which has no UTF-8 form");
  }
}

/** The contract entry of an action's version (latest when undefined): {action, version, contract}. */
function versionEntry(contract, action, version) {
  const entry = own(contract.actions, action);
  if (!entry) {
    throw new BridgeError("UNKNOWN_ACTION", "unknown action " + JSON.stringify(action) + " (known: " + Object.keys(contract.actions).join(", ") + ")");
  }
  const resolved = version === undefined ? entry.latest : version;
  const found = own(entry.versions, resolved);
  if (!found) {
    throw new BridgeError("UNSUPPORTED_VERSION", action + " has no version " + String(resolved) + " (versions: " + Object.keys(entry.versions).join(", ") + ")");
  }
  return { action: action, version: resolved, contract: found };
}

/**
 * webBaseURL + the route pattern with parameters filled + the query in the manifest's order,
 * then the campaign fields in the fixed order. Throws INVALID_PARAMS when it cannot be built.
 */
export function linkFromMessage(contract, entry, message, campaign) {
  if (entry.handler === "custom") throw new BridgeError("UNAVAILABLE", message.action + " is answered by the app's code: it has no link");
  let path = "";
  for (const segment of entry.pattern.split("/")) {
    if (segment === "") continue;
    if (segment.charAt(0) !== ":") {
      path += "/" + encodeComponent(segment);
      continue;
    }
    const field = entry.parameters.filter((candidate) => candidate[0] === segment.slice(1))[0];
    const value = pointerValue(message, field[1]);
    if (value === undefined) throw invalidParam(field[1], "is required to build the link to " + entry.route);
    const text = fieldText(value, field);
    if (text === "") throw invalidParam(field[1], "is empty, and " + entry.route + " needs it in its path");
    path += "/" + text;
  }
  const items = [];
  for (const field of entry.query) {
    const value = pointerValue(message, field[1]);
    const text = value === undefined || value === null ? "" : fieldText(value, field);
    if (text !== "") items.push(encodeComponent(field[0]) + "=" + text);
  }
  for (const field of campaign ? contract.campaignRules.fields : []) {
    const value = campaign[field.name];
    if (typeof value === "string" && value !== "") items.push(encodeComponent(field.name) + "=" + encodeChecked(value, "/campaign/" + field.name));
  }
  return contract.webBaseURL + (path || "/") + (items.length ? "?" + items.join("&") : "");
}

/**
 * The Universal Link of an action's destination for a payload, as the fallback opens it.
 * With `campaign`, the campaign fields ride along; without, it is the `url` a reply carries.
 */
export function buildUniversalLinkFor(table, action, version, payload, campaign) {
  const found = versionEntry(table, action, version);
  const message = { v: table.envelope, action: action, version: found.version, payload: payload === undefined ? {} : payload };
  return linkFromMessage(table, found.contract, message, campaign || null);
}

// ---------------------------------------------------------------------------------------------
// Pending calls: the calls waiting for a reply, late, unmatched and malformed replies.

/** The reply object in `raw` (an object or JSON text), or null when it is not a JSON object. */
function parseReply(raw) {
  let reply = raw;
  if (typeof raw === "string") {
    try {
      reply = JSON.parse(raw);
    } catch (error) {
      reply = null;
    }
  }
  return reply !== null && typeof reply === "object" && !Array.isArray(reply) ? reply : null;
}

/** A bridge's table of pending calls; `stats` is the bridge's counters. */
function createPendingCalls(stats, clearTimer) {
  const calls = new Map();
  const ended = new Set();
  const endedOrder = [];

  // A call that ended without its reply: a reply that comes later is counted, never delivered.
  function forget(id) {
    if (!calls.delete(id)) return false;
    ended.add(id);
    endedOrder.push(id);
    if (endedOrder.length > 1000) ended.delete(endedOrder.shift());
    return true;
  }

  function settle(id, error, result) {
    const call = calls.get(id);
    if (!call) return;
    calls.delete(id);
    clearTimer(call.timer);
    stats.replies += 1;
    if (error) call.reject(error);
    else call.resolve(result);
  }

  // A reply for a call that ended: counted late. Returns whether the id was one of those.
  function late(id) {
    if (!ended.has(id)) return false;
    stats.lateReplies += 1;
    return true;
  }

  // A reply (parsed) for the call `id`: its result or its error.
  function deliver(id, reply) {
    if (typeof reply.id === "string" && reply.id !== id) {
      settle(id, new BridgeError("INTERNAL", "the reply's id " + reply.id + " is not the request's id " + id));
    } else if (reply.ok === true) {
      settle(id, null, reply.result === undefined ? null : reply.result);
    } else if (reply.ok === false) {
      const problem = reply.error && typeof reply.error === "object" ? reply.error : {};
      settle(id, new BridgeError(problem.code, typeof problem.message === "string" ? problem.message : problem.code, problem.details));
    } else {
      settle(id, new BridgeError("INTERNAL", "the app's reply has neither ok: true nor ok: false"));
    }
  }

  // The reply to one known request (the promise WebKit's postMessage returned).
  function replyTo(id, raw) {
    const reply = parseReply(raw);
    if (reply === null) stats.malformedReplies += 1;
    if (!calls.has(id)) {
      if (!late(id)) stats.unmatchedReplies += 1;
    } else if (reply === null) settle(id, new BridgeError("INTERNAL", "the app's reply is not a JSON object"));
    else deliver(id, reply);
  }

  // WKWebView's replyHandler(nil, text) rejects the promise with an Error carrying text: a reply
  // in JSON, or the app's failure.
  function rejectedPost(id, error) {
    const text = describe(error);
    const parsed = parseReply(text);
    replyTo(id, parsed !== null && typeof parsed.ok === "boolean" ? parsed : { ok: false, error: { code: "INTERNAL", message: "the app failed the message: " + text } });
  }

  return {
    has: (id) => calls.has(id),
    add: (id, call) => { calls.set(id, call); },
    forget: forget,
    settle: settle,
    late: late,
    deliver: deliver,
    replyTo: replyTo,
    rejectedPost: rejectedPost,
    ids: () => Array.from(calls.keys())
  };
}

// ---------------------------------------------------------------------------------------------
// Transports: how a message reaches the app, and the page's one receive channel.

/**
 * The channel to the app on `win` now, or null outside the app: {post(envelope)}, with webkit: true
 * for WebKit (its postMessage may return the reply) and the listener object for Android's.
 */
function transportOf(win, contract) {
  const handlers = win.webkit && win.webkit.messageHandlers;
  const webkit = handlers && handlers[contract.bridge];
  if (webkit && typeof webkit.postMessage === "function") return { webkit: true, post: (envelope) => webkit.postMessage(envelope) };
  const listener = win[contract.bridge];
  if (listener && typeof listener.postMessage === "function") {
    return { listener: listener, post: (envelope) => { listener.postMessage(JSON.stringify(envelope)); } };
  }
  const channel = win[contract.androidInterface];
  if (channel && typeof channel.postMessage === "function") return { post: (envelope) => { channel.postMessage(JSON.stringify(envelope)); } };
  return null;
}

/**
 * The page's receive channel: the receive global (window.<bridge>Receive), which every bridge on
 * the page joins with its pending calls and stats. A reply goes to the bridge whose call it
 * answers; a reply to a call that ended is late for that bridge; any other is unmatched (or
 * malformed) for every bridge. Android listener events come to the same function.
 */
function receiveChannelOf(win, name) {
  const existing = win[name];
  if (typeof existing === "function" && Array.isArray(existing.members)) return existing;
  const members = [];
  const listeners = [];
  const receive = (raw) => {
    const reply = parseReply(raw);
    const id = reply === null ? undefined : reply.id;
    const owner = members.filter((member) => typeof id === "string" && member.pending.has(id))[0];
    if (owner) return owner.pending.deliver(id, reply);
    if (typeof id === "string" && members.some((member) => member.pending.late(id))) return;
    members.forEach((member) => { member.stats[reply === null ? "malformedReplies" : "unmatchedReplies"] += 1; });
  };
  const onMessage = (event) => receive(event && event.data !== undefined ? event.data : event);
  receive.members = members;
  receive.join = (member) => {
    members.push(member);
    win[name] = receive;
  };
  receive.leave = (member) => {
    members.splice(members.indexOf(member), 1);
    if (members.length === 0 && win[name] === receive) delete win[name];
  };
  // The Android listener's message events, listened to once per listener object.
  receive.listen = (listener) => {
    if (listeners.indexOf(listener) >= 0) return;
    listeners.push(listener);
    if (typeof listener.addEventListener === "function") listener.addEventListener("message", onMessage);
    else listener.onmessage = onMessage;
  };
  return receive;
}

// ---------------------------------------------------------------------------------------------
// The handshake: what the app on this page takes.

/**
 * The handshake of one bridge. `request(envelope)` registers the call and posts it, and returns
 * nothing: the reply settles the {resolve, reject} pair registered under its id in `pending`.
 */
function createHandshake(contract, win, pending, post, newId) {
  let learned = null;
  let legacy = false;
  let asking = null;
  let askingId = null;

  function capabilities() {
    const injected = win[contract.capabilitiesGlobal];
    return injected !== null && typeof injected === "object" ? injected : learned;
  }

  return {
    capabilities: capabilities,
    /** True once the page knows what the app takes (a manifest, or an app that has none). */
    known: () => legacy || capabilities() !== null,
    /** The versions of an action the app takes; null when it gave no manifest (trusted). */
    versions: (action) => {
      const manifest = capabilities();
      if (manifest === null) return null;
      if ((manifest.bridge !== undefined && manifest.bridge !== contract.bridge) || (manifest.envelope !== undefined && manifest.envelope !== contract.envelope)) return [];
      const versions = own(manifest.actions, action);
      return Array.isArray(versions) ? versions : [];
    },
    /**
     * The capabilities request, one in flight at a time. It has no timer of its own: every call
     * waiting on it has its deadline, and one that times out calls `abandon`, so the next call asks again.
     */
    ask: (channel) => {
      if (asking === null) {
        pending.forget(askingId);
        const envelope = { v: contract.envelope, id: newId(), action: "capabilities", version: 1, payload: {} };
        askingId = envelope.id;
        asking = new Promise((resolve, reject) => {
          pending.add(envelope.id, { resolve: resolve, reject: reject });
          post(channel, envelope);
        }).then((manifest) => {
          asking = null;
          learned = manifest && typeof manifest === "object" ? manifest : null;
          legacy = learned === null;
        }, (error) => {
          asking = null;
          if (error.code !== "UNKNOWN_ACTION" && error.code !== "UNSUPPORTED_VERSION") throw error;
          legacy = true;
        });
      }
      return asking;
    },
    abandon: () => { asking = null; }
  };
}

// ---------------------------------------------------------------------------------------------
// Validation (createBridge({ validate })): validators.js and validation.js load when first needed.

/**
 * The validators a bridge checks with: a function giving null (no validation), the module, or a
 * promise of it. `validate: true` loads validators.js through `load` (bridge.js passes a dynamic
 * import, so a page that does not validate never loads it); `validate: module` uses a module the
 * page imported itself.
 */
function validatorsSource(setting, load) {
  if (setting === undefined || setting === false || setting === null) return () => null;
  if (typeof setting === "object" && typeof setting.validate === "function") return () => setting;
  if (setting !== true) throw new BridgeError("INTERNAL", "createBridge: validate must be true, false or the validators module");
  if (typeof load !== "function") {
    throw new BridgeError("INTERNAL", "createBridge: validate: true needs bridge.js to load validators.js, or pass the module (validate: validators)");
  }
  let loaded = null;
  let loading = null;
  return () => loaded || loading || (loading = Promise.resolve().then(load).then((module) => loaded = module));
}

// ---------------------------------------------------------------------------------------------
// The bridge.


/** Freezes a contract table and everything in it. */
export function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    Object.getOwnPropertyNames(value).forEach((key) => { deepFreeze(value[key]); });
    Object.freeze(value);
  }
  return value;
}

// Request ids: crypto.randomUUID where it exists; otherwise ids that still match the envelope's
// id pattern ^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$.
let idCounter = 0;
function newRequestId(source) {
  if (source && typeof source.randomUUID === "function") return source.randomUUID();
  if (source && typeof source.getRandomValues === "function") {
    return "r" + Array.prototype.map.call(source.getRandomValues(new Uint8Array(16)), (b) => (b < 16 ? "0" : "") + b.toString(16)).join("");
  }
  idCounter += 1;
  return "r" + Date.now().toString(36) + "-" + idCounter.toString(36) + "-" + Math.random().toString(36).slice(2, 10);
}

// The page's campaign, read as the app reads the link that opened it (link-rules.js): a value
// that breaks the contract's campaign rules is dropped (never shortened) with a warning.
function readCampaign(contract, source) {
  if (typeof source === "string") return readCampaignFromURL(contract.campaignRules, source);
  if (source && typeof source === "object") return readCampaignFromObject(contract.campaignRules, source);
  return { campaign: Object.freeze({}), warnings: Object.freeze([]) };
}

// No window and no native bridge on the global object: a server rendering the page. The bridge
// then sets no global and every call rejects UNAVAILABLE.
function onServer(settings, contract) {
  return settings.window === undefined && typeof window === "undefined" && transportOf(globalThis, contract) === null;
}

// Posts an envelope on a channel; a request's reply settles it through the pending table (its
// caller bounds the wait). Throws INTERNAL when the platform refuses the post.
function postEnvelope(pending, channel, envelope) {
  let returned;
  try {
    returned = channel.post(envelope);
  } catch (error) {
    throw new BridgeError("INTERNAL", "posting the message failed: " + describe(error));
  }
  // A notification gets no reply; its platform promise is only kept from going unhandled.
  if (channel.webkit && returned && typeof returned.then === "function") {
    returned.then((reply) => { if (envelope.id) pending.replyTo(envelope.id, reply); }, (error) => { if (envelope.id) pending.rejectedPost(envelope.id, error); });
  }
}

// The version to send of those offered (highest first), and why it falls back (null: it does
// not). versions: what the app takes (null: no manifest, trusted; undefined: outside the app).
// An app that has only other versions of the action refuses them all.
function chooseVersion(versions, action, offered) {
  if (versions === undefined) return { chosen: offered[0], reason: "outside the app" };
  if (versions === null) return { chosen: offered[0], reason: null };
  const chosen = offered.filter((entry) => versions.indexOf(entry.version) >= 0)[0];
  if (chosen) return { chosen: chosen, reason: null };
  if (versions.length === 0) return { chosen: offered[0], reason: "not in this app" };
  throw new BridgeError("UNSUPPORTED_VERSION", "this app takes " + action + " v" + versions.join(", v")
    + " only: offer one of those (bridge.offer)", [{ action: action, supportedVersions: versions }]);
}

// The envelope of a call: a request when it has an id, a notification when id is null.
function envelopeOf(contract, campaign, id, action, chosen, sentAt) {
  const envelope = { v: contract.envelope };
  if (id !== null) envelope.id = id;
  envelope.action = action;
  envelope.version = chosen.version;
  envelope.payload = chosen.payload;
  if (Object.keys(campaign).length > 0) envelope.campaign = Object.assign({}, campaign);
  envelope.sentAt = sentAt.toISOString();
  return envelope;
}

/**
 * Creates the bridge for this page from a contract table. Options (all optional; the defaults
 * are the real page): window, pageURL (where campaign fields are read, default
 * window.location.href, read once now so that a single-page app that later rewrites its URL
 * keeps the landing campaign), campaign (an object used instead of the page URL), navigate(url)
 * (default window.location.assign), now() (a Date), crypto, setTimeout/clearTimeout, validate
 * (true, or the validators module: each message is checked before it is posted and a message
 * the app would reject fails here with the app's code and details).
 */
export function createBridgeFor(contract, options) {
  const settings = options || {};
  const server = onServer(settings, contract);
  const win = server ? {} : settings.window || (typeof window !== "undefined" ? window : globalThis);
  const validators = validatorsSource(settings.validate, settings.loadValidators);
  const setTimer = settings.setTimeout || setTimeout;
  const clearTimer = settings.clearTimeout || clearTimeout;
  const now = settings.now || (() => new Date());
  const cryptoSource = settings.crypto || (typeof crypto !== "undefined" ? crypto : undefined);
  const newId = () => newRequestId(cryptoSource);
  const pageURL = settings.pageURL !== undefined ? settings.pageURL : (win.location && win.location.href) || "";
  const read = readCampaign(contract, settings.campaign !== undefined ? settings.campaign : pageURL);

  const stats = {
    sent: 0, notifications: 0, replies: 0, timeouts: 0, aborted: 0, lateReplies: 0,
    unmatchedReplies: 0, malformedReplies: 0, fallbacks: 0, rejectedBeforeSending: 0
  };
  const pending = createPendingCalls(stats, clearTimer);
  const member = { pending: pending, stats: stats };
  const receiving = server ? null : receiveChannelOf(win, contract.receiveFunction);
  if (receiving) receiving.join(member);

  // The channel to the app now (null outside it); the Android listener's replies come to the page's receive channel.
  function transport() {
    const channel = transportOf(win, contract);
    if (channel && channel.listener) receiving.listen(channel.listener);
    return channel;
  }

  const post = (channel, envelope) => postEnvelope(pending, channel, envelope);
  const handshake = createHandshake(contract, win, pending, post, newId);

  function supports(action, version) {
    const entry = own(contract.actions, action);
    const resolved = version === undefined && entry ? entry.latest : version;
    if (!entry || !own(entry.versions, resolved) || transport() === null) return false;
    const versions = handshake.versions(action);
    return versions === null || versions.indexOf(resolved) >= 0;
  }

  // offers: [version, payload] pairs, highest first. Settles once: a result, an error, TIMEOUT by
  // its deadline (which starts when it first waits on the app: the handshake or the reply), or
  // ABORTED when the page's signal fires. A reply that comes after it settled is counted late.
  function call(action, offers, callOptions) {
    const options = callOptions || {};
    const notify = options.notify === true;
    const signal = options.signal;
    return new Promise((resolve, reject) => {
      let timer = null;
      let id = null;
      let done = false;

      function finish(error, result) {
        if (done) return;
        done = true;
        clearTimer(timer);
        if (signal) signal.removeEventListener("abort", abort);
        if (error) reject(error);
        else resolve(result);
      }

      // The deadline: the call's own timeoutMs, else the contract's for the first version offered.
      function arm(found) {
        if (timer !== null) return;
        const timeoutMs = typeof options.timeoutMs === "number" ? options.timeoutMs : found.contract.timeoutMs;
        timer = setTimer(() => {
          if (done) return;
          stats.timeouts += 1;
          if (!pending.forget(id)) handshake.abandon();
          finish(new BridgeError("TIMEOUT", "no reply to " + action + " v" + found.version + " within " + timeoutMs + " ms"
            + (id === null ? " (nor a capability manifest)" : "")));
        }, timeoutMs);
      }

      function abort() {
        if (done) return;
        stats.aborted += 1;
        const sent = pending.forget(id);
        if (!sent && id === null) handshake.abandon();
        finish(new BridgeError("ABORTED", action + " was aborted by the page" + (sent ? " (the app has the message and may still navigate)" : " before it was sent")));
      }

      function send(offered) {
        if (done) return;
        const channel = transport();
        const pick = chooseVersion(channel === null ? undefined : handshake.versions(action), action, offered);
        if (notify && pick.chosen.contract.requiresId) {
          throw new BridgeError("INVALID_PARAMS", action + " v" + pick.chosen.version + " expects a reply (its schema requires an id): it cannot be a notification",
            [{ instanceLocation: "", keyword: "required", error: "id is required" }]);
        }
        const envelope = envelopeOf(contract, read.campaign, notify ? null : newId(), action, pick.chosen, now());
        const checking = validators();
        if (checking === null) return deliver(channel, pick, envelope);
        Promise.all([checking, import("./validation.js")]).then((loaded) => check(loaded, channel, pick, envelope), (error) => {
          finish(new BridgeError("INTERNAL", "validators.js could not be loaded: " + describe(error)));
        });
      }

      // With validation on, a message the app would reject fails here, with the app's reply.
      function check(loaded, channel, pick, envelope) {
        if (done) return;
        const refused = loaded[1].refusalOf(loaded[0], envelope);
        if (refused) {
          stats.rejectedBeforeSending += 1;
          return finish(refused);
        }
        guarded(() => deliver(channel, pick, envelope));
      }

      // Posts the envelope on the page's channel, or takes the fallback.
      function deliver(channel, pick, envelope) {
        if (pick.reason !== null) {
          stats.fallbacks += 1;
          return import("./fallback.js").then((module) => guarded(() => finish(null, module.openFallback(contract, pick.chosen, envelope, pick.reason, channel !== null, settings.navigate, win))), finish);
        }
        if (notify) {
          post(channel, envelope);
          stats.notifications += 1;
          return finish(null, undefined);
        }
        id = envelope.id;
        arm(pick.chosen);
        pending.add(id, { resolve: (result) => finish(null, result), reject: finish });
        stats.sent += 1;
        try {
          post(channel, envelope);
        } catch (error) {
          pending.settle(id, error);
        }
      }

      function guarded(step) {
        try {
          step();
        } catch (error) {
          finish(error);
        }
      }

      if (server) {
        return finish(new BridgeError("UNAVAILABLE", "createBridge() ran without a window (on a server?): no app to call"));
      }
      if (signal && signal.aborted) return abort();
      guarded(() => {
        if (offers.length === 0) throw new BridgeError("UNSUPPORTED_VERSION", "no version of " + action + " offered");
        const offered = offers.map((offer) => {
          const entry = versionEntry(contract, action, offer[0]);
          entry.payload = offer[1] === undefined ? {} : offer[1];
          return entry;
        });
        if (signal) signal.addEventListener("abort", abort);
        // A page's own tests: the fake host records each call with the versions the page can send.
        const usage = win[contract.bridge + "Usage"];
        if (typeof usage === "function") usage(action, offered.map((entry) => entry.version));
        if (transport() !== null && !handshake.known()) {
          arm(offered[0]);
          handshake.ask(transport()).then(() => guarded(() => send(offered)), finish);
        } else {
          send(offered);
        }
      });
    });
  }

  function send(action, version, payload, callOptions) {
    return call(action, [[version, payload]], callOptions);
  }

  /** payloads: {version: payload}; sends the highest version the app takes. */
  function offer(action, payloads, callOptions) {
    const versions = Object.keys(payloads || {}).map(Number).sort((a, b) => b - a);
    return call(action, versions.map((version) => [version, payloads[version]]), callOptions);
  }

  const bridge = {
    /** Sends any action and version of the contract; the typed functions below call this. */
    send: send,
    offer: offer,
    supports: supports,
    isSupported: supports,
    /** The capability manifest the app injected, or answered the handshake with; null before that. */
    capabilities: handshake.capabilities,
    /** The campaign fields this page sends with every message. */
    campaign: read.campaign,
    /** Campaign values found on the page but dropped because they break the campaign schema. */
    campaignWarnings: read.warnings,
    stats: stats,
    /** The Universal Link an action would open outside the app, with this page's campaign. */
    linkFor: (action, payload, linkOptions) => buildUniversalLinkFor(contract, action, linkOptions && linkOptions.version, payload,
      linkOptions && linkOptions.campaign === false ? null : read.campaign),
    /** Rejects pending calls with UNAVAILABLE and leaves the page's receive channel (the last bridge removes its global). */
    dispose: () => {
      pending.ids().forEach((id) => pending.settle(id, new BridgeError("UNAVAILABLE", "the bridge was disposed")));
      if (receiving) receiving.leave(member);
    }
  };
  Object.keys(contract.actions).forEach((action) => {
    const entry = contract.actions[action];
    bridge[entry.method] = (payload, callOptions) => send(action, entry.latest, payload, callOptions);
    Object.keys(entry.versions).forEach((version) => {
      bridge[entry.method + "V" + version] = (payload, callOptions) => send(action, Number(version), payload, callOptions);
    });
  });
  return Object.freeze(bridge);
}

/**
 * What the generated bridge.js exports, bound to its contract table: createBridge(options) and
 * buildUniversalLink(action, version, payload, campaign). `loadValidators` returns a promise of
 * the contract's validators module (bridge.js: a dynamic import of ./validators.js, run only when
 * a page asks for validate: true). `options.contract` and the fifth argument of
 * buildUniversalLink put another table in its place (for tests).
 */
export function bindContract(contract, loadValidators) {
  return {
    createBridge: (options) => {
      const settings = Object.assign({ loadValidators: loadValidators }, options);
      return createBridgeFor(settings.contract || contract, settings);
    },
    buildUniversalLink: (action, version, payload, campaign, table) => buildUniversalLinkFor(table || contract, action, version, payload, campaign)
  };
}
