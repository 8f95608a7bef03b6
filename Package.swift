// swift-tools-version:6.0
// bridgekit: a WebView bridge contract toolkit. Layers, bottom up (dependencies point down only):
//   JSONCore                      pure Swift JSON value, parser, writer, pointers
//   DeeplinkRouting               pure Swift: routes.json, DeepLinkHandler, campaign, URL builder
//   DeeplinkNavigation            the shared navigator (auth gate, ready gate, dedupe)
//   CSchemaCheck -> SchemaCheck   the JSON Schema checker on jansson + PCRE2 (C)
//   BridgeContracts               manifest, schemas, fixtures, linter; names routes of DeeplinkRouting
//   BridgeHost -> BridgeHostTesting, BridgeCodegen; ContractEvolution (diff of two contract sets)
//   -> BridgeCLI -> bridgectl
// Every module a target imports is declared here (scripts/check-imports.mjs), and the deep link
// stack reaches no C target (scripts/check-layers.mjs); both run in `make test` (`make layers`).
import PackageDescription

let package = Package(
    name: "bridgekit",
    products: [
        .library(name: "JSONCore", targets: ["JSONCore"]),
        .library(name: "DeeplinkRouting", targets: ["DeeplinkRouting"]),
        .library(name: "DeeplinkNavigation", targets: ["DeeplinkNavigation"]),
        .library(name: "SchemaCheck", targets: ["SchemaCheck"]),
        .library(name: "BridgeContracts", targets: ["BridgeContracts"]),
        .library(name: "BridgeHost", targets: ["BridgeHost"]),
        .library(name: "BridgeHostTesting", targets: ["BridgeHostTesting"]),
        .library(name: "BridgeCodegen", targets: ["BridgeCodegen"]),
        .library(name: "ContractEvolution", targets: ["ContractEvolution"]),
        .executable(name: "bridgectl", targets: ["bridgectl"]),
    ],
    targets: [
        // The deep link stack: pure Swift, no C.
        .target(name: "JSONCore"),
        .target(name: "DeeplinkRouting", dependencies: ["JSONCore"]),
        .target(name: "DeeplinkNavigation", dependencies: ["DeeplinkRouting", "JSONCore"]),

        // The JSON Schema checker.
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
            dependencies: ["CSchemaCheck", "CJansson", "JSONCore"],
            plugins: ["EmbedResources"]
        ),

        // The bridge.
        .target(
            name: "BridgeContracts",
            dependencies: ["SchemaCheck", "DeeplinkRouting", "JSONCore"],
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "BridgeHost",
            dependencies: ["DeeplinkNavigation", "DeeplinkRouting", "BridgeContracts", "SchemaCheck", "JSONCore"]
        ),
        .target(
            name: "BridgeHostTesting",
            dependencies: ["BridgeHost", "BridgeContracts", "DeeplinkNavigation", "DeeplinkRouting", "JSONCore"]
        ),
        .target(
            name: "BridgeCodegen",
            dependencies: ["BridgeContracts", "DeeplinkRouting", "JSONCore"],
            plugins: ["EmbedResources"]
        ),
        // Compatibility of two contract sets: typed findings, each proven with a counterexample.
        .target(
            name: "ContractEvolution",
            dependencies: ["BridgeContracts", "SchemaCheck", "DeeplinkRouting", "JSONCore"]
        ),
        .target(
            name: "BridgeCLI",
            dependencies: [
                "SchemaCheck", "BridgeContracts", "DeeplinkRouting", "DeeplinkNavigation",
                "BridgeHost", "BridgeHostTesting", "BridgeCodegen", "ContractEvolution", "JSONCore",
            ]
        ),
        .executableTarget(name: "bridgectl", dependencies: ["BridgeCLI"]),

        // An app that only routes links: the deep link stack alone, routes.json embedded.
        .executableTarget(
            name: "RoutingOnly",
            dependencies: ["DeeplinkRouting", "DeeplinkNavigation"],
            path: "Examples/RoutingOnly",
            exclude: ["expected-output.txt"],
            plugins: ["EmbedResources"]
        ),

        // The soak benchmark (`make soak`): a long seeded session through host --stdio and in process.
        .executableTarget(
            name: "SoakBench",
            dependencies: ["BridgeHost", "BridgeContracts", "DeeplinkNavigation", "DeeplinkRouting", "JSONCore"],
            path: "bench/soak"
        ),

        // Build-time embedding of contracts/, metaschemas/ and js/src/ so the binary works from any directory.
        .executableTarget(name: "EmbedResourcesTool", path: "Sources/EmbedResourcesTool"),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedResourcesTool"]
        ),

        // Tests. TestSupport is shared by test targets only (the seeded generator, repository paths).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore", "TestSupport"]),
        .testTarget(name: "DeeplinkRoutingTests", dependencies: ["DeeplinkRouting", "JSONCore", "TestSupport"]),
        .testTarget(
            name: "DeeplinkNavigationTests",
            dependencies: ["DeeplinkNavigation", "DeeplinkRouting", "JSONCore", "TestSupport"]
        ),
        .testTarget(
            name: "SchemaCheckTests",
            dependencies: ["SchemaCheck", "JSONCore", "TestSupport"],
            exclude: ["known-failures.txt"]
        ),
        .testTarget(
            name: "BridgeContractsTests",
            dependencies: ["BridgeContracts", "DeeplinkRouting", "SchemaCheck", "JSONCore", "TestSupport"]
        ),
        .testTarget(
            name: "BridgeHostTests",
            dependencies: [
                "BridgeHost", "BridgeHostTesting", "BridgeContracts", "DeeplinkNavigation", "DeeplinkRouting",
                "SchemaCheck", "JSONCore", "TestSupport",
            ]
        ),
        .testTarget(name: "BridgeCodegenTests", dependencies: ["BridgeCodegen", "BridgeContracts", "TestSupport"]),
        .testTarget(
            name: "BridgeCLITests",
            dependencies: ["BridgeCLI", "BridgeContracts", "BridgeHost", "SchemaCheck", "JSONCore", "TestSupport"]
        ),
        .testTarget(
            name: "ContractEvolutionTests",
            dependencies: ["ContractEvolution", "BridgeContracts", "DeeplinkRouting", "SchemaCheck", "JSONCore", "TestSupport"],
            exclude: ["golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
