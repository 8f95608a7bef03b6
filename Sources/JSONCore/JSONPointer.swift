/// RFC 6901 helpers.
public enum JSONPointer {
    /// The unescaped reference tokens, or nil when the text is not a pointer.
    public static func tokens(of pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                } else {
                    token.append(character)
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    public static func escape(_ token: String) -> String {
        // Most tokens need no escaping, and this check keeps `bridgectl validate`'s start-up
        // short (every contract field read builds a pointer).
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    public static func join(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// The array index a token names: decimal digits without a leading zero (so not `-`).
    public static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.allSatisfy(\.isASCII), token.allSatisfy(\.isNumber) else { return nil }
        if token.count > 1 && token.hasPrefix("0") { return nil }
        return Int(token)
    }
}
