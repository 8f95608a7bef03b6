// link-rules.js: the link rules the web side shares with the app, step for step and word for word:
// percent-encoding, the parameter types of routes.json, the contract's campaign rules, and what
// is noticed about a value as people type and paste it (whitespace, decomposed Unicode, a "+", a
// value encoded twice). The Swift side is DeeplinkRouting (PercentEncoding, ParameterRules,
// CampaignRules, ScalarPattern, LinkText, LinkValueTidying, DeeplinkURLBuilder); the shared table
// Tests/shared/hostile-link-values.json holds both to the same answers.
//
// Used by the shim (bridge-runtime.js reads the page's campaign with it) and by link-builder.js,
// the contract catalog's link builder. The catalog loads both files as classic scripts, so this
// one imports nothing and every export is a plain top-level declaration. Plain ES2017.

// ---------------------------------------------------------------------------------------------
// Encoding

/** Percent-encodes once, keeping only RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~). */
export function encodeComponent(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
    return "%" + c.charCodeAt(0).toString(16).toUpperCase();
  });
}

/**
 * True when a decoded value was most likely encoded twice: it still holds %XX escapes, and decoding
 * those once more gives valid UTF-8 that differs. "최대30%DC쿠폰" is everyday copy (0xDC before a
 * Korean syllable is no UTF-8), not an escape.
 */
export function looksEncoded(text) {
  // decodeURIComponent refuses an escape that is no UTF-8; a "%" without two hex digits is text.
  try {
    return decodeURIComponent(text.replace(/%(?![\da-f]{2})/gi, "%25")) !== text;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Parameter types of routes.json, as DeeplinkRouting's ParameterRules checks them.

export const PARAMETER_RULES = {
  string: function (text) { return text.length > 0; },
  int: function (text) { return /^[0-9]{1,19}$/.test(text) && (text.length < 19 || text <= "9223372036854775807"); },
  uuid: function (text) { return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(text); },
  slug: function (text) { return /^[a-z0-9-]{1,64}$/.test(text); },
  latitude: function (text) { return /^-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,400})?$/.test(text) && Math.abs(Number(text)) <= 90; },
  longitude: function (text) { return /^-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,400})?$/.test(text) && Math.abs(Number(text)) <= 180; }
};

// ---------------------------------------------------------------------------------------------
// Text as people type and paste it (LinkText)

// What String.prototype.trim removes, listed so both sides use one fixed list.
const SURROUNDING_WHITESPACE = [
  0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
  0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF
];

function isSurroundingWhitespace(codePoint) {
  return SURROUNDING_WHITESPACE.indexOf(codePoint) >= 0;
}

function isControl(codePoint) {
  return codePoint < 0x20 || (codePoint >= 0x7F && codePoint <= 0x9F);
}

/** `text` without surrounding whitespace: {text, removed}. */
export function trimmed(text) {
  const points = Array.from(text);
  let first = 0;
  let last = points.length - 1;
  while (first <= last && isSurroundingWhitespace(points[first].codePointAt(0))) first += 1;
  while (last >= first && isSurroundingWhitespace(points[last].codePointAt(0))) last -= 1;
  const kept = points.slice(first, last + 1).join("");
  return { text: kept, removed: kept.length !== text.length };
}

/** The composed form (NFC): decomposed Hangul and composed Hangul are different bytes in a URL. */
export function composed(text) {
  return typeof text.normalize === "function" ? text.normalize("NFC") : text;
}

/** The first C0 or C1 control character or DEL, as a code point, or -1. */
export function firstControl(text) {
  for (const character of text) {
    const point = character.codePointAt(0);
    if (isControl(point)) return point;
  }
  return -1;
}

/** "U+0009". */
export function codePoint(value) {
  const hex = value.toString(16).toUpperCase();
  return "U+" + "0000".slice(Math.min(4, hex.length)) + hex;
}

/** One character of a value, for "character 5 is" messages. */
export function described(value) {
  return isControl(value) ? codePoint(value) : "\"" + String.fromCodePoint(value) + "\" (" + codePoint(value) + ")";
}

/** A value as messages quote it: controls as <U+0009>, a long value cut to 32 characters and "…". */
export function shown(text) {
  const points = Array.from(text);
  let out = "";
  for (let index = 0; index < points.length; index++) {
    if (index === 32 && points.length > 40) return "\"" + out + "…\"";
    const point = points[index].codePointAt(0);
    out += isControl(point) ? "<" + codePoint(point) + ">" : points[index];
  }
  return "\"" + out + "\"";
}

// ---------------------------------------------------------------------------------------------
// Campaign rules (CampaignRules, CampaignFieldRule, ScalarPattern): data from the contract's
// campaign schema, written into the generated tables by bridgectl.

function pieceContains(piece, point) {
  for (let index = 0; index < piece.ranges.length; index++) {
    if (point >= piece.ranges[index][0] && point <= piece.ranges[index][1]) return true;
  }
  return false;
}

// Every state reached from `states` by leaving a run that has its minimum ([piece, count] pairs).
function closure(pieces, states) {
  const seen = {};
  const result = [];
  const pending = states.slice();
  while (pending.length > 0) {
    const state = pending.pop();
    const key = state[0] + ":" + state[1];
    if (seen[key]) continue;
    seen[key] = true;
    result.push(state);
    if (state[0] < pieces.length && state[1] >= pieces[state[0]].min) pending.push([state[0] + 1, 0]);
  }
  return result;
}

// Why a value's code points do not match the pattern, or null (ScalarPattern.mismatch).
function patternMismatch(pieces, points) {
  let states = closure(pieces, [[0, 0]]);
  for (let offset = 0; offset < points.length; offset++) {
    const next = [];
    states.forEach(function (state) {
      if (state[0] >= pieces.length) return;
      const piece = pieces[state[0]];
      if (!pieceContains(piece, points[offset]) || (piece.max !== null && state[1] >= piece.max)) return;
      next.push([state[0], piece.max === null ? Math.min(state[1] + 1, piece.min) : state[1] + 1]);
    });
    if (next.length === 0) {
      const live = [];
      states.forEach(function (state) {
        if (state[0] < pieces.length && live.indexOf(state[0]) < 0) live.push(state[0]);
      });
      live.sort(function (a, b) { return a - b; });
      return "character " + (offset + 1) + " is " + described(points[offset]) + ", which is not allowed there (allowed: " +
        live.map(function (index) { return pieces[index].allowed; }).join("; or ") + ")";
    }
    states = closure(pieces, next);
  }
  return states.some(function (state) { return state[0] === pieces.length; }) ? null : "it ends too early";
}

function fieldRule(rules, name) {
  for (let index = 0; index < rules.fields.length; index++) {
    if (rules.fields[index].name === name) return rules.fields[index];
  }
  return null;
}

/** Why `value` cannot be the campaign field `name`: {rule, problem}, or null when it can. */
export function campaignViolation(rules, name, value) {
  const rule = fieldRule(rules, name);
  if (rule === null) {
    if (!rules.closed) return null;
    return {
      rule: null,
      problem: name + " is not a campaign field of the contract (fields: " + rules.fields.map(function (field) { return field.name; }).join(", ") + ")"
    };
  }
  const points = Array.from(value).map(function (character) { return character.codePointAt(0); });
  let problem = null;
  if (rule.maxLength !== null && points.length > rule.maxLength) {
    problem = "it is " + points.length + " characters long, at most " + rule.maxLength + " allowed";
  } else if (points.length < rule.minLength) {
    problem = "it is " + points.length + " character" + (points.length === 1 ? "" : "s") + " long, at least " + rule.minLength + " needed";
  } else if (rule.pattern !== null) {
    problem = patternMismatch(rule.pattern, points);
  }
  return problem === null ? null : { rule: rule.summary, problem: problem };
}

/** `"2025 Q3" breaks the campaign rule (RULE): PROBLEM`, for a value that is refused. */
export function refusal(violation, value) {
  if (violation.rule === null) return shown(value) + ": " + violation.problem;
  return shown(value) + " breaks the campaign rule (" + violation.rule + "): " + violation.problem;
}

/** The same, for a value read from a link and dropped. */
export function drop(violation, value) {
  if (violation.rule === null) return shown(value) + " dropped: " + violation.problem;
  return shown(value) + " dropped, it breaks the campaign rule (" + violation.rule + "): " + violation.problem;
}

/** Query names that belong to the campaign rather than to the destination. */
export function isCampaignKey(name) {
  return name === "campaign_id" || name === "group_id" || name === "variant" || name.indexOf("utm_") === 0;
}

// ---------------------------------------------------------------------------------------------
// The words of the warnings (LinkValueTidying)

export const WHITESPACE_REMOVED = "surrounding whitespace removed";
export const COMPOSED_FORM = "decomposed Unicode (NFD) written in composed form (NFC), so it matches the same text typed elsewhere";
const LITERAL_PLUS = "\"+\" is read as a literal plus; if a space was meant, use %20";

export function controlWarning(point) {
  return "contains a control character (" + codePoint(point) + ")";
}

export function plainText(value) {
  try {
    const decoded = decodeURIComponent(value);
    return decoded !== value ? decoded : null;
  } catch (error) {
    return null;
  }
}


function doubleEncodedWarning(value) {
  return shown(value) + " still looks percent-encoded after decoding; the link was probably encoded twice";
}

// A value read from a link (decoded): composed, and warned about for a raw "+", a control
// character and a value that still looks encoded.
function readValue(decoded, field, hadPlus, warnings) {
  if (hadPlus) warnings.push({ field: field, value: decoded, reason: shown(decoded) + ": " + LITERAL_PLUS });
  let value = decoded;
  const nfc = composed(value);
  if (nfc !== value) {
    value = nfc;
    warnings.push({ field: field, value: decoded, reason: COMPOSED_FORM });
  }
  const control = firstControl(value);
  if (control >= 0) warnings.push({ field: field, value: value, reason: controlWarning(control) });
  if (looksEncoded(value)) warnings.push({ field: field, value: value, reason: doubleEncodedWarning(value) });
  return value;
}

/**
 * The campaign of a link, read as the app reads the link that opened a page: surrounding
 * whitespace removed, each query item split on its first "=" and decoded ("+" stays a plus, with a
 * warning), the first non-empty value of a field read, composed (NFC) and checked against the
 * rules; a value that breaks them is dropped, never shortened. A bad escape anywhere in the query
 * makes the whole link unreadable (the app keeps no campaign then, and neither does this).
 * Returns {campaign, warnings: [{field, value, reason}]}; field is the campaign field, or "url".
 */
export function readCampaignFromURL(rules, href) {
  const warnings = [];
  const trim = trimmed(href);
  if (trim.removed) warnings.push({ field: "url", value: href, reason: WHITESPACE_REMOVED });
  let rest = trim.text;
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const start = rest.indexOf("?");
  const items = [];
  if (start >= 0) {
    const pairs = rest.slice(start + 1).split("&");
    for (let index = 0; index < pairs.length; index++) {
      const pair = pairs[index];
      if (pair === "") continue;
      const equals = pair.indexOf("=");
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      const rawValue = equals < 0 ? "" : pair.slice(equals + 1);
      let name;
      let value;
      try {
        name = decodeURIComponent(rawName);
      } catch (error) {
        return unreadable("query: invalid percent-encoding in \"" + rawName + "\"");
      }
      try {
        value = decodeURIComponent(rawValue);
      } catch (error) {
        return unreadable("query." + name + ": invalid percent-encoding in \"" + rawValue + "\"");
      }
      items.push([name, value, rawValue.indexOf("+") >= 0]);
    }
  }
  function unreadable(message) {
    return { campaign: Object.freeze({}), warnings: Object.freeze([{ field: "url", value: href, reason: message }]) };
  }
  const found = {};
  const seen = {};
  items.forEach(function (item) {
    const name = item[0];
    if (name === "" || !isCampaignKey(name) || item[1] === "") return;
    if (Object.prototype.hasOwnProperty.call(seen, name)) {
      warnings.push({ field: name, value: item[1], reason: "repeated; the first value is kept" });
      return;
    }
    seen[name] = true;
    const value = readValue(item[1], name, item[2], warnings);
    const violation = campaignViolation(rules, name, value);
    if (violation === null) found[name] = value;
    else warnings.push({ field: name, value: value, reason: drop(violation, value) });
  });
  return { campaign: Object.freeze(orderedCampaign(rules, found)), warnings: Object.freeze(warnings) };
}

/**
 * A campaign given as an object (instead of a page URL): each value composed and checked the
 * same way; a value that is not a string or breaks the rules is dropped, with a warning.
 */
export function readCampaignFromObject(rules, given) {
  const warnings = [];
  const found = {};
  Object.keys(given).forEach(function (name) {
    const raw = given[name];
    if (raw === undefined || raw === null || raw === "") return;
    if (typeof raw !== "string") {
      warnings.push({ field: name, value: raw, reason: "not a string" });
      return;
    }
    const value = readValue(raw, name, false, warnings);
    const violation = isCampaignKey(name) ? campaignViolation(rules, name, value)
      : { rule: null, problem: name + " is not a campaign field of the contract (fields: " + rules.fields.map(function (field) { return field.name; }).join(", ") + ")" };
    if (violation === null) found[name] = value;
    else warnings.push({ field: name, value: value, reason: drop(violation, value) });
  });
  return { campaign: Object.freeze(orderedCampaign(rules, found)), warnings: Object.freeze(warnings) };
}

export const CAMPAIGN_ORDER = ["campaign_id", "group_id", "variant", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"];

// The shared URL order: campaign_id, group_id, variant, the standard utm_*, then others by name.
function orderedCampaign(rules, found) {
  const ordered = {};
  CAMPAIGN_ORDER.forEach(function (name) {
    if (Object.prototype.hasOwnProperty.call(found, name)) ordered[name] = found[name];
  });
  Object.keys(found).sort().forEach(function (name) {
    if (!Object.prototype.hasOwnProperty.call(ordered, name)) ordered[name] = found[name];
  });
  return ordered;
}

