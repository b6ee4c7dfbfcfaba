// `clipbridge copy` on a Wayland compositor with no X display — sway headless, 1.7 (wlr data-control) and 1.12
// (ext-data-control-v1): every representation of a copy richest first, read by wl-paste, GTK 4 and Qt 5 as native
// Wayland clients; --primary, --sensitive, --files, --paste-once, --loops, --clear; a detached server that does not
// hold its caller (wl-copy's hang reports: a suspended caller, closed streams, a pipeline); and the bad cases.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge copy on a Wayland compositor, without X", .serialized, .timeLimit(.minutes(5)))
struct WaylandCopyTests {
    /// wl-paste against `sway`, DISPLAY unset; without the newline it adds to text (`--no-newline`).
    static func wlPaste(_ arguments: [String], _ sway: SwayServer) async throws -> CommandResult {
        let newline = arguments.contains("--list-types") ? [] : ["--no-newline"]
        return try await runPeer(["wl-paste"] + newline + arguments, display: nil, environment: sway.waylandEnvironment)
    }

    /// `clipbridge` against `sway`, DISPLAY unset.
    static func clipbridge(_ arguments: [String], _ sway: SwayServer, stdin: Data? = nil) async throws -> CommandResult {
        try await CLI.run(arguments, display: nil, stdin: stdin.map { .data($0) } ?? .none, environment: sway.waylandEnvironment)
    }

    static func file(_ data: Data, _ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-copy-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test("text, HTML with its text, an image, --add, files: each richest first, the exact bytes, read by wl-paste, GTK 4 and Qt 5",
          arguments: SwayServer.Build.allCases)
    func everyRepresentation(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            // Text: the Wayland text family, in the order wl-copy's first three take.
            let text = "Grüße from clipbridge — 日本語 ✓"
            let copied = try await Self.clipbridge(["copy", text], sway)
            #expect(copied.exitCode == 0 && copied.stderr.isEmpty, "\(copied)")
            #expect(try await Self.wlPaste(["--list-types"], sway).stdoutText
                == "text/plain;charset=utf-8\ntext/plain\nUTF8_STRING\n")
            #expect(try await Self.wlPaste([], sway).stdoutText == text)
            #expect(try await Self.wlPaste(["-t", "UTF8_STRING"], sway).stdoutText == text)
            #expect(try await Self.clipbridge(["paste", "--no-newline"], sway).stdoutText == text)
            for toolkit in ToolkitPeer.Toolkit.allCases {
                #expect(try await ToolkitPeer(toolkit, waylandEnvironment: environment).readText() == text, "\(toolkit)")
            }

            // HTML from standard input with -t: HTML first, then its text family.
            let html = Data("<p>Grüße <b>bold</b> ✓</p>".utf8)
            #expect(try await Self.clipbridge(["copy", "-t", "text/html"], sway, stdin: html).succeeded)
            #expect(try await Self.wlPaste(["--list-types"], sway).stdoutText
                == "text/html\ntext/plain;charset=utf-8\ntext/plain\nUTF8_STRING\n")
            #expect(try await Self.wlPaste(["-t", "text/html"], sway).stdout == html)
            for toolkit in ToolkitPeer.Toolkit.allCases {
                #expect(try await ToolkitPeer(toolkit, waylandEnvironment: environment).read(mimeType: "text/html") == html, "\(toolkit)")
            }

            // An image by its file: detected, streamed, byte-exact; and converted on request by a clipbridge paste.
            let png = try await ImageTests.card("png")
            let image = try Self.file(png, "card.png")
            defer { try? FileManager.default.removeItem(at: image.deletingLastPathComponent()) }
            #expect(try await Self.clipbridge(["copy", "--file", image.path], sway).succeeded)
            #expect(try await Self.wlPaste(["--list-types"], sway).stdoutText.hasPrefix("image/png\n"))
            #expect(try await Self.wlPaste(["-t", "image/png"], sway).stdout == png)
            #expect(try await ToolkitPeer(.qt5, waylandEnvironment: environment).read(mimeType: "image/png") == png)
            let jpeg = try await Self.clipbridge(["paste", "-t", "image/jpeg"], sway)
            #expect(jpeg.exitCode == 0 && jpeg.stdout.starts(with: [0xFF, 0xD8, 0xFF]), "\(jpeg.stderrText)")

            // --add: a custom type under its own name, richest first whatever the order given.
            let json = Data(#"{"note": "Grüße"}"#.utf8)
            let note = try Self.file(json, "note.json")
            #expect(try await Self.clipbridge(["copy", "--add", "text/plain=-", "--add", "application/x-test-note=\(note.path)"],
                                              sway, stdin: Data("plain note".utf8)).succeeded)
            let listed = try await Self.wlPaste(["--list-types"], sway).stdoutText.split(separator: "\n").map(String.init)
            #expect(listed.first == "application/x-test-note" && listed.contains("text/plain;charset=utf-8"), "\(listed)")
            #expect(try await Self.wlPaste(["-t", "application/x-test-note"], sway).stdout == json)
            #expect(try await Self.wlPaste(["-t", "text/plain"], sway).stdoutText == "plain note")

            // Files as a file manager copies them: text/uri-list (CRLF) and gnome-copied-files; cut says so.
            let other = try Self.file(Data("b".utf8), "a b.txt")
            #expect(try await Self.clipbridge(["copy", "--files", note.path, other.path, "--cut"], sway).succeeded)
            let uris = "file://\(note.path)\r\nfile://\(other.deletingLastPathComponent().path)/a%20b.txt\r\n"
            #expect(try await Self.wlPaste(["-t", "text/uri-list"], sway).stdoutText == uris)
            let gnome = try await ToolkitPeer(.qt5, waylandEnvironment: environment).read(mimeType: "x-special/gnome-copied-files")
            #expect(String(decoding: gnome, as: UTF8.self) == "cut\n" + uris.replacingOccurrences(of: "\r\n", with: "\n").dropLast())
            #expect(try await Self.wlPaste(["-t", "application/x-kde-cutselection"], sway).stdoutText == "1")
            #expect(try await ToolkitPeer(.gtk4, waylandEnvironment: environment).read(mimeType: "text/uri-list") == Data(uris.utf8))
        }
    }

    @Test("--primary apart from CLIPBOARD; --sensitive offers the password managers' hint; 20 MB streamed byte-exact")
    func primarySensitiveAndLarge() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            #expect(try await Self.clipbridge(["copy", "on the clipboard"], sway).succeeded)
            #expect(try await Self.clipbridge(["copy", "--primary", "selected"], sway).succeeded)
            #expect(try await Self.wlPaste(["--primary"], sway).stdoutText == "selected")
            #expect(try await Self.wlPaste([], sway).stdoutText == "on the clipboard")
            #expect(try await Self.clipbridge(["paste", "--primary"], sway).stdoutText == "selected")

            #expect(try await Self.clipbridge(["copy", "--sensitive", "hunter2"], sway).succeeded)
            #expect(try await Self.wlPaste(["--list-types"], sway).stdoutText.contains("x-kde-passwordManagerHint\n"))
            #expect(try await Self.wlPaste(["-t", "x-kde-passwordManagerHint"], sway).stdoutText == "secret")
            #expect(try await Self.wlPaste([], sway).stdoutText == "hunter2")

            // Distinct bytes larger than any pipe, from a file and from standard input, each read whole.
            let big = Data((0..<20_000_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
            let url = try Self.file(big, "big.bin")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect(try await Self.clipbridge(["copy", "-t", "application/x-test-big", "--file", url.path], sway).succeeded)
            #expect(try await Self.wlPaste(["-t", "application/x-test-big"], sway).stdout == big)
            #expect(try await Self.clipbridge(["copy", "-t", "application/x-test-big"], sway, stdin: big).succeeded)
            #expect(try await Self.clipbridge(["paste", "-t", "application/x-test-big"], sway).stdout == big)
        }
    }

    @Test("--paste-once and --loops: the pastes allowed, then the selection is released and the server exits")
    func pasteOnceAndLoops() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let display = "wayland:" + sway.waylandDisplay
            #expect(try await Self.clipbridge(["copy", "--display", display, "--paste-once", "once"], sway).succeeded)
            let server = try #require(await newestDetachedServer(display: display))
            #expect(try await Self.wlPaste([], sway).stdoutText == "once")
            // Released once the grace window after the paste is over; the server exits.
            #expect(try await eventually(timeout: .seconds(5)) { try await Self.wlPaste([], sway).exitCode != 0 })
            #expect(try await eventually { !detachedServers(display: display).contains(server) })

            #expect(try await Self.clipbridge(["copy", "--display", display, "--loops", "2", "twice"], sway).succeeded)
            #expect(try await Self.wlPaste([], sway).stdoutText == "twice")
            // Apart by more than the grace window: two pastes.
            try await Task.sleep(for: .milliseconds(700))
            #expect(try await Self.wlPaste([], sway).stdoutText == "twice")
            #expect(try await eventually(timeout: .seconds(5)) { try await Self.wlPaste([], sway).exitCode != 0 })
        }
    }

    @Test("--clear empties the selection whoever holds it (wl-copy's, ours); a copy replaced ends its server; SIGTERM releases")
    func clearReplaceAndSignal() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            #expect(try await runPeer(["wl-copy", "from wl-copy"], display: nil, environment: environment).succeeded)
            #expect(try await eventually { try await Self.wlPaste([], sway).stdoutText == "from wl-copy" })
            let cleared = try await Self.clipbridge(["copy", "--clear"], sway)
            #expect(cleared.exitCode == 0, "\(cleared)")
            #expect(try await Self.wlPaste([], sway).exitCode != 0)
            #expect(try await Self.clipbridge(["paste"], sway).exitCode == 1)
            #expect(try await Self.clipbridge(["copy", "-p", "primary"], sway).succeeded)
            #expect(try await Self.clipbridge(["copy", "--clear", "-p"], sway).succeeded)
            #expect(try await Self.wlPaste(["--primary"], sway).exitCode != 0)

            // A detached server whose copy is replaced exits.
            let display = "wayland:" + sway.waylandDisplay
            #expect(try await Self.clipbridge(["copy", "--display", display, "first"], sway).succeeded)
            let first = try #require(await newestDetachedServer(display: display))
            #expect(try await runPeer(["wl-copy", "second"], display: nil, environment: environment).succeeded)
            #expect(try await eventually { !detachedServers(display: display).contains(first) })
            #expect(try await Self.wlPaste([], sway).stdoutText == "second")
            // And one cleared.
            #expect(try await Self.clipbridge(["copy", "--display", display, "third"], sway).succeeded)
            let third = try #require(await newestDetachedServer(display: display))
            #expect(try await Self.clipbridge(["copy", "--clear"], sway).succeeded)
            #expect(try await eventually { !detachedServers(display: display).contains(third) })

            // --foreground: replaced, it exits 0 by itself; SIGTERM releases the selection.
            let replaced = try CLI.start(["copy", "--foreground", "in front"], display: nil, environment: environment)
            #expect(try await eventually { try await Self.wlPaste([], sway).stdoutText == "in front" })
            #expect(try await runPeer(["wl-copy", "after"], display: nil, environment: environment).succeeded)
            let ended = try await replaced.waitForExit(timeout: .seconds(5))
            #expect(ended.exitCode == 0, "\(ended)")
            let signalled = try CLI.start(["copy", "--foreground", "until SIGTERM"], display: nil, environment: environment)
            #expect(try await eventually { try await Self.wlPaste([], sway).stdoutText == "until SIGTERM" })
            signalled.send(signal: SIGTERM)
            let stopped = try await signalled.waitForExit(timeout: .seconds(5))
            #expect(stopped.exitCode == 0 && stopped.stderrText.contains("released"), "\(stopped)")
            #expect(try await Self.wlPaste([], sway).exitCode != 0)
        }
    }

    @Test("the server holds nothing of its caller: $(…) returns at once, closed streams, a stopped caller (wl-copy #298, #245)")
    func serverLeavesTheCaller() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            let binary = CLI.binary
            let substituted = try await runPeer(
                ["sh", "-c", "x=$(echo piped | '\(binary)' copy); echo \"[$x] $?\""], display: nil,
                environment: environment, timeout: .seconds(5))
            #expect(substituted.stdoutText == "[] 0\n" && substituted.duration < .seconds(3), "\(substituted)")
            #expect(try await Self.wlPaste([], sway).stdoutText == "piped\n")

            // Each standard stream closed by the caller: the copy still holds its content (none of its files may take
            // the numbers 0-2, which the server points at /dev/null).
            for (stream, redirect) in [("stdin", "0<&-"), ("stdout", ">&-"), ("stderr", "2>&-")] {
                let closed = try await runPeer(
                    ["sh", "-c", "'\(binary)' copy 'closed \(stream)' \(redirect); echo $?"], display: nil,
                    environment: environment, timeout: .seconds(5))
                #expect(closed.stdoutText == "0\n", "\(stream): \(closed)")
                #expect(try await Self.wlPaste([], sway).stdoutText == "closed \(stream)")
            }

            // The caller's whole process group stopped after the copy, as Ctrl+Z does: pastes do not block.
            let stopper = """
                import os, signal, subprocess, sys
                os.setpgid(0, 0)
                subprocess.run([sys.argv[1], "copy", "copied, then stopped"], check=True)
                os.killpg(0, signal.SIGSTOP)
                """
            let caller = try startPeer([ToolkitPeer.python, "-c", stopper, binary], display: nil, environment: environment)
            defer { Task { _ = await caller.kill() } }
            #expect(try await eventually { statFields(caller.pid).first == "T" })
            let pasted = try await Self.wlPaste([], sway)
            #expect(pasted.stdoutText == "copied, then stopped" && pasted.duration < .seconds(2), "\(pasted)")
        }
    }

    @Test("a compositor that cannot be reached or has no data-control (Weston): status 4, saying what works")
    func noDataControl() async throws {
        let missing = try await CLI.run(["copy", "--display", "wayland:/nonexistent/wayland-9", "x"], display: nil)
        #expect(missing.exitCode == 4 && missing.stderrText.contains("cannot reach the Wayland compositor"), "\(missing)")
        try await WestonServer.with { weston in
            let refused = try await CLI.run(["copy", "--display", "wayland:" + weston.waylandDisplay, "x"], display: nil)
            #expect(refused.exitCode == 4 && refused.stderrText.contains("data-control"), "\(refused)")
            let clear = try await CLI.run(["copy", "--clear", "--display", "wayland:" + weston.waylandDisplay], display: nil)
            #expect(clear.exitCode == 4, "\(clear)")
        }
    }
}
