import BridgeContracts
import JSONCore

/// testing/releases.js and its types: the app builds of releases.json, so the fake host acts as
/// any of them (`installFakeHost({ release: "ios@5.12.0" })`) and TypeScript knows their names.
/// Only the test kit carries them: a page's bundle never does.
struct ReleasesEmitter {
    let header: Header
    let catalog: ReleaseCatalog

    init(contracts: ContractSet, header: Header) throws(CodegenError) {
        self.header = header
        do {
            catalog = try contracts.releaseCatalog()
        } catch {
            throw CodegenError(file: error.file, pointer: error.pointer, message: error.message)
        }
    }

    private var sorted: [AppRelease] { catalog.releases.sorted { $0.build < $1.build } }

    var script: String {
        let table = JSONValue.array(sorted.map(Self.entry))
        return header.comment(for: "testing/releases.js")
            + "// The app builds of contracts/releases.json (bridgectl release record): the fake host acts as\n"
            + "// any of them with installFakeHost({ release: \"ios@5.12.0\" }).\n\n"
            + "import { deepFreeze } from \"../\(JavaScriptGenerator.runtimeFolder)/bridge-runtime.js\";\n\n"
            + "/** Each build: platform, version, status (supported, support-ended), share (percent of sessions, or null), actions, and events when recorded. */\n"
            + "export const RELEASES = deepFreeze(" + JavaScriptLiteral.write(table) + ");\n"
    }

    /// One build; `events` only when releases.json records them (a build recorded before events
    /// existed sends none).
    private static func entry(_ release: AppRelease) -> JSONValue {
        var object = JSONObject([
            ("platform", .string(release.build.platform.rawValue)),
            ("version", .string(release.build.version.description)),
            ("status", .string(release.status.rawValue)),
            ("share", release.share.map { $0.rounded() == $0 ? .integer(Int64($0)) : .number($0) } ?? .null),
            ("actions", versionLists(release.actions)),
        ])
        if !release.events.isEmpty { object["events"] = versionLists(release.events) }
        return .object(object)
    }

    private static func versionLists(_ lists: [ActionVersions]) -> JSONValue {
        .object(JSONObject(lists.map { ($0.action, .array($0.versions.map { .integer(Int64($0)) })) }))
    }

    var declarations: String {
        let names = sorted.map { JSONValue.string($0.build.reference).serialized() }
        return header.comment(for: "testing/releases.d.ts") + "\n"
            + "import type { AppRelease } from \"../\(JavaScriptGenerator.runtimeFolder)/fake-host.js\";\n\n"
            + "/** The app builds of releases.json by name, for installFakeHost({ release }). */\n"
            + "export type ReleaseName = " + (names.isEmpty ? "never" : names.joined(separator: " | ")) + ";\n"
            + "export declare const RELEASES: ReadonlyArray<AppRelease>;\n"
    }
}
