/// An event as `VisitTracker` reads it: its texts as symbols, each property the funnel reads in
/// a field of its own. A plain export line becomes one straight from its bytes
/// (`init(scanned:)`); any other event is first a `FunnelEvent` (`init(_:symbols:)`).
/// A text field is nil where `FunnelEvent.string` is nil (missing, empty or not a string).
struct TrackedEvent {
    var name: Symbol
    var sessionKey: String?
    /// Seconds since 1970.
    var time: Double?
    var line: Int
    var source: Symbol?
    /// Whether `properties` has a `source` at all, of any type.
    var hasSource = false
    /// path, else url, else deeplink.
    var link: Symbol?
    var targetScreen: Symbol?
    var campaign: Symbol?
    var variant: Symbol?
    var screen: Symbol?
    var route: Symbol?
    var appState: Symbol?
    var launch: Symbol?
    /// `cold_start` is `true`.
    var coldStart = false

    init(name: Symbol, sessionKey: String?, time: Double?, line: Int) {
        self.name = name
        self.sessionKey = sessionKey
        self.time = time
        self.line = line
    }

    init(_ event: FunnelEvent, symbols: inout SymbolTable) {
        self.init(name: symbols.symbol(event.name), sessionKey: event.sessionKey, time: event.time, line: event.line)
        func text(_ key: String) -> Symbol? { event.string(key).map { symbols.symbol($0) } }
        source = text("source")
        hasSource = event.properties["source"] != nil
        link = text("path") ?? text("url") ?? text("deeplink")
        targetScreen = text("target_screen")
        campaign = text("campaign_id")
        variant = text("variant")
        screen = text("screen")
        route = text("route")
        appState = text("app_state")
        launch = text("launch")
        coldStart = event.properties["cold_start"] == .bool(true)
    }
}

extension TrackedEvent {
    /// The event of a line `scanner` read (its bytes `line`), by the rules of `FunnelLog.event`;
    /// nil when those rules refuse it (the reader then parses the line, to say why).
    init?(scanned scanner: FunnelLineScanner, line: UnsafeBufferPointer<UInt8>, number: Int, symbols: inout SymbolTable) {
        let found: TrackedEvent? = scanner.decoded.withUnsafeBufferPointer { decoded in
            ScannedLine(scanner: scanner, line: line, decoded: decoded).event(number: number, symbols: &symbols)
        }
        guard let found else { return nil }
        self = found
    }
}

/// The values of a scanned line and the bytes their strings are in.
private struct ScannedLine {
    let scanner: FunnelLineScanner
    let line: UnsafeBufferPointer<UInt8>
    let decoded: UnsafeBufferPointer<UInt8>

    func event(number: Int, symbols: inout SymbolTable) -> TrackedEvent? {
        guard let name = bytes(scanner[line: .event]), !name.isEmpty else { return nil }
        let properties = scanner[line: .properties]
        guard properties == .absent || properties == .object else { return nil }
        let session = first(scanner[property: .distinctID], scanner[line: .distinctID])
            ?? first(scanner[property: .sessionID], scanner[line: .sessionID])
        var time: Double?
        if let given = first(scanner[property: .time], scanner[line: .time]) {
            guard let seconds = seconds(given) else { return nil }
            time = seconds
        }
        var event = TrackedEvent(name: symbols.symbol(name), sessionKey: session.flatMap(text), time: time, line: number)
        readProperties(into: &event, symbols: &symbols)
        return event
    }

    private func readProperties(into event: inout TrackedEvent, symbols: inout SymbolTable) {
        func text(_ key: FunnelLineScanner.PropertyKey) -> Symbol? {
            guard let bytes = bytes(scanner[property: key]), !bytes.isEmpty else { return nil }
            return symbols.symbol(bytes)
        }
        event.source = text(.source)
        event.hasSource = scanner[property: .source] != .absent
        event.link = text(.path) ?? text(.url) ?? text(.deeplink)
        event.targetScreen = text(.targetScreen)
        event.campaign = text(.campaignID)
        event.variant = text(.variant)
        event.screen = text(.screen)
        event.route = text(.route)
        event.appState = text(.appState)
        event.launch = text(.launch)
        event.coldStart = scanner[property: .coldStart] == .bool(true)
    }

    /// The first of a property and the line's member of that name that is there.
    private func first(_ property: ScannedValue, _ member: ScannedValue) -> ScannedValue? {
        property != .absent ? property : member != .absent ? member : nil
    }

    /// The bytes of a string value; nil for any other value.
    private func bytes(_ value: ScannedValue) -> UnsafeBufferPointer<UInt8>? {
        switch value {
        case .string(let range): return UnsafeBufferPointer(rebasing: line[range])
        case .decoded(let range): return UnsafeBufferPointer(rebasing: decoded[range])
        default: return nil
        }
    }

    /// A session key: a non-empty string, or an integer's digits.
    private func text(_ value: ScannedValue) -> String? {
        if case .integer(let number) = value { return String(number) }
        guard let bytes = bytes(value), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds since 1970, as `FunnelLog` reads a time; nil when it is none.
    private func seconds(_ value: ScannedValue) -> Double? {
        var number: Double?
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let real): number = real
        case .string, .decoded:
            guard let bytes = bytes(value), !bytes.isEmpty,
                  bytes.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }) else { return nil }
            number = Double(String(decoding: bytes, as: UTF8.self))
        default: number = nil
        }
        guard let number, number.isFinite, number >= 0 else { return nil }
        return number > 1e11 ? number / 1000 : number
    }
}
