import JSONCore

/// The input lines cases are made of.
enum CaseLines {
    /// A message posted from `origin` (nil: the host's default, its first allowed origin).
    static func message(_ body: String, origin: String? = nil, isMainFrame: Bool = true) -> JSONValue {
        var line = JSONObject([("type", "message"), ("body", .string(body))])
        if let origin { line["origin"] = .string(origin) }
        if !isMainFrame { line["isMainFrame"] = false }
        return .object(line)
    }

    static func message(_ message: JSONValue, origin: String? = nil, isMainFrame: Bool = true) -> JSONValue {
        self.message(message.serialized(), origin: origin, isMainFrame: isMainFrame)
    }

    /// Raw bytes a JSON string cannot carry (invalid UTF-8).
    static func message(base64 encoded: String) -> JSONValue {
        .object(JSONObject([("type", "message"), ("bodyBase64", .string(encoded))]))
    }

    static func plain(_ type: String) -> JSONValue { .object(JSONObject([("type", .string(type))])) }

    /// Where the page that would receive events is.
    static func page(origin: String, isMainFrame: Bool = true) -> JSONValue {
        .object(JSONObject([("type", "page"), ("origin", .string(origin)), ("isMainFrame", .bool(isMainFrame))]))
    }

    static func emit(event: String, version: Int, payload: JSONValue) -> JSONValue {
        .object(JSONObject([("type", "emit"), ("event", .string(event)), ("version", .integer(Int64(version))), ("payload", payload)]))
    }

    /// `message` with its `id` replaced (a second request of the same action).
    static func withID(_ message: JSONValue, _ id: String) -> JSONValue {
        guard case .object(var object) = message else { return message }
        object["id"] = .string(id)
        return .object(object)
    }
}

/// Judging helpers shared by the cases.
enum Judge {
    /// The one reply to input line `line`, or the problem: none, or more than one.
    static func oneReply(_ transcript: HostTranscript, line: Int, what: String) -> (ReplyLine?, [String]) {
        let replies = transcript.replies(toLine: line)
        switch replies.count {
        case 0: return (nil, ["no reply to \(what) (input line \(line))"])
        case 1: return (ReplyLine(object: replies[0]), [])
        default: return (ReplyLine(object: replies[0]), ["\(replies.count) replies to \(what) (input line \(line)): a request is answered once"])
        }
    }

    /// The reply to `line` is an error with `code`, and (when given) echoes `id`.
    static func refused(_ transcript: HostTranscript, line: Int, what: String, code: String, id: String? = nil) -> [String] {
        let (reply, problems) = oneReply(transcript, line: line, what: what)
        guard let reply else { return problems }
        var found = problems
        if reply.ok != false || reply.code != code {
            found.append("expected \(what) refused with \(code), got \(reply.summary)")
        }
        if let id, reply.id != .string(id) {
            found.append("expected the reply to \(what) to carry id \"\(id)\", got \(reply.id?.serialized() ?? "no id")")
        }
        return found
    }

    /// The reply to `line` is ok.
    static func accepted(_ transcript: HostTranscript, line: Int, what: String) -> [String] {
        let (reply, problems) = oneReply(transcript, line: line, what: what)
        guard let reply else { return problems }
        return reply.ok == true ? problems : problems + ["expected \(what) accepted, got \(reply.summary)"]
    }

    /// No navigation line at all.
    static func nothingNavigated(_ transcript: HostTranscript, why: String) -> [String] {
        let routes = transcript.navigations.map { $0["route"]?.stringValue ?? "?" }
        return routes.isEmpty ? [] : ["expected no navigation (\(why)), got \(routes.joined(separator: ", "))"]
    }

    /// Exactly one navigation, matching `expected` (a subset) when given.
    static func navigatedOnce(_ transcript: HostTranscript, expected: JSONValue?) -> [String] {
        let navigations = transcript.navigations
        guard navigations.count == 1 else {
            return ["expected one navigation, got \(navigations.count)\(navigations.isEmpty ? "" : ": " + navigations.map { $0["route"]?.stringValue ?? "?" }.joined(separator: ", "))"]
        }
        guard let expected, let mismatch = JSONSubset.mismatch(expected: expected, actual: .object(navigations[0]), at: "navigation") else { return [] }
        return [mismatch]
    }
}
