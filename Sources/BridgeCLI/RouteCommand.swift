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
    forms: [UsageForm("URL", options: ["source", "contracts", "format"]), UsageForm("", options: ["push", "contracts", "format"], required: ["push"])],
    about: """
    Parses a Universal Link (https on the manifest's universalLinkHosts), a custom-scheme link
    (myapp://event/...) or, with --push, the link of a push payload (the manifest's pushURLKey;
    PAYLOAD "-" reads standard input), and prints the configuration, its parameters, the query,
    the campaign metadata, requiresAuth and warnings (e.g. a value that was encoded twice).

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
        ContractsOption.option, FormatOption.option,
    ],
    footer: """
    exit: 0 routed; 1 does not route (the error and the https fallback URL, if any, are printed);
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
        if let payloadPath = arguments.value("push") {
            let payload = try readPayload(payloadPath)
            input = payloadPath == "-" ? "push payload (stdin)" : payloadPath
            result = Result { () throws(DeeplinkError) in try handler.parse(pushPayload: payload) }
        } else {
            input = arguments.positional[0]
            result = Result { () throws(DeeplinkError) in try handler.parse(input, source: source) }
        }

        switch result {
        case .success(let parsed):
            console.out(format == "json" ? RouteReport.json(parsed).prettyPrinted() + "\n" : RouteReport.text(parsed))
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
    static func text(_ parsed: ParsedDeeplink) -> String {
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
        lines.append("warnings:" + (parsed.warnings.isEmpty ? " none" : ""))
        for warning in parsed.warnings { lines.append("  \(warning.field): \(warning.message)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ parsed: ParsedDeeplink) -> JSONValue {
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
            ("warnings", .array(parsed.warnings.map { .object(JSONObject([("field", .string($0.field)), ("message", .string($0.message))])) })),
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
