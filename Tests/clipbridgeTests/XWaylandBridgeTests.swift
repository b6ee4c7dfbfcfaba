// `clipbridge bridge` between sway's own XWayland and sway — the usual mixed session — where the compositor syncs
// the selections itself while an X window has the focus (CompositorSync). Run alone (scripts/test.sh): wlroots numbers
// XWayland displays only within :0–:32, which the parallel run's Xvfb servers can all hold.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import WaylandSelection

@Suite("clipbridge bridge between XWayland and its own compositor", .serialized, .timeLimit(.minutes(5)))
struct XWaylandBridgeTests {
    static func withSession<T>(
        _ build: SwayServer.Build, _ body: (SwayServer, String, String, BridgeProcess) async throws -> T
    ) async throws -> T {
        try await SwayServer.with(build, xwayland: true) { sway in
            let x = try #require(sway.xDisplay)
            let wayland = "wayland:" + sway.waylandDisplay
            let bridge = try await BridgeProcess.start([x, wayland])
            do {
                let result = try await body(sway, x, wayland, bridge)
                await bridge.stop()
                return result
            } catch {
                await bridge.stop()
                throw error
            }
        }
    }

    /// Waits until `count` stops changing for `quiet`, and returns it.
    static func settled(_ count: () -> Int, quiet: Duration = .milliseconds(1500)) async throws -> Int {
        var last = count()
        var since = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now - since < quiet, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let now = count()
            if now != last { (last, since) = (now, .now) }
        }
        return last
    }

    @Test("no X window focused: the bridge carries both ways (an X copy read ahead); the compositor's claim when an X window gets the focus changes nothing", arguments: SwayServer.Build.allCases)
    func unfocused(_ build: SwayServer.Build) async throws {
        try await Self.withSession(build) { sway, x, wayland, bridge in
            let environment = sway.waylandEnvironment
            // Wayland → X: the compositor leaves X alone while no X window has the focus; the bridge does not.
            #expect(try await runPeer(["wl-copy", "--", "from Wayland ✓"], display: nil, environment: environment).succeeded)
            try await bridge.waitFor("bridged CLIPBOARD from \(wayland) ")
            let onX = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x)
            #expect(onX.succeeded && onX.stdout == Data("from Wayland ✓".utf8), "\(onX)\n\(bridge.log)")

            // X → Wayland: read ahead (the compositor will take the X selection from xclip when an X window gets the focus).
            let big = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
            let bridged = bridge.count("bridged CLIPBOARD from \(x) ")
            let copied = try await runPeer(["xclip", "-selection", "clipboard", "-t", "application/x-clipbridge-test", "-i"],
                                           display: x, stdin: big)
            #expect(copied.succeeded)
            try await bridge.waitFor("bridged CLIPBOARD from \(x) ", count: bridged + 1)
            let onWayland = try await runPeer(["wl-paste", "--type", "application/x-clipbridge-test"], display: nil, environment: environment)
            #expect(onWayland.succeeded && onWayland.stdout == big)

            // An X window gets the focus: the compositor takes the X selection, mirroring the Wayland content (ours);
            // the bridge leaves it alone, and both sides still have the X copy.
            let window = try startPeer(["xmessage", "-geometry", "300x80", "focus"], display: x)
            defer { Task { await window.stop() } }
            let counter = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { counter.close() }
            let offers = Mutex(0)
            let counting = Task { for await event in counter.events { if case .offered(.clipboard, _, _) = event { offers.withLock { $0 += 1 } } } }
            defer { counting.cancel() }
            try await Task.sleep(for: .seconds(1))
            let xFocused = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "application/x-clipbridge-test"], display: x)
            #expect(xFocused.succeeded && xFocused.stdout == big, "\(xFocused)\n\(bridge.log)")
            let before = (offers.withLock { $0 }, bridge.count("bridged "))
            let after = try await Self.settled { offers.withLock { $0 } + 1000 * bridge.count("bridged ") }
            #expect(after == before.0 + 1000 * before.1, "offers or bridged lines went on: \(bridge.log)")
            let still = try await runPeer(["wl-paste", "--type", "application/x-clipbridge-test"], display: nil, environment: environment)
            #expect(still.stdout == big)
        }
    }

    @Test("an X window focused: copies on either side are the compositor's to carry; the bridge takes no part and nothing echoes", arguments: SwayServer.Build.allCases)
    func focused(_ build: SwayServer.Build) async throws {
        try await Self.withSession(build) { sway, x, wayland, bridge in
            let environment = sway.waylandEnvironment
            let window = try startPeer(["xmessage", "-geometry", "300x80", "focus"], display: x)
            defer { Task { await window.stop() } }
            try await Task.sleep(for: .seconds(1))
            let start = bridge.count("bridged ")

            #expect(try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: x, stdin: Data("X, focused".utf8)).succeeded)
            let pasted = try await eventually {
                try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment).stdout == Data("X, focused".utf8)
            }
            #expect(pasted, "\(bridge.log)")

            #expect(try await runPeer(["wl-copy", "--", "Wayland, X focused"], display: nil, environment: environment).succeeded)
            let onX = try await eventually {
                try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x).stdout == Data("Wayland, X focused".utf8)
            }
            #expect(onX, "\(bridge.log)")
            _ = try await Self.settled { bridge.count("bridged ") }
            #expect(bridge.count("bridged ") == start, "the bridge took part: \(bridge.log)")
            _ = wayland
        }
    }

    @Test("the focus leaves X: the Wayland content the compositor held on X is the bridge's again, for requestors without the focus", arguments: SwayServer.Build.allCases)
    func focusLeaves(_ build: SwayServer.Build) async throws {
        try await Self.withSession(build) { sway, x, wayland, bridge in
            let environment = sway.waylandEnvironment
            #expect(try await runPeer(["wl-copy", "--", "from Wayland"], display: nil, environment: environment).succeeded)
            try await bridge.waitFor("bridged CLIPBOARD from \(wayland) ")
            // An X window gets the focus: the compositor claims X with the Wayland content (and serves it while focused).
            let window = try startPeer(["xmessage", "-geometry", "300x80", "focus"], display: x)
            try await Task.sleep(for: .seconds(1))
            let focused = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x)
            #expect(focused.stdout == Data("from Wayland".utf8), "\(focused)")
            // It goes: the compositor would refuse xclip now; the bridge claims X again.
            await window.stop()
            try await bridge.waitFor("bridged CLIPBOARD from \(wayland) ", count: 2)
            let unfocused = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x)
            #expect(unfocused.succeeded && unfocused.stdout == Data("from Wayland".utf8), "\(unfocused)\n\(bridge.log)")
            let start = bridge.count("bridged ")
            _ = try await Self.settled { bridge.count("bridged ") }
            #expect(bridge.count("bridged ") == start, "\(bridge.log)")
        }
    }

    @Test("GTK 4 and Qt 5: an X app's HTML copy read by GTK 4 on Wayland, a Qt 5 Wayland copy read by GTK 4 and xclip on XWayland", arguments: SwayServer.Build.allCases)
    func toolkits(_ build: SwayServer.Build) async throws {
        try await Self.withSession(build) { sway, x, wayland, bridge in
            let environment = sway.waylandEnvironment
            let html = Data("<b>Grüße</b> von XWayland".utf8)
            let owner = try await bridge.afterBridging(from: x) {
                try await ToolkitPeer(.gtk4, display: x).own(text: "Grüße von XWayland", representations: [("text/html", html)])
            }
            let reader = ToolkitPeer(.gtk4, waylandEnvironment: environment)
            #expect(try await reader.read(mimeType: "text/html") == html)
            #expect(try await reader.readText() == "Grüße von XWayland")
            await owner.stop()

            let qt = try await bridge.afterBridging(from: wayland) {
                try await ToolkitPeer(.qt5, waylandEnvironment: environment).own(text: "Qt on Wayland ✓")
            }
            defer { Task { await qt.stop() } }
            #expect(try await ToolkitPeer(.gtk4, display: x).readText() == "Qt on Wayland ✓")
            let xclip = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x)
            #expect(xclip.stdout == Data("Qt on Wayland ✓".utf8), "\(xclip)")
        }
    }
}
