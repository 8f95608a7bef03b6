// pending.js: a bridge's calls that wait for a reply, and what becomes of a reply: delivered,
// late (its call ended: counted, never delivered), unmatched or malformed. Plain ES2017.

import { BridgeError, describe } from "./errors.js";

/** The reply object in `raw` (an object or JSON text), or null when it is not a JSON object. */
export function parseReply(raw) {
  let reply = raw;
  if (typeof raw === "string") {
    try {
      reply = JSON.parse(raw);
    } catch (error) {
      reply = null;
    }
  }
  return reply !== null && typeof reply === "object" && !Array.isArray(reply) ? reply : null;
}

/** A bridge's table of pending calls; `stats` is the bridge's counters. */
export function createPendingCalls(stats, clearTimer) {
  const calls = new Map();
  const ended = new Set();
  const endedOrder = [];

  // A call that ended without its reply: a reply that comes later is counted, never delivered.
  function forget(id) {
    if (!calls.delete(id)) return false;
    ended.add(id);
    endedOrder.push(id);
    if (endedOrder.length > 1000) ended.delete(endedOrder.shift());
    return true;
  }

  function settle(id, error, result) {
    const call = calls.get(id);
    if (!call) return;
    calls.delete(id);
    clearTimer(call.timer);
    stats.replies += 1;
    if (error) call.reject(error);
    else call.resolve(result);
  }

  // A reply for a call that ended: counted late. Returns whether the id was one of those.
  function late(id) {
    if (!ended.has(id)) return false;
    stats.lateReplies += 1;
    return true;
  }

  // A reply (parsed) for the call `id`: its result or its error.
  function deliver(id, reply) {
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

  // The reply to one known request (the promise WebKit's postMessage returned).
  function replyTo(id, raw) {
    const reply = parseReply(raw);
    if (reply === null) stats.malformedReplies += 1;
    if (!calls.has(id)) {
      if (!late(id)) stats.unmatchedReplies += 1;
    } else if (reply === null) settle(id, new BridgeError("INTERNAL", "the app's reply is not a JSON object"));
    else deliver(id, reply);
  }

  // WKWebView's replyHandler(nil, text) rejects the promise with an Error carrying text: a reply
  // in JSON, or the app's failure.
  function rejectedPost(id, error) {
    const text = describe(error);
    const parsed = parseReply(text);
    replyTo(id, parsed !== null && typeof parsed.ok === "boolean" ? parsed : { ok: false, error: { code: "INTERNAL", message: "the app failed the message: " + text } });
  }

  return {
    has: (id) => calls.has(id),
    add: (id, call) => { calls.set(id, call); },
    forget: forget,
    settle: settle,
    late: late,
    deliver: deliver,
    replyTo: replyTo,
    rejectedPost: rejectedPost,
    ids: () => Array.from(calls.keys())
  };
}
