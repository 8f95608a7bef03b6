import SchemaCheck
import JSONCore
import BridgeContracts
import DeeplinkRouting

/// One contract set, compiled, answering for a message or a link what the app would: the
/// message is read under the manifest's limits, checked by the compiled contracts (envelope,
/// action, version, payload), and mapped by its action version's JSON Pointers to a route that
/// `DeeplinkHandler` builds; a link is parsed by `DeeplinkHandler`.
final class ContractSide {
    let contracts: ContractSet
    let compiled: CompiledContracts
    let handler: DeeplinkHandler
    let normalizer: SchemaNormalizer

    init(contracts: ContractSet) throws(ContractError) {
        self.contracts = contracts
        compiled = try CompiledContracts(contracts: contracts)
        do {
            handler = try DeeplinkHandler(contracts: contracts)
        } catch {
            throw ContractError(file: "routes.json", message: "\(error)")
        }
        normalizer = SchemaNormalizer(documents: SchemaDocuments(contracts: contracts))
    }

    /// The resolved schema of a file of schemas/.
    func normalized(file: String) -> NormalSchema? {
        normalizer.normalize(uri: contracts.schemaURI(file: file))
    }

    struct MessageVerdict {
        let accepted: Bool
        let code: String?
        let errors: [Counterexample.ErrorLocation]
        /// One line: "INVALID_PARAMS /payload/plan (enum)".
        let summary: String
        /// Where an accepted message navigates.
        let url: String?
        let route: String?

        var counterexampleVerdict: Counterexample.Verdict {
            Counterexample.Verdict(accepted: accepted, code: code, errors: errors)
        }
    }

    func verdict(_ message: JSONValue, origin: String? = nil) -> MessageVerdict {
        let text = message.serialized()
        let limits = contracts.manifest.limits
        if text.utf8.count > limits.maxMessageBytes {
            return reject("INVALID_MESSAGE", [], "INVALID_MESSAGE: \(text.utf8.count) bytes is over maxMessageBytes \(limits.maxMessageBytes)")
        }
        var parseLimits = ParseLimits.bridgeMessage
        parseLimits.maxBytes = limits.maxMessageBytes
        parseLimits.maxDepth = limits.maxDepth
        let document: JSONDocument
        do {
            document = try JSONDocument(text, limits: parseLimits)
        } catch {
            return reject("INVALID_MESSAGE", [], "INVALID_MESSAGE: \(error)")
        }
        if let origin, !contracts.manifest.allowedOrigins.contains(where: { $0.lowercased() == origin.lowercased() }) {
            return reject("ORIGIN_REJECTED", [], "ORIGIN_REJECTED: \(origin) is not an allowed origin")
        }
        let verdict = compiled.check(document)
        guard case .valid(let contract) = verdict else {
            let errors = verdict.units.map { Counterexample.ErrorLocation(instanceLocation: $0.instanceLocation, keyword: $0.keyword, keywordLocation: $0.keywordLocation) }
            let code = verdict.errorCode ?? "INVALID_MESSAGE"
            let place = Counterexample.ErrorLocation.telling(errors).map { " " + $0.quoted } ?? ": " + verdict.summary
            return reject(code, errors, code + place)
        }
        // A custom action is answered by app code: accepted, and it navigates nowhere.
        guard contract.route != nil else {
            return MessageVerdict(accepted: true, code: nil, errors: [], summary: "accepted (custom action)", url: nil, route: nil)
        }
        switch route(message, contract: contract) {
        case .success(let parsed):
            return MessageVerdict(accepted: true, code: nil, errors: [], summary: "accepted", url: parsed.url, route: parsed.configuration.name)
        case .failure(let failure):
            return reject(failure.code, [], "\(failure.code): \(failure.message)")
        }
    }

    private func reject(_ code: String, _ errors: [Counterexample.ErrorLocation], _ summary: String) -> MessageVerdict {
        MessageVerdict(accepted: false, code: code, errors: errors, summary: summary, url: nil, route: nil)
    }

    private struct MappingFailure: Error, CustomStringConvertible {
        let code: String
        let message: String
        var description: String { "\(code): \(message)" }
    }

    /// The host's mapping step: each pointer picks a value; a missing path parameter is an
    /// internal error, a route that cannot be built a navigation failure.
    private func route(_ message: JSONValue, contract: ActionContract) -> Result<ParsedDeeplink, MappingFailure> {
        guard let routeName = contract.route else {
            return .failure(MappingFailure(code: "INTERNAL", message: "\(contract.action) v\(contract.version) is a custom action and maps to no route"))
        }
        var parameters: [String: String] = [:]
        for mapping in contract.parameters {
            guard let value = message.value(atTokens: mapping.tokens), let text = DeeplinkHandler.parameterText(value) else {
                return .failure(MappingFailure(code: "INTERNAL", message: "\(mapping.pointer) has no value for route parameter \(mapping.name)"))
            }
            parameters[mapping.name] = text
        }
        var query: [(name: String, value: String)] = []
        for mapping in contract.query {
            guard let value = message.value(atTokens: mapping.tokens), value != .null else { continue }
            guard let text = DeeplinkHandler.parameterText(value) else {
                return .failure(MappingFailure(code: "INTERNAL", message: "\(mapping.pointer) cannot fill query field \(mapping.name)"))
            }
            query.append((mapping.name, text))
        }
        do {
            return .success(try handler.route(named: routeName, parameters: parameters, query: query))
        } catch {
            return .failure(MappingFailure(code: "NAVIGATION_FAILED", message: "cannot build route \(routeName): \(error)"))
        }
    }

    /// What a link means to this side: the route, its path parameters and query values.
    struct LinkReading: Equatable {
        let route: String
        let pathParameters: [String: String]
        let query: [String: [String]]

        var summary: String {
            let parameters = pathParameters.keys.sorted().map { "\($0)=\(pathParameters[$0]!)" }
            return "route \(route)" + (parameters.isEmpty ? "" : " (\(parameters.joined(separator: ", ")))")
        }
    }

    func read(link: String) -> Result<LinkReading, DeeplinkError> {
        do {
            let parsed = try handler.parse(link)
            return .success(LinkReading(route: parsed.configuration.name, pathParameters: parsed.pathParameters,
                                        query: parsed.queryParameters))
        } catch {
            return .failure(error)
        }
    }
}
