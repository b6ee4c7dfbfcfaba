// The commands on KDE Plasma's compositor without X: KWin 5.27 (`kwin_wayland --virtual`, wlr data-control) —
// `copy` read by wl-paste, `paste` of wl-copy's copy, `watch`, and the daemon keeping a copy after its client exits,
// recorded in the history and restored from it.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge on KWin without X", .serialized, .timeLimit(.minutes(4)))
struct WaylandKWinTests {
    @Test("copy, paste and watch; the daemon keeps a copy after its client exits, records it, and restores it")
    func commandsOnKWin() async throws {
        try await KWinServer.with { kwin in
            let environment = kwin.waylandEnvironment
            func wlPaste(_ arguments: [String]) async throws -> CommandResult {
                let newline = arguments.contains("--list-types") ? [] : ["--no-newline"]
                return try await runPeer(["wl-paste"] + newline + arguments, display: nil, environment: environment)
            }
            func clipbridge(_ arguments: [String], stdin: Data? = nil) async throws -> CommandResult {
                try await CLI.run(arguments, display: nil, stdin: stdin.map { .data($0) } ?? .none, environment: environment)
            }
            // --initial: its first line says it is connected and following.
            let watch = try CLI.start(["watch", "--json", "--initial"], display: nil, environment: environment)
            defer { Task { _ = await watch.stop() } }
            try await watch.waitForOutput("\"reason\":\"current\"")

            let html = Data("<p>KWin <b>rich</b> ✓</p>".utf8)
            #expect(try await clipbridge(["copy", "-t", "text/html"], stdin: html).succeeded)
            #expect(try await wlPaste(["--list-types"]).stdoutText == "text/html\ntext/plain;charset=utf-8\ntext/plain\nUTF8_STRING\n")
            #expect(try await wlPaste(["-t", "text/html"]).stdout == html)
            #expect(try await runPeer(["wl-copy", "from wl-copy ✓"], display: nil, environment: environment).succeeded)
            #expect(try await eventually { try await clipbridge(["paste"]).stdoutText == "from wl-copy ✓" })
            func changes() -> [Substring] {
                String(decoding: watch.stdoutSoFar, as: UTF8.self).split(separator: "\n").filter { $0.contains("\"new-owner\"") }
            }
            #expect(try await eventually { changes().count >= 2 })
            let lines = changes()
            #expect(lines.first?.contains("\"mimeType\":\"text/html\"") == true, "\(lines)")

            let history = try TestHistory()
            defer { history.remove() }
            let daemonPeer = try CLI.start(["daemon", "--config", "/dev/null"] + history.option, display: nil, environment: environment)
            try await daemonPeer.waitForOutput("keeping CLIPBOARD", in: .stderr, timeout: .seconds(30))
            let daemon = DaemonProcess(peer: daemonPeer)
            defer { Task { await daemon.stop() } }
            let flavours: [(String, Data)] = [("text/html", html), ("text/plain;charset=utf-8", Data("KWin rich ✓".utf8)),
                                              ("application/x-kwin-test", Data((0..<70_000).map { UInt8($0 % 251) }))]
            let source = try await WaylandTestSource(on: kwin.waylandDisplay, flavours)
            try await daemon.waitFor("kept CLIPBOARD: 3 flavours")
            source.close()
            try await daemon.waitFor("restored CLIPBOARD: 3 flavours")
            for (type, bytes) in flavours { #expect(try await wlPaste(["-t", type]).stdout == bytes, "\(type)") }
            #expect(try await runPeer(["wl-copy", "later"], display: nil, environment: environment).succeeded)
            try await daemon.waitFor("kept CLIPBOARD", count: 2)
            let entries = try await history.entries()
            let id = try #require(entries.first { ($0["targets"] as? [String]) == flavours.map(\.0) }?["id"] as? Int, "\(entries)")
            #expect(try await history.run(["restore", "\(id)"], environment: environment).succeeded)
            #expect(try await eventually { try await wlPaste(["-t", "application/x-kwin-test"]).stdout == flavours[2].1 })
        }
    }
}
