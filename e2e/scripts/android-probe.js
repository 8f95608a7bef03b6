// Evaluated by the Android harness in the main frame of a loaded page (Runtime.evaluate), never
// injected at document start: the page's own view of the bridge, for the scenarios to drive and
// read. It makes a bridge of its own from the page's generated shim (import of /bridge.js, the
// module the page already loaded), subscribes to every event the contracts declare, and records
// what reaches the page on its Android channels: each text the listener object's message events
// or the receive function (window.<bridge>Receive) brought, and each frame's report.
// Every wait here is bounded by a timeout the harness passes; nothing sleeps.
(function (scope, names) {
  "use strict";
  if (scope.__bridgekitE2E) return true;
  var e2e = { events: [], received: [], frames: [], waiters: [] };

  function notify() {
    e2e.waiters = e2e.waiters.filter(function (waiter) { return !waiter(); });
  }
  // Resolves with test(e2e) once it is truthy, or with null after timeoutMs.
  e2e.until = function (test, timeoutMs) {
    return new Promise(function (resolve) {
      var timer = setTimeout(function () { done(null); }, timeoutMs);
      var finished = false;
      function done(value) {
        if (finished) return true;
        finished = true;
        clearTimeout(timer);
        resolve(value);
        return true;
      }
      function check() {
        var value = test(e2e);
        return value ? done(value) : false;
      }
      if (!check()) e2e.waiters.push(check);
    });
  };
  function record(list, entry) {
    entry.at = performance.now();
    list.push(entry);
    notify();
  }

  function hookReceive() {
    var original = scope[names.receiveFunction];
    if (typeof original !== "function" || original.__e2eHooked) return;
    var hooked = function (text) {
      record(e2e.received, { via: "receive", text: String(text) });
      return original.apply(this, arguments);
    };
    Object.keys(original).forEach(function (key) { hooked[key] = original[key]; });
    hooked.__e2eHooked = true;
    scope[names.receiveFunction] = hooked;
  }
  function hookListener() {
    var listener = scope[names.bridge];
    if (listener && typeof listener.addEventListener === "function") {
      listener.addEventListener("message", function (event) { record(e2e.received, { via: "listener", text: String(event.data) }); });
    }
  }

  scope.addEventListener("message", function (event) {
    if (event.data && event.data.kind === "bridgekit-e2e-frame") record(e2e.frames, event.data);
  });

  // Settles a bridge call into plain data: {state: "ok", result} or {state: "error", code, ...}.
  e2e.settle = function (promise) {
    var started = performance.now();
    return promise.then(function (result) {
      return { state: "ok", result: result === undefined ? null : result, ms: performance.now() - started };
    }, function (error) {
      return { state: "error", code: String(error && error.code), message: String(error && error.message),
               details: error && error.details !== undefined ? error.details : null, ms: performance.now() - started };
    });
  };
  e2e.send = function (action, version, payload) { return e2e.settle(e2e.bridge.send(action, version, payload)); };
  e2e.notify = function (action, version, payload) { return e2e.settle(e2e.bridge.send(action, version, payload, { notify: true })); };
  // The same, or {state: "pending"} when the call has not settled within limitMs (it goes on).
  e2e.sendWithin = function (action, version, payload, limitMs) {
    return Promise.race([e2e.send(action, version, payload), new Promise(function (resolve) {
      setTimeout(function () { resolve({ state: "pending", ms: limitMs }); }, limitMs);
    })]);
  };
  e2e.offer = function (action, payloads) { return e2e.settle(e2e.bridge.offer(action, payloads)); };
  // Posts text as it is on one Android channel, as a page could without the shim.
  e2e.postRaw = function (channel, text) {
    var target = channel === "listener" ? scope[names.bridge] : scope[names.androidInterface];
    target.postMessage(text);
    return performance.now();
  };
  e2e.addFrame = function (src) {
    var frame = document.createElement("iframe");
    frame.src = src;
    document.body.appendChild(frame);
    return true;
  };

  e2e.ready = import("/bridge.js").then(function (module) {
    e2e.bridge = module.createBridge();
    names.events.forEach(function (name) {
      e2e.bridge.on(name, function (payload, meta) {
        record(e2e.events, { event: name, version: meta && meta.version, payload: payload });
      });
    });
    hookReceive();
    hookListener();
    return true;
  });
  scope.__bridgekitE2E = e2e;
  return true;
})(window, __NAMES__);
