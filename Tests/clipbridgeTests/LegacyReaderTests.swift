// clipbridge and the readers that take one property only up to a fixed size: Tk 8.6 fails a reply past 400,000
// bytes ("selection property too large"), Java 17's AWT cuts one at exactly 4,000,000 (issue 38). Every owner path
// — `copy`, the daemon keeping a copy whose owner left, a restore from the history — answers large text with INCR,
// which both read whole.

import ClipBridgeTestSupport
import Foundation
import Testing

/// `count` bytes of UTF-8 text, different for each seed: words of ASCII, accented Latin, CJK and symbols, lines of
/// varied length (no CR, no NUL: Java's text flavour normalizes line ends and stops at NUL, as its users expect).
func varietyText(bytes count: Int, seed: UInt64) -> Data {
    var random = SplitMix(seed: seed)
    let pieces = ["clipboard", "naïve", "café", "日本語", "✓", "größe", "x", "Ω", "🙂", "data", "über", "ñ", "42"]
    var text = Data()
    text.reserveCapacity(count + 16)
    while text.count < count {
        let piece = pieces[Int(random.next() % UInt64(pieces.count))]
        text.append(contentsOf: piece.utf8)
        text.append(random.next() % 11 == 0 ? 0x0A : 0x20)
    }
    // Cut at a character boundary: the byte at the cut must not continue a character.
    var end = count
    while end > 0, end < text.count, text[end] & 0xC0 == 0x80 { end -= 1 }
    return text.prefix(end)
}

@Suite("Tk and Java read large copies whole", .serialized, .xvfb, .timeLimit(.minutes(6)))
struct LegacyReaderTests {
    static let sizes = [1_000_000, 5_000_000, 18_000_000]

    /// Both readers read CLIPBOARD; each must print exactly `expected`.
    func expectReadersGet(_ expected: Data, display: String, _ context: String) async throws {
        for reader in LegacyTextReader.allCases {
            let result = try await reader.paste(display: display)
            #expect(result.succeeded, "\(reader), \(context): \(result.stderrText)")
            #expect(result.stdout.count == expected.count, "\(reader), \(context): \(result.stdout.count) bytes of \(expected.count)")
            // A Bool, not `==` inside #expect: on a failure Swift Testing would diff the two megabyte collections.
            let same = result.stdout == expected
            #expect(same, "\(reader), \(context): the bytes differ")
        }
    }

    @Test("clipbridge copy: 1 MB, 5 MB and 18 MB of text", arguments: sizes)
    func fromCopy(size: Int) async throws {
        let display = try CLI.server().display
        let text = varietyText(bytes: size, seed: UInt64(size))
        let copied = try await CLI.run(["copy"], display: display, stdin: .data(text))
        #expect(copied.succeeded, "\(copied.stderrText)")
        try await expectReadersGet(text, display: display, "copy of \(size)")
        _ = try await CLI.run(["copy", "--clear"], display: display)
    }

    @Test("the daemon, after the owner left, and a restore from the history: 1 MB, 5 MB and 18 MB", arguments: sizes)
    func fromDaemonAndRestore(size: Int) async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option)
        let text = varietyText(bytes: size, seed: UInt64(size) &* 31)
        let owner = try await Xclip.own(display, text, target: "UTF8_STRING")
        try await daemon.waitFor("history: entry", timeout: .seconds(30))
        _ = await owner.stop()
        try await daemon.waitFor("restored", timeout: .seconds(30))
        try await expectReadersGet(text, display: display, "the daemon's copy of \(size)")

        // Something else is copied, then the entry comes back from the history.
        #expect(try await CLI.run(["copy"], display: display, input: "in between").succeeded)
        try await daemon.waitFor("history: entry", count: 2, timeout: .seconds(30))
        let entries = try await history.entries()
        let id = try #require(entries.last?["id"] as? Int)
        let restored = try await history.run(["restore", "\(id)"], display: display)
        #expect(restored.succeeded, "restore: \(restored.stderrText)")
        try await expectReadersGet(text, display: display, "a restore of \(size)")
        _ = await daemon.stop()
    }
}
