"""A real WebKitGTK WebView wired like the app wires WKWebView, with `bridgectl host --stdio` as
the native side.

- The capability manifest and the main-world relay are user scripts in the main world of every
  frame at document start. The manifest's script is the one the Swift host produces
  (`bridgectl capabilities --script`, HostCapabilities.documentStartScript), never written here.
- A navigation to one of the app's own Universal Links (the shim's fallback) is intercepted and
  recorded, as the app routes its links natively instead of loading them in its WebView.
- The native message handler, named after the manifest's bridge, is registered WITH reply in an
  isolated world where attest-frame.js stamps each message with the posting frame's security
  origin and whether it is the top frame (what WKScriptMessage.frameInfo gives on iOS).
- Each stamped message becomes one `{"type":"message",...}` line for the host; the host's reply
  line, which names the input line it answers (`"line": N`), answers the WebKit reply (the page's
  postMessage promise), checked by id. A reply may come after later lines: while a navigation
  resolves (a slow detail fetch) the host answers when it settles, as an app calls a
  WKScriptMessageHandlerWithReply's replyHandler later. The host acknowledges each input line
  (--ack) after handling it; a message acknowledged without a reply and without an id was a
  notification.
"""

import json
import os
import time

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
gi.require_version("JavaScriptCore", "4.1")
from gi.repository import Gio, GLib, Gtk, JavaScriptCore, WebKit2  # noqa: E402

ATTEST_WORLD = "bridgekit-attest"
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts")


class HarnessError(Exception):
    """The harness itself could not do what a scenario asked (load, evaluate, time out)."""


def make_context(proxy_uri, certificate_path, hosts):
    """An ephemeral WebKit context whose only way out is the local origin proxy."""
    manager = WebKit2.WebsiteDataManager.new_ephemeral()
    context = WebKit2.WebContext.new_with_website_data_manager(manager)
    settings = WebKit2.NetworkProxySettings.new(proxy_uri, [])
    manager.set_network_proxy_settings(WebKit2.NetworkProxyMode.CUSTOM, settings)
    # Pin the throwaway certificate for exactly the served hosts; every other TLS error still fails.
    certificate = Gio.TlsCertificate.new_from_file(certificate_path)
    for host in hosts:
        context.allow_tls_certificate_for_host(certificate, host)
    return context


def webkit_version():
    return "%d.%d.%d" % (WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())


def _script(name, bridge):
    with open(os.path.join(SCRIPTS, name), encoding="utf-8") as handle:
        return handle.read().replace("__BRIDGE_NAME__", json.dumps(bridge))


def spin(seconds):
    """Runs the main loop for a while (a ticker source keeps iteration() from blocking long)."""
    deadline = time.monotonic() + seconds
    context = GLib.MainContext.default()
    while time.monotonic() < deadline:
        context.iteration(True)


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    context = GLib.MainContext.default()
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise HarnessError("timed out after %.1fs waiting for %s" % (timeout, what))
        context.iteration(True)


class BridgeWebView:
    def __init__(self, web_context, manifest, host, capabilities_script, is_app_link=lambda uri: False):
        self.host = host
        self.bridge = manifest["bridge"]
        self.is_app_link = is_app_link
        self.app_links = []       # the app's own Universal Links the page tried to open (intercepted)
        self.stamps = []          # every message the isolated world stamped: {origin, isMainFrame, body}
        self.records = []         # host output lines other than replies, in order
        self.replies = []         # host reply lines, in order
        self.protocol_errors = [] # mismatches between what was sent and what the host answered
        self.events_posted = []   # page-event lines posted into the page, in order
        self.events_withheld = [] # page-event lines not posted: the page was no longer at an allowed origin
        self.allowed_origins = set(manifest["allowedOrigins"])
        self._awaiting = {}       # host input line number -> (request id or None, ScriptMessageReply, JSC context)
        self._load_error = None
        self._loaded = False

        manager = WebKit2.UserContentManager()
        main_world = [capabilities_script, _script("main-world-relay.js", self.bridge)]
        for source in main_world:
            manager.add_script(WebKit2.UserScript.new(
                source, WebKit2.UserContentInjectedFrames.ALL_FRAMES, WebKit2.UserScriptInjectionTime.START, None, None))
        manager.add_script(WebKit2.UserScript.new_for_world(
            _script("attest-frame.js", self.bridge), WebKit2.UserContentInjectedFrames.ALL_FRAMES,
            WebKit2.UserScriptInjectionTime.START, ATTEST_WORLD, None, None))
        if not manager.register_script_message_handler_with_reply(self.bridge, ATTEST_WORLD):
            raise HarnessError("could not register the message handler %r in world %r" % (self.bridge, ATTEST_WORLD))
        manager.connect("script-message-with-reply-received::" + self.bridge, self._on_message)
        self.manager = manager

        self.view = WebKit2.WebView(web_context=web_context, user_content_manager=manager)
        self.view.connect("load-changed", self._on_load_changed)
        self.view.connect("load-failed", self._on_load_failed)
        self.view.connect("load-failed-with-tls-errors", self._on_tls_failed)
        self.view.connect("decide-policy", self._on_decide_policy)
        self.window = Gtk.OffscreenWindow()
        self.window.set_default_size(480, 900)
        self.window.add(self.view)
        self.window.show_all()
        self._ticker = GLib.timeout_add(10, self._pump)

    # --- native side -------------------------------------------------------------------------

    def _on_message(self, _manager, value, reply):
        stamp = {
            "origin": value.object_get_property("origin").to_string() if value.object_has_property("origin") else None,
            "isMainFrame": value.object_get_property("isMainFrame").to_boolean() if value.object_has_property("isMainFrame") else None,
        }
        body = value.object_get_property("body") if value.object_has_property("body") else None
        if body is None or body.is_undefined() or body.is_null():
            body_json, request_id = "null", None
        elif body.is_string():
            text = body.to_string()
            body_json = json.dumps(text, ensure_ascii=False)
            request_id = _id_in(text)
        else:
            # JSC's own JSON.stringify of the value WebKit delivered: no Python round trip, so
            # the bytes the page produced are the bytes the host reads.
            body_json = body.to_json(0)
            request_id = _id_in(body_json)
        stamp["body"] = json.loads(body_json)
        stamp["bodyText"] = body_json
        # The envelope the body carries (a string body is JSON text), {} when it is none.
        envelope = stamp["body"]
        if isinstance(envelope, str):
            try:
                envelope = json.loads(envelope)
            except ValueError:
                envelope = {}
        stamp["envelope"] = envelope if isinstance(envelope, dict) else {}
        self.stamps.append(stamp)
        if not isinstance(stamp["origin"], str) or not isinstance(stamp["isMainFrame"], bool):
            reply.return_error_message("the isolated world sent no origin/isMainFrame stamp")
            return True
        line = '{"type":"message","body":%s,"origin":%s,"isMainFrame":%s}' % (
            body_json, json.dumps(stamp["origin"], ensure_ascii=False), "true" if stamp["isMainFrame"] else "false")
        try:
            number = self.host.send_line(line)
        except OSError as error:
            reply.return_error_message("the host is not running: %s" % error)
            return True
        self._awaiting[number] = (request_id, reply, value.get_context())
        return True

    def _pump(self):
        for line in self.host.take_lines():
            kind = line.get("type")
            if kind == "reply":
                self.replies.append(line)
                self._deliver(line)
            elif kind == "ack":
                self._acknowledge(line.get("line"))
            elif kind == "page-event":
                self.records.append(line)
                self._post_event(line)
            else:
                self.records.append(line)
        if not self.host.alive and self._awaiting:
            for _, reply, _ in self._awaiting.values():
                reply.return_error_message("the host exited")
            self._awaiting = {}
        return True

    def _deliver(self, line):
        """A reply line: it answers the message on input line `line`, now or later."""
        number = line.get("line")
        waiting = self._awaiting.pop(number, None)
        if waiting is None:
            self.protocol_errors.append("a reply for line %s (%s), which awaits none: %s" % (
                number, _line_type(self.host, number) if isinstance(number, int) else "?", json.dumps(line, ensure_ascii=False)))
            return
        request_id, reply, context = waiting
        envelope = {key: value for key, value in line.items() if key not in ("type", "line")}
        if envelope.get("id") is not None and envelope.get("id") != request_id:
            self.protocol_errors.append("reply id %r answers request id %r" % (envelope.get("id"), request_id))
        # The reply as the app hands it to WebKit: the envelope's JSON text.
        text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
        reply.return_value(JavaScriptCore.Value.new_string(context, text))

    def _current_origin(self):
        uri = self.view.get_uri() or ""
        parts = uri.split("/", 3)
        return parts[0] + "//" + parts[2] if len(parts) >= 3 and parts[0] in ("https:", "http:") else "null"

    def _post_event(self, line):
        """A page-event line: as the app does, post the message into the main frame's receive
        function, only while the page is at an allowed origin (checked again here, at posting)."""
        message = {key: value for key, value in line.items() if key != "type"}
        if self._current_origin() not in self.allowed_origins:
            self.events_withheld.append(message)
            return
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        receive = self.bridge + "Receive"
        script = "typeof window.%s === 'function' && window.%s(%s)" % (receive, receive, json.dumps(text))
        self.view.evaluate_javascript(script, -1, None, None, None, None)
        self.events_posted.append(message)

    def _acknowledge(self, number):
        """The host has handled input line `number`. A message with no reply yet either never gets
        one (a notification, a line the host could not read) or gets it when its navigation settles."""
        waiting = self._awaiting.get(number)
        if waiting is None:
            return
        request_id, reply, context = waiting
        errors = [r for r in self.records if r.get("type") == "error" and r.get("line") == number]
        if errors:
            del self._awaiting[number]
            reply.return_error_message("host error: %s" % errors[0].get("message"))
        elif request_id is None:
            # A notification: no reply by design; WebKit still wants its reply settled.
            del self._awaiting[number]
            reply.return_value(JavaScriptCore.Value.new_null(context))
        # else: a request still resolving; its reply line comes later.

    # --- loading and evaluation -------------------------------------------------------------

    def _on_load_changed(self, _view, event):
        if event == WebKit2.LoadEvent.COMMITTED:
            # Where the page that receives events is now, as the app's adapter reports it.
            self.host.send({"type": "page", "origin": self._current_origin(), "isMainFrame": True})
        if event == WebKit2.LoadEvent.FINISHED:
            self._loaded = True

    def _on_decide_policy(self, _view, decision, decision_type):
        if decision_type != WebKit2.PolicyDecisionType.NAVIGATION_ACTION:
            return False
        uri = decision.get_navigation_action().get_request().get_uri()
        if self._loaded and self.is_app_link(uri):
            self.app_links.append(uri)
            decision.ignore()
            return True
        return False

    def _on_load_failed(self, _view, _event, uri, error):
        self._load_error = "%s: %s" % (uri, error.message)
        return False

    def _on_tls_failed(self, _view, uri, _certificate, errors):
        self._load_error = "%s: TLS errors %s" % (uri, errors)
        return False

    def load(self, url, timeout=20):
        self._loaded, self._load_error = False, None
        self.view.load_uri(url)
        wait_until(lambda: self._loaded or self._load_error, timeout, "the page load of " + url)
        if self._load_error:
            raise HarnessError("page load failed: " + self._load_error)

    def evaluate(self, script, timeout=10):
        """Runs script in the top frame's main world; returns its value as Python (via JSON)."""
        box = {}

        def done(view, result):
            try:
                value = view.evaluate_javascript_finish(result)
                box["value"] = None if value.is_undefined() else json.loads(value.to_json(0))
            except GLib.Error as error:
                box["error"] = error.message
            except ValueError as error:
                box["error"] = "unreadable result: %s" % error

        self.view.evaluate_javascript(script, -1, None, None, None, done)
        wait_until(lambda: box, timeout, "script evaluation")
        if "error" in box:
            raise HarnessError("script failed: %s (script: %s)" % (box["error"], script[:120]))
        return box["value"]

    def close(self):
        GLib.source_remove(self._ticker)
        for _, reply, _ in self._awaiting.values():
            reply.return_error_message("the harness closed the page")
        self._awaiting = {}
        self.window.destroy()


def _line_type(host, number):
    try:
        return json.loads(host.sent[number - 1]).get("type")
    except (IndexError, TypeError, ValueError, AttributeError):
        return "?"


def _id_in(json_text):
    try:
        parsed = json.loads(json_text)
    except ValueError:
        return None
    if isinstance(parsed, dict) and isinstance(parsed.get("id"), str):
        return parsed["id"]
    return None
