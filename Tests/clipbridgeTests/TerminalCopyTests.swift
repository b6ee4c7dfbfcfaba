// clipbridge copy with no display: OSC 52 to the terminal — a real xterm under Xvfb (SetSelection allowed through its
// disallowedWindowOps resource), the command typed into its shell through XTEST, the text read back from the X
// selection xterm then owns with xclip; and the same through tmux inside that xterm. Past the terminal's limit: status
// 1, a message, and the clipboard left as it was.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge copy with no display: OSC 52 through xterm and tmux", .serialized, .timeLimit(.minutes(3)))
struct TerminalCopyTests {
    /// An xterm on `display` running a shell with no DISPLAY (a shell on a machine reached by ssh), or `command`.
    struct Xterm {
        let peer: BackgroundPeer
        let display: String
        let folder: ScratchDirectory

        /// Starts xterm on `display` with a shell in it — inside tmux at `tmuxSocket` when given — and waits until that
        /// shell has started (it touches a file first), so that nothing typed is lost.
        static func start(on display: String, tmuxSocket: String? = nil) async throws -> Xterm {
            let folder = try ScratchDirectory()
            let ready = folder.url.appendingPathComponent("shell-ready").path
            let shell = "touch \(ready); exec sh"
            let command = tmuxSocket.map { ["tmux", "-S", $0, "-f", "/dev/null", "new-session", shell] } ?? ["sh", "-c", shell]
            // xterm's default disallowedWindowOps also forbids SetSelection (OSC 52); this list leaves it allowed.
            let peer = try startPeer(
                ["xterm", "-xrm", "XTerm*disallowedWindowOps: 20,21,SetXprop", "-geometry", "100x30+0+0", "-e", "env", "-u", "DISPLAY",
                 "-u", "WAYLAND_DISPLAY"] + command, display: display)
            let mapped = try await eventually(timeout: .seconds(10)) {
                try await runPeer(["xdotool", "search", "--onlyvisible", "--class", "xterm"], display: display).succeeded
            }
            #expect(mapped, "xterm never showed its window")
            // Keys go where the pointer is (no window manager): onto the terminal.
            _ = try await runPeer(["xdotool", "mousemove", "40", "40"], display: display)
            let started = try await eventually(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: ready) }
            #expect(started, "the shell in xterm never started")
            return Xterm(peer: peer, display: display, folder: folder)
        }

        /// Types `line` and Return into the terminal, as a user would, then waits for the status file it writes.
        func type(_ line: String, status: String) async throws -> Int32? {
            try? FileManager.default.removeItem(atPath: status)
            let typed = try await runPeer(["xdotool", "type", "--delay", "3", line], display: display, timeout: .seconds(30))
            #expect(typed.succeeded, "\(typed)")
            _ = try await runPeer(["xdotool", "key", "Return"], display: display)
            guard try await eventually(timeout: .seconds(15), { FileManager.default.fileExists(atPath: status) }) else { return nil }
            _ = try await eventually(timeout: .seconds(2)) { ((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").hasSuffix("\n") }
            return Int32(((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
        }

        func stop() async {
            _ = await peer.stop()
            folder.remove()
        }
    }

    static func selection(_ display: String, _ name: String) async throws -> Data {
        try await runPeer(["xclip", "-selection", name, "-o", "-t", "UTF8_STRING"], display: display).stdout
    }

    @Test("typed into xterm with no display: the X CLIPBOARD (and PRIMARY with -p) has the text, byte-exact")
    func throughXterm() async throws {
        try await withDisplays(1) { servers in
            let display = servers[0].display
            let xterm = try await Xterm.start(on: display)
            defer { Task { await xterm.stop() } }
            let text = "OSC 52 from a shell with no display — Grüße, 世界 ✓\n\ttabs and a newline"
            let file = try xterm.folder.file("text.txt", Data(text.utf8))
            let status = xterm.folder.url.appendingPathComponent("status").path
            let copied = try await xterm.type("\(CLI.binary) copy --file \(file.path); echo $? > \(status)", status: status)
            #expect(copied == 0)
            let clipboard = try await eventually(timeout: .seconds(5)) { try await Self.selection(display, "clipboard") == Data(text.utf8) }
            #expect(clipboard)

            let primary = try await xterm.type("printf %s primary-text | \(CLI.binary) copy -p; echo $? > \(status)", status: status)
            #expect(primary == 0)
            let primaryCopied = try await eventually(timeout: .seconds(5)) { try await Self.selection(display, "primary") == Data("primary-text".utf8) }
            #expect(primaryCopied)
            // CLIPBOARD kept its text.
            #expect(try await Self.selection(display, "clipboard") == Data(text.utf8))

            // Past what xterm is known to take (1,000,000 bytes of base64): status 1, a message, nothing sent.
            let large = try xterm.folder.file("large.txt", Data(repeating: UInt8(ascii: "x"), count: 800_000))
            let errors = xterm.folder.url.appendingPathComponent("errors").path
            let refused = try await xterm.type("\(CLI.binary) copy --file \(large.path) 2> \(errors); echo $? > \(status)", status: status)
            #expect(refused == 1)
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(message.contains("xterm takes at most 1000000: nothing was copied"), "\(message)")
            #expect(try await Self.selection(display, "clipboard") == Data(text.utf8))
            // Told what it takes, it goes through.
            let raised = try await xterm.type("\(CLI.binary) copy --file \(large.path) --osc52-limit 1100000; echo $? > \(status)", status: status)
            #expect(raised == 0)
            let raisedCopied = try await eventually(timeout: .seconds(5)) { try await Self.selection(display, "clipboard").count == 800_000 }
            #expect(raisedCopied)
            // Not text: refused.
            let binary = try xterm.folder.file("binary.bin", Data([0xFF, 0xFE, 0x00, 0x80]))
            let notText = try await xterm.type("\(CLI.binary) copy --file \(binary.path) 2> \(errors); echo $? > \(status)", status: status)
            #expect(notText == 1)
            #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("OSC 52 carries text only"))
        }
    }

    @Test("through tmux inside xterm: the text reaches xterm's selection (tmux 3.3 names none: xterm's default, PRIMARY)")
    func throughTmux() async throws {
        try await withDisplays(1) { servers in
            let display = servers[0].display
            let socket = NSTemporaryDirectory() + "clipbridge-tmux-\(getpid())-\(Int.random(in: 0..<1_000_000))"
            let xterm = try await Xterm.start(on: display, tmuxSocket: socket)
            defer {
                Task {
                    _ = try? await runPeer(["tmux", "-S", socket, "kill-server"], display: nil)
                    await xterm.stop()
                }
            }
            let status = xterm.folder.url.appendingPathComponent("status").path
            let text = "through tmux ✓"
            let file = try xterm.folder.file("text.txt", Data(text.utf8))
            let copied = try await xterm.type("\(CLI.binary) copy --file \(file.path); echo $? > \(status)", status: status)
            #expect(copied == 0)
            // tmux 3.3 passes the copy on with an empty selection parameter (tty_set_selection), which xterm takes as
            // its configurable selection: PRIMARY by default; tmux 3.4 and later name the clipboard.
            let arrived = try await eventually(timeout: .seconds(5)) {
                let clipboard = try await Self.selection(display, "clipboard"), primary = try await Self.selection(display, "primary")
                return clipboard == Data(text.utf8) || primary == Data(text.utf8)
            }
            #expect(arrived)
            // tmux kept it as its own paste buffer too.
            let buffer = try await runPeer(["tmux", "-S", socket, "show-buffer"], display: nil)
            #expect(buffer.stdout == Data(text.utf8), "\(buffer)")
        }
    }

    @Test("a terminal that takes no OSC 52 (the Linux console, VTE's): nothing is sent; status 4 for want of a display, 1 with --osc52")
    func terminalsWithoutOSC52() async throws {
        // `script` gives the command a terminal of its own (a pty), which records what was written to it.
        for (environment, name) in [(["TERM": "linux"], "the Linux console"), (["TERM": "xterm-256color", "VTE_VERSION": "7006"], "a VTE terminal")] {
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let typescript = scratch.url.appendingPathComponent("typescript").path
            let plain = try await runPeer(["script", "-qec", "\(CLI.binary) copy hello", typescript], display: nil, environment: environment)
            #expect(plain.exitCode == 4, "\(plain)")
            let written = (try? Data(contentsOf: URL(fileURLWithPath: typescript))) ?? Data()
            #expect(String(decoding: written, as: UTF8.self).contains("no display") && String(decoding: written, as: UTF8.self).contains(name))
            #expect(written.firstRange(of: Data("\u{1B}]52;".utf8)) == nil, "an OSC 52 sequence was written")
            let forced = try await runPeer(["script", "-qec", "\(CLI.binary) copy --osc52 hello", typescript], display: nil, environment: environment)
            #expect(forced.exitCode == 1, "\(forced)")
        }
    }
}
