"""What a real WebKit hands the native side for each shape of message body.

The page posts each shape with WebKit's own `postMessage` (a handler registered with reply in an
isolated world of its own, so no relay is in between); the native handler describes the JSCValue
it received: its JavaScript type, value, members in the order WebKit enumerates them, and
`JSON.stringify` of it as JavaScriptCore writes it. The descriptions are compared with the committed
file e2e/data/webkit-message-shapes.json, which the Swift adapter tests
(Tests/BridgeWebKitTests) read to build exactly these shapes as Foundation values.
`E2E_RECORD_SHAPES=1 make e2e` rewrites the file instead of comparing.
"""

import json
import math
import os

from bridge_webview import HarnessError, JavaScriptCore, WebKit2, spin, wait_until

SHAPES_WORLD = "bridgekit-shapes"
HANDLER = "bridgekitShapes"
DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "webkit-message-shapes.json")

# name -> the JavaScript expression the page posts (evaluated in the page, posted as is).
SHAPES = [
    ("string", 'JSON.stringify({v: 1, id: "shape-string", action: "apply", version: 1, payload: {slug: "new-user-promo"}})'),
    ("object", '({v: 1, id: "shape-object", action: "apply", version: 1, payload: {slug: "new-user-promo"},'
               ' campaign: {campaign_id: "2025Q3_signup_retarget", variant: "카드스캐너", utm_source: "kakaotalk"}})'),
    ("nested", '({a: {b: {c: [1, [2, [3, {d: null, e: "끝"}]]]}}, list: [[], {}]})'),
    ("numbers", '({zero: 0, negativeZero: -0, one: 1, wholeReal: 2.0, half: 1.5, negative: -7, third: 1 / 3,'
                ' maxSafe: 9007199254740991, pastSafe: 9007199254740993, huge: 1e21, tiny: 5e-324})'),
    ("booleans", '({yes: true, no: false, list: [true, false, 1, 0]})'),
    ("null", 'null'),
    ("null-member", '({nothing: null, list: [null]})'),
    ("not-a-number", '({nan: NaN, infinity: Infinity, negativeInfinity: -Infinity})'),
]


def describe(value):
    """The facts of one JSCValue, recursively."""
    if value.is_undefined():
        return {"type": "undefined"}
    if value.is_null():
        return {"type": "null"}
    if value.is_boolean():
        return {"type": "boolean", "value": value.to_boolean()}
    if value.is_number():
        real = value.to_double()
        if math.isnan(real):
            return {"type": "number", "nonFinite": "NaN"}
        if math.isinf(real):
            return {"type": "number", "nonFinite": "Infinity" if real > 0 else "-Infinity"}
        fact = {"type": "number", "value": real}
        if real == 0 and math.copysign(1, real) < 0:
            fact["negativeZero"] = True
        return fact
    if value.is_string():
        return {"type": "string", "value": value.to_string()}
    if value.is_array():
        length = value.object_get_property("length").to_int32()
        return {"type": "array", "items": [describe(value.object_get_property_at_index(i)) for i in range(length)]}
    if value.is_object():
        keys = value.object_enumerate_properties() or []
        return {"type": "object", "members": [{"key": key, "value": describe(value.object_get_property(key))} for key in keys]}
    return {"type": "other", "string": value.to_string()}


def record_shapes(web_context):
    """Posts every shape through a real WebView; returns [{name, posted, received, json}]."""
    received = []

    def on_message(_manager, value, reply):
        received.append({"received": describe(value), "json": value.to_json(0)})
        reply.return_value(JavaScriptCore.Value.new_null(value.get_context()))
        return True

    manager = WebKit2.UserContentManager()
    if not manager.register_script_message_handler_with_reply(HANDLER, SHAPES_WORLD):
        raise HarnessError("could not register %s in world %s" % (HANDLER, SHAPES_WORLD))
    manager.connect("script-message-with-reply-received::" + HANDLER, on_message)
    view = WebKit2.WebView(web_context=web_context, user_content_manager=manager)
    loaded = {"done": False}
    view.connect("load-changed", lambda _v, event: loaded.update(done=loaded["done"] or event == WebKit2.LoadEvent.FINISHED))
    view.load_html("<!doctype html><meta charset=utf-8><title>shapes</title>", "https://sendy.co.kr/shapes")
    wait_until(lambda: loaded["done"], 10, "the shapes page to load")
    try:
        for index, (name, expression) in enumerate(SHAPES):
            script = "window.webkit.messageHandlers.%s.postMessage(%s), true" % (HANDLER, expression)
            view.evaluate_javascript(script, -1, SHAPES_WORLD, None, None, None)
            wait_until(lambda: len(received) > index, 5, "the native side to receive shape %r" % name)
        spin(0.1)
    finally:
        view.destroy()
    if len(received) != len(SHAPES):
        raise HarnessError("posted %d shapes, the native side received %d" % (len(SHAPES), len(received)))
    return [dict(name=name, posted=expression, **facts) for (name, expression), facts in zip(SHAPES, received)]


def compare_or_record(shapes, webkit_version):
    """None when the committed file says exactly this (or was just rewritten), else the difference."""
    document = {
        "about": "What WebKit (WebKitGTK, JavaScriptCore) hands the native message handler for each shape "
                 "the page posts; written by e2e/harness/message_shapes.py (E2E_RECORD_SHAPES=1 make e2e), "
                 "read by Tests/BridgeWebKitTests.",
        "recordedWith": "WebKitGTK " + webkit_version,
        "shapes": shapes,
    }
    if os.environ.get("E2E_RECORD_SHAPES") == "1":
        with open(DATA_FILE, "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False, indent=2)
            handle.write("\n")
        return None
    try:
        with open(DATA_FILE, encoding="utf-8") as handle:
            committed = json.load(handle)
    except (OSError, ValueError) as error:
        return "cannot read %s: %s (E2E_RECORD_SHAPES=1 make e2e writes it)" % (DATA_FILE, error)
    for recorded, expected in zip(shapes, committed.get("shapes", [])):
        if recorded != expected:
            return "shape %r: WebKit delivered %s, the committed file says %s" % (
                recorded["name"], json.dumps(recorded, ensure_ascii=False), json.dumps(expected, ensure_ascii=False))
    if len(shapes) != len(committed.get("shapes", [])):
        return "%d shapes recorded, %d in the committed file" % (len(shapes), len(committed.get("shapes", [])))
    return None
