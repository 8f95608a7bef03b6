"""`bridgectl host --stdio` as one long-lived subprocess: JSON lines in, JSON lines out.

Lines are read on a thread (a blocking pipe must not stall WebKit's main loop) and handed to the
main thread through take_lines(); `notify`, when given, is called on the reading thread after each
line and at the end of the output, so a harness waiting on its own event queue wakes up for them.
Output must be UTF-8 JSON, one object a line; anything else is kept as a protocol problem so a
scenario can fail on it instead of guessing.
"""

import json
import subprocess
import threading


class HostProcess:
    def __init__(self, bridgectl, options=(), contracts=None, notify=None):
        # --ack: the host prints {"type":"ack","line":N} once it has handled input line N, so a
        # message that gets no reply (a notification) is told apart from one still in progress.
        command = [bridgectl, "host", "--stdio", "--ack", *options]
        if contracts:
            command += ["--contracts", contracts]
        self.command = command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0)
        self._lock = threading.Lock()
        self._new = []
        self.all_lines = []        # every parsed output line, in order
        self.problems = []         # output that is not one UTF-8 JSON object per line
        self.stderr_text = []
        self.sent = []             # every input line; line N (from 1) is sent[N - 1]
        self.notify = notify
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for raw in self.process.stdout:
            try:
                text = raw.decode("utf-8")
                parsed = json.loads(text)
                if not isinstance(parsed, dict):
                    raise ValueError("not a JSON object")
            except ValueError as error:
                with self._lock:
                    self.problems.append("%s: %r" % (error, raw[:200]))
                continue
            with self._lock:
                self._new.append(parsed)
                self.all_lines.append(parsed)
            if self.notify:
                self.notify()
        if self.notify:
            self.notify()

    def _read_stderr(self):
        for raw in self.process.stderr:
            with self._lock:
                self.stderr_text.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def send_line(self, text):
        """Writes one line (a JSON object without newlines); returns its line number."""
        if "\n" in text or "\r" in text:
            raise ValueError("a host input line must not contain a line break")
        self.process.stdin.write(text.encode("utf-8") + b"\n")
        self.process.stdin.flush()
        self.sent.append(text)
        return len(self.sent)

    def send(self, obj):
        return self.send_line(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))

    def take_lines(self):
        with self._lock:
            lines, self._new = self._new, []
        return lines

    @property
    def alive(self):
        return self.process.poll() is None

    def stderr_tail(self, count=5):
        with self._lock:
            return " | ".join(self.stderr_text[-count:])

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
