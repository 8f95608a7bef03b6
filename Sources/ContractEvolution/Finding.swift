import SchemaCheck
import JSONCore

public enum Severity: String, Sendable, Comparable, CaseIterable {
    /// Proven by a counterexample that one side accepts and the other rejects.
    case breaking
    /// Acceptance may change, but no counterexample could be built; the finding says why.
    case possiblyBreaking = "possibly-breaking"
    /// A difference that changes nothing the checker or router decides.
    case compatible
    /// Worth knowing, not a compatibility question (a new version, a timeout, a description).
    case info

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The two contract sets of a comparison.
public enum Side: String, Sendable {
    case old, new

    var other: Side { self == .old ? .new : .old }
}

/// What a finding is about.
public enum Subject: Sendable, Equatable, Hashable {
    case actionVersion(action: String, version: Int)
    case action(String)
    /// A shared schema: the envelope or the campaign schema, by file name.
    case schema(file: String)
    case route(String)
    case manifest
    /// An app-to-page event version, and an event as a whole.
    case eventVersion(event: String, version: Int)
    case event(String)

    public var action: String? {
        switch self {
        case .actionVersion(let action, _), .action(let action): return action
        default: return nil
        }
    }

    public var version: Int? {
        switch self {
        case .actionVersion(_, let version), .eventVersion(_, let version): return version
        default: return nil
        }
    }

    public var event: String? {
        switch self {
        case .eventVersion(let event, _), .event(let event): return event
        default: return nil
        }
    }

    /// How a finding line starts: "apply v1", "envelope.v1.json", "route applyForm", "manifest".
    public var label: String {
        switch self {
        case .actionVersion(let action, let version): return "\(action) v\(version)"
        case .action(let action): return action
        case .schema(let file): return file
        case .route(let name): return "route \(name)"
        case .manifest: return "manifest"
        case .eventVersion(let event, let version): return "event \(event) v\(version)"
        case .event(let event): return "event \(event)"
        }
    }

    /// For an event: the pages it breaks (they read what the app writes).
    var eventReaders: String? {
        switch self {
        case .eventVersion(_, let version): return "pages that read v\(version)"
        case .event: return "pages that subscribe to it"
        default: return nil
        }
    }
}

/// A concrete message (or link) that one contract set accepts and the other rejects, both run
/// through the real checker and router.
public struct Counterexample: Sendable, Equatable {
    public let acceptedBy: Side
    /// A whole envelope message.
    public let message: JSONValue?
    /// A link (route findings).
    public let url: String?
    /// The origin the message comes from, when the difference is the origin.
    public let origin: String?
    /// How the rejecting side answers: an error code and where, e.g. `INVALID_PARAMS /payload/plan (enum)`.
    public let rejection: String
    /// The new contract's verdict on the message, for writing it as a fixture.
    public let newVerdict: Verdict?
    /// When both sides accept the message but open different destinations: where app builds
    /// in the field open it, and where new ones do.
    public internal(set) var oldURL: String? = nil
    public internal(set) var newURL: String? = nil

    /// One side's answer to a message or link.
    public struct Verdict: Sendable, Equatable {
        public let accepted: Bool
        public let code: String?
        public let errors: [ErrorLocation]
    }

    public struct ErrorLocation: Sendable, Equatable {
        public let instanceLocation: String
        public let keyword: String
        /// Where in the schema the keyword sits (`/properties/x/anyOf/1/minimum`).
        public var keywordLocation = ""

        /// A `type` refusal inside an `anyOf` or `oneOf` branch: the value is not of that
        /// branch's type, which says which branch it was meant for, not why it was refused.
        var isOtherBranchType: Bool {
            keyword == "type" && (keywordLocation.contains("/anyOf/") || keywordLocation.contains("/oneOf/"))
        }

        /// The error to quote for a refusal: the first that says why, not which branch was meant.
        static func telling(_ errors: [ErrorLocation]) -> ErrorLocation? {
            errors.first { !$0.isOtherBranchType } ?? errors.first
        }

        /// `/payload/plan (enum)`, or `(root)` for the message itself.
        var quoted: String {
            "\(instanceLocation.isEmpty ? "(root)" : instanceLocation) (\(keyword))"
        }
    }
}

/// One difference between two contract sets, typed, with its severity and proof.
public struct Finding: Sendable {
    public let kind: FindingKind
    public internal(set) var severity: Severity
    public let subject: Subject
    /// A JSON Pointer into the resolved schema (`$ref`s followed), which mirrors the message:
    /// `/properties/payload/properties/plan`. Empty for findings that are not about a schema.
    public let schemaPointer: String
    /// What changed, e.g. `enum narrowed ("business" removed)`.
    public let detail: String
    /// Every proof of the finding, at most one per direction it breaks: a message the old
    /// contracts accept and the new reject (old pages against new app builds), one the other way
    /// (new pages against old app builds), or a link already sent.
    public internal(set) var counterexamples: [Counterexample] = []
    /// The first proof (the direction the change is named for).
    public internal(set) var counterexample: Counterexample? {
        get { counterexamples.first }
        set { counterexamples = newValue.map { [$0] } ?? [] }
    }
    /// The sides whose messages may break without a proof: `old` when a message the old
    /// contracts accept may be rejected by the new ones, `new` the other way. The note says why.
    public internal(set) var doubtedSides: [Side] = []
    /// Why a finding is only possibly breaking, or a remark.
    public internal(set) var note: String?
    /// Set when contracts/accepted-changes.json accepts this finding.
    public internal(set) var accepted: AcceptedChange?

    init(kind: FindingKind, severity: Severity, subject: Subject, schemaPointer: String, detail: String,
         counterexample: Counterexample? = nil, note: String? = nil, accepted: AcceptedChange? = nil) {
        self.kind = kind
        self.severity = severity
        self.subject = subject
        self.schemaPointer = schemaPointer
        self.detail = detail
        self.note = note
        self.accepted = accepted
        self.counterexample = counterexample
    }

    /// Breaking or possibly breaking, and not accepted: this fails the diff.
    public var fails: Bool {
        accepted == nil && (severity == .breaking || severity == .possiblyBreaking)
    }

    /// Whom it breaks, from its proof when it has one.
    public var breaksWhom: String? {
        guard severity == .breaking || severity == .possiblyBreaking else { return nil }
        if let readers = subject.eventReaders { return readers }
        if !counterexamples.isEmpty {
            return SchemaMerge.unique(counterexamples.map(Finding.whom)).joined(separator: " and ")
        }
        switch kind.breaks {
        case .oldPages: return "pages in the field"
        case .oldApps: return "app builds in the field"
        case .oldPagesOrOldApps: return "pages or app builds in the field"
        case .links: return Breaks.links.rawValue
        case .subscribedPages: return Breaks.subscribedPages.rawValue
        case .nobody: return nil
        }
    }
}
