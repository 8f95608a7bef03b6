/// The storage of bridgekit's shared value types (`RouteDefinition`, `ParsedDeeplink`,
/// `CampaignMetadata`, `RouteEnvelope`, `ActionContract`, `BridgeAction`): their fields, a plain
/// struct with synthesized equality, in one immutable box. Such a value rides on every envelope,
/// command, reply and log entry of a message, and copying it is one reference count instead of
/// one per string and table inside. A change makes a new box.
///
/// Equality is the fields' (synthesized), after a shortcut for two copies of one box; hashing and
/// debug printing are the fields' too, so a boxed type declares neither `==` nor a description.
///
/// The inlining policy of these types, stated once: a public property that returns one stored
/// field of the box is `@inlinable`, and so the `Fields` struct and its stored properties are
/// `@usableFromInline`; a member that computes something from the fields is not inlinable. So
/// a reader in another module reads a field through the box without a call and without
/// retaining it.
public struct ValueBox<Fields: Sendable>: Sendable {
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let fields: Fields
        @inlinable init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline let storage: Storage

    @inlinable public init(_ fields: Fields) { storage = Storage(fields) }

    @inlinable public var fields: Fields { storage.fields }
}

extension ValueBox: Equatable where Fields: Equatable {
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }
}

extension ValueBox: Hashable where Fields: Hashable {
    @inlinable public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }
}

extension ValueBox: CustomDebugStringConvertible {
    /// The fields, not the box they live in (test failures and debuggers print this).
    public var debugDescription: String { String(reflecting: storage.fields) }
}
