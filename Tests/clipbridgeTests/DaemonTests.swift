// clipbridge daemon: the clipboard outlives the application that copied it — every flavour, byte-exact —
// against real owners that exit without handing over (xclip, a GTK 3 app with no manager to store to,
// clipbridge copy killed with SIGKILL), never clobbering a live owner, never keeping a sensitive copy.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon keeps the clipboard alive", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DaemonTests {
    @Test("xclip copies and is killed: the daemon serves its bytes under its target")
    func xclipKilled() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let html = Data("<b>kept</b> \u{1F600}".utf8)
        let owner = try await Xclip.own(display, html, target: "text/html")
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "text/html").stdout == html)
        #expect(try await Xclip.targets(display).first == "text/html")
        _ = await daemon.stop()
    }

    @Test("clipbridge copy with several flavours, killed with SIGKILL: every flavour back, in order, byte-exact (INCR)")
    func copyKilled() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = Data(count: 3 << 20)
        for index in stride(from: 0, to: image.count, by: 4096) { image[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let png = directory.appendingPathComponent("shot.png")
        let json = directory.appendingPathComponent("note.json")
        try image.write(to: png)
        try Data(#"{"title":"kept"}"#.utf8).write(to: json)
        let copy = try CLI.start(["copy", "--foreground", "--add", "image/png=\(png.path)",
                                  "--add", "application/json=\(json.path)", "--add", "text/plain=\(json.path)"],
                                 display: display)
        #expect(try await eventually { try await Xclip.targets(display).contains("application/json") })
        let before = try await Xclip.targets(display)
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await copy.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        let after = try await Xclip.targets(display)
        let meta: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES"]
        #expect(after.filter { !meta.contains($0) } == before.filter { !meta.contains($0) })
        #expect(try await Xclip.paste(display, target: "image/png").stdout == image)
        #expect(try await Xclip.paste(display, target: "application/json").stdout == Data(#"{"title":"kept"}"#.utf8))
        #expect(try await CLI.run(["paste"], display: display).stdout == Data(#"{"title":"kept"}"#.utf8))
        _ = await daemon.stop()
    }

    @Test("a GTK 3 app that exits with no manager to store to (--no-manager): its text is still pasteable")
    func gtk3Exits() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--no-manager"])
        let text = "GTK café\nline 2"
        let copier = try startPeer(
            [ToolkitPeer.python, ToolkitPeer.scriptsDirectory.appendingPathComponent("gtk3_copy.py").path, text],
            display: display)
        try await copier.waitForOutput("ready")
        try await daemon.waitFor("kept CLIPBOARD")
        copier.send(signal: SIGTERM)
        _ = try await copier.waitForExit()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(text.utf8))
        #expect(try await CLI.run(["paste"], display: display).stdout == Data(text.utf8))
        _ = await daemon.stop()
    }

    @Test("a sensitive copy is never kept, and a live owner is never replaced")
    func sensitiveAndLiveOwners() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let secret = try CLI.start(["copy", "--foreground", "--sensitive", "hunter2"], display: display)
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "hunter2" })
        try await daemon.waitFor("sensitive CLIPBOARD: not kept")
        _ = await secret.kill()
        try await daemon.waitFor("lost CLIPBOARD")
        let pasted = try await Xclip.paste(display)
        #expect(!pasted.succeeded && pasted.stdout.isEmpty, "\(pasted)")

        // A live owner keeps its selection: the daemon reads, never claims.
        let owner = try await Xclip.own(display, Data("live".utf8))
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Xclip.paste(display).stdoutText == "live")
        #expect(!owner.hasExited)
        _ = await owner.stop()
        _ = await daemon.stop()
    }

    @Test("--status says whether a daemon runs on the display and what it holds")
    func status() async throws {
        let display = try CLI.server().display
        let none = try await CLI.run(["daemon", "--status"], display: display)
        #expect(none.exitCode == 1 && none.stderrText.contains("no clipbridge daemon runs on"), "\(none)")
        let daemon = try await DaemonProcess.start(display)
        let owner = try await Xclip.own(display, Data("status".utf8))
        try await daemon.waitFor("kept CLIPBOARD")
        let kept = try await CLI.run(["daemon", "--status"], display: display)
        #expect(kept.succeeded, "\(kept)")
        #expect(kept.stdoutText.contains("the clipboard manager"), "\(kept.stdoutText)")
        #expect(kept.stdoutText.contains("CLIPBOARD: kept, 1 flavours, 6 bytes"), "\(kept.stdoutText)")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await CLI.run(["daemon", "--status"], display: display).stdoutText.contains("CLIPBOARD: served, 1 flavours"))
        await daemon.stop()
        #expect(try await CLI.run(["daemon", "--status"], display: display).exitCode == 1)
    }
}
