// Injected by the harness into the MAIN world of every frame at document start (before any page
// script), like the capability manifest. It provides window.webkit.messageHandlers.<bridge> for the
// page, but the real WebKit handler (registered WITH reply) lives in the isolated world of
// attest-frame.js: WebKitGTK 4.1 does not tell the native side which frame posted a main-world
// message, so every message is relayed through the frame's own isolated world, which stamps the
// frame's security origin and whether it is the top frame. Nothing here is trusted: a page that
// replaces or bypasses this relay can only send messages from its own frame, stamped as such.
(function () {
  "use strict";
  var bridgeName = __BRIDGE_NAME__;
  var POST = "bridgekit-e2e:post";
  var REPLY = "bridgekit-e2e:reply";
  var pending = new Map();
  var sequence = 0;

  document.addEventListener(REPLY, function (event) {
    var detail = event.detail;
    if (!detail || typeof detail.seq !== "number" || !pending.has(detail.seq)) return;
    var call = pending.get(detail.seq);
    pending.delete(detail.seq);
    // Like WebKit: the reply value resolves the promise; replyHandler(nil, text) rejects it.
    if (detail.ok) call.resolve(detail.value);
    else call.reject(new Error(detail.error));
  });

  var handler = Object.freeze({
    postMessage: function (body) {
      // WebKit serialises the body synchronously and throws when it cannot; so does this.
      var copy = structuredClone(body);
      sequence += 1;
      var seq = sequence;
      return new Promise(function (resolve, reject) {
        pending.set(seq, { resolve: resolve, reject: reject });
        document.dispatchEvent(new CustomEvent(POST, { detail: { seq: seq, body: copy } }));
      });
    }
  });
  var handlers = {};
  handlers[bridgeName] = handler;
  Object.defineProperty(window, "webkit", {
    value: Object.freeze({ messageHandlers: Object.freeze(handlers) }),
    configurable: true, enumerable: false, writable: false
  });
})();
