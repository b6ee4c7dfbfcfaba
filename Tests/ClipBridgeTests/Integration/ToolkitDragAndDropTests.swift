// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — Transferable values by drag and drop with real GTK 4 and Qt 5 windows, both ways

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
import TransferKit
import X11Selection
import X11TextWindows

/// `DragSource` and `DropDestination` against GTK 4 and Qt 5 apps, the pointer driven through XTEST: the seeds'
/// models (a Todo, a Profile) and the standard types (String, URL) cross in both directions.
///
/// Serialized: one pointer and one `XdndSelection` per server.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(3)))
struct ToolkitDragAndDropTests {
    private var display: String { get throws { try #require(XvfbServer.current).display } }

    /// Starts a drag of `items` from the pointer, clicks at `point`, and returns the outcome.
    private func drag<T: Transferable>(_ items: [T], on connection: X11Connection, to point: (x: Int, y: Int)) async throws
        -> XdndDragOutcome
    {
        let display = try display
        try await Pointer.run(["move", "5", "5"], display: display)
        let dragging = Task { try await DragSource.drag(items, connection: connection, timeout: .seconds(60)) }
        #expect(await eventually(timeout: .seconds(10)) { await connection.isDragging })
        try await Pointer.run(
            ["glide", "\(point.x)", "\(point.y)", "sleep", "250", "press", "sleep", "50", "release"], display: display)
        return try await dragging.value
    }

    /// The seed "making a view into a drag source": a Profile dragged into GTK 4 arrives as its name (the
    /// proxy representation), and into Qt 5 as its JSON under its own type.
    @Test func aProfileDraggedIntoGTK4AndQt5() async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let profile = Profile(name: "Ada Lovelace ✓", phoneNumber: "+44 20 0000")
        let gtk = try await DragPeer.target(.gtk4, display: display, accept: ["text/plain;charset=utf-8"])
        let outcome = try await drag([profile], on: connection, to: gtk.window.center)
        #expect(outcome == .dropped(target: gtk.window.id, action: .xdndActionCopy))
        #expect(try await gtk.waitForEvent("drop").text == profile.name)
        await gtk.stop()

        let profileTarget = try #require(TargetMapping.targets(for: .profile).first)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let qt = try await DragPeer.target(.qt5, display: display, accept: [profileTarget.rawValue], save: scratch)
        defer { Task { await qt.stop() } }
        #expect(try await drag([profile], on: connection, to: qt.window.center) == .dropped(target: qt.window.id, action: .xdndActionCopy))
        let drop = try await qt.waitForEvent("drop")
        let json = try #require(drop.file.flatMap { FileManager.default.contents(atPath: $0) })
        #expect(try JSONDecoder().decode(Profile.self, from: json) == profile)
        await connection.shutdown()
    }

    /// Files dragged as URLs reach Qt 5 as the uri-list a file manager writes.
    @Test func urlsDraggedIntoQt5() async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let qt = try await DragPeer.target(.qt5, display: display, accept: ["text/uri-list"])
        defer { Task { await qt.stop() } }
        let files = [URL(fileURLWithPath: "/tmp/a b.txt"), URL(fileURLWithPath: "/tmp/ç.png")]
        #expect(try await drag(files, on: connection, to: qt.window.center) == .dropped(target: qt.window.id, action: .xdndActionCopy))
        let drop = try await qt.waitForEvent("drop")
        #expect(drop.text == "file:///tmp/a%20b.txt\r\nfile:///tmp/%C3%A7.png\r\n")
        await connection.shutdown()
    }

    /// A destination on a window of ours: what `Received` gets, and that the source learns the verdict.
    private final class Received<T: Sendable>: Sendable {
        let values = Mutex<[T]>([])
    }

    private func destination<T: Transferable & Sendable>(
        _ type: T.Type, on connection: X11Connection
    ) async throws -> (DropDestination<T>, PeerWindow, Received<T>) {
        let window = try await connection.openTextWindow(title: "drop \(T.self)", lines: ["drop here"], position: (500, 300))
        let received = Received<T>()
        let destination = try await DropDestination<T>.register(on: window.window, connection: connection) { values, _ in
            received.values.withLock { $0 += values }
            return true
        }
        let geometry = try #require(try await connection.geometry(of: window.window))
        return (destination, PeerWindow(id: window.window, x: geometry.x, y: geometry.y, width: geometry.width, height: geometry.height), received)
    }

    @Test func gtk4TextDroppedAsString() async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let (destination, window, received) = try await destination(String.self, on: connection)
        let text = "Grüße aus GTK 4 ✓"
        let source = try await DragPeer.source(.gtk4, display: display, offers: [("text/plain;charset=utf-8", Data(text.utf8))])
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let end = try await source.waitForEvent("drag-end", "drag-cancel")
        #expect(end.event == "drag-end" && end.action == "copy")
        #expect(await eventually(timeout: .seconds(10)) { received.values.withLock { $0 } == [text] })
        await destination.unregister()
        await connection.shutdown()
    }

    @Test(arguments: [DragPeer.Kind.gtk4, .qt5])
    func filesDroppedAsURLs(_ kind: DragPeer.Kind) async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let (destination, window, received) = try await destination(URL.self, on: connection)
        let list = "file:///tmp/x%20y.txt\r\nfile:///tmp/z.txt\r\n"
        let source = try await DragPeer.source(kind, display: display, offers: [("text/uri-list", Data(list.utf8))])
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let end = try await source.waitForEvent("drag-end", "drag-cancel")
        #expect(end.event == "drag-end" && end.action == "copy")
        // Qt's QDrag::exec returns at the drop, before the target finished: wait for the handler.
        let expected = [URL(fileURLWithPath: "/tmp/x y.txt"), URL(fileURLWithPath: "/tmp/z.txt")]
        #expect(await eventually(timeout: .seconds(10)) { received.values.withLock { $0 } == expected })
        await destination.unregister()
        await connection.shutdown()
    }

    /// A custom type: GTK 4 and Qt 5 drag a Card's JSON under its MIME type, the destination decodes it. (GTK 4
    /// offers only MIME-shaped names: a type without a MIME tag, named by its identifier, does not leave GTK.)
    @Test(arguments: [DragPeer.Kind.gtk4, .qt5])
    func customTypeDroppedAsCard(_ kind: DragPeer.Kind) async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let (destination, window, received) = try await destination(Card.self, on: connection)
        let card = Card(title: "dragged ✓", points: 3)
        let source = try await DragPeer.source(kind, display: display, offers: [(Card.mimeType, try JSONEncoder().encode(card))])
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let end = try await source.waitForEvent("drag-end", "drag-cancel")
        #expect(end.event == "drag-end")
        #expect(await eventually(timeout: .seconds(10)) { received.values.withLock { $0 } == [card] })
        await destination.unregister()
        await connection.shutdown()
    }

    /// Drops as item providers (SwiftUI's `onDrop(of:)`): a Qt 5 drag of a Todo's JSON loads lazily as a Todo
    /// with the seeds' completion handler, and as a file of the type, inside the handler.
    @Test func qt5DropDeliversAnItemProvider() async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let window = try await connection.openTextWindow(title: "providers", lines: ["drop here"], position: (500, 300))
        let todo = Todo(text: "provided ✓", isDone: false)
        let json = try JSONEncoder().encode(todo)
        let loaded = Mutex<(todo: Todo?, file: Data?, conforms: Bool)>((nil, nil, false))
        let destination = try await ItemDropDestination.register(of: [.todo], on: window.window, connection: connection) {
            providers, _ in
            guard let provider = providers.first else { return false }
            let conforms = provider.hasItemConformingTo(.todo)
            let todo = Mutex<Todo?>(nil)
            await provider.loadTransferable(type: Todo.self) { result in todo.withLock { $0 = try? result.get() } }.wait()
            let file = try? await provider.loadFileRepresentation(for: .todo) { try Data(contentsOf: $0) }
            loaded.withLock { $0 = (todo.withLock { $0 }, file, conforms) }
            return true
        }
        let geometry = try #require(try await connection.geometry(of: window.window))
        let target = try #require(TargetMapping.targets(for: .todo).first)
        let source = try await DragPeer.source(
            .qt5, display: display, offers: [(target.rawValue, json), ("text/plain", Data("provided".utf8))])
        defer { Task { await source.stop() } }
        try await source.drag(to: (geometry.x + 40, geometry.y + 20), display: display)
        #expect(await eventually(timeout: .seconds(10)) { loaded.withLock { $0.todo } != nil })
        let result = loaded.withLock { $0 }
        #expect(result.todo == todo && result.file == json && result.conforms)
        await destination.unregister()
        await connection.shutdown()
    }

    /// The clipboard hands out the same provider type for its current content.
    @Test func theClipboardsContentAsAnItemProvider() async throws {
        let display = try display
        let owner = try await ToolkitPeer(.gtk4, display: display).own(text: "from the clipboard ✓")
        defer { Task { await owner.stop() } }
        let clipboard = try await Clipboard.open(display: display)
        let provider = try await clipboard.itemProvider()
        #expect(provider.hasItemConformingTo(.plainText))
        #expect(try await provider.loadTransferable(type: String.self) == "from the clipboard ✓")
        await clipboard.shutdown()
    }

    /// A window of another client that knows nothing of XDND, made a drop destination through XdndProxy: Qt 5's
    /// drag source and our own (which send to the proxy, naming the window) both drop on it. (Not GTK 4's: after
    /// the first position over a window it sends to the window itself instead of its proxy —
    /// gdk_x11_drag_find_surface returns `dest` as the proxy when the window under the pointer has not changed —
    /// so a proxied window never answers it.)
    @Test func aForeignWindowTakesDropsThroughItsProxy() async throws {
        let display = try display
        let plain = try await DragPeer.scriptedTarget(mode: "plain", display: display, at: (500, 300, 300, 200))
        defer { Task { await plain.stop() } }
        let connection = try await X11Connection.open(display: display)
        let received = Received<String>()
        let destination = try await DropDestination<String>.register(on: plain.window.id, connection: connection) { values, _ in
            received.values.withLock { $0 += values }
            return true
        }
        let source = try await DragPeer.source(.qt5, display: display, offers: [("text/plain", Data("via proxy".utf8))])
        try await source.drag(to: plain.window.center, display: display)
        #expect(await eventually(timeout: .seconds(10)) { received.values.withLock { $0 } == ["via proxy"] })
        await source.stop()

        let dragger = try await X11Connection.open(display: display)
        #expect(try await drag(["from our source"], on: dragger, to: plain.window.center)
            == .dropped(target: plain.window.id, action: .xdndActionCopy))
        #expect(await eventually(timeout: .seconds(10)) { received.values.withLock { $0 } == ["via proxy", "from our source"] })
        await destination.unregister()
        await dragger.shutdown()
        await connection.shutdown()
    }

    /// A destination on a rectangle of a window (a view's frame): a drag over the rest of the window is refused,
    /// one inside is taken, with the location in the window's coordinates.
    @Test func aRectangleOfAWindow() async throws {
        let display = try display
        let connection = try await X11Connection.open(display: display)
        let window = try await connection.openTextWindow(title: "rectangle", lines: ["left half"], width: 300, position: (500, 300))
        let received = Mutex<[(String, DropLocation)]>([])
        let destination = try await DropDestination<String>.register(
            on: window.window, in: DropRectangle(x: 0, y: 0, width: 150, height: 100), connection: connection
        ) { values, location in
            received.withLock { $0 += values.map { ($0, location) } }
            return true
        }
        let geometry = try #require(try await connection.geometry(of: window.window))
        let dragger = try await X11Connection.open(display: display)
        let outside = try await drag(["outside"], on: dragger, to: (geometry.x + 225, geometry.y + 20))
        #expect(outside == .refused(target: window.window))
        let inside = try await drag(["inside"], on: dragger, to: (geometry.x + 75, geometry.y + 20))
        #expect(inside == .dropped(target: window.window, action: .xdndActionCopy))
        #expect(await eventually(timeout: .seconds(10)) { received.withLock { $0.count } == 1 })
        let (value, location) = try #require(received.withLock { $0.first })
        #expect(value == "inside" && location.windowX == 75 && location.windowY == 20)
        #expect(location.x == geometry.x + 75 && location.y == geometry.y + 20)
        await destination.unregister()
        await dragger.shutdown()
        await connection.shutdown()
    }
}

/// A custom type declared with a MIME type, as an app that exchanges it with GTK must declare it.
struct Card: Codable, Transferable, Equatable {
    static let mimeType = "application/x-clipbridge-card+json"
    static let type: UTType = {
        (try? UTType.register(UTTypeDeclaration(
            identifier: "com.example.clipbridge-tests.card", conformsTo: [.json],
            tags: [.mimeType: [mimeType]], description: "Card"))) ?? UTType(exportedAs: "com.example.clipbridge-tests.card")
    }()

    var title: String
    var points: Int

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: Card.type)
    }
}
