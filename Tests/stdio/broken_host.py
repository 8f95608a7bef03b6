#!/usr/bin/env python3
"""A host that breaks one promise: the real host (the command after --) behind a filter.

Usage: broken_host.py BREAK -- HOST-COMMAND [ARG ...]
BREAK is one of:
  drops-campaign       navigations and analytics events lose their campaign metadata
  accepts-invalid      a payload the schema rejects (INVALID_PARAMS) is answered ok
  ignores-login-gate   the host acts logged in whatever the setup says
  replies-twice        every reply is sent twice
  answers-no-hello     the hello line gets no answer (a host that does not speak the protocol)
`bridgectl verify` must fail each of these, naming the case (Tests/BridgeCLITests/VerifyCLITests.swift).
"""
import json
import subprocess
import sys

CAMPAIGN_FIELDS = ("campaign_id", "group_id", "variant", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content")


def change_input(broken, line):
    message = json.loads(line)
    if broken == "ignores-login-gate" and message.get("type") == "hello":
        message.get("setup", {}).pop("loggedIn", None)
    if broken == "ignores-login-gate" and message.get("type") == "logout":
        return None
    return json.dumps(message)


def change_output(broken, line):
    message = json.loads(line)
    kind = message.get("type")
    if broken == "drops-campaign" and kind == "navigation":
        message.pop("campaign", None)
    if broken == "drops-campaign" and kind == "event":
        for field in CAMPAIGN_FIELDS:
            message.get("properties", {}).pop(field, None)
    if broken == "accepts-invalid" and kind == "reply" and message.get("error", {}).get("code") == "INVALID_PARAMS":
        message.pop("error")
        message["ok"] = True
        message["result"] = {}
    if broken == "answers-no-hello" and kind == "hello":
        return []
    if broken == "replies-twice" and kind == "reply":
        return [json.dumps(message)] * 2
    return [json.dumps(message)]


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: broken_host.py BREAK -- HOST-COMMAND [ARG ...]")
    broken, command = sys.argv[1], sys.argv[3:]
    lines = [change_input(broken, line) for line in sys.stdin.read().splitlines() if line.strip()]
    host = subprocess.run(command, input="".join(line + "\n" for line in lines if line is not None),
                          capture_output=True, text=True, check=False)
    for line in host.stdout.splitlines():
        for changed in change_output(broken, line):
            print(changed)
    sys.stderr.write(host.stderr)
    sys.exit(host.returncode)


if __name__ == "__main__":
    main()
