import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import X11Selection

@Suite(.xvfb, .timeLimit(.minutes(2)))
struct TextEncodingTests {
    static let samples = ["plain ascii", "café crème, 1½ °C", "Grüße € — 日本語 ✓", "line one\nline two\ttab"]

    /// An offer holding only `targets` of the text family for `text`.
    func offer(_ text: String, only targets: Set<SelectionTarget>) -> SelectionOffer {
        SelectionOffer(SelectionOffer.textRepresentations(text).filter { targets.contains($0.target) })
    }

    @Test(arguments: samples)
    func everyOfferedTextTargetReadsBackAsTheSameString(text: String) async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        // Read under the engine's conversion lock: no conversion of a parallel test is mid-switch then.
        let localeBefore = textConversionLock.withLock { _ in String(cString: setlocale(LC_CTYPE, nil)) }
        let lease = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations(text)))
        _ = lease
        let targets = try await reader.targets(of: selection).filter { !$0.isMetaTarget }
        let latin1 = text.unicodeScalars.allSatisfy { $0.value <= 0xFF }
        #expect(targets.contains(.compoundText))
        #expect(targets.contains(.string) == latin1)
        for target in [SelectionTarget.utf8String, .utf8PlainText, .compoundText, .text, .string, .plainText]
        where targets.contains(target) {
            let only = uniqueSelection("only")
            _ = try await owner.claim(only, offering: offer(text, only: [target]))
            #expect(try await reader.readText(only) == text, "via \(target)")
        }
        // The engine switches LC_CTYPE only for the duration of a conversion.
        #expect(textConversionLock.withLock { _ in String(cString: setlocale(LC_CTYPE, nil)) } == localeBefore)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func stringIsRefusedRatherThanLossyForNonLatin1() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("5 €")))
        let error = await #expect(throws: SelectionError.self) { _ = try await reader.read(selection, target: .string) }
        #expect(error?.code == .targetUnavailable)
        #expect(error?.availableTargets.contains(.compoundText) == true)
        // TEXT chooses the encoding: COMPOUND_TEXT here, STRING for Latin-1 text.
        #expect(try await reader.read(selection, target: .text).type == .compoundText)
        _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("5 £")))
        let latin = try await reader.read(selection, target: .text)
        #expect(latin.type == .string)
        #expect(latin.bytes == Data([0x35, 0x20, 0xA3]))
        await owner.shutdown()
        await reader.shutdown()
    }
}

/// Independent checks with real peers on CLIPBOARD (one at a time).
@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct PeerTextEncodingTests {
    static let text = "Grüße € — 日本語"

    /// Toolkits decode our COMPOUND_TEXT with their own converters.
    @Test(arguments: ToolkitPeer.Toolkit.allCases)
    func toolkitsReadOurText(toolkit: ToolkitPeer.Toolkit) async throws {
        let owner = try await openConnection()
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations(Self.text)))
        #expect(try await ToolkitPeer(toolkit, display: try currentDisplay()).readText() == Self.text)
        await owner.shutdown()
    }

    /// COMPOUND_TEXT bytes we produce, owned by xclip, read back through our decoder.
    @Test func compoundTextSurvivesAThirdPartyOwner() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations(Self.text)))
        let compound = try await reader.read(selection, target: .compoundText)
        #expect(compound.type == .compoundText)
        #expect(compound.bytes != Data(Self.text.utf8))
        await owner.shutdown()
        let peer = try startPeer(["xclip", "-quiet", "-selection", "clipboard", "-i", "-t", "COMPOUND_TEXT"],
                                 display: display, stdin: compound.bytes)
        try await peer.waitUntilOwning("CLIPBOARD", display: display)
        #expect(try await reader.readText(.clipboard) == Self.text)
        await peer.stop()
        await reader.shutdown()
    }

    @Test func xclipReadsUtf8AndLatin1() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations("café")))
        let utf8 = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "UTF8_STRING"], display: display)
        #expect(utf8.stdout == Data("café".utf8))
        let latin1 = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "STRING"], display: display)
        #expect(latin1.stdout == Data([0x63, 0x61, 0x66, 0xE9]))
        await owner.shutdown()
    }
}
