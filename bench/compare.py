#!/usr/bin/env python3
"""Compares the verdicts of every validator line by line; prints each disagreement and exits 1
if there is any.

usage: compare.py CORPUS EXPECTED --bridgectl OUTPUT [--peer NAME=VERDICTS]... [--lines N]

OUTPUT is the text output of `bridgectl validate --ndjson` (invalid lines are `line N: ...`).
Peers write one verdict per line (1/0), for the first N lines (all when --lines is not given).
Duplicate keys are a parse error for bridge messages; orjson keeps the last of them, so a
peer's verdict on a line with duplicate keys (found here with the standard library's
object_pairs_hook) counts as invalid: the comparison is about schemas, not parsers.
"""
import json
import re
import sys


class DuplicateKey(ValueError):
    pass


def refuse_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen[key] = value
    return seen


def has_duplicate_keys(line):
    try:
        json.loads(line, object_pairs_hook=refuse_duplicates)
    except DuplicateKey:
        return True
    except ValueError:
        return False
    return False


def main(argv):
    args = argv[1:]
    corpus, expected_path = args[0], args[1]
    bridgectl_output, peers, limit = None, [], None
    index = 2
    while index < len(args):
        if args[index] == "--bridgectl":
            bridgectl_output = args[index + 1]
        elif args[index] == "--peer":
            name, path = args[index + 1].split("=", 1)
            peers.append((name, path))
        elif args[index] == "--lines":
            limit = int(args[index + 1])
        else:
            sys.exit(__doc__)
        index += 2
    with open(corpus, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    with open(expected_path) as f:
        expected = [c == "1" for c in f.read().split()]
    total = len(lines) if limit is None else min(limit, len(lines))

    invalid = set()
    line_pattern = re.compile(r"^line (\d+): ")
    with open(bridgectl_output, encoding="utf-8", errors="replace") as f:
        for text in f:
            found = line_pattern.match(text)
            if found:
                invalid.add(int(found.group(1)))
    verdicts = {"generator": expected[:total], "bridgectl": [n not in invalid for n in range(1, total + 1)]}
    duplicates = {n for n in range(total) if '"' in lines[n] and has_duplicate_keys(lines[n])}
    for name, path in peers:
        with open(path) as f:
            said = [c == "1" for c in f.read().split()]
        if len(said) < total:
            print("compare: %s gave %d verdicts for %d lines" % (name, len(said), total))
            return 1
        verdicts[name] = [said[n] and n not in duplicates for n in range(total)]

    names = list(verdicts)
    disagreements = 0
    for n in range(total):
        row = [verdicts[name][n] for name in names]
        if all(row) or not any(row):
            continue
        disagreements += 1
        if disagreements <= 20:
            said = ", ".join("%s=%s" % (name, "valid" if verdicts[name][n] else "invalid") for name in names)
            print("DISAGREE line %d: %s\n  %s" % (n + 1, said, lines[n][:300]))
    valid = sum(verdicts["bridgectl"])
    print("verdicts compared: %d lines x %d validators (%s); %d valid, %d invalid; %d duplicate-key lines; "
          "disagreements: %d" % (total, len(names), ", ".join(names), valid, total - valid, len(duplicates),
                                 disagreements))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
