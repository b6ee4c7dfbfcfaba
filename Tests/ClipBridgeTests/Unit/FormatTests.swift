// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — uri-list, gnome-copied-files, colors

import Foundation
import Testing

@testable import ClipBridge

@Suite("Clipboard formats")
struct FormatTests {
    @Test("uri-list: CRLF out, CRLF or LF in, comments skipped")
    func uriList() {
        #expect(URIList.format(["file:///a", "https://b/"]) == "file:///a\r\nhttps://b/\r\n")
        #expect(URIList.parse("# comment\r\nfile:///a\r\n\r\nhttps://b/\n") == ["file:///a", "https://b/"])
        #expect(URIList.path(ofFileURI: "file:///tmp/a%20b") == "/tmp/a b")
        #expect(URIList.path(ofFileURI: "file://otherhost/tmp/a") == nil)
        #expect(URIList.path(ofFileURI: "https://example.org/") == nil)
        #expect(URIList.fileURI(forPath: "/tmp/a b#c") == "file:///tmp/a%20b%23c")
    }

    @Test("gnome-copied-files: copy or cut, then URIs, LF-separated, no trailing newline")
    func gnome() throws {
        let files = GnomeCopiedFiles(isCut: true, uris: ["file:///a", "file:///b"])
        #expect(files.text == "cut\nfile:///a\nfile:///b")
        let parsed = try #require(GnomeCopiedFiles("copy\nfile:///a\n"))
        #expect(!parsed.isCut)
        #expect(parsed.uris == ["file:///a"])
        #expect(GnomeCopiedFiles("move\nfile:///a") == nil)
    }

    @Test("x-color wire form is four little-endian uint16")
    func colorWire() throws {
        let color = X11Color(red: 0x0102, green: 0x0304, blue: 0x0506, alpha: 0x0708)
        #expect(color.wire == Data([2, 1, 4, 3, 6, 5, 8, 7]))
        #expect(X11Color(wire: color.wire) == color)
        #expect(X11Color(wire: Data([1, 2, 3])) == nil)
        #expect(X11Color(hex: "#FFF") == X11Color(red: .max, green: .max, blue: .max))
        #expect(X11Color(hex: "fff") == nil)
        #expect(X11Color(hex: "#12345") == nil)
    }

    @Test("UTF-16 detection leaves UTF-8 alone")
    func utf16Detection() {
        #expect(!TextDecoding.looksLikeUTF16(Data("plain text".utf8)))
        #expect(TextDecoding.looksLikeUTF16(TextDecoding.utf16LittleEndian("plain text")))
        #expect(TextDecoding.autodetected(TextDecoding.utf16LittleEndian("ünï\0")) == "ünï")
    }
}
