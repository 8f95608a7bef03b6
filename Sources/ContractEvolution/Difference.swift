import SchemaCheck

/// Which way a change moves the set of accepted values.
enum Direction: Sendable, Equatable {
    /// The new schema rejects something the old one accepted.
    case narrowed
    /// The new schema accepts something the old one rejected.
    case widened
    /// Either (or the engine cannot tell which).
    case both
    /// The schemas accept the same values (a covered addition, say).
    case unchanged
    /// Only annotations changed.
    case annotation

    var changesAcceptance: Bool { self == .narrowed || self == .widened || self == .both }

    /// The side whose acceptance a counterexample must show, in the order to try.
    var acceptingSides: [Side] {
        switch self {
        case .narrowed: return [.old]
        case .widened: return [.new]
        case .both: return [.old, .new]
        case .unchanged, .annotation: return []
        }
    }

    static func combined(_ directions: [Direction]) -> Direction {
        let moving = Set(directions.compactMap { d -> String? in
            switch d {
            case .narrowed: return "n"
            case .widened: return "w"
            case .both: return "b"
            default: return nil
            }
        })
        if moving.isEmpty { return .unchanged }
        if moving == ["n"] { return .narrowed }
        if moving == ["w"] { return .widened }
        return .both
    }
}

/// Where counterexample candidates go, and what they are built from.
struct Probe: Sendable {
    enum Focus: Sendable, Equatable {
        /// Candidate values replace the value at `path`.
        case value
        /// The object at `path` without this member.
        case removeMember(String)
        /// The object at `path` with one more member that no property or pattern names.
        case addUnknownMember
        /// The object at `path` with more or fewer members.
        case memberCount
        /// Candidate strings become member names of the object at `path`.
        case memberName
    }

    var path: [PathToken]
    /// The old and new schemas at `path` (for `memberName`, the propertyNames schemas).
    var old: NormalSchema
    var new: NormalSchema
    var focus: Focus = .value
}

/// One structural difference between two normal schemas, before it is proven.
struct Difference: Sendable {
    let kind: FindingKind
    /// Where in the resolved schema, e.g. /properties/payload/properties/plan.
    let pointer: String
    let direction: Direction
    /// What changed, e.g. `enum narrowed ("business" removed)`.
    let detail: String
    let probe: Probe?
    /// The schema document the changed part was written in (see `NormalSchema.source`).
    var source: String? = nil
}
