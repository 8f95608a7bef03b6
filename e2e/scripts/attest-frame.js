// Injected by the harness into an ISOLATED world (WebKitScriptWorld "bridgekit-attest") of every
// frame at document start. Page scripts share the DOM with this world but none of its JavaScript:
// they cannot see window.webkit.messageHandlers.<bridge> here (the native handler registered with
// reply in this world only), cannot patch the functions below, and cannot change what
// self.origin and window.top mean for this world. So the stamp { origin, isMainFrame } is the
// frame's own, whatever the page puts into the message it asks us to carry.
//
// self.origin, not location.origin: it is the document's security origin, which is what
// WKFrameInfo.securityOrigin reports on iOS. They differ for sandboxed frames ("null" vs the URL's
// origin) and for about:srcdoc / about:blank frames (the inherited origin vs "null").
(function () {
  "use strict";
  var bridgeName = __BRIDGE_NAME__;
  var POST = "bridgekit-e2e:post";
  var REPLY = "bridgekit-e2e:reply";
  var handler = window.webkit.messageHandlers[bridgeName];

  function answer(seq, ok, valueOrError) {
    var detail = ok ? { seq: seq, ok: true, value: valueOrError } : { seq: seq, ok: false, error: valueOrError };
    document.dispatchEvent(new CustomEvent(REPLY, { detail: detail }));
  }

  document.addEventListener(POST, function (event) {
    var detail = event.detail;
    if (!detail || typeof detail !== "object" || typeof detail.seq !== "number") return;
    // Only the body is taken from the page; any origin or frame claim in the event is ignored.
    var stamped = { origin: self.origin, isMainFrame: window === window.top, body: detail.body };
    handler.postMessage(stamped).then(
      function (value) { answer(detail.seq, true, value); },
      function (error) { answer(detail.seq, false, String(error && error.message !== undefined ? error.message : error)); });
  });
})();
