// RouteBench: shows that route matching cost does not grow with the number of routes
// (bench/run.sh prints it; not part of `make test`: timings belong on a quiet machine, not in CI).
//
//   RouteBench [--lookups N] [--rounds N]
//
// Builds route tables of 10 and 10,000 generated routes of the same shapes (literal sections,
// parameters, literal-vs-parameter neighbours that need backtracking), then times
// RouteTable.match over the same number of lookups in each (hits spread over the table and
// misses), best of --rounds rounds, and prints:
//   routes=10: X ns/match
//   routes=10000: Y ns/match
//   ratio: Y/X
// and the same for a full DeeplinkHandler.parse of a Universal Link. Target: ratio < 2.
// Times are the thread's CPU time (other processes on a busy machine do not count), the
// fastest of the rounds; the wall-clock figures follow for comparison.
// Build with -c release for meaningful numbers. Exit 0, or 2 for a usage error.
import DeeplinkRouting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line on standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ message: String) {
    let line = Array("RouteBench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(2)
}

/// `--name N` or `--name=N`, a positive integer.
func options(_ argv: [String]) -> (lookups: Int, rounds: Int) {
    var values = ["lookups": 200_000, "rounds": 5]
    var index = 0
    while index < argv.count {
        var word = argv[index]
        var value: String?
        if let equals = word.firstIndex(of: "=") {
            value = String(word[word.index(after: equals)...])
            word = String(word[..<equals])
        }
        let name = String(word.dropFirst(2))
        guard word.hasPrefix("--"), values[name] != nil else { fail("unknown argument \(argv[index]) (usage: RouteBench [--lookups N] [--rounds N])") }
        if value == nil {
            index += 1
            guard index < argv.count else { fail("\(word) needs a value") }
            value = argv[index]
        }
        guard let number = Int(value!), number > 0 else { fail("\(word) must be a positive integer, not \"\(value!)\"") }
        values[name] = number
        index += 1
    }
    return (values["lookups"]!, values["rounds"]!)
}

let (lookups, rounds) = options(Array(CommandLine.arguments.dropFirst()))
do {
    let small = try RouteBenchmark(routeCount: 10)
    let large = try RouteBenchmark(routeCount: 10_000)
    let parseLookups = max(1, lookups / 10)
    let smallMatch = small.timeMatches(lookups: lookups, rounds: rounds)
    let largeMatch = large.timeMatches(lookups: lookups, rounds: rounds)
    let smallParse = small.timeParses(lookups: parseLookups, rounds: rounds)
    let largeParse = large.timeParses(lookups: parseLookups, rounds: rounds)
    let f = { (value: Double) in RouteBenchmark.format(value) }
    print("""
    routes=10: \(f(smallMatch.cpu)) ns/match
    routes=10000: \(f(largeMatch.cpu)) ns/match
    ratio: \(RouteBenchmark.format(largeMatch.cpu / smallMatch.cpu, digits: 2))
    parse routes=10: \(f(smallParse.cpu)) ns/parse
    parse routes=10000: \(f(largeParse.cpu)) ns/parse
    parse ratio: \(RouteBenchmark.format(largeParse.cpu / smallParse.cpu, digits: 2))
    wall clock: match \(f(smallMatch.wall)) / \(f(largeMatch.wall)) ns, parse \(f(smallParse.wall)) / \(f(largeParse.wall)) ns (10 / 10000 routes)
    """)
} catch {
    printError("\(error)")
    exit(1)
}

struct RouteBenchmark {
    let table: RouteTable
    let handler: DeeplinkHandler
    /// Decoded segment lists to match: the same count and shapes for every table size.
    let paths: [[String]]
    let urls: [String]

    /// Routes come in groups of five over one section name, so both tables have every shape:
    /// /sNNNNN, /sNNNNN/:id, /sNNNNN/latest, /sNNNNN/:id/detail, /sNNNNN/latest/:page/x
    /// ("/sNNNNN/latest/detail" must backtrack from the literal "latest" into ":id").
    init(routeCount: Int) throws(RouteTableError) {
        var routes: [RouteDefinition] = []
        let sections = routeCount / 5
        for section in 0..<sections {
            let base = "/s" + Self.padded(section)
            for (suffix, pattern) in ["", "/:id", "/latest", "/:id/detail", "/latest/:page/x"].enumerated() {
                let parameters: [String: ParameterType] = pattern.contains(":page") ? ["page": .string] : pattern.contains(":id") ? ["id": .string] : [:]
                routes.append(RouteDefinition(
                    name: "r\(section)_\(suffix)", pattern: base + pattern, requiresAuth: false,
                    parameters: parameters, tab: "home", screen: "bench"))
            }
        }
        table = try RouteTable(routes: routes)
        handler = DeeplinkHandler(routes: table, universalLinkHosts: ["www.example.com"], customScheme: "myapp", webBaseURL: "https://www.example.com")

        // 64 lookups spread over the whole table: hits of each shape, backtracking hits, misses.
        var paths: [[String]] = []
        for index in 0..<64 {
            let section = "s" + Self.padded((index * 7_919) % sections)
            switch index % 6 {
            case 0: paths.append([section])
            case 1: paths.append([section, "order-\(index)"])
            case 2: paths.append([section, "latest"])
            case 3: paths.append([section, "latest", "detail"])
            case 4: paths.append([section, "latest", "7", "x"])
            default: paths.append([section, "missing", "path", "here"])
            }
        }
        self.paths = paths
        urls = paths.map { "https://www.example.com/" + $0.joined(separator: "/") + "?campaign_id=c&utm_source=newsletter" }
    }

    struct Timing {
        /// Thread CPU nanoseconds per operation, fastest round.
        var cpu: Double
        /// Wall-clock nanoseconds per operation, fastest round.
        var wall: Double
    }

    func timeMatches(lookups: Int, rounds: Int) -> Timing {
        best(rounds: rounds, operations: lookups) {
            var matched = 0
            for index in 0..<lookups where table.match(path: paths[index & 63]) != nil { matched += 1 }
            return matched
        }
    }

    func timeParses(lookups: Int, rounds: Int) -> Timing {
        best(rounds: rounds, operations: lookups) {
            var matched = 0
            for index in 0..<lookups where (try? handler.parse(urls[index & 63])) != nil { matched += 1 }
            return matched
        }
    }

    /// The fastest round: the one least disturbed by other work on the machine.
    private func best(rounds: Int, operations: Int, _ body: () -> Int) -> Timing {
        let clock = ContinuousClock()
        var timing = Timing(cpu: .infinity, wall: .infinity)
        var checksum = 0
        for _ in 0..<rounds {
            let cpuStart = Self.threadCPUNanoseconds()
            let elapsed = clock.measure { checksum &+= body() }
            let cpu = Self.threadCPUNanoseconds() - cpuStart
            let wall = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            timing.cpu = min(timing.cpu, cpu / Double(operations))
            timing.wall = min(timing.wall, wall / Double(operations))
        }
        // Using the result keeps the optimiser from removing the loop.
        precondition(checksum > 0, "no lookup matched")
        return timing
    }

    static func threadCPUNanoseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
    }

    static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    static func format(_ value: Double, digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return String(rounded)
    }
}
