// schema-runtime.js: the helpers the generated validators.js calls. The generated code holds
// what the schemas decide (one function per schema, its keywords as plain tests); the rules
// that are the same for every schema live here, written to agree with the app's C checker:
// numbers compare by value (1 and 1.0 are one integer), string lengths count code points,
// "format" checks follow RFC 3339 as the checker does. No eval, no new Function, no
// dependencies: it runs under a strict Content Security Policy.

const hasOwnProperty = Object.prototype.hasOwnProperty;

export function hasOwn(object, key) {
  return hasOwnProperty.call(object, key);
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON Schema type name of a value ("integer" for a whole number, as the checker says). */
export function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** "/" and the key as a JSON Pointer token (RFC 6901). */
export function pointerToken(key) {
  return "/" + String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unicode code points, not UTF-16 units: "🚚" is one character, as for the app. */
export function codePointLength(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** JSON equality: numbers by value, objects by members whatever their order. */
export function equal(left, right) {
  if (left === right) return true;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!equal(left[i], right[i])) return false;
    return true;
  }
  if (isObject(left) && isObject(right)) {
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    for (let i = 0; i < keys.length; i++) {
      if (!hasOwn(right, keys[i]) || !equal(left[keys[i]], right[keys[i]])) return false;
    }
    return true;
  }
  return false;
}

/** Whether `list` holds a value equal to `value`. */
export function includes(list, value) {
  for (let i = 0; i < list.length; i++) if (equal(list[i], value)) return true;
  return false;
}

/** The first pair of equal items, [i, k], or null. */
export function equalPair(items) {
  for (let i = 0; i < items.length; i++) {
    for (let k = i + 1; k < items.length; k++) if (equal(items[i], items[k])) return [i, k];
  }
  return null;
}

const INT_LIMIT = 9223372036854775808; // 2^63: the checker's whole numbers are 64-bit

/**
 * multipleOf as the checker decides it: exact for whole numbers; otherwise the quotient must be
 * whole up to the rounding noise of the division (a divisor like 0.01 has no exact binary form).
 */
export function isMultipleOf(value, divisor) {
  if (Number.isInteger(value) && Number.isInteger(divisor) && Math.abs(value) < INT_LIMIT && Math.abs(divisor) < INT_LIMIT) {
    if (divisor === 0) return false;
    return divisor === -1 || value % divisor === 0;
  }
  if (divisor === 0) return false;
  const quotient = value / divisor;
  if (!isFinite(quotient)) {
    const inverse = 1 / divisor;
    return isFinite(value) && Math.floor(value) === value && Math.floor(inverse) === inverse;
  }
  const nearest = Math.round(quotient);
  if (nearest === quotient) return true;
  return Math.abs(quotient - nearest) <= Math.max(Math.abs(quotient) * 1e-9, 1e-9);
}

/** Records one error as the app's checker reports it ("basic" output) and returns false. */
export function report(errors, instanceLocation, keywordLocation, absoluteKeywordLocation, keyword, error) {
  errors.push({
    instanceLocation: instanceLocation,
    keywordLocation: keywordLocation,
    absoluteKeywordLocation: absoluteKeywordLocation,
    keyword: keyword,
    error: error
  });
  return false;
}

/** A value quoted for an error sentence. */
export function quote(value) {
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Formats: checked only when the manifest asks for assertFormat (otherwise an annotation).

function digits(text, start, count) {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i);
    if (!(code >= 48 && code <= 57)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function isDigit(character) {
  return character >= "0" && character <= "9";
}

function daysInMonth(year, month) {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function isDate(text) {
  if (text.length !== 10 || text[4] !== "-" || text[7] !== "-") return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

// HH:MM:SS[.fraction] then Z or +HH:MM / -HH:MM; 23:59:60 UTC only for a leap second.
function isTime(text) {
  const n = text.length;
  if (n < 9 || text[2] !== ":" || text[5] !== ":") return false;
  const hour = digits(text, 0, 2);
  const minute = digits(text, 3, 2);
  const second = digits(text, 6, 2);
  if (hour < 0 || minute < 0 || second < 0 || hour > 23 || minute > 59 || second > 60) return false;
  let i = 8;
  if (text[i] === ".") {
    const start = ++i;
    while (i < n && isDigit(text[i])) i++;
    if (i === start) return false;
  }
  if (i >= n) return false;
  let offset = 0;
  if (text[i] === "Z" || text[i] === "z") {
    i++;
  } else if (text[i] === "+" || text[i] === "-") {
    if (n - i !== 6 || text[i + 3] !== ":") return false;
    const offsetHour = digits(text, i + 1, 2);
    const offsetMinute = digits(text, i + 4, 2);
    if (offsetHour < 0 || offsetMinute < 0 || offsetHour > 23 || offsetMinute > 59) return false;
    offset = (offsetHour * 60 + offsetMinute) * (text[i] === "+" ? 1 : -1);
    i += 6;
  } else {
    return false;
  }
  if (i !== n) return false;
  if (second === 60) {
    const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
    if (utc !== 23 * 60 + 59) return false;
  }
  return true;
}

// One part of a duration: units in this order, each used once, in a contiguous run.
function durationUnits(text, state, order) {
  let last = -1;
  let count = 0;
  while (state.i < text.length && text[state.i] !== "T") {
    const start = state.i;
    while (state.i < text.length && isDigit(text[state.i])) state.i++;
    if (state.i === start || state.i >= text.length) return -1;
    const unit = order.indexOf(text[state.i]);
    if (unit < 0 || (last >= 0 && unit !== last + 1)) return -1;
    last = unit;
    state.i++;
    count++;
  }
  return count;
}

function isDuration(text) {
  const n = text.length;
  if (n < 2 || text[0] !== "P") return false;
  if (text[n - 1] === "W") {
    for (let i = 1; i < n - 1; i++) if (!isDigit(text[i])) return false;
    return n > 2;
  }
  const state = { i: 1 };
  const dateUnits = durationUnits(text, state, "YMD");
  if (dateUnits < 0) return false;
  let timeUnits = 0;
  if (state.i < n) {
    state.i++;
    timeUnits = durationUnits(text, state, "HMS");
    if (timeUnits <= 0 || state.i !== n) return false;
  }
  return dateUnits + timeUnits > 0;
}

function isJSONPointer(text) {
  if (text === "") return true;
  if (text[0] !== "/") return false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "~" && text[i + 1] !== "0" && text[i + 1] !== "1") return false;
  }
  return true;
}

function isRelativeJSONPointer(text) {
  let i = 0;
  while (i < text.length && isDigit(text[i])) i++;
  if (i === 0 || (text[0] === "0" && i > 1)) return false;
  if (text[i] === "#") return i + 1 === text.length;
  return isJSONPointer(text.slice(i));
}

/** The formats the generated validators can assert; bridgectl lint names any other one in use. */
export const FORMATS = Object.freeze({
  "date-time": function (text) {
    return text.length >= 11 && (text[10] === "T" || text[10] === "t") && isDate(text.slice(0, 10)) && isTime(text.slice(11));
  },
  date: isDate,
  time: isTime,
  duration: isDuration,
  uuid: function (text) {
    return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(text);
  },
  "json-pointer": isJSONPointer,
  "relative-json-pointer": isRelativeJSONPointer
});

// ---------------------------------------------------------------------------------------------
// Results, and the app's order of checks for a whole message.

/** A compiled schema's verdict on a whole message: {valid, errors}. */
export function checkWhole(check, message) {
  const errors = [];
  return check(message, "", "", errors) ? { valid: true, errors: [] } : { valid: false, errors: errors };
}

function invalid(code, sentence, errors) {
  return { valid: false, code: code, message: sentence, errors: errors };
}

/**
 * The app's verdict: the contract picked by the message's action and version decides a valid
 * message; for one that fails, the envelope is checked first (INVALID_MESSAGE), then the action
 * (UNKNOWN_ACTION) and version (UNSUPPORTED_VERSION) are looked up, then the action's schema
 * gives the errors (INVALID_PARAMS). `actions` maps action -> version -> compiled schema.
 */
export function validateMessage(envelope, actions, message) {
  const action = isObject(message) && typeof message.action === "string" ? message.action : "";
  const version = isObject(message) && Number.isInteger(message.version) ? message.version : 0;
  const versions = hasOwn(actions, action) ? actions[action] : null;
  const check = versions !== null && hasOwn(versions, String(version)) ? versions[String(version)] : null;
  if (check !== null && check(message, "", "", null)) return { valid: true, errors: [] };
  const errors = [];
  if (!envelope(message, "", "", errors)) return invalid("INVALID_MESSAGE", "the envelope does not match the contract", errors);
  if (versions === null) {
    return invalid("UNKNOWN_ACTION", "unknown action " + quote(action) + " (known: " + Object.keys(actions).join(", ") + ")", []);
  }
  if (check === null) {
    return invalid("UNSUPPORTED_VERSION", action + " has no version " + version + " (supported: " + Object.keys(versions).join(", ") + ")", []);
  }
  return check(message, "", "", errors)
    ? { valid: true, errors: [] }
    : invalid("INVALID_PARAMS", "does not match " + action + " v" + version, errors);
}
