"""One Android session of the Chromium run: a page on one channel with its own host process,
and the loop that runs a session's scenario steps (run_android.py, android_scenarios.py)."""

import json
import os
import sys

from android_channels import AndroidWebView
from chromium_cdp import HarnessError
from contract_model import encode
from host_process import HostProcess

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "..", "scripts", "android-probe.js")
EVENT_PATH = "/event/new-user-promo"
ENTRY_SOURCE = "kakaotalk"


def page_url(origin):
    """The example page at `origin`, opened from a campaign link (Korean variant on purpose)."""
    return (origin + EVENT_PATH + "?campaign_id=2025Q3_signup_retarget&group_id=B&variant=" + encode("카드스캐너")
            + "&utm_source=kakaotalk&utm_medium=alimtalk")


class Session:
    """One page load on one Android channel with its own host process: a development host with
    every version, or `release` (releases.json, "android@5.12.3") with exactly its versions. The
    manifest script is injected unless inject is False (an app that only answers the handshake)."""

    def __init__(self, env, channel, host_options=(), release=None, inject=True, listener_rules=None, origin=None):
        self.env = env
        self.channel = channel
        self.release = release
        self.origin = origin or env.page_origin
        self.host = HostProcess(env.bridgectl, list(host_options) + (["--release", release] if release else []),
                                env.contracts_dir)
        self.capabilities = env.capabilities(release)
        script = env.capabilities(release, script=True) if inject else None
        self.page = AndroidWebView(env.tab, env.contracts.manifest, self.host, channel, script, listener_rules=listener_rules,
                                   is_app_link=lambda url: env.contracts.app_link_route(url) is not None)
        self.expected_errors = 0   # host error lines a scenario asked for (an invalid emit)
        self.url = None

    def open(self):
        self.url = page_url(self.origin)
        # The app opened the page from its campaign link; a page elsewhere was reached otherwise.
        self.page.open(self.url, ENTRY_SOURCE if self.origin == self.env.page_origin else None)
        if self.page.evaluate("document.documentElement.dataset.bridgeReady") != "true":
            raise HarnessError("the page's own bridge did not start (js/bridge.js imported?)")
        names = dict(self.page.names, events=self.env.event_names)
        with open(PROBE, encoding="utf-8") as handle:
            self.page.evaluate(handle.read().replace("__NAMES__", json.dumps(names)))
        self.page.evaluate("window.__bridgekitE2E.ready")

    def timeout_s(self, action, version):
        return self.env.contracts.timeout_ms(action, version) / 1000.0 + 3

    def send(self, action, version, payload, notify=False):
        """The page's bridge sends it (as a notification: no id, no reply); its settled outcome."""
        call = "notify" if notify else "send"
        return self.page.evaluate("window.__bridgekitE2E.%s(%s, %d, %s)" % (call, json.dumps(action), version, json.dumps(payload)),
                                  timeout=self.timeout_s(action, version))

    def offer(self, action, payloads):
        top = max(payloads)
        return self.page.evaluate("window.__bridgekitE2E.offer(%s, %s)" % (json.dumps(action), json.dumps({str(v): p for v, p in payloads.items()})),
                                  timeout=self.timeout_s(action, top))

    def until(self, test_source, timeout_ms, what):
        """A page-side wait (e2e.until) for a JavaScript test of the probe's records; its value, or
        HarnessError when it is not there within timeout_ms."""
        value = self.page.evaluate("window.__bridgekitE2E.until(%s, %d)" % (test_source, timeout_ms), timeout=timeout_ms / 1000.0 + 5)
        if value is None:
            raise HarnessError("nothing within %d ms: %s" % (timeout_ms, what))
        return value

    def quiesce(self):
        """Everything the page did so far has reached the harness (one more round trip) and the host
        has handled every line sent (its acks), so what did not happen will not happen late."""
        self.page.evaluate("true")
        self.page.settle_host()

    def problems(self):
        page, host = self.page, self.host
        errors = page.records_of("error")
        found = ["protocol: " + p for p in page.protocol_errors] + ["page exception: %s" % e for e in page.page_errors]
        found += ["host output: " + p for p in host.problems]
        found += ["undelivered %s (%s): %s" % (u["kind"], u["why"], u["text"][:120]) for u in page.undelivered]
        if len(errors) != self.expected_errors:
            found.append("host error lines: %s" % json.dumps(errors, ensure_ascii=False)[:400])
        return found

    def close(self):
        try:
            self.page.close()
        except Exception as error:  # a page that will not end fails the run's last check, loudly
            self.env.problems.append("%s session: closing its page: %s: %s" % (self.channel, type(error).__name__, error))
        finally:
            if not self.host.alive and self.host.process.returncode not in (0, None):
                self.env.problems.append("%s host exited with %s: %s" % (self.channel, self.host.process.returncode, self.host.stderr_tail()))


def run_session(env, reporter, session, steps):
    """Opens the session's page and runs its steps; every step fails with the reason when it
    cannot open. Records what went wrong outside the scenarios for the final check."""
    try:
        try:
            session.open()
        except Exception as error:
            why = "the page did not open: %s: %s (host stderr: %s)" % (type(error).__name__, error, session.host.stderr_tail())
            for name, _ in steps:
                reporter.fail(name, why)
            return
        failed_before = reporter.failed
        for name, step in steps:
            reporter.run(name, step)
            if not session.host.alive:
                reporter.fail(session.channel + "-host-stays-alive", "bridgectl host exited with %s: %s"
                              % (session.host.process.returncode, session.host.stderr_tail()))
                return
        if reporter.failed > failed_before:
            dump_transcript(session)
        env.page_requests.extend(session.page.requests)
        try:
            session.quiesce()
        except HarnessError as error:
            env.problems.append("%s session: the host did not settle: %s" % (session.channel, error))
        env.problems.extend("%s session%s: %s" % (session.channel, " " + session.release if session.release else "", p)
                            for p in session.problems())
    finally:
        session.close()


def dump_transcript(session, count=30):
    """On failure: the last host lines in and out, on stderr, so CI logs show what happened."""
    print("--- host transcript (%s, %s), last %d lines each:" % (session.channel, " ".join(session.host.command[1:]), count), file=sys.stderr)
    for line in session.host.sent[-count:]:
        print("  in : " + line, file=sys.stderr)
    for line in session.host.all_lines[-count:]:
        print("  out: " + json.dumps(line, ensure_ascii=False), file=sys.stderr)
    if session.host.stderr_text:
        print("  stderr: " + session.host.stderr_tail(10), file=sys.stderr)
    sys.stderr.flush()
