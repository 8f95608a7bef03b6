// bridge-runtime.js: the hand-written part of the web bridge shim. It knows no contract: every
// function takes the contract table (the generated bridge.js holds the one built from
// contracts/ and passes it in), so it is tested on its own with hand-made tables.
// Plain ES2017, no dependencies outside js/src: no optional chaining, no object spread.

import { PARAMETER_RULES, encodeComponent, readCampaignFromObject, readCampaignFromURL } from "./link-rules.js";

export { encodeComponent };

/** The closed set of BridgeError codes (the envelope's reply codes). */
export const ERROR_CODES = Object.freeze([
  "INVALID_MESSAGE", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION", "INVALID_PARAMS", "ORIGIN_REJECTED",
  "DUPLICATE", "NAVIGATION_FAILED", "TIMEOUT", "UNAVAILABLE", "INTERNAL"
]);

/**
 * Why a call did not succeed: the app's error reply, TIMEOUT, or a problem found before sending.
 * `details` lists JSON Schema errors ({instanceLocation, keywordLocation, error}) when there are any;
 * for UNSUPPORTED_VERSION, {action, supportedVersions}, also set as `supportedVersions`.
 */
export class BridgeError extends Error {
  constructor(code, message, details) {
    const known = ERROR_CODES.indexOf(code) >= 0;
    super(known ? message || code : "(unknown code " + String(code) + ") " + (message || ""));
    this.name = "BridgeError";
    this.code = known ? code : "INTERNAL";
    this.details = Array.isArray(details) ? details : [];
    const first = this.details[0];
    if (first && Array.isArray(first.supportedVersions)) this.supportedVersions = first.supportedVersions;
  }
}

/** Freezes a contract table and everything in it. */
export function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    Object.getOwnPropertyNames(value).forEach(function (key) { deepFreeze(value[key]); });
    Object.freeze(value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// URLs: the shared URL conventions, so a fallback link equals `bridgectl link build` output.

// encodeComponent and the parameter types of routes.json come from link-rules.js, which the
// contract catalog's link builder shares.

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
  if (pointer === "") return root;
  let current = root;
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, token)) {
      return undefined;
    }
    current = current[token];
  }
  return current;
}

function invalidParam(pointer, message) {
  return new BridgeError("INVALID_PARAMS", pointer + ": " + message, [{ instanceLocation: pointer, error: message }]);
}

// The text a payload value has in a URL: strings as they are, numbers in decimal, booleans as words.
function fieldText(value, field) {
  let text;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" && isFinite(value)) text = plainNumber(value);
  else if (typeof value === "boolean") text = value ? "true" : "false";
  else throw invalidParam(field[1], "a " + (value === null ? "null" : typeof value) + " cannot be put into a link");
  const rule = PARAMETER_RULES[field[2]] || PARAMETER_RULES.string;
  if (text !== "" && !rule(text)) throw invalidParam(field[1], JSON.stringify(text) + " is not a valid " + field[2]);
  return text;
}

function encodeChecked(text, pointer) {
  try {
    return encodeComponent(text);
  } catch (error) {
    throw invalidParam(pointer, "contains a lone surrogate, which has no UTF-8 form");
  }
}

// An error's text, for a message that wraps it.
function describe(error) {
  return error && error.message ? error.message : String(error);
}

// A member of a table by name, never one inherited from Object.prototype ("constructor").
function own(table, key) {
  return table !== null && typeof table === "object" && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

function versionEntry(contract, action, version) {
  const entry = own(contract.actions, action);
  if (!entry) {
    throw new BridgeError("UNKNOWN_ACTION", "unknown action " + JSON.stringify(action) + " (known: " + Object.keys(contract.actions).join(", ") + ")");
  }
  const resolved = version === undefined ? entry.latest : version;
  const contractVersion = own(entry.versions, resolved);
  if (!contractVersion) {
    throw new BridgeError("UNSUPPORTED_VERSION", action + " has no version " + String(resolved) + " (versions: " + Object.keys(entry.versions).join(", ") + ")");
  }
  return { action: action, version: resolved, contract: contractVersion };
}

// webBaseURL + the route pattern with parameters filled + the query in the manifest's order,
// then the campaign fields in the fixed order. Throws INVALID_PARAMS when it cannot be built.
function linkFromMessage(contract, entry, message, campaign) {
  if (entry.handler === "custom") throw new BridgeError("UNAVAILABLE", message.action + " is answered by the app's code: it has no link");
  let path = "";
  entry.pattern.split("/").forEach(function (segment) {
    if (segment === "") return;
    if (segment.charAt(0) !== ":") {
      path += "/" + encodeComponent(segment);
      return;
    }
    const name = segment.slice(1);
    const field = entry.parameters.filter(function (candidate) { return candidate[0] === name; })[0];
    const value = pointerValue(message, field[1]);
    if (value === undefined) throw invalidParam(field[1], "is required to build the link to " + entry.route);
    const text = fieldText(value, field);
    if (text === "") throw invalidParam(field[1], "is empty, and " + entry.route + " needs it in its path");
    path += "/" + encodeChecked(text, field[1]);
  });
  const items = [];
  entry.query.forEach(function (field) {
    const value = pointerValue(message, field[1]);
    if (value === undefined || value === null) return;
    const text = fieldText(value, field);
    if (text !== "") items.push(encodeComponent(field[0]) + "=" + encodeChecked(text, field[1]));
  });
  if (campaign) {
    contract.campaignRules.fields.forEach(function (field) {
      const value = campaign[field.name];
      if (typeof value === "string" && value !== "") {
        items.push(encodeComponent(field.name) + "=" + encodeChecked(value, "/campaign/" + field.name));
      }
    });
  }
  return contract.webBaseURL + (path === "" ? "/" : path) + (items.length ? "?" + items.join("&") : "");
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
// Validation: the generated validators.js, asked before a message leaves the page.

/**
 * The error reply the app sends for a message the validators rejected ({valid: false, code,
 * errors} from validators.js): its code, a sentence worded as the app words it, and the schema
 * errors as the reply's details.
 */
export function errorForVerdict(verdict, action, version) {
  const count = verdict.errors.length;
  let message = verdict.message || verdict.code;
  if (verdict.code === "INVALID_PARAMS") message = action + " v" + version + ": " + count + " invalid field" + (count === 1 ? "" : "s");
  if (verdict.code === "INVALID_MESSAGE") message = "the message does not match the envelope schema (" + count + " error" + (count === 1 ? "" : "s") + ")";
  return { code: verdict.code || "INVALID_PARAMS", message: message, details: verdict.errors };
}

// The validators a bridge checks with: null (no validation), the module itself, or a promise of
// it. `validate: true` loads validators.js through `load` (bridge.js passes a dynamic import,
// so a page that does not validate never loads it); `validate: module` uses a module the page
// imported itself.
function validatorsSource(setting, load) {
  if (setting === undefined || setting === false || setting === null) return function () { return null; };
  if (typeof setting === "object" && typeof setting.validate === "function") return function () { return setting; };
  if (setting !== true) throw new BridgeError("INTERNAL", "createBridge: validate must be true, false or the validators module");
  if (typeof load !== "function") {
    throw new BridgeError("INTERNAL", "createBridge: validate: true needs bridge.js to load validators.js, or pass the module (validate: validators)");
  }
  let loading = null;
  let loaded = null;
  return function () {
    if (loaded !== null) return loaded;
    if (loading === null) {
      loading = Promise.resolve().then(load).then(function (module) {
        loaded = module;
        return module;
      });
    }
    return loading;
  };
}

// ---------------------------------------------------------------------------------------------
// Campaign metadata from the page URL.

// The page's campaign, read as the app reads the link that opened it (link-rules.js): the
// contract's campaign rules apply, a value that breaks them is dropped (never shortened) with a
// warning, values are composed (NFC), and "+" is a literal plus (with a warning).
function readCampaign(contract, source) {
  if (typeof source === "string") return readCampaignFromURL(contract.campaignRules, source);
  if (source && typeof source === "object") return readCampaignFromObject(contract.campaignRules, source);
  return { campaign: Object.freeze({}), warnings: Object.freeze([]) };
}

// ---------------------------------------------------------------------------------------------
// Request ids: crypto.randomUUID where it exists; otherwise ids that still match the envelope's
// id pattern ^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$.

let fallbackIdCounter = 0;

function newRequestId(cryptoSource) {
  if (cryptoSource && typeof cryptoSource.randomUUID === "function") return cryptoSource.randomUUID();
  if (cryptoSource && typeof cryptoSource.getRandomValues === "function") {
    const bytes = cryptoSource.getRandomValues(new Uint8Array(16));
    return "r" + Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  fallbackIdCounter += 1;
  return "r" + Date.now().toString(36) + "-" + fallbackIdCounter.toString(36) + "-" + Math.random().toString(36).slice(2, 10);
}

// ---------------------------------------------------------------------------------------------
// The bridge.

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
  // validate: check every outgoing message with the generated validators first (see validatorsSource).
  const validators = validatorsSource(settings.validate, settings.loadValidators);
  const win = settings.window || (typeof window !== "undefined" ? window : globalThis);
  const setTimer = settings.setTimeout || setTimeout;
  const clearTimer = settings.clearTimeout || clearTimeout;
  const now = settings.now || function () { return new Date(); };
  const cryptoSource = settings.crypto || (typeof crypto !== "undefined" ? crypto : undefined);
  const navigate = settings.navigate || function (url) {
    if (!win.location || typeof win.location.assign !== "function") {
      throw new BridgeError("UNAVAILABLE", "no native bridge and no window.location to open " + url);
    }
    win.location.assign(url);
  };
  const pageURL = settings.pageURL !== undefined ? settings.pageURL : (win.location && win.location.href) || "";
  const read = readCampaign(contract, settings.campaign !== undefined ? settings.campaign : pageURL);

  const stats = {
    sent: 0, notifications: 0, replies: 0, timeouts: 0, lateReplies: 0,
    unmatchedReplies: 0, malformedReplies: 0, fallbacks: 0, rejectedBeforeSending: 0
  };
  const pending = new Map();
  const expired = new Set();
  const expiredOrder = [];
  let subscribedListener = null;

  function rememberExpired(id) {
    expired.add(id);
    expiredOrder.push(id);
    if (expiredOrder.length > 1000) expired.delete(expiredOrder.shift());
  }

  function settle(id, error, result) {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    clearTimer(call.timer);
    stats.replies += 1;
    if (error) call.reject(error);
    else call.resolve(result);
  }

  // One path for every transport. `expectedId` is set when the reply belongs to a known request
  // by construction (the promise postMessage returned); otherwise the reply's own id decides.
  function handleReply(raw, expectedId) {
    let reply = raw;
    if (typeof raw === "string") {
      try {
        reply = JSON.parse(raw);
      } catch (error) {
        reply = undefined;
      }
    }
    if (reply === null || typeof reply !== "object" || Array.isArray(reply)) {
      stats.malformedReplies += 1;
      if (expectedId !== undefined && pending.has(expectedId)) {
        settle(expectedId, new BridgeError("INTERNAL", "the app's reply is not a JSON object"));
      } else if (expectedId !== undefined && expired.has(expectedId)) {
        stats.lateReplies += 1;
      }
      return;
    }
    const id = expectedId !== undefined ? expectedId : reply.id;
    if (typeof id !== "string" || !pending.has(id)) {
      if (typeof id === "string" && expired.has(id)) stats.lateReplies += 1;
      else stats.unmatchedReplies += 1;
      return;
    }
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

  // WKWebView's replyHandler(nil, text) rejects the promise with an Error carrying text.
  function handleRejectedPost(error, id) {
    const text = describe(error);
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (ignored) {
      parsed = undefined;
    }
    if (parsed && typeof parsed === "object" && (parsed.ok === true || parsed.ok === false)) {
      handleReply(parsed, id);
    } else if (pending.has(id)) {
      settle(id, new BridgeError("INTERNAL", "the app failed the message: " + text));
    } else if (expired.has(id)) {
      stats.lateReplies += 1;
    }
  }

  // The native side answers through this global when postMessage returns no promise
  // (WebKit without reply handlers, Android's JavascriptInterface channel).
  function receive(json) {
    handleReply(json);
  }
  win[contract.receiveFunction] = receive;

  function subscribe(listener) {
    if (subscribedListener === listener) return;
    subscribedListener = listener;
    const onMessage = function (event) { handleReply(event && event.data !== undefined ? event.data : event); };
    if (typeof listener.addEventListener === "function") listener.addEventListener("message", onMessage);
    else listener.onmessage = onMessage;
  }

  // Chosen at each call: the native side may inject its objects after this module ran.
  function transport() {
    const handlers = win.webkit && win.webkit.messageHandlers;
    const webkit = handlers && handlers[contract.bridge];
    if (webkit && typeof webkit.postMessage === "function") {
      return { kind: "webkit", post: function (envelope) { return webkit.postMessage(envelope); } };
    }
    const listener = win[contract.bridge];
    if (listener && typeof listener.postMessage === "function") {
      subscribe(listener);
      return { kind: "androidListener", post: function (envelope) { listener.postMessage(JSON.stringify(envelope)); } };
    }
    const channel = win[contract.androidInterface];
    if (channel && typeof channel.postMessage === "function") {
      return { kind: "androidInterface", post: function (envelope) { channel.postMessage(JSON.stringify(envelope)); } };
    }
    return null;
  }

  // What the app on this page takes: the manifest it injected at document start, else the one it
  // answered the capabilities handshake with; null while unknown. An app that predates manifests
  // (it answers the handshake UNKNOWN_ACTION) is trusted to know the contract: `legacy`.
  let learned = null;
  let legacy = false;
  let handshake = null;
  let handshakeId = null;

  function capabilities() {
    const injected = win[contract.capabilitiesGlobal];
    return injected !== null && typeof injected === "object" ? injected : learned;
  }

  // The versions of an action the app takes; null when it gave no manifest (trusted).
  function hostVersions(action) {
    const manifest = capabilities();
    if (manifest === null) return null;
    if ((manifest.bridge !== undefined && manifest.bridge !== contract.bridge) || (manifest.envelope !== undefined && manifest.envelope !== contract.envelope)) return [];
    const versions = own(manifest.actions, action);
    return Array.isArray(versions) ? versions : [];
  }

  function supports(action, version) {
    const entry = own(contract.actions, action);
    const resolved = version === undefined && entry ? entry.latest : version;
    if (!entry || !own(entry.versions, resolved) || transport() === null) return false;
    const versions = hostVersions(action);
    return versions === null || versions.indexOf(resolved) >= 0;
  }

  // Posts an envelope; a request's reply settles it through handleReply (its caller bounds the
  // wait). Throws INTERNAL when the platform refuses the post.
  function post(channel, envelope) {
    let returned;
    try {
      returned = channel.post(envelope);
    } catch (error) {
      throw new BridgeError("INTERNAL", "posting the message failed: " + describe(error));
    }
    // A notification gets no reply; its platform promise is only kept from going unhandled.
    if (channel.kind === "webkit" && returned && typeof returned.then === "function") {
      returned.then(function (reply) { if (envelope.id) handleReply(reply, envelope.id); }, function (error) { if (envelope.id) handleRejectedPost(error, envelope.id); });
    }
  }

  // The handshake: the built-in capabilities request, one in flight at a time. It has no timer of
  // its own: every call waiting on it has its deadline, so a lost handshake never holds a call
  // forever, and the next call asks again.
  function askCapabilities() {
    if (handshake === null) {
      if (pending.delete(handshakeId)) rememberExpired(handshakeId);
      const envelope = { v: contract.envelope, id: newRequestId(cryptoSource), action: "capabilities", version: 1, payload: {} };
      handshakeId = envelope.id;
      handshake = new Promise(function (resolve, reject) {
        pending.set(envelope.id, { resolve: resolve, reject: reject });
        post(transport(), envelope);
      }).then(function (manifest) {
        handshake = null;
        learned = manifest && typeof manifest === "object" ? manifest : null;
        legacy = learned === null;
      }, function (error) {
        handshake = null;
        if (error.code !== "UNKNOWN_ACTION" && error.code !== "UNSUPPORTED_VERSION") throw error;
        legacy = true;
      });
    }
    return handshake;
  }

  function fallback(found, envelope, reason, inApp) {
    if (found.contract.fallback !== "universalLink") {
      // In an app without the action: the app is there, the version is not.
      throw new BridgeError(inApp ? "UNSUPPORTED_VERSION" : "UNAVAILABLE", found.action + " v" + found.version + " is not available ("
        + reason + ") and its contract has no fallback", inApp ? [{ action: found.action, supportedVersions: [] }] : []);
    }
    const opened = linkFromMessage(contract, found.contract, envelope, envelope.campaign || null);
    const url = linkFromMessage(contract, found.contract, envelope, null);
    stats.fallbacks += 1;
    try {
      navigate(opened);
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      throw new BridgeError("NAVIGATION_FAILED", "opening " + opened + " failed: " + describe(error));
    }
    return { route: found.contract.route, url: url, pendingLogin: false, fallback: true, openedURL: opened };
  }

  // offers: [version, payload] pairs, highest first. Sends the highest version the app takes;
  // falls back only when the app has no version of the action at all. Settles once: a result, an
  // error, or TIMEOUT by its deadline, which starts when it first waits on the app (the handshake
  // or the reply).
  function call(action, offers, callOptions) {
    const settings = callOptions || {};
    const notify = settings.notify === true;
    return new Promise(function (resolve, reject) {
      let timer = null;
      let id = null;
      let done = false;
      let chosen = null;
      let envelope;
      let reason = null;

      function finish(error, result) {
        if (done) return;
        done = true;
        clearTimer(timer);
        if (error) reject(error);
        else resolve(result);
      }

      function arm() {
        if (timer !== null) return;
        const found = chosen || offered[0];
        const timeoutMs = typeof settings.timeoutMs === "number" ? settings.timeoutMs : found.contract.timeoutMs;
        timer = setTimer(function () {
          if (done) return;
          stats.timeouts += 1;
          if (pending.delete(id)) rememberExpired(id);
          else handshake = null;
          finish(new BridgeError("TIMEOUT", "no reply to " + action + " v" + found.version + " within " + timeoutMs + " ms"
            + (id === null ? " (nor a capability manifest)" : "")));
        }, timeoutMs);
      }

      function choose() {
        if (done) return;
        try {
          const channel = transport();
          const versions = channel === null ? null : hostVersions(action);
          chosen = offered[0];
          if (channel === null) reason = "outside the app";
          if (versions !== null) {
            chosen = offered.filter(function (entry) { return versions.indexOf(entry.version) >= 0; })[0];
            if (!chosen && versions.length > 0) {
              throw new BridgeError("UNSUPPORTED_VERSION", "this app takes " + action + " v" + versions.join(", v")
                + " only: offer one of those (bridge.offer)", [{ action: action, supportedVersions: versions }]);
            }
            if (!chosen) {
              chosen = offered[0];
              reason = "not in this app";
            }
          }
          if (notify && chosen.contract.requiresId) {
            throw new BridgeError("INVALID_PARAMS", action + " v" + chosen.version + " expects a reply (its schema requires an id): it cannot be a notification",
              [{ instanceLocation: "", keyword: "required", error: "id is required" }]);
          }
          envelope = { v: contract.envelope };
          if (!notify) envelope.id = newRequestId(cryptoSource);
          envelope.action = action;
          envelope.version = chosen.version;
          envelope.payload = chosen.payload;
          if (Object.keys(read.campaign).length > 0) envelope.campaign = Object.assign({}, read.campaign);
          envelope.sentAt = now().toISOString();
          const checking = validators();
          if (checking === null) {
            deliver(channel);
          } else if (typeof checking.then === "function") {
            checking.then(function (module) { check(module, channel); }, function (error) {
              finish(new BridgeError("INTERNAL", "validators.js could not be loaded: " + describe(error)));
            });
          } else {
            check(checking, channel);
          }
        } catch (error) {
          finish(error);
        }
      }

      // With validation on, a message the app would reject fails here, with the app's reply.
      function check(module, channel) {
        const verdict = module.validate(envelope);
        if (!verdict.valid) {
          stats.rejectedBeforeSending += 1;
          const problem = errorForVerdict(verdict, action, envelope.version);
          return finish(new BridgeError(problem.code, problem.message, problem.details));
        }
        try {
          deliver(channel);
        } catch (error) {
          finish(error);
        }
      }

      // Posts the envelope on the page's channel, or takes the fallback.
      function deliver(channel) {
        if (reason !== null) return finish(null, fallback(chosen, envelope, reason, channel !== null));
        if (notify) {
          post(channel, envelope);
          stats.notifications += 1;
          return finish(null, undefined);
        }
        id = envelope.id;
        arm();
        pending.set(id, { resolve: function (result) { finish(null, result); }, reject: finish });
        stats.sent += 1;
        try {
          post(channel, envelope);
        } catch (error) {
          settle(id, error);
        }
      }

      if (offers.length === 0) throw new BridgeError("UNSUPPORTED_VERSION", "no version of " + action + " offered");
      const offered = offers.map(function (offer) {
        const entry = versionEntry(contract, action, offer[0]);
        entry.payload = offer[1] === undefined ? {} : offer[1];
        return entry;
      });
      // A page's own tests: the fake host records each call with the versions the page can send.
      const usage = win[contract.bridge + "Usage"];
      if (typeof usage === "function") usage(action, offered.map(function (entry) { return entry.version; }));
      if (transport() !== null && capabilities() === null && !legacy) {
        arm();
        askCapabilities().then(choose, finish);
      } else {
        choose();
      }
    });
  }

  function send(action, version, payload, callOptions) {
    return call(action, [[version, payload]], callOptions);
  }

  /** payloads: {version: payload}; sends the highest version the app takes. */
  function offer(action, payloads, callOptions) {
    const versions = Object.keys(payloads || {}).map(Number).sort(function (a, b) { return b - a; });
    return call(action, versions.map(function (version) { return [version, payloads[version]]; }), callOptions);
  }

  const bridge = {
    /** Sends any action and version of the contract; the typed functions below call this. */
    send: send,
    offer: offer,
    supports: supports,
    isSupported: supports,
    /** The capability manifest the app injected, or answered the handshake with; null before that. */
    capabilities: capabilities,
    /** The campaign fields this page sends with every message. */
    campaign: read.campaign,
    /** Campaign values found on the page but dropped because they break the campaign schema. */
    campaignWarnings: read.warnings,
    stats: stats,
    /** The Universal Link an action would open outside the app, with this page's campaign. */
    linkFor: function (action, payload, linkOptions) {
      const version = linkOptions && linkOptions.version;
      return buildUniversalLinkFor(contract, action, version, payload, linkOptions && linkOptions.campaign === false ? null : read.campaign);
    },
    /** Rejects pending calls with UNAVAILABLE and removes the receive global. */
    dispose: function () {
      pending.forEach(function (call, id) {
        settle(id, new BridgeError("UNAVAILABLE", "the bridge was disposed"));
      });
      if (win[contract.receiveFunction] === receive) delete win[contract.receiveFunction];
    }
  };
  Object.keys(contract.actions).forEach(function (action) {
    const entry = contract.actions[action];
    bridge[entry.method] = function (payload, callOptions) { return send(action, entry.latest, payload, callOptions); };
    Object.keys(entry.versions).forEach(function (version) {
      bridge[entry.method + "V" + version] = function (payload, callOptions) { return send(action, Number(version), payload, callOptions); };
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
    createBridge: function (options) {
      const settings = Object.assign({ loadValidators: loadValidators }, options);
      return createBridgeFor(settings.contract || contract, settings);
    },
    buildUniversalLink: function (action, version, payload, campaign, table) {
      return buildUniversalLinkFor(table || contract, action, version, payload, campaign);
    }
  };
}
