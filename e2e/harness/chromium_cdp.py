"""Headless Chromium driven over the Chrome DevTools Protocol, standard library only.

Chromium runs with --remote-debugging-pipe: it reads protocol messages on its file descriptor 3
and writes them on descriptor 4, each a JSON object ended by a NUL byte. A thread reads the
pipe; every message is handed to the harness's one thread through an EventLoop, which the
harness waits on (`wait_until`) with a bounded timeout, never a sleep. Sessions are flat
(Target.attachToTarget with flatten): a command or event for a page carries its sessionId.
"""

import base64
import fcntl
import json
import os
import queue
import subprocess
import threading
import time


class HarnessError(Exception):
    """The harness could not do what a scenario asked (start, evaluate, time out)."""


class CdpError(HarnessError):
    """Chromium answered a command with an error."""


class EventLoop:
    """Work for the harness's thread: callables posted by reader threads, run by wait_until."""

    def __init__(self):
        self._queue = queue.Queue()

    def post(self, work):
        self._queue.put(work)

    def run_pending(self):
        while True:
            try:
                work = self._queue.get_nowait()
            except queue.Empty:
                return
            work()

    def wait_until(self, predicate, timeout, what):
        """Runs posted work until predicate() is truthy; returns its value. HarnessError after timeout s."""
        deadline = time.monotonic() + timeout
        while True:
            self.run_pending()
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise HarnessError("timed out after %.1fs waiting for %s" % (timeout, what))
            try:
                work = self._queue.get(timeout=remaining)
            except queue.Empty:
                continue
            work()


def spki_hash(certificate_path):
    """base64(SHA-256(SubjectPublicKeyInfo)) of a PEM certificate: what
    --ignore-certificate-errors-spki-list takes to trust exactly that key."""
    public_key = subprocess.run(["openssl", "x509", "-in", certificate_path, "-pubkey", "-noout"],
                                check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public_key,
                         check=True, capture_output=True).stdout
    digest = subprocess.run(["openssl", "dgst", "-sha256", "-binary"], input=der,
                            check=True, capture_output=True).stdout
    return base64.b64encode(digest).decode("ascii")


def chromium_version(executable):
    done = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


class Chromium:
    """One headless Chromium whose only way out is `proxy_uri`, trusting the certificate key `spki`
    (see spki_hash) besides the usual roots. Everything it writes (profile, HOME, TMPDIR) is under
    `workdir`."""

    def __init__(self, executable, loop, workdir, proxy_uri, spki):
        self.loop = loop
        self.workdir = workdir
        self._next_id = 0
        self._responses = {}
        self._callbacks = {}
        self._handlers = {}
        self.closed = False
        self.protocol_errors = []
        self._start(executable, proxy_uri, spki)

    def _arguments(self, proxy_uri, spki):
        return [
            "--headless=new", "--remote-debugging-pipe",
            # The container runs as root, where Chromium's own sandbox cannot start; the pages are
            # the repository's, served locally.
            "--no-sandbox", "--disable-gpu",
            "--user-data-dir=" + os.path.join(self.workdir, "profile"),
            "--proxy-server=" + proxy_uri, "--ignore-certificate-errors-spki-list=" + spki,
            # A frame of another site stays in the page's target (no out-of-process iframe), so
            # the document-start scripts and the binding reach it as they reach the page.
            "--disable-site-isolation-trials",
            # Chromium's own services stay off the network (the proxy refuses them anyway).
            "--disable-features=IsolateOrigins,site-per-process,NetworkTimeServiceQuerying,OptimizationHints,"
            "AutofillServerCommunication,Translate,MediaRouter,InterestFeedContentSuggestions",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-domain-reliability",
            "--disable-client-side-phishing-detection", "--no-pings", "--metrics-recording-only",
            "--disable-default-apps", "--disable-breakpad", "--mute-audio", "about:blank",
        ]

    def _start(self, executable, proxy_uri, spki):
        for name in ("profile", "home", "t"):
            os.makedirs(os.path.join(self.workdir, name), exist_ok=True)
        # Chromium's singleton socket lives in TMPDIR; a Unix socket path has at most 107 bytes.
        socket_path = os.path.join(self.workdir, "t", "org.chromium.Chromium.XXXXXX", "SingletonSocket")
        if len(socket_path.encode()) > 107:
            raise HarnessError("the temporary folder %s is too deep for Chromium's socket (%s)" % (self.workdir, socket_path))
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        # Chromium wants the pipe on descriptors 3 and 4 exactly; bash puts it there.
        read_fd = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
        write_fd = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
        os.close(to_browser_read)
        os.close(from_browser_write)
        script = 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (read_fd, write_fd, read_fd, write_fd)
        env = dict(os.environ, HOME=os.path.join(self.workdir, "home"), TMPDIR=os.path.join(self.workdir, "t"),
                   XDG_CONFIG_HOME=os.path.join(self.workdir, "home"), XDG_CACHE_HOME=os.path.join(self.workdir, "home"))
        self.stderr_path = os.path.join(self.workdir, "chromium-stderr.txt")
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(["/bin/bash", "-c", script, executable] + self._arguments(proxy_uri, spki),
                                            pass_fds=(read_fd, write_fd), env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
        os.close(read_fd)
        os.close(write_fd)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        pending = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self.loop.post(self._on_closed)
                return
            pending += chunk
            *messages, pending = pending.split(b"\0")
            for raw in messages:
                self.loop.post(lambda raw=raw: self._dispatch(raw))

    def _on_closed(self):
        self.closed = True

    def _dispatch(self, raw):
        try:
            # Chromium may write a lone surrogate of a page's string as it is; keep it.
            message = json.loads(raw.decode("utf-8", "surrogatepass"))
        except ValueError as error:
            self.protocol_errors.append("unreadable CDP message: %s: %r" % (error, raw[:200]))
            return
        if "id" in message:
            callback = self._callbacks.pop(message["id"], None)
            if callback is not None:
                callback(message)
            else:
                self._responses[message["id"]] = message
            return
        for handler in self._handlers.get((message.get("sessionId"), message.get("method")), []):
            handler(message.get("params", {}))

    def on(self, method, handler, session=None):
        """Calls handler(params) for each event `method` of `session` (None: the browser)."""
        self._handlers.setdefault((session, method), []).append(handler)

    def forget_session(self, session):
        for key in [key for key in self._handlers if key[0] == session]:
            del self._handlers[key]

    def send(self, method, params=None, session=None, callback=None):
        """Sends a command; callback(response message) when it is answered. Returns its id."""
        if self.closed:
            raise HarnessError("Chromium is gone (exit status %s): %s" % (self.process.poll(), self.stderr_tail()))
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        if callback is not None:
            self._callbacks[self._next_id] = callback
        # ASCII JSON: a page's lone surrogate travels as an escape, never as bytes that are not UTF-8.
        data = memoryview(json.dumps(message).encode("ascii") + b"\0")
        try:
            while data:
                data = data[os.write(self._to_browser, data):]
        except OSError as error:
            raise HarnessError("Chromium's pipe is closed (%s): %s" % (error, self.stderr_tail()))
        return self._next_id

    def call(self, method, params=None, session=None, timeout=10):
        """Sends a command and waits for its result (the harness's events keep running meanwhile)."""
        number = self.send(method, params, session)
        response = self.loop.wait_until(lambda: self._responses.get(number) or self.closed, timeout,
                                        "Chromium to answer %s" % method)
        response = self._responses.pop(number, None)
        if response is None:
            raise HarnessError("Chromium exited during %s: %s" % (method, self.stderr_tail()))
        if "error" in response:
            raise CdpError("%s failed: %s" % (method, response["error"].get("message")))
        return response.get("result", {})

    def stderr_tail(self, count=3):
        try:
            with open(self.stderr_path, encoding="utf-8", errors="replace") as handle:
                lines = [line.strip() for line in handle if "dbus" not in line and line.strip()]
        except OSError:
            return ""
        return " | ".join(lines[-count:])

    def close(self):
        """Browser.close, then the process group is killed if it lingers; the pipe is closed."""
        if self.process.poll() is None and not self.closed:
            try:
                self.send("Browser.close")
            except HarnessError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(timeout=5)
        else:
            # Chromium's helpers share its process group; none may outlive the run.
            try:
                os.killpg(self.process.pid, 9)
            except ProcessLookupError:
                pass
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
