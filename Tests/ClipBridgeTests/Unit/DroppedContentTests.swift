// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — DroppedContent: what `clipbridge drop` makes of a drop's bytes

import ClipBridge
import Foundation
import Testing
import X11Selection

@Suite struct DroppedContentTests {
    @Test func aURIListBecomesLocalPaths() {
        let list = "# a comment\r\nfile:///tmp/a%20b%C3%A9.txt\r\nfile://localhost/tmp/c.txt\nfile:///tmp/d.txt"
        #expect(DroppedContent.decode(Data(list.utf8), as: "text/uri-list")
            == .paths(["/tmp/a bé.txt", "/tmp/c.txt", "/tmp/d.txt"]))
    }

    @Test func remoteOrMixedURIsStayURIs() {
        let list = "https://example.org/x?y=1\r\nfile:///tmp/a.txt\r\n"
        #expect(DroppedContent.decode(Data(list.utf8), as: "text/uri-list")
            == .urls(["https://example.org/x?y=1", "file:///tmp/a.txt"]))
        #expect(DroppedContent.decode(Data("file://otherhost/tmp/a.txt\r\n".utf8), as: "text/uri-list")
            == .urls(["file://otherhost/tmp/a.txt"]))
    }

    /// Firefox's text/x-moz-url: UTF-16LE, URL and title on alternate lines.
    @Test func mozURLIsUTF16WithTitles() {
        let text = "https://example.org/\nExample\nhttps://swift.org/\nSwift"
        var bytes = Data()
        for unit in text.utf16 { bytes.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        #expect(DroppedContent.decode(bytes, as: "text/x-moz-url") == .urls(["https://example.org/", "https://swift.org/"]))
        #expect(DroppedContent.decode(Data("https://a.example/\nA title".utf8), as: "_NETSCAPE_URL") == .urls(["https://a.example/"]))
    }

    @Test func textAndData() {
        #expect(DroppedContent.decode(Data("Grüße".utf8), as: .utf8String) == .text("Grüße"))
        #expect(DroppedContent.decode(Data([0x47, 0x72, 0xFC, 0xDF, 0x65]), as: .string) == .text("Grüße"))
        #expect(DroppedContent.decode(Data([1, 2, 3]), as: "image/png") == .data(Data([1, 2, 3]), type: "image/png"))
    }

    @Test func theTargetReadIsTheRightOne() {
        let browserImage: [SelectionTarget] = ["TARGETS", "image/png", "text/x-moz-url", "text/uri-list", "UTF8_STRING"]
        #expect(DroppedContent.preferredTarget(offered: browserImage, takesData: false) == "text/uri-list")
        // Into a folder, the image rather than its URL (#26: Firefox's image drags were printed as URLs).
        #expect(DroppedContent.preferredTarget(offered: browserImage, takesData: true) == "image/png")
        let image: [SelectionTarget] = ["TARGETS", "_GTK_SOMETHING", "image/png", "UTF8_STRING"]
        #expect(DroppedContent.preferredTarget(offered: image, takesData: true) == "image/png")
        #expect(DroppedContent.preferredTarget(offered: image, takesData: false) == "UTF8_STRING")
        #expect(DroppedContent.preferredTarget(offered: image, accepting: ["IMAGE/PNG"], takesData: false) == "image/png")
        #expect(DroppedContent.preferredTarget(offered: image, accepting: ["image/jpeg"], takesData: true) == nil)
        #expect(DroppedContent.preferredTarget(offered: ["application/x-thing"], takesData: false) == nil)
    }

    @Test("a drop reads text as a paste does: TextReadOrder's pick, decoded by the same codec")
    func dropTextFollowsTheOneOrder() {
        let offers: [[SelectionTarget]] = [
            ["TEXT", "STRING", "text/plain"], ["text/plain", "text/plain;charset=utf-8", "TEXT"],
            ["COMPOUND_TEXT", "STRING"], ["text/plain;charset=iso-8859-15", "text/plain"],
        ]
        for offered in offers {
            #expect(DroppedContent.preferredTarget(offered: offered, takesData: false) == TextReadOrder.best(in: offered))
            #expect(DroppedContent.preferredTarget(offered: offered, takesData: true) == TextReadOrder.best(in: offered))
            #expect(DroppedContent.preferredTarget(offered: offered, takesData: false) == TargetMapping.preferredTextTarget(in: offered))
        }
        // TEXT decodes by the type the source wrote; Latin-1 text in ISO-8859-15 by its label.
        #expect(DroppedContent.decode(Data([0x63, 0x61, 0x66, 0xE9]), as: .text, propertyType: .string) == .text("café"))
        #expect(DroppedContent.decode(Data("café".utf8), as: .text, propertyType: .utf8String) == .text("café"))
        #expect(DroppedContent.decode(Data([0xA4]), as: "text/plain;charset=iso-8859-15") == .text("€"))
    }

    /// File names come from the type only, never from what the source said.
    @Test func fileNamesAreMadeHere() {
        #expect(DroppedContent.fileName(index: 3, type: "image/png") == "drop-3.png")
        #expect(DroppedContent.fileName(index: 1, type: "application/x-unknown-thing") == "drop-1.bin")
        #expect(DroppedContent.fileName(index: 2, type: "../../etc/passwd") == "drop-2.bin")
    }

    /// Firefox offers an image dragged from a page as its URL and as the image (among 20 types): into a folder, the
    /// image; without one, the URL.
    @Test func anImageBeatsItsURLWhenDataIsTaken() {
        let firefox: [SelectionTarget] = [
            "text/x-moz-url", "text/_moz_htmlcontext", "text/_moz_htmlinfo", "text/html", "text/x-moz-url-data",
            "text/x-moz-url-desc", "application/x-moz-custom-clipdata", "text/plain", "application/x-moz-nativeimage",
            "image/png", "image/jpeg", "application/x-moz-file-promise", "text/uri-list", "_NETSCAPE_URL",
        ]
        #expect(DroppedContent.preferredTarget(offered: firefox, takesData: true) == "image/png")
        #expect(DroppedContent.preferredTarget(offered: firefox, takesData: false) == "text/uri-list")
        #expect(DroppedContent.preferredTarget(offered: firefox, accepting: ["text/uri-list"], takesData: true) == "text/uri-list")
        // A file dragged from a file manager stays a path.
        #expect(DroppedContent.preferredTarget(offered: ["text/uri-list", "x-special/gnome-copied-files"], takesData: true)
            == "text/uri-list")
    }

    /// Found by the fuzzer: a relative `file:` URI was a local path ("a"), and a NUL passed into it.
    @Test func onlyAbsoluteCleanFileURIsArePaths() {
        #expect(DroppedContent.decode(Data("file:a\r\n".utf8), as: "text/uri-list") == .urls(["file:a"]))
        #expect(DroppedContent.decode(Data("file:/\u{0}ab\r\n".utf8), as: "text/uri-list") != .paths(["/\u{0}ab"]))
        #expect(DroppedContent.decode(Data("file:///tmp/x\r\n".utf8), as: "text/uri-list") == .paths(["/tmp/x"]))
    }
}
