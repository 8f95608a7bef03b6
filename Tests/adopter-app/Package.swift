// swift-tools-version:6.1
// An app package outside the bridgekit repository, as an adopter writes it: one app target that
// applies BridgeContractsPlugin and keeps its own contracts/ (Larkspur Foods, a made-up company)
// among its sources. Tests/adopter-app/run.sh (`make adopter-app`) copies this folder out of the
// repository, builds it against bridgekit by local path, runs it and checks its binary.
import PackageDescription

// Where bridgekit is: run.sh names the repository; in place, it is two folders up.
let bridgekit = Context.environment["BRIDGEKIT_PATH"] ?? "../.."

let package = Package(
    name: "larkspur-app",
    platforms: [.iOS(.v18), .macOS(.v15)],
    dependencies: [.package(name: "bridgekit", path: bridgekit)],
    targets: [
        .executableTarget(
            name: "LarkspurApp",
            dependencies: [
                .product(name: "BridgeKit", package: "bridgekit"),
                .product(name: "BridgeHostTesting", package: "bridgekit"),
            ],
            plugins: [.plugin(name: "BridgeContractsPlugin", package: "bridgekit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
