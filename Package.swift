// swift-tools-version:6.1
// bridgekit: a WebView bridge contract toolkit. Layers, bottom up (dependencies point down only):
//   JSONCore                      pure Swift JSON value, parser, writer, pointers
//   DeeplinkRouting               pure Swift: routes.json, DeeplinkHandler, campaign, URL builder
//   DeeplinkNavigation            the shared navigator (auth gate, ready gate, dedupe)
//   CSchemaCheck -> SchemaCheck   the JSON Schema checker on jansson + PCRE2 (C)
//   BridgeContracts               manifest, schemas, fixtures, linter; names routes of DeeplinkRouting
//   BridgeHost -> BridgeWebKit -> BridgeKit (the app's one import), BridgeHostTesting, BridgeCodegen,
//   BridgeSwiftCodegen (contracts -> Swift types, for bridgectl and BridgeContractsPlugin);
//   ContractEvolution (diff of two contract sets)
//   ContractCatalog               the contract catalog for people (HTML), from the above
//   HostConformance               bridgectl verify's cases: any host judged over the host protocol
//   FunnelMetrics                 pure Swift: the seed's four funnel metrics over an event log
//   -> BridgeCLI -> bridgectl
// C libraries: by default (trait SystemC) jansson and PCRE2 come from the system through
// pkg-config; the trait VendoredC builds both from the Debian sources vendored under
// Sources/CJanssonVendored and Sources/CPCRE2Vendored (for iOS, which has neither). Enable
// exactly one: `swift build --traits VendoredC` replaces the default.
// Every module a target imports is declared here (scripts/check-imports.mjs), and the deep link
// stack reaches no C target (scripts/check-layers.mjs); both run in `make test` (`make layers`).
import PackageDescription

let package = Package(
    name: "bridgekit",
    // The Swift 6 runtime (iOS 18, macOS 15): the libraries use Swift 6 standard library API
    // (String(validating:as:)), typed throws throughout (function types with typed throws need the
    // Swift 6 runtime on Apple platforms), and bridgectl uses Synchronization's Atomic.
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: [
        // The one import an app needs: host, WebKit adapter, navigator, contracts, routing, analytics.
        .library(name: "BridgeKit", targets: ["BridgeKit"]),
        .library(name: "JSONCore", targets: ["JSONCore"]),
        .library(name: "DeeplinkRouting", targets: ["DeeplinkRouting"]),
        .library(name: "DeeplinkNavigation", targets: ["DeeplinkNavigation"]),
        .library(name: "SchemaCheck", targets: ["SchemaCheck"]),
        .library(name: "BridgeContracts", targets: ["BridgeContracts"]),
        .library(name: "BridgeHost", targets: ["BridgeHost"]),
        .library(name: "BridgeWebKit", targets: ["BridgeWebKit"]),
        .library(name: "BridgeHostTesting", targets: ["BridgeHostTesting"]),
        .library(name: "BridgeCodegen", targets: ["BridgeCodegen"]),
        .library(name: "ContractCatalog", targets: ["ContractCatalog"]),
        .library(name: "ContractEvolution", targets: ["ContractEvolution"]),
        .library(name: "FunnelMetrics", targets: ["FunnelMetrics"]),
        .executable(name: "bridgectl", targets: ["bridgectl"]),
        // An app target applies it to embed its own contracts/ (ContractSet.embedded(), typed messages).
        .plugin(name: "BridgeContractsPlugin", targets: ["BridgeContractsPlugin"]),
    ],
    traits: [
        .trait(name: "SystemC", description: "jansson and PCRE2 from the system (pkg-config): Linux, macOS with Homebrew"),
        .trait(
            name: "VendoredC",
            description: "jansson and PCRE2 built from the vendored Debian sources, PCRE2 without JIT: iOS, or no system libraries"
        ),
        .default(enabledTraits: ["SystemC"]),
    ],
    targets: [
        // The deep link stack: pure Swift, no C.
        .target(name: "JSONCore"),
        .target(name: "DeeplinkRouting", dependencies: ["JSONCore"]),
        .target(name: "DeeplinkNavigation", dependencies: ["DeeplinkRouting", "JSONCore"]),
        // The funnel metrics over recorded events: pure Swift, routes only to name screens.
        .target(name: "FunnelMetrics", dependencies: ["DeeplinkRouting", "JSONCore"]),

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
        // The same libraries from vendored, unmodified Debian sources (VENDORED.md in each folder
        // names the versions); only their config headers are ours.
        .target(
            name: "CJanssonVendored",
            exclude: ["LICENSE", "VENDORED.md"],
            cSettings: [.headerSearchPath("config"), .define("HAVE_CONFIG_H")]
        ),
        .target(
            name: "CPCRE2Vendored",
            exclude: [
                "LICENCE", "VENDORED.md",
                // #included by pcre2_jit_compile.c and pcre2_tables.c, not compiled on their own.
                "src/pcre2_jit_match.c", "src/pcre2_jit_misc.c", "src/pcre2_ucptables.c",
            ],
            cSettings: [
                .headerSearchPath("config"), .define("HAVE_CONFIG_H"), .define("PCRE2_CODE_UNIT_WIDTH", to: "8"),
            ]
        ),
        .target(
            name: "CSchemaCheck",
            dependencies: [
                .target(name: "CJansson", condition: .when(traits: ["SystemC"])),
                .target(name: "CPCRE2", condition: .when(traits: ["SystemC"])),
                .target(name: "CJanssonVendored", condition: .when(traits: ["VendoredC"])),
                .target(name: "CPCRE2Vendored", condition: .when(traits: ["VendoredC"])),
            ],
            exclude: ["README.md"],
            cSettings: [
                .define("PCRE2_CODE_UNIT_WIDTH", to: "8"),
                // The vendored PCRE2 has no JIT (iOS forbids it); the interpreter keeps the limits.
                .define("SC_REGEX_NO_JIT", .when(traits: ["VendoredC"])),
                .define("SC_REGEX_NO_JIT", .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS])),
            ]
        ),
        .target(
            name: "SchemaCheck",
            dependencies: [
                "CSchemaCheck", "JSONCore",
                .target(name: "CJansson", condition: .when(traits: ["SystemC"])),
                .target(name: "CJanssonVendored", condition: .when(traits: ["VendoredC"])),
            ]
            // No build-tool plugin: its meta-schemas are a committed source (BundledMetaSchemas.swift,
            // `make embed-metaschemas`), so BridgeContractsPlugin's tool can link it.
        ),

        // The bridge.
        .target(name: "BridgeContracts", dependencies: ["SchemaCheck", "DeeplinkRouting", "JSONCore"]),
        .target(
            name: "BridgeHost",
            dependencies: ["DeeplinkNavigation", "DeeplinkRouting", "BridgeContracts", "SchemaCheck", "JSONCore"],
            plugins: ["EmbedResources"]
        ),
        // WebKit-shaped messages (a Foundation tree, origin parts): needs Foundation's NS types, so
        // it stays out of bridgectl, which starts on FoundationEssentials alone.
        .target(name: "BridgeWebKit", dependencies: ["BridgeHost", "BridgeContracts", "JSONCore"]),
        // The example set's typed messages, generated by `bridgectl generate swift --contracts contracts
        // --out Sources/BridgeContractTypes` (checked by make generate-check): the generator's committed
        // output, for the toolkit's tests. Not in BridgeKit: an app gets its own set's types from
        // BridgeContractsPlugin.
        .target(name: "BridgeContractTypes"),
        // The umbrella: re-exports the modules above for `import BridgeKit`.
        .target(
            name: "BridgeKit",
            dependencies: [
                "JSONCore", "DeeplinkRouting", "DeeplinkNavigation", "BridgeContracts", "BridgeHost", "BridgeWebKit",
            ]
        ),
        .target(
            name: "BridgeHostTesting",
            dependencies: ["BridgeHost", "BridgeContracts", "DeeplinkNavigation", "DeeplinkRouting", "JSONCore", "SchemaCheck"]
        ),
        // contracts -> Swift message types (`generate swift`, and BridgeContractsPlugin at build time):
        // no build-tool plugin of its own, so the plugin's tool can link it.
        .target(name: "BridgeSwiftCodegen", dependencies: ["BridgeContracts", "JSONCore"]),
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
            name: "ContractCatalog",
            dependencies: ["BridgeCodegen", "BridgeContracts", "BridgeHost", "DeeplinkRouting", "JSONCore"],
            plugins: ["EmbedResources"]
        ),
        // bridgectl verify's cases and judges: what a host of any platform must answer over the
        // JSON-lines host protocol. It knows the contracts, never the Swift host.
        .target(name: "HostConformance", dependencies: ["BridgeContracts", "DeeplinkRouting", "JSONCore"]),
        .target(
            name: "BridgeCLI",
            dependencies: [
                "SchemaCheck", "BridgeContracts", "DeeplinkRouting", "DeeplinkNavigation",
                "BridgeHost", "BridgeHostTesting", "BridgeCodegen", "BridgeSwiftCodegen", "ContractEvolution", "ContractCatalog", "FunnelMetrics",
                "HostConformance", "JSONCore",
            ]
        ),
        .executableTarget(name: "bridgectl", dependencies: ["BridgeCLI"]),

        // An app that only routes links: the deep link stack alone, routes.json embedded. Not through
        // BridgeContractsPlugin: ContractSet.embedded() needs BridgeContracts, whose schema checker is C.
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

        // Route matching at 10 and 10,000 routes (bench/run.sh): not shipped in bridgectl.
        .executableTarget(name: "RouteBench", dependencies: ["DeeplinkRouting"], path: "bench/routes"),

        // The app-integration doc's example, compiled with `import BridgeKit` alone; its contracts/
        // (a link to a test set with a custom action) embedded by BridgeContractsPlugin, as in an adopter's app.
        .executableTarget(
            name: "AppIntegration",
            dependencies: ["BridgeKit"],
            path: "Examples/AppIntegration",
            exclude: ["expected-output.txt"],
            plugins: ["BridgeContractsPlugin"]
        ),

        // Build-time embedding of contracts/, metaschemas/, js/src/ and js/host/ so the binary works from any directory.
        .executableTarget(name: "EmbedResourcesTool", path: "Sources/EmbedResourcesTool"),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedResourcesTool"]
        ),

        // An app target's own contracts/, embedded at build time as ContractSet.embedded(), and its
        // typed messages as `generate swift` writes them. The tool runs on the build machine only, and
        // links no module that needs a build-tool plugin itself (SwiftPM runs none for a plugin's tool).
        .executableTarget(
            name: "BridgeContractsPluginTool",
            dependencies: ["BridgeSwiftCodegen", "BridgeContracts", "DeeplinkRouting", "JSONCore"]
        ),
        .plugin(
            name: "BridgeContractsPlugin",
            capability: .buildTool(),
            dependencies: ["BridgeContractsPluginTool"]
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
                "BridgeHost", "BridgeHostTesting", "BridgeContracts", "BridgeContractTypes", "DeeplinkNavigation",
                "DeeplinkRouting", "SchemaCheck", "JSONCore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "BridgeWebKitTests",
            dependencies: ["BridgeWebKit", "BridgeHost", "BridgeHostTesting", "BridgeContracts", "JSONCore", "TestSupport"]
        ),
        .testTarget(
            name: "BridgeContractTypesTests",
            dependencies: ["BridgeContractTypes", "BridgeContracts", "JSONCore", "TestSupport"]
        ),
        .testTarget(
            name: "ContractCatalogTests",
            dependencies: ["ContractCatalog", "BridgeCLI", "BridgeCodegen", "BridgeContracts", "TestSupport"]
        ),
        .testTarget(name: "HostConformanceTests", dependencies: ["HostConformance", "BridgeContracts", "JSONCore", "TestSupport"]),
        .testTarget(name: "FunnelMetricsTests", dependencies: ["FunnelMetrics", "DeeplinkRouting", "JSONCore", "TestSupport"]),
        .testTarget(
            name: "BridgeCodegenTests",
            dependencies: ["BridgeCodegen", "BridgeSwiftCodegen", "BridgeContracts", "JSONCore", "TestSupport"]
        ),
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
