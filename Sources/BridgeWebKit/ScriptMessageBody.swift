import Foundation
import JSONCore

/// A message body as WebKit hands it to the app (`WKScriptMessage.body`): JSON text when the page
/// posted a string, otherwise the JavaScript value already converted to Foundation: `NSDictionary`,
/// `NSArray`, `NSString`, `NSNumber` (booleans included), `NSNull` (and `NSDate` for a JS `Date`,
/// which is not JSON). Swift's own `String`, `Bool`, `Int`, `Double`, arrays and dictionaries are
/// taken too (tests, Android bridges, hand-made values).
///
/// `jsonValue(of:limits:)` turns the Foundation tree into a `JSONValue` without JSONSerialization
/// (which raises an Objective-C exception on values that are not JSON). The bridge's limits apply
/// to the tree as they apply to bytes:
///
/// - **size**: the length in UTF-8 bytes of the tree's canonical serialisation (compact, members
///   in sorted key order, strings escaped as `JSONValue.serialized()` escapes them, a number as
///   JavaScript's `JSON.stringify` writes it). It is counted while converting, and conversion stops
///   as soon as the count passes `maxMessageBytes`, so a huge or cyclic tree is never walked whole.
///   (On Linux, swift-corelibs-foundation itself bridges a dictionary's values to Swift whenever one
///   is read, so there a tree is copied once by Foundation, and a cyclic one cannot be read at all.)
/// - **depth**: arrays and objects nested more than `maxDepth` deep (the top-level container is
///   depth 1, as in the parser).
///
/// What is not JSON is refused with the JSON Pointer of the value: a dictionary key that is not a
/// string, NaN or an infinite number, a `Date` or any other object.
public enum ScriptMessageBody {
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int
        public var maxDepth: Int

        public init(maxBytes: Int, maxDepth: Int) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    /// Why a Foundation value is not a bridge message; `pointer` is where (RFC 6901, "" for the root).
    public struct ConversionError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case tooLarge, tooDeep, nonStringKey, notANumber, unsupportedType
        }

        public let kind: Kind
        public let pointer: String
        public let message: String

        public var description: String { pointer.isEmpty ? message : "\(pointer): \(message)" }
    }

    /// The converted value and its canonical serialisation (whose length the size limit measured).
    public struct Converted: Sendable, Equatable {
        public let value: JSONValue
        public let canonicalText: String
    }

    /// Converts a Foundation tree, measuring and bounding it as it goes (see the type's summary).
    public static func convert(_ body: Any, limits: Limits) throws(ConversionError) -> Converted {
        var converter = TreeConverter(limits: limits)
        let value = try converter.convert(body, pointer: "", depth: 0)
        // The converter adds each object's members in key order, so the plain text is canonical.
        return Converted(value: value, canonicalText: value.serialized())
    }
}

/// One walk over the tree: builds the JSONValue and counts its canonical serialisation's bytes.
private struct TreeConverter {
    let limits: ScriptMessageBody.Limits
    private(set) var size = 0

    init(limits: ScriptMessageBody.Limits) {
        self.limits = limits
    }

    typealias Failure = ScriptMessageBody.ConversionError

    private mutating func count(_ bytes: Int, at pointer: String) throws(Failure) {
        size += bytes
        if size > limits.maxBytes {
            throw Failure(kind: .tooLarge, pointer: pointer,
                          message: "the message is larger than the limit of \(limits.maxBytes) bytes (as canonical JSON)")
        }
    }

    mutating func convert(_ value: Any, pointer: String, depth: Int) throws(Failure) -> JSONValue {
        // Strings first: on Linux `NSString as? String` works, and a String is never a number.
        if let text = value as? String {
            try count(JSONValue.string(text).serialized().utf8.count, at: pointer)
            return .string(text)
        }
        if value is NSNull {
            try count(4, at: pointer)
            return .null
        }
        // Never `as? Bool`: `NSNumber(1) as? Bool` succeeds. Swift's Bool, Int and Double bridge to
        // NSNumber (a Bool to the boolean kind), and isFoundationBoolean tells the two apart.
        if let number = value as? NSNumber {
            let converted = try Self.number(number, pointer: pointer)
            try count(converted.serialized().utf8.count, at: pointer)
            return converted
        }
        if let dictionary = value as? NSDictionary {
            return try object(dictionary, pointer: pointer, depth: depth + 1)
        }
        if let array = value as? NSArray {
            return try self.array(array, pointer: pointer, depth: depth + 1)
        }
        throw Failure(kind: .unsupportedType, pointer: pointer,
                      message: "a \(Self.typeName(of: value)) is not a JSON value")
    }

    private mutating func enter(_ depth: Int, pointer: String) throws(Failure) {
        if depth > limits.maxDepth {
            throw Failure(kind: .tooDeep, pointer: pointer, message: "nesting deeper than \(limits.maxDepth) levels")
        }
    }

    private mutating func object(_ dictionary: NSDictionary, pointer: String, depth: Int) throws(Failure) -> JSONValue {
        try enter(depth, pointer: pointer)
        var members: [(String, Any)] = []
        members.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let name = key as? String else {
                throw Failure(kind: .nonStringKey, pointer: pointer,
                              message: "an object key is a \(Self.typeName(of: key)), not a string")
            }
            members.append((name, value))
        }
        // Sorted, as the canonical serialisation writes them; a JSON object's members have no order
        // (WebKit does not keep the page's order either).
        members.sort { $0.0 < $1.0 }
        try count(2 + max(0, members.count - 1), at: pointer)  // {} and the commas
        var object = JSONObject()
        for (name, member) in members {
            let memberPointer = pointer + "/" + JSONPointer.escape(name)
            try count(JSONValue.string(name).serialized().utf8.count + 1, at: memberPointer)  // "name":
            object[name] = try convert(member, pointer: memberPointer, depth: depth)
        }
        return .object(object)
    }

    private mutating func array(_ array: NSArray, pointer: String, depth: Int) throws(Failure) -> JSONValue {
        try enter(depth, pointer: pointer)
        try count(2 + max(0, array.count - 1), at: pointer)  // [] and the commas
        var items: [JSONValue] = []
        items.reserveCapacity(array.count)
        for (index, item) in array.enumerated() {
            items.append(try convert(item, pointer: pointer + "/" + String(index), depth: depth))
        }
        return .array(items)
    }

    /// JavaScript has one number type, a double; WebKit hands it over as an `NSNumber` holding a
    /// double. A whole number within ±2^53 is written as an integer, as `JSON.stringify` writes it.
    private static func number(_ number: NSNumber, pointer: String) throws(Failure) -> JSONValue {
        if isFoundationBoolean(number) { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "Q"), UInt8(ascii: "L"):
            let unsigned = number.uint64Value
            return unsigned <= UInt64(Int64.max) ? .integer(Int64(unsigned)) : .number(Double(unsigned))
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            let real = number.doubleValue
            guard real.isFinite else {
                throw Failure(kind: .notANumber, pointer: pointer,
                              message: "\(real) is not a JSON number (NaN and infinities have no JSON form)")
            }
            if real.rounded() == real, abs(real) <= 9_007_199_254_740_992 { return .integer(Int64(real)) }
            return .number(real)
        default:
            return .integer(number.int64Value)
        }
    }

    private static func typeName(of value: Any) -> String {
        // An NSDate is a Date too (bridged on Darwin, and in swift-corelibs-foundation).
        if value is Date { return "date (a JavaScript Date)" }
        // The type's name (not a description of the value) is what tells the app developer
        // which object reached the handler.
        return "\(type(of: value))"
    }
}
