// The tool BridgeContractsPlugin runs at build time:
//   BridgeContractsPluginTool CONTRACTS_DIR EMBEDDED.swift TYPES.swift MODULE
// Writes EMBEDDED.swift, the Swift source that defines `ContractSet.embedded()` over every .json
// file of the app target's contracts folder (the files `ContractSet.load(directory:)` reads, so
// both give the same set and digest), as string literals. Internal, so each module that applies
// the plugin has its own set. It imports MODULE: BridgeKit or BridgeContracts, whichever the
// target declares. And TYPES.swift: the set's typed messages, the files `bridgectl generate swift`
// writes for it (the same generator, BridgeSwiftCodegen), one after the other in path order (a
// build command names its outputs before it runs, so one file whatever the number of actions).
// Sorted paths, no dates: the same folder gives the same files.
//
// It links no module that needs a build-tool plugin itself: SwiftPM runs none for a plugin's
// tool (SchemaCheck's meta-schemas are a committed source for that reason). What it checks: every
// file is UTF-8 JSON, routes.json loads, the set loads as ContractSet does, and its schemas can be
// expressed as Swift; the full check of the set is `bridgectl lint`.
import BridgeContracts
import BridgeSwiftCodegen
import DeeplinkRouting
import Foundation
import JSONCore

func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("error: BridgeContractsPlugin: \(message)\n".utf8))
    return 1
}

/// Relative path -> text of every .json file under `root`, or the file that is not UTF-8.
func jsonFiles(under root: URL) throws(PluginToolError) -> [String: String] {
    var files: [String: String] = [:]
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
        throw PluginToolError("\(root.path): cannot be listed")
    }
    for case let url as URL in walker where url.pathExtension == "json" {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
        // Not String(contentsOf:), which drops a byte-order mark; the linter must see what is on disk.
        guard let data = FileManager.default.contents(atPath: url.path),
              let text = String(validating: data, as: UTF8.self) else {
            throw PluginToolError("\(url.path): cannot be read as UTF-8 text")
        }
        files[relative] = text
    }
    return files
}

struct PluginToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func source(files: [String: String], folder: String, module: String) -> String {
    var out = """
        // Generated at build time by BridgeContractsPlugin from \(folder)/ (\(files.count) files). Do not edit:
        // change the contracts; the next build embeds them again.
        import \(module)

        extension ContractSet {
            /// This target's own contract set (\(folder)/), embedded at build time: what this build
            /// understands, whatever the working directory. Internal, so each module has its own.
            static func embedded() throws(ContractError) -> ContractSet {
                try ContractSet(files: EmbeddedContractFiles.files, origin: "embedded \(folder)/")
            }
        }

        /// Relative path -> text of each .json file of \(folder)/.
        private enum EmbeddedContractFiles {
            static let files: [String: String] = [

        """
    for path in files.keys.sorted() {
        out += "        \(swiftLiteral(path)): \(swiftLiteral(files[path]!)),\n"
    }
    return out + "    ]\n}\n"
}

/// A one-line Swift string literal whose value is exactly `text` (line endings included).
func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

/// The set's message types as `generate swift` writes them, one file after the other.
func typesSource(files: [String: String], folder: String) throws(PluginToolError) -> String {
    let contracts: ContractSet
    do {
        contracts = try ContractSet(files: files, origin: "\(folder)/")
    } catch {
        throw PluginToolError("\(folder)/: \(error)")
    }
    let generated: [SwiftTypesFile]
    do {
        generated = try SwiftTypesGenerator.files(for: contracts, regeneration: .buildPlugin)
    } catch {
        throw PluginToolError("\(folder)/schemas: \(error) (bridgectl lint lists them)")
    }
    return generated.map { "// MARK: - \($0.path)\n" + $0.contents }
        .joined(separator: "\n")
}

/// Writes `text` unless the file already holds it, so an unchanged set does not recompile the target.
func write(_ text: String, to path: String) throws(PluginToolError) {
    let output = URL(fileURLWithPath: path)
    if (try? Data(contentsOf: output)) == Data(text.utf8) { return }
    do {
        try Data(text.utf8).write(to: output, options: .atomic)
    } catch {
        throw PluginToolError("cannot write \(output.path): \(error)")
    }
}

func run(_ arguments: [String]) -> Int32 {
    guard arguments.count == 5, ["BridgeKit", "BridgeContracts"].contains(arguments[4]) else {
        _ = fail("usage: BridgeContractsPluginTool CONTRACTS_DIR EMBEDDED.swift TYPES.swift BridgeKit|BridgeContracts")
        return 2
    }
    let given = URL(fileURLWithPath: arguments[1])
    // Resolved first: the toolkit's own example keeps contracts/ as a link to a set of the repository.
    let root = given.resolvingSymlinksInPath().standardizedFileURL
    let files: [String: String]
    do {
        files = try jsonFiles(under: root)
    } catch {
        return fail(error.description)
    }
    guard files["manifest.json"] != nil else { return fail("\(given.path)/manifest.json: missing") }
    for path in files.keys.sorted() {
        do {
            _ = try JSONValue(parsing: files[path]!)
        } catch {
            return fail("\(given.path)/\(path): not JSON: \(error)")
        }
    }
    if let routes = files["routes.json"] {
        do {
            _ = try RoutesFile.routes(fromJSON: routes, file: "routes.json")
        } catch {
            return fail("\(given.path)/\(error.file)\(error.pointer.isEmpty ? "" : "#" + error.pointer): \(error.message)")
        }
    }
    do {
        let types = try typesSource(files: files, folder: given.path)
        try write(source(files: files, folder: given.lastPathComponent, module: arguments[4]), to: arguments[2])
        try write(types, to: arguments[3])
    } catch {
        return fail(error.description)
    }
    return 0
}

exit(run(CommandLine.arguments))
