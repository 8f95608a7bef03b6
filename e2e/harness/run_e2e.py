"""End to end in a real WebKit: js/examples/event.html with the generated js/bridge.js in a
WebKitGTK WebView at its real origin https://sendy.co.kr, `bridgectl host --stdio` answering.

Prints one line per scenario (`PASS name` / `FAIL name: why`) and `N passed, M failed`; exits 1 on
any failure, 2 when the harness cannot start at all. Run through e2e/run.sh (Xvfb, packages).
"""

import argparse
import json
import os
import sys
import tempfile
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from contract_model import Contracts, campaign_of, encode  # noqa: E402
from host_process import HostProcess  # noqa: E402
from origin_proxy import OriginProxy, Site, make_certificate  # noqa: E402

SLUG = "new-user-promo"
# variant in Korean on purpose: the entry link's UTF-8 must survive into every navigation record.
PAGE_URL = ("https://sendy.co.kr/event/" + SLUG + "?campaign_id=2025Q3_signup_retarget&group_id=B"
            "&variant=" + encode("카드스캐너") + "&utm_source=kakaotalk&utm_medium=alimtalk")
ENTRY_SOURCE = "kakaotalk"
ATTACKER_ORIGIN = "https://evil.example"

# Korean that a careless layer would change: precomposed (NFC) and decomposed (NFD) Hangul, which
# look alike but differ in bytes, an emoji outside the BMP, and characters the URL rule encodes.
MEMO_KO = "주말 오전 배송 + 50% 할인 & 엘베 有 / " + unicodedata.normalize("NFD", "센디") + " 🚚 ~끝?"
REGION_KO = "서울 강남구 " + unicodedata.normalize("NFD", "역삼동")


class ScenarioFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise ScenarioFailure(message)


def short(value, limit=300):
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


class Reporter:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, scenario):
        started = time.monotonic()
        try:
            scenario()
        except ScenarioFailure as failure:
            self.fail(name, str(failure))
            return
        except Exception as error:  # a harness problem still fails the scenario, loudly
            self.fail(name, "%s: %s" % (type(error).__name__, error))
            return
        self.passed += 1
        print("PASS %s (%.2fs)" % (name, time.monotonic() - started), flush=True)

    def fail(self, name, why):
        self.failed += 1
        print("FAIL %s: %s" % (name, why.replace("\n", " ")), flush=True)


class Session:
    """One page load with its own long-lived host process, acting as `release` (an app build of
    releases.json, "ios@5.12.0") or, without one, as a development host with every version. The
    page gets the capability manifest's document-start script the Swift host produces."""

    def __init__(self, env, host_options=(), release=None):
        from bridge_webview import BridgeWebView
        self.env = env
        self.release = release
        self.host = HostProcess(env.bridgectl, list(host_options) + (["--release", release] if release else []), env.contracts_dir)
        self.capabilities = env.capabilities(release)
        self.page = BridgeWebView(env.web_context, env.contracts.manifest, self.host, env.capabilities(release, script=True),
                                  is_app_link=lambda uri: env.contracts.app_link_route(uri) is not None)

    def open(self, url=PAGE_URL, source=ENTRY_SOURCE):
        # The app tells the host which link opened the page before the page can send anything.
        self.host.send({"type": "open", "url": url, "source": source})
        self.page.load(url)
        from bridge_webview import wait_until
        wait_until(lambda: self.page.evaluate("document.documentElement.dataset.bridgeReady === 'true'"),
                   10, "the page's bridge to start (js/bridge.js imported)")

    def records(self, kind):
        return [record for record in self.page.records if record.get("type") == kind]

    def click(self, button_id, timeout=8):
        """Clicks a CTA through the DOM; waits for its <output> to settle; returns its dataset."""
        from bridge_webview import wait_until
        output_id = "result-" + button_id[len("cta-"):]
        before = self.page.evaluate("document.getElementById(%s).dataset.seq || ''" % json.dumps(output_id))
        self.page.evaluate("document.getElementById(%s).click(), true" % json.dumps(button_id))
        read = ("(function(){var o=document.getElementById(%s);"
                "return Object.assign({text:o.textContent}, o.dataset);})()" % json.dumps(output_id))

        def settled():
            data = self.page.evaluate(read)
            return data if data.get("seq") != before and data.get("state") in ("ok", "error") else None
        return wait_until(settled, timeout, "%s to settle" % button_id)

    def set_field(self, element_id, value):
        self.page.evaluate("document.getElementById(%s).value = %s, true"
                           % (json.dumps(element_id), json.dumps(value, ensure_ascii=False)))

    def close(self):
        self.page.close()
        self.host.close()


def expect_navigation(session, route, since, expected_campaign, count=1):
    navigations = [r for r in session.records("navigation")[since:] if r.get("route") == route]
    check(len(navigations) == count, "expected %d navigation(s) to %s, host recorded %s"
          % (count, route, short([r.get("route") for r in session.records("navigation")[since:]])))
    for navigation in navigations:
        campaign = navigation.get("campaign") or {}
        for field, value in expected_campaign.items():
            check(campaign.get(field) == value, "navigation to %s: campaign %s is %r, page URL says %r"
                  % (route, field, campaign.get(field), value))
    return navigations


def apply_payloads(memo=None, contact_time="evening", plan="premium"):
    """What the page's 신청 offers (js/examples/event.html): v2 with contactTime, and v1 without it."""
    v1 = {"slug": SLUG, "plan": plan, "memo": memo if memo is not None else DEFAULT_MEMO}
    return {2: dict(v1, contactTime=contact_time), 1: v1}


DEFAULT_MEMO = "주말 오전 배송 희망합니다. 엘리베이터 있어요!"


def expect_ok(result, route, url, pending_login=False, waiting_for_ready=False):
    """The page's promise resolved (resolving is checked by the scenarios that expect it)."""
    check(result.get("state") == "ok", "the page's promise did not resolve: %s" % short(result))
    check(result.get("fallback") == "false", "the shim fell back to opening a link (no native bridge seen): %s" % short(result))
    check(result.get("route") == route, "resolved with route %r, expected %r" % (result.get("route"), route))
    check(result.get("url") == url, "resolved with url %r, expected %r" % (result.get("url"), url))
    check(result.get("pendingLogin") == ("true" if pending_login else "false"),
          "pendingLogin is %r, expected %s" % (result.get("pendingLogin"), pending_login))
    check(result.get("waitingForReady") == ("true" if waiting_for_ready else "false"),
          "waitingForReady is %r, expected %s" % (result.get("waitingForReady"), waiting_for_ready))


def frame_outcome(session, src, sandbox=None, timeout=8):
    """Adds an iframe to the top page; returns what the frame reported through postMessage."""
    from bridge_webview import wait_until
    token = "f%d" % int(time.monotonic() * 1000)
    session.page.evaluate("""(function(){
        window.__frameReports = window.__frameReports || {};
        if (!window.__frameListener) {
          window.__frameListener = true;
          window.addEventListener('message', function (e) {
            if (e.data && e.data.kind === 'bridgekit-e2e-frame') window.__frameReports[e.data.mode + '@' + e.origin] = e.data;
          });
        }
        var f = document.createElement('iframe');
        f.id = %s; %s f.src = %s; document.body.appendChild(f); return true; })()"""
                          % (json.dumps(token), ("f.setAttribute('sandbox', %s);" % json.dumps(sandbox)) if sandbox else "",
                             json.dumps(src)))
    mode = src.split("mode=")[1].split("&")[0]
    expected_origin = "null" if sandbox and "allow-same-origin" not in sandbox else src.split("/", 3)[0] + "//" + src.split("/", 3)[2]
    key = mode + "@" + expected_origin
    return wait_until(lambda: session.page.evaluate("(window.__frameReports || {})[%s] || null" % json.dumps(key)),
                      timeout, "the frame %s to report (as %s)" % (src, key))


def logged_in_scenarios(env, reporter):
    session = Session(env)
    try:
        campaign = campaign_of(PAGE_URL)
        campaign_with_source = dict(campaign, source=ENTRY_SOURCE)
        contracts = env.contracts

        def page_origin_and_capabilities():
            state = session.page.evaluate("""({origin: self.origin, href: location.href,
                capabilities: window.sendyBridgeCapabilities || null,
                handler: typeof (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.sendyBridge)})""")
            check(state["origin"] == "https://sendy.co.kr", "page origin is %r" % state["origin"])
            check(state["href"] == PAGE_URL, "page URL is %r" % state["href"])
            check(state["capabilities"] == session.capabilities,
                  "the page's capability manifest is %s, the Swift host produced %s" % (short(state["capabilities"]), short(session.capabilities)))
            check(state["handler"] == "object", "no window.webkit.messageHandlers.%s in the page" % contracts.bridge)
            check("https://sendy.co.kr/bridge.js" in env.proxy.requests,
                  "js/bridge.js was not loaded from https://sendy.co.kr/bridge.js: %s" % short(env.proxy.requests))
            opened = [r for r in session.records("event") if r.get("name") == "event_webview_opened"]
            check(opened, "the host recorded no event_webview_opened for the entry link: %s" % short(session.page.records))
            for field, value in campaign.items():
                check(opened[-1].get("properties", {}).get(field) == value,
                      "event_webview_opened %s is %r, expected %r" % (field, opened[-1].get("properties", {}).get(field), value))

        def cta(button, action, route, payload, version=1):
            def scenario():
                since = len(session.records("navigation"))
                result = session.click(button)
                expect_ok(result, route, contracts.reply_url(action, payload, version))
                check(session.page.stamps[-1]["envelope"].get("version") == version,
                      "the shim sent %s v%s, expected v%d" % (action, session.page.stamps[-1]["envelope"].get("version"), version))
                check(session.page.stamps[-1]["origin"] == "https://sendy.co.kr" and session.page.stamps[-1]["isMainFrame"] is True,
                      "isolated-world stamp is %s" % short({k: session.page.stamps[-1][k] for k in ("origin", "isMainFrame")}))
                check(session.page.stamps[-1]["envelope"].get("campaign") == campaign,
                      "the shim sent campaign %s, page URL has %s" % (short(session.page.stamps[-1]["envelope"].get("campaign")), short(campaign)))
                expect_navigation(session, route, since, campaign_with_source)
                clicks = [r for r in session.records("event") if r.get("name") == "event_webview_cta_clicked"
                          and r.get("properties", {}).get("request_id") == session.page.stamps[-1]["envelope"].get("id")]
                check(len(clicks) == 1, "expected one event_webview_cta_clicked for the request, got %d" % len(clicks))
                for field, value in campaign_with_source.items():
                    check(clicks[0]["properties"].get(field) == value, "cta_clicked %s is %r, expected %r"
                          % (field, clicks[0]["properties"].get(field), value))
            return scenario

        def korean_byte_exact():
            session.set_field("memo", MEMO_KO)
            session.set_field("region", REGION_KO)
            since = len(session.records("navigation"))
            apply_payload = apply_payloads(memo=MEMO_KO)[2]
            expect_ok(session.click("cta-apply"), "applyForm", contracts.reply_url("apply", apply_payload, 2))
            check(session.page.stamps[-1]["envelope"]["payload"].get("memo") == MEMO_KO,
                  "the memo left the page changed: %r" % session.page.stamps[-1]["envelope"]["payload"].get("memo"))
            vehicles_payload = {"vehicleType": "1ton", "region": REGION_KO, "from": SLUG}
            expect_ok(session.click("cta-view-vehicles"), "vehicleList", contracts.reply_url("view_vehicles", vehicles_payload))
            applied = expect_navigation(session, "applyForm", since, campaign_with_source)[0]
            listed = expect_navigation(session, "vehicleList", since, campaign_with_source)[0]
            for what, got, want in (("memo", applied.get("query", {}).get("memo"), MEMO_KO),
                                    ("region", listed.get("query", {}).get("region"), REGION_KO),
                                    ("variant", applied.get("campaign", {}).get("variant"), campaign["variant"])):
                got_bytes = got.encode("utf-8") if isinstance(got, str) else None
                check(got_bytes == want.encode("utf-8"), "%s in the host's navigation record is %r (%s), sent %r (%s)"
                      % (what, got, got_bytes.hex() if got_bytes else None, want, want.encode("utf-8").hex()))
            check(encode(MEMO_KO) in applied.get("url", ""), "navigation url %r lacks the memo encoded once as %s"
                  % (applied.get("url"), encode(MEMO_KO)))

        def cross_origin_iframe_rejected():
            since = len(session.records("navigation"))
            replies_before = len(session.page.replies)
            report = frame_outcome(session, ATTACKER_ORIGIN + "/frame.html?mode=direct")
            check(report["frameOrigin"] == ATTACKER_ORIGIN, "the frame's origin is %r, not %s" % (report["frameOrigin"], ATTACKER_ORIGIN))
            check(report["outcome"].get("code") == "ORIGIN_REJECTED", "the frame got %s" % short(report["outcome"]))
            stamp = next((s for s in session.page.stamps if s["envelope"].get("id") == report["id"]), None)
            check(stamp is not None, "the frame's message never reached the native handler")
            check(stamp["origin"] == ATTACKER_ORIGIN and stamp["isMainFrame"] is False,
                  "native stamp is %s" % short({k: stamp[k] for k in ("origin", "isMainFrame")}))
            reply = next((r for r in session.page.replies[replies_before:] if r.get("id") == report["id"]), None)
            check(reply is not None and reply.get("error", {}).get("code") == "ORIGIN_REJECTED",
                  "host reply was %s" % short(reply))
            from bridge_webview import spin
            spin(0.3)  # anything the rejected message might have triggered late
            check(len(session.records("navigation")) == since, "something navigated: %s"
                  % short(session.records("navigation")[since:]))

        def forged_frame_claims_ignored():
            since = len(session.records("navigation"))
            report = frame_outcome(session, ATTACKER_ORIGIN + "/frame.html?mode=forged")
            check(report["outcome"].get("code") == "ORIGIN_REJECTED", "the forged post got %s" % short(report["outcome"]))
            stamp = next((s for s in session.page.stamps if s["envelope"].get("id") == report["id"]), None)
            check(stamp is not None and stamp["origin"] == ATTACKER_ORIGIN and stamp["isMainFrame"] is False,
                  "the frame's claim of https://sendy.co.kr / main frame leaked into the stamp: %s" % short(stamp))
            check(len(session.records("navigation")) == since, "something navigated")

        def sandboxed_frame_opaque_origin_rejected():
            since = len(session.records("navigation"))
            # Same URL origin as the page, but a sandbox without allow-same-origin makes the
            # document's origin opaque; location.origin would still say https://sendy.co.kr.
            report = frame_outcome(session, "https://sendy.co.kr/e2e/frame.html?mode=direct", sandbox="allow-scripts")
            check(report["frameOrigin"] == "null", "the sandboxed frame's origin is %r" % report["frameOrigin"])
            check(report["outcome"].get("code") == "ORIGIN_REJECTED", "the sandboxed frame got %s" % short(report["outcome"]))
            stamp = next((s for s in session.page.stamps if s["envelope"].get("id") == report["id"]), None)
            check(stamp is not None and stamp["origin"] == "null", "native stamp is %s" % short(stamp))
            check(len(session.records("navigation")) == since, "something navigated")

        def nothing_left_the_machine():
            check(not env.proxy.refused, "requests outside the served pages: %s" % short(env.proxy.refused))
            check(not session.page.protocol_errors, "reply matching: %s" % short(session.page.protocol_errors))
            check(not session.host.problems, "host output that is not JSON lines: %s" % short(session.host.problems))
            errors = session.records("error")
            check(not errors, "the host reported input errors: %s" % short(errors))

        steps = [
            ("page-origin-and-capabilities", page_origin_and_capabilities),
            ("cta-apply-resolves-applyForm", cta("cta-apply", "apply", "applyForm", apply_payloads()[2], version=2)),
            ("cta-view-vehicles-resolves-vehicleList", cta("cta-view-vehicles", "view_vehicles", "vehicleList",
                                                           {"vehicleType": "1ton", "region": "서울 강남구", "from": SLUG})),
            ("cta-start-resolves-onboardingStart", cta("cta-start", "start", "onboardingStart",
                                                       {"referrer": SLUG, "promoCode": "WELCOME50"})),
            ("korean-round-trips-byte-exact", korean_byte_exact),
            ("cross-origin-iframe-gets-ORIGIN_REJECTED", cross_origin_iframe_rejected),
            ("forged-origin-claim-in-iframe-ignored", forged_frame_claims_ignored),
            ("sandboxed-frame-opaque-origin-rejected", sandboxed_frame_opaque_origin_rejected),
            ("no-network-no-protocol-errors", nothing_left_the_machine),
        ]
        run_steps(session, steps, reporter)
    finally:
        session.close()


def logged_out_scenarios(env, reporter):
    session = Session(env, ["--logged-out"])
    try:
        campaign_with_source = dict(campaign_of(PAGE_URL), source=ENTRY_SOURCE)
        payload = apply_payloads()[2]

        def login_first_then_apply():
            from bridge_webview import spin, wait_until
            since = len(session.records("navigation"))
            result = session.click("cta-apply")
            expect_ok(result, "applyForm", env.contracts.reply_url("apply", payload, 2), pending_login=True)
            check("로그인" in result.get("text", ""), "the page does not tell the person to log in: %r" % result.get("text"))
            check(session.records("login_presented"), "the host did not present login: %s" % short(session.page.records))
            check(len(session.records("navigation")) == since, "navigated before login: %s"
                  % short(session.records("navigation")[since:]))
            session.host.send({"type": "login"})
            wait_until(lambda: any(r.get("route") == "applyForm" for r in session.records("navigation")[since:]),
                       5, "the navigation to applyForm after login")
            spin(0.3)  # a second, wrong navigation would show up here
            expect_navigation(session, "applyForm", since, campaign_with_source, count=1)
            check(len(session.records("login_presented")) == 1, "login presented %d times" % len(session.records("login_presented")))

        def navigation_completed_reaches_the_page():
            from bridge_webview import wait_until
            request_id = session.page.stamps[-1]["envelope"].get("id")
            read = "document.getElementById('result-apply').dataset.completed || null"
            outcome = wait_until(lambda: session.page.evaluate(read), 5, "the page's navigation_completed handler to run")
            check(outcome == "navigated", "the page's handler saw outcome %r" % outcome)
            check(session.page.evaluate("document.getElementById('result-apply').dataset.requestId") == request_id,
                  "the call's result did not name its request id %s" % request_id)
            posted = [e for e in session.page.events_posted if e.get("event") == "navigation_completed"]
            check([e["payload"].get("requestId") for e in posted] == [request_id],
                  "navigation_completed posted: %s" % short(posted))

        def invalid_emit_never_reaches_the_page():
            from bridge_webview import spin, wait_until
            posted_before = len(session.page.events_posted)
            number = session.host.send({"type": "emit", "event": "login_state_changed", "version": 1, "payload": {"loggedIn": "yes"}})
            error = wait_until(lambda: next((r for r in session.records("error") if r.get("line") == number), None),
                               5, "the host's error line for the invalid emit")
            check("/payload/loggedIn" in json.dumps(error.get("details")), "the error does not point at the field: %s" % short(error))
            spin(0.3)
            check(len(session.page.events_posted) == posted_before, "something was posted: %s" % short(session.page.events_posted[posted_before:]))
            check(session.page.evaluate("document.getElementById('login-state').dataset.loggedIn") == "unknown",
                  "the page's login state changed")

        def declared_event_reaches_the_page():
            from bridge_webview import wait_until
            session.host.send({"type": "emit", "event": "login_state_changed", "version": 1,
                               "payload": {"loggedIn": True, "reason": "login"}})
            read = "document.getElementById('login-state').dataset.loggedIn"
            state = wait_until(lambda: session.page.evaluate(read) if session.page.evaluate(read) != "unknown" else None,
                               5, "the page's login_state_changed handler to run")
            check(state == "true", "the page's login state is %r" % state)

        run_steps(session, [("logged-out-apply-shows-login-then-completes", login_first_then_apply),
                            ("navigation-completed-reaches-the-page-handler", navigation_completed_reaches_the_page),
                            ("invalid-emit-never-reaches-the-page", invalid_emit_never_reaches_the_page),
                            ("declared-event-reaches-the-page-handler", declared_event_reaches_the_page)], reporter)
    finally:
        session.close()


def cold_start_scenarios(env, reporter):
    session = Session(env, ["--cold-start"])
    try:
        campaign_with_source = dict(campaign_of(PAGE_URL), source=ENTRY_SOURCE)
        payload = {"referrer": SLUG, "promoCode": "WELCOME50"}

        def cold_start_waits_for_ready():
            from bridge_webview import spin, wait_until
            since = len(session.records("navigation"))
            result = session.click("cta-start")
            expect_ok(result, "onboardingStart", env.contracts.reply_url("start", payload), waiting_for_ready=True)
            spin(0.2)
            check(len(session.records("navigation")) == since, "navigated before the app was ready: %s"
                  % short(session.records("navigation")[since:]))
            session.host.send({"type": "ready"})
            wait_until(lambda: any(r.get("route") == "onboardingStart" for r in session.records("navigation")[since:]),
                       5, "the navigation to onboardingStart once ready")
            spin(0.3)
            expect_navigation(session, "onboardingStart", since, campaign_with_source, count=1)

        run_steps(session, [("cold-start-cta-waits-for-ready-then-navigates", cold_start_waits_for_ready)], reporter)
    finally:
        session.close()


def release_scenarios(env, reporter):
    """The same page (it offers apply v2 and v1) in three app builds of releases.json: the host
    runs as the build and the page gets that build's capability manifest from the Swift side."""
    campaign = campaign_of(PAGE_URL)
    campaign_with_source = dict(campaign, source=ENTRY_SOURCE)
    offered = apply_payloads()

    def sends(release, version):
        def scenario(session):
            check(session.capabilities.get("app") == {"platform": release.split("@")[0], "version": release.split("@")[1]},
                  "bridgectl capabilities --release %s gave %s" % (release, short(session.capabilities)))
            seen = session.page.evaluate("window.sendyBridgeCapabilities")
            check(seen == session.capabilities, "the page sees %s" % short(seen))
            since = len(session.records("navigation"))
            result = session.click("cta-apply")
            expect_ok(result, "applyForm", env.contracts.reply_url("apply", offered[version], version))
            envelope = session.page.stamps[-1]["envelope"]
            check(envelope.get("action") == "apply" and envelope.get("version") == version,
                  "the page sent %s v%s to %s, expected apply v%d" % (envelope.get("action"), envelope.get("version"), release, version))
            check(envelope.get("payload") == offered[version], "the payload of v%d is %s" % (version, short(envelope.get("payload"))))
            replies = [r for r in session.page.replies if r.get("id") == envelope.get("id")]
            check(len(replies) == 1 and replies[0].get("ok") is True, "the host answered %s" % short(replies))
            expect_navigation(session, "applyForm", since, campaign_with_source)
            check(not session.page.app_links, "a Universal Link was opened: %s" % short(session.page.app_links))
        return scenario

    def opens_the_universal_link(release):
        def scenario(session):
            from bridge_webview import spin, wait_until
            check("apply" not in session.capabilities["actions"], "%s has apply: %s" % (release, short(session.capabilities)))
            stamps_before = len(session.page.stamps)
            result = session.click("cta-apply")
            check(result.get("state") == "ok" and result.get("fallback") == "true", "the page did not fall back: %s" % short(result))
            url = env.contracts.reply_url("apply", offered[2], 2)
            check(result.get("url") == url, "resolved with url %r, expected %r" % (result.get("url"), url))
            opened = env.contracts.link_with_campaign(url, campaign)
            wait_until(lambda: session.page.app_links, 5, "the page to open the Universal Link")
            check(session.page.app_links == [opened], "the WebView was asked to open %s, expected [%s]" % (short(session.page.app_links), opened))
            spin(0.2)
            check(len(session.page.stamps) == stamps_before, "a message reached the host: %s" % short(session.page.stamps[stamps_before:]))
            check(not session.records("navigation"), "the host navigated: %s" % short(session.records("navigation")))
        return scenario

    def answers_the_capabilities_request(session):
        from bridge_webview import wait_until
        session.page.evaluate("""window.webkit.messageHandlers.sendyBridge.postMessage(
            {v: 1, id: "e2e-capabilities-1", action: "capabilities", version: 1, payload: {}})
            .then(function (reply) { window.__capabilitiesReply = reply; }, function (error) { window.__capabilitiesReply = String(error); }), true""")
        raw = wait_until(lambda: session.page.evaluate("window.__capabilitiesReply || null"), 5, "the capabilities reply")
        reply = json.loads(raw) if isinstance(raw, str) and raw.startswith("{") else raw
        check(isinstance(reply, dict) and reply.get("ok") is True and reply.get("id") == "e2e-capabilities-1",
              "the host answered %s" % short(raw))
        check(reply.get("result") == session.capabilities, "the request got %s, the document-start script %s"
              % (short(reply.get("result")), short(session.capabilities)))

    for release, steps in [
        ("ios@5.12.0", [("release-apply-v1-only-gets-v1", sends("ios@5.12.0", 1)),
                        ("release-capabilities-request-answered-like-the-script", answers_the_capabilities_request)]),
        ("android@5.9.4", [("release-without-apply-opens-the-universal-link", opens_the_universal_link("android@5.9.4"))]),
        ("ios@5.13.0", [("release-apply-v2-gets-v2", sends("ios@5.13.0", 2))]),
    ]:
        session = Session(env, release=release)
        try:
            run_steps(session, [(name, (lambda step: lambda: step(session))(step)) for name, step in steps], reporter)
        finally:
            session.close()


SLOW_DETAIL_MS = 800
SLOWER_THAN_TIMEOUT_MS = 4000


def slow_detail_scenarios(env, reporter):
    """The app's detail fetch takes time (wall clock): the page's promise waits for it, or, when it
    would outlast the action's timeoutMs, gets "resolving" before the shim gives up."""
    session = Session(env, ["--detail-latency", str(SLOW_DETAIL_MS), "--fail-detail", "onboardingStart"])
    try:
        campaign_with_source = dict(campaign_of(PAGE_URL), source=ENTRY_SOURCE)
        contracts = env.contracts
        payload = {"vehicleType": "1ton", "region": "서울 강남구", "from": SLUG}

        def slow_detail_reply_waits_for_the_fetch():
            since = len(session.records("navigation"))
            started = time.monotonic()
            result = session.click("cta-view-vehicles")
            waited = time.monotonic() - started
            expect_ok(result, "vehicleList", contracts.reply_url("view_vehicles", payload))
            check(result.get("resolving") == "false", "resolving is %r for a fetch within the timeout" % result.get("resolving"))
            check(waited >= SLOW_DETAIL_MS / 1000.0 - 0.05, "the promise settled after %.2fs, before the %d ms fetch" % (waited, SLOW_DETAIL_MS))
            timeout_s = contracts.timeout_ms("view_vehicles") / 1000.0
            check(waited < timeout_s, "the promise settled after %.2fs, past the %.1fs timeout" % (waited, timeout_s))
            steps = [r for r in session.records("step") if r.get("step") == "resolveDetail"]
            check(steps and steps[-1].get("ms") == SLOW_DETAIL_MS, "the host recorded no %d ms detail step: %s" % (SLOW_DETAIL_MS, short(steps)))
            expect_navigation(session, "vehicleList", since, campaign_with_source)

        def failed_detail_rejects_with_the_reason():
            since = len(session.records("navigation"))
            result = session.click("cta-start")
            check(result.get("state") == "error", "the promise did not reject: %s" % short(result))
            check(result.get("code") == "NAVIGATION_FAILED", "rejected with %r" % result.get("code"))
            reply = session.page.replies[-1]
            details = reply.get("error", {}).get("details") or [{}]
            check(details[0].get("reason") == "detail_failed" and details[0].get("step") == "resolveDetail",
                  "the reply's details are %s" % short(details))
            check(len(session.records("navigation")) == since, "something navigated")

        run_steps(session, [("slow-detail-reply-waits-for-the-fetch", slow_detail_reply_waits_for_the_fetch),
                            ("failed-detail-rejects-NAVIGATION_FAILED-with-reason", failed_detail_rejects_with_the_reason)],
                  reporter)
    finally:
        session.close()

    session = Session(env, ["--detail-latency", str(SLOWER_THAN_TIMEOUT_MS)])
    try:
        campaign_with_source = dict(campaign_of(PAGE_URL), source=ENTRY_SOURCE)
        payload = {"vehicleType": "1ton", "region": "서울 강남구", "from": SLUG}

        def slower_than_timeout_resolves_before_it():
            from bridge_webview import wait_until
            since = len(session.records("navigation"))
            timeout_ms = env.contracts.timeout_ms("view_vehicles")
            started = time.monotonic()
            result = session.click("cta-view-vehicles", timeout=timeout_ms / 1000.0 + 3)
            waited = time.monotonic() - started
            expect_ok(result, "vehicleList", env.contracts.reply_url("view_vehicles", payload))
            check(result.get("resolving") == "true", "resolving is %r for a fetch slower than the timeout" % result.get("resolving"))
            check(waited < timeout_ms / 1000.0, "the reply came after %.2fs, past the shim's %d ms timeout" % (waited, timeout_ms))
            check(waited >= (timeout_ms - 500) / 1000.0 - 0.05, "the reply came after %.2fs, earlier than timeoutMs - 500" % waited)
            check("준비" in result.get("text", ""), "the page does not say the screen is on its way: %r" % result.get("text"))
            check(len(session.records("navigation")) == since, "navigated before the fetch finished")
            wait_until(lambda: any(r.get("route") == "vehicleList" for r in session.records("navigation")[since:]),
                       SLOWER_THAN_TIMEOUT_MS / 1000.0 + 2, "the navigation once the fetch finished")
            expect_navigation(session, "vehicleList", since, campaign_with_source)
            check(len([r for r in session.page.replies if r.get("id") == session.page.stamps[-1]["envelope"].get("id")]) == 1,
                  "the request got more than one reply")

        run_steps(session, [("slower-than-timeout-resolves-before-it-then-navigates", slower_than_timeout_resolves_before_it)],
                  reporter)
    finally:
        session.close()


PICKUP = {"lat": 37.4979502, "lng": 127.0276368, "name": "센디 강남 픽업존 (강남역 2번 출구)"}


def directions_scenarios(env, reporter):
    """길찾기 (open_directions): the host's device has Kakao Map installed, then nothing at all."""
    def expect_opened(session, provider, target, kind):
        from bridge_webview import spin
        since = len(session.records("external_open"))
        session.set_field("mapApp", provider)
        result = session.click("cta-directions")
        check(result.get("state") == "ok", "the page's promise did not resolve: %s" % short(result))
        payload = {"destination": PICKUP, "provider": provider}
        check(result.get("url") == env.contracts.reply_url("open_directions", payload),
              "resolved with url %r, expected %r" % (result.get("url"), env.contracts.reply_url("open_directions", payload)))
        check(result.get("opened") == target and result.get("provider") == provider,
              "resolved with opened=%r provider=%r, expected %s/%s" % (result.get("opened"), result.get("provider"), target, provider))
        spin(0.1)
        opens = session.records("external_open")[since:]
        expected = env.contracts.external_url("directions", provider, kind, dict(PICKUP, provider=provider))
        check([o.get("url") for o in opens if o.get("opened")] == [expected],
              "the host opened %s, expected exactly %s" % (short([o.get("url") for o in opens]), expected))
        events = [r for r in session.records("event") if r.get("name") == "external_app_opened"]
        check(events and events[-1].get("properties", {}).get("campaign_id") == campaign_of(PAGE_URL)["campaign_id"],
              "no external_app_opened event with the page's campaign: %s" % short(events[-1:] if events else None))
        check(not session.records("navigation"), "an in-app screen was pushed: %s" % short(session.records("navigation")))

    session = Session(env, ["--installed", "kakaomap"])
    try:
        steps = [
            ("directions-opens-installed-kakao-map", lambda: expect_opened(session, "kakaomap", "app", "app")),
            ("directions-to-tmap-not-installed-opens-app-store", lambda: expect_opened(session, "tmap", "fallback", "fallback")),
        ]
        run_steps(session, steps, reporter)
    finally:
        session.close()

    session = Session(env)
    try:
        run_steps(session, [("directions-without-map-apps-opens-kakao-web",
                             lambda: expect_opened(session, "kakaomap", "fallback", "fallback"))], reporter)
    finally:
        session.close()


def run_steps(session, steps, reporter):
    failed_before = reporter.failed
    try:
        _run_steps(session, steps, reporter)
    finally:
        if reporter.failed > failed_before:
            dump_transcript(session)


def dump_transcript(session, count=40):
    """On failure: the last host lines in and out, on stderr, so CI logs show what happened."""
    print("--- host transcript (%s), last %d lines each:" % (" ".join(session.host.command[1:]), count), file=sys.stderr)
    for line in session.host.sent[-count:]:
        print("  in : " + line, file=sys.stderr)
    for line in session.host.all_lines[-count:]:
        print("  out: " + json.dumps(line, ensure_ascii=False), file=sys.stderr)
    if session.host.stderr_text:
        print("  stderr: " + session.host.stderr_tail(10), file=sys.stderr)
    sys.stderr.flush()


def _run_steps(session, steps, reporter):
    try:
        session.open()
    except Exception as error:
        why = "the page did not open: %s: %s (host stderr: %s)" % (type(error).__name__, error, session.host.stderr_tail())
        for name, _ in steps:
            reporter.fail(name, why)
        return
    for name, step in steps:
        reporter.run(name, step)
        if not session.host.alive:
            reporter.fail("host-stays-alive", "bridgectl host exited with %s: %s"
                          % (session.host.process.returncode, session.host.stderr_tail()))
            for rest, _ in steps[steps.index((name, step)) + 1:]:
                reporter.fail(rest, "not run: the host process is gone")
            return


class Environment:
    def capabilities(self, release=None, script=False):
        """What the Swift host gives the page for `release` (None: a development host): the
        manifest, or with script=True the document-start script, from `bridgectl capabilities`."""
        import subprocess
        key = (release, script)
        cache = self.__dict__.setdefault("_capabilities", {})
        if key not in cache:
            command = [self.bridgectl, "capabilities"] + (["--release", release] if release else []) + (["--script"] if script else [])
            if self.contracts_dir:
                command += ["--contracts", self.contracts_dir]
            done = subprocess.run(command, capture_output=True, text=True, timeout=30)
            if done.returncode != 0:
                raise RuntimeError("%s failed: %s" % (" ".join(command), done.stderr.strip()))
            cache[key] = done.stdout if script else json.loads(done.stdout)
        return cache[key]


def message_shape_scenario(env, reporter):
    """Each body shape the page can post, as WebKit hands it to the native handler, against the
    committed e2e/data/webkit-message-shapes.json that the Swift adapter tests build from."""
    import bridge_webview
    import message_shapes

    def shapes_as_committed():
        shapes = message_shapes.record_shapes(env.web_context)
        difference = message_shapes.compare_or_record(shapes, bridge_webview.webkit_version())
        check(difference is None, difference or "")

    reporter.run("webkit-message-shapes-as-committed", shapes_as_committed)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bridgectl", required=True)
    parser.add_argument("--repo", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    parser.add_argument("--contracts", default=None, help="contracts folder (default: the repo's contracts/)")
    args = parser.parse_args()

    env = Environment()
    env.bridgectl = os.path.abspath(args.bridgectl)
    env.contracts_dir = os.path.abspath(args.contracts) if args.contracts else None
    env.contracts = Contracts(env.contracts_dir or os.path.join(args.repo, "contracts"))
    repo = args.repo
    for required in (env.bridgectl, os.path.join(repo, "js", "bridge.js"), os.path.join(repo, "js", "examples", "event.html")):
        if not os.path.exists(required):
            print("FAIL setup: %s is missing" % required, flush=True)
            print("0 passed, 1 failed", flush=True)
            return 2

    html = "text/html; charset=utf-8"
    script = "text/javascript; charset=utf-8"
    frame = (os.path.join(repo, "e2e", "pages", "frame.html"), html)
    sites = [
        Site("sendy.co.kr", [
            ("/event/" + SLUG, (os.path.join(repo, "js", "examples", "event.html"), html)),
            ("/bridge.js", (os.path.join(repo, "js", "bridge.js"), script)),
        ] + [
            # The hand-written runtime bridge.js imports ("./src/bridge-runtime.js").
            ("/src/" + name, (os.path.join(repo, "js", "src", name), script))
            for name in sorted(os.listdir(os.path.join(repo, "js", "src"))) if name.endswith(".js")
        ] + [
            ("/e2e/frame.html", frame),
        ]),
        Site("evil.example", [("/frame.html", frame)]),
    ]
    # The certificate's folder lives as long as the run, and is removed when it ends.
    with tempfile.TemporaryDirectory(prefix="bridgekit-e2e-") as workdir:
        certificate, key = make_certificate(workdir, [site.host for site in sites])
        return run_scenarios(env, sites, certificate, key)


def run_scenarios(env, sites, certificate, key):
    env.proxy = OriginProxy(sites, certificate, key)
    env.proxy.start()

    import bridge_webview
    env.web_context = bridge_webview.make_context(env.proxy.proxy_uri, certificate, [site.host for site in sites])

    reporter = Reporter()
    started = time.monotonic()
    message_shape_scenario(env, reporter)
    logged_in_scenarios(env, reporter)
    logged_out_scenarios(env, reporter)
    cold_start_scenarios(env, reporter)
    slow_detail_scenarios(env, reporter)
    directions_scenarios(env, reporter)
    release_scenarios(env, reporter)
    env.proxy.stop()
    print("e2e took %.1fs (WebKitGTK %s)" % (time.monotonic() - started, bridge_webview.webkit_version()), flush=True)
    print("%d passed, %d failed" % (reporter.passed, reporter.failed), flush=True)
    return 0 if reporter.failed == 0 and reporter.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
