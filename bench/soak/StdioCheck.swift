#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONCore

/// Checks what `bridgectl host --stdio` printed for a session against the session itself
/// (regenerated from its seed): every message that expects a reply got exactly one, naming its
/// input line and echoing its id (null where none is readable); every notification was recorded;
/// every envelope was consumed exactly once and nothing was recorded for it afterwards; the host
/// reported no input error. Reads the output as it streams; what it keeps per input line is a
/// byte and a number.
struct StdioCheck {
    /// Per input line (from 1): 0 not a message, 1 a request (one reply), 2 a notification (none).
    private var lineKinds: [UInt8] = [0]
    /// Per input line: the message number whose "soak-…" id the reply echoes, or -1 for null.
    private var lineIDs: [Int32] = [0]
    private var answered = Bitset()
    private var consumed = Bitset()
    private var lastEnvelope = 0
    private(set) var messages = 0
    private(set) var requests = 0
    private(set) var notificationsExpected = 0
    private(set) var notificationsSeen = 0
    private(set) var replies = 0
    private(set) var outputLines = 0
    private(set) var replyCodes: [String: Int] = [:]
    private(set) var outcomes: [String: Int] = [:]
    private(set) var recordTypes: [String: Int] = [:]
    private(set) var problems: [String] = []
    private(set) var problemCount = 0

    init(session: SoakSession) {
        for event in session {
            guard case .message(let message) = event else {
                lineKinds.append(0)
                lineIDs.append(0)
                continue
            }
            messages += 1
            if message.expectsReply {
                requests += 1
                lineKinds.append(1)
                lineIDs.append(message.replyID.map { Int32(Self.number(ofID: $0) ?? 0) } ?? -1)
            } else {
                notificationsExpected += 1
                lineKinds.append(2)
                lineIDs.append(0)
            }
        }
    }

    static func number(ofID id: String) -> Int? {
        guard id.hasPrefix("soak-") else { return nil }
        return Int(id.dropFirst(5))
    }

    private mutating func problem(_ text: String) {
        problemCount += 1
        if problems.count < 20 { problems.append(text) }
    }

    mutating func read(line bytes: ArraySlice<UInt8>) {
        outputLines += 1
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            return problem("output line \(outputLines) is not JSON: \(error)")
        }
        let type = value["type"]?.stringValue ?? "?"
        recordTypes[type, default: 0] += 1
        switch type {
        case "reply":
            replies += 1
            guard let line = value["line"]?.integerValue.map(Int.init), line > 0, line < lineKinds.count else {
                return problem("reply without the line of its message: \(value.serialized())")
            }
            guard lineKinds[line] == 1 else { return problem("a reply to input line \(line), which expects none") }
            guard answered.insert(line) else { return problem("input line \(line) was answered twice") }
            let expected = lineIDs[line]
            let id = value["id"]
            if expected < 0 {
                if id != .null { problem("input line \(line): reply id \(id?.serialized() ?? "absent"), expected null") }
            } else if id?.stringValue.flatMap(Self.number(ofID:)) != Int(expected) {
                problem("input line \(line): reply id \(id?.serialized() ?? "absent"), expected message \(expected)'s id")
            }
            let code = value["ok"] == true ? "ok" : value.value(at: "/error/code")?.stringValue ?? "?"
            replyCodes[code, default: 0] += 1
        case "notification":
            notificationsSeen += 1
        case "envelope":
            guard let raw = value["envelope"]?.integerValue, let envelope = Int(exactly: raw), envelope > 0,
                  let outcome = value["outcome"]?.stringValue else {
                return problem("an envelope line without envelope or outcome: \(value.serialized())")
            }
            outcomes[outcome, default: 0] += 1
            lastEnvelope = max(lastEnvelope, envelope)
            if consumed.contains(envelope) { problem("envelope \(envelope): \(outcome) after it was consumed") }
            if !["waiting_for_ready", "pending_login", "queued"].contains(outcome) { consumed.insert(envelope) }
        case "error":
            problem("the host did not understand input line \(value["line"]?.serialized() ?? "?"): \(value["message"]?.stringValue ?? "")")
        default:
            break
        }
    }

    /// After the last output line: what never came.
    mutating func finish() {
        var missing = 0
        for line in lineKinds.indices where lineKinds[line] == 1 && !answered.contains(line) {
            missing += 1
            if missing <= 5 { problem("input line \(line) got no reply") }
        }
        if missing > 5 { problem("\(missing) requests got no reply in all") }
        if notificationsSeen != notificationsExpected {
            problem("\(notificationsSeen) notification records for \(notificationsExpected) notifications")
        }
        var unconsumed = 0
        for envelope in 1...max(1, lastEnvelope) where !consumed.contains(envelope) {
            unconsumed += 1
            if unconsumed <= 5 { problem("envelope \(envelope) was never consumed") }
        }
        if unconsumed > 5 { problem("\(unconsumed) envelopes never consumed in all") }
    }

    var envelopes: Int { lastEnvelope }

    /// Reads standard input to its end, line by line.
    static func readStandardInput(_ each: (ArraySlice<UInt8>) -> Void) {
        var buffer: [UInt8] = []
        var start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { readChunkOfStandardInput(into: $0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[..<count])
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline > start { each(buffer[start..<newline]) }
                start = newline + 1
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
        }
        if start < buffer.count { each(buffer[start...]) }
    }
}
