import Testing
@testable import FunnelMetrics

/// The day a visit is counted in: seconds since 1970 to the proleptic Gregorian date in UTC,
/// across leap days, century years, the epoch's edge and the years outside four digits.
@Suite struct UTCDayTests {
    @Test(arguments: [
        (0.0, "1970-01-01"), (86_399.999, "1970-01-01"), (86_400, "1970-01-02"), (-0.001, "1969-12-31"), (-86_400, "1969-12-31"),
        (951_782_400, "2000-02-29"), (951_782_400 + 86_400, "2000-03-01"),
        (-2_203_977_600, "1900-02-28"), (-2_203_891_200, "1900-03-01"),
        (4_107_542_400, "2100-03-01"), (4_107_542_400 - 86_400, "2100-02-28"),
        (-11_670_998_400, "1600-02-29"), (1_764_547_200, "2025-12-01"),
        (-30_610_224_000, "1000-01-01"), (-30_610_310_400, "999-12-31"),
        (253_402_214_400, "9999-12-31"), (253_402_300_800, "10000-01-01"),
    ] as [(Double, String)])
    func secondsGiveTheUTCDay(seconds: Double, day: String) {
        #expect(UTCDay(seconds: seconds).text == day, "\(seconds)")
    }
}
