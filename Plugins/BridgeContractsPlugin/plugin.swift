import Foundation
import PackagePlugin

/// Embeds an app target's own contract set at build time. The target keeps its contracts folder,
/// `contracts/` with `manifest.json` inside, among its sources (as an OpenAPI generator plugin finds
/// the adopter's `openapi.yaml` among the target's files); every file of that folder is an input,
/// so an edited, added or removed contract rebuilds the target. The target gets two generated
/// sources: `ContractSet.embedded()`, internal to its module (two modules each have their own),
/// and the set's typed messages, the structs `bridgectl generate swift` writes for it (ApplyV1,
/// ContractTypes, BridgeMessage, ...), public in the target's module.
@main
struct BridgeContractsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let root = module.directoryURL.standardizedFileURL
        let folder = root.appending(path: "contracts", directoryHint: .isDirectory)
        let inputs = module.sourceFiles.map { $0.url.standardizedFileURL }
            .filter { $0.path.hasPrefix(folder.path + "/") }
            .sorted { $0.path < $1.path }
        guard inputs.contains(where: { $0.path == folder.path + "/manifest.json" }) else {
            throw PluginError.noManifest(target: target.name, folder: folder.path)
        }
        let embeddedSet = context.pluginWorkDirectoryURL.appending(path: "EmbeddedContracts.swift")
        let types = context.pluginWorkDirectoryURL.appending(path: "ContractMessageTypes.swift")
        return [
            .buildCommand(
                displayName: "Embedding contracts/ into \(target.name)",
                executable: try context.tool(named: "BridgeContractsPluginTool").url,
                arguments: [folder.path, embeddedSet.path, types.path, Self.contractsModule(of: module)],
                inputFiles: inputs,
                outputFiles: [embeddedSet, types]
            )
        ]
    }
}

extension BridgeContractsPlugin {
    /// The module the generated file imports for ContractSet: the one the target declares, so it
    /// imports nothing the target does not (BridgeKit re-exports BridgeContracts).
    static func contractsModule(of target: SourceModuleTarget) -> String {
        let names = target.dependencies.map { dependency -> String in
            switch dependency {
            case .product(let product): return product.name
            case .target(let target): return target.name
            @unknown default: return ""
            }
        }
        return names.contains("BridgeKit") ? "BridgeKit" : "BridgeContracts"
    }
}

enum PluginError: Error, CustomStringConvertible {
    case noManifest(target: String, folder: String)

    var description: String {
        switch self {
        case .noManifest(let target, let folder):
            return "BridgeContractsPlugin: target '\(target)' has no contracts/manifest.json among its sources "
                + "(looked for \(folder)/manifest.json). Keep the app's contracts folder in the target's folder "
                + "(`bridgectl init` writes one), or remove the plugin from the target."
        }
    }
}
