import BridgeContracts
import DeeplinkRouting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import SchemaCheck

/// `bridgectl route`: what the app would do with a link, without a device.
let routeCommand = Command(CommandSpec(
    name: "route",
    summary: "show which deep link configuration a URL or push payload routes to",
    forms: [UsageForm("URL", options: ["source", "strict", "contracts", "format"]),
            UsageForm("", options: ["push", "strict", "contracts", "format"], required: ["push"])],
    about: """
    Parses a Universal Link (https on the manifest's universalLinkHosts), a custom-scheme link
    (myapp://event/...) or, with --push, the link of a push payload (the manifest's pushURLKey;
    PAYLOAD "-" reads standard input), and prints the configuration, its parameters, the query,
    the campaign metadata, requiresAuth and warnings (e.g. a value that was encoded twice).

    Pre-send checks, each a warning: a campaign field is given an empty value (campaign_id=,
    or a field whose campaign rule needs a value), the route is not enabled from the link's
    channel (routes.json enabledFrom; the channel is --source, push for --push, else inferred as
    below), the link is over 2,000 characters once encoded, the push payload is over 4,096 bytes
    as compact JSON (the APNs and FCM limit). With --strict these, and every value the app drops,
    are failures.

    The URL is read as raw text: the encoded path is split on "/" before decoding, "+" is a plus,
    raw Korean is taken as its UTF-8. Quote the URL in the shell (it contains "&").
    """,
    options: [
        .value("source", "CHANNEL", help: """
            the entry channel (push, externalURL, appInternal or a channel routes.json
            declares); otherwise inferred: the first declared channel whose utm_source or
            utm_medium matches, appInternal for the custom scheme, else externalURL
            """),
        .value("push", "PAYLOAD.json", help: "route the link inside a push payload JSON file (source push)"),
        .flag("strict", help: "exit 1 when the app would drop part of the link, refuse it from its channel, a campaign field is empty, or the link or payload is too long"),
        ContractsOption.option, FormatOption.option,
    ],
    footer: """
    exit: 0 routed (warnings, if any, are listed); 1 does not route (the error and the https
          fallback URL, if any, are printed), or with --strict routes but loses part of the link;
          2 usage error, unreadable contracts or payload.
    """
), run: { arguments, console in try RouteCommandRunner(console: console).run(arguments) })

private struct RouteCommandRunner {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        let format = arguments.value("format")
        // Checked once the contracts are loaded: their routes.json declares more channels.
        let sourceName = arguments.value("source")
        let expected = arguments.value("push") == nil ? 1 : 0
        if arguments.positional.count != expected {
            throw UsageError(expected == 1 ? "expected one URL (see bridgectl route --help)" : "--push takes the payload file; give no URL with it")
        }
        if arguments.value("push") != nil && sourceName != nil {
            throw UsageError("--source cannot be combined with --push (a push is source push)")
        }
        let handler = try RoutingContracts.handler(arguments).get()
        let source = try sourceName.map { name throws(UsageError) in try handler.channels.sourceOption(name) }

        let input: String
        let result: Result<ParsedDeeplink, DeeplinkError>
        // The size checks: the payload as compact JSON, or the link as typed.
        let sizeWarning: DeeplinkWarning?
        let emptyFields: [(field: String, name: String)]
        if let payloadPath = arguments.value("push") {
            let payload = try readPayload(payloadPath)
            input = payloadPath == "-" ? "push payload (stdin)" : payloadPath
            result = Result { () throws(DeeplinkError) in try handler.parse(pushPayload: payload) }
            sizeWarning = PreSendChecks.pushPayloadWarning(bytes: payload.serialized().utf8.count)
            emptyFields = handler.emptyCampaignFields(inPushPayload: payload)
        } else {
            input = arguments.positional[0]
            result = Result { () throws(DeeplinkError) in try handler.parse(input, source: source) }
            sizeWarning = PreSendChecks.urlLengthWarning(LinkText.trimmed(input).text)
            emptyFields = handler.emptyCampaignFields(in: input)
        }

        switch result {
        case .success(let parsed):
            // The app opens the link from the channel of its campaign source (the navigator's default).
            let channel = EntryChannel(parsed.campaignMetadata.source)
            let checks = PreSendChecks.emptyCampaignWarnings(emptyFields, campaign: parsed.campaignMetadata, rules: handler.campaignRules)
                + [PreSendChecks.channelWarning(route: parsed.configuration, channel: channel), sizeWarning].compactMap { $0 }
            let warnings = parsed.warnings + checks
            console.out(format == "json" ? RouteReport.json(parsed, warnings: warnings).prettyPrinted() + "\n"
                                         : RouteReport.text(parsed, warnings: warnings))
            let losses = warnings.filter(\.losesPart).count
            if arguments.has("strict") && losses > 0 {
                console.err("bridgectl route: \(input): --strict: \(losses) \(losses == 1 ? "warning loses" : "warnings lose") part of the link\n")
                return ExitCode.invalid
            }
            return ExitCode.success
        case .failure(let error):
            if format == "json" {
                console.out(RouteReport.json(error, input: input).prettyPrinted() + "\n")
            } else {
                var text = "bridgectl route: \(input): \(error)\n"
                if let fallback = error.fallbackURL { text += "fallback: \(fallback)\n" }
                console.err(text)
            }
            return ExitCode.invalid
        }
    }

    private func readPayload(_ path: String) throws(UsageError) -> JSONValue {
        let data: Data
        switch InputFile.read(path, maxBytes: 1 << 20, console: console) {
        case .failure(let error): throw UsageError("push payload \(error.line)")
        case .success(let input): data = input.bytes
        }
        do {
            // Parsed like a bridge message: duplicate keys and invalid UTF-8 are refused.
            return try JSONDocument(data, limits: .bridgeMessage).value
        } catch {
            throw UsageError("push payload \(path) is not valid JSON: \(error)")
        }
    }
}

/// Why the contracts a routing command needs could not be used.
struct RoutingContractsError: Error, CustomStringConvertible {
    let description: String
}

/// The contracts a routing command works on (`--contracts DIR` or the bundled set), as a handler.
enum RoutingContracts {
    static func handler(_ arguments: Arguments) -> Result<DeeplinkHandler, RoutingContractsError> {
        let contracts: ContractSet
        do {
            contracts = try ContractsOption.load(arguments)
        } catch {
            return .failure(RoutingContractsError(description: "\(error)"))
        }
        do {
            return .success(try DeeplinkHandler(contracts: contracts))
        } catch {
            return .failure(RoutingContractsError(description: "\(contracts.origin): \(error)"))
        }
    }
}

/// How a routing result is printed. Values are shown as JSON strings in text output too, so a
/// space, a "+" or a stray "%" is visible and nothing is ambiguous.
enum RouteReport {
    /// `warnings`: the link's own and those of the pre-send checks.
    static func text(_ parsed: ParsedDeeplink, warnings: [DeeplinkWarning]) -> String {
        let route = parsed.configuration
        var lines = [
            "route: \(route.name) (\(route.pattern))",
            "requiresAuth: \(route.requiresAuth)",
            "url: \(parsed.url)",
        ]
        lines.append("path parameters:" + (parsed.pathParameters.isEmpty ? " none" : ""))
        for name in route.parameterNames {
            if let value = parsed.pathParameters[name] { lines.append("  \(name) = \(quoted(value))") }
        }
        lines.append("query:" + (parsed.queryParameters.isEmpty ? " none" : ""))
        for name in parsed.queryOrder {
            for value in parsed.queryParameters[name] ?? [] { lines.append("  \(name) = \(quoted(value))") }
        }
        lines.append("campaign:")
        for (name, value) in parsed.campaignMetadata.queryItems { lines.append("  \(name) = \(quoted(value))") }
        lines.append("  source = \(parsed.campaignMetadata.source.rawValue)")
        lines.append("warnings:" + (warnings.isEmpty ? " none" : ""))
        for warning in warnings { lines.append("  \(warning.field): \(warning.message)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ parsed: ParsedDeeplink, warnings: [DeeplinkWarning]) -> JSONValue {
        let route = parsed.configuration
        var query = JSONObject()
        for name in parsed.queryOrder {
            query[name] = .array((parsed.queryParameters[name] ?? []).map(JSONValue.string))
        }
        var parameters = JSONObject()
        for name in route.parameterNames {
            if let value = parsed.pathParameters[name] { parameters[name] = .string(value) }
        }
        return .object(JSONObject([
            ("routed", true),
            ("route", .string(route.name)),
            ("pattern", .string(route.pattern)),
            ("requiresAuth", .bool(route.requiresAuth)),
            ("tab", .string(route.tab)),
            ("screen", .string(route.screen)),
            ("url", .string(parsed.url)),
            ("pathParameters", .object(parameters)),
            ("query", .object(query)),
            ("campaign", parsed.campaignMetadata.json),
            ("warnings", .array(warnings.map {
                .object(JSONObject([("field", .string($0.field)), ("message", .string($0.message)), ("losesPart", .bool($0.losesPart))]))
            })),
        ]))
    }

    static func json(_ error: DeeplinkError, input: String) -> JSONValue {
        .object(JSONObject([
            ("routed", false),
            ("input", .string(input)),
            ("error", .string(kind(error))),
            ("message", .string(error.description)),
            ("fallbackURL", error.fallbackURL.map(JSONValue.string) ?? .null),
        ]))
    }

    static func kind(_ error: DeeplinkError) -> String {
        switch error {
        case .wrongScheme: return "wrongScheme"
        case .unknownHost: return "unknownHost"
        case .noMatchingRoute: return "noMatchingRoute"
        case .badParameter: return "badParameter"
        case .badEncoding: return "badEncoding"
        case .invalidPushPayload: return "invalidPushPayload"
        case .malformedURL: return "malformedURL"
        case .invalidDestination: return "invalidDestination"
        }
    }

    static func quoted(_ value: String) -> String {
        JSONValue.string(value).serialized()
    }
}
