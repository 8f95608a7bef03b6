// handshake.js: what the app on this page takes, from the manifest it injected or from its answer
// to the built-in capabilities request. Plain ES2017.

import { own } from "./errors.js";

/**
 * The handshake of one bridge. `request(envelope)` registers the call and posts it, and returns
 * nothing: the reply settles the {resolve, reject} pair registered under its id in `pending`.
 */
export function createHandshake(contract, win, pending, post, newId) {
  let learned = null;
  let legacy = false;
  let asking = null;
  let askingId = null;

  function capabilities() {
    const injected = win[contract.capabilitiesGlobal];
    return injected !== null && typeof injected === "object" ? injected : learned;
  }

  return {
    capabilities: capabilities,
    /** True once the page knows what the app takes (a manifest, or an app that has none). */
    known: () => legacy || capabilities() !== null,
    /** The versions of an action the app takes; null when it gave no manifest (trusted). */
    versions: (action) => {
      const manifest = capabilities();
      if (manifest === null) return null;
      if ((manifest.bridge !== undefined && manifest.bridge !== contract.bridge) || (manifest.envelope !== undefined && manifest.envelope !== contract.envelope)) return [];
      const versions = own(manifest.actions, action);
      return Array.isArray(versions) ? versions : [];
    },
    /**
     * The capabilities request, one in flight at a time. It has no timer of its own: every call
     * waiting on it has its deadline, and one that times out calls `abandon`, so the next call asks again.
     */
    ask: (channel) => {
      if (asking === null) {
        pending.forget(askingId);
        const envelope = { v: contract.envelope, id: newId(), action: "capabilities", version: 1, payload: {} };
        askingId = envelope.id;
        asking = new Promise((resolve, reject) => {
          pending.add(envelope.id, { resolve: resolve, reject: reject });
          post(channel, envelope);
        }).then((manifest) => {
          asking = null;
          learned = manifest && typeof manifest === "object" ? manifest : null;
          legacy = learned === null;
        }, (error) => {
          asking = null;
          if (error.code !== "UNKNOWN_ACTION" && error.code !== "UNSUPPORTED_VERSION") throw error;
          legacy = true;
        });
      }
      return asking;
    },
    abandon: () => { asking = null; }
  };
}
