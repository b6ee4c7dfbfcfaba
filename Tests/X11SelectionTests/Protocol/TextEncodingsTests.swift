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
        #expect(TextEncodings.decoding(target: "text/plain; charset=UTF-8", type: "text/plain; charset=UTF-8") == .utf8)
        #expect(TextEncodings.decoding(target: .text, type: .text) == .xlib)
    }

    @Test("readText tries the text targets in TextReadOrder, those it can decode only")
    func readTextFollowsTheOneOrder() {
        let offered: [SelectionTarget] = [
            "TEXT", "text/plain", "STRING", "text/plain;charset=iso-8859-15", "COMPOUND_TEXT", "image/png",
            "text/plain;charset=UTF-8", "UTF8_STRING",
        ]
        #expect(TextEncodings.readOrder(offered)
            == ["UTF8_STRING", "text/plain;charset=UTF-8", "COMPOUND_TEXT", "STRING", "TEXT", "text/plain"])
        #expect(TextEncodings.readOrder(offered) == TextReadOrder.ranked(offered).filter { $0 != "text/plain;charset=iso-8859-15" })
    }

    @Test func invalidUTF8IsRejected() {
        #expect(TextEncodings.fromUTF8(Data([0xC3, 0x28])) == nil)
        #expect(TextEncodings.fromUTF8(Data("ok".utf8)) == "ok")
    }
}
