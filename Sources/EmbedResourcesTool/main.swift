import Foundation

// Usage: EmbedResourcesTool FOLDER OUTPUT.swift SYMBOL
// Writes `public enum SYMBOL { public static let files: [String: String] }` mapping each file's
// path relative to FOLDER to its UTF-8 text. Base64 keeps the literal cheap for the compiler and
// immune to quoting; sorted paths keep the output deterministic.

/// Everything lives in this function's scope, so it is released before the process exits and
/// a LeakSanitizer build of the tool (swift build --sanitize=address) reports nothing.
func embed(_ arguments: [String]) -> Int32 {
    guard arguments.count == 4 else {
        FileHandle.standardError.write(Data("usage: EmbedResourcesTool FOLDER OUTPUT SYMBOL\n".utf8))
        return 2
    }
    let folder = URL(fileURLWithPath: arguments[1]).standardizedFileURL
    let output = URL(fileURLWithPath: arguments[2])
    let symbol = arguments[3]

    var entries: [(String, Data)] = []
    if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            guard let data = try? Data(contentsOf: url) else {
                FileHandle.standardError.write(Data("EmbedResourcesTool: cannot read \(url.path)\n".utf8))
                return 1
            }
            entries.append((relative, data))
        }
    }
    entries.sort { $0.0 < $1.0 }

    var source = "// Generated at build time by the EmbedResources plugin from \(folder.lastPathComponent)/. Do not edit.\n"
    source += "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n\n"
    source += "public enum \(symbol) {\n"
    source += "    /// Relative path -> file contents, decoded once on first use.\n"
    source += "    public static let files: [String: String] = {\n"
    source += "        var decoded: [String: String] = [:]\n"
    source += "        for (path, encoded) in encodedFiles {\n"
    source += "            if let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8) {\n"
    source += "                decoded[path] = text\n"
    source += "            }\n"
    source += "        }\n"
    source += "        return decoded\n"
    source += "    }()\n\n"
    source += "    private static let encodedFiles: [(String, String)] = [\n"
    for (path, data) in entries {
        let escapedPath = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        source += "        (\"\(escapedPath)\", \"\(data.base64EncodedString())\"),\n"
    }
    source += "    ]\n}\n"

    do {
        try Data(source.utf8).write(to: output, options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("EmbedResourcesTool: cannot write \(output.path): \(error)\n".utf8))
        return 1
    }
    return 0
}

exit(embed(CommandLine.arguments))
