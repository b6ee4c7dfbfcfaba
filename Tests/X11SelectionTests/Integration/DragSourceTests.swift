import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// `X11Connection.drag`: XDND's source side on the wire, dropping on real GTK 4 and Qt 5 windows and on a
/// scripted target that misbehaves, with the pointer driven through XTEST.
///
/// Serialized: one pointer and one `XdndSelection` per server, as on a desktop.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(4)))
struct DragSourceTests {
    private let text = "héllo ✓ drag"

    /// Starts `offer`'s drag, then runs `steps` with the pointer once the drag holds it.
    private func drag(
        _ offer: SelectionOffer, on connection: X11Connection, actions: [SelectionTarget] = [.xdndActionCopy],
        steps: [String]
    ) async throws -> XdndDragOutcome {
        let display = try currentDisplay()
        let dragging = Task { try await connection.drag(offer, actions: actions, timeout: .seconds(60)) }
        #expect(try await eventually(timeout: .seconds(10)) { await connection.isDragging })
        try await Pointer.run(steps, display: display)
        return try await dragging.value
    }

    private func clickSteps(at point: (x: Int, y: Int)) -> [String] {
        ["glide", "\(point.x)", "\(point.y)", "sleep", "250", "press", "sleep", "50", "release"]
    }

    private func textOffer(_ text: String) -> SelectionOffer {
        SelectionOffer(SelectionOffer.textRepresentations(text))
    }

    /// No button held when the drag starts: it follows the pointer and the next click drops (the
    /// `--from-pointer` way). GTK 4 reads the text in the type it prefers; XdndSelection is given up after.
    @Test func textDroppedOnGTK4FromThePointer() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.target(.gtk4, display: display, accept: ["text/plain;charset=utf-8"])
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        try await Pointer.run(["move", "5", "5"], display: display)
        // An action named twice is allowed once (it used to trap, building the action table).
        let outcome = try await drag(
            textOffer(text), on: connection, actions: [.xdndActionCopy, .xdndActionCopy, .xdndActionMove],
            steps: clickSteps(at: target.window.center))
        #expect(outcome == .dropped(target: target.window.id, action: .xdndActionCopy))
        let drop = try await target.waitForEvent("drop")
        #expect(drop.text == text && drop.mime == "text/plain;charset=utf-8" && drop.action == "copy")
        #expect(try await connection.owner(of: .xdndSelection) == nil)
        #expect(await connection.isDragging == false)
        await connection.shutdown()
    }

    /// A button held when the drag starts (pressed where no client takes it): its release drops. Qt 5 takes a
    /// custom type with a move, the only action allowed.
    @Test func customTypeMovedOntoQt5WithTheButtonHeld() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.target(
            .qt5, display: display, accept: ["application/x-clipbridge-test"], action: "move")
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let offer = SelectionOffer([
            .init(target: "application/x-clipbridge-test", source: .bytes(bytes)),
        ] + SelectionOffer.textRepresentations("fallback"))
        try await Pointer.run(["move", "5", "5", "press"], display: display)
        let center = target.window.center
        let outcome = try await drag(
            offer, on: connection, actions: [.xdndActionMove],
            steps: ["glide", "\(center.x)", "\(center.y)", "sleep", "250", "release"])
        #expect(outcome == .dropped(target: target.window.id, action: .xdndActionMove))
        let drop = try await target.waitForEvent("drop")
        #expect(drop.mime == "application/x-clipbridge-test" && drop.bytes == bytes.count && drop.action == "move")
        #expect(drop.file.flatMap { FileManager.default.contents(atPath: $0) } ?? Data() == bytes || drop.file == nil)
        await connection.shutdown()
    }

    @Test func aRefusingTargetEndsTheDragRefused() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.target(.gtk4, display: display, accept: ["text/plain;charset=utf-8"], refuse: true)
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        try await Pointer.run(["move", "5", "5"], display: display)
        let outcome = try await drag(textOffer(text), on: connection, steps: clickSteps(at: target.window.center))
        #expect(outcome == .refused(target: target.window.id))
        #expect(!target.events.contains { $0.event == "drop" })
        await connection.shutdown()
    }

    /// Escape over a target: it is left, and the drag ends cancelled.
    @Test func escapeCancels() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.target(.gtk4, display: display, accept: ["text/plain;charset=utf-8"])
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        try await Pointer.run(["move", "5", "5"], display: display)
        let center = target.window.center
        let outcome = try await drag(
            textOffer(text), on: connection, steps: ["glide", "\(center.x)", "\(center.y)", "sleep", "250", "key", "Escape"])
        #expect(outcome == .cancelled)
        _ = try await target.waitForEvent("leave")
        #expect(!target.events.contains { $0.event == "drop" })
        await connection.shutdown()
    }

    /// The watchdog: a target that never answers, one that never finishes, and one that dies on the drop each
    /// release the source within its bound.
    @Test(arguments: ["silent", "no-finish", "die-on-drop"])
    func aTargetThatFailsReleasesTheSource(mode: String) async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.scriptedTarget(mode: mode, display: display)
        defer { Task { await target.stop() } }
        let connection = try await openConnection {
            $0.dragStatusTimeout = .seconds(1)
            $0.dragFinishTimeout = .seconds(2)
        }
        try await Pointer.run(["move", "5", "5"], display: display)
        let started = ContinuousClock.now
        let outcome = try await drag(textOffer(text), on: connection, steps: clickSteps(at: target.window.center))
        let took = ContinuousClock.now - started
        guard case .abandoned(let window, _) = outcome else {
            Issue.record("\(mode): \(outcome)")
            return
        }
        #expect(window == target.window.id)
        // Pointer steps take about a second; then 1 s (status) or 2 s (finish), or at once (death).
        #expect(took < .seconds(8), "\(mode): \(took)")
        #expect(try await connection.owner(of: .xdndSelection) == nil)
        await connection.shutdown()
    }

    /// A target that accepted the drag and finishes it with "not accepted" and action None — what Kate (Qt 5) sends
    /// for a file it opened — has taken a drop: GTK 4's source ends such a drag as done (gdk_x11_drag_handle_finished).
    /// The flag is reported beside the accepted action.
    @Test func aFinishSayingNotAcceptedAfterAcceptingIsADrop() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.scriptedTarget(mode: "refuse-finish", display: display)
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        try await Pointer.run(["move", "5", "5"], display: display)
        let outcome = try await drag(textOffer(text), on: connection, steps: clickSteps(at: target.window.center))
        #expect(outcome == .dropped(target: target.window.id, action: .xdndActionCopy, targetAccepted: false))
        await connection.shutdown()
    }

    /// A target answering each position with refuse, accept, refuse (LibreOffice Writer 7.4 where it will not take
    /// the drop) is refused and gets no XdndDrop: its last word counts, as in GTK 4's source. Refuse, accept, accept
    /// (where Writer takes it) is a drop.
    @Test(arguments: ["wavering-refuse", "wavering-accept"])
    func aWaveringTargetsLastWordDecides(mode: String) async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.scriptedTarget(mode: mode, display: display)
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        try await Pointer.run(["move", "5", "5"], display: display)
        let outcome = try await drag(textOffer(text), on: connection, steps: clickSteps(at: target.window.center))
        if mode == "wavering-accept" {
            #expect(outcome == .dropped(target: target.window.id, action: .xdndActionCopy, targetAccepted: true))
            #expect(target.lines.contains("XdndDrop"), "\(target.lines)")
        } else {
            #expect(outcome == .refused(target: target.window.id), "\(outcome)")
            #expect(try await eventually { target.lines.contains("XdndLeave") }, "\(target.lines)")
            #expect(!target.lines.contains("XdndDrop"), "\(target.lines)")
        }
        await connection.shutdown()
    }

    /// 50 MiB through XdndSelection (INCR) into GTK 4 and Qt 5, byte-exact. (Their own drag sources cannot send
    /// this much: both put a drag's data in one property, at most the server's request size, 16 MiB on Xvfb.)
    @Test(arguments: [DragPeer.Kind.gtk4, .qt5])
    func fiftyMebibytesIntoAToolkit(_ kind: DragPeer.Kind) async throws {
        let display = try currentDisplay()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try await DragPeer.target(
            kind, display: display, accept: ["application/x-clipbridge-test"], save: directory)
        defer { Task { await target.stop() } }
        let connection = try await openConnection()
        let bytes = payload(50 * 1024 * 1024)
        try await Pointer.run(["move", "5", "5"], display: display)
        let outcome = try await drag(
            SelectionOffer([.init(target: "application/x-clipbridge-test", source: .bytes(bytes))]), on: connection,
            steps: clickSteps(at: target.window.center))
        #expect(outcome == .dropped(target: target.window.id, action: .xdndActionCopy))
        let drop = try await target.waitForEvent("drop", timeout: .seconds(60))
        #expect(drop.bytes == bytes.count)
        let saved = try #require(drop.file.flatMap { FileManager.default.contents(atPath: $0) })
        #expect(saved == bytes)
        await connection.shutdown()
    }

    /// A button pressed in another client's window is that client's grab: the drag cannot start, and says so.
    @Test func aPointerHeldByAnotherClientIsReported() async throws {
        let display = try currentDisplay()
        let target = try await DragPeer.target(.gtk4, display: display, accept: ["text/plain;charset=utf-8"])
        defer { Task { await target.stop() } }
        let center = target.window.center
        try await Pointer.run(["move", "\(center.x)", "\(center.y)", "sleep", "100", "press"], display: display)
        defer { Task { try? await Pointer.run(["release"], display: display) } }
        let connection = try await openConnection()
        await #expect(throws: SelectionError(.pointerUnavailable, "")) {
            _ = try await connection.drag(self.textOffer(self.text))
        }
        #expect(try await connection.owner(of: .xdndSelection) == nil)
        #expect(await connection.isDragging == false)
        try await Pointer.run(["release"], display: display)
        await connection.shutdown()
    }
}
