import Testing
@testable import DeeplinkRouting

/// The byte and scalar classes links are read with, tried on every byte and at each range's ends.
@Suite struct CharacterClassTests {
    @Test func hexDigitsAreExactlyZeroToNineAndAToFInEitherCase() {
        let hex = Set("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(ParameterRules.isHexDigit(byte) == hex.contains(byte), "byte \(byte)")
        }
    }

    /// C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F) are controls; the scalars on either side are not.
    @Test(arguments: [(0x00, true), (0x1F, true), (0x20, false), (0x7E, false), (0x7F, true), (0x80, true), (0x9F, true),
                      (0xA0, false), (0x2028, false), (0xAC00, false)] as [(UInt32, Bool)])
    func controlsAreC0DelAndC1(_ value: UInt32, _ control: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(LinkText.isControl(scalar) == control, "U+\(String(value, radix: 16))")
    }
}
