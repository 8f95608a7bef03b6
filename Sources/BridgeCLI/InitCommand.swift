import BridgeContracts
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `bridgectl init [DIR]`: a new app's first contract set, which lint and check pass.
let initCommand = Command(CommandSpec(
    name: "init",
    summary: "start a contract set for your app: DIR/contracts with one route, one action and its fixtures",
    forms: [
        UsageForm("[DIR]", options: ["bridge", "web-base-url", "scheme", "team-id", "bundle-id", "android-package", "cert-fingerprint"],
                  required: ["bridge", "web-base-url", "scheme"]),
    ],
    about: """
    Writes DIR/contracts (DIR defaults to the current folder): manifest.json, routes.json with
    one route (eventPage, /event/:slug), the envelope and campaign schemas with $id under your
    domain, one example action (open_event v1) with a valid and an invalid fixture, empty
    releases.json and accepted-changes.json, and, when app ids are given, the well-known files
    (apple-app-site-association, assetlinks.json). Right after it, `bridgectl lint` and
    `bridgectl check` pass from DIR without flags: every command finds the nearest contracts/.
    """,
    options: [
        .value("bridge", "NAME", help: "the page's bridge object, window.NAME: a JavaScript identifier"),
        .value("web-base-url", "URL", help: """
            the site's origin, https://HOST[:PORT]: the allowed origin, the Universal Link host
            and the base of every link
            """),
        .value("scheme", "SCHEME", help: """
            the app's custom URL scheme (RFC 3986: a letter, then letters, digits, "+", "-",
            "."), e.g. myapp
            """),
        .value("team-id", "ID", help: "the iOS app's 10-character team id (with --bundle-id)"),
        .value("bundle-id", "ID", help: "the iOS app's reverse-DNS bundle id (with --team-id)"),
        .value("android-package", "NAME", help: "the Android app's package (with --cert-fingerprint)"),
        .value("cert-fingerprint", "SHA256", help: "the Android signing certificate's SHA-256 (32 upper-case hex bytes joined by \":\")"),
    ],
    footer: """
    It never overwrites: when DIR/contracts exists it writes nothing. The files are written to a
    temporary folder in DIR and renamed into place, so a failure leaves nothing half-written.

    exit: 0 written; 2 usage error, an invalid input, an existing DIR/contracts, or a folder that
          cannot be written.
    """
), run: { arguments, console in try InitCommandRunner(console: console).run(arguments) })

struct InitCommandRunner {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positional.count <= 1 else {
            throw UsageError("give at most one folder (got \(arguments.positional.count))")
        }
        for required in ["bridge", "web-base-url", "scheme"] where arguments.value(required) == nil {
            throw UsageError("--\(required) is required (bridgectl init --help)")
        }
        let template = try ContractTemplate(
            bridge: arguments.value("bridge")!, webBaseURL: arguments.value("web-base-url")!, scheme: arguments.value("scheme")!,
            teamID: arguments.value("team-id"), bundleID: arguments.value("bundle-id"),
            androidPackage: arguments.value("android-package"), certFingerprint: arguments.value("cert-fingerprint"))
        let folder = arguments.positional.first ?? "."
        // "contracts" for the current folder, "DIR/contracts" otherwise: paths as the user would type them.
        let parent = folder == "." ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        let target = parent + "contracts"
        guard FileSystem.status(atPath: folder)?.isDirectory == true else {
            throw UsageError("\(folder): no such folder (create it first)")
        }
        // lstat-like check: a dangling symbolic link named contracts is something too.
        if FileSystem.status(atPath: target) != nil || (try? FileManager.default.destinationOfSymbolicLink(atPath: target)) != nil {
            throw UsageError("\(target) already exists; init never overwrites (remove it, or init another folder)")
        }
        let files: [String: String]
        do {
            files = try template.files()
        } catch {
            throw UsageError("the template does not load: \(error)")
        }
        do {
            try Self.write(files, to: target, staging: parent + ".contracts.init-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        } catch {
            throw UsageError("\(target): cannot be written: \(FileSystem.describe(error)); nothing was written")
        }
        for path in files.keys.sorted() { console.out("wrote \(target)/\(path)\n") }
        let next = folder == "." ? "" : "cd \(ShellWord.quoted(folder)) && "
        console.out("next: \(next)bridgectl lint && bridgectl check (docs/adopting.md)\n")
        return ExitCode.success
    }

    /// Writes the set into the hidden temporary folder `temporary` beside `target`, then renames it to `target`:
    /// the set appears whole or not at all.
    static func write(_ files: [String: String], to target: String, staging temporary: String) throws {
        let manager = FileManager.default
        let staging = URL(fileURLWithPath: temporary)
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: false)
            for (path, text) in files {
                let file = staging.appendingPathComponent(path)
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            try manager.moveItem(atPath: temporary, toPath: target)
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
    }
}
