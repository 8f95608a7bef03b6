import BridgeContracts
import DeeplinkRouting

/// `bridgectl link`: campaign URLs for operations, encoded once and right the first time.
let linkCommand = Command(CommandSpec(
    name: "link",
    summary: "build a Universal Link or custom-scheme URL for a route (link build, link routes)",
    forms: [],
    about: """
    build   prints the link for ROUTE. Give raw values, never encoded ones: every value is
            percent-encoded exactly once (space %20, + %2B, & %26, = %3D, / %2F, Korean as
            UTF-8), so `bridgectl route` reads back exactly what was given. NAME=VALUE splits
            on the first "=" only. The query is written in the route's declared order, then
            campaign_id, group_id, variant, utm_source, utm_medium, utm_campaign, utm_term,
            utm_content (other utm_* after, by name). --utm takes "source=newsletter" or
            "utm_source=newsletter". --query may repeat a name for repeated values.
            --scheme https (default) is the Universal Link on the manifest's webBaseURL;
            custom (or the scheme's own name, e.g. myapp) gives myapp://event/...
            Campaign values must follow the contract's campaign rules (campaign.v1.json; see
            docs/contracts.md); a value that breaks them is refused, naming the field and rule.
            Values are tidied first, each with a warning on standard error: surrounding
            whitespace removed, decomposed Unicode (NFD) composed (NFC). A value with a control
            character, or one that already looks percent-encoded (%EC%B9%B4), is warned about.
            Pre-send checks, each a warning: the route is not enabled from the link's channel
            (routes.json enabledFrom; --source, else the first declared channel its utm_source
            or utm_medium matches, else externalURL, or appInternal for the custom scheme), and
            the link is over 2,000 characters. --strict makes these failures: no link is printed.
    routes  lists the routes with their parameters and query fields.
    """,
    options: [],
    footer: """
    exit: 0 printed (warnings, if any, on standard error); 1 a value does not have its declared
          type, breaks the campaign rules, or (with --strict) looks encoded already, would be
          refused from its channel or is too long; 2 usage
          error, unknown route, parameter or query field (the valid ones are listed),
          unreadable contracts.
    """
), subcommands: [linkBuildCommand, linkRoutesCommand])

let linkBuildCommand = Command(CommandSpec(
    name: "link build",
    summary: "print the link for a route",
    forms: [UsageForm("ROUTE", options: ["param", "query", "campaign-id", "group-id", "variant", "utm", "scheme", "source", "strict",
                                       "contracts"])],
    about: "Prints the link for ROUTE, every value percent-encoded exactly once (bridgectl link --help says how).",
    options: [
        .repeatable("param", "NAME=VALUE", help: "a path parameter of the route"),
        .repeatable("query", "NAME=VALUE", help: "a query field of the route (repeat a name for repeated values)"),
        .value("campaign-id", "ID", help: "campaign_id"),
        .value("group-id", "ID", help: "group_id"),
        .value("variant", "V", help: "variant"),
        .repeatable("utm", "NAME=VALUE", help: "a utm_* field: source=newsletter or utm_source=newsletter"),
        .value("scheme", "https|custom|SCHEME", help: "https: the Universal Link; custom or the scheme's name: SCHEME://...",
               default: "https"),
        .value("source", "CHANNEL", help: """
            the channel the link is sent through (push, externalURL, appInternal or a channel
            routes.json declares), as route --source; otherwise inferred from the utm fields and the scheme
            """),
        .flag("strict", help: "refuse a value that already looks percent-encoded, a channel that refuses the route, or a link too long"),
        ContractsOption.option,
    ]
), run: { arguments, console in try LinkCommandRunner(console: console).build(arguments) })

let linkRoutesCommand = Command(CommandSpec(
    name: "link routes",
    summary: "list the routes",
    forms: [UsageForm("", options: ["contracts"])],
    about: "Lists the routes with their parameters and query fields.",
    options: [ContractsOption.option]
), run: { arguments, console in try LinkCommandRunner(console: console).routes(arguments) })

private struct LinkCommandRunner {
    let console: Console

    func build(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positional.count == 1 else {
            throw UsageError("expected one ROUTE name (see bridgectl link --help)")
        }
        let handler = try RoutingContracts.handler(arguments).get()
        // Checked before the link is built, like any other option.
        let source = try arguments.value("source").map { name throws(UsageError) in try handler.channels.sourceOption(name) }
        var parameters: [String: String] = [:]
        var query: [String: [String]] = [:]
        var utm: [String: String] = [:]
        let scheme: DeeplinkURLBuilder.Scheme
        for item in arguments.all("param") {
            let (name, value) = try Self.pair(item, option: "param")
            guard parameters.updateValue(value, forKey: name) == nil else { throw UsageError("--param \(name) given twice") }
        }
        for item in arguments.all("query") {
            let (name, value) = try Self.pair(item, option: "query")
            if CampaignMetadata.isCampaignKey(name) {
                throw UsageError("--query \(name): campaign fields have their own options (--campaign-id, --group-id, --variant, --utm NAME=VALUE)")
            }
            query[name, default: []].append(value)
        }
        for item in arguments.all("utm") {
            let (given, value) = try Self.pair(item, option: "utm")
            let name = given.hasPrefix("utm_") ? given : "utm_" + given
            guard utm.updateValue(value, forKey: name) == nil else { throw UsageError("--utm \(name) given twice") }
        }
        switch arguments.value("scheme") ?? "https" {
        case "https": scheme = .https
        case "custom", handler.customScheme: scheme = .custom
        case let other: throw UsageError("--scheme must be https, custom or \(handler.customScheme), not \"\(other)\"")
        }

        let campaign = CampaignMetadata(
            campaignId: arguments.value("campaign-id"), groupId: arguments.value("group-id"),
            variant: arguments.value("variant"), utm: utm, source: .externalURL)
        let built: DeeplinkURLBuilder.BuiltLink
        do {
            built = try handler.urlBuilder.link(
                route: arguments.positional[0], parameters: parameters, query: query,
                campaign: campaign.isEmpty ? nil : campaign, scheme: scheme, strict: arguments.has("strict"))
        } catch {
            switch error {
            case .badValue, .campaignRule, .alreadyEncoded: throw CommandFailure("\(error)", exitCode: ExitCode.invalid)
            default: throw error
            }
        }
        let channel = source.map(EntryChannel.init)
            ?? PreSendChecks.inferredChannel(utm: utm, customScheme: scheme == .custom, channels: handler.channels)
        let checks = [
            handler.routes.route(named: arguments.positional[0]).flatMap { PreSendChecks.channelWarning(route: $0, channel: channel) },
            PreSendChecks.urlLengthWarning(built.url),
        ].compactMap { $0 }
        if arguments.has("strict"), let refusal = checks.first {
            for warning in built.warnings { console.err("bridgectl link build: warning: \(warning)\n") }
            throw CommandFailure("\(refusal)", exitCode: ExitCode.invalid)
        }
        console.out(built.url + "\n")
        for warning in built.warnings + checks { console.err("bridgectl link build: warning: \(warning)\n") }
        return ExitCode.success
    }

    func routes(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError("link routes takes no arguments") }
        let handler = try RoutingContracts.handler(arguments).get()
        var text = ""
        for route in handler.routes.routes {
            text += "\(route.name)  \(route.pattern)\(route.requiresAuth ? "  (login)" : "")\n"
            for name in route.parameterNames {
                text += "  --param \(name)=<\((route.parameters[name] ?? .string).rawValue)>\n"
            }
            for field in route.query {
                text += "  --query \(field.name)=<\(field.type.rawValue)>\n"
            }
        }
        console.out(text)
        return ExitCode.success
    }

    /// NAME=VALUE split on the first "=" (the value may contain more).
    static func pair(_ item: String, option: String) throws(UsageError) -> (String, String) {
        guard let (name, value) = Arguments.splitAtFirstEquals(item) else {
            throw UsageError("--\(option) takes NAME=VALUE, not \"\(item)\"")
        }
        guard !name.isEmpty else { throw UsageError("--\(option) \"\(item)\" has no name before \"=\"") }
        return (name, value)
    }
}
