// fallback.js: outside the app, or in an app without the action, a call opens the action's
// Universal Link (the contract's fallback "universalLink"), or fails when the contract has none.
// bridge-runtime.js imports it when a call first falls back. Plain ES2017.

import { BridgeError, describe } from "./errors.js";
import { linkFromMessage } from "./links.js";

/**
 * Opens the fallback link of `found` (a versionEntry) for `envelope` with `navigate` (default:
 * win.location.assign); returns the call's result.
 */
export function openFallback(contract, found, envelope, reason, inApp, navigate, win) {
  if (found.contract.fallback !== "universalLink") {
    // In an app without the action: the app is there, the version is not.
    throw new BridgeError(inApp ? "UNSUPPORTED_VERSION" : "UNAVAILABLE", found.action + " v" + found.version + " is not available ("
      + reason + ") and its contract has no fallback", inApp ? [{ action: found.action, supportedVersions: [] }] : []);
  }
  const opened = linkFromMessage(contract, found.contract, envelope, envelope.campaign || null);
  const url = linkFromMessage(contract, found.contract, envelope, null);
  try {
    if (navigate) navigate(opened);
    else if (win.location && typeof win.location.assign === "function") win.location.assign(opened);
    else throw new BridgeError("UNAVAILABLE", "no native bridge and no window.location to open " + opened);
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    throw new BridgeError("NAVIGATION_FAILED", "opening " + opened + " failed: " + describe(error));
  }
  return { route: found.contract.route, url: url, pendingLogin: false, fallback: true, openedURL: opened };
}
