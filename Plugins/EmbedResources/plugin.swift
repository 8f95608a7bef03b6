import Foundation
import PackagePlugin

/// Embeds a folder of the package into the target as Swift string literals, so that `bridgectl`
/// carries its contracts, meta-schemas and the hand-written JS runtime of the web kit, and runs
/// from any working directory.
/// Which folder a target gets is decided by its name; the files are plan-time inputs, so an
/// edited or added contract rebuilds the target.
@main
struct EmbedResources: BuildToolPlugin {
    private static let folders: [String: (folder: String, symbol: String)] = [
        "BridgeContracts": ("contracts", "BundledContracts"),
        "SchemaCheck": ("metaschemas", "BundledMetaSchemas"),
        "BridgeCodegen": ("js/src", "BundledJavaScriptRuntime"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let spec = Self.folders[target.name] else { return [] }
        let folder = context.package.directoryURL.appending(path: spec.folder)
        let inputs = Self.files(under: folder)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(spec.symbol).swift")
        return [
            .buildCommand(
                displayName: "Embedding \(spec.folder)/ into \(target.name)",
                executable: try context.tool(named: "EmbedResourcesTool").url,
                arguments: [folder.path, output.path, spec.symbol],
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
