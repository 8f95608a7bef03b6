// Injected by the Android harness (e2e/harness/android_channels.py) at document start in the MAIN
// world of every frame, before any page script (Page.addScriptToEvaluateOnNewDocument), as
// androidx.webkit's WebViewCompat.addWebMessageListener(webView, __JS_OBJECT_NAME__,
// allowedOriginRules, listener) makes the WebView do. The object exists only in frames whose
// origin matches allowedOriginRules (__ORIGIN_RULES__; "*" matches every origin). Like Android's,
// it has postMessage(message), addEventListener/removeEventListener("message") and onmessage; the
// app's replies (JavaScriptReplyProxy.postMessage) arrive as MessageEvents whose data is the text.
//
// postMessage hands the text to the harness through a DevTools binding (__BINDING__). The frame's
// origin and whether it is the main frame are NOT taken from this script: the harness reads them
// from Chromium for the execution context that called the binding, as Android's
// onPostMessage(view, message, sourceOrigin, isMainFrame, replyProxy) gets them from the WebView.
(function (scope, objectName, rules, bindingName, deliverName) {
  "use strict";
  var binding = scope[bindingName];
  if (typeof binding !== "function") return;
  function allowed(origin) {
    return rules.some(function (rule) { return rule === "*" || rule === origin; });
  }
  if (!allowed(scope.origin) || Object.prototype.hasOwnProperty.call(scope, objectName)) return;
  var target = new EventTarget();
  var listener = {
    postMessage: function (message) {
      if (typeof message !== "string") throw new TypeError("postMessage: the message must be a string");
      binding(JSON.stringify({ channel: "listener", text: message }));
    },
    addEventListener: function (type, handler, options) { target.addEventListener(type, handler, options); },
    removeEventListener: function (type, handler, options) { target.removeEventListener(type, handler, options); },
    onmessage: null
  };
  // The app's reply proxy for this frame: the harness evaluates this in the context that posted.
  Object.defineProperty(scope, deliverName, {
    value: function (text) {
      var event = new MessageEvent("message", { data: text });
      if (typeof listener.onmessage === "function") listener.onmessage(event);
      target.dispatchEvent(event);
      return true;
    },
    enumerable: false, configurable: false, writable: false
  });
  Object.defineProperty(scope, objectName, { value: listener, enumerable: true, configurable: false, writable: false });
})(this, __JS_OBJECT_NAME__, __ORIGIN_RULES__, __BINDING__, __DELIVER__);
