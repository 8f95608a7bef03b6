// Injected by the Android harness (e2e/harness/android_channels.py) at document start in the MAIN
// world of every frame (Page.addScriptToEvaluateOnNewDocument), as WebView.addJavascriptInterface(
// object, __INTERFACE_NAME__) makes Android's WebView do: the interface is in EVERY frame, of any
// origin, with no origin rules. Its one @JavascriptInterface method, postMessage(String), gets the
// text only: Android tells the app neither which frame called nor its origin. The app can only
// read WebView.getUrl(), the main frame's URL; the harness does the same. The app answers by
// evaluating window.<bridge>Receive(text) in the main frame (WebView.evaluateJavascript).
//
// postMessage hands the text to the harness through a DevTools binding (__BINDING__).
(function (scope, interfaceName, bindingName) {
  "use strict";
  var binding = scope[bindingName];
  if (typeof binding !== "function" || Object.prototype.hasOwnProperty.call(scope, interfaceName)) return;
  var channel = {
    // Java's String parameter: the JavaScript value converted to a string.
    postMessage: function (message) {
      binding(JSON.stringify({ channel: "interface", text: String(message) }));
    }
  };
  Object.defineProperty(scope, interfaceName, { value: Object.freeze(channel), enumerable: true, configurable: false, writable: false });
})(this, __INTERFACE_NAME__, __BINDING__);
