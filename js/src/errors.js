// errors.js: the bridge's errors, and the lookup of an action's version in a contract table that
// fails with them. Every other module of the shim imports it. Plain ES2017.

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
export const own = (table, key) => table !== null && typeof table === "object" && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/** The contract entry of an action's version (latest when undefined): {action, version, contract}. */
export function versionEntry(contract, action, version) {
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
