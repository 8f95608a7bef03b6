#if canImport(Darwin)
import CoreFoundation
#endif
import Foundation

/// Whether a Foundation number is a boolean: JavaScript's `true`/`false` arrive as `NSNumber`,
/// and `1 as? Bool` succeeds in Swift, so the cast cannot tell them apart.
///
/// - Apple: WebKit hands booleans over as the `CFBoolean` singletons (`kCFBooleanTrue`); their
///   type id is `CFBooleanGetTypeID()`. `objCType` "c" alone is not enough there: an `NSNumber`
///   made from an `Int8`/`CChar` reports "c" too.
/// - swift-corelibs-foundation (Linux): booleans are its `__NSCFBoolean` subclass with `objCType`
///   "c"; integers of every width report "i", "l", "q"..., never "c" (checked by the adapter tests).
func isFoundationBoolean(_ number: NSNumber) -> Bool {
    #if canImport(Darwin)
    return CFGetTypeID(number) == CFBooleanGetTypeID()
    #else
    return UInt8(bitPattern: number.objCType.pointee) == UInt8(ascii: "c")
    #endif
}
