import Foundation
import Testing
@testable import X11Selection

/// The Direct Save Protocol's rules (freedesktop.org XDS): the proposed name, the URI, the reply.
@Suite struct DirectSaveTests {
    @Test func aPlainNameIsTakenInItsCharset() {
        #expect(DirectSave.fileName(fromProperty: Data("cat photo.png".utf8), type: "text/plain") == "cat photo.png")
        // No charset: ISO-8859-1 (byte 0xE9 is é).
        #expect(DirectSave.fileName(fromProperty: Data([0x63, 0x61, 0x66, 0xE9]), type: "text/plain") == "café")
        #expect(DirectSave.fileName(fromProperty: Data("日本.png".utf8), type: "text/plain;charset=utf-8") == "日本.png")
        #expect(DirectSave.fileName(fromProperty: Data([0xFF, 0xFE]), type: "text/plain;charset=UTF-8") == nil)
    }

    @Test func anythingButOnePlainNameIsRefused() {
        for name in ["", ".", "..", "../x", "a/b", "/etc/passwd", ".hidden", "-rf", "a\nb", "a\u{0}b", String(repeating: "x", count: 256)] {
            #expect(DirectSave.fileName(fromProperty: Data(name.utf8), type: "text/plain;charset=utf-8") == nil, "\(name)")
        }
    }

    @Test func aTakenNameGetsANumber() {
        let taken: Set = ["a.png", "a (2).png", "notes"]
        #expect(DirectSave.uniqueName("a.png", exists: taken.contains) == "a (3).png")
        #expect(DirectSave.uniqueName("notes", exists: taken.contains) == "notes (2)")
        #expect(DirectSave.uniqueName("b.png", exists: taken.contains) == "b.png")
        #expect(DirectSave.uniqueName("x", exists: { _ in true }) == nil)
    }

    @Test func theURIIsPercentEncoded() {
        #expect(DirectSave.fileURI(path: "/tmp/cat photo (2).png", host: "box") == "file://box/tmp/cat%20photo%20%282%29.png")
        #expect(DirectSave.fileURI(path: "/tmp/é", host: "") == "file:///tmp/%C3%A9")
    }

    @Test func theRepliesMeanWhatTheSpecSays() {
        #expect(DirectSave.reply(Data("S".utf8)) == .saved)
        #expect(DirectSave.reply(Data("F".utf8)) == .fallBack)
        #expect(DirectSave.reply(Data("E".utf8)) == .failed)
        #expect(DirectSave.reply(Data()) == .failed)
        #expect(DirectSave.reply(Data("X".utf8)) == .failed)
    }
}
