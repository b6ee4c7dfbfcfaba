// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — DropDestination: Transferable values received by XDND, against a scripted drag source

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
import TransferKit
import X11Selection

/// Serialized: each drag source owns the server's one `XdndSelection`.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct DropDestinationTests {
    private func drag(onto window: X11Window, offering offers: [(String, Data)], action: String = "copy") async throws
        -> XdndSourcePeer.Outcome
    {
        try await XdndSourcePeer.drag(
            onto: window, display: try #require(XvfbServer.current).display, offering: offers, extra: ["--action", action])
    }

    @Test("files dropped as a URL list arrive as URLs, one per file, with the location; the source learns the copy")
    func filesArriveAsURLs() async throws {
        let connection = try await X11Connection.open(display: try #require(XvfbServer.current).display)
        let received = Mutex<([URL], DropLocation?)>(([], nil))
        let targeted = Mutex<[Bool]>([])
        let destination = try await DropDestination<URL>.register(connection: connection) { urls, location in
            received.withLock { $0 = (urls, location) }
            return true
        } isTargeted: { value in targeted.withLock { $0.append(value) } }
        let uris = Data("file:///tmp/a%20b.txt\r\nfile:///tmp/c.txt\r\n".utf8)
        let outcome = try await drag(onto: destination.window, offering: [("text/uri-list", uris)])
        #expect(outcome.accepted == true && outcome.finishedAccepted == true && outcome.finishedAction == "XdndActionCopy")
        let (urls, location) = received.withLock { $0 }
        #expect(urls == [URL(fileURLWithPath: "/tmp/a b.txt"), URL(fileURLWithPath: "/tmp/c.txt")])
        // The source said (10, 10) on the root window; the connection's own window sits at (-10, -10).
        #expect(location == DropLocation(x: 10, y: 10, windowX: 20, windowY: 20))
        #expect(await eventually { targeted.withLock { $0 } == [true, false] })
        await destination.unregister()
        await connection.shutdown()
    }

    /// Chromium's image drags offer only XdndDirectSave0 and application/octet-stream: with a folder for direct
    /// saves, a URL destination takes them, and gets the saved file's URL.
    @Test("a direct save (XDS) into the folder arrives as the saved file's URL", arguments: ["S", "F"])
    func directSaveArrivesAsAFileURL(reply: String) async throws {
        let connection = try await X11Connection.open(display: try #require(XvfbServer.current).display)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let received = Mutex<[URL]>([])
        let destination = try await DropDestination<URL>.register(connection: connection, directSaves: folder) { urls, _ in
            received.withLock { $0 = urls }
            return true
        }
        let image = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let outcome = try await XdndSourcePeer.drag(
            onto: destination.window, display: try #require(XvfbServer.current).display,
            offering: [("application/octet-stream", image)],
            extra: ["--action", "directsave", "--direct-save", "sunset.png", "--direct-save-reply", reply])
        #expect(outcome.accepted == true && outcome.finishedAccepted == true, "\(outcome)")
        let saved = folder.appendingPathComponent("sunset.png")
        #expect(received.withLock { $0 } == [saved])
        #expect(FileManager.default.contents(atPath: saved.path) == image)
        // Without a folder, such a drag offers nothing a URL destination imports: refused before the drop.
        let plain = try await DropDestination<URL>.register(connection: connection) { _, _ in true }
        let refused = try await XdndSourcePeer.drag(
            onto: plain.window, display: try #require(XvfbServer.current).display,
            offering: [("application/octet-stream", image)], extra: ["--action", "directsave", "--direct-save", "x.png"])
        #expect(refused.accepted == false, "\(refused)")
        await plain.unregister()
        await destination.unregister()
        await connection.shutdown()
    }

    @Test("a String destination takes HTML through the converter, and the move the user asked for")
    func htmlArrivesAsText() async throws {
        let connection = try await X11Connection.open(display: try #require(XvfbServer.current).display)
        let received = Mutex<[String]>([])
        let destination = try await DropDestination<String>.register(connection: connection) { texts, _ in
            received.withLock { $0 = texts }
            return true
        }
        let outcome = try await drag(onto: destination.window, offering: [("text/html", Data("<p>Grüße <b>aus</b> X</p>".utf8))],
                                     action: "move")
        #expect(outcome.finishedAccepted == true && outcome.finishedAction == "XdndActionMove")
        #expect(received.withLock { $0 } == ["Grüße aus X"])
        await connection.shutdown()
    }

    @Test("a drag T cannot import is refused while it moves, and nothing is dropped")
    func refusedWhenNothingImports() async throws {
        let connection = try await X11Connection.open(display: try #require(XvfbServer.current).display)
        let called = Mutex(false)
        let destination = try await DropDestination<Image>.register(connection: connection) { _, _ in
            called.withLock { $0 = true }
            return true
        }
        let outcome = try await drag(onto: destination.window, offering: [("UTF8_STRING", Data("not an image".utf8))])
        #expect(outcome.accepted == false && outcome.finishedAccepted == nil)
        #expect(!called.withLock { $0 })
        await connection.shutdown()
    }
}
