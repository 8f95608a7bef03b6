// surrogates.js: the shim never posts text the app cannot read. A string with a lone UTF-16
// surrogate (what .slice() leaves of an emoji it cuts) has no UTF-8 form: the app's parser refuses
// the whole message, and on a channel that matches replies by id the call would wait for its
// timeout. bridge-runtime.js refuses such a message before posting it. Plain ES2017.

import { BridgeError } from "./errors.js";

// The JSON Pointer `at` of `value` when it is a string with a lone surrogate (encodeURIComponent,
// which writes UTF-8, throws on one), else of the first such string in it, member names included; or null.
function loneAt(value, at) {
  if (typeof value === "string") {
    try {
      encodeURIComponent(value);
    } catch (error) {
      return at;
    }
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const member = at + "/" + key.replace(/~/g, "~0").replace(/\//g, "~1");
      const found = loneAt(key, member) || loneAt(value[key], member);
      if (found) return found;
    }
  }
  return null;
}

/** The refusal of an envelope with a lone surrogate in any string, as a schema error, or null. */
export function loneSurrogateRefusal(envelope) {
  let at = null;
  try {
    at = loneAt(envelope, "");
  } catch (error) {
    // A cycle (too deep for the stack): no JSON at all, and posting it fails as it always did.
  }
  return at === null ? null : new BridgeError("INVALID_PARAMS", at + " has a lone surrogate (half an emoji?): the app cannot read it",
    [{ instanceLocation: at, keyword: "unpairedSurrogate", error: "a lone surrogate" }]);
}
