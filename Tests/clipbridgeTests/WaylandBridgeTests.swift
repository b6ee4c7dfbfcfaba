// `clipbridge bridge :N wayland:PATH` between an Xvfb the test started and sway headless (SwayServer), with xclip on
// the X side and wl-clipboard on the Wayland side: text both ways and as each side names it, custom types, the
// owner's order, PRIMARY, 50 MiB with bounded memory, no echo with a second bridge, the compositor restarted. Each
// test runs with both compositors: Debian 12's sway 1.7, where the bridge speaks wlr data-control, and sway 1.12,
// where it speaks ext-data-control-v1 (while wl-clipboard 2.1, the peer, still speaks wlr's: the two protocols meet
// in the compositor's one selection).

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import WaylandSelection

@Suite("clipbridge bridge between an X display and a Wayland compositor", .serialized, .timeLimit(.minutes(5)))
struct WaylandBridgeTests {
    /// Runs `body` with an Xvfb, sway (without XWayland) and a bridge between them.
    static func withBridge<T>(
        _ build: SwayServer.Build, _ extra: [String] = [],
        _ body: (XvfbServer, SwayServer, String, BridgeProcess) async throws -> T
    ) async throws -> T {
        try await withDisplays(1) { servers in
            try await SwayServer.with(build, xwayland: false) { sway in
                let wayland = "wayland:" + sway.waylandDisplay
                let bridge = try await BridgeProcess.start([servers[0].display, wayland], extra)
                // The protocol spoken: ext where the compositor offers it.
                #expect(bridge.count("connected \(wayland) through \(build.dataControlProtocol)\n") == 1, "\(bridge.log)")
                do {
                    let result = try await body(servers[0], sway, wayland, bridge)
                    await bridge.stop()
                    return result
                } catch {
                    await bridge.stop()
                    throw error
                }
            }
        }
    }

    static func pattern(_ count: Int, seed: Int = 1) -> Data {
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: (index &+ seed) &* 2_654_435_761 >> 11)) }
        return Data(bytes)
    }

    static func file(_ data: Data, _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-bridge-\(getpid())-\(name)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("X → Wayland: text as Wayland names it, a custom type, the owner's order, PRIMARY; nothing read before a paste", arguments: SwayServer.Build.allCases)
    func xToWayland(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let text = "Grüße von X ✓ — 日本語"
            try await bridge.afterBridging(from: x.display) {
                let copied = try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data(text.utf8))
                #expect(copied.succeeded)
            }
            // Lazy: the offer crossed, no byte did.
            #expect(bridge.count("served ") == 0, "\(bridge.log)")
            let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
            #expect(types.stdoutText.split(separator: "\n").prefix(3) == ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"],
                    "\(types.stdoutText)")
            for type in ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"] {
                let pasted = try await runPeer(["wl-paste", "--no-newline", "--type", type], display: nil, environment: environment)
                #expect(pasted.succeeded && pasted.stdout == Data(text.utf8), "\(type): \(pasted)")
            }

            // STRING only (ISO-8859-1, as ICCCM has it): Wayland gets it as UTF-8.
            try await bridge.afterBridging(from: x.display) {
                let copied = try await runPeer(["xclip", "-selection", "clipboard", "-t", "STRING", "-i"], display: x.display,
                                               stdin: Data([0x63, 0x61, 0x66, 0xE9]))
                #expect(copied.succeeded)
            }
            let latin = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment)
            #expect(latin.stdout == Data("café".utf8), "\(latin)")

            // A custom type, byte-exact, and the owner's order kept (a GTK-like owner: HTML before text).
            let custom = Self.pattern(300_000)
            let path = try Self.file(custom, "custom")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await bridge.afterBridging(from: x.display) {
                let copied = try await runPeer(
                    ["xclip", "-selection", "clipboard", "-t", "application/x-clipbridge-test", "-i", path], display: x.display)
                #expect(copied.succeeded)
            }
            let listed = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
            #expect(listed.stdoutText.hasPrefix("application/x-clipbridge-test\n"), "\(listed.stdoutText)")
            let pasted = try await runPeer(["wl-paste", "--type", "application/x-clipbridge-test"], display: nil, environment: environment)
            #expect(pasted.succeeded && pasted.stdout == custom)

            // PRIMARY.
            let marker = "bridged PRIMARY from \(x.display) "
            #expect(try await runPeer(["xclip", "-selection", "primary", "-i"], display: x.display, stdin: Data("selected ✓".utf8)).succeeded)
            try await bridge.waitFor(marker)
            let primary = try await runPeer(["wl-paste", "--primary", "--no-newline"], display: nil, environment: environment)
            #expect(primary.stdout == Data("selected ✓".utf8), "\(primary)")
            _ = wayland
        }
    }

    @Test("Wayland → X: text as X names it (UTF8_STRING, TEXT, STRING only when Latin-1), a custom type, PRIMARY", arguments: SwayServer.Build.allCases)
    func waylandToX(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let text = "Grüße von Wayland ✓ 🙂"
            try await bridge.afterBridging(from: wayland) {
                let copied = try await runPeer(["wl-copy", "--", text], display: nil, environment: environment)
                #expect(copied.succeeded)
            }
            #expect(bridge.count("served ") == 0, "\(bridge.log)")
            let targets = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: x.display)
            // wl-copy offers text/plain, text/plain;charset=utf-8, TEXT, STRING, UTF8_STRING: X gets the text family where
            // its first text type stood, then the MIME names in its order.
            #expect(bridgeable(targets.stdoutText.split(separator: "\n").map(String.init))
                        == ["UTF8_STRING", "TEXT", "STRING", "text/plain", "text/plain;charset=utf-8"], "\(targets.stdoutText)")
            let utf8 = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display)
            #expect(utf8.succeeded && utf8.stdout == Data(text.utf8), "\(utf8)")
            let asText = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TEXT"], display: x.display)
            #expect(asText.stdout == Data(text.utf8), "\(asText)")
            // Not Latin-1: STRING is refused, never filled with substitutes.
            let string = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "STRING"], display: x.display)
            #expect(!string.succeeded || string.stdout.isEmpty, "\(string)")

            try await bridge.afterBridging(from: wayland) {
                let copied = try await runPeer(["wl-copy", "--", "café"], display: nil, environment: environment)
                #expect(copied.succeeded)
            }
            let latin = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "STRING"], display: x.display)
            #expect(latin.stdout == Data([0x63, 0x61, 0x66, 0xE9]), "\(latin)")

            let custom = Self.pattern(500_000, seed: 7)
            let path = try Self.file(custom, "custom-w")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await bridge.afterBridging(from: wayland) {
                let copied = try await runPeer(["sh", "-c", "exec wl-copy --type application/x-clipbridge-test < '\(path)'"],
                                               display: nil, environment: environment)
                #expect(copied.succeeded)
            }
            let pasted = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "application/x-clipbridge-test"],
                                           display: x.display)
            #expect(pasted.succeeded && pasted.stdout == custom)

            #expect(try await runPeer(["wl-copy", "--primary", "--", "highlighted"], display: nil, environment: environment).succeeded)
            try await bridge.waitFor("bridged PRIMARY from \(wayland) ")
            let primary = try await runPeer(["xclip", "-selection", "primary", "-o"], display: x.display)
            #expect(primary.stdout == Data("highlighted".utf8), "\(primary)")
        }
    }

    @Test("GTK 4 and Qt 5 as Wayland clients read what X apps copy: text, HTML + text, PNG, a file list", arguments: SwayServer.Build.allCases)
    func toolkitsReadOnWayland(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, _, bridge in
            let environment = sway.waylandEnvironment
            let text = "Grüße aus X ✓"
            let html = Data("<b>Grüße</b> aus <i>X</i>".utf8)
            // A GTK 4 app on X copies HTML and text.
            let owner = try await bridge.afterBridging(from: x.display) {
                try await ToolkitPeer(.gtk4, display: x.display).own(text: text, representations: [("text/html", html)])
            }
            for toolkit in ToolkitPeer.Toolkit.allCases {
                let peer = ToolkitPeer(toolkit, waylandEnvironment: environment)
                #expect(try await peer.readText() == text, "\(toolkit)")
                #expect(try await peer.read(mimeType: "text/html") == html, "\(toolkit)")
            }
            await owner.stop()

            // A PNG and a file list, each from xclip and from GTK 4 on X.
            let png = try await ImageTests.card("png")
            let path = try Self.file(png, "card.png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await bridge.afterBridging(from: x.display) {
                let copied = try await runPeer(["xclip", "-selection", "clipboard", "-t", "image/png", "-i", path], display: x.display)
                #expect(copied.succeeded)
            }
            for toolkit in ToolkitPeer.Toolkit.allCases {
                #expect(try await ToolkitPeer(toolkit, waylandEnvironment: environment).read(mimeType: "image/png") == png, "\(toolkit)")
            }
            let uris = Data("file:///tmp/a%20b.txt\r\nfile:///tmp/c.txt\r\n".utf8)
            let copied = Data("copy\nfile:///tmp/a%20b.txt\nfile:///tmp/c.txt".utf8)
            let files = try await bridge.afterBridging(from: x.display) {
                try await ToolkitPeer(.gtk4, display: x.display).own(
                    representations: [("x-special/gnome-copied-files", copied), ("text/uri-list", uris)])
            }
            defer { Task { await files.stop() } }
            let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
            #expect(types.stdoutText.hasPrefix("x-special/gnome-copied-files\ntext/uri-list\n"), "\(types.stdoutText)")
            #expect(try await ToolkitPeer(.gtk4, waylandEnvironment: environment).read(mimeType: "text/uri-list") == uris)
            #expect(try await ToolkitPeer(.qt5, waylandEnvironment: environment).read(mimeType: "x-special/gnome-copied-files") == copied)
        }
    }

    @Test("GTK 4 and Qt 5 as Wayland owners: X apps (xclip, GTK 4, Qt 5) read their text and HTML, in their order", arguments: SwayServer.Build.allCases)
    func toolkitsOwnOnWayland(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let html = Data("<p>from <b>Wayland</b> ✓</p>".utf8)
            for toolkit in ToolkitPeer.Toolkit.allCases {
                let text = "\(toolkit) on Wayland: Grüße ✓"
                let owner = try await bridge.afterBridging(from: wayland) {
                    try await ToolkitPeer(toolkit, waylandEnvironment: environment)
                        .own(text: text, representations: [("text/html", html)])
                }
                let targets = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: x.display)
                let listed = bridgeable(targets.stdoutText.split(separator: "\n").map(String.init))
                // The owner's order: HTML before or after its first text type on Wayland, as it is on X before or after
                // UTF8_STRING.
                let offered = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
                    .stdoutText.split(separator: "\n").map(String.init)
                let firstText = try #require(offered.firstIndex { $0.hasPrefix("text/plain") || $0 == "UTF8_STRING" || $0 == "STRING" || $0 == "TEXT" })
                let htmlFirst = try #require(offered.firstIndex(of: "text/html")) < firstText
                let xHTML = try #require(listed.firstIndex(of: "text/html"), "\(toolkit): \(listed)")
                let xText = try #require(listed.firstIndex(of: "UTF8_STRING"), "\(toolkit): \(listed)")
                #expect((xHTML < xText) == htmlFirst, "\(toolkit): Wayland \(offered), X \(listed)")
                let xclip = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display)
                #expect(xclip.stdout == Data(text.utf8), "\(toolkit) → xclip: \(xclip)")
                for reader in ToolkitPeer.Toolkit.allCases {
                    let peer = ToolkitPeer(reader, display: x.display)
                    #expect(try await peer.readText() == text, "\(toolkit) → \(reader) on X")
                    #expect(try await peer.read(mimeType: "text/html") == html, "\(toolkit) → \(reader) on X")
                }
                await owner.stop()
            }
        }
    }

    @Test("sensitive content: not bridged by default (and the old offer withdrawn); with --include-sensitive it crosses with its hint", arguments: SwayServer.Build.allCases)
    func sensitive(_ build: SwayServer.Build) async throws {
        for include in [false, true] {
            try await Self.withBridge(build, include ? ["--include-sensitive"] : []) { x, sway, _, bridge in
                let environment = sway.waylandEnvironment
                try await bridge.afterBridging(from: x.display) {
                    let copied = try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data("public".utf8))
                    #expect(copied.succeeded)
                }
                let copied = try await CLI.run(["copy", "--sensitive"], display: x.display, input: "hunter2")
                #expect(copied.succeeded)
                if include {
                    try await bridge.waitFor("bridged CLIPBOARD from \(x.display) ", count: 2)
                    let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
                    #expect(types.stdoutText.contains("x-kde-passwordManagerHint\n"), "\(types.stdoutText)")
                    let pasted = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment)
                    #expect(pasted.stdout == Data("hunter2".utf8))
                } else {
                    try await bridge.waitFor("not bridged CLIPBOARD from \(x.display): the content is marked sensitive")
                    // The Wayland side no longer offers the previous content either.
                    let gone = try await eventually {
                        try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment).stdoutText.isEmpty
                    }
                    #expect(gone, "\(bridge.log)")
                }
            }
        }
    }

    @Test("50 MiB each way, streamed with bounded memory", arguments: SwayServer.Build.allCases)
    func large(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let big = Self.pattern(50 << 20, seed: 3)
            let path = try Self.file(big, "big")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await bridge.afterBridging(from: x.display) {
                let copied = try await runPeer(["xclip", "-selection", "clipboard", "-t", "application/octet-stream", "-i", path],
                                               display: x.display)
                #expect(copied.succeeded)
            }
            let toWayland = try await runPeer(["wl-paste", "--type", "application/octet-stream"], display: nil,
                                              environment: environment, timeout: .seconds(60))
            #expect(toWayland.succeeded && toWayland.stdout.count == big.count && toWayland.stdout == big)

            try await bridge.afterBridging(from: wayland) {
                let copied = try await runPeer(["sh", "-c", "exec wl-copy --type application/octet-stream < '\(path)'"],
                                               display: nil, environment: environment, timeout: .seconds(30))
                #expect(copied.succeeded)
            }
            let toX = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "application/octet-stream"],
                                        display: x.display, timeout: .seconds(60))
            #expect(toX.succeeded && toX.stdout.count == big.count && toX.stdout == big)
            let rss = try #require(peakRSSKiB(bridge.peer.pid))
            #expect(rss < 64 * 1024, "the bridge's peak RSS is \(rss) KiB")
        }
    }

    @Test("an X owner that dies mid-INCR: a Wayland paste gets none of it up to the 8 MiB holdback, never a part that reads as whole; past it the bridge reports the cut")
    func xOwnerDiesMidTransfer() async throws {
        try await Self.withBridge(.debian, ["-s", "clipboard", "--timeout", "2"]) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            // Sizes a real peer sends: 1 MiB of 4 (a screenshot), 7 MiB of 8; and 10 MiB of 16, past the holdback.
            for (size, chunks) in [(4 << 20, 16), (8 << 20, 112), (16 << 20, 160)] {
                let dying = try await bridge.afterBridging(from: x.display) {
                    try await HostilePeer.owner(["die-mid-incr", "--size", "\(size)", "--chunks", "\(chunks)"], display: x.display)
                }
                let failedBefore = bridge.count("failed CLIPBOARD:")
                let pasted = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment,
                                               timeout: .seconds(30))
                try await dying.waitForOutput("DIED", timeout: .seconds(10))
                try await bridge.waitFor("failed CLIPBOARD:", count: failedBefore + 1)
                if size <= 8 << 20 {
                    #expect(pasted.stdout.isEmpty, "\(size) bytes announced, \(chunks) chunks sent: \(pasted.stdout.count) bytes pasted")
                } else {
                    // Streamed: Wayland cannot say it was cut (the pipe's end is its only end marker); the log does.
                    #expect(pasted.stdout.count < size)
                }
                _ = await dying.stop()
            }
            #expect(bridge.count("served CLIPBOARD:") == 0, "\(bridge.log)")
            _ = wayland
        }
    }

    @Test("an X owner with 10,000 distinct targets: Wayland is offered as many as fit, in order, and nobody is disconnected",
          arguments: SwayServer.Build.allCases)
    func thousandsOfTargets(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let hostile = try await bridge.afterBridging(from: x.display) {
                try await HostilePeer.owner(["distinct-targets", "--count", "10000"], display: x.display)
            }
            let listed = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
            let types = listed.stdoutText.split(separator: "\n")
            #expect(listed.succeeded && types.count > 500 && types.count < 10_000, "\(types.count) types")
            #expect(Set(types).count == types.count)
            #expect(types.prefix(3) == ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"], "\(types.prefix(5))")
            let distinct = types.filter { $0.hasPrefix("application/x-cb-distinct-") }
            #expect(distinct.count > 500)
            #expect(distinct.map { Int($0.split(separator: "-").last ?? "") ?? -1 } == Array(0..<distinct.count), "the owner's order")
            let pasted = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment)
            #expect(pasted.stdout == Data("huge-ok".utf8), "\(pasted)")
            _ = await hostile.stop()
            // Still connected on both sides: the next copy crosses, and the log has no disconnection.
            let copied = try await bridge.afterBridging(from: x.display) {
                try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data("after".utf8))
            }
            #expect(copied.succeeded)
            let after = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment)
            #expect(after.stdout == Data("after".utf8), "\(after)")
            #expect(bridge.count("disconnected") == 0, "\(bridge.log)")
            _ = wayland
        }
    }

    @Test("a compositor with neither data-control protocol (Weston): the bridge names both, keeps retrying; --exit-on-disconnect exits 4")
    func compositorWithoutDataControl() async throws {
        try await withDisplays(1) { servers in
            try await WestonServer.with { weston in
                let wayland = "wayland:" + weston.waylandDisplay
                let missing = "neither ext_data_control_manager_v1 nor zwlr_data_control_manager_v1"
                let retrying = try CLI.start(["bridge", servers[0].display, wayland], display: nil)
                let said = try await eventually(timeout: .seconds(10)) {
                    String(decoding: retrying.stderrSoFar, as: UTF8.self).contains("disconnected \(wayland): the compositor offers no data-control protocol (\(missing))")
                }
                #expect(said, "\(String(decoding: retrying.stderrSoFar, as: UTF8.self))")
                #expect(!retrying.hasExited)
                _ = await retrying.stop()

                let exiting = try await CLI.run(["bridge", "--exit-on-disconnect", servers[0].display, wayland], display: nil)
                #expect(exiting.termination == .exited(4), "\(exiting)")
                #expect(exiting.stderrText.contains(missing), "\(exiting.stderrText)")
            }
        }
    }

    @Test("no echo: the bridge's own claims, and a second bridge's, are not bridged back (offers counted on both sides)", arguments: SwayServer.Build.allCases)
    func noEcho(_ build: SwayServer.Build) async throws {
        try await Self.withBridge(build) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let second = try await BridgeProcess.start([x.display, wayland])
            defer { Task { await second.stop() } }
            // A watcher of the Wayland side counts its offers.
            let watcher = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { watcher.close() }
            let offers = Mutex(0)
            let counting = Task { for await event in watcher.events { if case .offered(.clipboard, _, _) = event { offers.withLock { $0 += 1 } } } }
            defer { counting.cancel() }

            // Either bridge may carry a copy: the one that claims first wins, and the other then sees another
            // bridge's claim and stands back ("not bridged …: another bridge owns it").
            func eitherBridged(from side: String, count: Int) async throws {
                let marker = "bridged CLIPBOARD from \(side) "
                let seen = try await eventually(timeout: .seconds(10)) { bridge.count(marker) + second.count(marker) >= count }
                #expect(seen, "\(bridge.log)\n\(second.log)")
            }
            #expect(try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data("from X".utf8)).succeeded)
            try await eitherBridged(from: x.display, count: 1)
            try await Task.sleep(for: .seconds(1))
            let settled = (offers.withLock { $0 }, bridge.count("bridged "), second.count("bridged "))
            try await Task.sleep(for: .seconds(2))
            #expect(offers.withLock { $0 } == settled.0, "Wayland offers went on: \(settled.0) → \(offers.withLock { $0 })")
            #expect(bridge.count("bridged ") == settled.1 && second.count("bridged ") == settled.2, "\(bridge.log)\n\(second.log)")
            #expect(settled.0 <= 3, "\(settled.0) Wayland offers for one copy")
            let pasted = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment)
            #expect(pasted.stdout == Data("from X".utf8))

            let fromWayland = bridge.count("bridged CLIPBOARD from \(wayland) ") + second.count("bridged CLIPBOARD from \(wayland) ")
            #expect(try await runPeer(["wl-copy", "--", "from Wayland"], display: nil, environment: environment).succeeded)
            try await eitherBridged(from: wayland, count: fromWayland + 1)
            try await Task.sleep(for: .seconds(1))
            let again = (offers.withLock { $0 }, bridge.count("bridged "), second.count("bridged "))
            try await Task.sleep(for: .seconds(2))
            #expect(offers.withLock { $0 } == again.0 && bridge.count("bridged ") == again.1 && second.count("bridged ") == again.2,
                    "\(bridge.log)\n\(second.log)")
            let onX = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display)
            #expect(onX.stdout == Data("from Wayland".utf8), "\(onX)")
        }
    }

    @Test("the compositor stopped and restarted: the bridge reconnects and the current X content reaches it", arguments: SwayServer.Build.allCases)
    func compositorRestart(_ build: SwayServer.Build) async throws {
        try await withDisplays(1) { servers in
            let x = servers[0]
            var sway = try await SwayServer.start(build, xwayland: false)
            do {
                let wayland = "wayland:" + sway.waylandDisplay
                let bridge = try await BridgeProcess.start([x.display, wayland], ["--timeout", "2"])
                #expect(try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x.display, stdin: Data("kept".utf8)).succeeded)
                try await bridge.waitFor("bridged CLIPBOARD from \(x.display) ")
                let path = sway.waylandDisplay
                sway = try await sway.restarted()
                try await bridge.waitFor("disconnected \(wayland)")
                try #require(sway.waylandDisplay == path, "sway came back at \(sway.waylandDisplay), not \(path)")
                try await bridge.waitFor("connected \(wayland) through ", count: 2, timeout: .seconds(20))
                let pasted = try await eventually(timeout: .seconds(10)) {
                    let result = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: sway.waylandEnvironment)
                    return result.stdout == Data("kept".utf8)
                }
                #expect(pasted, "\(bridge.log)")
                await bridge.stop()
                await sway.stop()
            } catch {
                await sway.stop()
                throw error
            }
        }
    }
}
