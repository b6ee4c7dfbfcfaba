// `clipbridge bridge wayland:A wayland:B` between two compositors the test started — sway headless (1.7 with wlr
// data-control, 1.12 with ext-data-control-v1) and KWin 5.27 headless (wlr data-control) — with a multi-flavour
// source of the test's own on either side (through data-control, as a clipboard manager offers) and wl-clipboard as
// the peer: every flavour of a copy, in its order and byte-exact, both ways; text as wl-copy offers it; PRIMARY; no
// echo; nothing read before a paste.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import WaylandSelection

@Suite("clipbridge bridge between two Wayland compositors (sway and KWin)", .serialized, .timeLimit(.minutes(5)))
struct WaylandPairBridgeTests {
    typealias Source = WaylandTestSource

    static let bridgeMarks: Set<String> = ["_CLIPBRIDGE_BRIDGED", "application/x-clipbridge-bridged"]

    /// The types `wl-paste --list-types` lists on `environment`'s compositor, less the bridge's marks.
    static func listed(_ environment: [String: String], primary: Bool = false) async throws -> [String] {
        let listed = try await runPeer(["wl-paste", "--list-types"] + (primary ? ["--primary"] : []), display: nil, environment: environment)
        return listed.stdoutText.split(separator: "\n").map(String.init).filter { !bridgeMarks.contains($0) }
    }

    static func paste(_ type: String, _ environment: [String: String], primary: Bool = false) async throws -> CommandResult {
        try await runPeer(["wl-paste", "--no-newline", "--type", type] + (primary ? ["--primary"] : []), display: nil, environment: environment)
    }

    @Test("every flavour of a copy crosses both ways, in its order and byte-exact: text, HTML, PNG, a custom type; read only when pasted",
          arguments: SwayServer.Build.allCases)
    func everyFlavourBothWays(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            try await KWinServer.with { kwin in
                let (a, b) = ("wayland:" + sway.waylandDisplay, "wayland:" + kwin.waylandDisplay)
                let bridge = try await BridgeProcess.start([a, b])
                defer { Task { await bridge.stop() } }
                #expect(bridge.count("connected \(a) through \(build.dataControlProtocol)\n") == 1, "\(bridge.log)")
                #expect(bridge.count("connected \(b) through zwlr_data_control_manager_v1\n") == 1, "\(bridge.log)")
                let png = try await ImageTests.card("png")
                for (from, to, fromEnvironment, toEnvironment) in [
                    (a, b, sway.waylandEnvironment, kwin.waylandEnvironment), (b, a, kwin.waylandEnvironment, sway.waylandEnvironment),
                ] {
                    let display = fromEnvironment["WAYLAND_DISPLAY"]!
                    let flavours: [(String, Data)] = [
                        ("text/html", Data("<b>Grüße</b> from \(from) ✓".utf8)),
                        ("text/plain;charset=utf-8", Data("Grüße from \(from) ✓".utf8)),
                        ("image/png", png),
                        ("application/x-clipbridge-test", WaylandBridgeTests.pattern(300_000, seed: from.count)),
                    ]
                    let source = try await bridge.afterBridging(from: from) { try await Source(on: display, flavours) }
                    defer { source.close() }
                    // Nothing was read ahead.
                    #expect(source.reads.all.isEmpty, "\(source.reads.all)")
                    #expect(try await Self.listed(toEnvironment) == flavours.map(\.0), "\(bridge.log)")
                    for (type, bytes) in flavours {
                        let pasted = try await Self.paste(type, toEnvironment)
                        #expect(pasted.succeeded && pasted.stdout == bytes, "\(type): \(pasted.stderrText)")
                    }
                    #expect(source.reads.all.sorted() == flavours.map(\.0).sorted())
                }
                #expect(bridge.count("failed ") == 0, "\(bridge.log)")
            }
        }
    }

    @Test("wl-copy's text both ways, PRIMARY where both share it, and no echo: each copy bridged once",
          arguments: SwayServer.Build.allCases)
    func textPrimaryAndNoEcho(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            try await KWinServer.with { kwin in
                let (a, b) = ("wayland:" + sway.waylandDisplay, "wayland:" + kwin.waylandDisplay)
                let bridge = try await BridgeProcess.start([a, b])
                defer { Task { await bridge.stop() } }
                let text = "Grüße ✓ 🙂 from sway"
                try await bridge.afterBridging(from: a) {
                    let copied = try await runPeer(["wl-copy", "--", text], display: nil, environment: sway.waylandEnvironment)
                    #expect(copied.succeeded)
                }
                let onKWin = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: kwin.waylandEnvironment)
                #expect(onKWin.stdout == Data(text.utf8), "\(onKWin)")
                // wl-copy's own types, in its order: the same names cross, nothing added.
                let types = try await Self.listed(kwin.waylandEnvironment)
                #expect(types == ["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"])

                try await bridge.afterBridging(from: b) {
                    let copied = try await runPeer(["wl-copy", "--", "from KWin"], display: nil, environment: kwin.waylandEnvironment)
                    #expect(copied.succeeded)
                }
                let onSway = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: sway.waylandEnvironment)
                #expect(onSway.stdout == Data("from KWin".utf8), "\(onSway)")

                #expect(try await runPeer(["wl-copy", "--primary", "--", "highlighted"], display: nil, environment: sway.waylandEnvironment).succeeded)
                try await bridge.waitFor("bridged PRIMARY from \(a) ")
                let primary = try await runPeer(["wl-paste", "--primary", "--no-newline"], display: nil, environment: kwin.waylandEnvironment)
                #expect(primary.stdout == Data("highlighted".utf8), "\(primary)")

                // No echo: our claims on either side are not bridged back. The bridge takes its events in order, so an
                // echo of those three would be told before a fourth copy is: exactly four lines once that one is.
                try await bridge.afterBridging(from: b) {
                    let copied = try await runPeer(["wl-copy", "--", "the last"], display: nil, environment: kwin.waylandEnvironment)
                    #expect(copied.succeeded)
                }
                #expect(bridge.count("bridged ") == 4, "\(bridge.log)")
            }
        }
    }
}
