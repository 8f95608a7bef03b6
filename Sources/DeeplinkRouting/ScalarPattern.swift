/// A whole-value pattern made of runs of characters from sets, e.g. "one of A-Z a-z 0-9, then up
/// to 63 of A-Z a-z 0-9 _ . -" (the JSON Schema pattern `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`).
///
/// It is the part of regular expressions a campaign field needs, held as data: the routing layer
/// has no regex engine and no JSON Schema, and the web shim runs the very same data through the
/// same steps (js/src), so both sides give the same verdict and the same words. BridgeContracts
/// turns a schema's `pattern` into one of these and refuses a pattern it cannot express.
///
/// Characters are Unicode scalars (code points), as JSON Schema counts them.
public struct ScalarPattern: Sendable, Equatable, Hashable {
    /// One run: between `min` and `max` characters, each in `ranges`.
    public struct Piece: Sendable, Equatable, Hashable {
        /// Inclusive ranges of scalar values, in the order the pattern wrote them (so the plain
        /// words read as the author wrote the class: "A-Z a-z 0-9 _ . -").
        public let ranges: [ClosedRange<UInt32>]
        public let min: Int
        /// nil: no upper bound.
        public let max: Int?

        public init(ranges: [ClosedRange<UInt32>], min: Int, max: Int?) {
            self.ranges = ranges
            self.min = min
            self.max = max
        }

        public func contains(_ scalar: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(scalar.value) }
        }

        /// The set in plain words: "A-Z a-z 0-9 _ . -".
        public var allowed: String {
            ranges.map { range in
                range.lowerBound == range.upperBound
                    ? LinkText.shownCharacter(range.lowerBound)
                    : LinkText.shownCharacter(range.lowerBound) + "-" + LinkText.shownCharacter(range.upperBound)
            }.joined(separator: " ")
        }

        /// "one of A-Z a-z 0-9", "up to 63 of A-Z ...".
        public var summary: String {
            let count: String
            switch (min, max) {
            case (1, 1?): count = "one of"
            case (0, 1?): count = "optionally one of"
            case (0, nil): count = "any number of"
            case (1, nil): count = "one or more of"
            case (let low, nil): count = "at least \(low) of"
            case (0, let high?): count = "up to \(high) of"
            case (let low, let high?) where low == high: count = "\(low) of"
            case (let low, let high?): count = "\(low) to \(high) of"
            }
            return count + " " + allowed
        }
    }

    public let pieces: [Piece]

    public init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// The fewest characters a matching value has.
    public var minLength: Int { pieces.reduce(0) { $0 + $1.min } }

    /// The most characters a matching value has; nil when unbounded.
    public var maxLength: Int? {
        var total = 0
        for piece in pieces {
            guard let max = piece.max else { return nil }
            total += max
        }
        return total
    }

    /// "one of A-Z a-z 0-9, then up to 63 of A-Z a-z 0-9 _ . -".
    public var summary: String {
        pieces.map(\.summary).joined(separator: ", then ")
    }

    /// Why `scalars` does not match, or nil when it does. Lengths are the caller's to check
    /// first (they give the clearer message); this reports the first character no run accepts.
    public func mismatch(_ scalars: [Unicode.Scalar]) -> Mismatch? {
        var states = closure([State(piece: 0, count: 0)])
        for (offset, scalar) in scalars.enumerated() {
            var next: [State] = []
            for state in states where state.piece < pieces.count {
                let piece = pieces[state.piece]
                guard piece.contains(scalar), piece.max.map({ state.count < $0 }) ?? true else { continue }
                // An unbounded run only needs to know that it reached its minimum.
                let count = piece.max == nil ? Swift.min(state.count + 1, piece.min) : state.count + 1
                next.append(State(piece: state.piece, count: count))
            }
            if next.isEmpty {
                let live = Set(states.map(\.piece)).filter { $0 < pieces.count }.sorted()
                return .notAllowed(position: offset + 1, scalar: scalar, allowed: live.map { pieces[$0].allowed })
            }
            states = closure(next)
        }
        return states.contains(where: { $0.piece == pieces.count }) ? nil : .endsTooEarly
    }

    public enum Mismatch: Sendable, Equatable {
        /// Character `position` (1-based) fits no run that could take it; `allowed` lists what
        /// the runs that were still possible there accept.
        case notAllowed(position: Int, scalar: Unicode.Scalar, allowed: [String])
        /// Every character fit, but the value stopped before the last required run.
        case endsTooEarly
    }

    private struct State: Hashable {
        var piece: Int
        var count: Int
    }

    /// `states` plus every state reached by leaving a run that has its minimum.
    private func closure(_ states: [State]) -> [State] {
        var seen = Set<State>()
        var result: [State] = []
        var pending = states
        while let state = pending.popLast() {
            guard seen.insert(state).inserted else { continue }
            result.append(state)
            if state.piece < pieces.count, state.count >= pieces[state.piece].min {
                pending.append(State(piece: state.piece + 1, count: 0))
            }
        }
        return result
    }
}
