// swift-tools-version:6.0
// bridgekit: a WebView bridge contract toolkit. Layers, top to bottom:
//   bridgectl -> BridgeCLI -> BridgeCodegen, BridgeHostTesting, ContractEvolution -> BridgeHost
//   -> DeeplinkNavigation -> DeeplinkRouting -> BridgeContracts -> SchemaCheck
//   -> CSchemaCheck -> CJansson, CPCRE2
import PackageDescription

let package = Package(
    name: "bridgekit",
    products: [
        .library(name: "SchemaCheck", targets: ["SchemaCheck"]),
        .library(name: "BridgeContracts", targets: ["BridgeContracts"]),
        .library(name: "DeeplinkRouting", targets: ["DeeplinkRouting"]),
        .library(name: "DeeplinkNavigation", targets: ["DeeplinkNavigation"]),
        .library(name: "BridgeHost", targets: ["BridgeHost"]),
        .library(name: "BridgeHostTesting", targets: ["BridgeHostTesting"]),
        .library(name: "BridgeCodegen", targets: ["BridgeCodegen"]),
        .library(name: "ContractEvolution", targets: ["ContractEvolution"]),
        .executable(name: "bridgectl", targets: ["bridgectl"]),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .target(
            name: "CSchemaCheck",
            dependencies: ["CJansson", "CPCRE2"],
            cSettings: [.define("PCRE2_CODE_UNIT_WIDTH", to: "8")]
        ),
        .target(
            name: "SchemaCheck",
            dependencies: ["CSchemaCheck", "CJansson"],
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "BridgeContracts",
            dependencies: ["SchemaCheck"],
            plugins: ["EmbedResources"]
        ),
        .target(name: "DeeplinkRouting", dependencies: ["BridgeContracts"]),
        .target(name: "DeeplinkNavigation", dependencies: ["DeeplinkRouting"]),
        .target(
            name: "BridgeHost",
            dependencies: ["DeeplinkNavigation", "DeeplinkRouting", "BridgeContracts", "SchemaCheck"]
        ),
        .target(name: "BridgeHostTesting", dependencies: ["BridgeHost"]),
        .target(name: "BridgeCodegen", dependencies: ["BridgeContracts", "DeeplinkRouting"]),
        // Compatibility of two contract sets: typed findings, each proven with a counterexample.
        .target(name: "ContractEvolution", dependencies: ["BridgeContracts", "SchemaCheck", "DeeplinkRouting"]),
        .target(
            name: "BridgeCLI",
            dependencies: [
                "SchemaCheck", "BridgeContracts", "DeeplinkRouting", "DeeplinkNavigation",
                "BridgeHost", "BridgeHostTesting", "BridgeCodegen", "ContractEvolution",
            ]
        ),
        .executableTarget(name: "bridgectl", dependencies: ["BridgeCLI"]),

        // Build-time embedding of contracts/ and metaschemas/ so the binary works from any directory.
        .executableTarget(name: "EmbedResourcesTool", path: "Sources/EmbedResourcesTool"),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedResourcesTool"]
        ),

        .testTarget(name: "SchemaCheckTests", dependencies: ["SchemaCheck"], exclude: ["known-failures.txt"]),
        .testTarget(name: "BridgeContractsTests", dependencies: ["BridgeContracts"]),
        .testTarget(name: "DeeplinkRoutingTests", dependencies: ["DeeplinkRouting"]),
        .testTarget(name: "DeeplinkNavigationTests", dependencies: ["DeeplinkNavigation"]),
        .testTarget(name: "BridgeHostTests", dependencies: ["BridgeHost", "BridgeHostTesting"]),
        .testTarget(name: "BridgeCodegenTests", dependencies: ["BridgeCodegen"]),
        .testTarget(name: "BridgeCLITests", dependencies: ["BridgeCLI"]),
        .testTarget(name: "ContractEvolutionTests", dependencies: ["ContractEvolution"], exclude: ["golden"]),
    ],
    swiftLanguageModes: [.v6]
)
