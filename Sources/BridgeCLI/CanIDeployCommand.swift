import JSONCore
import BridgeContracts

/// `bridgectl can-i-deploy`: a page's calls against every supported app build, before it ships.
let canIDeployCommand = Command(CommandSpec(
    name: "can-i-deploy",
    summary: "check a page's calls (its usage file) against every supported app build",
    forms: [UsageForm("USAGE.json|-", options: ["contracts", "format", "strict"])],
    about: """
    USAGE.json lists what the page calls, with the versions it can send for each, and the app's
    events it subscribes to (optional), with the versions it reads:
      {"page": "event/new-user-promo", "calls": [{"action": "apply", "versions": [2, 1]}],
       "events": [{"event": "login_state_changed", "versions": [1]}]}
    The fake host writes it from the page's own tests (fakeHost.writeUsage(path)); it can also
    be written by hand. Every supported build of releases.json is checked against every call,
    with the shim's rule: the highest version offered that the build takes is sent; a build that
    has other versions of the action only answers UNSUPPORTED_VERSION; a build without the
    action opens the contract's fallback (the Universal Link), when there is one.

    Prints a matrix of builds and calls: ok, ok (older version N), fallback or BROKEN, with each
    build's share of sessions where releases.json knows it, and the share affected. A supported
    build that sends none of the versions of an event the page reads is a warning naming the
    build, not a refusal: a page must cope with an event that never comes.
    """,
    options: [
        ContractsOption.option, FormatOption.option,
        .flag("strict", help: "a call that would only fall back on a supported build also fails"),
    ],
    footer: """
    exit: 0 the page may ship (event warnings do not stop it); 1 some supported build is BROKEN
          (with --strict: or only falls back); 2 usage error, unreadable usage file, or one
          naming an unknown action, event or version.
    """
), run: { arguments, console in
        let format = arguments.value("format")
        guard arguments.positional.count == 1 else {
            throw UsageError(arguments.positional.isEmpty ? "give the page's usage file (USAGE.json, or - for standard input)"
                                                          : "takes one usage file, got \(arguments.positional.count)")
        }
        let contracts = try ContractsOption.load(arguments)
        guard contracts.releasesText != nil else {
            throw ReleaseError("\(contracts.origin) has no \(ReleaseCatalog.fileName): record the app builds in the field first (bridgectl release record)")
        }
        let catalog = try contracts.releaseCatalog()
        let input = try InputFile.read(arguments.positional[0], maxBytes: 4 * 1024 * 1024, console: console).get()
        let usage = try PageUsage.parse(String(decoding: input.bytes, as: UTF8.self), file: input.name, manifest: contracts.manifest)
        let matrix = DeployMatrix(usage: usage, catalog: catalog, manifest: contracts.manifest)
        let strict = arguments.has("strict")
        console.out(format == "json" ? DeployReport(matrix: matrix, strict: strict).json.prettyPrinted() + "\n"
                                     : DeployReport(matrix: matrix, strict: strict).text)
        return matrix.deployable(strict: strict) ? ExitCode.success : ExitCode.invalid
    }
)

/// The matrix as text or JSON.
struct DeployReport {
    let matrix: DeployMatrix
    let strict: Bool

    private func share(_ rows: [DeployMatrix.Row]) -> String {
        let (percent, unknown) = DeployMatrix.share(of: rows)
        let known = rows.count - unknown
        var parts: [String] = []
        if known > 0 { parts.append("\(ReleaseCatalog.formatShare((percent * 1000).rounded() / 1000))% of sessions") }
        if unknown > 0 { parts.append("\(unknown) build\(unknown == 1 ? "" : "s") of unknown share") }
        return parts.joined(separator: " and ")
    }

    /// "1 build falls", "2 builds fall": a count of builds and a verb agreeing with it.
    private func builds(_ rows: [DeployMatrix.Row], _ verb: String = "") -> String {
        let noun = "\(rows.count) build\(rows.count == 1 ? "" : "s")"
        guard !verb.isEmpty else { return noun }
        return noun + " " + (rows.count == 1 ? verb + "s" : verb)
    }

    var text: String {
        let usage = matrix.usage
        var out = "can-i-deploy \(usage.page): \(usage.calls.count) call\(usage.calls.count == 1 ? "" : "s") against \(matrix.rows.count) supported build\(matrix.rows.count == 1 ? "" : "s")\n"
        if !matrix.rows.isEmpty && !usage.calls.isEmpty {
            var table = TextTable()
            table.add(["build", "share"] + usage.calls.map(\.label))
            for row in matrix.rows {
                table.add([row.release.build.description, row.release.share.map { ReleaseCatalog.formatShare($0) + "%" } ?? "-"]
                          + row.outcomes.map(\.label))
            }
            out += table.text
        }
        for (index, call) in usage.calls.enumerated() {
            for row in matrix.rows {
                if case .broken(let reason) = row.outcomes[index] {
                    out += "BROKEN: \(call.label) on \(row.release.build): the build \(reason)\n"
                }
            }
        }
        for warning in matrix.eventWarnings { out += "warning: \(warning.text)\n" }
        let broken = matrix.brokenRows, fallback = matrix.fallbackRows
        if !broken.isEmpty {
            out += "can-i-deploy: no: \(builds(broken)) broken (\(share(broken))); offer versions they take (bridge.offer) or keep the page back\n"
        } else if strict && !fallback.isEmpty {
            out += "can-i-deploy: no (--strict): \(builds(fallback, "only fall")) back to the Universal Link (\(share(fallback)))\n"
        } else if !fallback.isEmpty {
            out += "can-i-deploy: yes (\(builds(fallback, "fall")) back to the Universal Link: \(share(fallback)))\n"
        } else {
            out += "can-i-deploy: yes\n"
        }
        return out
    }

    var json: JSONValue {
        func shareValue(_ rows: [DeployMatrix.Row]) -> JSONValue {
            let (percent, unknown) = DeployMatrix.share(of: rows)
            return ["builds": .integer(Int64(rows.count)), "share": .number((percent * 1000).rounded() / 1000),
                    "buildsOfUnknownShare": .integer(Int64(unknown))]
        }
        let calls = matrix.usage.calls.map { call -> JSONValue in
            ["action": .string(call.action), "versions": .array(call.versions.map { .integer(Int64($0)) })]
        }
        let rows = matrix.rows.map { row -> JSONValue in
            var object = JSONObject([("platform", .string(row.release.build.platform.rawValue)),
                                     ("version", .string(row.release.build.version.description))])
            if let share = row.release.share { object["share"] = .number(share) }
            object["results"] = .array(zip(matrix.usage.calls, row.outcomes).map { call, outcome -> JSONValue in
                var result = JSONObject([("action", .string(call.action))])
                switch outcome {
                case .ok(let version): result["outcome"] = "ok"; result["sends"] = .integer(Int64(version))
                case .olderVersion(let version): result["outcome"] = "older-version"; result["sends"] = .integer(Int64(version))
                case .fallback: result["outcome"] = "fallback"
                case .broken(let reason): result["outcome"] = "broken"; result["reason"] = .string("the build " + reason)
                }
                return .object(result)
            })
            return .object(object)
        }
        return .object(JSONObject([
            ("page", .string(matrix.usage.page)),
            ("deployable", .bool(matrix.deployable(strict: strict))),
            ("strict", .bool(strict)),
            ("calls", .array(calls)),
            ("builds", .array(rows)),
            ("broken", shareValue(matrix.brokenRows)),
            ("fallbackOnly", shareValue(matrix.fallbackRows)),
            ("eventWarnings", .array(matrix.eventWarnings.map(Self.json))),
        ]))
    }

    private static func json(_ warning: DeployMatrix.EventWarning) -> JSONValue {
        let numbers = { (versions: [Int]) in JSONValue.array(versions.map { .integer(Int64($0)) }) }
        return .object(JSONObject([("platform", .string(warning.build.platform.rawValue)),
                                   ("version", .string(warning.build.version.description)),
                                   ("event", .string(warning.subscription.event)),
                                   ("versions", numbers(warning.subscription.versions)),
                                   ("sends", numbers(warning.sent)),
                                   ("message", .string(warning.text))]))
    }
}
