// capabilities.js: the document-start script the app installs in every frame of its WebView
// (iOS: WKUserScript, injectionTime .atDocumentStart, forMainFrameOnly false; Android:
// WebViewCompat.addDocumentStartJavaScript). It defines window.<bridge>Capabilities, the
// capability manifest the shim reads before it sends anything:
//   {bridge, envelope, app: {platform, version}, actions: {action: [versions, ascending]}}
//
// A template: the Swift host (BridgeHost's HostCapabilities.documentStartScript) fills in the
// two arguments of the call at the end, each a JSON literal escaped for a script (no "</", no
// U+2028); nothing else in it is generated. The manifest is frozen and the property read-only,
// so later page scripts cannot change what the page believes the app takes (the app checks every
// message anyway). The page can ask again over the bridge with a "capabilities" request.
(function (scope, name, manifest) {
  "use strict";
  function freeze(value) {
    if (value !== null && typeof value === "object") {
      Object.keys(value).forEach(function (key) { freeze(value[key]); });
      Object.freeze(value);
    }
    return value;
  }
  // Installed once per document: a second injection into the same frame keeps the first.
  if (Object.prototype.hasOwnProperty.call(scope, name)) return;
  Object.defineProperty(scope, name, { value: freeze(manifest), enumerable: true, configurable: false, writable: false });
})(this, BRIDGEKIT_CAPABILITIES_GLOBAL, BRIDGEKIT_CAPABILITIES_MANIFEST);
