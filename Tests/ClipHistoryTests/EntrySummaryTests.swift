// What a history line says of a copy, from the flavours' names and first bytes.

@testable import ClipHistory
import FoundationEssentials
import Testing
import X11Selection

@Suite("Entry summaries")
struct EntrySummaryTests {
    private func summary(_ flavours: [(String, Data)]) -> EntrySummary {
        EntrySummary(flavours.map {
            EntrySummary.Flavour(target: SelectionTarget(rawValue: $0.0), type: SelectionTarget(rawValue: $0.0),
                                 byteCount: $0.1.count, prefix: $0.1)
        })
    }

    @Test("text is collapsed to one line and cut")
    func text() {
        #expect(summary([("UTF8_STRING", Data("  two\n\tlines  here ".utf8))]).line == "two lines here")
        let long = String(repeating: "word ", count: 50)
        let line = summary([("UTF8_STRING", Data(long.utf8))]).line
        #expect(line.count == EntrySummary.maximumCharacters && line.hasSuffix("…"))
        // STRING is Latin-1, as paste decodes it.
        #expect(summary([("STRING", Data([0x63, 0x61, 0x66, 0xe9]))]).line == "café")
        // TEXT typed TEXT, as xclip -t TEXT serves it, in Latin-1: not read as broken UTF-8.
        #expect(summary([("TEXT", Data([0x6E, 0x61, 0xEF, 0x76, 0x65]))]).line == "naïve")
        #expect(summary([("UTF8_STRING", Data(" \n ".utf8))]).line == "[blank text 3 B]")
    }

    @Test("files are named, before the paths' text")
    func files() {
        let list = Data("file:///home/me/a.txt\r\nfile:///home/me/My%20Pictures/b.png\r\n".utf8)
        let made = summary([("text/uri-list", list), ("UTF8_STRING", Data("/home/me/a.txt".utf8))])
        #expect(made.line == "[2 files: a.txt, b.png]")
        #expect(made.searchText == "a.txt\nb.png")
        #expect(summary([("text/uri-list", Data("https://example.com/\n".utf8)), ("UTF8_STRING", Data("https://example.com/".utf8))]).line
            == "https://example.com/")
    }

    @Test("images give their size and format, from the header alone")
    func images() {
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0x07, 0x80, 0, 0, 0x04, 0x38]) + Data(count: 2_100_000)
        #expect(summary([("text/html", Data("<img src=x>".utf8)), ("image/png", png)]).line == "[image 1920×1080 PNG 2.1 MB]")
        let gif = Data("GIF89a".utf8) + Data([0x10, 0, 0x20, 0]) + Data(count: 20)
        #expect(summary([("image/gif", gif)]).line == "[image 16×32 GIF 30 B]")
        // SOI, an APP0 segment, then SOF0 with height 480, width 640.
        let jpeg = Data([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0x01, 0xe0, 0x02, 0x80, 3, 0, 0, 0])
        #expect(summary([("image/jpeg", jpeg)]).line == "[image 640×480 JPEG 21 B]")
        // Not an image after all: the type's name.
        #expect(summary([("image/png", Data("nope".utf8))]).line == "[image/png 4 B]")
    }

    @Test("another type is named, with its size")
    func custom() {
        #expect(summary([("com.example.todo", Data(count: 1500))]).line == "[com.example.todo 1.5 KB]")
    }

    @Test("image headers never read past the bytes", arguments: 0..<64)
    func truncatedHeaders(length: Int) {
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 1, 0, 0, 0, 1, 0])
        let webp = Data("RIFF".utf8) + Data(count: 4) + Data("WEBPVP8L".utf8) + Data(count: 4) + Data([0x2f]) + Data(count: 9)
        for image in [png, webp, Data([0xff, 0xd8, 0xff, 0xc0, 0, 11]), Data("BM".utf8) + Data(count: 30)] {
            _ = ImageHeader(image.prefix(length))
        }
    }
}
