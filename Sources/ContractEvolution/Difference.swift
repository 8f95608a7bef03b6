import SchemaCheck
import JSONCore

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

    /// The direction of several changes at one place taken together.
    static func combined(_ directions: [Direction]) -> Direction {
        let narrows = directions.contains { $0 == .narrowed || $0 == .both }
        let widens = directions.contains { $0 == .widened || $0 == .both }
        switch (narrows, widens) {
        case (false, false): return .unchanged
        case (true, false): return .narrowed
        case (false, true): return .widened
        case (true, true): return .both
        }
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
    /// The differences this one stands for (a rename: the property removed and the one added,
    /// and their `required`), each of which may prove it in its own direction.
    var parts: [Difference] = []
    /// Why a direction may stay unproven, in words for the finding: the engine compares a
    /// keyword only as written, or does not decide whether one regex includes another.
    var doubt: String? = nil
}
