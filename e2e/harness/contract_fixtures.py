"""The contract set's own examples, read from disk, for a run that must work for any company's
contracts: the valid fixtures of each action version (contracts/fixtures/<action>/v<N>/*.json),
the event fixtures (contracts/event-fixtures/<event>/v<N>/*.json) and the app builds of
releases.json. Nothing here knows the example contracts' actions by name.
"""

import glob
import json
import os

# Fixture keys that put the host in a state a page load does not give (another entry link, another
# sender, bytes instead of an envelope, a logged-out person); "installed" is set per call instead.
CONDITIONS = ("entry", "source", "origin", "isMainFrame", "raw", "authenticated")


def _load(pattern):
    found = []
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        document["file"] = path
        found.append(document)
    return found


def _version_of(path):
    return int(os.path.basename(os.path.dirname(path))[1:])


class Fixtures:
    def __init__(self, directory, manifest):
        self.directory = directory
        self.manifest = manifest
        self.all = _load(os.path.join(directory, "fixtures", "*", "v*", "*.json"))
        self.events = _load(os.path.join(directory, "event-fixtures", "*", "v*", "*.json"))
        with open(os.path.join(directory, "releases.json"), encoding="utf-8") as handle:
            self.releases = json.load(handle)["releases"]

    def actions(self):
        """The contract's actions in manifest order, each with its versions ascending."""
        return [(name, sorted(int(v) for v in action["versions"])) for name, action in self.manifest["actions"].items()]

    def _of(self, action, version):
        folder = os.path.join(self.directory, "fixtures", action, "v%d" % version)
        return [f for f in self.all if os.path.dirname(f["file"]) == folder and "message" in f]

    def plain(self, action, version):
        """Valid fixtures a page at an allowed origin can send as they are, requests and
        notifications, one per destination (the host refuses the same destination twice within its
        duplicate window)."""
        chosen, destinations = [], set()
        for fixture in self._of(action, version):
            expect = fixture["expect"]
            if not expect.get("valid") or any(key in fixture for key in CONDITIONS) or "reply" not in expect:
                continue
            # A notification (no id) expects no reply: its destination is its navigation.
            destination = json.dumps(expect["reply"]["result"] if expect["reply"] else expect.get("navigation"), sort_keys=True)
            if destination not in destinations:
                destinations.add(destination)
                chosen.append(fixture)
        return chosen

    def payload(self, action, version):
        """The payload of the first plain fixture of the version (a page's typical call)."""
        plain = self.plain(action, version)
        if not plain:
            raise LookupError("no valid fixture of %s v%d without special conditions" % (action, version))
        return plain[0]["message"]["payload"]

    def logged_out(self):
        """Valid fixtures whose sender is logged out, with the reply they expect."""
        return [f for f in self.all if f["expect"].get("valid") and f.get("authenticated") is False
                and "message" in f and f["expect"].get("reply")]

    def refused_origins(self):
        """The origins fixtures expect ORIGIN_REJECTED for (look-alikes of the allowed origins)."""
        return [f["origin"] for f in self.all if "origin" in f and f["expect"].get("code") == "ORIGIN_REJECTED"]

    def events_of(self, name):
        return [f for f in self.events if f["message"].get("event") == name]

    def android_releases(self):
        return ["%s@%s" % (r["platform"], r["version"]) for r in self.releases
                if r["platform"] == "android" and r.get("status") != "support-ended"]

    def release_actions(self, release):
        platform, _, version = release.partition("@")
        for entry in self.releases:
            if entry["platform"] == platform and entry["version"] == version:
                return {name: sorted(versions) for name, versions in entry["actions"].items()}
        raise LookupError("%s is not in releases.json" % release)
