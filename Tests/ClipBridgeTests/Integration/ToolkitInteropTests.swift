// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — real GTK 4 and Qt 5 applications paste what we copy, and we paste what they copy

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Testing
import TransferKit
import X11Selection

@Suite(.xvfb, .serialized, .timeLimit(.minutes(3)))
struct ToolkitInteropTests {
    static let toolkits = ToolkitPeer.Toolkit.allCases

    @Test("the toolkit's text API pastes our text, non-Latin-1 characters included", arguments: toolkits)
    func toolkitPastesOurText(toolkit: ToolkitPeer.Toolkit) async throws {
        try await withTwoApps { apps in
            let text = "Grüße, 世界 — ok"
            try await apps.owner.copy(Profile(name: text, phoneNumber: "0"))
            let peer = ToolkitPeer(toolkit, display: apps.server.display)
            #expect(try await peer.readText() == text)
        }
    }

    @Test("the toolkit sees our rich types and reads them by MIME type", arguments: toolkits)
    func toolkitReadsRichTypes(toolkit: ToolkitPeer.Toolkit) async throws {
        try await withTwoApps { apps in
            let note = RichNote(title: "t", htmlContent: "<b>bold</b>", plainText: "bold")
            try await apps.owner.copy(note)
            let peer = ToolkitPeer(toolkit, display: apps.server.display)
            let formats = try await peer.formats()
            #expect(formats.contains("application/json"))
            #expect(formats.contains("text/html"))
            #expect(try await peer.read(mimeType: "text/html") == Data(note.htmlContent.utf8))
            #expect(
                try JSONDecoder().decode(RichNote.self, from: try await peer.read(mimeType: "application/json")) == note
            )
        }
    }

    @Test("we paste the toolkit's text as String", arguments: toolkits)
    func wePasteToolkitText(toolkit: ToolkitPeer.Toolkit) async throws {
        try await withTwoApps { apps in
            let text = "from the toolkit: ünïcödé ✓"
            let owner = try await ToolkitPeer(toolkit, display: apps.server.display).own(text: text)
            defer { Task { _ = await owner.stop() } }
            #expect(try await apps.reader.paste(String.self) == [text])
            #expect(try await apps.reader.text() == text)
        }
    }

    @Test("we paste the toolkit's HTML-only text through the converter", arguments: toolkits)
    func wePasteToolkitHTML(toolkit: ToolkitPeer.Toolkit) async throws {
        try await withTwoApps { apps in
            let owner = try await ToolkitPeer(toolkit, display: apps.server.display).own(
                representations: [("text/html", Data("<p>hi <i>there</i></p>".utf8))])
            defer { Task { _ = await owner.stop() } }
            let types = try await apps.reader.availableTypes()
            #expect(types.contains { $0.target == "text/html" && $0.contentType == .html })
            #expect(try await apps.reader.paste(String.self) == ["hi there"], "offered: \(types)")
        }
    }

    /// GTK 4 only: the Qt peer script sets raw bytes with `QMimeData.setData`, and Qt's xcb plugin serves
    /// `application/x-color` from `QMimeData.colorData()` (a QColor), so it sends opaque black for raw bytes.
    @Test(
        "we paste GTK's application/x-color as a Color and as #rrggbb text",
        arguments: toolkits.filter { $0 == .gtk4 })
    func wePasteToolkitColor(toolkit: ToolkitPeer.Toolkit) async throws {
        try await withTwoApps { apps in
            let wire = Data([0xFF, 0xFF, 0x80, 0x80, 0, 0, 0xFF, 0xFF])
            let owner = try await ToolkitPeer(toolkit, display: apps.server.display).own(
                representations: [("application/x-color", wire)])
            defer { Task { _ = await owner.stop() } }
            let type = try #require(try await apps.reader.bestType(for: Color.xColorContentType))
            let bytes = try await apps.reader.data(for: type)
            #expect(bytes == wire, "read \(Array(bytes)) as \(type)")
            #expect(try await apps.reader.paste(Color.self).first?.hexString == "#ff8000")
            #expect(try await apps.reader.text() == "#ff8000")
        }
    }
}
