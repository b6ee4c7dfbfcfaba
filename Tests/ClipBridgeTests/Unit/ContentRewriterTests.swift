// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — the daemon's convert-on-the-fly rules on kept content, and the text rules under them

import Foundation
import Testing
import X11Selection

@testable import ClipBridge

@Suite("Tracking parameters")
struct TrackingParameterTests {
    let standard = TrackingParameters.standard

    @Test("utm_* and click ids go; other parameters, the fragment and the text around stay byte for byte")
    func stripsTrackersOnly() throws {
        let text = "See https://example.com/a/b?id=7&utm_source=news&UTM_Medium=mail&fbclid=XyZ#part, and more."
        let result = try #require(standard.strip(text))
        #expect(result.text == "See https://example.com/a/b?id=7#part, and more.")
        #expect(result.removed == ["utm_source", "UTM_Medium", "fbclid"])
    }

    @Test("a query of trackers only loses its '?'; the first kept parameter takes no separator")
    func onlyTrackers() throws {
        #expect(standard.strip("https://x.org/p?gclid=1&utm_term=a")?.text == "https://x.org/p")
        #expect(standard.strip("https://x.org/p?gclid=1&q=rust&utm_term=a&page=2")?.text == "https://x.org/p?q=rust&page=2")
        #expect(standard.strip("(https://x.org/?utm_id=1)")?.text == "(https://x.org/)")
        #expect(standard.strip("<a href=\"https://x.org/?msclkid=1&amp;q=2\">", html: true)?.text == "<a href=\"https://x.org/?q=2\">")
        #expect(standard.strip("<a href=\"https://x.org/?q=2&amp;mc_cid=1\">", html: true)?.text == "<a href=\"https://x.org/?q=2\">")
    }

    @Test("nothing to strip gives nil: URLs without trackers, prose, lookalike names, non-http schemes")
    func leavesCleanTextAlone() {
        #expect(standard.strip("https://example.com/?utmost=1&refresh=2") == nil)
        #expect(standard.strip("no links here, utm_source=1") == nil)
        #expect(standard.strip("ftp://x.org/?utm_source=1 mailto:a@b?utm_source=2") == nil)
        #expect(standard.strip("xhttps://x.org/?utm_source=1") == nil)
    }

    @Test("names the user adds are stripped too, in any case")
    func extraNames() {
        let custom = standard.adding(["si", "Ref"])
        #expect(custom.strip("https://youtu.be/abc?si=TRACK&t=42 https://x.org/?ref=hn")?.text == "https://youtu.be/abc?t=42 https://x.org/")
    }

    @Test("linear time: a megabyte of URLs is stripped at once")
    func largeInput() throws {
        let line = "https://example.com/item?id=1&utm_campaign=spring\n"
        let text = String(repeating: line, count: 20_000)
        let result = try #require(standard.strip(text))
        #expect(result.text == String(repeating: "https://example.com/item?id=1\n", count: 20_000))
    }
}

@Suite("Trailing whitespace")
struct TrailingWhitespaceTests {
    @Test("spaces and tabs at line ends, trailing blank lines and the final newline go; CRLF and indentation stay")
    func trims() {
        #expect(TrailingWhitespace.trimmed("  a  \n\tb\t\n\n  \n") == "  a\n\tb")
        #expect(TrailingWhitespace.trimmed("x \r\ny\t\r\n") == "x\r\ny")
        #expect(TrailingWhitespace.trimmed("clean\nlines") == nil)
        #expect(TrailingWhitespace.trimmed("   ") == "")
    }
}

@Suite("Content rewriter")
struct ContentRewriterTests {
    typealias Flavour = SelectionSnapshot.Flavour

    private func flavour(_ target: SelectionTarget, _ data: Data, type: SelectionTarget? = nil, format: Int = 8) -> Flavour {
        Flavour(target: target, type: type ?? target, format: format, content: .bytes(data), byteCount: data.count)
    }

    private func snapshot(_ flavours: [Flavour]) -> SelectionSnapshot {
        SelectionSnapshot(selection: .clipboard, flavours: flavours, omissions: [], isSensitive: false)
    }

    /// The served bytes of `target` (the UTF-8 source for targets Xlib encodes when serving).
    private func bytes(_ offer: SelectionOffer, _ target: SelectionTarget) -> Data? {
        guard let rep = offer.representations.first(where: { $0.target == target }), case .bytes(let data) = rep.source
        else { return nil }
        return data
    }

    private func targets(_ offer: SelectionOffer) -> [String] { offer.representations.map(\.target.rawValue) }

    @Test("strip-tracking rewrites every text target in its encoding, the URL list and UTF-16 HTML; the rest stays")
    func stripTracking() async throws {
        let url = "https://shop.example/item?id=9&utm_source=mail&fbclid=abc"
        let clean = "https://shop.example/item?id=9"
        let html = Data([0xFF, 0xFE]) + TextDecoding.utf16LittleEndian("<a href=\"\(url.replacing("&", with: "&amp;"))\">item</a>")
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2])
        let kept = snapshot([
            flavour("text/html", html),
            flavour(.utf8String, Data(url.utf8)),
            flavour(.string, Data(url.utf8)),
            flavour("text/uri-list", Data((url + "\r\n").utf8)),
            flavour("image/png", png),
        ])
        let rewrite = await ContentRewriter(rules: [.stripTracking]).rewrite(kept)
        #expect(targets(rewrite.offer) == ["text/html", "UTF8_STRING", "STRING", "text/uri-list", "image/png"])
        #expect(bytes(rewrite.offer, .utf8String) == Data(clean.utf8))
        #expect(bytes(rewrite.offer, .string) == Data(clean.utf8))
        #expect(bytes(rewrite.offer, "text/uri-list") == Data((clean + "\r\n").utf8))
        #expect(bytes(rewrite.offer, "text/html") == Data([0xFF, 0xFE]) + TextDecoding.utf16LittleEndian("<a href=\"\(clean)\">item</a>"))
        #expect(bytes(rewrite.offer, "image/png") == png)
        #expect(rewrite.changes == ["strip-tracking: removed utm_source, fbclid"])
    }

    @Test("a Latin-1 STRING owner's text is read as Latin-1 and written back as Latin-1")
    func latin1Text() async throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9, 0x20]) + Data("https://a.example/?utm_medium=x".utf8)
        let kept = snapshot([flavour(.string, latin1)])
        let rewrite = await ContentRewriter(rules: [.stripTracking]).rewrite(kept)
        #expect(bytes(rewrite.offer, .string) == Data([0x63, 0x61, 0x66, 0xE9, 0x20]) + Data("https://a.example/".utf8))
    }

    @Test("trim-whitespace replaces the text targets; a target that cannot carry the text any more is dropped")
    func trimWhitespace() async throws {
        let kept = snapshot([
            flavour(.utf8String, Data("λ = 1   \nnext\t\n\n".utf8)),
            flavour(.string, Data([0x3F, 0x20, 0x3D, 0x20, 0x31, 0x20, 0x0A])),
            flavour("text/html", Data("<p>λ = 1   </p>".utf8)),
        ])
        let rewrite = await ContentRewriter(rules: [.trimWhitespace]).rewrite(kept)
        #expect(bytes(rewrite.offer, .utf8String) == Data("λ = 1\nnext".utf8))
        // λ is not Latin-1: STRING can no longer carry the text, and is not served stale.
        #expect(targets(rewrite.offer) == ["UTF8_STRING", "text/html"])
        #expect(bytes(rewrite.offer, "text/html") == Data("<p>λ = 1   </p>".utf8))
        #expect(rewrite.changes.count == 1)
    }

    @Test("plain-text keeps only the text family; with no text, it serves the text HTML converts to")
    func plainText() async throws {
        let rich = snapshot([
            flavour("text/html", Data("<b>bold</b>".utf8)), flavour(.utf8String, Data("bold".utf8)),
            flavour("image/png", Data([1, 2, 3])),
        ])
        let rewrite = await ContentRewriter(rules: [.plainText, .widen]).rewrite(rich)
        #expect(targets(rewrite.offer) == ["UTF8_STRING"])
        #expect(rewrite.changes == ["plain-text: dropped text/html image/png"])

        let htmlOnly = snapshot([flavour("text/html", Data("<p>Hello <i>world</i></p>".utf8))])
        let made = await ContentRewriter(rules: [.plainText]).rewrite(htmlOnly)
        #expect(targets(made.offer).contains("UTF8_STRING"))
        #expect(!targets(made.offer).contains("text/html"))
        #expect(bytes(made.offer, .utf8String).map { String(decoding: $0, as: UTF8.self) }?.contains("Hello world") == true)

        let imageOnly = snapshot([flavour("image/png", Data([1, 2, 3]))])
        let untouched = await ContentRewriter(rules: [.plainText]).rewrite(imageOnly)
        #expect(targets(untouched.offer) == ["image/png"])
    }

    @Test("widen adds text from HTML, gnome-copied-files from a file URL list, x-color from #rrggbb; originals first")
    func widen() async throws {
        let rewriter = ContentRewriter(rules: [.widen])
        let html = await rewriter.rewrite(snapshot([flavour("text/html", Data("<p>a &amp; b</p>".utf8))]))
        #expect(targets(html.offer).first == "text/html")
        #expect(bytes(html.offer, .utf8String) == Data("a & b".utf8))

        let files = await rewriter.rewrite(snapshot([flavour("text/uri-list", Data("file:///tmp/a%20b.txt\r\n".utf8))]))
        #expect(targets(files.offer).first == "text/uri-list")
        #expect(bytes(files.offer, "x-special/gnome-copied-files") == Data("copy\nfile:///tmp/a%20b.txt".utf8))
        #expect(bytes(files.offer, .utf8String) == Data("/tmp/a b.txt".utf8))

        let gnome = await rewriter.rewrite(snapshot([flavour("x-special/gnome-copied-files", Data("cut\nfile:///x".utf8))]))
        #expect(bytes(gnome.offer, "text/uri-list") == Data("file:///x\r\n".utf8))

        let color = await rewriter.rewrite(snapshot([flavour(.utf8String, Data("#ff8000".utf8))]))
        let wire = try #require(bytes(color.offer, "application/x-color"))
        #expect(wire == X11Color(hex: "#ff8000")?.wire)
        #expect(color.offer.representations.first { $0.target == "application/x-color" }?.format == 16)

        let prose = await rewriter.rewrite(snapshot([flavour(.utf8String, Data("just words".utf8))]))
        #expect(targets(prose.offer) == ["UTF8_STRING"])
        #expect(prose.changes.isEmpty)
    }

    @Test("flavours over the size bound are served as kept, never loaded")
    func sizeBound() async throws {
        var rewriter = ContentRewriter(rules: [.stripTracking, .trimWhitespace])
        rewriter.maximumBytes = 16
        let text = "https://x.org/?utm_source=1   "
        let rewrite = await rewriter.rewrite(snapshot([flavour(.utf8String, Data(text.utf8))]))
        #expect(bytes(rewrite.offer, .utf8String) == Data(text.utf8))
        #expect(rewrite.changes.isEmpty)
    }

    @Test("spooled flavours are read from their files")
    func spooledFlavour() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rewrite-\(UUID()).txt")
        try Data("https://x.org/?id=1&gclid=2\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let kept = snapshot([Flavour(target: .utf8String, type: .utf8String, format: 8, content: .file(file), byteCount: 28)])
        let rewrite = await ContentRewriter(rules: [.stripTracking, .trimWhitespace]).rewrite(kept)
        #expect(bytes(rewrite.offer, .utf8String) == Data("https://x.org/?id=1".utf8))
    }
}
