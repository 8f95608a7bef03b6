"""One page in headless Chromium wired the way an Android app wires its WebView to the bridge,
with `bridgectl host --stdio` as the app. How each Android API is played over the DevTools
protocol is listed at the top of run_android.py; in short:

- At document start, in the main world of every frame, before any page script
  (Page.addScriptToEvaluateOnNewDocument): the capability manifest (the script the Swift host
  produces, `bridgectl capabilities --script`, as WebViewCompat.addDocumentStartJavaScript would
  install it, only at the manifest's allowed origins), then ONE channel: the
  addWebMessageListener object `window.<bridge>` (android-web-message-listener.js) or the
  addJavascriptInterface object `window.<bridge>Android` (android-javascript-interface.js).
- Both hand the posted text to the harness through a DevTools binding (Runtime.addBinding). The
  sender is read from Chromium, never from the page: the execution context that called the binding
  names its frame, and Page.frameNavigated gave that frame's security origin and parent. For the
  listener that is Android's (sourceOrigin, isMainFrame); for the interface Android gives nothing,
  so the app reads WebView.getUrl(), the main frame's URL, and cannot tell a subframe's call.
- Each post becomes one `{"type":"message","body":TEXT,"origin":...,"isMainFrame":...}` line; the
  host's reply line (it names its input line) goes back the Android way: a MessageEvent on the
  listener object of the frame that posted (its JavaScriptReplyProxy), or, for the interface, a
  call of window.<bridge>Receive(text) in the main frame (WebView.evaluateJavascript).
- `page-event` lines go to the main frame only while it is at an allowed origin: on the listener,
  through the reply proxy of the main frame's latest post (an app has none before the page posts),
  on the interface through the receive function. `page` lines tell the host where the main frame is.
- A navigation of the main frame to one of the app's own links is cancelled and recorded (Fetch
  domain), as the app's WebViewClient.shouldOverrideUrlLoading routes it natively.
- The sessions of a run take turns in one page target (Tab): each brings its own scripts and host
  process and ends on about:blank.
"""

import base64
import json
import os

from chromium_cdp import HarnessError

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts")
BINDING = "__bridgekitAndroidPost"
DELIVER = "__bridgekitAndroidReplyProxy"
CHANNELS = ("listener", "interface")


def names_of(manifest):
    """The page-side names the generated shim uses (BridgeCodegen's ShimModel)."""
    bridge = manifest["bridge"]
    return {"bridge": bridge, "receiveFunction": bridge + "Receive", "androidInterface": bridge + "Android",
            "capabilitiesGlobal": bridge + "Capabilities"}


def origin_of(url):
    """scheme://host[:port] of an http(s) URL; "null" for anything else (about:blank, data:)."""
    scheme, _, rest = (url or "").partition("://")
    if scheme not in ("http", "https") or not rest:
        return "null"
    return scheme + "://" + rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]


def _script(name, values):
    with open(os.path.join(SCRIPTS, name), encoding="utf-8") as handle:
        text = handle.read()
    for key, value in values.items():
        text = text.replace(key, json.dumps(value))
    return text


def _origin_rules_script(source, rules):
    """A document-start script that runs `source` only at an origin matching `rules` (Android's
    allowedOriginRules for addDocumentStartJavaScript)."""
    return ("(function(){var rules=%s;if(!rules.some(function(r){return r==='*'||r===self.origin;}))return;\n%s\n})();"
            % (json.dumps(rules), source))


def _host_line(text, origin, is_main_frame):
    """The host's message line; text a page can hold but UTF-8 cannot (a lone surrogate) goes as the
    bytes a lenient encoder gives, in bodyBase64, for the host to refuse."""
    flag = "true" if is_main_frame else "false"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")
        return '{"type":"message","bodyBase64":%s,"origin":%s,"isMainFrame":%s}' % (json.dumps(raw), json.dumps(origin), flag)
    return '{"type":"message","body":%s,"origin":%s,"isMainFrame":%s}' % (
        json.dumps(text, ensure_ascii=False), json.dumps(origin, ensure_ascii=False), flag)


class Tab:
    """The one page target the run's sessions take turns in: its own browser context (nothing
    shared with a default profile), every domain a session needs enabled once, the harness's
    binding added once. A session brings its own document-start scripts and host, and ends by
    loading about:blank, so nothing of its page outlives it."""

    def __init__(self, chromium, proxy_uri):
        self.cdp = chromium
        self.browser_context = chromium.call("Target.createBrowserContext", {"proxyServer": proxy_uri})["browserContextId"]
        target = chromium.call("Target.createTarget", {"url": "about:blank", "browserContextId": self.browser_context})["targetId"]
        self.session = chromium.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.scripts = []   # identifiers of the current session's document-start scripts
        for method, params in (("Page.enable", {}), ("Page.setLifecycleEventsEnabled", {"enabled": True}),
                               ("Runtime.enable", {}), ("Runtime.addBinding", {"name": BINDING}), ("Network.enable", {}),
                               ("Fetch.enable", {"patterns": [{"urlPattern": "*", "resourceType": "Document"}]})):
            chromium.call(method, params, self.session)

    def replace_scripts(self, sources):
        for identifier in self.scripts:
            self.cdp.call("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier}, self.session)
        self.scripts = [self.cdp.call("Page.addScriptToEvaluateOnNewDocument", {"source": source}, self.session)["identifier"]
                        for source in sources]

    def close(self):
        if not self.cdp.closed:
            self.cdp.call("Target.disposeBrowserContext", {"browserContextId": self.browser_context})


class AndroidWebView:
    """channel: "listener" or "interface". capabilities_script: None for an app that injects no
    manifest. listener_rules: the listener's allowedOriginRules (default: the allowed origins)."""

    def __init__(self, tab, manifest, host, channel, capabilities_script, listener_rules=None,
                 is_app_link=lambda url: False):
        if channel not in CHANNELS:
            raise ValueError("channel must be one of %s" % ", ".join(CHANNELS))
        self.tab = tab
        self.cdp = tab.cdp
        self.loop = tab.cdp.loop
        self.session = tab.session
        self.host = host
        self.channel = channel
        self.names = names_of(manifest)
        self.allowed_origins = list(manifest["allowedOrigins"])
        self.listener_rules = listener_rules or self.allowed_origins
        self.capabilities_script = capabilities_script
        self.is_app_link = is_app_link
        self.posts = []            # every text posted on a channel, with the sender Chromium names
        self.replies = []          # host reply lines, in order
        self.records = []          # other host output lines (navigation, event, error, page-event, ...)
        self.delivered = []        # what the harness evaluated into the page: replies and events
        self.undelivered = []      # replies or events with nowhere to go, and why
        self.protocol_errors = []  # host replies that answer no message, evaluations that failed
        self.page_errors = []      # uncaught exceptions in the page
        self.app_links = []        # the app's own links the page tried to open (cancelled)
        self.requests = []         # every URL the page's frames requested (Network domain)
        self.acked = set()
        self._awaiting = {}        # host input line -> the post it carried
        self._frames = {}          # frameId -> Page.Frame
        self._contexts = {}        # executionContextId -> frameId (default worlds only)
        self._loaders_loaded = set()
        self._main_frame = None
        self._proxy_context = None  # the listener's reply proxy of the main frame (its latest post)
        self._opened = False
        host.notify = lambda: self.loop.post(self._pump_host)

    # --- opening ------------------------------------------------------------------------------

    def _scripts(self):
        scripts = []
        if self.capabilities_script is not None:
            scripts.append(_origin_rules_script(self.capabilities_script, self.allowed_origins))
        if self.channel == "listener":
            scripts.append(_script("android-web-message-listener.js", {
                "__JS_OBJECT_NAME__": self.names["bridge"], "__ORIGIN_RULES__": self.listener_rules,
                "__BINDING__": BINDING, "__DELIVER__": DELIVER}))
        else:
            scripts.append(_script("android-javascript-interface.js", {
                "__INTERFACE_NAME__": self.names["androidInterface"], "__BINDING__": BINDING}))
        # The binding itself is the harness's, not the page's: gone before any page script runs.
        scripts.append("delete window[%s];" % json.dumps(BINDING))
        return scripts

    def _listen(self):
        handlers = {
            "Runtime.executionContextCreated": self._on_context_created,
            "Runtime.executionContextDestroyed": self._on_context_destroyed,
            "Runtime.executionContextsCleared": lambda _params: self._contexts.clear(),
            "Runtime.bindingCalled": self._on_binding_called,
            "Runtime.exceptionThrown": self._on_exception,
            "Page.frameNavigated": self._on_frame_navigated,
            "Page.frameDetached": lambda params: self._frames.pop(params.get("frameId"), None),
            "Page.lifecycleEvent": self._on_lifecycle,
            "Fetch.requestPaused": self._on_request_paused,
            "Network.requestWillBeSent": lambda params: self.requests.append(params["request"]["url"]),
        }
        for method, handler in handlers.items():
            self.cdp.on(method, handler, self.session)

    def open(self, url, entry_source=None, timeout=20):
        """Loads `url` with this session's document-start scripts; with entry_source, the host
        first hears that the app opened `url` from that source."""
        self._listen()
        self.tab.replace_scripts(self._scripts())
        if entry_source is not None:
            # The app tells the host which link opened the page before the page can send anything.
            self.host.send({"type": "open", "url": url, "source": entry_source})
        self._navigate(url, timeout)
        self._opened = True

    def _navigate(self, url, timeout):
        navigation = self.cdp.call("Page.navigate", {"url": url}, self.session)
        if navigation.get("errorText"):
            raise HarnessError("loading %s failed: %s" % (url, navigation["errorText"]))
        loader = navigation.get("loaderId")
        self.loop.wait_until(lambda: loader in self._loaders_loaded, timeout, "the load event of " + url)

    # --- Chromium events ------------------------------------------------------------------------

    def _on_context_created(self, params):
        context = params["context"]
        aux = context.get("auxData") or {}
        if aux.get("isDefault"):
            self._contexts[context["id"]] = aux.get("frameId")

    def _on_context_destroyed(self, params):
        self._contexts.pop(params.get("executionContextId"), None)
        if params.get("executionContextId") == self._proxy_context:
            self._proxy_context = None

    def _on_frame_navigated(self, params):
        frame = params["frame"]
        self._frames[frame["id"]] = frame
        if not frame.get("parentId"):
            self._main_frame = frame["id"]
            origin = self._frame_origin(frame)
            # Where the page that receives events is now, as the app's adapter reports it.
            self._to_host('{"type":"page","origin":%s,"isMainFrame":true}' % json.dumps(None if origin == "null" else origin))

    def _on_lifecycle(self, params):
        if params.get("name") == "load" and params.get("frameId") == self._main_frame:
            self._loaders_loaded.add(params.get("loaderId"))

    def _on_exception(self, params):
        details = params.get("exceptionDetails") or {}
        exception = details.get("exception") or {}
        self.page_errors.append(exception.get("description") or details.get("text"))

    def _on_request_paused(self, params):
        url = params["request"]["url"]
        if self._opened and params.get("frameId") == self._main_frame and self.is_app_link(url):
            self.app_links.append(url)
            self.cdp.send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "Aborted"}, self.session)
        else:
            self.cdp.send("Fetch.continueRequest", {"requestId": params["requestId"]}, self.session)

    @staticmethod
    def _frame_origin(frame):
        origin = frame.get("securityOrigin") or ""
        return origin if origin.startswith(("http://", "https://")) else "null"

    def _sender(self, channel, frame_id):
        """(origin, isMainFrame) as the app learns them on `channel` for a post of `frame_id`."""
        if channel == "listener":
            frame = self._frames.get(frame_id)
            if frame is None:
                return None, None
            return self._frame_origin(frame), not frame.get("parentId")
        # JavascriptInterface: the app knows only WebView.getUrl(), and takes it for the sender.
        main = self._frames.get(self._main_frame) or {}
        return origin_of(main.get("url")), True

    def _on_binding_called(self, params):
        if params.get("name") != BINDING:
            return
        try:
            posted = json.loads(params["payload"])
            channel, text = posted["channel"], posted["text"]
        except (ValueError, KeyError, TypeError) as error:
            self.protocol_errors.append("an unreadable binding call: %s" % error)
            return
        context = params.get("executionContextId")
        frame_id = self._contexts.get(context)
        origin, is_main_frame = self._sender(channel, frame_id)
        post = {"channel": channel, "text": text, "envelope": _envelope_in(text), "origin": origin,
                "isMainFrame": is_main_frame, "frameId": frame_id, "context": context}
        self.posts.append(post)
        if origin is None:
            self.protocol_errors.append("a post from an unknown frame (context %s)" % context)
            return
        if channel == "listener" and is_main_frame:
            self._proxy_context = context
        post["line"] = self._to_host(_host_line(text, origin, is_main_frame))
        self._awaiting[post["line"]] = post

    def _to_host(self, line):
        """Sends a line to the host; a host that is gone is a problem to report, not a crash."""
        try:
            return self.host.send_line(line)
        except OSError as error:
            self.protocol_errors.append("the host is gone (%s): %s" % (error, line[:120]))
            return None

    # --- the host's output ----------------------------------------------------------------------

    def _pump_host(self):
        for line in self.host.take_lines():
            kind = line.get("type")
            if kind == "reply":
                self.replies.append(line)
                self._deliver_reply(line)
            elif kind == "ack":
                self.acked.add(line.get("line"))
            else:
                self.records.append(line)
                if kind == "page-event":
                    self._deliver_event(line)

    def _main_context(self):
        return next((context for context, frame in self._contexts.items() if frame == self._main_frame), None)

    def _deliver_reply(self, line):
        post = self._awaiting.pop(line.get("line"), None)
        envelope = {key: value for key, value in line.items() if key not in ("type", "line")}
        if post is None:
            self.protocol_errors.append("a reply for line %s, which carried no message: %s" % (line.get("line"), json.dumps(line, ensure_ascii=False)))
            return
        text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
        if post["channel"] == "listener":
            # The reply proxy of the frame that posted; gone with its document.
            self._evaluate_into(post["context"], "window[%s](%s)" % (json.dumps(DELIVER), json.dumps(text)), "reply", text)
        else:
            self._call_receive(text, "reply")

    def _call_receive(self, text, kind):
        receive = self.names["receiveFunction"]
        expression = "typeof window.%s === 'function' && window.%s(%s)" % (receive, receive, json.dumps(text))
        self._evaluate_into(self._main_context(), expression, kind, text)

    def _deliver_event(self, line):
        message = {key: value for key, value in line.items() if key != "type"}
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        main = self._frames.get(self._main_frame) or {}
        if self._frame_origin(main) not in self.allowed_origins:
            self.undelivered.append({"kind": "event", "text": text, "why": "the page is at " + self._frame_origin(main)})
        elif self.channel == "interface":
            self._call_receive(text, "event")
        elif self._proxy_context is None:
            self.undelivered.append({"kind": "event", "text": text, "why": "no reply proxy: the page has not posted yet"})
        else:
            self._evaluate_into(self._proxy_context, "window[%s](%s)" % (json.dumps(DELIVER), json.dumps(text)), "event", text)

    def _evaluate_into(self, context, expression, kind, text):
        if context is None or context not in self._contexts:
            self.undelivered.append({"kind": kind, "text": text, "why": "its document is gone"})
            return
        entry = {"kind": kind, "text": text, "channel": self.channel}

        def done(response):
            if "error" in response or (response.get("result") or {}).get("exceptionDetails"):
                self.protocol_errors.append("delivering a %s failed: %s" % (kind, json.dumps(response)[:300]))
        self.delivered.append(entry)
        self.cdp.send("Runtime.evaluate", {"expression": expression, "contextId": context}, self.session, done)

    # --- for scenarios --------------------------------------------------------------------------

    def evaluate(self, expression, timeout=10):
        """Runs expression in the main frame's main world, awaiting a promise; returns its value."""
        result = self.cdp.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                               self.session, timeout=timeout)
        if result.get("exceptionDetails"):
            details = result["exceptionDetails"]
            raise HarnessError("script failed: %s (script: %s)" % (
                (details.get("exception") or {}).get("description") or details.get("text"), expression[:160]))
        return (result.get("result") or {}).get("value")

    def settle_host(self, timeout=5):
        """Waits until the host has handled every line sent so far (its acks), so whatever those
        lines make the host write has been read."""
        last = len(self.host.sent)
        self.loop.wait_until(lambda: all(n in self.acked for n in range(1, last + 1)) or not self.host.alive,
                             timeout, "the host to acknowledge lines 1-%d" % last)

    def records_of(self, kind):
        return [record for record in self.records if record.get("type") == kind]

    def close(self):
        """Ends the page (about:blank: what it still had in flight reaches this session first), then
        stops listening and lets the host finish."""
        try:
            self._opened = False
            if not self.cdp.closed:
                self._navigate("about:blank", 10)
            self.loop.run_pending()
        finally:
            self.cdp.forget_session(self.session)
            self.host.notify = None
            self.host.close()


def _envelope_in(text):
    try:
        parsed = json.loads(text)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}
