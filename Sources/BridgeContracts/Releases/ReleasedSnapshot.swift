#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import SchemaCheck

/// contracts-released/: the manifest, routes and schemas of the app builds in the field, the
/// baseline the compatibility gate (`bridgectl diff contracts-released contracts`) compares
/// contracts/ with. It tells the same story as releases.json: it holds exactly the action
/// versions that supported builds take. `bridgectl release record` refreshes it from the
/// contracts a build ships with; `end-support` drops the versions no supported build takes any
/// more, so the gate stops protecting them and they may be removed.
public enum ReleasedSnapshot {
    /// The folder next to contracts/ by default.
    public static let defaultFolderName = "contracts-released"

    /// The snapshot of a contract folder's files (relative path -> text; fixtures and releases.json
    /// are left out), its manifest keeping only the versions in `protected`.
    public static func files(from contractFiles: [String: String], protecting protected: [String: [Int]]) throws(ContractError) -> [String: String] {
        var snapshot: [String: String] = [:]
        for (path, text) in contractFiles where path == "manifest.json" || path == "routes.json" || path.hasPrefix("schemas/") {
            snapshot[path] = text
        }
        guard let manifest = snapshot["manifest.json"] else {
            throw ContractError(file: "manifest.json", message: "missing: there is nothing to snapshot")
        }
        snapshot["manifest.json"] = try pruned(manifest: manifest, keeping: protected)
        return snapshot
    }

    /// The manifest text without the action versions `keeping` does not list (an action left with
    /// none is removed). Unchanged text when nothing goes, so a fresh snapshot is a byte copy.
    public static func pruned(manifest text: String, keeping protected: [String: [Int]]) throws(ContractError) -> String {
        let document: JSONValue
        do {
            document = try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ContractError(file: "manifest.json", message: "not valid JSON: \(error)")
        }
        guard case .object(var root) = document, case .object(let actions)? = root["actions"] else {
            throw ContractError(file: "manifest.json", pointer: "/actions", message: "expected an object of actions")
        }
        var kept = JSONObject()
        var changed = false
        for (name, value) in actions {
            guard case .object(var action) = value, case .object(let versions)? = action["versions"] else {
                kept[name] = value
                continue
            }
            let keep = Set(protected[name] ?? [])
            var keptVersions = JSONObject()
            for (key, version) in versions {
                if let number = Int(key), keep.contains(number) { keptVersions[key] = version } else { changed = true }
            }
            guard !keptVersions.isEmpty else { continue }
            action["versions"] = .object(keptVersions)
            kept[name] = .object(action)
        }
        guard changed else { return text }
        root["actions"] = .object(kept)
        return JSONValue.object(root).prettyPrinted() + "\n"
    }

    /// Where the snapshot and releases.json tell different stories: a version a supported build
    /// takes that the snapshot does not hold (the gate would not protect it), or a version the
    /// snapshot holds that no supported build takes (recorded without a release).
    public static func inconsistencies(catalog: ReleaseCatalog, snapshot: BridgeManifest, folder: String) -> [String] {
        var problems: [String] = []
        for release in catalog.supported {
            for entry in release.actions {
                for version in entry.versions where snapshot.action(named: entry.action)?.contract(version: version) == nil {
                    problems.append("\(release.build) is supported and takes \(entry.action) v\(version), which \(folder)/ does not hold: the compatibility gate does not protect it (record releases with bridgectl release record)")
                }
            }
        }
        let protected = catalog.protectedVersions
        for action in snapshot.actions {
            for contract in action.versions where !(protected[action.name] ?? []).contains(contract.version) {
                problems.append("\(folder)/ holds \(action.name) v\(contract.version), which no supported build in \(ReleaseCatalog.fileName) takes: record the build that ships it (bridgectl release record), or end-support drops it")
            }
        }
        return problems
    }

    // MARK: - Files on disk

    /// manifest.json, routes.json and schemas/*.json of a folder, by relative path.
    public static func read(folder: String) throws(ContractError) -> [String: String] {
        var files: [String: String] = [:]
        for name in ["manifest.json", "routes.json"] {
            guard let text = FileSystem.text(atPath: folder + "/" + name) else {
                throw ContractError(file: folder + "/" + name, message: "cannot be read")
            }
            files[name] = text
        }
        let schemas = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/schemas")) ?? []
        for name in schemas where name.hasSuffix(".json") {
            guard let text = FileSystem.text(atPath: folder + "/schemas/" + name) else {
                throw ContractError(file: folder + "/schemas/" + name, message: "cannot be read")
            }
            files["schemas/" + name] = text
        }
        return files
    }

    /// Writes the snapshot into `folder` (created when missing): each file replaced atomically,
    /// schema files the snapshot no longer has removed; other files (its README) are left alone.
    /// Returns the relative paths that changed.
    public static func write(_ snapshot: [String: String], to folder: String) throws(FileWriteError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: folder + "/schemas", withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(path: folder + "/schemas", reason: FileSystem.describe(error))
        }
        var changed: [String] = []
        for path in snapshot.keys.sorted() where FileSystem.text(atPath: folder + "/" + path) != snapshot[path] {
            try FileSystem.replaceAtomically(atPath: folder + "/" + path, contents: snapshot[path]!)
            changed.append(path)
        }
        let present = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/schemas")) ?? []
        for name in present.sorted() where name.hasSuffix(".json") && snapshot["schemas/" + name] == nil {
            do {
                try FileManager.default.removeItem(atPath: folder + "/schemas/" + name)
            } catch {
                throw FileWriteError(path: folder + "/schemas/" + name, reason: FileSystem.describe(error))
            }
            changed.append("schemas/" + name + " (removed)")
        }
        return changed
    }
}
