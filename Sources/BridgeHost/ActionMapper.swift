import JSONCore
import BridgeContracts
import DeeplinkRouting

/// Turns a validated message into the `ParsedDeeplink` its action version declares: each mapping's
/// JSON Pointer picks a value out of the message, which becomes a route parameter or query field.
/// Absent optional values are omitted; integers are written in decimal. The route comes only from
/// the manifest and the URL only from webBaseURL, so no payload can lead outside the app's routes or
/// onto a foreign host (a `javascript:` string is just a query value, encoded once).
struct ActionMapper {
    let handler: DeepLinkHandler

    func deeplink(for message: ParsedMessage, contract: ActionContract, campaign: CampaignMetadata) -> Result<ParsedDeeplink, BridgeError> {
        guard let route = contract.route else {
            return .failure(BridgeError(.internal, "\(contract.action) v\(contract.version) is a custom action and maps to no route"))
        }
        var parameters = [String: String](minimumCapacity: contract.parameters.count)
        for mapping in contract.parameters {
            guard let value = message.value(atTokens: mapping.tokens) else {
                return .failure(BridgeError(.internal,
                    "the contract for \(contract.action) v\(contract.version) maps \(mapping.pointer) to route parameter \(mapping.name), but the message has no value there"))
            }
            guard let text = DeepLinkHandler.parameterText(value) else {
                return .failure(BridgeError(.internal,
                    "\(mapping.pointer) must be a string, number or boolean to fill route parameter \(mapping.name)"))
            }
            parameters[mapping.name] = text
        }
        var query: [(name: String, value: String)] = []
        query.reserveCapacity(contract.query.count)
        for mapping in contract.query {
            guard let value = message.value(atTokens: mapping.tokens), value != .null else { continue }
            guard let text = DeepLinkHandler.parameterText(value) else {
                return .failure(BridgeError(.internal,
                    "\(mapping.pointer) must be a string, number or boolean to fill query field \(mapping.name)"))
            }
            query.append((mapping.name, text))
        }
        do {
            return .success(try handler.route(named: route, parameters: parameters, query: query, campaign: campaign))
        } catch {
            return .failure(BridgeError(.navigationFailed, "cannot build route \(route): \(error)",
                details: [["route": .string(route), "error": .string(error.description)]]))
        }
    }
}
