import SchemaCheck
import JSONCore

extension Finding {
    /// One line: `apply v1 /properties/payload/properties/plan: enum narrowed ("business" removed):
    /// breaks pages in the field; e.g. {...}`.
    public var line: String {
        var text = subject.label + (schemaPointer.isEmpty ? "" : " " + schemaPointer) + ": " + detail + ": "
        switch severity {
        case .breaking where subject.eventReaders != nil:
            text += "breaks \(breaksWhom ?? "pages")" + (kind.isEventRemoval ? "" : ": they get messages they reject")
                + " (checked app to page: the app writes, pages read)"
        case .breaking:
            text += "breaks \(counterexample.map(Self.whom) ?? breaksWhom ?? "the contract")"
        case .possiblyBreaking:
            text += "possibly breaking" + (note.map { " (\($0))" } ?? "")
        case .compatible:
            text += "compatible" + (note.map { " (\($0))" } ?? "")
        case .info:
            text += "info" + (note.map { " (\($0))" } ?? "")
        }
        text += " [\(kind.rawValue)]"
        for (index, example) in counterexamples.enumerated() {
            if index > 0 { text += "; and breaks \(subject.eventReaders ?? Self.whom(example))" }
            text += "; e.g. " + example.shown
            text += " (" + example.rejection + ")"
        }
        if severity == .breaking && !doubtedSides.isEmpty, let note {
            text += "; possibly also " + note
        }
        if let accepted {
            text += " [accepted until \(accepted.expires): \(accepted.reason)]"
        }
        return text
    }

    /// Whom one proof breaks.
    static func whom(_ example: Counterexample) -> String {
        if example.oldURL != nil { return "app builds in the field and the links they open" }
        if example.url != nil { return Breaks.links.rawValue }
        if let origin = example.origin { return "pages served from \(origin)" }
        return example.acceptedBy == .old ? "pages in the field" : "app builds in the field"
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["kind"] = .string(kind.rawValue)
        object["severity"] = .string(severity.rawValue)
        object["action"] = subject.action.map(JSONValue.string) ?? .null
        object["version"] = subject.version.map { .integer(Int64($0)) } ?? .null
        if let event = subject.event { object["event"] = .string(event) }
        object["schemaPointer"] = .string(schemaPointer)
        object["message"] = .string(detail)
        object["counterexample"] = counterexample?.json ?? .null
        if counterexamples.count > 1 { object["counterexamples"] = .array(counterexamples.map(\.json)) }
        if !doubtedSides.isEmpty { object["inDoubt"] = .array(doubtedSides.map { .string($0 == .old ? "old pages against new app builds" : "new pages against old app builds") }) }
        // Beyond the basic fields: what else the finding is about, and why.
        switch subject {
        case .schema(let file): object["schema"] = .string(file)
        case .route(let name): object["route"] = .string(name)
        default: break
        }
        if let whom = breaksWhom { object["breaks"] = .string(whom) }
        if let note { object["note"] = .string(note) }
        if let accepted {
            object["accepted"] = ["reason": .string(accepted.reason), "expires": .string(accepted.expires)]
        }
        return .object(object)
    }
}

extension Counterexample {
    /// The message as compact JSON, a link as it is, a message from an origin with the origin.
    var shown: String {
        if let url { return url }
        let body = message?.serialized() ?? "null"
        return origin.map { "from \($0): \(body)" } ?? body
    }

    var json: JSONValue {
        var object = JSONObject()
        object["acceptedBy"] = .string(acceptedBy.rawValue)
        if let message { object["message"] = message }
        if let url { object["url"] = .string(url) }
        if let origin { object["origin"] = .string(origin) }
        object["rejection"] = .string(rejection)
        return .object(object)
    }
}

extension DiffReport {
    /// Every finding a line, then a summary line.
    public var text: String {
        var out = findings.map { $0.line + "\n" }.joined()
        out += summary + "\n"
        return out
    }

    public var summary: String {
        let accepted = findings.filter { $0.accepted != nil }.count
        let counts = [
            "\(breakingCount) breaking",
            "\(possiblyBreakingCount) possibly breaking",
            "\(findings.filter { $0.severity == .compatible }.count) compatible",
            "\(findings.filter { $0.severity == .info }.count) info",
        ]
        return "diff: " + counts.joined(separator: ", ") + (accepted > 0 ? " (\(accepted) accepted)" : "")
    }

    public var json: JSONValue {
        [
            "findings": .array(findings.map(\.json)),
            "breaking": .integer(Int64(breakingCount)),
            "possiblyBreaking": .integer(Int64(possiblyBreakingCount)),
        ]
    }

    /// The counterexamples as contract fixtures (relative path -> file text): one per message,
    /// under `<action>/v<version>/`, valid when the new contracts accept it, invalid (with the new
    /// contracts' error code and first error) when they reject it; link counterexamples under
    /// `links/`, as `{description, url, acceptedBy, rejection}`.
    public var counterexampleFixtures: [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        var used = Set<String>()
        func unique(_ path: String) -> String {
            var candidate = path + ".json"
            var counter = 2
            while used.contains(candidate) {
                candidate = "\(path)-\(counter).json"
                counter += 1
            }
            used.insert(candidate)
            return candidate
        }
        for finding in findings where finding.kind != .versionNotBumped {
            for example in finding.counterexamples {
                let slug = ([finding.kind.rawValue] + finding.schemaPointer.split(separator: "/")
                    .filter { !["properties", "items", "prefixItems", "patternProperties"].contains($0) }.map(String.init))
                    .joined(separator: "-")
                    .map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
                let description = "bridgectl diff, \(finding.kind.rawValue) at \(finding.subject.label)\(finding.schemaPointer.isEmpty ? "" : " " + finding.schemaPointer): \(finding.detail). The \(example.acceptedBy.rawValue) contracts accept it; \(example.rejection)."
                if let url = example.url {
                    let fixture: JSONValue = ["description": .string(description), "url": .string(url),
                                              "acceptedBy": .string(example.acceptedBy.rawValue), "rejection": .string(example.rejection)]
                    files.append((unique("links/" + String(slug)), fixture.prettyPrinted() + "\n"))
                    continue
                }
                guard let message = example.message, let verdict = example.newVerdict,
                      let action = message["action"]?.stringValue, let version = message["version"]?.integerValue else { continue }
                var fixture = JSONObject()
                fixture["description"] = .string(description)
                fixture["message"] = message
                if let origin = example.origin { fixture["origin"] = .string(origin) }
                if verdict.accepted {
                    fixture["expect"] = ["valid": true]
                } else {
                    var expect = JSONObject()
                    expect["valid"] = false
                    expect["code"] = .string(verdict.code ?? "INVALID_MESSAGE")
                    expect["errors"] = .array(verdict.errors.prefix(1).map {
                        ["instanceLocation": .string($0.instanceLocation), "keyword": .string($0.keyword)]
                    })
                    fixture["expect"] = .object(expect)
                }
                let prefix = verdict.accepted ? "valid-diff-" : "invalid-diff-"
                files.append((unique("\(action)/v\(version)/\(prefix)\(String(slug))"), JSONValue.object(fixture).prettyPrinted() + "\n"))
            }
        }
        return files
    }
}
