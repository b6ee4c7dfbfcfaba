import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import X11Selection

/// `clipbridge drag` and `clipbridge drop` with real GTK 4 and Qt 5 windows, both ways, the pointer driven
/// through XTEST. Each test asserts the bytes that arrived, the action and the exit status.
///
/// Serialized: one pointer and one `XdndSelection` per server.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(4)))
struct DragDropCommandTests {
    private let text = "héllo ✓ from a drag"

    private func dragFromPointer(_ arguments: [String], display: String) async throws -> BackgroundPeer {
        try await DragCommand.fromPointer(arguments, display: display)
    }

    private func click(at point: (x: Int, y: Int), display: String) async throws {
        try await Pointer.run(
            ["glide", "\(point.x)", "\(point.y)", "sleep", "250", "press", "sleep", "50", "release"], display: display)
    }

    private func jsonLines(_ result: CommandResult) -> [[String: Any]] { DragCommand.jsonLines(result) }

    // MARK: clipbridge drag

    /// A file dragged from the pointer into GTK 4: its uri-list, exactly as file managers write it.
    @Test func aFileFromThePointerIntoGTK4() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("a b é.txt", Data("contents".utf8))
        let target = try await DragPeer.target(.gtk4, display: display, accept: ["text/uri-list"])
        defer { Task { await target.stop() } }
        let command = try await dragFromPointer([file.path], display: display)
        try await click(at: target.window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let line = try #require(jsonLines(result).first)
        #expect(line["outcome"] as? String == "dropped" && line["action"] as? String == "copy")
        #expect(line["target"] as? String == target.window.id.description)
        let drop = try await target.waitForEvent("drop")
        #expect(drop.mime == "text/uri-list" && drop.text == file.absoluteString + "\r\n")
    }

    /// `--data -t TYPE --file F` into Qt 5: the custom type's exact bytes.
    @Test func customDataFromThePointerIntoQt5() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let file = try scratch.file("payload", bytes)
        let saved = scratch.url.appendingPathComponent("saved")
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        let target = try await DragPeer.target(.qt5, display: display, accept: ["application/x-clipbridge-test"], save: saved)
        defer { Task { await target.stop() } }
        let command = try await dragFromPointer(
            ["--data", "-t", "application/x-clipbridge-test", "--file", file.path], display: display)
        try await click(at: target.window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let drop = try await target.waitForEvent("drop")
        #expect(drop.mime == "application/x-clipbridge-test" && drop.bytes == bytes.count)
        #expect(drop.file.flatMap { FileManager.default.contents(atPath: $0) } == bytes)
    }

    /// The window: a press on an item and a drag past the threshold drags it; `--once` exits after the drop.
    @Test func textDraggedFromTheWindowIntoQt5() async throws {
        let display = try CLI.server().display
        let target = try await DragPeer.target(.qt5, display: display, accept: ["text/plain"], at: (500, 300, 300, 200))
        defer { Task { await target.stop() } }
        let command = try CLI.start(["drag", "--once", "--json", "--text", text], display: display)
        let window = try await PeerWindow.find(named: "clipbridge drag", display: display)
        // The first line of the list, a few pixels in.
        try await Pointer.run(Pointer.dragSteps(from: (window.x + 30, window.y + 12), to: target.window.center), display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        #expect(jsonLines(result).first?["outcome"] as? String == "dropped")
        let drop = try await target.waitForEvent("drop")
        #expect(drop.text == text && drop.action == "copy")
    }

    /// A target that accepts the drag and then finishes with "not accepted" and action None, as Kate (Qt 5) answers
    /// a file it opened: a drop, as GTK 4's source judges it — exit 0, the window closes with `--once`, the JSON line
    /// has the accepted action and the target's own flag.
    @Test func aDropTheTargetFinishesAsNotAcceptedIsStillADrop() async throws {
        let display = try CLI.server().display
        let target = try await DragPeer.scriptedTarget(mode: "refuse-finish", display: display)
        defer { Task { await target.stop() } }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("notes.txt", Data("opened by the target".utf8))
        let command = try CLI.start(["drag", "--once", "--json", file.path], display: display)
        let window = try await PeerWindow.find(named: "clipbridge drag", display: display)
        try await Pointer.run(Pointer.dragSteps(from: (window.x + 30, window.y + 12), to: target.window.center), display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let line = try #require(jsonLines(result).first, "\(result)")
        #expect(line["outcome"] as? String == "dropped")
        #expect(line["action"] as? String == "copy")
        #expect(line["targetAccepted"] as? Bool == false)
    }

    /// The window shows a thumbnail before an image file (decoded, scaled to fit 32 × 32): the pixels at the
    /// icon's place are the image's colour, and a text item's line has none.
    @Test func theWindowShowsThumbnailsOfImages() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let image = scratch.url.appendingPathComponent("red.png").path
        let made = try await runPeer(["/usr/bin/convert", "-size", "120x80", "xc:#ff0000", image], display: nil)
        #expect(made.succeeded, "\(made.stderrText)")
        let command = try CLI.start(["drag", image, "--text", "no picture"], display: display)
        defer { Task { _ = await command.stop() } }
        let window = try await PeerWindow.find(named: "clipbridge drag", display: display)
        // Line height 36 (32 + 4), lines from y = 6; the icon column starts at x = 8.
        let probe = """
            import sys, time
            from Xlib import display, X
            d = display.Display(); root = d.screen().root
            def pixel(x, y):
                raw = root.get_image(x, y, 1, 1, X.ZPixmap, 0xffffffff).data
                return "%02x%02x%02x" % (raw[2], raw[1], raw[0])
            deadline = time.time() + 10
            while time.time() < deadline and pixel(\(window.x + 24), \(window.y + 24)) != "ff0000":
                time.sleep(0.05)
            print(pixel(\(window.x + 24), \(window.y + 24)), pixel(\(window.x + 24), \(window.y + 60)))
            """
        let result = try await runPeer([ToolkitPeer.python, "-c", probe], display: display, timeout: .seconds(20))
        #expect(result.stdoutText.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == ["ff0000", "ffffff"],
                "\(result.stdoutText) \(result.stderrText)")
    }

    /// A target that never answers: the drag gives up after the status bound and exits 3.
    @Test func aSilentTargetEndsTheDragWithStatus3() async throws {
        let display = try CLI.server().display
        let target = try await DragPeer.scriptedTarget(mode: "silent", display: display)
        defer { Task { await target.stop() } }
        let command = try await dragFromPointer(["--text", "x"], display: display)
        let started = ContinuousClock.now
        try await click(at: target.window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 3, "\(result)")
        #expect(jsonLines(result).first?["outcome"] as? String == "abandoned")
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    // MARK: clipbridge drop

    private func startDrop(_ arguments: [String], display: String) async throws -> (BackgroundPeer, PeerWindow) {
        let command = try CLI.start(["drop", "--json"] + arguments, display: display)
        let window = try await PeerWindow.find(named: "clipbridge drop", display: display)
        return (command, window)
    }

    /// GTK 4 drags text onto the window: printed as it is.
    @Test func gtk4TextDroppedOnTheWindow() async throws {
        let display = try CLI.server().display
        let (command, window) = try await startDrop(["--once"], display: display)
        let source = try await DragPeer.source(
            .gtk4, display: display, offers: [("text/plain;charset=utf-8", Data(text.utf8))], at: (600, 400, 200, 150))
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let line = try #require(jsonLines(result).first)
        #expect(line["text"] as? String == text && line["action"] as? String == "copy")
        let end = try await source.waitForEvent("drag-end", "drag-cancel")
        #expect(end.event == "drag-end" && end.action == "copy")
    }

    /// Qt 5 drags files: RFC 2483 uri-list (a comment, percent-encoding) printed as local paths.
    @Test func qt5FilesDroppedPrintTheirPaths() async throws {
        let display = try CLI.server().display
        let (command, window) = try await startDrop(["--once"], display: display)
        let list = "# two files\r\nfile:///tmp/a%20b%C3%A9.txt\r\nfile:///tmp/c.txt\r\n"
        let source = try await DragPeer.source(
            .qt5, display: display, offers: [("text/uri-list", Data(list.utf8))], at: (600, 400, 200, 150))
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let line = try #require(jsonLines(result).first)
        #expect(line["type"] as? String == "text/uri-list")
        #expect(line["paths"] as? [String] == ["/tmp/a bé.txt", "/tmp/c.txt"])
    }

    /// Qt 5 drags a custom type: with --output-dir it lands in a new 0600 file, byte-exact.
    @Test func qt5DataDroppedIntoAFile() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (command, window) = try await startDrop(
            ["--once", "--output-dir", scratch.url.path, "--accept", "application/x-clipbridge-test"], display: display)
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let source = try await DragPeer.source(
            .qt5, display: display, offers: [("application/x-clipbridge-test", bytes), ("text/plain", Data("alt".utf8))],
            at: (600, 400, 200, 150))
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        let path = try #require(jsonLines(result).first?["file"] as? String)
        #expect(FileManager.default.contents(atPath: path) == bytes)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(URL(fileURLWithPath: path).deletingLastPathComponent().path == scratch.url.path)
    }

    /// A drag offering nothing the window takes is refused before the drop; the window closes with status 7.
    @Test func aDragOfNothingAcceptedIsRefused() async throws {
        let display = try CLI.server().display
        let (command, window) = try await startDrop(["--accept", "image/png", "--exit-after", "5"], display: display)
        let source = try await DragPeer.source(
            .gtk4, display: display, offers: [("text/plain;charset=utf-8", Data(text.utf8))], at: (600, 400, 200, 150))
        defer { Task { await source.stop() } }
        try await source.drag(to: window.center, display: display)
        let end = try await source.waitForEvent("drag-end", "drag-cancel")
        #expect(end.event == "drag-cancel" || end.action == "none")
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 7, "\(result)")
        #expect(jsonLines(result).isEmpty)
    }

    // MARK: Direct save (XDS): Chromium's image drags

    /// A source that saves itself (XdndDirectSave0, as Chromium offers an image): the window gives it a file URI in
    /// --output-dir under the name it proposes, and prints the file once the source said it saved it.
    @Test("a direct save: saved by the source under its name (S), by us from its data (F), refused (E), a lie",
          arguments: ["S", "F", "E", "lie"])
    func directSave(reply: String) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })
        // A file of that name is there already: the new one must not replace it.
        try Data("older".utf8).write(to: scratch.url.appendingPathComponent("cat photo.png"))
        let (command, window) = try await startDrop(["--once", "--output-dir", scratch.url.path, "--exit-after", "8"],
                                                    display: display)
        let outcome = try await XdndSourcePeer.drag(
            onto: window.id, display: display, offering: [("application/octet-stream", image)],
            extra: ["--action", "directsave", "--direct-save", "cat photo.png", "--direct-save-reply", reply])
        let result = try await command.waitForExit(timeout: .seconds(20))
        let expected = scratch.url.appendingPathComponent("cat photo (2).png").path
        #expect(outcome.directSaveURI?.hasSuffix("/cat%20photo%20%282%29.png") == true, "\(outcome)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("cat photo.png")) == Data("older".utf8))
        switch reply {
        case "S", "F":
            #expect(result.exitCode == 0, "\(result)")
            let line = try #require(jsonLines(result).first)
            #expect(line["file"] as? String == expected && line["type"] as? String == "XdndDirectSave0", "\(line)")
            #expect(FileManager.default.contents(atPath: expected) == image)
            #expect(outcome.finishedAccepted == true)
        default:
            // E, or an S with no file there: nothing is printed, the drop is refused.
            #expect(result.exitCode == 7, "\(result)")
            #expect(jsonLines(result).isEmpty)
            #expect(result.stderrText.contains("direct save failed"), "\(result.stderrText)")
            #expect(outcome.finishedAccepted == false)
        }
    }

    /// The proposed name is the source's: anything but one plain file name is not used, and the drop is taken the
    /// usual way (its data, named from its type).
    @Test("a direct save with a hostile name is not used: the data is saved as drop-N", arguments: ["../../escape.png", "a/b.png", ".hidden", ""])
    func directSaveHostileName(name: String) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (command, window) = try await startDrop(["--once", "--output-dir", folder.path, "--exit-after", "8"], display: display)
        let outcome = try await XdndSourcePeer.drag(
            onto: window.id, display: display, offering: [("image/png", Data("png-bytes".utf8))],
            extra: ["--action", "directsave", "--direct-save", name])
        let result = try await command.waitForExit(timeout: .seconds(20))
        #expect(result.exitCode == 0, "\(result)")
        #expect(outcome.directSaveURI == nil, "\(outcome)")
        let line = try #require(jsonLines(result).first)
        #expect(line["file"] as? String == folder.appendingPathComponent("drop-1.png").path, "\(line)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["inbox"])
    }
}
