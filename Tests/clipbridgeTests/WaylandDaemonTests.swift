// `clipbridge daemon` and `history` on a Wayland compositor with no X display — sway headless, 1.7 (wlr data-control)
// and 1.12 (ext-data-control-v1): a copy stays pasteable, every flavour in its order, after its client exits (a test
// source, wl-copy, GTK 4 and Qt 5 as native Wayland clients); the history records one entry per copy with every
// flavour, CLIPBOARD and PRIMARY apart, nothing marked sensitive; restore serves an entry back byte-exact; the sync,
// the validation hook, one daemon per compositor, and the compositor's end.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge daemon and history on a Wayland compositor, without X", .serialized, .timeLimit(.minutes(5)))
struct WaylandDaemonTests {
    /// Starts `clipbridge daemon extra…` on `sway` (DISPLAY unset) and waits until it keeps CLIPBOARD.
    static func daemon(_ sway: SwayServer, _ extra: [String] = []) async throws -> DaemonProcess {
        let peer = try CLI.start(["daemon", "--config", "/dev/null"] + extra, display: nil, environment: sway.waylandEnvironment)
        try await peer.waitForOutput("keeping CLIPBOARD", in: .stderr, timeout: .seconds(30))
        return DaemonProcess(peer: peer)
    }

    static func wlPaste(_ arguments: [String], _ sway: SwayServer) async throws -> CommandResult {
        let newline = arguments.contains("--list-types") ? [] : ["--no-newline"]
        return try await runPeer(["wl-paste"] + newline + arguments, display: nil, environment: sway.waylandEnvironment)
    }

    /// 200 kB of distinct bytes: a flavour larger than a pipe's buffer.
    static let custom = Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 9) })

    @Test("a copy outlives its client, every flavour in its order; one history entry per copy; restore gives it back byte-exact",
          arguments: SwayServer.Build.allCases)
    func keepsRecordsAndRestores(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let history = try TestHistory()
            defer { history.remove() }
            let daemon = try await Self.daemon(sway, history.option)
            defer { Task { await daemon.stop() } }
            let environment = sway.waylandEnvironment

            let flavours: [(String, Data)] = [
                ("text/html", Data("<p>Grüße <b>rich</b></p>".utf8)), ("text/plain;charset=utf-8", Data("Grüße rich".utf8)),
                ("application/x-test-card", Self.custom), ("text/plain", Data("Grüße rich".utf8)),
            ]
            let source = try await WaylandTestSource(on: sway.waylandDisplay, flavours)
            try await daemon.waitFor("kept CLIPBOARD: 4 flavours")
            source.close()
            try await daemon.waitFor("restored CLIPBOARD: 4 flavours")
            #expect(try await Self.wlPaste(["--list-types"], sway).stdoutText == flavours.map { $0.0 + "\n" }.joined())
            for (type, bytes) in flavours {
                #expect(try await Self.wlPaste(["-t", type], sway).stdout == bytes, "\(type)")
            }
            for toolkit in ToolkitPeer.Toolkit.allCases {
                #expect(try await ToolkitPeer(toolkit, waylandEnvironment: environment).read(mimeType: "text/html") == flavours[0].1,
                        "\(toolkit)")
            }

            // wl-copy, whose process is gone once replaced; 20 copies in a row, each one entry.
            for index in 1...20 {
                #expect(try await runPeer(["wl-copy", "copy \(index)"], display: nil, environment: environment).succeeded)
                try await daemon.waitFor("kept CLIPBOARD", count: index + 1)
            }
            #expect(try await runPeer(["wl-copy", "--clear"], display: nil, environment: environment).succeeded)
            try await daemon.waitFor("restored CLIPBOARD", count: 2)
            #expect(try await Self.wlPaste([], sway).stdoutText == "copy 20")
            let entries = try await history.entries()
            #expect(entries.count == 21, "\(entries.map { $0["summary"] ?? "" })")
            let first = try #require(entries.last)
            #expect(first["targets"] as? [String] == flavours.map(\.0))
            #expect(entries.first?["summary"] as? String == "copy 20")

            // Restore the first copy: every flavour back, byte-exact, in its order (the entry moves to the top; a copy
            // the daemon sees again is the same entry).
            let id = try #require(first["id"] as? Int)
            #expect(try await history.run(["restore", "\(id)"], environment: environment).succeeded)
            #expect(try await eventually { try await Self.wlPaste(["--list-types"], sway).stdoutText == flavours.map { $0.0 + "\n" }.joined() })
            for (type, bytes) in flavours {
                #expect(try await Self.wlPaste(["-t", type], sway).stdout == bytes, "\(type)")
            }
            for toolkit in ToolkitPeer.Toolkit.allCases {
                #expect(try await ToolkitPeer(toolkit, waylandEnvironment: environment).read(mimeType: "text/html") == flavours[0].1,
                        "\(toolkit) after the restore")
            }
            try await daemon.waitFor("copied again")
            #expect(try await history.entries().count == 21)
            #expect(try await history.entries().first?["id"] as? Int == id)
        }
    }

    @Test("GTK 4 and Qt 5 as Wayland apps: what they copy stays pasteable after they quit, and is recorded")
    func toolkitsQuit() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let history = try TestHistory()
            defer { history.remove() }
            let daemon = try await Self.daemon(sway, history.option)
            defer { Task { await daemon.stop() } }
            let environment = sway.waylandEnvironment
            let html = Data("<p>from a <b>toolkit</b> ✓</p>".utf8)
            for (index, toolkit) in ToolkitPeer.Toolkit.allCases.enumerated() {
                let text = "\(toolkit) copied this ✓"
                let owner = try await ToolkitPeer(toolkit, waylandEnvironment: environment)
                    .own(text: text, representations: [("text/html", html)])
                try await daemon.waitFor("kept CLIPBOARD", count: index + 1)
                _ = await owner.stop()
                try await daemon.waitFor("restored CLIPBOARD", count: index + 1)
                let other = ToolkitPeer(toolkit == .gtk4 ? .qt5 : .gtk4, waylandEnvironment: environment)
                #expect(try await other.readText() == text, "\(toolkit)")
                #expect(try await other.read(mimeType: "text/html") == html, "\(toolkit)")
            }
            let entries = try await history.entries()
            #expect(entries.count == 2 && entries.allSatisfy { ($0["targets"] as? [String])?.contains("text/html") == true },
                    "\(entries)")
        }
    }

    @Test("sensitive content is neither kept nor recorded; PRIMARY apart and synced to CLIPBOARD; the hook vetoes")
    func sensitiveSyncAndHook() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let history = try TestHistory()
            defer { history.remove() }
            let veto = "read text; [ \"$text\" = forbidden ] && exit 2; exit 0"
            let daemon = try await Self.daemon(sway, history.option + [
                "-s", "clipboard", "-s", "primary", "--sync", "primary-to-clipboard", "--history-primary",
                "--validate", veto,
            ])
            defer { Task { await daemon.stop() } }
            let environment = sway.waylandEnvironment

            let secret = try await WaylandTestSource(on: sway.waylandDisplay, [
                ("text/plain;charset=utf-8", Data("hunter2".utf8)), ("x-kde-passwordManagerHint", Data("secret".utf8)),
            ])
            try await daemon.waitFor("sensitive CLIPBOARD: not kept")
            secret.close()
            try await daemon.waitFor("lost CLIPBOARD")
            #expect(try await Self.wlPaste([], sway).exitCode != 0)

            let selected = try await WaylandTestSource(
                on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data("selected words".utf8))], primary: true)
            defer { selected.close() }
            try await daemon.waitFor("synced PRIMARY → CLIPBOARD")
            #expect(try await Self.wlPaste([], sway).stdoutText == "selected words")
            #expect(try await Self.wlPaste(["--primary"], sway).stdoutText == "selected words")

            #expect(try await runPeer(["wl-copy", "forbidden"], display: nil, environment: environment).succeeded)
            try await daemon.waitFor("vetoed CLIPBOARD")
            #expect(try await eventually { try await Self.wlPaste([], sway).stdoutText != "forbidden" })

            let entries = try await history.entries()
            let summaries = entries.compactMap { $0["summary"] as? String }
            #expect(!summaries.contains("hunter2") && !summaries.contains("forbidden"), "\(summaries)")
            #expect(entries.contains { $0["selection"] as? String == "PRIMARY" && $0["summary"] as? String == "selected words" })
            #expect(try !history.allBytes().contains(Data("hunter2".utf8)))
        }
    }

    @Test("beside an X ↔ Wayland bridge, one copy is one entry: X copies carried over and Wayland copies alike")
    func oneEntryPerCopyBesideTheBridge() async throws {
        try await WaylandBridgeTests.withBridge(.debian) { x, sway, wayland, bridge in
            let history = try TestHistory()
            defer { history.remove() }
            let daemon = try await Self.daemon(sway, history.option)
            defer { Task { await daemon.stop() } }
            let environment = sway.waylandEnvironment
            var expected: [String] = []
            for index in 1...4 {
                let onX = "copied on X \(index)"
                let copied = try await bridge.afterBridging(from: x.display) {
                    try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data(onX.utf8))
                }
                #expect(copied.succeeded)
                try await daemon.waitFor("history: entry", count: expected.count + 1)
                expected.append(onX)
                let onWayland = "copied on Wayland \(index)"
                #expect(try await runPeer(["wl-copy", onWayland], display: nil, environment: environment).succeeded)
                try await daemon.waitFor("history: entry", count: expected.count + 1)
                expected.append(onWayland)
                // Carried to X by the bridge, without a second entry.
                #expect(try await eventually {
                    try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display).stdoutText == onWayland
                })
            }
            // Every copy was waited for ("history: entry" N times, and its carrying to X): a second entry for one would
            // have been recorded with it.
            let summaries = try await history.entries().compactMap { $0["summary"] as? String }
            #expect(summaries.sorted() == expected.sorted(), "\(summaries)\n\(daemon.log)\n\(bridge.log)")
        }
    }

    @Test("--rule on Wayland: what the daemon serves after the source leaves is rewritten — tracking stripped from text and HTML, whitespace trimmed — and named for Wayland clients")
    func rulesRewrite() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let daemon = try await Self.daemon(sway, ["--no-history", "--rule", "strip-tracking", "--rule", "trim-whitespace"])
            defer { Task { await daemon.stop() } }
            let environment = sway.waylandEnvironment
            let link = "https://example.com/a?utm_source=news&id=7"
            let source = try await WaylandTestSource(on: sway.waylandDisplay, [
                ("text/html", Data("<a href=\"\(link)\">Grüße</a>".utf8)),
                ("text/plain;charset=utf-8", Data("\(link)  \n\n".utf8)),
            ])
            try await daemon.waitFor("kept CLIPBOARD")
            source.close()
            try await daemon.waitFor("rewrote CLIPBOARD")
            try await daemon.waitFor("restored CLIPBOARD")
            let types = try await Self.wlPaste(["--list-types"], sway).stdoutText.split(separator: "\n").map(String.init)
            #expect(types.first == "text/html" && types.contains("text/plain;charset=utf-8") && types.contains("UTF8_STRING"), "\(types)")
            #expect(try await Self.wlPaste(["-t", "text/plain;charset=utf-8"], sway).stdoutText == "https://example.com/a?id=7")
            #expect(try await Self.wlPaste(["-t", "text/html"], sway).stdoutText == "<a href=\"https://example.com/a?id=7\">Grüße</a>")

            // wl-copy's text under its five names: every name Wayland clients read gives the rewritten UTF-8.
            #expect(try await runPeer(["wl-copy", "https://x.org/p?fbclid=abc&q=ü  "], display: nil, environment: environment).succeeded)
            try await daemon.waitFor("kept CLIPBOARD", count: 2)
            #expect(try await runPeer(["wl-copy", "--clear"], display: nil, environment: environment).succeeded)
            try await daemon.waitFor("restored CLIPBOARD", count: 2)
            for type in ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"] {
                #expect(try await Self.wlPaste(["-t", type], sway).stdoutText == "https://x.org/p?q=ü", "\(type)")
            }
        }
    }

    @Test("one daemon per compositor (--replace takes over); --status; the compositor's end: status 5")
    func oneDaemonAndTheEnd() async throws {
        let sway = try await SwayServer.start(.debian, xwayland: false)
        let first = try await Self.daemon(sway, ["--no-history"])
        let second = try await CLI.run(["daemon", "--config", "/dev/null", "--no-history"], display: nil,
                                       environment: sway.waylandEnvironment)
        #expect(second.exitCode == 2 && second.stderrText.contains("--replace"), "\(second)")
        let status = try await CLI.run(["daemon", "--status"], display: nil, environment: sway.waylandEnvironment)
        #expect(status.exitCode == 0 && status.stdoutText.contains("on wayland:"), "\(status)")
        let replacing = try await Self.daemon(sway, ["--no-history", "--replace"])
        let replaced = try await first.peer.waitForExit(timeout: .seconds(5))
        #expect(replaced.exitCode == 0, "\(replaced)")
        await sway.stop()
        let ended = try await replacing.peer.waitForExit(timeout: .seconds(3))
        #expect(ended.exitCode == 5 && ended.stderrText.contains("compositor"), "\(ended)")
    }
}
