import JSONCore
import BridgeContracts
import DeeplinkRouting

/// Turns a validated message into the `ParsedDeeplink` its action version declares: each mapping's
/// JSON Pointer picks a value out of the message, which becomes a route parameter or query field.
/// Absent optional values are omitted; integers are written in decimal. The route comes only from
/// the manifest and the URL only from webBaseURL, so no payload can lead outside the app's routes or
/// onto a foreign host (a `javascript:` string is just a query value, encoded once).
struct ActionMapper {
    let handler: DeeplinkHandler

    /// Throws rather than returning a `Result`: a generic enum around the link is destroyed through
    /// its run-time metadata, which cost as much as building a query item.
    func deeplink(for message: ParsedMessage, contract: ActionContract, campaign: CampaignMetadata) throws(BridgeError) -> ParsedDeeplink {
        guard let route = contract.route else {
            throw BridgeError(.internal, "\(contract.action) v\(contract.version) is a custom action and maps to no route")
        }
        var parameters = [String: String](minimumCapacity: contract.parameters.count)
        for mapping in contract.parameters {
            guard let value = message.value(atTokens: mapping.tokens) else {
                throw BridgeError(.internal,
                    "the contract for \(contract.action) v\(contract.version) maps \(mapping.pointer) to route parameter \(mapping.name), but the message has no value there")
            }
            guard let text = DeeplinkHandler.parameterText(value) else {
                throw BridgeError(.internal,
                    "\(mapping.pointer) must be a string, number or boolean to fill route parameter \(mapping.name)")
            }
            parameters[mapping.name] = text
        }
        var query: [(name: String, value: String)] = []
        query.reserveCapacity(contract.query.count)
        for mapping in contract.query {
            guard let value = message.value(atTokens: mapping.tokens), value != .null else { continue }
            guard let text = DeeplinkHandler.parameterText(value) else {
                throw BridgeError(.internal,
                    "\(mapping.pointer) must be a string, number or boolean to fill query field \(mapping.name)")
            }
            query.append((mapping.name, text))
        }
        do {
            return try handler.route(named: route, parameters: parameters, query: query, campaign: campaign)
        } catch {
            throw BridgeError(.navigationFailed, "cannot build route \(route): \(error)",
                details: [["route": .string(route), "error": .string(error.description)]])
        }
    }
}
