// validation.js: what the app answers to a message its validators reject, worded as the app
// words it. bridge-runtime.js imports it with validators.js, when a page that validates sends
// its first message; the fake host uses it for every message. Plain ES2017.

import { BridgeError } from "./errors.js";

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

/** Checks `envelope` with `module`: a BridgeError as the app would answer, or null when it is valid. */
export function refusalOf(module, envelope) {
  const verdict = module.validate(envelope);
  if (verdict.valid) return null;
  const problem = errorForVerdict(verdict, envelope.action, envelope.version);
  return new BridgeError(problem.code, problem.message, problem.details);
}
