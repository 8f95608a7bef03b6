@testable import FunnelMetrics
import Testing

/// The words under a variant comparison at its two thresholds: significance below 5%, and
/// "p < 0.001" below a thousandth, each tried just under, at and just over.
struct RateComparisonSummaryTests {
    @Test(arguments: [(0.0499, true), (0.05, false), (0.0501, false)])
    func significanceIsAPValueBelowFivePercent(pValue: Double, significant: Bool) {
        #expect(RateComparison.isSignificant(pValue) == significant)
        #expect(RateComparison.summary(pValue: pValue).hasSuffix(significant ? ", significant at 5%" : ", not significant at 5%"))
    }

    @Test(arguments: [(0.0009, "p < 0.001"), (0.001, "p = 0.001"), (0.0011, "p = 0.001"), (0.0016, "p = 0.002")])
    func aPValueBelowAThousandthIsShownAsSuch(pValue: Double, shown: String) {
        #expect(RateComparison.summary(pValue: pValue) == shown + ", significant at 5%")
    }

    @Test(arguments: [(0.41, "0.41"), (0.1, "0.10"), (0.099, "0.099"), (0.048, "0.048"), (1.0, "1.00")])
    func pValuesHaveTwoSignificantDigitsAndAtMostThreeDecimals(pValue: Double, shown: String) {
        #expect(RateComparison.rounded(pValue) == shown)
    }
}
