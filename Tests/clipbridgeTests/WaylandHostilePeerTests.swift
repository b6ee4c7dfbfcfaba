// Bad peers on a Wayland compositor (sway 1.7 headless): a source that trickles a byte at a time and a requestor that
// goes away meanwhile, on either side of the X ↔ Wayland bridge (the transfer ends, no descriptor stays open); a
// source that writes without end into the daemon (its per-flavour cap, logged); a source offering 10,000 types, after
// which the compositor (libwayland-server < 1.23) silently drops every data-control client it could not write to —
// seen within a second, and the daemon and the bridge connect again and carry the next copy.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("bad peers on a Wayland compositor", .serialized, .timeLimit(.minutes(5)))
struct WaylandHostilePeerTests {
    /// The open descriptors of process `pid`.
    static func descriptors(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    @Test("a trickling source and a requestor that goes, both ways across the bridge: the transfer ends, no descriptor stays")
    func tricklersAcrossTheBridge() async throws {
        try await WaylandBridgeTests.withBridge(.debian) { x, sway, wayland, bridge in
            let pid = bridge.peer.pid
            // Wayland → X: a source writing a byte every 200 ms; xclip -o asks, then is killed.
            let source = try await bridge.afterBridging(from: wayland) {
                try await WaylandTestSource(
                    on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data("x".utf8))], behaviour: .trickle(.milliseconds(200)))
            }
            defer { source.close() }
            let baseline = Self.descriptors(pid)
            let reader = try startPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display)
            #expect(try await eventually { !source.reads.all.isEmpty }, "the bridge never asked the source")
            _ = await reader.kill()
            // Within a second or so of the requestor's end, the bridge stops reading: the source's next byte finds the
            // pipe closed, and the bridge holds no more descriptors than before the paste.
            #expect(try await eventually(timeout: .seconds(3)) { source.reads.abandoned.count == 1 }, "\(bridge.log)")
            #expect(try await eventually(timeout: .seconds(3)) { Self.descriptors(pid) <= baseline },
                    "\(Self.descriptors(pid)) descriptors, \(baseline) before")

            // X → Wayland: an owner whose INCR sends a byte every 200 ms; a Wayland paste asks, then is killed. (Not
            // wl-paste: it forks a `cat` that reads the pipe, which its own death leaves reading.)
            let owner = try await bridge.afterBridging(from: x.display) {
                try await HostilePeer.owner(["trickle-incr", "--interval", "0.2"], display: x.display)
            }
            defer { Task { await owner.stop() } }
            let wlBaseline = Self.descriptors(pid)
            let paster = try CLI.start(["paste", "--timeout", "30"], display: nil, environment: sway.waylandEnvironment)
            #expect(try await eventually { owner.stdoutSoFar.ranges(of: Data("CHUNK".utf8)).count >= 3 }, "\(bridge.log)")
            _ = await paster.kill()
            // The bridge notices at the next piece (its paste fails), and then stops taking chunks.
            try await bridge.waitFor("on \(wayland): the requestor of", timeout: .seconds(5))
            // A chunk whose property the bridge deleted just before it noticed may still come (the owner waits 200 ms
            // before each); none after it. The window is the subject: nothing more happens in it.
            let noticed = owner.stdoutSoFar.ranges(of: Data("CHUNK".utf8)).count
            try await Task.sleep(for: .milliseconds(1_000))
            #expect(owner.stdoutSoFar.ranges(of: Data("CHUNK".utf8)).count <= noticed + 1, "the owner still sends to the bridge: \(bridge.log)")
            #expect(try await eventually(timeout: .seconds(3)) { Self.descriptors(pid) <= wlBaseline })
        }
    }

    @Test("a source that writes without end: the daemon stops at its per-flavour cap, says so, and keeps the rest")
    func endlessWriterIntoTheDaemon() async throws {
        try await SwayServer.with(.debian, xwayland: false) { sway in
            let daemon = try await WaylandDaemonTests.daemon(sway, ["--no-history", "--max-flavour-size", "2"])
            defer { Task { await daemon.stop() } }
            let endless = try await WaylandTestSource(
                on: sway.waylandDisplay, [("application/x-endless", Data(repeating: 0x61, count: 65_536))], behaviour: .endless)
            try await daemon.waitFor("application/x-endless", timeout: .seconds(10))
            #expect(daemon.log.contains("not kept"), "\(daemon.log)")
            #expect(try await eventually(timeout: .seconds(3)) { endless.reads.abandoned == ["application/x-endless"] })
            endless.close()
            // The daemon goes on: the next copy is kept and outlives its source.
            let text = try await WaylandTestSource(on: sway.waylandDisplay, [("text/plain;charset=utf-8", Data("after".utf8))])
            try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
            text.close()
            try await daemon.waitFor("restored CLIPBOARD")
            #expect(try await WaylandDaemonTests.wlPaste([], sway).stdoutText == "after")
            #expect(try #require(peakRSSKiB(daemon.peer.pid)) < 80 * 1024)
        }
    }

    /// Builds Tests/Peers/wayland_many_types.c against libwayland-client and the committed generated protocol code.
    static func manyTypesPeer() async throws -> String {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generated = sources.appendingPathComponent("Sources/CWaylandShims/generated")
        // Beside the built products: the fresh-machine check accepts a program the build folder holds.
        let output = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("wayland-many-types-\(getpid())").path
        let built = try await runPeer([
            "cc", "-O1", "-o", output, ToolkitPeer.script("wayland_many_types.c"),
            generated.appendingPathComponent("wlr-data-control-protocol.c").path, "-I", generated.path, "-lwayland-client",
        ], display: nil, timeout: .seconds(60))
        #expect(built.succeeded, "\(built.stderrText)")
        return output
    }

    @Test("a source of 10,000 types: whichever of our clients the compositor gives up on sees it within seconds — watch exits 5, the daemon and the bridge connect again — and the next copy is carried, kept and reported")
    func tenThousandTypes() async throws {
        let peer = try await Self.manyTypesPeer()
        defer { unlink(peer) }
        try await WaylandBridgeTests.withBridge(.debian) { x, sway, wayland, bridge in
            let environment = sway.waylandEnvironment
            let daemon = try await WaylandDaemonTests.daemon(sway, ["--no-history"])
            defer { Task { await daemon.stop() } }
            // --initial: its first line says it is connected and following.
            let watch = try CLI.start(["watch", "--initial"], display: nil, environment: environment)
            defer { Task { _ = await watch.stop() } }
            try await watch.waitForOutput("current")
            let hostile = try startPeer([peer, "10000"], display: nil, environment: environment)
            defer { Task { _ = await hostile.kill() } }
            // libwayland-server 1.21 gives up on a client it cannot write to and tells it only once that client next
            // sends; which clients it gives up on depends on who reads fastest. Each of ours sends a round trip after a
            // second without news and sees the hang-up then. The flood is announced once the source has its answer from
            // the compositor (READY) or was dropped itself (it exits); what follows waits for its effects.
            #expect(try await eventually { hostile.hasExited || hostile.stdoutSoFar.range(of: Data("READY".utf8)) != nil })
            // The source may outlive the flood; while its offer is current, a reconnect is dropped again: it goes. And
            // so would wl-copy's own connection be (it binds data-control too): the next copy is made once a paste finds
            // the clipboard empty.
            _ = await hostile.kill()
            #expect(try await eventually(timeout: .seconds(15)) {
                try await CLI.run(["paste", "--timeout", "2"], display: nil, environment: environment).exitCode == 1
            })
            let watched = watch.stdoutSoFar.count
            let kept = daemon.log.components(separatedBy: "kept CLIPBOARD").count - 1
            let wlCopy = try startPeer(["wl-copy", "--foreground", "after the flood"], display: nil, environment: environment)
            // Carried to X by the bridge, kept by the daemon (after it connected again, if it was dropped), and told by
            // `watch` unless it was dropped (then it ended with status 5).
            #expect(try await eventually(timeout: .seconds(10)) {
                try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: x.display).stdoutText == "after the flood"
            }, "\(bridge.log)")
            try await daemon.waitFor("kept CLIPBOARD", count: kept + 1, timeout: .seconds(15))
            #expect(try await eventually { watch.hasExited || watch.stdoutSoFar.count > watched })
            if watch.hasExited {
                let ended = try await watch.waitForExit(timeout: .seconds(1))
                #expect(ended.exitCode == 5 && ended.stderrText.contains("closed the connection"), "\(ended)")
            }
            _ = await wlCopy.stop()
            #expect(try await eventually { try await WaylandDaemonTests.wlPaste([], sway).stdoutText == "after the flood" })
        }
    }
}
