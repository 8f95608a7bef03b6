"""The scenarios of the Android run (run_android.py), each once per channel. What a scenario
sends comes from the contract set (its fixtures, releases.json, the manifest), so another
company's contracts drive the same run; only the page (js/examples/event.html) is the example's.
"""

import datetime
import json
import os
from functools import partial
from urllib.parse import urlencode

from android_channels import CHANNELS, origin_of
from android_session import ENTRY_SOURCE, Session, run_session
from contract_model import campaign_of
from run_e2e import check, short

UNREADABLE_ID = "unreadable-0001"
LONE_SURROGATE_ESCAPE = "\\ud83d"   # the six characters of a JSON escape of a lone high surrogate
PROMPT_MS = 2000                    # "promptly": a reply or refusal well before any action's timeout
AT_ONCE_MS = 1500


def run_all(env, reporter):
    for channel in CHANNELS:
        app_scenarios(env, reporter, channel)
        frame_scenarios(env, reporter, channel)
        logged_out_scenarios(env, reporter, channel)
        handshake_scenario(env, reporter, channel)
        for release in env.fixtures.android_releases():
            release_scenarios(env, reporter, channel, release)
        lookalike_scenarios(env, reporter, channel)
    reporter.run("no-stray-requests-no-protocol-errors", partial(nothing_stray, env))


# --- helpers -------------------------------------------------------------------------------------

def first_plain(env):
    """(action, version, fixture): the first action of the manifest with a plain valid fixture."""
    for action, versions in env.fixtures.actions():
        for version in versions:
            plain = env.fixtures.plain(action, version)
            if plain:
                return action, version, plain[0]
    raise LookupError("no valid fixture without special conditions in the contracts")


def with_first_string(value, replace):
    """A copy of value with its first string leaf (depth first, in key order) replaced."""
    done = [False]

    def walk(node):
        if isinstance(node, str) and not done[0]:
            done[0] = True
            return replace(node)
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node
    copy = walk(value)
    if not done[0]:
        raise LookupError("no string in %s" % short(value))
    return copy


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def posts_since(session, count, action=None):
    posts = session.page.posts[count:]
    return [p for p in posts if action is None or p["envelope"].get("action") == action]


def expect_nothing_posted(session, since, what):
    session.quiesce()
    check(not session.page.posts[since:], "%s, yet the page posted %s" % (what, short([p["text"] for p in session.page.posts[since:]])))


def post_with_id(session, request_id):
    posts = [p for p in session.page.posts if p["envelope"].get("id") == request_id]
    check(len(posts) == 1, "the app got %d posts with id %s" % (len(posts), request_id))
    return posts[0]


def navigations_since(session, since):
    return [r for r in session.page.records[since:] if r.get("type") == "navigation"]


def page_campaign(session):
    return dict(campaign_of(session.url), source=ENTRY_SOURCE)


# --- a development host: every action from its fixtures, hostile input, frames ----------------------

def app_scenarios(env, reporter, channel):
    session = Session(env, channel)
    steps = [(channel + "-page-gets-its-channel-and-manifest", partial(page_has_the_channel, session))]
    for action, versions in env.fixtures.actions():
        steps.append(("%s-action-%s-as-its-fixtures" % (channel, action), partial(action_as_fixtures, session, action, versions)))
    steps += [(channel + "-unreadable-message-reply-carries-its-id", partial(unreadable_message, session)),
              (channel + "-lone-surrogate-call-rejects-INVALID_PARAMS-at-once", partial(lone_surrogate_call, session))]
    run_session(env, reporter, session, steps)


def page_has_the_channel(session):
    names, env = session.page.names, session.env
    session.quiesce()   # the host's answer to the open line is in
    state = session.page.evaluate("""({origin: self.origin, href: location.href, webkit: typeof window.webkit,
        listener: typeof window[%s], androidInterface: typeof window[%s], binding: typeof window.__bridgekitAndroidPost,
        capabilities: window[%s] || null})""" % (json.dumps(names["bridge"]), json.dumps(names["androidInterface"]),
                                                 json.dumps(names["capabilitiesGlobal"])))
    check(state["origin"] == env.page_origin and state["href"] == session.url, "the page is %s at %s" % (state["origin"], state["href"]))
    present = {"listener": state["listener"], "interface": state["androidInterface"]}
    for channel, kind in present.items():
        want = "object" if channel == session.channel else "undefined"
        check(kind == want, "typeof the %s channel object is %s, expected %s" % (channel, kind, want))
    check(state["webkit"] == "undefined", "window.webkit is %s in an Android WebView" % state["webkit"])
    check(state["binding"] == "undefined", "the harness's binding is visible to the page")
    check(state["capabilities"] == session.capabilities, "the page's manifest is %s, bridgectl capabilities gives %s"
          % (short(state["capabilities"]), short(session.capabilities)))
    check(env.page_origin + "/bridge.js" in env.proxy.requests, "js/bridge.js was not loaded from %s/bridge.js" % env.page_origin)
    opened = [r for r in session.page.records_of("event") if r.get("name") == env.contracts.manifest["analytics"]["pageOpened"]]
    check(opened and all(opened[-1]["properties"].get(k) == v for k, v in campaign_of(session.url).items()),
          "the host's page-opened event does not carry the page's campaign: %s" % short(opened))


def action_as_fixtures(session, action, versions):
    ran = []
    for version in versions:
        for fixture in session.env.fixtures.plain(action, version):
            call_as_fixture(session, action, version, fixture)
            ran.append(os.path.basename(fixture["file"]))
    check(ran, "no valid fixture of %s without special conditions to send" % action)


def call_as_fixture(session, action, version, fixture):
    name, expect, payload = os.path.basename(fixture["file"]), fixture["expect"], fixture["message"]["payload"]
    notify = expect["reply"] is None
    session.host.send({"type": "installed", "apps": fixture.get("installed", [])})
    posts, records, replies = len(session.page.posts), len(session.page.records), len(session.page.replies)
    outcome = session.send(action, version, payload, notify=notify)
    check(outcome["state"] == "ok", "%s: the call did not resolve: %s" % (name, short(outcome)))
    wanted = None if notify else expect["reply"]["result"]
    check(outcome["result"] == wanted, "%s: resolved with %s, the fixture expects %s" % (name, short(outcome["result"]), short(wanted)))
    sent = posts_since(session, posts, action)
    check(len(sent) == 1, "%s: the page posted %d %s messages" % (name, len(sent), action))
    envelope = sent[0]["envelope"]
    check(envelope.get("version") == version and envelope.get("payload") == payload,
          "%s: the host got v%s %s" % (name, envelope.get("version"), short(envelope.get("payload"))))
    check((sent[0]["origin"], sent[0]["isMainFrame"]) == (session.env.page_origin, True),
          "%s: the app saw the sender as %s, main frame %s" % (name, sent[0]["origin"], sent[0]["isMainFrame"]))
    check(envelope.get("campaign") == campaign_of(session.url), "%s: the envelope's campaign is %s" % (name, short(envelope.get("campaign"))))
    session.quiesce()
    expect_host_records(session, name, expect, records)
    if notify:
        check("id" not in envelope and len(session.page.replies) == replies,
              "%s: a notification got a reply: %s" % (name, short(session.page.replies[replies:])))


def expect_host_records(session, name, expect, since):
    navigations = navigations_since(session, since)
    if expect.get("navigation"):
        check(len(navigations) == 1 and navigations[0].get("route") == expect["navigation"]["route"]
              and navigations[0].get("url") == expect["navigation"]["url"],
              "%s: the host navigated %s, the fixture expects %s" % (name, short(navigations), short(expect["navigation"])))
        check(navigations[0].get("campaign") == page_campaign(session),
              "%s: the navigation's campaign is %s" % (name, short(navigations[0].get("campaign"))))
    else:
        check(not navigations, "%s: the host navigated %s" % (name, short(navigations)))
    if expect.get("external"):
        opened = [r.get("url") for r in session.page.records[since:] if r.get("type") == "external_open" and r.get("opened")]
        check(opened == [expect["external"]["url"]], "%s: the host opened %s, the fixture expects %s" % (name, short(opened), expect["external"]["url"]))


def unreadable_text(env):
    """A fixture's envelope with id UNREADABLE_ID and its first payload string a lone surrogate:
    JSON text no conforming parser reads, yet its id is there to see."""
    _, _, fixture = first_plain(env)
    message = dict(fixture["message"], id=UNREADABLE_ID)
    message["payload"] = with_first_string(message["payload"], lambda _text: "@@lone@@")
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).replace("@@lone@@", LONE_SURROGATE_ESCAPE)


def unreadable_message(session):
    text = unreadable_text(session.env)
    received = session.page.evaluate("window.__bridgekitE2E.received.length")
    posted_at = session.page.evaluate("window.__bridgekitE2E.postRaw(%s, %s)" % (json.dumps(session.channel), json.dumps(text)))
    entry = session.until("function (e) { return e.received[%d]; }" % received, PROMPT_MS, "a reply to the unreadable message")
    check(session.page.posts and session.page.posts[-1]["text"] == text, "the app got %r, the page posted %r"
          % (session.page.posts[-1]["text"] if session.page.posts else None, text))
    reply = json.loads(entry["text"])
    error = reply.get("error") or {}
    check(reply.get("id") == UNREADABLE_ID, "the page's reply (after %.0f ms) carries id %s, not %r: %s"
          % (entry["at"] - posted_at, json.dumps(reply.get("id")), UNREADABLE_ID, short(reply)))
    check(reply.get("ok") is False and error.get("code") == "INVALID_MESSAGE", "the reply is %s" % short(reply))


def lone_surrogate_call(session):
    action, version, fixture = first_plain(session.env)
    payload = with_first_string(fixture["message"]["payload"], lambda text: text + "\ud83d")
    posts = len(session.page.posts)
    outcome = session.page.evaluate("window.__bridgekitE2E.sendWithin(%s, %d, %s, %d)"
                                    % (json.dumps(action), version, json.dumps(payload), AT_ONCE_MS))
    posted = "posted" if session.page.posts[posts:] else "not posted"
    check(outcome["state"] == "error", "%s v%d with a lone surrogate did not reject within %d ms (%s): %s"
          % (action, version, AT_ONCE_MS, posted, short(outcome)))
    check(outcome["code"] == "INVALID_PARAMS", "rejected with %s after %.0f ms (%s): %s" % (outcome["code"], outcome["ms"], posted, outcome["message"]))


# --- frames ----------------------------------------------------------------------------------------

def frame_scenarios(env, reporter, channel):
    """A session of its own: a frame's post the host accepts must not meet an earlier request for
    the same destination within the duplicate window."""
    session = Session(env, channel)
    if channel == "listener":
        steps = [("listener-iframe-post-gets-ORIGIN_REJECTED", partial(listener_iframe_rejected, session)),
                 ("listener-cross-site-iframe-has-no-listener-object", partial(listener_cross_site_frame, session))]
    else:
        steps = [("interface-cross-site-iframe-post-passes-as-the-page", partial(interface_cross_site_frame, session))]
    run_session(env, reporter, session, steps)


def frame_body(env, token):
    _, _, fixture = first_plain(env)
    return json.dumps(dict(fixture["message"], id="frame-" + token, sentAt=now_iso()), ensure_ascii=False)


def add_frame(session, origin_and_path):
    """Adds an Android frame page to the top page; returns (its report, the id it posted)."""
    # Unique within the session; with its prefix a valid envelope id (8 to 64 characters).
    token = "%08d" % (len(session.page.posts) * 1000 + len(session.page.records))
    body = frame_body(session.env, token)
    names = session.page.names
    src = origin_and_path + "?" + urlencode({"channel": session.channel, "bridge": names["bridge"],
                                             "interface": names["androidInterface"], "token": token, "body": body})
    session.page.evaluate("window.__bridgekitE2E.addFrame(%s)" % json.dumps(src))
    report = session.until("function (e) { return e.frames.filter(function (f) { return f.token === %s; })[0]; }" % json.dumps(token),
                           8000, "the frame %s to report" % origin_and_path)
    return report, "frame-" + token


def listener_iframe_rejected(session):
    since = len(session.page.records)
    report, request_id = add_frame(session, session.env.page_origin + "/e2e/android-frame.html")
    outcome = report["outcome"]
    check(outcome.get("settled") == "reply", "the same-origin frame got %s" % short(outcome))
    reply = outcome["reply"]
    check(reply.get("id") == request_id and (reply.get("error") or {}).get("code") == "ORIGIN_REJECTED",
          "the frame's reply proxy brought %s" % short(reply))
    post = post_with_id(session, request_id)
    check((post["origin"], post["isMainFrame"]) == (session.env.page_origin, False),
          "the listener saw sourceOrigin %s, isMainFrame %s" % (post["origin"], post["isMainFrame"]))
    session.quiesce()
    check(not navigations_since(session, since), "something navigated: %s" % short(navigations_since(session, since)))


def listener_cross_site_frame(session):
    posts = len(session.page.posts)
    report, _ = add_frame(session, session.env.attacker_origin + "/android-frame.html")
    check(report["frameOrigin"] == session.env.attacker_origin, "the frame's origin is %s" % report["frameOrigin"])
    check(report["outcome"].get("settled") == "none", "a frame of %s has the listener object: %s"
          % (session.env.attacker_origin, short(report["outcome"])))
    expect_nothing_posted(session, posts, "the frame has no channel")


def interface_cross_site_frame(session):
    """Android names no sender to a JavascriptInterface: the app reads WebView.getUrl(), so a frame
    of another site that calls the interface passes for the page. Pinned here so docs can say it."""
    report, request_id = add_frame(session, session.env.attacker_origin + "/android-frame.html")
    check(report["outcome"].get("settled") == "posted", "the cross-site frame got %s" % short(report["outcome"]))
    post = post_with_id(session, request_id)
    check((post["origin"], post["isMainFrame"]) == (session.env.page_origin, True),
          "the app saw the frame's post as %s, main frame %s" % (post["origin"], post["isMainFrame"]))
    entry = session.until("function (e) { return e.received.filter(function (r) { return r.text.indexOf(%s) >= 0; })[0]; }"
                          % json.dumps(request_id), PROMPT_MS, "the reply to the frame's post in the top page")
    check(json.loads(entry["text"]).get("ok") is True, "the host refused the frame's post: %s" % entry["text"])


# --- logged out, then login; events -------------------------------------------------------------------

def logged_out_scenarios(env, reporter, channel):
    session = Session(env, channel, ["--logged-out"])
    state = {}
    steps = [(channel + "-logged-out-call-pends-then-login-navigates", partial(logged_out_then_login, session, state)),
             (channel + "-navigation-completed-reaches-bridge-on", partial(navigation_completed, session, state))]
    for name in env.event_names[1:]:
        steps.append(("%s-event-%s-reaches-bridge-on" % (channel, name), partial(declared_event, session, name)))
    run_session(env, reporter, session, steps)


def logged_out_then_login(session, state):
    fixtures = session.env.fixtures.logged_out()
    check(fixtures, "the contracts have no valid fixture of a logged-out sender")
    message, expected = fixtures[0]["message"], fixtures[0]["expect"]["reply"]["result"]
    since, posts = len(session.page.records), len(session.page.posts)
    outcome = session.send(message["action"], message["version"], message["payload"])
    sent = posts_since(session, posts, message["action"])
    check(outcome["state"] == "ok" and sent, "the call did not resolve: %s" % short(outcome))
    request_id = sent[0]["envelope"]["id"]
    check(outcome["result"] == dict(expected, requestId=request_id), "resolved with %s, expected %s and requestId %s"
          % (short(outcome["result"]), short(expected), request_id))
    session.quiesce()
    check(session.page.records_of("login_presented"), "the host did not present login")
    check(not navigations_since(session, since), "navigated before login: %s" % short(navigations_since(session, since)))
    session.host.send({"type": "login"})
    session.quiesce()
    navigations = navigations_since(session, since)
    check([(n.get("route"), n.get("url")) for n in navigations] == [(expected["route"], expected["url"])],
          "after login the host navigated %s" % short(navigations))
    state.update(requestId=request_id, route=expected["route"])


def navigation_completed(session, state):
    check(state.get("requestId"), "no call waited for login")
    entry = session.until("function (e) { return e.events.filter(function (x) { return x.event === 'navigation_completed'"
                          " && x.payload.requestId === %s; })[0]; }" % json.dumps(state["requestId"]), PROMPT_MS,
                          "navigation_completed for %s in the page's handler" % state["requestId"])
    check(entry["payload"].get("outcome") == "navigated" and entry["payload"].get("route") == state["route"],
          "the handler got %s" % short(entry["payload"]))
    delivered = [d for d in session.page.delivered if d["kind"] == "event" and state["requestId"] in d["text"]]
    check(len(delivered) == 1, "the harness delivered it %d times" % len(delivered))


def declared_event(session, name):
    fixtures = session.env.fixtures.events_of(name)
    valid = [f["message"] for f in fixtures if f["expect"].get("valid")]
    check(valid, "no valid fixture of the event %s" % name)
    count = "e.events.filter(function (x) { return x.event === %s; })" % json.dumps(name)
    for index, message in enumerate(valid):
        session.host.send({"type": "emit", "event": name, "version": message["version"], "payload": message["payload"]})
        got = session.until("function (e) { var l = %s; return l.length > %d && l[%d]; }" % (count, index, index),
                            PROMPT_MS, "%s %s in the page's handler" % (name, short(message["payload"])))
        check(got["payload"] == message["payload"] and got["version"] == message["version"],
              "the handler got v%s %s, the host emitted v%s %s" % (got["version"], short(got["payload"]), message["version"], short(message["payload"])))
    for fixture in (f for f in fixtures if not f["expect"].get("valid")):
        message = fixture["message"]
        line = session.host.send({"type": "emit", "event": name, "version": message["version"], "payload": message["payload"]})
        session.quiesce()
        check(any(r.get("line") == line for r in session.page.records_of("error")), "the host took the invalid %s" % short(message["payload"]))
        session.expected_errors += 1
    delivered = session.page.evaluate("%s.length" % count.replace("e.events", "window.__bridgekitE2E.events"))
    check(delivered == len(valid), "the page's handler ran %d times for %d valid events" % (delivered, len(valid)))


# --- the capability handshake, old builds ---------------------------------------------------------------

def partial_release_action(env):
    """(release, action): an Android build that takes some but not all versions of an action, else
    the first Android build and the first action it takes."""
    releases = env.fixtures.android_releases()
    for release in releases:
        taken = env.fixtures.release_actions(release)
        for action, versions in env.fixtures.actions():
            if taken.get(action) and set(taken[action]) < set(versions):
                return release, action
    taken = env.fixtures.release_actions(releases[0])
    return releases[0], next(action for action, _ in env.fixtures.actions() if action in taken)


def offers_of(env, action):
    return {version: env.fixtures.payload(action, version) for version in dict(env.fixtures.actions())[action]}


def handshake_scenario(env, reporter, channel):
    release, action = partial_release_action(env)
    session = Session(env, channel, release=release, inject=False)
    top = max(env.fixtures.release_actions(release)[action])
    run_session(env, reporter, session, [("%s-capability-handshake-%s-%s-sends-v%d" % (channel, release, action, top),
                                          partial(capability_handshake, session, action, top))])


def capability_handshake(session, action, top):
    global_name = session.page.names["capabilitiesGlobal"]
    check(session.page.evaluate("typeof window[%s]" % json.dumps(global_name)) == "undefined", "a manifest was injected")
    outcome = session.offer(action, offers_of(session.env, action))
    check(outcome["state"] == "ok", "the call did not resolve: %s" % short(outcome))
    kinds = [(p["envelope"].get("action"), p["envelope"].get("version")) for p in session.page.posts]
    check(kinds == [("capabilities", 1), (action, top)], "the page posted %s, expected the capabilities request, then %s v%d"
          % (kinds, action, top))
    answers = [r for r in session.page.replies if r.get("id") == session.page.posts[0]["envelope"].get("id")]
    check(len(answers) == 1, "the capabilities request got %d replies" % len(answers))
    answer = answers[0]
    check(answer.get("result") == session.capabilities, "the host answered %s, bridgectl capabilities gives %s"
          % (short(answer), short(session.capabilities)))
    learned = session.page.evaluate("window.__bridgekitE2E.bridge.capabilities()")
    check(learned == session.capabilities, "the page learned %s" % short(learned))


def release_scenarios(env, reporter, channel, release):
    session = Session(env, channel, release=release)
    taken = env.fixtures.release_actions(release)
    steps = []
    for action, versions in env.fixtures.actions():
        name, step = release_step(session, action, versions, taken.get(action, []))
        steps.append(("%s-%s-%s-%s" % (channel, release, action, name), step))
    run_session(env, reporter, session, steps)


def release_step(session, action, versions, taken):
    top = max(versions)
    fallback = session.env.contracts.action(action, top).get("fallback", "none")
    if set(taken) == set(versions):
        return "sends-v%d" % top, partial(old_build_sends, session, action, top)
    if taken:
        missing = sorted(set(versions) - set(taken))
        return ("sends-v%d-refuses-v%s-UNSUPPORTED_VERSION" % (max(taken), "-v".join(map(str, missing))),
                partial(old_build_refuses, session, action, taken, missing))
    if fallback == "universalLink":
        return "opens-the-universal-link", partial(old_build_opens_link, session, action)
    return "UNSUPPORTED_VERSION-no-fallback", partial(old_build_without_fallback, session, action)


def old_build_sends(session, action, version):
    posts = len(session.page.posts)
    outcome = session.offer(action, offers_of(session.env, action))
    sent = posts_since(session, posts, action)
    check(outcome["state"] == "ok", "the call did not resolve: %s" % short(outcome))
    check([p["envelope"].get("version") for p in sent] == [version], "the page sent versions %s, expected [%d]"
          % ([p["envelope"].get("version") for p in sent], version))


def old_build_refuses(session, action, taken, missing):
    old_build_sends(session, action, max(taken))
    for version in missing:
        posts = len(session.page.posts)
        outcome = session.send(action, version, session.env.fixtures.payload(action, version))
        details = outcome.get("details") or [{}]
        check(outcome["state"] == "error" and outcome["code"] == "UNSUPPORTED_VERSION", "%s v%d: %s" % (action, version, short(outcome)))
        check(details[0].get("supportedVersions") == taken, "the refusal names versions %s, the build takes %s"
              % (details[0].get("supportedVersions"), taken))
        expect_nothing_posted(session, posts, "the shim refused v%d" % version)


def old_build_opens_link(session, action):
    offers = offers_of(session.env, action)
    top = max(offers)
    posts, links = len(session.page.posts), len(session.page.app_links)
    outcome = session.offer(action, offers)
    url = session.env.contracts.reply_url(action, offers[top], top)
    check(outcome["state"] == "ok" and outcome["result"].get("fallback") is True and outcome["result"].get("url") == url,
          "expected the fallback to %s: %s" % (url, short(outcome)))
    opened = session.env.contracts.link_with_campaign(url, campaign_of(session.url))
    session.env.loop.wait_until(lambda: len(session.page.app_links) > links, 5, "the page to open " + opened)
    check(session.page.app_links[links:] == [opened], "the WebView was asked to open %s, expected %s" % (session.page.app_links[links:], opened))
    expect_nothing_posted(session, posts, "the build has no %s" % action)


def old_build_without_fallback(session, action):
    posts = len(session.page.posts)
    outcome = session.offer(action, offers_of(session.env, action))
    details = outcome.get("details") or [{}]
    check(outcome["state"] == "error" and outcome["code"] == "UNSUPPORTED_VERSION" and details[0].get("supportedVersions") == [],
          "expected UNSUPPORTED_VERSION naming no versions: %s" % short(outcome))
    expect_nothing_posted(session, posts, "the build has no %s" % action)


# --- a look-alike of the allowed origin ---------------------------------------------------------------

def lookalike_scenarios(env, reporter, channel):
    origin = env.lookalike_origin
    if channel == "interface":
        session = Session(env, channel, origin=origin)
        run_session(env, reporter, session, [("interface-lookalike-origin-gets-ORIGIN_REJECTED", partial(lookalike_rejected, session))])
        return
    session = Session(env, channel, origin=origin)
    run_session(env, reporter, session, [("listener-lookalike-origin-gets-no-listener-object", partial(lookalike_without_listener, session))])
    session = Session(env, channel, origin=origin, listener_rules=["*"])
    run_session(env, reporter, session, [("listener-any-origin-rules-lookalike-gets-ORIGIN_REJECTED", partial(lookalike_rejected, session))])


def lookalike_rejected(session):
    action, version, fixture = first_plain(session.env)
    since = len(session.page.records)
    outcome = session.send(action, version, fixture["message"]["payload"])
    check(outcome["state"] == "error" and outcome["code"] == "ORIGIN_REJECTED", "the call at %s: %s" % (session.origin, short(outcome)))
    check(session.page.posts and all(p["origin"] == session.origin for p in session.page.posts),
          "the app saw senders %s" % sorted({p["origin"] for p in session.page.posts}))
    session.quiesce()
    check(not navigations_since(session, since), "something navigated: %s" % short(navigations_since(session, since)))


def lookalike_without_listener(session):
    names = session.page.names
    kinds = session.page.evaluate("[typeof window[%s], typeof window[%s]]" % (json.dumps(names["bridge"]), json.dumps(names["capabilitiesGlobal"])))
    check(kinds == ["undefined", "undefined"], "at %s the listener object and manifest are %s" % (session.origin, kinds))
    action, version, fixture = first_plain(session.env)
    outcome = session.send(action, version, fixture["message"]["payload"])
    fallback = session.env.contracts.action(action, version).get("fallback", "none")
    if fallback == "universalLink":
        check(outcome["state"] == "ok" and outcome["result"].get("fallback") is True, "outside the app the call gave %s" % short(outcome))
    else:
        check(outcome["state"] == "error" and outcome["code"] == "UNAVAILABLE", "outside the app the call gave %s" % short(outcome))
    expect_nothing_posted(session, 0, "the page has no channel")


# --- the whole run ------------------------------------------------------------------------------------

def nothing_stray(env):
    """The pages requested nothing but the served origins, and nothing there that is not served
    (Chromium's own favicon fetch aside; its background services, refused by the proxy, are not
    the pages'), and no session had protocol trouble: unmatched replies, undelivered messages,
    page exceptions, host error lines nobody asked for, output that is not JSON lines."""
    served = (env.page_origin, env.lookalike_origin, env.attacker_origin)
    elsewhere = sorted({url for url in env.page_requests if origin_of(url) not in served and not url.startswith(("about:", "data:"))})
    check(env.page_requests and not elsewhere, "the pages requested %s" % short(elsewhere or "nothing"))
    hosts = [origin.split("://", 1)[1] for origin in served]
    missing = [r for r in env.proxy.refused if any(" https://" + host + "/" in r for host in hosts) and not r.endswith("/favicon.ico")]
    check(not missing, "requests for files the proxy does not serve: %s" % short(missing))
    check(not env.problems and not env.chromium.protocol_errors, "; ".join(env.problems + env.chromium.protocol_errors))
