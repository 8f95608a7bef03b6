// bridge-runtime.js: the hand-written part of the web bridge shim. It knows no contract: every
// function takes the contract table (the generated bridge.js holds the one built from
// contracts/ and passes it in), so it is tested on its own with hand-made tables.
// Plain ES2017, no dependencies: no optional chaining, no object spread.

/** The closed set of BridgeError codes (the envelope's reply codes). */
export const ERROR_CODES = Object.freeze([
  "INVALID_MESSAGE", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION", "INVALID_PARAMS", "ORIGIN_REJECTED",
  "DUPLICATE", "NAVIGATION_FAILED", "TIMEOUT", "UNAVAILABLE", "INTERNAL"
]);

/**
 * Why a call did not succeed: the app's error reply, TIMEOUT, or a problem found before sending.
 * `details` lists JSON Schema errors ({instanceLocation, keywordLocation, error}) when there are any.
 */
export class BridgeError extends Error {
  constructor(code, message, details) {
    const known = ERROR_CODES.indexOf(code) >= 0;
    super(known ? message || code : "(unknown code " + String(code) + ") " + (message || ""));
    this.name = "BridgeError";
    this.code = known ? code : "INTERNAL";
    this.details = Array.isArray(details) ? details : [];
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

/** Percent-encodes once, keeping only RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~). */
export function encodeComponent(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
    return "%" + c.charCodeAt(0).toString(16).toUpperCase();
  });
}

// The parameter types of routes.json, checked as DeeplinkRouting's ParameterRules checks them.
const PARAMETER_RULES = {
  string: function (text) { return text.length > 0; },
  int: function (text) { return /^[0-9]{1,19}$/.test(text) && (text.length < 19 || text <= "9223372036854775807"); },
  uuid: function (text) { return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(text); },
  slug: function (text) { return /^[a-z0-9-]{1,64}$/.test(text); },
  latitude: function (text) { return /^-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,400})?$/.test(text) && Math.abs(Number(text)) <= 90; },
  longitude: function (text) { return /^-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,400})?$/.test(text) && Math.abs(Number(text)) <= 180; }
};

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
    contract.campaignFields.forEach(function (field) {
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
    throw new BridgeError("INTERNAL", "createBridge: validate: true needs bridge.js to load validators.js; pass the validators module (validate: validators) instead");
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

// Query items of a URL as the Swift side reads them: split on & and the first =, then
// percent-decode; "+" stays a literal plus (never a space), the first non-empty value wins.
function queryItems(href) {
  const items = [];
  const start = href.indexOf("?");
  if (start < 0) return items;
  let query = href.slice(start + 1);
  const hash = query.indexOf("#");
  if (hash >= 0) query = query.slice(0, hash);
  query.split("&").forEach(function (pair) {
    if (pair === "") return;
    const equals = pair.indexOf("=");
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const rawValue = equals < 0 ? "" : pair.slice(equals + 1);
    let name;
    let value;
    try {
      name = decodeURIComponent(rawName);
    } catch (error) {
      return;
    }
    try {
      value = decodeURIComponent(rawValue);
    } catch (error) {
      value = null;
    }
    items.push([name, value]);
  });
  return items;
}

function codePointLength(text) {
  let count = 0;
  for (const character of text) count += character.length > 0 ? 1 : 0;
  return count;
}

// Why a campaign value breaks the campaign schema, or null when it fits. A value that does not
// fit is dropped, never trimmed: a cut-off campaign_id would credit the wrong campaign.
function campaignProblem(field, value, patterns) {
  const length = codePointLength(value);
  if (field.minLength !== null && length < field.minLength) return "shorter than " + field.minLength + " characters";
  if (field.maxLength !== null && length > field.maxLength) return "longer than " + field.maxLength + " characters";
  if (field.pattern !== null && !patterns[field.name].test(value)) return "does not match " + field.pattern;
  return null;
}

function readCampaign(contract, source) {
  const patterns = {};
  contract.campaignFields.forEach(function (field) {
    if (field.pattern !== null) patterns[field.name] = new RegExp(field.pattern, "u");
  });
  const given = Object.create(null);
  const warnings = [];
  if (typeof source === "string") {
    queryItems(source).forEach(function (item) {
      if (item[1] === null) {
        warnings.push({ field: item[0], value: null, reason: "bad percent-encoding" });
      } else if (item[1] !== "" && !(item[0] in given)) {
        given[item[0]] = item[1];
      }
    });
  } else if (source && typeof source === "object") {
    Object.keys(source).forEach(function (name) {
      if (source[name] !== undefined && source[name] !== null && source[name] !== "") given[name] = source[name];
    });
  }
  const campaign = {};
  const known = contract.campaignFields.map(function (field) { return field.name; });
  contract.campaignFields.forEach(function (field) {
    if (!(field.name in given)) return;
    const value = given[field.name];
    const problem = typeof value === "string" ? campaignProblem(field, value, patterns) : "not a string";
    if (problem === null) campaign[field.name] = value;
    else warnings.push({ field: field.name, value: value, reason: problem });
  });
  if (source && typeof source === "object") {
    Object.keys(given).forEach(function (name) {
      if (known.indexOf(name) < 0) warnings.push({ field: name, value: given[name], reason: "not a campaign field" });
    });
  }
  return { campaign: Object.freeze(campaign), warnings: Object.freeze(warnings) };
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
    const text = error && typeof error.message === "string" ? error.message : String(error);
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

  function capabilities() {
    const injected = win[contract.capabilitiesGlobal];
    return injected !== null && typeof injected === "object" ? injected : null;
  }

  // A host that injects no capability manifest (one that predates it) is trusted to know the
  // contract; it still answers UNKNOWN_ACTION or UNSUPPORTED_VERSION, and the timeout bounds it.
  function hostSupports(action, version) {
    const injected = capabilities();
    if (injected === null) return true;
    if (injected.bridge !== undefined && injected.bridge !== contract.bridge) return false;
    if (injected.envelope !== undefined && injected.envelope !== contract.envelope) return false;
    const versions = own(injected.actions, action);
    return Array.isArray(versions) && versions.indexOf(version) >= 0;
  }

  function isSupported(action, version) {
    const entry = own(contract.actions, action);
    if (!entry) return false;
    const resolved = version === undefined ? entry.latest : version;
    if (!own(entry.versions, resolved)) return false;
    return transport() !== null && hostSupports(action, resolved);
  }

  function fallback(found, envelope, reason) {
    if (found.contract.fallback !== "universalLink") {
      throw new BridgeError("UNAVAILABLE", found.action + " v" + found.version + " is not available (" + reason + ") and its contract has no fallback");
    }
    const opened = linkFromMessage(contract, found.contract, envelope, envelope.campaign || null);
    const url = linkFromMessage(contract, found.contract, envelope, null);
    stats.fallbacks += 1;
    try {
      navigate(opened);
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      throw new BridgeError("NAVIGATION_FAILED", "opening " + opened + " failed: " + (error && error.message ? error.message : String(error)));
    }
    return { route: found.contract.route, url: url, pendingLogin: false, fallback: true, openedURL: opened };
  }

  function send(action, version, payload, callOptions) {
    const callSettings = callOptions || {};
    return new Promise(function (resolve, reject) {
      const found = versionEntry(contract, action, version);
      const notify = callSettings.notify === true;
      if (notify && found.contract.requiresId) {
        throw new BridgeError("INVALID_PARAMS", action + " v" + found.version + " expects a reply, so it cannot be sent as a notification (its schema requires an id)",
          [{ instanceLocation: "", keyword: "required", error: "id is required" }]);
      }
      const envelope = { v: contract.envelope };
      if (!notify) envelope.id = newRequestId(cryptoSource);
      envelope.action = action;
      envelope.version = found.version;
      envelope.payload = payload === undefined ? {} : payload;
      if (Object.keys(read.campaign).length > 0) envelope.campaign = Object.assign({}, read.campaign);
      envelope.sentAt = now().toISOString();

      const call = { found: found, envelope: envelope, notify: notify, settings: callSettings, resolve: resolve, reject: reject };
      const checking = validators();
      if (checking === null) {
        deliver(call);
      } else if (typeof checking.then === "function") {
        checking.then(function (module) { checkThenDeliver(module, call); }, function (error) {
          reject(new BridgeError("INTERNAL", "validators.js could not be loaded: " + (error && error.message ? error.message : String(error))));
        });
      } else {
        checkThenDeliver(checking, call);
      }
    });
  }

  // With validation on, a message the app would reject fails here, with the app's reply.
  function checkThenDeliver(module, call) {
    const verdict = module.validate(call.envelope);
    if (verdict.valid) {
      try {
        deliver(call);
      } catch (error) {
        call.reject(error);
      }
      return;
    }
    stats.rejectedBeforeSending += 1;
    const problem = errorForVerdict(verdict, call.envelope.action, call.envelope.version);
    call.reject(new BridgeError(problem.code, problem.message, problem.details));
  }

  // Posts the envelope on the page's channel, or takes the fallback. Throws a BridgeError for a
  // call that fails before anything is posted.
  function deliver(call) {
    const found = call.found;
    const envelope = call.envelope;
    const resolve = call.resolve;
    const reject = call.reject;
    const channel = transport();
    if (channel === null) {
      resolve(fallback(found, envelope, "no native bridge on this page"));
      return;
    }
    if (!hostSupports(envelope.action, found.version)) {
      resolve(fallback(found, envelope, "the app does not support it"));
      return;
    }
    if (call.notify) {
      let returned;
      try {
        returned = channel.post(envelope);
      } catch (error) {
        throw new BridgeError("INTERNAL", "posting the notification failed: " + (error && error.message ? error.message : String(error)));
      }
      // A notification gets no reply; a platform promise is only kept from going unhandled.
      if (returned && typeof returned.then === "function") returned.then(null, function () {});
      stats.notifications += 1;
      resolve(undefined);
      return;
    }
    const timeoutMs = typeof call.settings.timeoutMs === "number" ? call.settings.timeoutMs : found.contract.timeoutMs;
    const waiting = { resolve: resolve, reject: reject, timer: null };
    pending.set(envelope.id, waiting);
    waiting.timer = setTimer(function () {
      if (pending.get(envelope.id) !== waiting) return;
      pending.delete(envelope.id);
      rememberExpired(envelope.id);
      stats.timeouts += 1;
      reject(new BridgeError("TIMEOUT", "no reply to " + envelope.action + " v" + found.version + " within " + timeoutMs + " ms"));
    }, timeoutMs);
    stats.sent += 1;
    let returned;
    try {
      returned = channel.post(envelope);
    } catch (error) {
      settle(envelope.id, new BridgeError("INTERNAL", "posting the message failed: " + (error && error.message ? error.message : String(error))));
      return;
    }
    if (channel.kind === "webkit" && returned && typeof returned.then === "function") {
      returned.then(function (reply) { handleReply(reply, envelope.id); }, function (error) { handleRejectedPost(error, envelope.id); });
    }
  }

  const bridge = {
    /** Sends any action and version of the contract; the typed functions below call this. */
    send: send,
    isSupported: isSupported,
    /** The capability manifest the app injected, or null. */
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
