// bridge-runtime.js: the hand-written part of the web bridge shim. It knows no contract: every
// function takes the contract table (the generated bridge.js holds the one built from
// contracts/ and passes it in), so it is tested on its own with hand-made tables.
// Plain ES2017, no dependencies outside js/src: no optional chaining, no object spread.
//
// The bridge is put together from small modules: errors.js, pending.js (the calls waiting for a
// reply), transports.js (the channels to the app and the page's one receive channel),
// handshake.js (what the app takes), and this file, which reads the page's campaign, makes the
// calls and keeps the subscriptions to the app's events. What a page needs only sometimes is
// imported when first needed: links.js with link-rules.js (linkFor, buildUniversalLink,
// campaignWarnings), fallback.js (outside the app), validation.js (createBridge({ validate })) and
// events.js (bridge.on, or the first event).

import { BridgeError, describe, own, versionEntry } from "./errors.js";
import { createPendingCalls } from "./pending.js";
import { postEnvelope, receiveChannelOf, transportOf } from "./transports.js";
import { createHandshake } from "./handshake.js";
import { loneSurrogateRefusal } from "./surrogates.js";

export { BridgeError, ERROR_CODES } from "./errors.js";

/** Percent-encodes once, keeping only RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~). */
export const encodeComponent = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());

/** The links module (links.js), loaded when a page first asks for a link or the campaign warnings. */
const links = () => import("./links.js");

// ---------------------------------------------------------------------------------------------
// The page's campaign, read at createBridge as the app reads the link that opened the page
// (link-rules.js's readCampaignFromURL and readCampaignFromObject, which links.js runs to word
// the warnings): the first non-empty value of each campaign field, decoded and composed (NFC); a
// value that breaks the contract's campaign rules is dropped, never shortened; a bad escape
// anywhere in the query drops them all. A test holds both readers to the same campaigns.

// What String.prototype.trim removes, listed (as link-rules.js lists it) so every engine removes the same.
const EDGE_SPACE = /^[\t-\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t-\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$/g;
const CAMPAIGN_ORDER = "campaign_id group_id variant utm_source utm_medium utm_campaign utm_term utm_content".split(" ");

// A rule's ScalarPattern (pieces of code point ranges, each repeated min to max times) as a RegExp.
const patternOf = (pieces) => new RegExp("^" + pieces.map((piece) => "[" + piece.ranges.map((range) => "\\u{" + range[0].toString(16) + "}-\\u{" + range[1].toString(16) + "}").join("")
  + "]{" + piece.min + "," + (piece.max === null ? "" : piece.max) + "}").join("") + "$", "u");

function fieldAllowed(rules, name, value) {
  const rule = rules.fields.filter((field) => field.name === name)[0];
  if (!rule) return !rules.closed;
  const length = Array.from(value).length;
  return length >= rule.minLength && (rule.maxLength === null || length <= rule.maxLength) && (rule.pattern === null || patternOf(rule.pattern).test(value));
}

/** The campaign of a page URL or of an object given instead, frozen, in the shared URL order. */
function readCampaign(rules, source) {
  let items = [];
  if (typeof source === "string") {
    const query = source.replace(EDGE_SPACE, "").split("#")[0];
    const start = query.indexOf("?");
    try {
      items = start < 0 ? [] : query.slice(start + 1).split("&").filter((pair) => pair !== "").map((pair) => {
        const equals = pair.indexOf("=");
        return [decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals)), decodeURIComponent(equals < 0 ? "" : pair.slice(equals + 1))];
      });
    } catch (error) {
      items = [];
    }
  } else if (source && typeof source === "object") {
    items = Object.keys(source).map((name) => [name, source[name]]);
  }
  const found = {};
  const seen = [];
  items.forEach((item) => {
    const name = item[0];
    if (typeof item[1] !== "string" || item[1] === "" || !/^(campaign_id|group_id|variant)$|^utm_/.test(name) || seen.indexOf(name) >= 0) return;
    seen.push(name);
    const value = item[1].normalize("NFC");
    if (fieldAllowed(rules, name, value)) found[name] = value;
  });
  const campaign = {};
  CAMPAIGN_ORDER.concat(Object.keys(found).sort()).forEach((name) => {
    if (name in found) campaign[name] = found[name];
  });
  return Object.freeze(campaign);
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

// No window and no native bridge on the global object: a server rendering the page. The bridge
// then sets no global and every call rejects UNAVAILABLE.
function onServer(settings, contract) {
  return settings.window === undefined && typeof window === "undefined" && transportOf(globalThis, contract) === null;
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
  // The page's campaign source, kept as it is now for the warnings (links.js words them when asked).
  const source = settings.campaign !== undefined ? settings.campaign : pageURL;
  const kept = source && typeof source === "object" ? Object.assign({}, source) : source;
  const campaign = readCampaign(contract.campaignRules, kept);

  const stats = {
    sent: 0, notifications: 0, replies: 0, timeouts: 0, aborted: 0, lateReplies: 0,
    unmatchedReplies: 0, malformedReplies: 0, fallbacks: 0, rejectedBeforeSending: 0,
    events: 0, unhandledEvents: 0, unknownEvents: 0, malformedEvents: 0, invalidEvents: 0, handlerErrors: 0
  };
  const pending = createPendingCalls(stats, clearTimer);

  // The app's events: the subscriptions (event name -> handlers) are kept here; events.js, loaded
  // when the page first subscribes or an event first arrives, checks each event and runs them.
  // One promise of the module, so events reach the handlers in the order they came; if it cannot
  // be loaded, each event is counted unhandled.
  const handlers = new Map();
  const eventScope = { contract: contract, stats: stats, handlers: handlers, validators: validators, win: win };
  let eventsModule = null;
  const loadEvents = () => eventsModule || (eventsModule = import("./events.js"));
  const receiveEvent = (message) => loadEvents().then((module) => module.receiveEvent(eventScope, message), () => { stats.unhandledEvents += 1; });
  function on(name, handler) {
    // A copy per subscription: the same function subscribed twice is two subscriptions.
    const entry = handler.bind(null);
    handlers.set(name, (handlers.get(name) || []).concat(entry));
    loadEvents().catch(() => null);
    // Android's listener object brings events as message events: listen to it now, not at the first call.
    transport();
    return () => { handlers.set(name, handlers.get(name).filter((other) => other !== entry)); };
  }

  const member = { pending: pending, stats: stats, event: receiveEvent };
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
        const envelope = envelopeOf(contract, campaign, notify ? null : newId(), action, pick.chosen, now());
        const unreadable = loneSurrogateRefusal(envelope);
        if (unreadable) {
          stats.rejectedBeforeSending += 1;
          throw unreadable;
        }
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
        // A navigation not ended yet (login, cold start, a slow step) names its request id, as
        // the navigation_completed event that tells how it ended does.
        pending.add(id, { resolve: (result) => finish(null, result && (result.pendingLogin || result.waitingForReady || result.resolving) ? Object.assign({ requestId: id }, result) : result), reject: finish });
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
    campaign: campaign,
    /** Campaign values found on the page but dropped because they break the campaign schema, and why (a promise). */
    campaignWarnings: () => links().then((module) => module.campaignWarningsFor(contract, kept)),
    stats: stats,
    /** Subscribes to an app event: handler(payload, {event, version}), run asynchronously; returns the unsubscribe function. */
    on: on,
    /** The Universal Link an action would open outside the app, with this page's campaign (a promise). */
    linkFor: (action, payload, linkOptions) => links().then((module) => module.buildUniversalLinkFor(contract, action, linkOptions && linkOptions.version, payload,
      linkOptions && linkOptions.campaign === false ? null : campaign)),
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
    buildUniversalLink: (action, version, payload, campaign, table) => links().then((module) => module.buildUniversalLinkFor(table || contract, action, version, payload, campaign))
  };
}
