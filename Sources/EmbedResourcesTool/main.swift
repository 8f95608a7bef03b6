import Foundation

// Usage: EmbedResourcesTool [--regenerate COMMAND] FOLDER OUTPUT.swift SYMBOL [FILE...]
// Writes `public enum SYMBOL { public static let files: [String: String] }` mapping each file's
// path relative to FOLDER (or only the FILEs named, relative to FOLDER) to its UTF-8 text, as
// escaped string literals: the text then lies in the binary ready to use, with nothing to decode
// at start-up (bridgectl validate reads the contracts on every run). Sorted paths keep the output
// deterministic. With --regenerate, the header names COMMAND as the way to regenerate the file:
// for a committed source (SchemaCheck's meta-schemas, so that a plugin's tool can link SchemaCheck;
// SwiftPM runs no build-tool plugin for a plugin tool's dependencies).

/// Everything lives in this function's scope, so it is released before the process exits and
/// a LeakSanitizer build of the tool (swift build --sanitize=address) reports nothing.
func embed(_ given: [String]) -> Int32 {
    let regenerate = given.count > 2 && given[1] == "--regenerate" ? given[2] : nil
    let arguments = regenerate == nil ? given : [given[0]] + given[3...]
    guard arguments.count >= 4 else {
        FileHandle.standardError.write(Data("usage: EmbedResourcesTool [--regenerate COMMAND] FOLDER OUTPUT SYMBOL [FILE...]\n".utf8))
        return 2
    }
    let folder = URL(fileURLWithPath: arguments[1]).standardizedFileURL
    let output = URL(fileURLWithPath: arguments[2])
    let symbol = arguments[3]

    let only = arguments.count > 4 ? Set(arguments[4...]) : nil
    var entries: [(String, Data)] = []
    if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            if let only, !only.contains(relative) { continue }
            guard let data = try? Data(contentsOf: url) else {
                FileHandle.standardError.write(Data("EmbedResourcesTool: cannot read \(url.path)\n".utf8))
                return 1
            }
            entries.append((relative, data))
        }
    }
    entries.sort { $0.0 < $1.0 }
    for name in (only ?? []).sorted() where !entries.contains(where: { $0.0 == name }) {
        FileHandle.standardError.write(Data("EmbedResourcesTool: \(folder.path)/\(name) does not exist\n".utf8))
        return 1
    }

    var source = regenerate.map {
        "// Generated from \(folder.lastPathComponent)/ by EmbedResourcesTool. Do not edit: change \(folder.lastPathComponent)/, then\n"
            + "// regenerate with `\($0)` (`make generate-check` fails while this file is stale).\n\n"
    } ?? "// Generated at build time by the EmbedResources plugin from \(folder.lastPathComponent)/. Do not edit.\n\n"
    source += "public enum \(symbol) {\n"
    source += "    /// Relative path -> file contents.\n"
    source += "    public static let files: [String: String] = [\n"
    for (path, data) in entries {
        // String(validating:) keeps a byte-order mark, so the contracts linter sees what is on disk.
        guard let text = String(validating: data, as: UTF8.self) else {
            FileHandle.standardError.write(Data("EmbedResourcesTool: \(path) is not UTF-8 text\n".utf8))
            return 1
        }
        source += "        \(stringLiteral(path)): \(stringLiteral(text)),\n"
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

/// A one-line Swift string literal whose value is exactly `text` (line endings included).
func stringLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

exit(embed(CommandLine.arguments))
