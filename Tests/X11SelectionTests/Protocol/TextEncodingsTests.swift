import Foundation
import Testing
@testable import X11Selection

@Suite struct TextEncodingsTests {
    @Test func latin1EncodesOnlyLatin1() {
        #expect(TextEncodings.latin1("grüße") == Data([0x67, 0x72, 0xFC, 0xDF, 0x65]))
        #expect(TextEncodings.latin1("\u{FF}") == Data([0xFF]))
        #expect(TextEncodings.latin1("€") == nil)
        #expect(TextEncodings.latin1("日本") == nil)
    }

    @Test func latin1RoundTripsEveryByte() {
        let all = Data(0...255)
        #expect(TextEncodings.latin1(TextEncodings.fromLatin1(all)) == all)
    }

    @Test func textRepresentationsOmitStringOutsideLatin1() {
        let latin = SelectionOffer.textRepresentations("café").map(\.target)
        #expect(latin == [.utf8String, .utf8PlainText, .compoundText, .text, .string, .plainText])
        let wide = SelectionOffer.textRepresentations("price: 5 €").map(\.target)
        #expect(wide == [.utf8String, .utf8PlainText, .compoundText, .text])
    }

    @Test func decodingFollowsTheReplyType() {
        #expect(TextEncodings.decoding(target: .text, type: .string) == .latin1)
        #expect(TextEncodings.decoding(target: .text, type: .compoundText) == .xlib)
        #expect(TextEncodings.decoding(target: .text, type: .utf8String) == .utf8)
        #expect(TextEncodings.decoding(target: .utf8PlainText, type: .utf8PlainText) == .utf8)
        #expect(TextEncodings.decoding(target: .plainText, type: .plainText) == .latin1)
    }

    @Test func invalidUTF8IsRejected() {
        #expect(TextEncodings.fromUTF8(Data([0xC3, 0x28])) == nil)
        #expect(TextEncodings.fromUTF8(Data("ok".utf8)) == "ok")
    }
}
