import JSONCore
import BridgeContracts

/// contracts -> Swift: one `Codable`, `Sendable`, `Equatable` struct per action version (the
/// envelope's members and the action's, with the payload, enums and shared schemas as types),
/// for native code that wants a typed message instead of a `JSONValue`. The output depends on the
/// contracts only (manifest order, no dates), so it is committed (Sources/BridgeContractTypes)
/// and `bridgectl generate swift --check` keeps it current.
///
/// The types are for messages the checker already accepted: decoding checks the constants
/// (`action`, `version`, `v`) and the Swift types, not patterns or lengths.
public enum SwiftTypesGenerator {
    /// How this package's own Sources/BridgeContractTypes is regenerated (`make generate-check`).
    public static let regenerateCommand = "bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes"

    /// What of the contracts cannot be expressed as Swift, each with its file and JSON Pointer.
    public static func unsupported(in contracts: ContractSet) -> [UnsupportedSchema] {
        var reader = SwiftSchemaReader(contracts: contracts)
        for action in contracts.manifest.actions {
            for contract in action.versions {
                _ = reader.message(contract, typeName: SwiftNames.message(action: action.name, version: contract.version))
            }
        }
        var seen = Set<String>()
        return reader.problems.filter { seen.insert($0.description).inserted }
    }

    /// The generated files, or every schema part that cannot be expressed.
    /// `regenerate` is the command the headers name: `bridgectl generate swift` with the paths
    /// really used.
    public static func files(for contracts: ContractSet,
                             regenerate: String = regenerateCommand) throws(SwiftTypesError) -> [GeneratedFile] {
        var reader = SwiftSchemaReader(contracts: contracts)
        var messages: [(contract: ActionContract, model: SwiftStructModel)] = []
        for action in contracts.manifest.actions {
            for contract in action.versions {
                let name = SwiftNames.message(action: action.name, version: contract.version)
                if let model = reader.message(contract, typeName: name) { messages.append((contract, model)) }
            }
        }
        if !reader.problems.isEmpty {
            var seen = Set<String>()
            throw SwiftTypesError(problems: reader.problems.filter { seen.insert($0.description).inserted })
        }
        var files: [GeneratedFile] = []
        for (contract, model) in messages {
            let sources = [contract.schema, contracts.manifest.envelopeSchema]
            files.append(GeneratedFile(path: model.name + ".swift",
                                       contents: header(sources: sources, regenerate) + SwiftTypeEmitter.message(model, contract: contract)))
        }
        for (file, model) in reader.shared.sorted(by: { $0.model.name < $1.model.name }) {
            files.append(GeneratedFile(path: model.name + ".swift", contents: header(sources: [file], regenerate) + SwiftTypeEmitter.shared(model)))
        }
        files.append(GeneratedFile(path: "ContractTypes.swift",
                                   contents: header(sources: ["manifest.json"], regenerate) + SwiftTypeEmitter.registry(messages.map(\.model.name))))
        // What every message type conforms to and the helper its decoder calls: generated too, so
        // the folder type-checks alone (swiftc -typecheck of its files, nothing else).
        files.append(GeneratedFile(path: "BridgeMessage.swift",
                                   contents: header(sources: [], regenerate) + SwiftTypeEmitter.support))
        return files.sorted { $0.path < $1.path }
    }

    static func header(sources: [String], _ regenerate: String) -> String {
        let from = sources.isEmpty ? "(the same for every contract set)" : "from the contracts (\(sources.joined(separator: ", ")))"
        return """
            // Generated \(from) by bridgectl. Do not edit:
            // change the schema, then regenerate with `\(regenerate)`
            // (with --check, the same command fails while this file is stale).

            """ + "\n"
    }
}

/// The contracts have schema parts the Swift generator cannot express.
public struct SwiftTypesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let problems: [UnsupportedSchema]

    public var description: String {
        "\(problems.count) schema part\(problems.count == 1 ? "" : "s") cannot be expressed as Swift: "
            + problems.map(\.description).joined(separator: "; ")
    }
}
