import BridgeCodegen
import BridgeContracts
import BridgeSwiftCodegen

/// `bridgectl generate swift --out DIR [--check]`: one Codable struct per action version, for the
/// package's Sources/BridgeContractTypes or an app's own folder. Registered by `generate`.
struct SwiftTypesGenerateCommand {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        if arguments.has("update-runtime") { throw UsageError("swift: --update-runtime is for generate js") }
        guard let directory = arguments.value("out") else {
            throw UsageError("swift: --out DIR is required (the package's types are in Sources/BridgeContractTypes)")
        }
        let contracts = try ContractsOption.load(arguments)
        // The fix-it of --check runs from here; the headers name the command from the project
        // folder, so they are the same whichever folder generates or checks them.
        let regenerate = RegenerateCommand.text("swift", contractsOption: arguments.value("contracts"), origin: contracts.origin, out: directory)
        let header = RegenerateCommand.header("swift", contracts: try ContractsOption.locate(arguments).get().directory, out: directory)
        let files: [GeneratedFile]
        do {
            files = try SwiftTypesGenerator.files(for: contracts, regenerate: header)
                .map { GeneratedFile(path: $0.path, contents: $0.contents) }
        } catch {
            for problem in error.problems { console.err("bridgectl generate swift: schemas/\(problem)\n") }
            throw UsageError("swift: \(error.problems.count) schema part(s) of \(contracts.origin) cannot be expressed as Swift (bridgectl lint lists them)")
        }
        if arguments.has("check") {
            let stale = GeneratedFiles.stale(files, in: directory)
            guard !stale.isEmpty else {
                console.out("\(directory): the \(files.count) generated Swift files are current\n")
                return ExitCode.success
            }
            for file in stale { console.out("\(file)\n") }
            console.out("regenerate with: \(regenerate)\n")
            return ExitCode.invalid
        }
        do {
            let written = try GeneratedFiles.write(files, to: directory)
            for path in written { console.out("wrote \(path)\n") }
            if written.isEmpty { console.out("\(directory): the \(files.count) generated Swift files are already current\n") }
            return ExitCode.success
        } catch {
            throw UsageError("swift: cannot write to \(directory): \(FileSystem.describe(error))")
        }
    }
}
