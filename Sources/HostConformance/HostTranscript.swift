import JSONCore

/// What a host wrote during one case: its output lines in order, read as the host protocol
/// defines them (docs/host-protocol.md). Lines verify does not know are kept and ignored.
public struct HostTranscript: Sendable, Equatable {
    /// Each line that is a JSON object with a string `type`, in order.
    public let lines: [JSONObject]
    /// Lines that are not such an object (each one a protocol breach).
    public let unreadable: [String]

    public init(output: [String]) {
        var lines: [JSONObject] = []
        var unreadable: [String] = []
        for text in output where !text.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) {
            if let value = try? JSONValue(parsing: text), case .object(let object) = value, object["type"]?.stringValue != nil {
                lines.append(object)
            } else {
                unreadable.append(text)
            }
        }
        self.lines = lines
        self.unreadable = unreadable
    }

    /// The lines of one `type`, in order.
    public func all(_ type: String) -> [JSONObject] {
        lines.filter { $0["type"]?.stringValue == type }
    }

    /// The replies to the message on input line `line` (counted from 1, the hello line included).
    public func replies(toLine line: Int) -> [JSONObject] {
        all("reply").filter { $0["line"]?.integerValue == Int64(line) }
    }

    /// The error lines about input line `line`.
    public func errors(aboutLine line: Int) -> [JSONObject] {
        all("error").filter { $0["line"]?.integerValue == Int64(line) }
    }

    /// Where the first line of `type` is, or nil.
    public func position(ofFirst type: String) -> Int? {
        lines.firstIndex { $0["type"]?.stringValue == type }
    }

    public var navigations: [JSONObject] { all("navigation") }
    public var pageEvents: [JSONObject] { all("page-event") }
}

/// One reply line, read.
struct ReplyLine {
    let object: JSONObject
    var ok: Bool? { object["ok"]?.boolValue }
    var id: JSONValue? { object["id"] }
    var error: JSONObject? { object["error"]?.objectValue }
    var code: String? { error?["code"]?.stringValue }
    var details: [JSONValue] { error?["details"]?.arrayValue ?? [] }
    var result: JSONValue? { object["result"] }

    /// "ok", or "error CODE: message".
    var summary: String {
        guard ok == false else { return ok == true ? "ok" : "a reply with neither ok true nor false" }
        return "error \(code ?? "(no code)"): \(error?["message"]?.stringValue ?? "")"
    }
}
