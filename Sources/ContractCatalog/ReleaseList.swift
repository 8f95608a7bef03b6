import BridgeContracts
import JSONCore

/// The app builds in the field, from contracts/releases.json when the contract set has one:
/// `{"releases": [{"platform", "version", "status"?, "share"?, "actions": {"apply": [1, 2]}}]}`.
/// The catalog shows which builds take each action version. A file of another shape is shown as
/// a problem on the index, not guessed at.
struct ReleaseList {
    struct Build: Equatable {
        let platform: String
        let version: String
        /// "supported" unless stated; "support-ended" builds are shown struck through.
        let status: String
        let share: String?
        let actions: [String: [Int]]
    }

    let builds: [Build]

    /// nil when the contract set has no releases.json; a failure names what is wrong with it.
    static func read(_ contracts: ContractSet) -> Result<ReleaseList, CatalogError>? {
        guard let text = contracts.files["releases.json"] else { return nil }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            return .failure(CatalogError("releases.json is not valid JSON: \(error)"))
        }
        guard let entries = document["releases"]?.arrayValue else {
            return .failure(CatalogError("releases.json has no \"releases\" array"))
        }
        var builds: [Build] = []
        for (index, entry) in entries.enumerated() {
            guard let platform = entry["platform"]?.stringValue, let version = entry["version"]?.stringValue,
                  let actions = entry["actions"]?.objectValue else {
                return .failure(CatalogError("releases.json: /releases/\(index) needs platform, version and actions"))
            }
            var versions: [String: [Int]] = [:]
            for (action, list) in actions {
                guard let numbers = list.arrayValue?.compactMap({ $0.integerValue.map(Int.init) }), numbers.count == list.arrayValue?.count else {
                    return .failure(CatalogError("releases.json: /releases/\(index)/actions/\(action) must list version numbers"))
                }
                versions[action] = numbers
            }
            let share: String? = entry["share"].flatMap { value in
                switch value {
                case .integer, .number: return value.serialized() + "%"
                default: return nil
                }
            }
            builds.append(Build(platform: platform, version: version, status: entry["status"]?.stringValue ?? "supported",
                                share: share, actions: versions))
        }
        return .success(ReleaseList(builds: builds))
    }

    func builds(taking action: String, version: Int) -> [Build] {
        builds.filter { $0.actions[action]?.contains(version) == true }
    }

    static func platformName(_ platform: String) -> String {
        switch platform.lowercased() {
        case "ios": return "iOS"
        case "android": return "Android"
        default: return platform
        }
    }
}
