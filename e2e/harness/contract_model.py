"""What the scenarios expect, computed from the contracts on disk (not from the host), so the
e2e run cross-checks the Swift side instead of repeating it.

The URL rule is the project's shared convention: every raw value percent-encoded exactly once,
keeping only RFC 3986 unreserved characters; query fields in the action's declared mapping order;
empty fields left out.
"""

import json
import os
import urllib.parse

CAMPAIGN_FIELDS = ["campaign_id", "group_id", "variant", "utm_source", "utm_medium",
                   "utm_campaign", "utm_term", "utm_content"]


def encode(raw):
    return urllib.parse.quote(str(raw), safe="-._~")


def pointer_get(document, pointer):
    current = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(current, dict) or token not in current:
            return None
        current = current[token]
    return current


class Contracts:
    def __init__(self, directory):
        with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as handle:
            self.manifest = json.load(handle)
        with open(os.path.join(directory, "routes.json"), encoding="utf-8") as handle:
            self.routes = {route["name"]: route for route in json.load(handle)["routes"]}

    @property
    def bridge(self):
        return self.manifest["bridge"]

    def action(self, name, version=1):
        return self.manifest["actions"][name]["versions"][str(version)]

    def external_url(self, route_name, provider, kind, values):
        """The app or fallback URL of an external route's provider: each {field} encoded once."""
        template = self.routes[route_name]["external"]["providers"][provider][kind]
        out, rest = "", template
        while "{" in rest:
            before, _, after = rest.partition("{")
            name, _, rest = after.partition("}")
            out += before + encode(values[name])
        return out + rest

    def link_with_campaign(self, url, campaign):
        """The Universal Link the shim's fallback opens: the reply's url plus the page's campaign
        fields, in the shared fixed order, each encoded once."""
        items = [encode(name) + "=" + encode(campaign[name]) for name in CAMPAIGN_FIELDS if campaign.get(name)]
        return url + ("&" if "?" in url else "?") + "&".join(items) if items else url

    def app_link_route(self, uri):
        """The route of a CTA action a URL opens (one of this app's Universal Links), or None."""
        parts = urllib.parse.urlsplit(uri)
        if parts.scheme != "https" or parts.hostname not in self.manifest["universalLinkHosts"]:
            return None
        segments = parts.path.split("/")[1:]
        for action in self.manifest["actions"].values():
            for contract in action["versions"].values():
                pattern = self.routes[contract["route"]]["pattern"].split("/")[1:]
                if len(pattern) == len(segments) and all(p.startswith(":") and s or p == s for p, s in zip(pattern, segments)):
                    return contract["route"]
        return None

    def timeout_ms(self, action, version=1):
        """How long the shim waits for a reply to this action version."""
        return int(self.action(action, version).get("timeoutMs", 5000))

    def reply_url(self, action, payload, version=1):
        """The Universal Link a CTA reply's `url` must be (no campaign fields)."""
        contract = self.action(action, version)
        route = self.routes[contract["route"]]
        parameters = {name: pointer_get({"payload": payload}, pointer)
                      for name, pointer in contract.get("parameters", {}).items()}
        segments = []
        for segment in route["pattern"].split("/")[1:]:
            segments.append(encode(parameters[segment[1:]]) if segment.startswith(":") else segment)
        url = self.manifest["webBaseURL"] + "/" + "/".join(segments)
        query = []
        for name, pointer in contract.get("query", {}).items():
            value = pointer_get({"payload": payload}, pointer)
            if value is not None and value != "":
                query.append(encode(name) + "=" + encode(value))
        return url + ("?" + "&".join(query) if query else "")


def campaign_of(url):
    """The campaign fields of a page URL, decoded (UTF-8), as the entry link carries them."""
    fields = {}
    for item in urllib.parse.urlsplit(url).query.split("&"):
        name, _, value = item.partition("=")
        # "+" stays a plus: the shared convention encodes a space as %20.
        fields[urllib.parse.unquote(name, errors="strict")] = urllib.parse.unquote(value, errors="strict")
    return {name: fields[name] for name in CAMPAIGN_FIELDS if name in fields}
