import BridgeContracts
import BridgeHostTesting
import DeeplinkNavigation

/// The options that make the mock app slow or broken, shared by `simulate` and `host --stdio`:
/// how long the tab switch and the detail fetch take, which detail fetches fail or find nothing,
/// and the navigator's step timeout.
struct StepOptions {
    static let options: [OptionSpec] = [
        .value("detail-latency", "MS|hold", help: "the detail fetch takes MS milliseconds (hold: until a complete line)"),
        .value("tab-latency", "MS|hold", help: "the tab switch takes MS milliseconds (hold: until a complete line)"),
        .repeatable("fail-detail", "ROUTE", help: "the detail fetch of ROUTE fails (repeat, or ROUTE,ROUTE)"),
        .repeatable("missing-detail", "ROUTE", help: "the detail of ROUTE resolves to nothing (repeat, or ROUTE,ROUTE)"),
        .value("step-timeout", "MS", help: "the navigator gives up on a step after MS milliseconds", default: "10000"),
        .repeatable("installed", "SCHEMES", help: "apps installed on the device, by URL scheme (mapsapp,otherapp); default none"),
        .value("deferred-window", "MS", help: "a deferred deep link this long after launch is offered, not navigated", default: "10000"),
        .value("offer-lifetime", "MS", help: "an offer nobody takes expires after MS milliseconds", default: "60000"),
    ]

    var latencies: [NavigationStep: Int] = [:]
    var held: Set<NavigationStep> = []
    var detailOutcomes: [String: MockStepResult] = [:]
    var stepTimeoutMs = 10_000
    var installed: Set<String> = []
    var deferredWindowMs = 10_000
    var offerLifetimeMs = 60_000

    init(_ arguments: Arguments, contracts: ContractSet, allowHold: Bool) throws(UsageError) {
        for (option, step) in [("tab-latency", NavigationStep.selectTab), ("detail-latency", .resolveDetail)] {
            guard let text = arguments.value(option) else { continue }
            if text == "hold" {
                guard allowHold else { throw UsageError("--\(option) hold needs complete lines (bridgectl host --stdio); give milliseconds") }
                held.insert(step)
            } else {
                latencies[step] = try Self.milliseconds(text, option: option, range: 0...600_000)
            }
        }
        if let text = arguments.value("step-timeout") {
            stepTimeoutMs = try Self.milliseconds(text, option: "step-timeout", range: 1...600_000)
        }
        if let text = arguments.value("deferred-window") {
            deferredWindowMs = try Self.milliseconds(text, option: "deferred-window", range: 0...3_600_000)
        }
        if let text = arguments.value("offer-lifetime") {
            offerLifetimeMs = try Self.milliseconds(text, option: "offer-lifetime", range: 1...3_600_000)
        }
        for scheme in arguments.all("installed").flatMap({ $0.split(separator: ",").map { String($0).lowercased() } }) {
            guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }) else {
                throw UsageError("--installed takes URL schemes such as mapsapp,otherapp, not \"\(scheme)\"")
            }
            installed.insert(scheme)
        }
        let known = contracts.routes.map(\.name)
        for (option, outcome) in [("fail-detail", MockStepResult.fail("the detail fetch failed (--fail-detail)")),
                                  ("missing-detail", .notFound)] {
            for route in arguments.all(option).flatMap({ $0.split(separator: ",").map(String.init) }) {
                guard known.contains(route) else {
                    throw UsageError("--\(option): no route \"\(route)\" in routes.json (routes: \(known.joined(separator: ", ")))")
                }
                detailOutcomes[route] = outcome
            }
        }
    }

    private static func milliseconds(_ text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(option) must be milliseconds from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    @MainActor
    func apply(to host: MockBridgeHost) {
        host.stepLatencyMs = latencies
        host.heldSteps = held
        host.detailOutcomes = detailOutcomes
        host.installedApps = installed
    }
}
