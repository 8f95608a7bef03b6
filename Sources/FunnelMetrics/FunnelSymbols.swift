/// A text the funnel compares often (an event name, a screen, a campaign id, a source, a
/// variant, a link), named by a small number: comparing two is comparing two numbers, and a
/// visit's steps hold numbers, not strings.
struct Symbol: Hashable, Sendable {
    let index: Int32
}

/// The symbols of a log: each text held once. Texts equal as Swift compares strings (canonically
/// equivalent spellings such as "é" and "e\u{301}") get the same symbol, whose text is the first
/// spelling seen, so symbols compare as the strings they stand for.
///
/// A line's bytes find their symbol without a string: by a hash of the bytes, among the
/// spellings seen. Only a spelling not seen before makes a string, to look it up by equality.
struct SymbolTable {
    /// Each symbol's text, by index.
    private(set) var texts: [String] = []
    private var byText: [String: Symbol] = [:]
    /// The bytes of every spelling seen, one after another.
    private var spellingBytes: [UInt8] = []
    private var spellings: [Spelling] = []
    /// Open addressing over `spellings`: an index into it, or -1 for an empty slot.
    private var slots = [Int32](repeating: -1, count: 64)

    private struct Spelling {
        let start: Int
        let count: Int
        let hash: UInt64
        let symbol: Symbol
    }

    var count: Int { texts.count }

    func text(_ symbol: Symbol) -> String { texts[Int(symbol.index)] }

    mutating func symbol(_ text: String) -> Symbol {
        var text = text
        return text.withUTF8 { symbol($0) }
    }

    /// The symbol of a text given as UTF-8 (valid: the scanner checked it).
    mutating func symbol(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let spelling = spellings[Int(slots[slot])]
            if spelling.hash == hash && spelling.count == bytes.count && spells(spelling, bytes) { return spelling.symbol }
            slot = (slot + 1) & mask
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let symbol: Symbol
        if let known = byText[text] {
            symbol = known
        } else {
            symbol = Symbol(index: Int32(texts.count))
            texts.append(text)
            byText[text] = symbol
        }
        slots[slot] = Int32(spellings.count)
        spellings.append(Spelling(start: spellingBytes.count, count: bytes.count, hash: hash, symbol: symbol))
        spellingBytes.append(contentsOf: bytes)
        if spellings.count * 2 > slots.count { growSlots() }
        return symbol
    }

    private func spells(_ spelling: Spelling, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        spellingBytes.withUnsafeBufferPointer { stored in
            for offset in 0..<bytes.count where stored[spelling.start + offset] != bytes[offset] { return false }
            return true
        }
    }

    private mutating func growSlots() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, spelling) in spellings.enumerated() {
            var slot = Int(truncatingIfNeeded: spelling.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// A hash of a few bytes, eight at a time (a multiply-and-rotate mix, then the high bits folded
    /// in, as the table uses the low ones).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var at = 0
        while at + 8 <= raw.count {
            hash = (hash.rotated(5) ^ raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) &* 0x517C_C1B7_2722_0A95
            at += 8
        }
        if at < raw.count {
            var tail: UInt64 = 0
            for offset in at..<raw.count { tail |= UInt64(raw[offset]) << (8 * UInt64(offset - at)) }
            hash = (hash.rotated(5) ^ tail) &* 0x517C_C1B7_2722_0A95
        }
        return hash ^ (hash >> 29) ^ (hash >> 47)
    }
}

/// A table of the symbols still in use, made from a fuller one, so the symbols of a long log
/// with ever new values (links with ids, say) do not grow without bound (`VisitTracker`).
/// The first `kept` symbols (the names the funnel looks for) keep their numbers.
struct SymbolRenaming {
    private let old: SymbolTable
    private(set) var table = SymbolTable()
    /// The new index of each old symbol, -1 while it has none.
    private var renamed: [Int32]

    init(_ old: SymbolTable, keeping kept: Int) {
        self.old = old
        renamed = [Int32](repeating: -1, count: old.count)
        for index in 0..<kept {
            renamed[index] = table.symbol(old.texts[index]).index
        }
    }

    mutating func rename(_ symbol: Symbol?) -> Symbol? {
        guard let symbol else { return nil }
        let index = Int(symbol.index)
        if renamed[index] < 0 { renamed[index] = table.symbol(old.texts[index]).index }
        return Symbol(index: renamed[index])
    }
}

/// An answer per symbol, worked out once (what the routes say of a link, a route, a screen).
struct SymbolAnswers<Answer> {
    private var answers: [Answer?] = []

    subscript(symbol: Symbol) -> Answer? {
        get { Int(symbol.index) < answers.count ? answers[Int(symbol.index)] : nil }
        set {
            let index = Int(symbol.index)
            if index >= answers.count { answers.append(contentsOf: repeatElement(nil, count: index + 1 - answers.count)) }
            answers[index] = newValue
        }
    }

    mutating func removeAll() { answers.removeAll() }
}

private extension UInt64 {
    func rotated(_ bits: UInt64) -> UInt64 { self << bits | self >> (64 - bits) }
}
