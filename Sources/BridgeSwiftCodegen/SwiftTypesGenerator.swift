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
/// One generated Swift file, relative to the output folder (e.g. "ApplyV1.swift").
public struct SwiftTypesFile: Sendable, Equatable {
    public let path: String
    public let contents: String

    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// What the headers of the generated files say regenerates them.
public enum SwiftTypesRegeneration: Sendable, Equatable {
    /// `bridgectl generate swift` with the paths really used (e.g. `regenerateCommand`).
    case command(String)
    /// BridgeContractsPlugin, at every build of the target whose contracts/ they come from.
    case buildPlugin
}

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
        for event in contracts.manifest.events {
            for contract in event.versions {
                _ = reader.event(contract, typeName: SwiftNames.event(event.name, version: contract.version))
            }
        }
        var seen = Set<String>()
        return reader.problems.filter { seen.insert($0.description).inserted }
    }

    /// The generated files, or every schema part that cannot be expressed.
    /// `regenerate` is the command the headers name: `bridgectl generate swift` with the paths
    /// really used.
    public static func files(for contracts: ContractSet,
                             regenerate: String = regenerateCommand) throws(SwiftTypesError) -> [SwiftTypesFile] {
        try files(for: contracts, regeneration: .command(regenerate))
    }

    /// The same files, with headers that name `regeneration`: the command, or the build plugin.
    public static func files(for contracts: ContractSet,
                             regeneration: SwiftTypesRegeneration) throws(SwiftTypesError) -> [SwiftTypesFile] {
        var reader = SwiftSchemaReader(contracts: contracts)
        var messages: [(contract: ActionContract, model: SwiftStructModel)] = []
        for action in contracts.manifest.actions {
            for contract in action.versions {
                let name = SwiftNames.message(action: action.name, version: contract.version)
                if let model = reader.message(contract, typeName: name) { messages.append((contract, model)) }
            }
        }
        // The contract set's own events (the built-in ones are the bridge's to send, not the app's).
        var events: [(contract: EventContract, model: SwiftStructModel)] = []
        for event in contracts.manifest.events {
            for contract in event.versions {
                if let model = reader.event(contract, typeName: SwiftNames.event(event.name, version: contract.version)) {
                    events.append((contract, model))
                }
            }
        }
        if !reader.problems.isEmpty {
            var seen = Set<String>()
            throw SwiftTypesError(problems: reader.problems.filter { seen.insert($0.description).inserted })
        }
        var files: [SwiftTypesFile] = []
        for (contract, model) in messages {
            let sources = [contract.schema, contracts.manifest.envelopeSchema]
            files.append(SwiftTypesFile(path: model.name + ".swift",
                                       contents: header(sources: sources, regeneration) + SwiftTypeEmitter.message(model, contract: contract)))
        }
        for (contract, model) in events {
            files.append(SwiftTypesFile(path: model.name + ".swift",
                                       contents: header(sources: [contract.schema], regeneration) + SwiftTypeEmitter.event(model, contract: contract)))
        }
        for (file, model) in reader.shared.sorted(by: { $0.model.name < $1.model.name }) {
            files.append(SwiftTypesFile(path: model.name + ".swift", contents: header(sources: [file], regeneration) + SwiftTypeEmitter.shared(model)))
        }
        files.append(SwiftTypesFile(path: "ContractTypes.swift",
                                   contents: header(sources: ["manifest.json"], regeneration) + SwiftTypeEmitter.registry(messages.map(\.model.name), events: events.map(\.model.name))))
        // What every message type conforms to and the helper its decoder calls: generated too, so
        // the folder type-checks alone (swiftc -typecheck of its files, nothing else).
        files.append(SwiftTypesFile(path: "BridgeMessage.swift",
                                   contents: header(sources: [], regeneration) + SwiftTypeEmitter.support))
        return files.sorted { $0.path < $1.path }
    }

    static func header(sources: [String], _ regeneration: SwiftTypesRegeneration) -> String {
        let from = sources.isEmpty ? "(the same for every contract set)" : "from the contracts (\(sources.joined(separator: ", ")))"
        switch regeneration {
        case .command(let regenerate):
            return """
                // Generated \(from) by bridgectl. Do not edit:
                // change the schema, then regenerate with `\(regenerate)`
                // (with --check, the same command fails while this file is stale).

                """ + "\n"
        case .buildPlugin:
            return """
                // Generated \(from) by BridgeContractsPlugin at build time. Do not edit:
                // change the schema; the next build of this target generates it again.

                """ + "\n"
        }
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
