import JSONCore

/// One analytics event of a log: its name and properties, the person or session it belongs to
/// (Mixpanel's `distinct_id`, or a `session_id`), and when it happened.
public struct FunnelEvent: Sendable, Equatable {
    public let name: String
    /// The event's properties.
    public let properties: JSONObject
    /// nil when the log does not say (the host's own lines): the log is then one stream.
    public let sessionKey: String?
    /// Seconds since 1970; nil when the log does not say.
    public let time: Double?
    /// 1-based line of the log, for messages and for order among equal times.
    public let line: Int

    public init(name: String, properties: JSONObject = JSONObject(), sessionKey: String? = nil, time: Double? = nil, line: Int) {
        self.name = name
        self.properties = properties
        self.sessionKey = sessionKey
        self.time = time
        self.line = line
    }

    public func string(_ key: String) -> String? {
        guard let value = properties[key]?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    /// Names of events a host log implies but does not print as events (see `FunnelLog`).
    public static let coldStartWait = "cold_start_wait"
    public static let loginPresented = "login_presented"
    /// A sign-in read from a host log (an envelope that waited for login went on), whatever the
    /// set calls its own sign-in event.
    public static let hostSignIn = "host_sign_in"
}

/// The two shapes of log line `FunnelLog` reads.
public enum FunnelInputFormat: String, Sendable, CaseIterable {
    /// Decide per line: a line with "type" is a host line, a line with "event" an export line.
    case auto
    /// `bridgectl host --stdio` output (and `MockRecord.json`).
    case host
    /// A Mixpanel-style export: `event`, `properties`, `distinct_id`, `time`.
    case export
}

/// What a log held besides its events.
public struct FunnelLogSummary: Sendable, Equatable {
    public var hostLines = 0
    public var exportLines = 0
    /// Host lines that are not events and imply none (replies, navigation records, steps...).
    public var skippedLines = 0

    public init() {}
}

/// Reads an event log of one JSON object per line, in either of two shapes:
/// - the host's (`bridgectl host --stdio`): `{"type":"event","name":...,"properties":{...}}`.
///   Three facts the host prints as other lines become events, so a host log is usable as it is:
///   `{"type":"login_presented"}` is a `login_presented`; an envelope that waited at the ready gate
///   (`"outcome":"waiting_for_ready"`) is a `cold_start_wait` (the app was cold starting); an
///   envelope that waited for login (`pending_login`) and then went on (waiting_for_ready, queued,
///   navigated, failed) is a `sign_in_success`. Other line types are skipped.
/// - a Mixpanel-style export: `{"event":...,"properties":{...,"distinct_id":...,"time":...}}`
///   (`distinct_id` and `time` may also stand beside `properties`).
/// `time` is seconds since 1970 (a number, or a string of digits); a value above 10^11 is taken as
/// milliseconds. Blank lines are skipped. Anything else is an error naming the line.
public enum FunnelLog {
    /// A line longer than this is refused (a log line is a few hundred bytes).
    public static let maxLineBytes = 1 << 20

    public static func events(_ bytes: [UInt8], format: FunnelInputFormat = .auto)
        throws(FunnelLogError) -> (events: [FunnelEvent], summary: FunnelLogSummary)
    {
        var reader = FunnelLineReader(format: format)
        var events: [FunnelEvent] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            lineNumber += 1
            try reader.read(line: bytes[start..<end], number: lineNumber, into: &events)
            start = end + 1
        }
        return (events, reader.summary)
    }
}

/// Reads one line of a log at a time, so a log of any size streams through (`FunnelLogStream`).
/// What it keeps between lines: the counts of the summary and the host envelopes waiting for login.
public struct FunnelLineReader {
    public let format: FunnelInputFormat
    public private(set) var summary = FunnelLogSummary()
    /// Host envelopes waiting for login, so the line that shows them going on is a sign-in.
    var waitingForLogin: Set<Int64> = []
    /// Reads plain export lines without JSONCore's tree; off only to compare the two in tests.
    let usesScanner: Bool
    private var scanner = FunnelLineScanner()

    public init(format: FunnelInputFormat) { self.init(format: format, usesScanner: true) }

    init(format: FunnelInputFormat, usesScanner: Bool) {
        self.format = format
        self.usesScanner = usesScanner
    }

    /// Appends the events of one line (none, one or two) to `events`; `line` is without its "\n".
    public mutating func read(line: ArraySlice<UInt8>, number lineNumber: Int, into events: inout [FunnelEvent])
        throws(FunnelLogError)
    {
        let result = line.withUnsafeBufferPointer { bytes -> Result<Void, FunnelLogError> in
            do throws(FunnelLogError) { try read(line: bytes, number: lineNumber, into: &events) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }

    /// The same over the bytes in place.
    mutating func read(line rawLine: UnsafeBufferPointer<UInt8>, number lineNumber: Int, into events: inout [FunnelEvent])
        throws(FunnelLogError)
    {
        guard let line = try content(of: rawLine, number: lineNumber) else { return }
        try read(try parse(line, number: lineNumber), line: lineNumber, into: &events)
    }

    /// The events of one line as the visit tracker reads them, over the bytes in place (a stream
    /// does not copy each line out of its chunk): a plain export line straight from its bytes
    /// (`FunnelLineScanner`), any other line through JSONCore and `FunnelEvent`.
    mutating func read(line rawLine: UnsafeBufferPointer<UInt8>, number lineNumber: Int, symbols: inout SymbolTable,
                       into events: inout [TrackedEvent]) throws(FunnelLogError)
    {
        guard let line = try content(of: rawLine, number: lineNumber) else { return }
        if usesScanner && format != .host && scanner.scan(line),
           let event = TrackedEvent(scanned: scanner, line: line, number: lineNumber, symbols: &symbols) {
            summary.exportLines += 1
            events.append(event)
            return
        }
        var parsed: [FunnelEvent] = []
        try read(try parse(line, number: lineNumber), line: lineNumber, into: &parsed)
        for event in parsed { events.append(TrackedEvent(event, symbols: &symbols)) }
    }

    /// The line without a "\r" at its end; nil for a blank line. Throws for a byte-order mark or
    /// a line too long.
    private func content(of rawLine: UnsafeBufferPointer<UInt8>, number lineNumber: Int)
        throws(FunnelLogError) -> UnsafeBufferPointer<UInt8>?
    {
        var line = rawLine
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        if lineNumber == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw FunnelLogError(line: 1, message: "file starts with a UTF-8 byte-order mark (remove it)")
        }
        if line.count > FunnelLog.maxLineBytes {
            throw FunnelLogError(line: lineNumber, message: "longer than \(FunnelLog.maxLineBytes) bytes")
        }
        return line
    }

    private func parse(_ line: UnsafeBufferPointer<UInt8>, number lineNumber: Int) throws(FunnelLogError) -> JSONValue {
        do {
            return try JSONValue(parsing: line, limits: ParseLimits(maxBytes: FunnelLog.maxLineBytes, maxDepth: 64))
        } catch {
            throw FunnelLogError(line: lineNumber, message: "not JSON: \(error.message) (column \(error.column))")
        }
    }

        mutating func read(_ value: JSONValue, line: Int, into events: inout [FunnelEvent]) throws(FunnelLogError) {
            guard let object = value.objectValue else { throw FunnelLogError(line: line, message: "expected a JSON object, not \(kind(value))") }
            let isHost: Bool
            switch format {
            case .host:
                guard object["type"] != nil else {
                    throw FunnelLogError(line: line, message: "a host log line needs a \"type\" (--input-format host)")
                }
                isHost = true
            case .export:
                guard object["event"] != nil else {
                    throw FunnelLogError(line: line, message: "an export line needs an \"event\" (--input-format export)")
                }
                isHost = false
            case .auto:
                if object["type"] != nil { isHost = true } else if object["event"] != nil { isHost = false } else {
                    throw FunnelLogError(line: line, message:
                        "neither a host line ({\"type\":\"event\",\"name\":...}) nor an export line ({\"event\":...,\"properties\":{...}})")
                }
            }
            if isHost {
                summary.hostLines += 1
                try readHost(object, line: line, into: &events)
            } else {
                summary.exportLines += 1
                events.append(try FunnelLog.event(name: object["event"]!, object, line: line, nameKey: "event"))
            }
        }

        mutating func readHost(_ object: JSONObject, line: Int, into events: inout [FunnelEvent]) throws(FunnelLogError) {
            guard let type = object["type"]?.stringValue else { throw FunnelLogError(line: line, message: "\"type\" must be a string") }
            switch type {
            case "event":
                guard let name = object["name"] else { throw FunnelLogError(line: line, message: "an event line needs a \"name\"") }
                events.append(try FunnelLog.event(name: name, object, line: line, nameKey: "name"))
            case "login_presented":
                events.append(FunnelEvent(name: FunnelEvent.loginPresented, line: line))
            case "envelope":
                guard let envelope = object["envelope"]?.integerValue, let outcome = object["outcome"]?.stringValue else {
                    throw FunnelLogError(line: line, message: "an envelope line needs \"envelope\" (a number) and \"outcome\" (a string)")
                }
                let fields = JSONObject([("envelope", .integer(envelope)), ("route", object["route"] ?? .null)])
                if waitingForLogin.contains(envelope), ["waiting_for_ready", "queued", "navigated", "failed"].contains(outcome) {
                    waitingForLogin.remove(envelope)
                    events.append(FunnelEvent(name: FunnelEvent.hostSignIn, properties: fields, line: line))
                }
                switch outcome {
                case "pending_login": waitingForLogin.insert(envelope)
                case "waiting_for_ready": events.append(FunnelEvent(name: FunnelEvent.coldStartWait, properties: fields, line: line))
                case "navigated", "queued", "failed": break
                default: waitingForLogin.remove(envelope)
                }
            default:
                summary.skippedLines += 1
            }
        }

        private func kind(_ value: JSONValue) -> String {
            switch value {
            case .array: return "an array"
            case .string: return "a string"
            case .integer, .number: return "a number"
            case .bool: return "a boolean"
            case .null: return "null"
            case .object: return "an object"
            }
        }
}

extension FunnelLog {
    static func event(name: JSONValue, _ object: JSONObject, line: Int, nameKey: String) throws(FunnelLogError) -> FunnelEvent {
        guard let name = name.stringValue, !name.isEmpty else {
            throw FunnelLogError(line: line, message: "\"\(nameKey)\" must be a non-empty string")
        }
        let properties: JSONObject
        switch object["properties"] {
        case nil: properties = JSONObject()
        case .object(let given)?: properties = given
        default: throw FunnelLogError(line: line, message: "\"properties\" must be an object")
        }
        let key = (properties["distinct_id"] ?? object["distinct_id"] ?? properties["session_id"] ?? object["session_id"]).flatMap(text)
        var time: Double?
        if let given = properties["time"] ?? object["time"] {
            guard let seconds = seconds(given) else {
                throw FunnelLogError(line: line, message: "\"time\" must be seconds (or milliseconds) since 1970, not \(given.serialized())")
            }
            time = seconds
        }
        return FunnelEvent(name: name, properties: properties, sessionKey: key, time: time, line: line)
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .integer(let number): return String(number)
        default: return nil
        }
    }

    private static func seconds(_ value: JSONValue) -> Double? {
        var number: Double?
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let real): number = real
        case .string(let text) where !text.isEmpty && text.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }): number = Double(text)
        default: number = nil
        }
        guard let number, number.isFinite, number >= 0 else { return nil }
        return number > 1e11 ? number / 1000 : number
    }
}

/// An event log that cannot be read: the line and what is wrong with it.
public struct FunnelLogError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
