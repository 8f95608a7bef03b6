// BridgeKit: the one import an app needs. `import BridgeKit` brings in the host and its WebKit
// adapter, the navigator and its protocols (NavigationHost, AuthState), the contracts, deep link
// routing, campaign metadata, analytics events and JSON values. An app's typed messages come from
// BridgeContractsPlugin, with its own contracts. Each module stays its own layer; this module only
// re-exports them (Examples/AppIntegration compiles the app-integration doc's
// example with this import alone).
@_exported import JSONCore
@_exported import DeeplinkRouting
@_exported import DeeplinkNavigation
@_exported import BridgeContracts
@_exported import BridgeHost
@_exported import BridgeWebKit
