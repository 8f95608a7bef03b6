import BridgeCLI
import Foundation
import Testing
import TestSupport

/// The mock app's timing options of `simulate` and `host --stdio`, each a range of milliseconds
/// tried at both ends: one under, the end, and one past.
@Suite("simulate's timing options: each range at its ends") @MainActor
struct StepOptionsCLITests {
    nonisolated static let contracts = RepositoryPaths.contracts.path
    nonisolated static let fixture = contracts + "/fixtures/apply/v1/valid-basic.json"

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    nonisolated static let ranges: [(option: String, low: Int, high: Int)] = [
        ("detail-latency", 0, 600_000), ("tab-latency", 0, 600_000), ("step-timeout", 1, 600_000),
        ("deferred-window", 0, 3_600_000), ("offer-lifetime", 1, 3_600_000),
    ]

    @Test(arguments: ranges)
    func eachRangeIsTakenAtItsEndsAndRefusedPastThem(option: String, low: Int, high: Int) {
        for value in [low, low + 1, high - 1, high] {
            let taken = run(["simulate", Self.fixture, "--contracts", Self.contracts, "--" + option, String(value)])
            #expect(taken.code == 0, "--\(option) \(value): \(taken.err)")
        }
        for value in [String(low - 1), String(high + 1), "10ms", ""] {
            let refused = run(["simulate", Self.fixture, "--contracts", Self.contracts, "--" + option, value])
            #expect(refused.code == 2, "--\(option) \(value)")
            #expect(refused.err.contains("--\(option) must be milliseconds from \(low) to \(high), not \"\(value)\""), "\(refused.err)")
        }
    }

    @Test func holdIsForCompleteLinesOnly() {
        let held = run(["simulate", Self.fixture, "--contracts", Self.contracts, "--detail-latency", "hold"])
        #expect(held.code == 2)
        #expect(held.err.contains("--detail-latency hold needs complete lines (bridgectl host --stdio); give milliseconds"), "\(held.err)")
    }
}
