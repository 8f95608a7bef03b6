// transports.js: how a message reaches the app (WebKit's message handler, Android's listener
// or its JavascriptInterface) and the page's one receive channel for replies and events. Plain ES2017.

import { BridgeError, describe } from "./errors.js";
import { parseReply } from "./pending.js";

/**
 * The channel to the app on `win` now, or null outside the app: {post(envelope)}, with webkit: true
 * for WebKit (its postMessage may return the reply) and the listener object for Android's.
 */
export function transportOf(win, contract) {
  const handlers = win.webkit && win.webkit.messageHandlers;
  const webkit = handlers && handlers[contract.bridge];
  if (webkit && typeof webkit.postMessage === "function") return { webkit: true, post: (envelope) => webkit.postMessage(envelope) };
  const listener = win[contract.bridge];
  if (listener && typeof listener.postMessage === "function") {
    return { listener: listener, post: (envelope) => { listener.postMessage(JSON.stringify(envelope)); } };
  }
  const channel = win[contract.androidInterface];
  if (channel && typeof channel.postMessage === "function") return { post: (envelope) => { channel.postMessage(JSON.stringify(envelope)); } };
  return null;
}

/**
 * The page's receive channel: the receive global (window.<bridge>Receive), which every bridge on
 * the page joins with its pending calls, stats and events. A reply goes to the bridge whose call
 * it answers; a reply to a call that ended is late for that bridge; any other is unmatched (or
 * malformed) for every bridge. An event ("event" and no "id": a reply always has an id, null
 * when the app could not read the message) goes to every bridge. Android listener messages come
 * to the same function.
 */
export function receiveChannelOf(win, name) {
  const existing = win[name];
  if (typeof existing === "function" && Array.isArray(existing.members)) return existing;
  const members = [];
  const listeners = [];
  const receive = (raw) => {
    const reply = parseReply(raw);
    if (reply !== null && "event" in reply && !("id" in reply)) return members.forEach((member) => { if (member.event) member.event(reply); });
    const id = reply === null ? undefined : reply.id;
    const owner = members.filter((member) => typeof id === "string" && member.pending.has(id))[0];
    if (owner) return owner.pending.deliver(id, reply);
    if (typeof id === "string" && members.some((member) => member.pending.late(id))) return;
    members.forEach((member) => { member.stats[reply === null ? "malformedReplies" : "unmatchedReplies"] += 1; });
  };
  const onMessage = (event) => receive(event && event.data !== undefined ? event.data : event);
  receive.members = members;
  receive.join = (member) => {
    members.push(member);
    win[name] = receive;
  };
  receive.leave = (member) => {
    members.splice(members.indexOf(member), 1);
    if (members.length === 0 && win[name] === receive) delete win[name];
  };
  // The Android listener's message events, listened to once per listener object.
  receive.listen = (listener) => {
    if (listeners.indexOf(listener) >= 0) return;
    listeners.push(listener);
    if (typeof listener.addEventListener === "function") listener.addEventListener("message", onMessage);
    else listener.onmessage = onMessage;
  };
  return receive;
}

// Posts an envelope on a channel; a request's reply settles it through the pending table (its
// caller bounds the wait). Throws INTERNAL when the platform refuses the post.
export function postEnvelope(pending, channel, envelope) {
  let returned;
  try {
    returned = channel.post(envelope);
  } catch (error) {
    throw new BridgeError("INTERNAL", "posting the message failed: " + describe(error));
  }
  // A notification gets no reply; its platform promise is only kept from going unhandled.
  if (channel.webkit && returned && typeof returned.then === "function") {
    returned.then((reply) => { if (envelope.id) pending.replyTo(envelope.id, reply); }, (error) => { if (envelope.id) pending.rejectedPost(envelope.id, error); });
  }
}
