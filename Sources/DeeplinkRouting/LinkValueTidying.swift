/// What the link tools notice about one value, and the words they use. A value given to the
/// builder is tidied before it is checked; a value read from a link is only composed (NFC) and
/// warned about. The web side (js/src/link-rules.js) uses the same steps and the same sentences,
/// so the catalog's link builder and `bridgectl link build` print the same warnings.
enum LinkValueTidying {
    static let whitespaceRemoved = "surrounding whitespace removed"
    static let composedForm = "decomposed Unicode (NFD) written in composed form (NFC), so it matches the same text typed elsewhere"
    static let literalPlus = "\"+\" is read as a literal plus; if a space was meant, use %20"

    static func control(_ scalar: Unicode.Scalar) -> String {
        "contains a control character (\(LinkText.codePoint(scalar.value)))"
    }

    /// The builder's warning for a value that looks percent-encoded already.
    static func alreadyEncoded(_ value: String) -> String {
        var message = LinkText.shown(value) + " looks percent-encoded already, and it is encoded again (% becomes %25)"
        if let plain = plainText(value) { message += "; if you meant " + LinkText.shown(plain) + ", give that instead" }
        return message
    }

    /// The decoded text of a value that looks encoded, when it decodes to something different.
    static func plainText(_ value: String) -> String? {
        guard case .success(let decoded) = PercentEncoding.decode(value), decoded != value else { return nil }
        return decoded
    }

    /// A value given to the builder: trimmed, composed, then warned about (or, with `strict`,
    /// refused when it looks encoded already).
    static func tidy(_ given: String, field: String, strict: Bool) throws(LinkBuildError) -> (value: String, warnings: [DeeplinkWarning]) {
        guard !given.isEmpty else { return (given, []) }
        var warnings: [DeeplinkWarning] = []
        var value = given
        let trimmed = LinkText.trimmed(value)
        if trimmed.removed {
            value = trimmed.text
            warnings.append(DeeplinkWarning(field: field, message: whitespaceRemoved))
        }
        let composed = LinkText.composed(value)
        if !composed.utf8.elementsEqual(value.utf8) {
            value = composed
            warnings.append(DeeplinkWarning(field: field, message: composedForm))
        }
        if let scalar = LinkText.firstControl(value) {
            warnings.append(DeeplinkWarning(field: field, message: control(scalar)))
        }
        if PercentEncoding.looksEncoded(value) {
            if strict { throw .alreadyEncoded(field: field, value: value, plain: plainText(value)) }
            warnings.append(DeeplinkWarning(field: field, message: alreadyEncoded(value)))
        }
        return (value, warnings)
    }

    /// A value read from a link (already percent-decoded): composed, and warned about for a raw
    /// "+" in the link, a control character and a value that still looks encoded.
    static func read(_ decoded: String, field: String, hadPlus: Bool, warnings: inout [DeeplinkWarning]) -> String {
        if hadPlus { warnings.append(DeeplinkWarning(field: field, message: LinkText.shown(decoded) + ": " + literalPlus)) }
        var value = decoded
        let composed = LinkText.composed(value)
        if !composed.utf8.elementsEqual(value.utf8) {
            value = composed
            warnings.append(DeeplinkWarning(field: field, message: composedForm))
        }
        if let scalar = LinkText.firstControl(value) {
            warnings.append(DeeplinkWarning(field: field, message: control(scalar)))
        }
        if PercentEncoding.looksEncoded(value) { warnings.append(.doubleEncoded(field, value)) }
        return value
    }
}
