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
let generateCommand = Command(CommandSpec(
    name: "generate",
    summary: "generate the web-side JS kit (generate js), Swift payload types (generate swift), or the AASA / assetlinks.json files (generate aasa|assetlinks)",
    forms: [
        UsageForm("js", options: ["contracts", "out", "check", "update-runtime"]),
        UsageForm("swift", options: ["contracts", "out", "check"], required: ["out"]),
        UsageForm("aasa|assetlinks", options: ["contracts", "out", "check"]),
    ],
    about: """
    Writes the web team's kit. From the contracts (manifest, routes, schemas):
      DIR/bridge.js                 the ES module the event pages import (createBridge), with
                                    the contract table
      DIR/bridge.d.ts               one typed function per action and version, payload types
                                    converted from the JSON Schemas
      DIR/testing/fake-host.js      a fake native host for the web team's tests (+ .d.ts)
    and, as built into bridgectl from the repository's js/src (the same for every contract set):
      DIR/src/bridge-runtime.js     the shim's runtime, which bridge.js imports (+ .d.ts)
      DIR/src/fake-host.js          the fake host's runtime (+ .d.ts)
    generate swift writes one Codable, Sendable, Equatable struct per action version (envelope
    and payload members, enums, the shared campaign type) and ContractTypes.swift, the list of
    them; the package's are in Sources/BridgeContractTypes. A schema part Swift cannot express
    (oneOf, a list of types, an open object...) is an error naming its JSON Pointer.
    The output is deterministic (manifest order, no dates), so it can be committed and checked.
    Files that are already current are not rewritten.

    generate info-plist prints the LSApplicationQueriesSchemes fragment for the app's Info.plist
    (bridgectl generate info-plist --help).

    generate aasa writes the apple-app-site-association (applinks components for the manifest's
    apps.ios teamID.bundleID) that opens every route of routes.json in the app and nothing else
    (a parameter is one non-empty path segment; deeper paths are excluded); generate assetlinks
    writes assetlinks.json for apps.android (package, sha256CertFingerprints). Standard output,
    or --out FILE; with --check, exit 1 when FILE differs. The committed copies live in the
    contracts folder's well-known/ (`bridgectl lint` checks what they open); deploy them at
    https://HOST/.well-known/apple-app-site-association (no .json) and .../assetlinks.json.
    """,
    options: [
        ContractsOption.option,
        .value("out", "DIR", help: "where to write them (js: a folder, default js/ beside the contracts folder in use; aasa|assetlinks: a FILE, default standard output)"),
        .flag("check", help: """
            write nothing; exit 1 naming each file that is missing or differs (run
            it in CI so a contract change cannot ship without the regenerated kit)
            """),
        .flag("update-runtime", help: """
            replace DIR/src files that differ from the runtime built into bridgectl
            (without it they are left alone and the command fails: in the
            repository they are the source, and a bridgectl built before an edit
            of js/src must not overwrite it)
            """),
    ],
    footer: """
    exit: 0 written or current; 1 --check found stale or missing files; 2 usage error,
          unreadable contracts, a schema the TypeScript generator does not support, a runtime
          file that differs (without --update-runtime), or a file that cannot be written.
    """
), subcommands: [infoPlistCommand], run: { arguments, console in try GenerateCommandRunner(console: console).run(arguments) })

private struct GenerateCommandRunner {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        if arguments.positional == ["swift"] { return try SwiftTypesGenerateCommand(console: console).run(arguments) }
        guard arguments.positional.count == 1, ["js", "aasa", "assetlinks"].contains(arguments.positional[0]) else {
            throw UsageError("expected one target, js, swift, aasa, assetlinks or info-plist: bridgectl generate js|swift|aasa|assetlinks|info-plist [--out ...] [--check]")
        }
        let contracts = try ContractsOption.load(arguments)
        if arguments.positional[0] != "js" {
            return try wellKnown(arguments.positional[0], contracts: contracts, arguments: arguments)
        }
        // Beside the contracts folder in use, never in a folder of bridgectl's own.
        let directory = arguments.value("out") ?? Self.besideContracts("js", arguments)
        // The fix-it of --check runs from here; the headers name the command from the project
        // folder, so they are the same whichever folder generates or checks them.
        let regenerate = RegenerateCommand.text("js", contractsOption: arguments.value("contracts"), origin: contracts.origin, out: directory)
        let header = RegenerateCommand.header("js", contracts: try ContractsOption.locate(arguments).get().directory, out: directory)
        let files: [GeneratedFile]
        do {
            files = try JavaScriptGenerator.files(for: contracts, regenerate: header)
        } catch {
            throw UsageError("cannot generate from \(contracts.origin): \(error)")
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
            throw error
        } catch {
            throw UsageError("cannot write to \(directory): \(FileSystem.describe(error))")
        }
    }
}

extension GenerateCommandRunner {
    /// `name` in the folder that holds the contracts folder in use (`js` for ./contracts).
    static func besideContracts(_ name: String, _ arguments: Arguments) -> String {
        switch ContractsOption.projectFolder(arguments) {
        case nil, ".": return name
        case "/": return "/" + name
        case let folder?: return folder + "/" + name
        }
    }

    /// `generate aasa|assetlinks`: one JSON file from routes.json and the manifest's apps.
    func wellKnown(_ target: String, contracts: ContractSet, arguments: Arguments) throws -> Int32 {
        if arguments.has("update-runtime") {
            throw UsageError("--update-runtime goes with generate js")
        }
        guard let apps = try contracts.appIdentities() else {
            throw UsageError("\(contracts.origin): manifest.json has no \"apps\" block (apps.ios teamID and bundleID, apps.android package and sha256CertFingerprints)")
        }
        let document: JSONValue
        if target == "aasa" {
            guard let ios = apps.ios else {
                throw UsageError("manifest.json: /apps: no \"ios\" app (teamID, bundleID) for the AASA")
            }
            document = UniversalLinkFiles.aasa(routes: contracts.routes, ios: ios)
        } else {
            guard let android = apps.android else {
                throw UsageError("manifest.json: /apps: no \"android\" app (package, sha256CertFingerprints) for assetlinks.json")
            }
            document = UniversalLinkFiles.assetLinks(android: android)
        }
        let text = document.prettyPrinted() + "\n"
        guard let path = arguments.value("out"), path != "-" else {
            if arguments.has("check") {
                throw UsageError("--check needs --out FILE, the file to compare")
            }
            console.out(text)
            return ExitCode.success
        }
        let current = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        if arguments.has("check") {
            guard current == text else {
                console.out("\(path): \(current == nil ? "missing" : "stale (differs from what the contracts generate)")\n")
                console.out("regenerate with: bridgectl generate \(target)\(ContractsOption.flagText(arguments)) --out \(ShellWord.quoted(path))\n")
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
            throw UsageError("cannot write \(path): \(FileSystem.describe(error))")
        }
    }
}

/// `bridgectl generate TARGET` in two forms. The fix-it hint of --check is the command as it runs
/// from the working folder. The headers of generated files name it as it runs from the project
/// folder (the one holding the contracts folder), whatever folder it was run from: a header that
/// depended on the working folder would make a later --check from elsewhere call every file stale.
enum RegenerateCommand {
    /// The command as invoked: the contracts folder as given with --contracts, else the folder the
    /// set was loaded from (relative to the working directory when inside it), and the output folder.
    static func text(_ target: String, contractsOption: String?, origin: String, out: String) -> String {
        var command = "bridgectl generate \(target)"
        if let folder = contractsOption ?? folder(of: origin) { command += " --contracts " + ShellWord.quoted(folder) }
        return command + " --out " + ShellWord.quoted(out)
    }

    /// The command for headers: `--contracts` names the contracts folder and `--out` the output
    /// folder, both relative to the project folder (`--contracts contracts --out js`). An output
    /// that shares no folder but / with the project stays absolute.
    static func header(_ target: String, contracts: String, out: String,
                       workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let contractsPath = ProjectPath.absolute(contracts, in: workingDirectory)
        let project = ProjectPath.parent(of: contractsPath)
        let outPath = ProjectPath.absolute(out, in: workingDirectory)
        return "bridgectl generate \(target) --contracts " + ShellWord.quoted(ProjectPath.relative(contractsPath, from: project))
            + " --out " + ShellWord.quoted(ProjectPath.relative(outPath, from: project))
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

/// Paths as lists of folder names from /, with `.` and `..` resolved by text (no symbolic links
/// followed: the same text gives the same header on every machine).
enum ProjectPath {
    static func absolute(_ path: String, in workingDirectory: String) -> [String] {
        var components: [String] = []
        let text = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        for name in text.split(separator: "/") {
            switch name {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(name))
            }
        }
        return components
    }

    static func parent(of path: [String]) -> [String] { Array(path.dropLast()) }

    /// `path` from `base`: `js`, `../web/js`, `.`; absolute when the two share no folder but /.
    static func relative(_ path: [String], from base: [String]) -> String {
        let shared = zip(path, base).prefix { $0 == $1 }.count
        guard shared > 0 || base.isEmpty else { return "/" + path.joined(separator: "/") }
        let components = Array(repeating: "..", count: base.count - shared) + path.dropFirst(shared)
        return components.isEmpty ? "." : components.joined(separator: "/")
    }
}
