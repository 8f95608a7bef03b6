import Foundation
import PackagePlugin

/// Embeds a data folder of the package (or some files of it) into the target as Swift string
/// literals, so that `bridgectl` carries the hand-written JS runtime of the web kit (SchemaCheck's
/// meta-schemas are a committed source instead: `make embed-metaschemas`), and runs from any working directory. Which folder a target gets is
/// decided by its name; the files are plan-time inputs, so an edited or added contract rebuilds
/// the target.
@main
struct EmbedResources: BuildToolPlugin {
    /// Target -> folder, symbol, and the files of the folder to embed (nil: all of them).
    private static let folders: [String: (folder: String, symbol: String, only: [String]?)] = [
        "BridgeCodegen": ("js/src", "BundledJavaScriptRuntime", nil),
        // The app's document-start script (the capability manifest), a template the host fills in.
        "BridgeHost": ("js/host", "BundledHostScripts", nil),
        // The contract catalog's stylesheet and its link builder page's form wiring.
        "ContractCatalog": ("catalog/assets", "BundledCatalogAssets", nil),
        // The routing-only example ships routes.json and nothing of the bridge contracts.
        "RoutingOnly": ("contracts", "BundledRoutes", ["routes.json"]),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let spec = Self.folders[target.name] else { return [] }
        let folder = context.package.directoryURL.appending(path: spec.folder)
        let inputs = spec.only.map { $0.map { folder.appending(path: $0) } } ?? Self.files(under: folder)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(spec.symbol).swift")
        return [
            .buildCommand(
                displayName: "Embedding \(spec.folder)/ into \(target.name)",
                executable: try context.tool(named: "EmbedResourcesTool").url,
                arguments: [folder.path, output.path, spec.symbol] + (spec.only ?? []),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    private static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker {
            let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
            if isFile { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
