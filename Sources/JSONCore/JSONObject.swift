/// Object members in insertion order with keyed lookup. Equality ignores order, as JSON's does.
///
/// The objects of the bridge (a message, its payload, an analytics event, a reply) have a handful
/// of members, and for those a linear search costs less than hashing a Swift string, which is
/// Unicode-normalised on every hash. Past `indexedAbove` members a hash index keeps each lookup
/// O(1), so an object with thousands of keys (a hostile message) still builds in linear time.
public struct JSONObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [JSONValue] = []
    /// Position of each key, kept only for objects of more than `indexedAbove` members.
    private var index: [String: Int]?

    static let indexedAbove = 16

    public init() {}

    public init(_ members: [(String, JSONValue)]) {
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    values[at] = newValue
                } else {
                    keys.remove(at: at)
                    values.remove(at: at)
                    rebuildIndex()
                }
            } else if let newValue {
                append(uniqueKey: key, newValue)
            }
        }
    }

    /// Appends a member the caller knows is not there yet (no search of the keys): members it
    /// names itself, or keys a parser already found distinct. Checked in debug builds. The key
    /// and value are taken over (a value made for the call is moved in, not copied).
    public mutating func append(uniqueKey key: __owned String, _ value: __owned JSONValue) {
        assert(position(of: key) == nil, "JSONObject.append(uniqueKey:): \(key) is already a member")
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexedAbove {
            rebuildIndex()
        }
    }

    /// Room for `count` members without growing.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexedAbove else { return index = nil }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(keys.count)
        for (at, key) in keys.enumerated() { positions[key] = at }
        index = positions
    }

    public struct Iterator: IteratorProtocol {
        private let keys: [String]
        private let values: [JSONValue]
        private var at = 0

        fileprivate init(keys: [String], values: [JSONValue]) {
            self.keys = keys
            self.values = values
        }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard at < keys.count else { return nil }
            defer { at += 1 }
            return (keys[at], values[at])
        }
    }

    public func makeIterator() -> Iterator { Iterator(keys: keys, values: values) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for at in lhs.keys.indices where rhs[lhs.keys[at]] != lhs.values[at] { return false }
        return true
    }

    /// Order-independent, like equality: the members' own hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for at in keys.indices {
            var member = Hasher()
            member.combine(keys[at])
            member.combine(values[at])
            sum &+= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
