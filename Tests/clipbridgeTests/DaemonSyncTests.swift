// clipbridge daemon --sync: PRIMARY ↔ CLIPBOARD the way autocutsel does it, with real owners — a GTK 3 app's
// PRIMARY, xclip — not while the pointer button that drags a PRIMARY selection out is held (XTEST holds it),
// and never bouncing between the two when syncing both ways.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon --sync", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DaemonSyncTests {
    private func pointer(_ action: String, _ display: String) async throws {
        let result = try await runPeer([ToolkitPeer.python, ToolkitPeer.script("pointer_button.py"), action], display: display)
        #expect(result.succeeded, "\(result)")
    }

    @Test("a GTK 3 app's PRIMARY selection becomes the clipboard, and stays when the app exits")
    func gtk3PrimaryToClipboard() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--clear", "--primary"], display: display).succeeded)
        let daemon = try await DaemonProcess.start(display, ["--sync", "primary-to-clipboard"])
        let text = "selected in GTK — ünïcode"
        let copier = try startPeer(
            [ToolkitPeer.python, ToolkitPeer.script("gtk3_copy.py"), "--selection", "primary", text], display: display)
        try await copier.waitForOutput("ready")
        try await daemon.waitFor("synced PRIMARY → CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == text)
        copier.send(signal: SIGTERM)
        _ = try await copier.waitForExit()
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == text)
        #expect(try await ToolkitPeer(.qt5, display: display).readText() == text)
        await daemon.stop()
    }

    @Test("a PRIMARY selection is not synced while a pointer button is held, and is once it is released")
    func waitsForTheButton() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--sync", "primary-to-clipboard"])
        try await pointer("press", display)
        let owner = try await Xclip.own(display, Data("still dragging".utf8), selection: "primary")
        try await Task.sleep(for: .milliseconds(600))
        #expect(!daemon.log.contains("synced"), "\(daemon.log)")
        #expect(try await Xclip.paste(display).stdoutText != "still dragging")
        try await pointer("release", display)
        try await daemon.waitFor("synced PRIMARY → CLIPBOARD", timeout: .seconds(3))
        #expect(try await Xclip.paste(display).stdoutText == "still dragging")
        _ = await owner.stop()
        await daemon.stop()
    }

    @Test("both ways: each selection follows the other, once, with no ping-pong")
    func bothWaysWithoutPingPong() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--clear", "--primary"], display: display).succeeded)
        let daemon = try await DaemonProcess.start(display, ["--sync", "both"])
        let first = try await Xclip.own(display, Data("from the clipboard".utf8))
        try await daemon.waitFor("synced CLIPBOARD → PRIMARY")
        #expect(try await Xclip.paste(display, selection: "primary").stdoutText == "from the clipboard")
        let second = try await Xclip.own(display, Data("from primary".utf8), selection: "primary")
        try await daemon.waitFor("synced PRIMARY → CLIPBOARD")
        #expect(try await Xclip.paste(display).stdoutText == "from primary")
        try await Task.sleep(for: .milliseconds(500))
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("synced") }
        #expect(lines.count == 2, "\(lines)")
        _ = await first.stop()
        _ = await second.stop()
        await daemon.stop()
    }
}
