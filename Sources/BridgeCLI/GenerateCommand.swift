import BridgeCodegen
import BridgeContracts
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore

/// `bridgectl generate js`: the web team's shim, types and fake host, from the contracts alone;
/// `generate aasa` / `generate assetlinks`: the files that make links open the app.
let generateCommand = Command(
    name: "generate",
    summary: "generate the web-side JS kit (generate js), Swift payload types (generate swift), or the AASA / assetlinks.json files (generate aasa|assetlinks)",
    help: """
    usage: bridgectl generate js [--contracts DIR] [--out DIR] [--check] [--update-runtime]
           bridgectl generate info-plist [--contracts DIR] [--check INFO.plist]
           bridgectl generate swift [--contracts DIR] --out DIR [--check]
           bridgectl generate aasa|assetlinks [--contracts DIR] [--out FILE] [--check]

    Writes the web team's kit. From the contracts (manifest, routes, schemas):
      DIR/bridge.js                 the ES module the event pages import (createBridge), with
                                    the contract table
      DIR/bridge.d.ts               one typed function per action and version, payload types
                                    converted from the JSON Schemas
      DIR/testing/fake-host.js      a fake native host for the web team's tests (+ .d.ts)
    and, as built into bridgectl from the repository's js/src (the same for every contract set):
      DIR/src/bridge-runtime.js     the shim's runtime, which bridge.js imports (+ .d.ts)
      DIR/src/fake-host.js          the fake host's runtime (+ .d.ts)
    --out DIR          where to write them (default: js)
    --check            write nothing; exit 1 naming each file that is missing or differs (run
                       it in CI so a contract change cannot ship without the regenerated kit)
    --update-runtime   replace DIR/src files that differ from the runtime built into bridgectl
                       (without it they are left alone and the command fails: in the
                       repository they are the source, and a bridgectl built before an edit
                       of js/src must not overwrite it)
    generate swift writes one Codable, Sendable, Equatable struct per action version (envelope
    and payload members, enums, the shared campaign type) and ContractTypes.swift, the list of
    them; the package's are in Sources/BridgeContractTypes. A schema part Swift cannot express
    (oneOf, a list of types, an open object...) is an error naming its JSON Pointer.
    The output is deterministic (manifest order, no dates), so it can be committed and checked.
    Files that are already current are not rewritten.

    generate info-plist prints the LSApplicationQueriesSchemes fragment for the app's Info.plist:
    the manifest's queriedURLSchemes, every scheme an external route (a map app) is asked about
    with canOpenURL. --check INFO.plist instead names the schemes that plist does not declare.

    generate aasa writes the apple-app-site-association (applinks components for the manifest's
    apps.ios teamID.bundleID) that opens every route of routes.json in the app and nothing else
    (a parameter is one non-empty path segment; deeper paths are excluded); generate assetlinks
    writes assetlinks.json for apps.android (package, sha256CertFingerprints). Standard output,
    or --out FILE; with --check, exit 1 when FILE differs. The committed copies live in
    contracts/well-known/ (`bridgectl lint` checks what they open); deploy them at
    https://HOST/.well-known/apple-app-site-association (no .json) and .../assetlinks.json.

    exit: 0 written or current; 1 --check found stale or missing files; 2 usage error,
          unreadable contracts, a schema the TypeScript generator does not support, a runtime
          file that differs (without --update-runtime), or a file that cannot be written.
    """,
    run: { argv, console in GenerateCommandRunner(console: console).run(argv) }
)

private struct GenerateCommandRunner {
    let console: Console

    func run(_ argv: [String]) -> Int32 {
        if argv.first == "info-plist" { return InfoPlistCommand(console: console).run(Array(argv.dropFirst())) }
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, spec: .init(options: ["contracts", "out"], flags: ["check", "update-runtime"]))
            if arguments.positional == ["swift"] { return SwiftTypesGenerateCommand(console: console).run(arguments) }
            guard arguments.positional.count == 1, ["js", "aasa", "assetlinks"].contains(arguments.positional[0]) else {
                throw UsageError("expected one target, js, swift, aasa, assetlinks or info-plist: bridgectl generate js|swift|aasa|assetlinks|info-plist [--out ...] [--check]")
            }
        } catch {
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        }
        let contracts: ContractSet
        switch ContractsOption.load(arguments) {
        case .success(let loaded): contracts = loaded
        case .failure(let error):
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        }
        if arguments.positional[0] != "js" {
            return wellKnown(arguments.positional[0], contracts: contracts, arguments: arguments)
        }
        let directory = arguments.value("out") ?? "js"
        // The command as invoked, with the contracts and the folder really used: written into every
        // header, and the fix-it of --check.
        let regenerate = RegenerateCommand.text("js", contractsOption: arguments.value("contracts"), origin: contracts.origin, out: directory)
        let files: [GeneratedFile]
        do {
            files = try JavaScriptGenerator.files(for: contracts, regenerate: regenerate)
        } catch {
            console.err("bridgectl generate: cannot generate from \(contracts.origin): \(error)\n")
            return ExitCode.usage
        }

        if arguments.has("check") {
            let stale = GeneratedFiles.stale(files, in: directory)
            guard !stale.isEmpty else {
                console.out("\(directory): the \(files.count) files of the kit are current\n")
                return ExitCode.success
            }
            for file in stale { console.out("\(file)\n") }
            console.out("regenerate with: \(regenerate)\n")
            return ExitCode.invalid
        }
        do {
            let written = try GeneratedFiles.write(files, to: directory, replacingRuntime: arguments.has("update-runtime"))
            for path in written { console.out("wrote \(path)\n") }
            if written.isEmpty { console.out("\(directory): the \(files.count) files of the kit are already current\n") }
            return ExitCode.success
        } catch let error as GeneratedFiles.RuntimeDiffers {
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        } catch {
            console.err("bridgectl generate: cannot write to \(directory): \(FileSystem.describe(error))\n")
            return ExitCode.usage
        }
    }
}

extension GenerateCommandRunner {
    /// `generate aasa|assetlinks`: one JSON file from routes.json and the manifest's apps.
    func wellKnown(_ target: String, contracts: ContractSet, arguments: Arguments) -> Int32 {
        if arguments.has("update-runtime") {
            console.err("bridgectl generate: --update-runtime goes with generate js\n")
            return ExitCode.usage
        }
        let apps: AppIdentities
        do {
            guard let declared = try contracts.appIdentities() else {
                console.err("bridgectl generate: \(contracts.origin): manifest.json has no \"apps\" block (apps.ios teamID and bundleID, apps.android package and sha256CertFingerprints)\n")
                return ExitCode.usage
            }
            apps = declared
        } catch {
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        }
        let document: JSONValue
        if target == "aasa" {
            guard let ios = apps.ios else {
                console.err("bridgectl generate: manifest.json: /apps: no \"ios\" app (teamID, bundleID) for the AASA\n")
                return ExitCode.usage
            }
            document = UniversalLinkFiles.aasa(routes: contracts.routes, ios: ios)
        } else {
            guard let android = apps.android else {
                console.err("bridgectl generate: manifest.json: /apps: no \"android\" app (package, sha256CertFingerprints) for assetlinks.json\n")
                return ExitCode.usage
            }
            document = UniversalLinkFiles.assetLinks(android: android)
        }
        let text = document.prettyPrinted() + "\n"
        guard let path = arguments.value("out"), path != "-" else {
            if arguments.has("check") {
                console.err("bridgectl generate: --check needs --out FILE, the file to compare\n")
                return ExitCode.usage
            }
            console.out(text)
            return ExitCode.success
        }
        let current = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        if arguments.has("check") {
            guard current == text else {
                console.out("\(path): \(current == nil ? "missing" : "stale (differs from what the contracts generate)")\n")
                console.out("regenerate with: bridgectl generate \(target)\(arguments.value("contracts").map { " --contracts " + ShellWord.quoted($0) } ?? "") --out \(ShellWord.quoted(path))\n")
                return ExitCode.invalid
            }
            console.out("\(path): current\n")
            return ExitCode.success
        }
        if current == text {
            console.out("\(path): already current\n")
            return ExitCode.success
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            console.out("wrote \(path)\n")
            return ExitCode.success
        } catch {
            console.err("bridgectl generate: cannot write \(path): \(FileSystem.describe(error))\n")
            return ExitCode.usage
        }
    }
}

/// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+:=@%,".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// `bridgectl generate TARGET` as it was invoked, for generated headers and fix-it hints: the
/// contracts folder as given with --contracts, else the folder the set was loaded from (relative to
/// the working directory when inside it), and the output folder.
enum RegenerateCommand {
    static func text(_ target: String, contractsOption: String?, origin: String, out: String) -> String {
        var command = "bridgectl generate \(target)"
        if let folder = contractsOption ?? folder(of: origin) { command += " --contracts " + ShellWord.quoted(folder) }
        return command + " --out " + ShellWord.quoted(out)
    }

    /// A loaded set's folder as a relative path when it lies under the working directory; nil for a
    /// set not read from a folder (its origin is not an absolute path).
    static func folder(of origin: String) -> String? {
        guard origin.hasPrefix("/") else { return nil }
        let here = FileManager.default.currentDirectoryPath
        if origin == here { return "." }
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return origin.hasPrefix(prefix) ? String(origin.dropFirst(prefix.count)) : origin
    }
}
