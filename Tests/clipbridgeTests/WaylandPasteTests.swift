// `clipbridge paste` on a Wayland compositor with no X display — sway headless, 1.7 (wlr data-control) and 1.12
// (ext-data-control-v1), without XWayland: every flavour of a copy by the same ladder as on X (text, HTML, an image
// by family, a custom type, a conversion), the owner's order in --list-types and -t TARGETS, PRIMARY apart, the
// choice of display, any size with bounded memory; and the bad cases with the exit statuses of X: an empty
// selection (1), a silent source (3), no compositor or one without data-control (4), the compositor gone mid-read (5).

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import WaylandSelection

@Suite("clipbridge paste on a Wayland compositor, without X", .serialized, .timeLimit(.minutes(5)))
struct WaylandPasteTests {
    /// 300 kB of distinct bytes: a custom type larger than one pipe's buffer.
    static let custom = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) })

    @Test("every flavour of a copy by the same ladder as on X: text, HTML, an image by family, a custom type, a conversion; the owner's order; PRIMARY apart",
          arguments: SwayServer.Build.allCases)
    func everyFlavour(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            func paste(_ arguments: [String]) async throws -> CommandResult {
                // DISPLAY unset: the compositor is the only display.
                try await CLI.run(["paste"] + arguments, display: nil, environment: environment)
            }
            let html = Data("<p>Grüße <b>from Wayland</b> ✓</p>".utf8)
            let text = Data("Grüße from Wayland ✓".utf8)
            let png = try await ImageTests.card("png")
            let flavours: [(String, Data)] = [
                ("text/html", html), ("text/plain;charset=utf-8", text), ("image/png", png),
                ("application/x-test-card", Self.custom),
            ]
            let source = try await WaylandTestSource(on: sway.waylandDisplay, flavours)
            defer { source.close() }
            #expect(source.reads.all.isEmpty)

            let plain = try await paste([])
            #expect(plain.exitCode == 0 && plain.stdout == text, "\(plain)")
            #expect(try await paste(["-t", "text/html"]).stdout == html)
            #expect(try await paste(["-t", "image"]).stdout == png)
            #expect(try await paste(["-t", "application/x-test-card"]).stdout == Self.custom)
            // A conversion on request, as on X: the PNG as JPEG, the HTML as text.
            let jpeg = try await paste(["-t", "image/jpeg"])
            #expect(jpeg.exitCode == 0 && jpeg.stdout.starts(with: [0xFF, 0xD8, 0xFF]), "\(jpeg.stderrText)")
            #expect(try await paste(["-t", "text/plain", "--no-newline"]).stdout == text)
            // -o with an extension and no -t: the type the extension names, written whole.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-paste-\(getpid())-\(build)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let page = folder.appendingPathComponent("page.html")
            #expect(try await paste(["-o", page.path]).exitCode == 0)
            #expect(try Data(contentsOf: page) == html)

            // The owner's order: -t TARGETS as wl-paste --list-types, --list-types with its UTTypes first.
            #expect(try await paste(["-t", "TARGETS"]).stdoutText == flavours.map { $0.0 + "\n" }.joined())
            let listed = try await paste(["--list-types", "--json"]).stdout
            let entries = try #require(try JSONSerialization.jsonObject(with: listed) as? [[String: Any]])
            let targets = entries.filter { ($0["converted"] as? Bool) == false }.compactMap { $0["target"] as? String }
            #expect(targets == flavours.map(\.0), "\(String(decoding: listed, as: UTF8.self))")
            // Then the conversions, as on X: the PNG as JPEG among them.
            #expect(entries.contains { ($0["converted"] as? Bool) == true && ($0["target"] as? String) == "image/jpeg" })
            let wayland = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
            #expect(wayland.stdoutText == flavours.map { $0.0 + "\n" }.joined())

            // --display wayland:NAME chooses the compositor even beside a DISPLAY (here one that does not exist).
            let chosen = try await CLI.run(
                ["paste", "--display", "wayland:" + sway.waylandDisplay], display: ":987", environment: environment)
            #expect(chosen.exitCode == 0 && chosen.stdout == text, "\(chosen)")
            // Both set and no --display: X, as stated (and that X display does not exist: status 4, naming DISPLAY).
            let both = try await CLI.run(["paste"], display: ":987", environment: environment)
            #expect(both.exitCode == 4 && both.stderrText.contains("DISPLAY"), "\(both)")

            // PRIMARY apart.
            let selected = try await WaylandTestSource(
                on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data("selected".utf8))], primary: true)
            defer { selected.close() }
            #expect(try await paste(["--primary"]).stdout == Data("selected".utf8))
            #expect(try await paste([]).stdout == text)
            // Only the types pasted were asked of the source.
            #expect(Set(source.reads.all).isSubset(of: ["text/plain;charset=utf-8", "text/html", "image/png", "application/x-test-card"]))
            #expect(!source.reads.all.contains("application/x-test-card") || source.reads.all.filter { $0 == "application/x-test-card" }.count == 1)
        }
    }

    @Test("a bare paste (read on one thread, no loop) gives what the full path gives, for each kind of text and for none")
    func barePasteMatchesTheFullPath() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            let cases: [[(String, Data)]] = [
                // GTK 4 and Qt: the UTF-8 MIME type, here with an ill-formed sequence and trailing NULs to make canonical.
                [("text/plain;charset=utf-8", Data([0x47, 0x72, 0xC3, 0xBC, 0xC3, 0x9F, 0x65, 0xFF, 0x21, 0, 0]))],
                [("UTF8_STRING", Data("raw ✓ bytes".utf8)), ("text/plain", Data("not this".utf8))],
                [("STRING", Data([0x63, 0x61, 0x66, 0xE9]))],  // Latin-1 "café"
                [("text/plain", Data("bare text/plain".utf8))],
                [("text/plain; charset=UTF-8", Data("another spelling".utf8))],
                [("text/html", Data("<b>only html</b>".utf8))],  // no text type: the ladder converts (the full path)
                [("image/png", try await ImageTests.card("png"))],  // no text at all: status 1 and the types
            ]
            for flavours in cases {
                let source = try await WaylandTestSource(on: sway.waylandDisplay, flavours)
                defer { source.close() }
                let bare = try await CLI.run(["paste"], display: nil, environment: environment)
                let full = try await CLI.run(["paste", "--no-newline"], display: nil, environment: environment)
                #expect(bare.exitCode == full.exitCode && bare.stdout == full.stdout, "\(flavours.map(\.0)): \(bare) vs \(full)")
                #expect(bare.stderrText == full.stderrText, "\(flavours.map(\.0))")
            }
            #expect(try await CLI.run(["paste"], display: nil, environment: environment).exitCode == 1)
        }
    }

    @Test("wl-copy's text pastes as it was copied; with nothing copied, status 1 and the X message")
    func wlCopyAndNothingCopied() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let environment = sway.waylandEnvironment
            let empty = try await CLI.run(["paste"], display: nil, environment: environment)
            #expect(empty.exitCode == 1 && empty.stderrText.contains("nothing is copied"), "\(empty)")
            let text = "naïve café — 日本語 ✓"
            #expect(try await runPeer(["wl-copy", text], display: nil, environment: environment).succeeded)
            defer { Task { _ = try? await runPeer(["wl-copy", "--clear"], display: nil, environment: environment) } }
            #expect(try await eventually { try await CLI.run(["paste", "--no-newline"], display: nil, environment: environment).stdoutText == text })
            #expect(try await CLI.run(["paste", "-t", "STRING"], display: nil, environment: environment).stdoutText == text)
            let secondary = try await CLI.run(["paste", "--selection", "secondary"], display: nil, environment: environment)
            #expect(secondary.exitCode == 4 && secondary.stderrText.contains("only CLIPBOARD and PRIMARY"), "\(secondary)")
        }
    }

    @Test("48 MiB streams through with bounded memory, byte-exact")
    func largeWithBoundedMemory() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            // UTF-8 text of 1- to 4-byte characters, so that the 1 MiB pieces cut characters (made canonical a piece
            // at a time, it must come out whole).
            let line = Data("Grüße, 日本語 😀 — line of text\n".utf8)
            var big = Data(capacity: 48 << 20)
            while big.count < 48 << 20 { big.append(line) }
            // Qt and GTK 4 on Wayland offer text/plain;charset=utf-8 (no UTF8_STRING): it streams as UTF8_STRING does.
            let source = try await WaylandTestSource(on: sway.waylandDisplay, [("text/plain;charset=utf-8", big)])
            defer { source.close() }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-big-\(getpid()).bin")
            defer { try? FileManager.default.removeItem(at: output) }
            let run = try await measuredRun(
                [CLI.binary, "paste", "--timeout", "20"], display: nil, environment: sway.waylandEnvironment,
                output: output.path)
            #expect(run.status == 0)
            #expect(try Data(contentsOf: output) == big)
            // Read whole it would sit on top of the process's own ~28 MiB (debug build); in 1 MiB pieces it stays near.
            #expect(run.peakRSSKiB < 44 * 1024, "peak RSS \(run.peakRSSKiB) KiB")
        }
    }

    @Test("a silent source: --timeout ends the paste with status 3; the compositor gone mid-read: status 5, nothing written to -o")
    func silentSourceAndCompositorGone() async throws {
        let sway = try await SwayServer.start(.debian, xwayland: false)
        let environment = sway.waylandEnvironment
        let silent = try await WaylandTestSource(
            on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data("never".utf8))], behaviour: .silent)
        let timed = try await CLI.run(["paste", "--timeout", "1"], display: nil, environment: environment)
        #expect(timed.exitCode == 3, "\(timed)")
        #expect(timed.duration < .seconds(3), "\(timed.duration)")

        let output = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-cut-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let paste = try CLI.start(["paste", "--timeout", "30", "-o", output.path], display: nil, environment: environment)
        #expect(try await eventually { silent.reads.all.count == 2 })
        await sway.stop()
        // Within a second of the compositor's end (its socket hangs up; the paste does not wait out its 30 s).
        let ended = try await paste.waitForExit(timeout: .seconds(1))
        #expect(ended.exitCode == 5 && ended.stderrText.contains("closed the connection"), "\(ended)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        silent.close()
    }

    @Test("a source that trickles without end: each byte is written as it comes (no false timeout), and SIGTERM ends the paste at once")
    func tricklingSource() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let trickle = try await WaylandTestSource(
                on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data())], behaviour: .trickle(.milliseconds(200)))
            defer { trickle.close() }
            let paste = try CLI.start(["paste", "--timeout", "1"], display: nil, environment: sway.waylandEnvironment)
            // Past the 1 s timeout, bytes are still arriving and written: the deadline bounds each wait, not the paste.
            #expect(try await eventually(timeout: .seconds(10)) { paste.stdoutSoFar.count >= 8 })
            #expect(!paste.hasExited)
            paste.send(signal: SIGTERM)
            let ended = try await paste.waitForExit(timeout: .seconds(1))
            #expect(ended.termination != .exited(0), "\(ended)")
            #expect(Set(ended.stdout).isSubset(of: [UInt8(ascii: "x")]))
        }
    }

    @Test("with only WAYLAND_DISPLAY, drag and drop say they need X windows and what to do (status 4)")
    func commandsThatNeedX() async throws {
        let environment = ["WAYLAND_DISPLAY": "wayland-77"]
        for (arguments, said) in [
            (["drag", "--text", "x"], "no drag and drop"),
            (["drop", "--once"], "no drag and drop"),
        ] {
            let result = try await CLI.run(arguments, display: nil, environment: environment)
            #expect(result.exitCode == 4, "\(arguments): \(result)")
            #expect(result.stderrText.contains(said) && result.stderrText.contains("--display :N"), "\(result.stderrText)")
        }
    }

    @Test("no compositor at the name, and a compositor without data-control (Weston): status 4, saying what works")
    func compositorsThatCannotServe() async throws {
        let nowhere = try await CLI.run(["paste", "--display", "wayland:/nonexistent/wayland-9"], display: nil)
        #expect(nowhere.exitCode == 4 && nowhere.stderrText.contains("cannot reach the Wayland compositor"), "\(nowhere)")
        try await WestonServer.with { weston in
            let weston = try await CLI.run(["paste", "--display", "wayland:" + weston.waylandDisplay], display: nil)
            #expect(weston.exitCode == 4, "\(weston)")
            #expect(weston.stderrText.contains("data-control") && weston.stderrText.contains("XWayland"), "\(weston.stderrText)")
        }
    }
}
