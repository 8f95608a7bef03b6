#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import SchemaCheck

/// One read of a host session's input.
public enum HostSessionInputEvent: Sendable, Equatable {
    case line(String)
    /// Nothing came within the timeout: time to run what fell due.
    case timeout
    case end
}

/// Where a `HostSession` reads its lines: a pipe polled with a timeout (so a slow step completes
/// on time while no line comes), or lines that are all there already.
public protocol HostSessionInput {
    /// The next line, or `.timeout` after `milliseconds` (nil: wait as long as it takes).
    mutating func next(timeoutMs: Int?) -> HostSessionInputEvent
}

/// Lines given up front (tests, a recorded session): no timeout is ever needed.
public struct HostSessionLines: HostSessionInput {
    private var lines: ArraySlice<String>
    public init(_ lines: [String]) { self.lines = lines[...] }
    public mutating func next(timeoutMs: Int?) -> HostSessionInputEvent {
        lines.popFirst().map(HostSessionInputEvent.line) ?? .end
    }
}

/// The JSON-lines host protocol (`bridgectl host --stdio`, documented in the README): a
/// `MockBridgeHost` driven by one JSON object per input line, answering with one JSON object per
/// output line. A harness that is not bridgectl (a WebView test runner, an e2e driver) can run the
/// same protocol in process: make a session over a host, then `run(input:sleepMs:)` or feed it
/// lines with `handle(_:number:)`.
///
/// Input lines: `open`, `message`, `login`, `logout`, `ready`, `state`, `complete`, `cancel`,
/// `installed`, `deferred`, `interaction`, `accept`, `dismiss`, `advance`, `emit` and `page`
/// (`inputTypes`). Every event the page would receive is a `page-event` line. Every
/// record the host makes is written as a line as it happens; a bad line gets
/// `{"type":"error","line":N,"message":...}` and the session goes on.
@MainActor
public final class HostSession {
    /// The host the session drives; a `hello` line with a `setup` replaces it before anything else.
    public private(set) var host: MockBridgeHost
    /// The origin of a `message` line that names none.
    public let defaultOrigin: String
    /// Time moves only with `advance` lines; otherwise the host's clock follows the wall clock.
    public let manualClock: Bool
    /// After each input line, write `{"type":"ack","line":N}`.
    public let acknowledgeLines: Bool
    /// An input line may carry a message body up to the host's limit plus its JSON quoting.
    public nonisolated static let maxLineBytes = 1024 * 1024

    private let write: @MainActor (String) -> Void
    /// Makes the host a `hello` line's setup asks for (nil: setups are refused).
    private let makeHost: ((HostSetup) throws -> MockBridgeHost)?
    /// Whether a line other than `hello` was handled: a setup comes first or not at all.
    private var started = false

    /// The protocol version this session speaks (docs/host-protocol.md).
    public static let protocolVersion = 1
    /// The conformance levels it meets, as its `hello` reply lists them.
    public static let levels = ["core", "navigation", "events"]

    /// Takes over `host.onRecord`: every record becomes an output line passed to `write`
    /// (one JSON object and its newline).
    public init(host: MockBridgeHost, defaultOrigin: String, manualClock: Bool, acknowledgeLines: Bool = false,
                makeHost: ((HostSetup) throws -> MockBridgeHost)? = nil,
                write: @escaping @MainActor (String) -> Void) {
        self.host = host
        self.makeHost = makeHost
        self.defaultOrigin = defaultOrigin
        self.manualClock = manualClock
        self.acknowledgeLines = acknowledgeLines
        self.write = write
        host.onRecord = { [weak self] record in self?.emit(record) }
    }

    /// The `type`s an input line may have.
    public static let inputTypes = "hello, open, message, login, logout, ready, state, complete, cancel, installed, deferred, interaction, accept, dismiss, advance, emit, page"

    /// The input line of each message, by the mock host's message count.
    private var messageLines: [Int: Int] = [:]

    /// Reads lines until the input ends, handling each, then (on the wall clock) lets the work
    /// under way finish: every piece of it has a deadline. `sleepMs` waits that many milliseconds.
    public func run(input: inout some HostSessionInput, sleepMs: (Int) -> Void) {
        // Without a manual clock the mock's clock follows the wall clock: it is moved to the time
        // elapsed before each line is handled and whenever scheduled work falls due between lines.
        let wall = ContinuousClock()
        let started = wall.now
        func catchUp() {
            guard !manualClock else { return }
            let elapsed = started.duration(to: wall.now)
            let milliseconds = Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
            let behind = milliseconds - host.clock.elapsedMs
            if behind > 0 { host.advanceClock(byMs: behind) }
        }
        var lineNumber = 0
        reading: while true {
            switch input.next(timeoutMs: manualClock ? nil : host.clock.msUntilNextWork) {
            case .line(let line):
                catchUp()
                lineNumber += 1
                handle(line, number: lineNumber)
            case .timeout:
                catchUp()
            case .end:
                break reading
            }
        }
        while !manualClock, let wait = host.clock.msUntilNextWork {
            sleepMs(wait)
            catchUp()
        }
    }

    /// A record as a line; a reply names the input line of the message it answers.
    func emit(_ record: MockRecord) {
        guard case .reply(_, let message) = record, let line = messageLines.removeValue(forKey: message),
              case .object(let fields) = record.json else {
            return emit(record.json)
        }
        var object = JSONObject([("type", "reply"), ("line", .integer(Int64(line)))])
        for (key, value) in fields where key != "type" { object[key] = value }
        emit(.object(object))
    }

    func emit(_ value: JSONValue) {
        write(value.serialized(escapeForScript: true) + "\n")
    }

    func fail(_ number: Int, _ message: String) {
        emit(.object(JSONObject([("type", "error"), ("line", .integer(Int64(number))), ("message", .string(message))])))
    }

    /// Applies input line `number` (counted from 1), then acknowledges it if asked to.
    public func handle(_ line: String, number: Int) {
        apply(line, number: number)
        if acknowledgeLines { emit(.object(JSONObject([("type", "ack"), ("line", .integer(Int64(number)))]))) }
    }

    private func apply(_ line: String, number: Int) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return }
        guard line.utf8.count <= Self.maxLineBytes else {
            return fail(number, "line is longer than the limit of \(Self.maxLineBytes) bytes")
        }
        if line.utf8.starts(with: [0xEF, 0xBB, 0xBF]) {
            return fail(number, "line starts with a UTF-8 byte-order mark (remove it)")
        }
        let value: JSONValue
        do {
            value = try JSONDocument(line, limits: ParseLimits(maxBytes: Self.maxLineBytes, maxDepth: 128)).value
        } catch {
            return fail(number, "not a JSON object: \(error)")
        }
        guard case .object(let object) = value else { return fail(number, "expected a JSON object with a \"type\"") }
        guard let type = object["type"]?.stringValue else { return fail(number, "missing \"type\" (\(Self.inputTypes))") }
        defer { if type != "hello" { started = true } }
        switch type {
        case "hello": hello(object, number)
        case "open": open(object, number)
        case "message": message(object, number)
        case "login": host.completeLogin()
        case "logout": host.logout()
        case "ready": host.becomeReady()
        case "state":
            guard let name = object["state"]?.stringValue, let state = AppState(rawValue: name) else {
                return fail(number, "\"state\" must be one of foreground, background, coldStart")
            }
            host.setAppState(state)
        case "complete": complete(object, number)
        case "emit": emitEvent(object, number)
        case "page": movePage(object, number)
        case _ where ScenarioStep.types.contains(type):
            // The steps simulate --step takes too: one parser, the same messages.
            do {
                let step = try ScenarioStep(object)
                try step.checkSource(against: host.contracts.channels)
                if case .advance = step, !manualClock {
                    return fail(number, "advance needs --manual-clock (the host runs on the wall clock)")
                }
                try step.run(on: host)
            } catch {
                fail(number, error.description)
            }
        case "installed":
            guard let list = object["apps"]?.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                return fail(number, "\"apps\" must be an array of URL schemes, e.g. [\"mapsapp\"]")
            }
            host.installedApps = Set(list.compactMap { $0.stringValue?.lowercased() })
        case "cancel":
            guard let envelope = object["envelope"]?.integerValue, let id = Int(exactly: envelope) else {
                return fail(number, "\"envelope\" must be the envelope number to cancel")
            }
            if !host.navigator.cancel(EnvelopeID(id)) {
                fail(number, "envelope \(id) is not waiting or navigating (nothing to cancel)")
            }
        default:
            fail(number, "unknown type \"\(type)\" (\(Self.inputTypes))")
        }
    }

    /// `{"type":"hello","protocol":1,"setup":{...}?}`: answers with the protocol version and the
    /// levels met; a setup (`HostSetup`) replaces the host before any other line.
    private func hello(_ object: JSONObject, _ number: Int) {
        guard let asked = object["protocol"]?.integerValue, asked == Int64(Self.protocolVersion) else {
            return fail(number, "\"protocol\" must be \(Self.protocolVersion), the version this host speaks")
        }
        if let value = object["setup"] {
            guard !started else { return fail(number, "a setup must come before every other line") }
            guard let makeHost else { return fail(number, "this session takes no setup") }
            do {
                let setup = try HostSetup(value, contracts: host.contracts)
                host = try makeHost(setup)
                host.onRecord = { [weak self] record in self?.emit(record) }
            } catch {
                return fail(number, "setup refused: \(error)")
            }
        }
        emit(.object(JSONObject([("type", "hello"), ("protocol", .integer(Int64(Self.protocolVersion))),
                                 ("host", "bridgectl host"), ("levels", .array(Self.levels.map { .string($0) }))])))
    }

    /// `{"type":"emit","event":NAME,"version":N,"payload":{...}}`: the app sends an event; a
    /// `page-event` line when the page gets it, an error line (and nothing delivered) when not.
    private func emitEvent(_ object: JSONObject, _ number: Int) {
        guard let event = object["event"]?.stringValue else { return fail(number, "\"event\" must be the event name") }
        guard let raw = object["version"]?.integerValue, let version = Int(exactly: raw), version >= 1 else {
            return fail(number, "\"version\" must be a positive integer")
        }
        guard let payload = object["payload"] else { return fail(number, "\"payload\" is missing (the event's payload object)") }
        do {
            try host.emit(event: event, version: version, payload: payload)
        } catch {
            var line = JSONObject([("type", "error"), ("line", .integer(Int64(number))), ("message", .string("not delivered: \(error)"))])
            if !error.details.isEmpty { line["details"] = .array(error.details) }
            emit(.object(line))
        }
    }

    /// `{"type":"page","origin":"https://...","isMainFrame":true}`: where the page that would
    /// receive events is now (`"origin": null`: no page loaded).
    private func movePage(_ object: JSONObject, _ number: Int) {
        guard let value = object["origin"] else { return fail(number, "\"origin\" must be the page's origin, or null for no page") }
        if value == .null {
            host.pageLocation = nil
            return
        }
        guard let origin = value.stringValue else { return fail(number, "\"origin\" must be a string or null") }
        var isMainFrame = true
        if let flag = object["isMainFrame"] {
            guard let known = flag.boolValue else { return fail(number, "\"isMainFrame\" must be true or false") }
            isMainFrame = known
        }
        host.pageLocation = PageLocation(origin: origin, isMainFrame: isMainFrame)
    }

    private func complete(_ object: JSONObject, _ number: Int) {
        var result: MockStepResult?
        if let value = object["result"] {
            switch value.stringValue {
            case "ok": result = .ok
            case "notFound": result = .notFound
            case "fail":
                if let reason = object["reason"], reason.stringValue == nil { return fail(number, "\"reason\" must be a string") }
                result = .fail(object["reason"]?.stringValue ?? "failed by a complete line")
            default: return fail(number, "\"result\" must be one of ok, fail, notFound")
            }
        }
        var step: NavigationStep?
        if let value = object["step"] {
            guard let name = value.stringValue, let known = NavigationStep(rawValue: name) else {
                return fail(number, "\"step\" must be one of \(NavigationStep.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            step = known
        }
        var envelope: EnvelopeID?
        if let value = object["envelope"] {
            guard let raw = value.integerValue, let id = Int(exactly: raw) else { return fail(number, "\"envelope\" must be an integer") }
            envelope = EnvelopeID(id)
        }
        if let problem = host.completeStep(result, step: step, envelope: envelope) {
            fail(number, problem)
        }
    }

    private func open(_ object: JSONObject, _ number: Int) {
        var source: CampaignMetadata.Source?
        if let value = object["source"], value != .null {
            let known = host.contracts.channels.knownSources
            guard let name = value.stringValue, let named = known.first(where: { $0.rawValue == name }) else {
                return fail(number, "\"source\" must be one of \(known.map(\.rawValue).joined(separator: ", "))")
            }
            source = named
        }
        var url: String?
        if let value = object["url"], value != .null {
            guard let text = value.stringValue else { return fail(number, "\"url\" must be a string or null") }
            url = text
        }
        do {
            try host.open(entry: url, source: source)
        } catch {
            fail(number, "the entry link does not route (\(error)); the page is open with source only")
        }
    }

    private func message(_ object: JSONObject, _ number: Int) {
        let body: [UInt8]
        switch (object["body"], object["bodyBase64"]) {
        case (.string(let text)?, nil): body = Array(text.utf8)
        case (.object?, nil), (.array?, nil): body = Array(object["body"]!.serialized().utf8)
        case (nil, .string(let encoded)?):
            // Raw bytes a JSON string cannot carry (invalid UTF-8), for hostile-input harnesses.
            guard let data = Data(base64Encoded: encoded) else { return fail(number, "\"bodyBase64\" is not valid base64") }
            body = [UInt8](data)
        default:
            return fail(number, "give \"body\" (the message text as a string, or the message object) or \"bodyBase64\"")
        }
        var origin = defaultOrigin
        if let value = object["origin"] {
            guard let text = value.stringValue else { return fail(number, "\"origin\" must be a string") }
            origin = text
        }
        var isMainFrame = true
        if let value = object["isMainFrame"] {
            guard let flag = value.boolValue else { return fail(number, "\"isMainFrame\" must be true or false") }
            isMainFrame = flag
        }
        let message = host.messagesReceived + 1
        messageLines[message] = number
        host.receive(bytes: body, origin: origin, isMainFrame: isMainFrame)
        if !host.unansweredMessages.contains(message) { messageLines[message] = nil }
    }
}
