#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 95% Wilson score interval for a rate: unlike "rate ± 1.96·SE" it stays inside 0...1 and
/// is honest for the small counts a campaign's variant often has.
public struct ConfidenceInterval: Sendable, Equatable {
    public let lower: Double
    public let upper: Double

    /// The normal quantile of a two-sided 95% interval.
    static let z95 = 1.959963984540054

    /// nil when no session applies.
    public init?(wilson ratio: Ratio) {
        guard ratio.denominator > 0 else { return nil }
        let n = Double(ratio.denominator), rate = Double(ratio.numerator) / n
        let z2 = Self.z95 * Self.z95
        let centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
        let half = Self.z95 / (1 + z2 / n) * (rate * (1 - rate) / n + z2 / (4 * n * n)).squareRoot()
        lower = max(0, centre - half)
        upper = min(1, centre + half)
    }

    /// "30.0–90.3%".
    public var percentRange: String { "\(Ratio.tenths(lower))–\(Ratio.tenths(upper))%" }
}

/// Whether two rates differ by more than chance: the two-sided p-value of a two-proportion z-test,
/// or of Fisher's exact test when an expected cell count is under 5 (where the normal
/// approximation is poor).
public struct RateComparison: Sendable, Equatable {
    public enum Test: String, Sendable {
        case twoProportionZ = "two-proportion z-test"
        case fisherExact = "Fisher's exact test"
    }

    public let test: Test
    public let pValue: Double

    /// nil when either side has no session.
    public init?(_ first: Ratio, _ second: Ratio) {
        guard first.denominator > 0, second.denominator > 0 else { return nil }
        let a = first.numerator, b = first.denominator - first.numerator
        let c = second.numerator, d = second.denominator - second.numerator
        let n = Double(a + b + c + d)
        let expected = [
            Double(a + b) * Double(a + c) / n, Double(a + b) * Double(b + d) / n,
            Double(c + d) * Double(a + c) / n, Double(c + d) * Double(b + d) / n,
        ]
        if expected.contains(where: { $0 < 5 }) {
            test = .fisherExact
            pValue = Self.fisher(a, b, c, d)
        } else {
            test = .twoProportionZ
            let n1 = Double(first.denominator), n2 = Double(second.denominator)
            let pooled = Double(a + c) / n
            let standardError = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
            let difference = Double(a) / n1 - Double(c) / n2
            pValue = standardError == 0 ? 1 : min(1, erfc(abs(difference / standardError) / 2.0.squareRoot()))
        }
    }

    public var isSignificant: Bool { Self.isSignificant(pValue) }

    /// "p = 0.41, not significant at 5%".
    public var summary: String { Self.summary(pValue: pValue) }

    static func isSignificant(_ pValue: Double) -> Bool { pValue < 0.05 }

    static func summary(pValue: Double) -> String {
        let p = pValue < 0.001 ? "p < 0.001" : "p = \(rounded(pValue))"
        return p + (isSignificant(pValue) ? ", significant at 5%" : ", not significant at 5%")
    }

    /// Two significant digits, at most three decimals: 0.41, 0.048, 0.0012 -> 0.001.
    static func rounded(_ value: Double) -> String {
        let digits = value >= 0.1 ? 2 : 3
        let scale = digits == 2 ? 100.0 : 1000.0
        let whole = Int((value * scale).rounded())
        let text = String(whole)
        let padded = String(repeating: "0", count: max(0, digits + 1 - text.count)) + text
        return String(padded.dropLast(digits)) + "." + String(padded.suffix(digits))
    }

    /// Two-sided: the probability of every table with the same margins that is no more likely
    /// than the one observed.
    static func fisher(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double {
        let row1 = a + b, row2 = c + d, column1 = a + c, n = a + b + c + d
        func logChoose(_ n: Int, _ k: Int) -> Double {
            lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        }
        func probability(_ x: Int) -> Double {
            exp(logChoose(row1, x) + logChoose(row2, column1 - x) - logChoose(n, column1))
        }
        let observed = probability(a)
        var total = 0.0
        for x in max(0, column1 - row2)...min(row1, column1) {
            let p = probability(x)
            if p <= observed * (1 + 1e-7) { total += p }
        }
        return min(1, total)
    }
}
