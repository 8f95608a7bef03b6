"""End to end on Android's two bridge channels in a real Chromium (Android's WebView is Chromium):
js/examples/event.html with the generated js/bridge.js at its real origin, `bridgectl host --stdio`
answering as the app. Every scenario runs once per channel: `listener-...` (androidx.webkit's
WebViewCompat.addWebMessageListener, window.<bridge>) and `interface-...`
(WebView.addJavascriptInterface, window.<bridge>Android).

How Android's APIs are played over the Chrome DevTools Protocol (Chromium headless, CDP over
--remote-debugging-pipe, Python's standard library only: chromium_cdp.py, android_channels.py):

  WebView.loadUrl(url)                    Page.navigate; a session's page loads anew in the run's one
                                          page target and ends on about:blank
  addDocumentStartJavaScript(script,      Page.addScriptToEvaluateOnNewDocument (main world, every
      allowedOriginRules)                 frame); the manifest script runs at allowed origins only
  addWebMessageListener(webView,          document-start android-web-message-listener.js:
      "<bridge>", allowedOriginRules, l)  window.<bridge> {postMessage, addEventListener, onmessage}
                                          in frames whose origin matches the rules
  l.onPostMessage(view, message,          Runtime.addBinding / Runtime.bindingCalled; sourceOrigin
      sourceOrigin, isMainFrame, proxy)   and isMainFrame are Chromium's: the calling execution
                                          context's frame (Runtime.executionContextCreated) and
                                          that frame's securityOrigin and parent (Page.frameNavigated)
  replyProxy.postMessage(text)            Runtime.evaluate in the posting frame's context: a
                                          MessageEvent whose data is the text, on its window.<bridge>
  addJavascriptInterface(o, "<b>Android") document-start android-javascript-interface.js in every
      @JavascriptInterface postMessage    frame, any origin; Runtime.bindingCalled. Android names no
                                          sender: the app reads WebView.getUrl(), the main frame's
                                          URL, and sends isMainFrame true (it cannot tell)
  evaluateJavascript("<b>Receive(t)")     Runtime.evaluate in the main frame's context
  shouldOverrideUrlLoading(app link)      Fetch.requestPaused for main-frame documents; Fetch.failRequest

Pages have their real https origins through origin_proxy.py (its throwaway key trusted alone,
--ignore-certificate-errors-spki-list). Site isolation is off, so a frame of another site runs in
the page's target (no out-of-process frame to attach to) and gets the scripts and binding as the
page does, as every frame of an Android WebView gets what the app injects.

Prints one line per scenario (`PASS name` / `FAIL name: why`) and `N passed, M failed`; exits 1 on
any failure, 2 when the harness cannot start. Run through e2e/run-android.sh (packages, time limit).
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import android_scenarios  # noqa: E402
from android_channels import Tab, names_of  # noqa: E402
from android_session import EVENT_PATH  # noqa: E402
from chromium_cdp import Chromium, EventLoop, HarnessError, chromium_version, spki_hash  # noqa: E402
from contract_fixtures import Fixtures  # noqa: E402
from contract_model import Contracts  # noqa: E402
from origin_proxy import OriginProxy, Site, make_certificate  # noqa: E402
from run_e2e import Environment, Reporter  # noqa: E402

ATTACKER_HOST = "evil.example"
FRAME_PAGE = os.path.join(HERE, "..", "pages", "android-frame.html")


def served_sites(repo, hosts):
    """What the origin proxy serves: the example page and the shim at the page's host and at the
    look-alike host, and the Android frame page at the page's host and at another site."""
    html, script = "text/html; charset=utf-8", "text/javascript; charset=utf-8"
    frame = (FRAME_PAGE, html)
    shim = [(EVENT_PATH, (os.path.join(repo, "js", "examples", "event.html"), html)),
            ("/bridge.js", (os.path.join(repo, "js", "bridge.js"), script))]
    shim += [("/src/" + name, (os.path.join(repo, "js", "src", name), script))
             for name in sorted(os.listdir(os.path.join(repo, "js", "src"))) if name.endswith(".js")]
    return [Site(hosts["page"], shim + [("/e2e/android-frame.html", frame)]),
            Site(hosts["lookalike"], list(shim)),
            Site(hosts["attacker"], [("/android-frame.html", frame)])]


def host_of(origin):
    return origin.split("://", 1)[1].split("/", 1)[0]


def make_environment(args):
    env = Environment()
    env.bridgectl = os.path.abspath(args.bridgectl)
    env.contracts_dir = os.path.abspath(args.contracts) if args.contracts else None
    directory = env.contracts_dir or os.path.join(args.repo, "contracts")
    env.contracts = Contracts(directory)
    env.fixtures = Fixtures(directory, env.contracts.manifest)
    env.page_origin = env.contracts.manifest["allowedOrigins"][0]
    refused = [o for o in env.fixtures.refused_origins() if o.startswith("https://")]
    env.lookalike_origin = refused[0] if refused else env.page_origin + "." + ATTACKER_HOST
    env.attacker_origin = "https://" + ATTACKER_HOST
    env.event_names = ["navigation_completed"] + sorted(env.contracts.manifest.get("events", {}).keys() - {"$comment"})
    env.names = names_of(env.contracts.manifest)
    env.problems = []
    env.page_requests = []
    return env


def start_browser(env, args, workdir):
    hosts = {"page": host_of(env.page_origin), "lookalike": host_of(env.lookalike_origin), "attacker": ATTACKER_HOST}
    sites = served_sites(args.repo, hosts)
    certificate, key = make_certificate(workdir, [site.host for site in sites])
    env.proxy = OriginProxy(sites, certificate, key)
    env.proxy.start()
    env.loop = EventLoop()
    env.chromium = Chromium(args.chromium, env.loop, workdir, env.proxy.proxy_uri, spki_hash(certificate))
    env.chromium.call("Browser.getVersion", timeout=30)
    env.tab = Tab(env.chromium, env.proxy.proxy_uri)


def close_browser(env):
    try:
        if getattr(env, "tab", None):
            env.tab.close()
    except HarnessError as error:
        print("e2e-android: closing the page target: %s" % error, file=sys.stderr)
    finally:
        if getattr(env, "chromium", None):
            env.chromium.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bridgectl", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--repo", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    parser.add_argument("--contracts", default=None, help="contracts folder (default: the repo's contracts/)")
    args = parser.parse_args()

    for required in (args.bridgectl, args.chromium, os.path.join(args.repo, "js", "bridge.js"),
                     os.path.join(args.repo, "js", "examples", "event.html")):
        if not os.path.exists(required):
            print("FAIL setup: %s is missing" % required, flush=True)
            print("0 passed, 1 failed", flush=True)
            return 2
    # `timeout` ends the run with SIGTERM: leave through the finally below (Chromium, the proxy,
    # the temporary folder), as on any other exit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = make_environment(args)
    # Short: Chromium's singleton socket path inside it must stay under 108 bytes.
    workdir = tempfile.mkdtemp(prefix="a-")
    reporter = Reporter()
    started = time.monotonic()
    try:
        try:
            start_browser(env, args, workdir)
        except (HarnessError, OSError, subprocess.SubprocessError) as error:
            print("FAIL setup: Chromium did not start: %s" % error, flush=True)
            print("0 passed, 1 failed", flush=True)
            return 2
        android_scenarios.run_all(env, reporter)
    finally:
        close_browser(env)
        if getattr(env, "proxy", None):
            env.proxy.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print("e2e-android took %.1fs (%s)" % (time.monotonic() - started, chromium_version(args.chromium)), flush=True)
    print("%d passed, %d failed" % (reporter.passed, reporter.failed), flush=True)
    return 0 if reporter.failed == 0 and reporter.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
