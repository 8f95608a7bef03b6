// raw-request-id.js: the request id of a message text the app cannot read, found by the rule of
// the Swift host (Sources/BridgeHost/RawRequestID.swift), for the fake host's INVALID_MESSAGE
// reply. A tolerant walk over the top-level object only: strings are skipped whatever they hold,
// nested objects and arrays by depth, anything else is stepped over. The id is the top-level
// member "id" (its key decoded, so "\u0069d" counts) when it appears exactly once and its value
// is a well-formed JSON string (valid escapes, no control character, no lone surrogate) of 1 to
// 128 code points. Text that ends early gives the id seen so far. Otherwise null. Plain ES2017.

import { loneSurrogateRefusal } from "./surrogates.js";

const SPACE = " \t\n\r";

// The index of the quote that closes the string opened at `start` (a backslash escapes the
// character after it), or -1 when the text ends first.
function stringEnd(text, start) {
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] === "\\") at += 1;
    else if (text[at] === "\"") return at;
  }
  return -1;
}

// The value of a JSON string given with its quotes, or null when it is not well-formed.
function stringValue(quoted) {
  try {
    const value = JSON.parse(quoted);
    return loneSurrogateRefusal(value) === null ? value : null;
  } catch (error) {
    return null;
  }
}

// The index after the object or array that starts at `start`, or -1 when the text ends first.
function containerEnd(text, start) {
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const c = text[at];
    if (c === "\"") {
      at = stringEnd(text, at);
      if (at < 0) return -1;
    } else if (c === "{" || c === "[") {
      depth += 1;
    } else if ((c === "}" || c === "]") && --depth === 0) {
      return at + 1;
    }
  }
  return -1;
}

/** The request id `text` shows at its top level, by the host's rule, or null. */
export function rawRequestId(text) {
  if (typeof text !== "string") return null;
  let at = 0;
  while (at < text.length && SPACE.indexOf(text[at]) >= 0) at += 1;
  if (text[at] !== "{") return null;
  const walk = { expectingKey: true, valueIsId: false, idKeys: 0, id: null };
  for (at += 1; at >= 0 && at < text.length && text[at] !== "}";) at = step(text, at, walk);
  const id = walk.idKeys === 1 ? walk.id : null;
  return typeof id === "string" && id !== "" && Array.from(id).length <= 128 ? id : null;
}

// Takes the top-level token at `at`; the index after it, or -1 where the text stops making sense.
function step(text, at, walk) {
  const c = text[at];
  if (c === ",") {
    walk.expectingKey = true;
    walk.valueIsId = false;
  } else if (c === "\"") {
    const end = stringEnd(text, at);
    if (end < 0) return -1;
    // A key (is it "id"?) or a value (the id's, when it follows that key; only then decoded).
    if (walk.expectingKey) {
      walk.expectingKey = false;
      walk.valueIsId = stringValue(text.slice(at, end + 1)) === "id";
      if (walk.valueIsId) walk.idKeys += 1;
    } else {
      if (walk.valueIsId && walk.idKeys === 1) walk.id = stringValue(text.slice(at, end + 1));
      walk.valueIsId = false;
    }
    return end + 1;
  } else if (c === "{" || c === "[") {
    walk.valueIsId = false;
    return containerEnd(text, at);
  } else if (c !== ":" && SPACE.indexOf(c) < 0) {
    // A number, a literal or a stray character: never a string, so never an id.
    walk.valueIsId = false;
  }
  return at + 1;
}
