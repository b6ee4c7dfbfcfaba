import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import X11Selection

/// `clipbridge drag` (ClipBridge's `DragSource`) into LibreOffice Writer, the pointer driven through XTEST.
///
/// Writer's drop target (VCL's GTK 3 plugin) answers every XdndPosition with three XdndStatus messages — refuse,
/// accept, accept — and our source used to believe only the first one: every drag into Writer was refused. The
/// text dropped is read back from the document (select all, copy, `clipbridge paste`); a dropped file makes
/// Writer offer to insert it as a linked section, as a file dragged from pcmanfm does.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(4)))
struct LibreOfficeDragTests {
    /// Writer on `display` with a private profile, and its document window once it is mapped.
    private func startWriter(display: String, profile: URL) async throws -> (BackgroundPeer, PeerWindow) {
        let program = "/usr/lib/libreoffice/program/soffice.bin"
        let options = ["--norestore", "--nologo", "-env:UserInstallation=\(profile.absoluteString)"]
        let environment = ["SAL_USE_VCLPLUGIN": "gtk3", "HOME": profile.path]
        // soffice.bin exits after creating a new profile (its wrapper, oosplash, would restart it): create the
        // profile first, so that the process started below is Writer itself, ours to stop by its pid.
        let initialised = try await runPeer([program, "--terminate_after_init"] + options, display: display,
                                            environment: environment, timeout: .seconds(120))
        #expect(initialised.exitCode == 0, "\(initialised)")
        let writer = try startPeer([program, "--writer"] + options, display: display, environment: environment)
        let window = try await PeerWindow.find(named: "Untitled 1 - LibreOffice Writer", display: display, timeout: .seconds(60))
        try await Task.sleep(for: .seconds(2))  // the document view is laid out after the frame is mapped
        return (writer, window)
    }

    /// Glides to `point` the way a hand does (the target's statuses come per position) and clicks there, coming from
    /// `offset` pixels below and to the right of it.
    ///
    /// Writer 7.4 decides by the way the pointer came, over an empty page: from 260 × 200 px or farther below and to
    /// the right its last word on the drop point accepts, from 160 × 120 px or from above and to the left it is a
    /// refusal (its statuses per position go refuse, accept, refuse), whatever the source — a GTK 4 drag source
    /// making the same gesture is refused too (its drag ends "no-target"; checked by running
    /// Tests/Peers/gtk4_dnd.py --source over Writer).
    private func drop(at point: (x: Int, y: Int), from offset: (x: Int, y: Int), display: String) async throws {
        try await Pointer.run(
            ["glide", "\(point.x + offset.x)", "\(point.y + offset.y)", "sleep", "200", "glide", "\(point.x)",
             "\(point.y)", "sleep", "400", "press", "sleep", "50", "release"], display: display)
    }

    /// Drags with `arguments` onto `point` until Writer takes it, at most three times: a Writer short of CPU (the
    /// machine busy) refuses drops from any source, GTK 4's included, and a user drags again. Returns the last
    /// attempt and how many it took.
    private func dragUntilTaken(_ arguments: [String], at point: (x: Int, y: Int), display: String) async throws
        -> (CommandResult, Int)
    {
        var attempt = 0
        while true {
            attempt += 1
            let command = try await DragCommand.fromPointer(arguments, display: display)
            // A user whose drop was refused drags again, not always by the same path.
            try await drop(at: point, from: attempt == 2 ? (360, 250) : (260, 200), display: display)
            let result = try await command.waitForExit(timeout: .seconds(20))
            // Taken: dropped, and Writer's XdndFinished says so too. A finish saying "not accepted" after an accepting
            // status is still a drop (GTK 4's judgement, and ours), but Writer means it: the text is not in the page.
            let taken = result.exitCode == 0 && DragCommand.jsonLines(result).first?["targetAccepted"] as? Bool != false
            if taken || attempt == 3 { return (result, attempt) }
            try await Task.sleep(for: .seconds(1))
        }
    }

    private func outcome(_ result: CommandResult) -> [String: Any]? { DragCommand.jsonLines(result).first }

    /// Whether Writer's document holds `text`: select all, copy, and `clipbridge paste`.
    private func document(in window: PeerWindow, contains text: String, display: String) async throws -> (Bool, String) {
        try await Pointer.run(["focus", "\(window.id.rawValue)", "sleep", "300", "keydown", "Control_L", "key", "a",
                               "sleep", "100", "key", "c", "keyup", "Control_L", "sleep", "300"], display: display)
        let landed = try await eventually(timeout: .seconds(10)) {
            try await CLI.run(["paste"], display: display).stdoutText.contains(text)
        }
        return (landed, try await CLI.run(["paste"], display: display).stdoutText)
    }

    @Test("text and a file dragged into LibreOffice Writer land in the document")
    func textAndFileIntoWriter() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (writer, window) = try await startWriter(display: display, profile: scratch.url.appendingPathComponent("profile"))
        defer { writer.send(signal: SIGKILL) }
        // The middle of the page: near the view's edges Writer starts scrolling and refuses drops meanwhile.
        let page = window.center

        // Text: dropped with copy, and in the document afterwards.
        let text = "dropped into Writer \(getpid())"
        let (textResult, textAttempts) = try await dragUntilTaken(["--text", text], at: page, display: display)
        #expect(textResult.exitCode == 0, "after \(textAttempts) attempts: \(textResult)")
        #expect(outcome(textResult)?["outcome"] as? String == "dropped", "\(textResult.stderrText.suffix(4000))")
        #expect(outcome(textResult)?["action"] as? String == "copy", "\(textResult.stdoutText)")
        #expect(outcome(textResult)?["targetAccepted"] as? Bool == true, "\(textResult.stdoutText)")
        let (landed, document) = try await self.document(in: window, contains: text, display: display)
        #expect(landed, "the document's text: \(document)")

        // A file: Writer takes the uri-list and asks how to insert it (a linked section).
        let file = try scratch.file("notes \(getpid()).txt", Data("file body\n".utf8))
        let (fileResult, fileAttempts) = try await dragUntilTaken([file.path], at: page, display: display)
        #expect(fileResult.exitCode == 0, "after \(fileAttempts) attempts: \(fileResult)")
        #expect(outcome(fileResult)?["outcome"] as? String == "dropped", "\(fileResult.stderrText.suffix(4000))")
        let dialog = try await PeerWindow.find(named: "Insert Section", display: display, timeout: .seconds(15))
        try await Pointer.run(["focus", "\(dialog.id.rawValue)", "sleep", "200", "key", "Escape"], display: display)
    }

    /// Issue 38: text dragged from `drag`'s own window — pressed on its line, past the drag threshold, glided to the
    /// page, released — lands in the page, and a drop Writer refuses is reported as refused. The window sits below
    /// and to the right of the page's middle, so the pointer comes the way Writer takes a drop (see `drop(at:from:)`);
    /// a user whose drop was refused drags again, and `--once` exits after the one that landed.
    @Test("text dragged from drag's own window into Writer lands in the document")
    func textFromTheWindowIntoWriter() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (writer, window) = try await startWriter(display: display, profile: scratch.url.appendingPathComponent("profile"))
        defer { writer.send(signal: SIGKILL) }
        let page = window.center
        let text = "dragged from the window \(getpid())"
        let command = try CLI.start(["drag", "--once", "--json", "--text", text], display: display)
        defer { Task { _ = await command.stop() } }
        let dragWindow = try await PeerWindow.find(named: "clipbridge drag", display: display)
        // No window manager here: the window is put where a user would have dragged it, beside the page.
        let corner = (x: page.x + 280, y: page.y + 210)
        // --sync: xdotool returns once the window is where it was put (its ConfigureNotify), not merely asked to.
        let moved = try await runPeer(
            ["xdotool", "windowmove", "--sync", "\(dragWindow.id.rawValue)", "\(corner.x)", "\(corner.y)"], display: display)
        #expect(moved.succeeded, "\(moved)")
        let line = (x: corner.x + 30, y: corner.y + 12)  // the text's line, a few pixels in
        var attempts = 0
        while attempts < 3, !command.hasExited {
            attempts += 1
            let before = String(decoding: command.stdoutSoFar, as: UTF8.self).split(separator: "\n").count
            try await Pointer.run(["move", "\(line.x)", "\(line.y)", "sleep", "100", "press", "glide", "\(line.x - 30)",
                                   "\(line.y - 30)", "glide", "\(page.x)", "\(page.y)", "sleep", "400", "release"],
                                  display: display)
            // The drag's JSON line is printed once it is over: the window takes the next press then.
            _ = try await eventually(timeout: .seconds(20)) {
                command.hasExited || String(decoding: command.stdoutSoFar, as: UTF8.self).split(separator: "\n").count > before
            }
        }
        let result = try await command.waitForExit(timeout: .seconds(20))
        let lines = DragCommand.jsonLines(result)
        #expect(result.exitCode == 0, "after \(attempts) attempts: \(result)")
        // Every drag before the one that landed was reported refused, never as a drop Writer did not take.
        #expect(lines.dropLast().allSatisfy { $0["outcome"] as? String == "refused" }, "\(result.stdoutText)")
        #expect(lines.last?["outcome"] as? String == "dropped", "\(result.stderrText.suffix(4000))")
        #expect(lines.last?["targetAccepted"] as? Bool == true, "\(result.stdoutText)")
        let (landed, document) = try await self.document(in: window, contains: text, display: display)
        #expect(landed, "the document's text: \(document)")
    }
}
