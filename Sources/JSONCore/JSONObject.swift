/// Object members in insertion order with keyed lookup. Equality ignores order, as JSON's does.
///
/// The objects of the bridge (a message, its payload, an analytics event, a reply) have a handful
/// of members, and for those a linear search costs less than hashing a Swift string, which is
/// Unicode-normalised on every hash. Past `indexedAbove` members a hash index keeps each lookup
/// O(1), so an object with thousands of keys (a hostile message) still builds in linear time.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in order, keys and values side by side: one array per object (the bridge
    /// makes a few objects per message, and each array is an allocation and its reference count).
    private var members: [Member] = []
    /// Position of each key, kept only for objects of more than `indexedAbove` members.
    private var index: [String: Int]?

    static let indexedAbove = 16

    /// Whether lookups go through the hash index (for tests of the size rule).
    var isIndexed: Bool { index != nil }

    public init() {}

    public init(_ members: [(String, JSONValue)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// The keys in order (made when asked: the members keep keys and values together).
    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    members[at].value = newValue
                } else {
                    members.remove(at: at)
                    reindexAfterRemoval()
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
        if index != nil {
            index![key] = members.count
        }
        members.append(Member(key: key, value: value))
        if index == nil && members.count > Self.indexedAbove {
            index = positions()
        }
    }

    /// Room for `count` members without growing.
    public mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    /// After a removal the positions past it moved; an object back at the size or under it
    /// drops the index.
    private mutating func reindexAfterRemoval() {
        index = members.count > Self.indexedAbove ? positions() : nil
    }

    private func positions() -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        for (at, member) in members.enumerated() { positions[member.key] = at }
        return positions
    }

    /// A struct rather than a tuple: an array of tuples is destroyed element by element through
    /// the tuple's run-time type metadata, an array of structs through the struct's own code.
    fileprivate struct Member: Sendable {
        var key: String
        var value: JSONValue
    }

    public struct Iterator: IteratorProtocol {
        private let members: [Member]
        private var at = 0

        fileprivate init(_ members: [Member]) {
            self.members = members
        }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard at < members.count else { return nil }
            defer { at += 1 }
            return (members[at].key, members[at].value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(members) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members where rhs[member.key] != member.value { return false }
        return true
    }

    /// Order-independent, like equality: the members' own hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
