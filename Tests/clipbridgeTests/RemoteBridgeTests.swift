// clipbridge bridge … ssh:host: one clipboard between two machines through OpenSSH — two Xvfb servers as the two
// machines' displays, and sway as the far one's compositor; sshd on loopback with its own keys (SSHServer), the
// client through `ssh -F`. Types cross at once and bytes at a paste, byte-exact, both ways; file lists stay on their
// machine; a connection dropped mid-transfer fails the paste and is made again; a missing far clipbridge, or one of
// another protocol version, is a clear error.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge bridge … ssh:host: one clipboard across machines over OpenSSH", .serialized, .timeLimit(.minutes(4)))
struct RemoteBridgeTests {
    /// sshd, and a bridge from `local` to `remote` on the "far machine" through it.
    static func withLink<T>(
        local: String, remote: String, _ extra: [String] = [],
        _ body: (SSHServer, BridgeProcess, String) async throws -> T
    ) async throws -> T {
        let ssh = try await SSHServer.start()
        do {
            let far = "ssh:\(ssh.host):\(remote)"
            let bridge = try await BridgeProcess.start(
                [local, far], ["--ssh-command", ssh.sshCommand, "--remote-command", CLI.binary] + extra)
            // The far end's own lines come through ssh's standard error, behind the link's name.
            try await bridge.waitFor("\(far): clipbridge: connected \(remote.hasPrefix("wayland:") ? remote : remote + "\n")")
            do {
                let result = try await body(ssh, bridge, far)
                await bridge.stop()
                await ssh.stop()
                return result
            } catch {
                await bridge.stop()
                await ssh.stop()
                throw error
            }
        } catch {
            await ssh.stop()
            throw error
        }
    }

    /// Waits until `display` offers `target` (the far bridge claims once the announcement crossed).
    static func waitUntilOffered(_ target: String, on display: String) async throws {
        let offered = try await eventually(timeout: .seconds(10)) { try await Xclip.targets(display).contains(target) }
        if !offered {
            let targets = (try? await Xclip.targets(display)) ?? []
            Issue.record("\(display) never offered \(target): \(targets)")
        }
    }

    @Test("text, HTML, a PNG and a custom type cross both ways, byte-exact; GTK 4 and Qt 5 read on the far side; file lists stay")
    func richContentBothWays() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            try await Self.withLink(local: a, remote: b, ["-s", "clipboard"]) { _, bridge, far in
                let text = "Grüße, 世界 ✓ — \u{1F600} across machines"
                let html = Data("<meta charset=\"utf-8\"><b>Grüße</b>, 世界".utf8)
                let qt = try await bridge.afterBridging(from: a) {
                    try await ToolkitPeer(.qt5, display: a).own(text: text, representations: [("text/html", html)])
                }
                try await Self.waitUntilOffered("text/html", on: b)
                #expect(bridgeable(try await Xclip.targets(b)) == bridgeable(try await Xclip.targets(a)))
                #expect(try await Xclip.paste(b, target: "text/html").stdout == Xclip.paste(a, target: "text/html").stdout)
                #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data(text.utf8))
                #expect(try await ToolkitPeer(.gtk4, display: b).readText() == text)
                #expect(try await ToolkitPeer(.qt5, display: b).read(mimeType: "text/html") == html)
                _ = await qt.stop()

                // A PNG copied with clipbridge on A: byte-exact on B, read by GTK 4 and Qt 5 there.
                let scratch = try ScratchDirectory()
                defer { scratch.remove() }
                let png = try await ImageTests.card("png")
                let file = try scratch.file("card.png", png)
                _ = try await bridge.afterBridging(from: a) { try await CLI.run(["copy", "--file", file.path], display: a) }
                try await Self.waitUntilOffered("image/png", on: b)
                #expect(try await Xclip.paste(b, target: "image/png").stdout == png)
                #expect(try await ToolkitPeer(.qt5, display: b).read(mimeType: "image/png") == png)
                #expect(try await ToolkitPeer(.gtk4, display: b).read(mimeType: "image/png") == png)

                // The other way: a GTK 4 app's custom type on B reaches A.
                let note = Data(#"{"title":"Notiz","body":"ünïcödé"}"#.utf8)
                let gtk = try await ToolkitPeer(.gtk4, display: b).own(text: "Notiz", representations: [("application/x-clipbridge-note", note)])
                try await bridge.waitFor("bridged CLIPBOARD from \(far) to \(a)")
                #expect(try await Xclip.paste(a, target: "application/x-clipbridge-note").stdout == note)
                #expect(try await CLI.run(["paste", "-t", "application/x-clipbridge-note"], display: a).stdout == note)
                #expect(try await ToolkitPeer(.qt5, display: a).readText() == "Notiz")
                _ = await gtk.stop()

                // A file list names files of A: not offered on B as if they were B's; the paths' text crosses.
                let listed = try scratch.file("report.txt", Data("report".utf8))
                _ = try await bridge.afterBridging(from: a) { try await CLI.run(["copy", "--files", listed.path], display: a) }
                let offered = try await eventually(timeout: .seconds(10)) { try await Xclip.targets(b).contains("UTF8_STRING") }
                #expect(offered)
                let onB = try await Xclip.targets(b)
                #expect(!onB.contains("text/uri-list") && !onB.contains("x-special/gnome-copied-files"), "\(onB)")
                #expect(try await Xclip.targets(a).contains("text/uri-list"))
                // And the other way: a file list of B's, cut in a file manager's way, is not offered on A.
                let farFiles = try await CLI.run(["copy", "--files", listed.path, "--cut"], display: b)
                #expect(farFiles.succeeded)
                try await bridge.waitFor("bridged CLIPBOARD from \(far) to \(a)", count: 2)
                let onA = try await Xclip.targets(a)
                #expect(!onA.contains("text/uri-list") && !onA.contains("x-special/gnome-copied-files")
                        && !onA.contains("application/x-kde-cutselection"), "\(onA)")
                #expect(onA.contains("UTF8_STRING"), "\(onA)")
                #expect(!bridge.log.contains("failed"), "\(bridge.log)")
            }
        }
    }

    @Test("50 MiB across with bounded memory; the connection dropped mid-transfer fails the paste, and is made again")
    func largeContentAndADroppedConnection() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            try await Self.withLink(local: a, remote: b, ["-s", "clipboard", "--timeout", "3"]) { ssh, bridge, far in
                let baseline = try #require(peakRSSKiB(bridge.peer.pid))
                let large = WaylandBridgeTests.pattern(50 << 20, seed: 41)
                let owner = try await bridge.afterBridging(from: a) { try await Xclip.own(a, large, target: "application/octet-stream") }
                try await Self.waitUntilOffered("application/octet-stream", on: b)
                let pasted = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "application/octet-stream"],
                                               display: b, timeout: .seconds(60))
                #expect(pasted.succeeded && pasted.stdout == large, "\(pasted.stdout.count) bytes")
                // Streamed: the near bridge held a window of it, not the whole.
                let peak = try #require(peakRSSKiB(bridge.peer.pid))
                #expect(peak - baseline < 40 << 10, "the bridge grew from \(baseline) KiB to \(peak) KiB")
                _ = await owner.stop()

                // 256 MiB, and the connection dropped once the paste is under way.
                let huge = try await bridge.afterBridging(from: a) {
                    try await Xclip.own(a, WaylandBridgeTests.pattern(256 << 20, seed: 7), target: "application/x-huge")
                }
                try await Self.waitUntilOffered("application/x-huge", on: b)
                let connected = bridge.count("connected \(far)\n")
                // clipbridge paste writes each piece as it comes (xclip only once it has the whole).
                let reader = try CLI.start(["paste", "-t", "application/x-huge", "--timeout", "3"], display: b)
                #expect(try await eventually(timeout: .seconds(20)) { reader.stdoutSoFar.count > 4 << 20 })
                ssh.dropConnections()
                let ended = try await reader.waitForExit(timeout: .seconds(30))
                // Never a part presented as the whole: the paste fails (or what came is short of it, and it says so).
                #expect(!(ended.succeeded && ended.stdout.count == 256 << 20), "a dropped link gave the whole")
                #expect(!ended.succeeded || ended.stdout.count < 256 << 20)
                try await bridge.waitFor("disconnected \(far)")
                _ = await huge.stop()

                // Made again with backoff; the next copy crosses.
                try await bridge.waitFor("connected \(far)\n", count: connected + 1, timeout: .seconds(30))
                let after = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data("after the drop".utf8), target: "UTF8_STRING") }
                let crossed = try await eventually(timeout: .seconds(10)) {
                    (try? await Xclip.paste(b, target: "UTF8_STRING").stdout) == Data("after the drop".utf8)
                }
                #expect(crossed, "\(bridge.log)")
                _ = await after.stop()
            }
        }
    }

    @Test("a far clipbridge missing, not a link, or of another protocol version: exit 4 with the command and what it said")
    func farEndThatCannotBeUsed() async throws {
        try await withDisplays(1) { servers in
            let ssh = try await SSHServer.start()
            defer { Task { await ssh.stop() } }
            let a = servers[0].display
            let far = "ssh:\(ssh.host)::0"
            func bridge(_ remoteCommand: String) async throws -> CommandResult {
                try await CLI.run(["bridge", a, far, "--ssh-command", ssh.sshCommand, "--remote-command", remoteCommand],
                                  display: a, timeout: .seconds(30))
            }
            let missing = try await bridge("/nonexistent/clipbridge")
            #expect(missing.termination == .exited(4), "\(missing)")
            #expect(missing.stderrText.contains("cannot use \(far)"), "\(missing.stderrText)")
            #expect(missing.stderrText.contains("ssh -F \(ssh.clientConfig)"), "the command is named: \(missing.stderrText)")
            #expect(missing.stderrText.contains("exited with status 127"), "\(missing.stderrText)")
            #expect(missing.stderrText.contains("/nonexistent/clipbridge: No such file or directory"), "\(missing.stderrText)")
            #expect(missing.duration < .seconds(15))

            let peer = "\(ToolkitPeer.python) \(ToolkitPeer.script("link_peer.py"))"
            let other = try await bridge("\(peer) --version 99")
            #expect(other.termination == .exited(4), "\(other)")
            #expect(other.stderrText.contains("version 99 (clipbridge 9.9 (link_peer.py))"), "\(other.stderrText)")
            #expect(other.stderrText.contains("this end speaks version 1"), "\(other.stderrText)")

            let banner = try await bridge("\(peer) --banner 'Welcome to the far machine'")
            #expect(banner.termination == .exited(4), "\(banner)")
            #expect(banner.stderrText.contains("not a clipbridge link: it wrote \"Welcome to the far machine\""), "\(banner.stderrText)")
        }
    }

    @Test("X here, sway's Wayland on the far machine: text, HTML and a custom type both ways, named as each side names them")
    func xHereWaylandThere() async throws {
        try await withDisplays(1) { servers in
            let a = servers[0].display
            try await SwayServer.with(.debian, xwayland: false) { sway in
                let environment = sway.waylandEnvironment
                let remote = "wayland:" + sway.waylandDisplay
                try await Self.withLink(local: a, remote: remote, ["-s", "clipboard"]) { _, bridge, far in
                    let text = "X → far Wayland ✓"
                    let owner = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data(text.utf8), target: "UTF8_STRING") }
                    let pasted = try await eventually(timeout: .seconds(10)) {
                        (try? await runPeer(["wl-paste", "--no-newline"], display: nil, environment: environment).stdout) == Data(text.utf8)
                    }
                    #expect(pasted)
                    let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: environment)
                    #expect(types.stdoutText.contains("text/plain;charset=utf-8"), "\(types.stdoutText)")
                    _ = await owner.stop()

                    let html = Data("<i>from the far compositor</i>".utf8)
                    let copy = try startPeer(["wl-copy", "--foreground", "--type", "text/html"], display: nil, stdin: html,
                                             environment: environment)
                    try await bridge.waitFor("bridged CLIPBOARD from \(far) to \(a)")
                    let read = try await eventually(timeout: .seconds(10)) {
                        (try? await Xclip.paste(a, target: "text/html").stdout) == html
                    }
                    #expect(read, "\(bridge.log)")
                    _ = await copy.stop()

                    let custom = Data((0..<5000).map { UInt8($0 % 251) })
                    let customCopy = try startPeer(["wl-copy", "--foreground", "--type", "application/x-far-custom"], display: nil,
                                                   stdin: custom, environment: environment)
                    let crossed = try await eventually(timeout: .seconds(10)) {
                        (try? await Xclip.paste(a, target: "application/x-far-custom").stdout) == custom
                    }
                    #expect(crossed, "\(bridge.log)")
                    _ = await customCopy.stop()
                }
            }
        }
    }
}
