// Larkspur Foods' app, reduced to what proves the plugin: it loads the contract set the build
// embedded from this target's contracts/ (nothing is read from disk), routes one order_menu
// message from its menu page through the bridge host, and prints the navigation and the reply.
// It also decodes that message as OrderMenuV1, a typed struct the plugin generated from the same
// contracts/ (what `bridgectl generate swift` writes), so the build fails without them.
import BridgeHostTesting
import BridgeKit
import Foundation

do {
    let contracts = try ContractSet.embedded()
    print("contracts: \(contracts.origin), bridge \(contracts.manifest.bridge), \(contracts.manifest.actions.count) action(s)")
    print("digest: \(contracts.digest)")
    let host = try MockBridgeHost(contracts: contracts)
    let message = #"{"v":1,"id":"lark-000101","action":"order_menu","version":1,"payload":{"dish":"house-noodles","size":"large"}}"#
    let order = try JSONDecoder().decode(OrderMenuV1.self, from: Data(message.utf8))
    print("typed: \(OrderMenuV1.action) v\(OrderMenuV1.version) dish \(order.payload.dish), size \(order.payload.size?.rawValue ?? "none"); "
        + "\(ContractTypes.all.count) message type(s)")
    let reply = host.receive(message, origin: "https://menu.larkspur.example")
    _ = host.runUntilIdle()
    for navigation in host.navigations {
        print("navigation: \(navigation.route) \(navigation.presentation.rawValue) \(navigation.screen) \(navigation.url)")
    }
    print("reply: \(reply?.text ?? "none")")
    let refused = host.receive(#"{"v":1,"id":"lark-000102","action":"order_menu","version":1,"payload":{"dish":"house-noodles","size":"family"}}"#,
                               origin: "https://menu.larkspur.example")
    print("refused: \(refused?.text.prefix(80) ?? "none")")
} catch {
    print("LarkspurApp: \(error)")
}
