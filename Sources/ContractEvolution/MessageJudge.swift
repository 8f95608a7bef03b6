import SchemaCheck
import JSONCore

/// One side of a comparison, as the counterexample search asks it: accepted or rejected, and where.
protocol MessageJudge: AnyObject {
    func judge(_ message: JSONValue) -> ContractSide.MessageVerdict
}

extension ContractSide: MessageJudge {
    func judge(_ message: JSONValue) -> MessageVerdict { verdict(message) }
}

/// Who reads the messages a search builds, for the words of a proof or a doubt. Actions: the app
/// reads what pages write. Events: pages read what the app writes, so a page built against the
/// old schema is the one to break when the new schema accepts more.
enum Reader: Sendable, Equatable {
    case app
    case pages(event: String, version: Int)

    /// How the rejecting side treats a counterexample.
    func rejection(_ verdict: ContractSide.MessageVerdict, by side: Side) -> String {
        switch self {
        case .app:
            return "the \(side.rawValue) contracts answer \(verdict.summary)"
        case .pages:
            return "pages built against the \(side.rawValue) schema drop it as invalid (stats.invalidEvents): \(verdict.summary)"
        }
    }

    /// Why one direction is in doubt, in the words of who would break.
    func doubt(_ accepting: Side, tried: Int, why: String? = nil) -> String {
        let who: String
        switch self {
        case .app:
            who = accepting == .old
                ? "old pages against new app builds (a message the old contracts accept and the new ones reject)"
                : "new pages against old app builds (a message the new contracts accept and the old ones reject)"
        case .pages(_, let version):
            who = "pages that read v\(version) (a message the \(accepting.rawValue) schema accepts and the \(accepting.other.rawValue) one rejects)"
        }
        let reason = why.map { ", \($0)" } ?? ""
        if tried == 0 {
            return "\(who): no message the \(accepting.rawValue) \(self == .app ? "contracts accept" : "schema accepts") could be built around the change\(reason)"
        }
        return "\(who): none of \(tried) messages built around the change is one\(reason)"
    }
}

/// Pages built against one event version's schema: the shim checks each event with it and
/// drops one it rejects. nil schema: the set has no such event version (nothing is accepted).
final class EventReader: MessageJudge {
    let schema: CompiledSchema?

    init(schema: CompiledSchema?) {
        self.schema = schema
    }

    func judge(_ message: JSONValue) -> ContractSide.MessageVerdict {
        guard let schema else {
            return ContractSide.MessageVerdict(accepted: false, code: "UNKNOWN_EVENT", errors: [], summary: "an event it does not know",
                                               url: nil, route: nil)
        }
        let result = schema.validate(message)
        guard !result.isValid else {
            return ContractSide.MessageVerdict(accepted: true, code: nil, errors: [], summary: "accepted", url: nil, route: nil)
        }
        let errors = result.units.map { Counterexample.ErrorLocation(instanceLocation: $0.instanceLocation, keyword: $0.keyword, keywordLocation: $0.keywordLocation) }
        let place = Counterexample.ErrorLocation.telling(errors)?.quoted ?? "rejected"
        return ContractSide.MessageVerdict(accepted: false, code: "INVALID_EVENT", errors: errors, summary: place, url: nil, route: nil)
    }
}
