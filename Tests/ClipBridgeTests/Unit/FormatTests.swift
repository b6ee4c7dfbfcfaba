// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — uri-list, gnome-copied-files, colors

import Foundation
import Testing
import UniformTypes

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
        #expect(TextDecoding.autodetected(TextDecoding.utf16LittleEndian("ünï\0\0\0")) == "ünï")
        #expect(TextDecoding.autodetected(Data("plain\0\0".utf8)) == "plain")
    }
}

@Suite("Received file names")
struct FileNameTests {
    @Test(
        "suggested file names are sanitised: no separators, no dot-dot, no hidden or control characters",
        arguments: [
            ("report.pdf", "report.pdf"), ("../../etc/passwd", "passwd"), ("/abs/path/x.txt", "x.txt"),
            ("..", nil), (".", nil), ("", nil), ("a\\b\\c.txt", "c.txt"), (".hidden", "hidden"),
            ("tab\tand\nnewline.txt", "tabandnewline.txt"), ("dir/", "dir"),
        ] as [(String, String?)]
    )
    func sanitised(input: String, expected: String?) {
        #expect(ImportDirectory.sanitisedFileName(input) == expected)
    }

    @Test("received files are created 0600 in a 0700 per-process directory")
    func privateFiles() throws {
        let (url, handle) = try ImportDirectory.makeFile(
            parent: nil, suggestedName: "../x.mp4", contentType: .mpeg4Movie)
        defer { try? FileManager.default.removeItem(at: url) }
        try handle.close()
        #expect(url.lastPathComponent == "x.mp4")
        let file = try FileManager.default.attributesOfItem(atPath: url.path)
        let directory = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        // A second file of the same name does not replace the first.
        let (second, secondHandle) = try ImportDirectory.makeFile(
            parent: nil, suggestedName: "x.mp4", contentType: .mpeg4Movie)
        defer { try? FileManager.default.removeItem(at: second) }
        try secondHandle.close()
        #expect(second != url)
    }
}
