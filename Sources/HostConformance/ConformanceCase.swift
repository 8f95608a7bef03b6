import JSONCore

/// What a host promises, in three levels; each level needs the ones below it
/// (docs/host-protocol.md lists what each needs).
public enum ConformanceLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Every fixture's reply, error code and pointers, navigation and campaign; origins and frames;
    /// hostile and unreadable messages.
    case core = 1
    /// The shared navigator's promises: the login gate, logout, cold start, duplicates, an older
    /// build's capabilities, the campaign on every analytics event.
    case navigation = 2
    /// Events to the page: every event fixture, `navigation_completed`, where events may go.
    case events = 3

    public var description: String {
        switch self {
        case .core: "core"
        case .navigation: "navigation"
        case .events: "events"
        }
    }

    public static func < (left: ConformanceLevel, right: ConformanceLevel) -> Bool { left.rawValue < right.rawValue }
}

/// One case: a host started fresh, a `hello` line with the case's setup, then the case's lines;
/// the input ends, the host finishes and exits, and its output is judged.
public struct ConformanceCase: Sendable {
    public let name: String
    public let level: ConformanceLevel
    /// The hello line's `setup` (nil: the host's own start).
    public let setup: JSONValue?
    /// The lines after hello.
    public let lines: [JSONValue]
    /// What is wrong with the transcript; empty when the case passes.
    let judge: @Sendable (HostTranscript) -> [String]

    init(_ name: String, level: ConformanceLevel, setup: JSONValue? = nil, lines: [JSONValue],
         judge: @escaping @Sendable (HostTranscript) -> [String]) {
        self.name = name
        self.level = level
        self.setup = setup
        self.lines = lines
        self.judge = judge
    }

    /// The host's whole input, one JSON text a line.
    public var input: [String] {
        var hello = JSONObject([("type", "hello"), ("protocol", .integer(Int64(HostProtocol.version)))])
        if let setup { hello["setup"] = setup }
        return ([JSONValue.object(hello)] + lines).map { $0.serialized() }
    }

    /// The input line number (from 1, hello being 1) of `lines[index]`.
    static func lineNumber(ofLineAt index: Int) -> Int { index + 2 }

    /// Every problem with the host's output for this case; empty: it passed.
    public func problems(in transcript: HostTranscript) -> [String] {
        var problems: [String] = transcript.unreadable.prefix(3).map { "an output line that is not a JSON object with a \"type\": \($0.prefix(120))" }
        let hellos = transcript.all("hello")
        if hellos.count != 1 {
            problems.append(hellos.isEmpty ? "no hello line came back" : "\(hellos.count) hello lines came back for one hello")
        }
        if let refused = transcript.errors(aboutLine: 1).first {
            problems.append("the hello line was refused: \(refused["message"]?.stringValue ?? "")")
        }
        return problems + judge(transcript)
    }
}

/// The protocol's fixed facts.
public enum HostProtocol {
    /// The version `bridgectl verify` speaks, sent in every hello line.
    public static let version = 1
}

/// A case that cannot be made from this contract set (no fixture of the kind it needs): reported
/// by name, never dropped.
public struct UnbuiltCase: Sendable, Equatable {
    public let name: String
    public let level: ConformanceLevel
    public let reason: String
}
