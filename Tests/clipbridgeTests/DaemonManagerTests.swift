// clipbridge daemon as the display's clipboard manager (freedesktop clipboard-manager spec, ICCCM 2.8): real
// applications hand their content over on exit with SAVE_TARGETS — GTK 3's gtk_clipboard_store, Qt 5's
// QClipboard teardown, clipbridge copy on SIGTERM — and every flavour pastes afterwards, byte-exact, in xclip,
// GTK 4 and Qt 5; a second manager is refused or replaces (xfsettingsd, both ways); malformed and partial
// SAVE_TARGETS requests from other clients get the answer the spec gives them.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon as the clipboard manager", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct DaemonManagerTests {
    @Test("GTK 3 stores on exit (1 MiB of text): answered before GTK gives up, then xclip, GTK 4 and Qt 5 paste it")
    func gtk3Stores() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // No newline: GTK 3 writes its text/plain;charset=utf-8 (Qt's choice) with CRLF line ends (RFC 2046).
        let line = "GTK 3 café → 🚀 stored by the manager. "
        let text = String(repeating: line, count: (1 << 20) / line.utf8.count)
        let file = try scratch.file("text", Data(text.utf8))
        let copier = try startPeer([ToolkitPeer.python, ToolkitPeer.script("gtk3_copy.py"), "--file", file.path], display: display)
        try await copier.waitForOutput("ready")
        // Quitting after the daemon read the copy, as a user does; how long GTK waits when it quits at once is
        // a benchmark's business (Benchmarks/run.sh --only manager), not a bound under the suite's load.
        try await daemon.waitFor("kept CLIPBOARD")
        let asked = ContinuousClock.now
        copier.send(signal: SIGTERM)
        try await copier.waitForOutput("stored\n", timeout: .seconds(20))
        let answered = asked.duration(to: .now)
        // "stored" says the manager took the selection; the bound only guards against a hang. Alone it takes some
        // 20 ms; under the suite's parallel load on a slow 2-CPU machine up to 9 s was seen (GTK and Python starved).
        #expect(answered < .seconds(15), "GTK waited \(answered) for the manager")
        _ = try await copier.waitForExit()
        try await daemon.waitFor("saved CLIPBOARD")

        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(text.utf8))
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == text)
        #expect(try await ToolkitPeer(.qt5, display: display).readText() == text)
        #expect(try await CLI.run(["paste"], display: display).stdout == Data(text.utf8))
        await daemon.stop()
    }

    @Test("Qt 5 exits with HTML and text: both flavours paste byte-exact in xclip, GTK 4 and Qt 5")
    func qt5Stores() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let html = Data("<p>Qt <b>rich</b> – ünïcode</p>".utf8)
        let text = "Qt plain – ünïcode"
        let owner = try await ToolkitPeer(.qt5, display: display).own(text: text, representations: [("text/html", html)])
        _ = await owner.stop()
        try await daemon.waitFor("saved CLIPBOARD")

        #expect(try await Xclip.paste(display, target: "text/html").stdout == html)
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == text)
        #expect(try await ToolkitPeer(.gtk4, display: display).read(mimeType: "text/html") == html)
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == text)
        #expect(try await ToolkitPeer(.qt5, display: display).read(mimeType: "text/html") == html)
        #expect(try await ToolkitPeer(.qt5, display: display).readText() == text)
        await daemon.stop()
    }

    @Test("clipbridge copy hands a 50 MiB image over by INCR on SIGTERM: every flavour back, byte-exact")
    func copyHandsOverFiftyMiB() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var image = Data(count: 50 << 20)
        image.withUnsafeMutableBytes { bytes in
            var state: UInt32 = 0x2545_F491
            for index in stride(from: 0, to: bytes.count, by: 64) {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                bytes[index] = UInt8(truncatingIfNeeded: state)
            }
        }
        let png = try scratch.file("big.png", image)
        let note = try scratch.file("note.txt", Data("fifty mebibytes".utf8))
        let copy = try CLI.start(["copy", "--foreground", "--add", "image/png=\(png.path)",
                                  "--add", "text/plain=\(note.path)"], display: display)
        #expect(try await eventually { try await Xclip.targets(display).contains("image/png") })
        copy.send(signal: SIGTERM)
        let ended = try await copy.waitForExit(timeout: .seconds(30))
        #expect(ended.exitCode == 0, "\(ended)")
        try await daemon.waitFor("saved CLIPBOARD", timeout: .seconds(30))

        #expect(try await Xclip.paste(display, target: "image/png").stdout == image)
        #expect(try await Xclip.paste(display, target: "text/plain").stdoutText == "fifty mebibytes")
        #expect(try await ToolkitPeer(.qt5, display: display).read(mimeType: "image/png", timeout: .seconds(30)) == image)
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == "fifty mebibytes")
        await daemon.stop()
    }

    @Test("with xfsettingsd managing, the daemon refuses; --replace takes over; xfsettingsd --replace unseats it")
    func replaceSemantics() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let xfce = try startPeer([ToolkitPeer.script("xfsettingsd_manager.sh")], display: display)
        try await xfce.waitForOutput("ready", timeout: .seconds(20))

        let refused = try await CLI.run(["daemon"], display: display)
        #expect(refused.exitCode == 2, "\(refused)")
        #expect(refused.stderrText.contains("another clipboard manager is running"), "\(refused.stderrText)")
        #expect(refused.stderrText.contains("--replace"), "\(refused.stderrText)")

        let daemon = try CLI.start(["daemon", "--replace"], display: display)
        try await daemon.waitForOutput("keeping CLIPBOARD; clipboard manager", in: .stderr)
        // The one manager now is the daemon: a GTK 3 app's store goes to it.
        let copier = try startPeer([ToolkitPeer.python, ToolkitPeer.script("gtk3_copy.py"), "to the new manager"], display: display)
        try await copier.waitForOutput("ready")
        copier.send(signal: SIGTERM)
        try await copier.waitForOutput("stored\n")
        let process = DaemonProcess(peer: daemon)
        try await process.waitFor("saved CLIPBOARD")
        #expect(try await Xclip.paste(display).stdoutText == "to the new manager")

        // Replaced in turn: it says so and exits 0 on its own.
        let again = try startPeer([ToolkitPeer.script("xfsettingsd_manager.sh"), "--replace"], display: display)
        try await again.waitForOutput("ready", timeout: .seconds(20))
        try await process.waitFor("replaced: another clipboard manager took over")
        let ended = try await daemon.waitForExit(timeout: .seconds(10))
        #expect(ended.exitCode == 0, "\(ended)")
        _ = await again.stop()
        _ = await xfce.stop()
    }

    @Test("Emacs hands its copy over on exit (SAVE_TARGETS of UTF8_STRING alone): every text target it offered stays")
    func emacsHandover() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let text = "emacs naïve text"
        // Emacs 28 (Lucid): it copies, then kill-emacs asks the clipboard manager to save (x-clipboard-manager-save).
        let emacs = try await runPeer(
            ["emacs", "-Q", "--eval",
             "(progn (gui-set-selection 'CLIPBOARD \"\(text)\") (run-at-time 1 nil (lambda () (kill-emacs))))"],
            display: display, timeout: .seconds(60))
        #expect(emacs.succeeded, "\(emacs)")
        try await daemon.waitFor("saved CLIPBOARD", timeout: .seconds(20))
        let targets = try await Xclip.targets(display)
        for target in ["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT"] {
            #expect(targets.contains(target), "\(target) not among \(targets)")
        }
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(text.utf8))
        #expect(try await Xclip.paste(display, target: "STRING").stdout == Data(text.unicodeScalars.map { UInt8($0.value) }))
        await daemon.stop()
    }

    @Test("SAVE_TARGETS from other clients: a malformed list is refused; a listed subset keeps every flavour already kept")
    func saveTargetsRequests() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let json = try scratch.file("a.json", Data(#"{"a":1}"#.utf8))
        let html = try scratch.file("a.html", Data("<i>a</i>".utf8))
        let copy = try CLI.start(["copy", "--foreground", "--add", "text/html=\(html.path)",
                                  "--add", "application/json=\(json.path)", "--add", "text/plain=\(json.path)"],
                                 display: display)
        #expect(try await eventually { try await Xclip.targets(display).contains("application/json") })
        try await daemon.waitFor("kept CLIPBOARD")
        let offered = try await Xclip.targets(display).contentTargets

        let malformed = try await HostilePeer.request(
            ["save-targets", "--selection", "CLIPBOARD_MANAGER", "--save-list", "text/html", "--save-list-type", "STRING"],
            display: display)
        #expect(malformed["refused"] == .bool(true), "\(malformed)")
        #expect(!copy.hasExited, "a refused save must leave the owner alone")

        let subset = try await HostilePeer.request(
            ["save-targets", "--selection", "CLIPBOARD_MANAGER", "--save-list", "application/json,text/plain,TARGETS"],
            display: display)
        #expect(subset["refused"] == .bool(false), "\(subset)")
        try await daemon.waitFor("saved CLIPBOARD: \(offered.count) flavours")
        // Not narrowed to the list (issue 38: Emacs lists only UTF8_STRING): every flavour of the copy, in its order.
        let targets = try await Xclip.targets(display).contentTargets
        #expect(targets == offered, "\(targets) after the save, \(offered) before")
        #expect(try await Xclip.paste(display, target: "application/json").stdout == Data(#"{"a":1}"#.utf8))
        #expect(try await Xclip.paste(display, target: "text/html").stdout == Data("<i>a</i>".utf8))
        // The copy lost the selection to the manager and went.
        #expect(try await copy.waitForExit().exitCode == 0)
        await daemon.stop()
    }
}
