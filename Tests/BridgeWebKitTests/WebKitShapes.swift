import Foundation
import JSONCore
import TestSupport

/// The message shapes a real WebKit delivered to the native handler, as recorded by the e2e run
/// (e2e/harness/message_shapes.py) in e2e/data/webkit-message-shapes.json, rebuilt as the
/// Foundation values `WKScriptMessage.body` holds on Apple platforms: a JS string is an NSString,
/// a number an NSNumber holding a double, a boolean an NSNumber boolean, null NSNull, an array an
/// NSArray, an object an NSDictionary (the order WebKit enumerated is lost, as in NSDictionary).
struct WebKitShape: CustomStringConvertible {
    let name: String
    /// JavaScriptCore's JSON.stringify of what the handler received.
    let jsonText: String
    let received: JSONValue

    var description: String { name }

    static func all() throws -> [WebKitShape] {
        let document = try JSONValue(parsing: RepositoryPaths.text("e2e/data/webkit-message-shapes.json"))
        return (document["shapes"]?.arrayValue ?? []).map { shape in
            WebKitShape(name: shape["name"]?.stringValue ?? "?", jsonText: shape["json"]?.stringValue ?? "",
                        received: shape["received"] ?? .null)
        }
    }

    static func named(_ name: String) throws -> WebKitShape {
        guard let shape = try all().first(where: { $0.name == name }) else {
            throw ShapeError(message: "no shape \(name) in e2e/data/webkit-message-shapes.json")
        }
        return shape
    }

    /// The body as the app's handler gets it.
    var foundationBody: Any { Self.foundation(received) }

    private static func foundation(_ fact: JSONValue) -> Any {
        switch fact["type"]?.stringValue {
        case "string": return NSString(string: fact["value"]?.stringValue ?? "")
        case "boolean": return NSNumber(value: fact["value"]?.boolValue ?? false)
        case "null": return NSNull()
        case "number":
            switch fact["nonFinite"]?.stringValue {
            case "NaN": return NSNumber(value: Double.nan)
            case "Infinity": return NSNumber(value: Double.infinity)
            case "-Infinity": return NSNumber(value: -Double.infinity)
            default:
                if fact["negativeZero"]?.boolValue == true { return NSNumber(value: -0.0) }
                switch fact["value"] {
                case .integer(let whole)?: return NSNumber(value: Double(whole))
                case .number(let real)?: return NSNumber(value: real)
                default: return NSNumber(value: Double.nan)
                }
            }
        case "array":
            return NSArray(array: (fact["items"]?.arrayValue ?? []).map(foundation))
        case "object":
            let dictionary = NSMutableDictionary()
            for member in fact["members"]?.arrayValue ?? [] {
                dictionary[NSString(string: member["key"]?.stringValue ?? "")] = foundation(member["value"] ?? .null)
            }
            return dictionary
        default:
            return NSDate()  // anything else WebKit could hand over that is not JSON
        }
    }
}

struct ShapeError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
