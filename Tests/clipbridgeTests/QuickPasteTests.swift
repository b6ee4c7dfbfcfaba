// clipbridge paste with no options takes a single-threaded path (QuickPaste): it must paste exactly what
// the full path pastes, for every way real owners offer text, and hand everything else to the full path.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge paste (single-threaded path)", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct QuickPasteTests {
    /// `paste` and `paste --timeout 5` (which always takes the full path) print the same bytes.
    func expectBothPaths(_ display: String, print expected: Data, _ comment: Comment) async throws {
        let quick = try await CLI.run(["paste"], display: display)
        let full = try await CLI.run(["paste", "--timeout", "5"], display: display)
        #expect(quick.succeeded, "\(comment): \(quick)")
        #expect(quick.stdout == expected, comment)
        #expect(full.stdout == quick.stdout, comment)
    }

    @Test("GTK 4 and Qt 5 owners (text/plain;charset=utf-8 before UTF8_STRING)")
    func toolkitOwners() async throws {
        let display = try CLI.server().display
        let text = "grüße — 東京 ✓"
        for toolkit in [ToolkitPeer.Toolkit.gtk4, .qt5] {
            let owner = try await ToolkitPeer(toolkit, display: display).own(text: text)
            try await expectBothPaths(display, print: Data(text.utf8), "\(toolkit)")
            await owner.stop()
        }
    }

    @Test("each text encoding an owner may offer alone is decoded as the full path decodes it")
    func singleEncodings() async throws {
        let display = try CLI.server().display
        let cases: [(target: String, bytes: [UInt8], expected: String)] = [
            ("UTF8_STRING", Array("plain ✓".utf8), "plain ✓"),
            ("text/plain;charset=utf-8", Array("utf-8 ✓".utf8) + [0], "utf-8 ✓"),  // trailing NUL dropped
            ("STRING", [0x63, 0x61, 0x66, 0xE9], "café"),  // ISO-8859-1 (ICCCM 2.6.2)
            ("text/plain", [0x63, 0x61, 0x66, 0xE9], "café"),  // not UTF-8, so Latin-1
            ("text/plain;charset=windows-1252", [0x80, 0x20, 0x35], "€ 5"),  // through iconv
            ("COMPOUND_TEXT", [0x63, 0x61, 0x66, 0x1B, 0x2D, 0x41, 0xE9], "café"),  // only Xlib decodes it
        ]
        for entry in cases {
            let owner = try await Xclip.own(display, Data(entry.bytes), target: entry.target)
            try await expectBothPaths(display, print: Data(entry.expected.utf8), "\(entry.target)")
            await owner.stop()
        }
    }

    @Test("a plain-text subtype, and an owner with no text, go to the full path")
    func fullPathCases() async throws {
        let display = try CLI.server().display
        let python = Data("print('hi')\n".utf8)
        let owner = try await Xclip.own(display, python, target: "text/x-python")
        try await expectBothPaths(display, print: python, "text/x-python")
        await owner.stop()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let image = try await Xclip.own(display, png, target: "image/png")
        try await expectBothPaths(display, print: png, "image/png only: the richest type offered")
        await image.stop()
    }

    @Test("an owner that never answers: status 3 after the default 5 s, not a hang")
    func stuckOwner() async throws {
        let (paste, elapsed) = try await runAgainstFrozenOwner(["paste"], display: try CLI.server().display)
        #expect(paste.exitCode == 3, "\(paste)")
        #expect(paste.stderrText.contains("timed out"))
        #expect(elapsed > .seconds(4) && elapsed < .seconds(9))
    }

    /// The shared libraries a `clipbridge` run maps, as the dynamic loader reports them (LD_DEBUG=files: linked
    /// and dlopen'ed alike).
    static func mappedLibraries(_ arguments: [String], display: String) async throws -> (CommandResult, Set<String>) {
        let result = try await CLI.run(arguments, display: display, environment: ["LD_DEBUG": "files"])
        let names = result.stderrText.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " })
        }
        return (result, Set(names))
    }

    @Test("a text paste maps no image codec, no libyaml, SQLite or libcrypto; an image conversion loads only its codec")
    func pasteMapsOnlyWhatItUses() async throws {
        let display = try CLI.server().display
        let optional = ["libpng", "libjpeg", "libgif", "libtiff", "libwebp", "libyaml", "libsqlite3", "libcrypto"]
        let text = try await Xclip.own(display, Data("sixteen bytes!!!".utf8))
        let (paste, mapped) = try await Self.mappedLibraries(["paste"], display: display)
        #expect(paste.stdout == Data("sixteen bytes!!!".utf8))
        #expect(mapped.contains { $0.hasPrefix("libX11") }, "the loader's report was read: \(mapped)")
        #expect(!mapped.contains { name in optional.contains { name.hasPrefix($0) } }, "\(mapped.sorted())")
        await text.stop()
        // A BMP owner (decoded in Swift), pasted as PNG: libpng, and no other codec.
        var bmp = Data("BM".utf8) + Data([70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 24, 0])
        bmp += Data(count: 24) + Data([0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0])
        let image = try await Xclip.own(display, bmp, target: "image/bmp")
        let (converted, codecs) = try await Self.mappedLibraries(["paste", "-t", "image/png"], display: display)
        #expect(converted.succeeded && converted.stdout.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "\(converted)")
        #expect(codecs.contains { $0.hasPrefix("libpng16") }, "\(codecs.sorted())")
        #expect(!codecs.contains { name in ["libjpeg", "libgif", "libtiff", "libwebp"].contains { name.hasPrefix($0) } },
                "\(codecs.sorted())")
        await image.stop()
    }
}
