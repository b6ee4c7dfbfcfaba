import ClipBridgeTestSupport
import Foundation
import Testing
@testable import X11Selection

/// The engine encodes TEXT and COMPOUND_TEXT itself when Xlib's result is plain Latin-1; these tests hold
/// that shortcut to Xlib's own output, and check that it declines everything else.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct TextEncodingParityTests {
    static let texts = [
        "", "plain ascii", "café naïve", "tab\there\nline", "nbsp\u{A0}x ÿ", "cr\rx", "ctl\u{1}x", "del\u{7F}x",
        "c1\u{85}x", "em — dash", "東京", "emoji ✓",
    ]

    @Test(arguments: texts)
    func shortcutMatchesXlibOrDeclines(text: String) throws {
        let display = try #require(XDisplay.open(try currentDisplay()))
        defer { display.close() }
        let atoms = display.internAtoms(["STRING", "COMPOUND_TEXT"])
        if let bytes = TextEncodings.compoundTextWithoutXlib(text) {
            let xlib = try #require(display.encodeText(text, compoundTextOnly: true))
            #expect(xlib.type == atoms[1])
            #expect(xlib.bytes == bytes, "COMPOUND_TEXT of \(text.debugDescription)")
        } else {
            #expect(text.unicodeScalars.contains { !($0 == "\t" || $0 == "\n" || (0x20...0x7E).contains($0.value)
                || (0xA0...0xFF).contains($0.value)) })
        }
        if let bytes = TextEncodings.latin1(text) {
            let xlib = try #require(display.encodeText(text, compoundTextOnly: false))
            #expect(xlib.type == atoms[0], "TEXT of \(text.debugDescription) is STRING")
            #expect(xlib.bytes == bytes, "TEXT of \(text.debugDescription)")
        }
    }

    @Test func servedTextTargetsDecodeBack() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        for text in ["café naïve", "em — dash 東京"] {
            _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations(text)))
            let compound = try await reader.read(selection, target: .compoundText)
            #expect(compound.type == .compoundText)
            let textTarget = try await reader.read(selection, target: .text)
            let latin1 = text.unicodeScalars.allSatisfy { $0.value <= 0xFF }
            #expect(textTarget.type == (latin1 ? .string : .compoundText))
            #expect(try await reader.readText(selection) == text)
        }
        await owner.shutdown()
        await reader.shutdown()
    }
}
