#!/usr/bin/python3
"""Doc test: runs the shell examples of the docs and compares their output (part of `make test`).

Files read: README.md, docs/*.md, BENCHMARKS.md, RELIABILITY.md. (CHANGELOG.md lists changes per
version; the commands it names were true for their version, so it is not checked.)

For authors, the one convention:

  ```console                        a console block is RUN, command by command
  $ bridgectl validate Examples/messages/apply-invalid.json
  Examples/messages/apply-invalid.json: /payload/slug: … (pattern)
  ...
  [exit 1]
  ```

  - A line starting with "$ " is a command. A command line ending in "\\" continues on the next
    line. Everything after it, up to the next "$ " line or the end of the block, is its expected
    output: standard output and standard error together.
  - Elision, for parts that vary: a line that is exactly "..." stands for any number of lines
    (none included); "…" (U+2026) inside a line stands for any text within that line.
    Nothing else is a pattern; trailing spaces and trailing blank lines are ignored.
  - Exit status: a command must exit 0, unless its expected output ends with the line
    "[exit N]"; then it must exit exactly N.
  - Each command runs in a fresh `bash -o pipefail -c`, from the repository root, with the freshly
    built bridgectl first on PATH (.build/debug/bridgectl, or $BRIDGECTL), standard input
    /dev/null, LC_ALL=C.UTF-8, TZ=UTC, no inherited MAKEFLAGS, and a time limit of 120 s.
  - A scratch folder outside the repository is in $DOC_SCRATCH: empty at the start of each
    run, shared by every command of the run (so one block can build on the one before), removed
    at the end. Commands that write files use it (`cd "$DOC_SCRATCH/app" && ...`).
  - ```sh (or bash, shell) blocks show commands without output; they are NOT run. Each is
    checked with `bash -n`, and every program it names must exist: a target of the Makefile for
    `make`, a bridgectl command that `bridgectl COMMAND --help` accepts, an executable file in
    the repository for a path, otherwise a program on PATH. Use them for placeholders
    (message.json) and for long runs (make e2e, make bench).
  - A console block whose output cannot be reproduced here is marked on the line right before
    its fence with  <!-- doc-test: not run: REASON -->  ; it is then checked like a sh block and
    the reason is printed with every run. Keep these rare.
  - Every fenced block needs a language. A block of any other language (text, json, js, ...)
    must not contain "$ " command lines: shown output that is not compared is not allowed.
  - Relative links ([text](other.md#heading)) must name a file of the repository and, for a
    Markdown file, a heading in it (GitHub's anchors: lower case, punctuation dropped, spaces
    to hyphens).
  - A repository path in backticks outside code blocks (`Tests/c/run.sh`, `docs/x.md:12`: its
    first part a top-level entry of the repository) must exist, or be one git ignores (an output
    folder). Paths with placeholders (<target>, *, ..., …, spaces) are not checked.
  - The Figures table of docs/instruction-guard.md must state bench/instruction-baseline.json.

Usage: scripts/doc-test.py [FILE.md ...]      (default: the files above)
Prints one line per failure with a diff, then a summary with the counts checked.
Exit 0 all good, 1 a block failed, 2 usage error (no bridgectl, unreadable file).
"""

import functools
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = ["README.md", "docs/*.md", "BENCHMARKS.md", "RELIABILITY.md"]
RUN_LANGUAGES = {"console"}
SHOWN_LANGUAGES = {"sh", "bash", "shell"}
NOT_RUN_MARK = re.compile(r"^\s*<!--\s*doc-test:\s*not run:\s*(.+?)\s*-->\s*$")
EXIT_LINE = re.compile(r"^\[exit (\d+)\]$")
COMMAND_TIMEOUT = 120


class Block:
    def __init__(self, path, line, language, lines, not_run_reason):
        self.path = path
        self.line = line  # 1-based line of the opening fence
        self.language = language
        self.lines = lines  # (line number, text) of the block's body
        self.not_run_reason = not_run_reason

    def where(self, line=None):
        return "%s:%d" % (self.path, line if line is not None else self.line)


@functools.lru_cache(maxsize=None)
def document_lines(path):
    """A document's lines, read once: a file given as a pipe (<(...)) can be read only once."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return tuple(handle.read().splitlines())


def read_blocks(path, problems):
    """Fenced code blocks of a Markdown file (``` or ~~~ fences, up to 3 spaces of indent)."""
    text = document_lines(path)
    blocks = []
    index = 0
    while index < len(text):
        opening = re.match(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)", text[index])
        if not opening:
            index += 1
            continue
        fence, language = opening.group(1), opening.group(2).lower()
        previous = text[index - 1] if index > 0 else ""
        mark = NOT_RUN_MARK.match(previous)
        start = index
        body = []
        index += 1
        while index < len(text) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence), text[index]):
            body.append((index + 1, text[index]))
            index += 1
        if index >= len(text):
            problems.append("%s:%d: code block never closed" % (path, start + 1))
        index += 1
        blocks.append(Block(path, start + 1, language, body, mark.group(1) if mark else None))
    return blocks


def heading_anchors(path):
    """GitHub's anchors for the headings of a Markdown file."""
    anchors = set()
    seen = {}
    in_fence = None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fence = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
            if fence:
                if in_fence is None:
                    in_fence = fence.group(1)
                elif fence.group(1).startswith(in_fence):
                    in_fence = None
                continue
            heading = None if in_fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
                count = seen.get(slug, 0)
                seen[slug] = count + 1
                anchors.add(slug if count == 0 else "%s-%d" % (slug, count))
    return anchors


def prose_lines(path):
    """The numbered lines of a Markdown file outside its fenced code blocks."""
    in_fence = None
    for number, line in enumerate(document_lines(path), 1):
        fence = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if fence:
            if in_fence is None:
                in_fence = fence.group(1)
            elif fence.group(1).startswith(in_fence):
                in_fence = None
            continue
        if not in_fence:
            yield number, line


def check_links(path, counts, failures):
    """Relative links of a Markdown file: the target exists, and so does a Markdown anchor."""
    for number, line in prose_lines(path):
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            counts["links"] += 1
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(ROOT, os.path.dirname(path), file_part)) if file_part \
                else os.path.join(ROOT, path)
            if not os.path.exists(resolved):
                failures.append("%s:%d: link to %s: no such file" % (path, number, target))
            elif anchor and resolved.endswith(".md") and anchor not in heading_anchors(resolved):
                failures.append("%s:%d: link to %s: %s has no heading with that anchor"
                                % (path, number, target, os.path.relpath(resolved, ROOT)))


def check_paths(path, counts, failures):
    """Backticked repository paths outside code blocks name files that exist (or git ignores)."""
    top_level = {name for name in os.listdir(ROOT) if not name.startswith(".")}
    for number, line in prose_lines(path):
        for span in re.findall(r"`([^`]+)`", line):
            candidate = re.sub(r"(:\d+(-\d+)?|#.*)$", "", span)  # a line number or an anchor
            if candidate.split("/")[0] not in top_level or re.search(r"[*<>{}\s$…]|\.\.\.", candidate):
                continue
            counts["paths"] += 1
            if not os.path.exists(os.path.join(ROOT, candidate)) and not git_ignores(candidate):
                failures.append("%s:%d: `%s`: no such file in the repository" % (path, number, span))


def git_ignores(relative):
    """Whether git ignores the path, as a file or as a folder (a build's or a run's output)."""
    return any(subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", name],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
               for name in (relative.rstrip("/"), relative.rstrip("/") + "/"))


INSTRUCTION_DOC = "docs/instruction-guard.md"
INSTRUCTION_BASELINE = "bench/instruction-baseline.json"


def check_instruction_figures(path, failures):
    """The instruction guard doc's table rows `| soak | N | M per message |` and
    `| validate | N | M per line |` state the recorded baseline, so the doc cannot drift from it."""
    with open(os.path.join(ROOT, INSTRUCTION_BASELINE), encoding="utf-8") as handle:
        baseline = json.load(handle)
    expected = {"soak": (baseline["soak"]["instructions"], baseline["soak"]["messages"], "message"),
                "validate": (baseline["validate"]["instructions"], baseline["validate"]["corpusLines"], "line")}
    lines = document_lines(path)
    start = next((index for index, line in enumerate(lines) if line.strip() == "## Figures"), len(lines))
    end = next((index for index in range(start + 1, len(lines)) if lines[index].startswith("## ")), len(lines))
    section = [(index + 1, lines[index]) for index in range(start + 1, end)]  # (number, line)
    for name, (count, inputs, unit) in expected.items():
        want = "| %s | %s | %s per %s |" % (name, format(count, ","), format(round(count / inputs), ","), unit)
        rows = [number for number, line in section if re.match(r"^\|\s*%s\s*\|" % name, line)]
        if not rows:
            failures.append("%s: no `| %s | ...` row under Figures for the %s baseline"
                            % (path, name, INSTRUCTION_BASELINE))
        for number in rows:
            if re.sub(r"\s+", " ", lines[number - 1].strip()) != want:
                failures.append("%s:%d: the %s row differs from %s; it should read: %s"
                                % (path, number, name, INSTRUCTION_BASELINE, want))


def parse_console(block):
    """[(line, command, expected lines)] of a console block."""
    commands = []
    current = None
    continuing = False
    for number, text in block.lines:
        if continuing:
            current[1] += "\n" + text
            continuing = text.endswith("\\")
        elif text.startswith("$ "):
            current = [number, text[2:], []]
            commands.append(current)
            continuing = text.endswith("\\")
        elif current is None:
            if text.strip():
                raise ValueError("%s: output before the first \"$ \" command" % block.where(number))
        else:
            current[2].append(text)
    return [(line, command, expected) for line, command, expected in commands]


def split_expected(expected):
    lines = [line.rstrip() for line in expected]
    while lines and not lines[-1]:
        lines.pop()
    status = 0
    if lines and EXIT_LINE.match(lines[-1]):
        status = int(EXIT_LINE.match(lines[-1]).group(1))
        lines.pop()
        while lines and not lines[-1]:
            lines.pop()
    return lines, status


def line_pattern(expected):
    return re.compile("^" + ".*".join(re.escape(part) for part in expected.split("…")) + "$")


def align(expected, actual):
    """Matches expected (with elisions) against actual lines. Returns (ok, rendered diff lines).

    Edit-distance alignment in which "..." absorbs any run of actual lines at no cost and a
    line with "…" matches by pattern, so the diff shows only real differences."""
    patterns = [None if line == "..." else line_pattern(line) for line in expected]
    rows, columns = len(expected), len(actual)
    infinity = rows + columns + 1
    cost = [[infinity] * (columns + 1) for _ in range(rows + 1)]
    cost[rows][columns] = 0
    for i in range(rows, -1, -1):
        for j in range(columns, -1, -1):
            if i == rows and j == columns:
                continue
            best = infinity
            if i < rows and patterns[i] is None:
                best = min(best, cost[i + 1][j])
                if j < columns:
                    best = min(best, cost[i][j + 1])
            else:
                if i < rows and j < columns and patterns[i].match(actual[j]):
                    best = min(best, cost[i + 1][j + 1])
                if i < rows:
                    best = min(best, cost[i + 1][j] + 1)
                if j < columns:
                    best = min(best, cost[i][j + 1] + 1)
            cost[i][j] = best
    rendered = []
    i = j = 0
    while i < rows or j < columns:
        here = cost[i][j]
        if i < rows and patterns[i] is None:
            if j < columns and cost[i][j + 1] == here:
                j += 1  # absorbed by "..."
                continue
            rendered.append("  ...")
            i += 1
        elif i < rows and j < columns and patterns[i].match(actual[j]) and cost[i + 1][j + 1] == here:
            rendered.append("  " + actual[j])
            i += 1
            j += 1
        elif i < rows and cost[i + 1][j] + 1 == here:
            rendered.append("- " + expected[i])
            i += 1
        else:
            rendered.append("+ " + actual[j])
            j += 1
    return cost[0][0] == 0, rendered


def command_environment(bin_dir):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    environment["PATH"] = bin_dir + os.pathsep + environment.get("PATH", "/usr/bin:/bin")
    environment["LC_ALL"] = "C.UTF-8"
    environment["TZ"] = "UTC"
    return environment


def run_command(command, environment):
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=environment,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, ["(no exit within %d s: killed)" % COMMAND_TIMEOUT]
    output = done.stdout.decode("utf-8", errors="replace")
    return done.returncode, [line.rstrip() for line in output.splitlines()]


def makefile_targets():
    targets = set()
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as handle:
        for line in handle:
            found = re.match(r"^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*)\s*:(?!=)", line)
            if found:
                targets.update(found.group(1).split())
    return targets


class ShownChecker:
    """Checks commands that are shown but not run: syntax, and that each program exists."""

    def __init__(self, environment):
        self.environment = environment
        self.targets = makefile_targets()
        self.bridgectl_commands = {}

    def bridgectl_accepts(self, command):
        if command not in self.bridgectl_commands:
            done = subprocess.run(["bridgectl", command, "--help"], cwd=ROOT, env=self.environment,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            self.bridgectl_commands[command] = done.returncode == 0
        return self.bridgectl_commands[command]

    def program_exists(self, program):
        if "/" in program:
            path = os.path.join(ROOT, program)
            return os.path.isfile(path) and os.access(path, os.X_OK)
        done = subprocess.run(["bash", "-c", 'command -v -- "$1"', "bash", program], env=self.environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return done.returncode == 0

    def problems(self, command):
        syntax = subprocess.run(["bash", "-n", "-c", command], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        if syntax.returncode != 0:
            return ["bash -n: " + syntax.stdout.decode("utf-8", errors="replace").strip()]
        lexer = shlex.shlex(command.replace("\\\n", " "), posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        found = []
        simple = []
        skip_next = False
        for word in list(lexer) + [";"]:
            if skip_next:
                skip_next = False  # the file of a redirection
            elif word and all(character in "<>&" for character in word) and ("<" in word or ">" in word):
                if simple and simple[-1].isdigit():
                    simple.pop()  # the descriptor of 2>file
                skip_next = True
            elif word and all(character in ";&|()" for character in word):
                found.extend(self.check_simple(simple))
                simple = []
            else:
                simple.append(word)
        return found

    def check_simple(self, words):
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words = words[1:]  # VAR=value prefixes
        if not words:
            return []
        program, arguments = words[0], words[1:]
        if program in ("cd", "export", "echo", "printf", "test", "[", "true", "false"):
            return []
        if not self.program_exists(program):
            return ["%s: no such program (not on PATH, not an executable file of the repository)" % program]
        if program == "make":
            unknown = [argument for argument in arguments
                       if not argument.startswith("-") and "=" not in argument and argument not in self.targets]
            return ["make: the Makefile has no target %s" % target for target in unknown]
        if program == "bridgectl" and arguments and not arguments[0].startswith("-"):
            if not self.bridgectl_accepts(arguments[0]):
                return ["bridgectl %s: not a bridgectl command (bridgectl %s --help fails)" % (arguments[0], arguments[0])]
        return []


def main(arguments):
    if any(argument in ("-h", "--help") for argument in arguments):
        print(__doc__.strip())
        return 0
    bridgectl = os.environ.get("BRIDGECTL") or os.path.join(ROOT, ".build", "debug", "bridgectl")
    if not (os.path.isfile(bridgectl) and os.access(bridgectl, os.X_OK)):
        print("doc-test: %s is not built (run `swift build`, or set BRIDGECTL)" % bridgectl, file=sys.stderr)
        return 2
    files = []
    for pattern in arguments or DEFAULT_FILES:
        if "*" in pattern:
            directory, suffix = os.path.split(pattern)
            names = sorted(name for name in os.listdir(os.path.join(ROOT, directory))
                           if name.endswith(suffix.replace("*", "")))
            files.extend(os.path.join(directory, name) for name in names)
        else:
            absolute = os.path.abspath(pattern) if arguments else os.path.join(ROOT, pattern)
            inside = absolute.startswith(ROOT + os.sep)
            files.append(os.path.relpath(absolute, ROOT) if inside else absolute)

    with tempfile.TemporaryDirectory(prefix="doc-test-") as bin_dir, \
            tempfile.TemporaryDirectory(prefix="doc-test-scratch-") as scratch:
        os.symlink(os.path.abspath(bridgectl), os.path.join(bin_dir, "bridgectl"))
        environment = command_environment(bin_dir)
        environment["DOC_SCRATCH"] = scratch
        shown = ShownChecker(environment)
        failures = []
        counts = {"files": 0, "run_blocks": 0, "run_commands": 0, "shown_blocks": 0,
                  "shown_commands": 0, "other_blocks": 0, "links": 0, "paths": 0}
        not_run = []
        for path in files:
            try:
                blocks = read_blocks(path, failures)
            except OSError as error:
                print("doc-test: cannot read %s: %s" % (path, error.strerror), file=sys.stderr)
                return 2
            counts["files"] += 1
            check_links(path, counts, failures)
            check_paths(path, counts, failures)
            if path == INSTRUCTION_DOC:
                check_instruction_figures(path, failures)
            for block in blocks:
                check_block(block, environment, shown, counts, not_run, failures)

    for failure in failures:
        print("FAIL " + failure)
    for where, reason in not_run:
        print("not run: %s: %s" % (where, reason))
    print("doc test: %d files; %d console blocks, %d commands run and compared; "
          "%d shown-only blocks, %d commands checked for syntax and existence; "
          "%d blocks not run; %d other blocks; %d relative links; %d repository paths; %d failed"
          % (counts["files"], counts["run_blocks"], counts["run_commands"], counts["shown_blocks"],
             counts["shown_commands"], len(not_run), counts["other_blocks"], counts["links"], counts["paths"],
             len(failures)))
    return 1 if failures else 0


def check_block(block, environment, shown, counts, not_run, failures):
    language = block.language
    if not language:
        failures.append("%s: code block without a language (console to run it, sh to show commands, text, json, ...)" % block.where())
        return
    if language in RUN_LANGUAGES:
        try:
            commands = parse_console(block)
        except ValueError as error:
            failures.append(str(error))
            return
        if not commands:
            failures.append("%s: console block without a \"$ \" command" % block.where())
            return
        if block.not_run_reason:
            not_run.append((block.where(), block.not_run_reason))
            for line, command, _ in commands:
                counts["shown_commands"] += 1
                for problem in shown.problems(command):
                    failures.append("%s: %s" % (block.where(line), problem))
            return
        counts["run_blocks"] += 1
        for line, command, expected in commands:
            counts["run_commands"] += 1
            expected_lines, expected_status = split_expected(expected)
            status, actual = run_command(command, environment)
            matched, rendered = align(expected_lines, actual)
            if matched and status == expected_status:
                continue
            first = command.splitlines()[0]
            report = ["%s: $ %s%s" % (block.where(line), first, " \\ ..." if "\n" in command else "")]
            if status != expected_status:
                report.append("  exit status %s, expected %d%s" % (
                    "none" if status is None else status, expected_status,
                    "" if expected_status else " (write [exit N] as the last line of the output if that is intended)"))
            if not matched:
                report.append("  output differs (- expected, + actual; \"...\" and \"…\" elide):")
                report.extend("    " + line for line in rendered)
            failures.append("\n".join(report))
    elif language in SHOWN_LANGUAGES:
        counts["shown_blocks"] += 1
        for line, text in join_continuations(block.lines):
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            if text.startswith("$ "):
                failures.append("%s: \"$ \" prompt in a %s block: use a console block (run and compared) or drop the prompt" % (block.where(line), language))
                continue
            counts["shown_commands"] += 1
            for problem in shown.problems(text):
                failures.append("%s: %s" % (block.where(line), problem))
    else:
        counts["other_blocks"] += 1
        for line, text in block.lines:
            if text.startswith("$ "):
                failures.append("%s: \"$ \" command in a %s block: make it a console block so its output is compared" % (block.where(line), language))
                break


def join_continuations(lines):
    joined = []
    pending = None
    for number, text in lines:
        if pending is not None:
            pending[1] += "\n" + text
        else:
            pending = [number, text]
        if not text.endswith("\\"):
            joined.append(tuple(pending))
            pending = None
    if pending is not None:
        joined.append(tuple(pending))
    return joined


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
