// clipbridge bridge: one clipboard across X servers — every type, byte-exact, lazily, both ways — against real
// owners and readers (xclip, GTK 4, Qt 5, hostile owners) on two and three Xvfb servers the tests start, one
// of them killed and restarted while the bridge runs.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge bridge: one clipboard across X displays", .serialized, .timeLimit(.minutes(3)))
struct BridgeTests {
    @Test("text (non-ASCII), HTML + text and a custom type cross both ways, targets in order; xclip, GTK 4 and Qt 5 read them")
    func richContentBothWays() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            let text = "Grüße, 世界 ✓ — \u{1F600}"
            let html = Data("<meta charset=\"utf-8\"><b>Grüße</b>, 世界".utf8)
            let qt = try await bridge.afterBridging(from: a) {
                try await ToolkitPeer(.qt5, display: a).own(text: text, representations: [("text/html", html)])
            }
            #expect(bridgeable(try await Xclip.targets(b)) == bridgeable(try await Xclip.targets(a)))
            #expect(try await Xclip.paste(b, target: "text/html").stdout == Xclip.paste(a, target: "text/html").stdout)
            #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data(text.utf8))
            #expect(try await ToolkitPeer(.gtk4, display: b).readText() == text)
            #expect(try await ToolkitPeer(.qt5, display: b).read(mimeType: "text/html") == html)

            let note = Data(#"{"title":"Notiz","body":"ünïcödé"}"#.utf8)
            let gtk = try await bridge.afterBridging(from: b) {
                try await ToolkitPeer(.gtk4, display: b).own(
                    text: "Notiz", representations: [("application/x-clipbridge-note", note)])
            }
            #expect(bridgeable(try await Xclip.targets(a)) == bridgeable(try await Xclip.targets(b)))
            #expect(try await Xclip.paste(a, target: "application/x-clipbridge-note").stdout == note)
            #expect(try await ToolkitPeer(.qt5, display: a).readText() == "Notiz")
            #expect(try await CLI.run(["paste", "-t", "application/x-clipbridge-note"], display: a).stdout == note)
            _ = await qt.stop()
            _ = await gtk.stop()
            #expect(!bridge.log.contains("failed"), "\(bridge.log)")
            _ = await bridge.stop()
        }
    }

    @Test("a PNG (and its conversions, made on the source display on request), file lists, and 50 MiB both ways with bounded memory")
    func imagesFilesAndLargeContent() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            let baseline = try #require(peakRSSKiB(bridge.peer.pid))
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }

            // A PNG copied with clipbridge on A: B gets it byte-exact, and the JPEG it offers converted on request.
            let png = try await ImageTests.card("png")
            let file = try scratch.file("card.png", png)
            _ = try await bridge.afterBridging(from: a) {
                try await CLI.run(["copy", "--file", file.path], display: a)
            }
            #expect(try await Xclip.paste(b, target: "image/png").stdout == png)
            let jpeg = try await Xclip.paste(b, target: "image/jpeg").stdout
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(try await Pixels.decode(jpeg).difference(try await Pixels.decode(png)) <= 8)

            // Files from GTK 4 on B, as a file manager offers them.
            let uris = Data("file:///tmp/a%20b.txt\r\nfile:///tmp/c.txt\r\n".utf8)
            let gnome = Data("copy\nfile:///tmp/a%20b.txt\nfile:///tmp/c.txt".utf8)
            let gtk = try await bridge.afterBridging(from: b) {
                try await ToolkitPeer(.gtk4, display: b).own(
                    representations: [("text/uri-list", uris), ("x-special/gnome-copied-files", gnome)])
            }
            #expect(try await Xclip.paste(a, target: "text/uri-list").stdout == uris)
            #expect(try await Xclip.paste(a, target: "x-special/gnome-copied-files").stdout == gnome)
            _ = await gtk.stop()

            // 50 MiB each way: INCR on both sides, streamed through.
            // A 1 MiB pattern, each copy stamped with its index: a chunk lost, repeated or out of order shows.
            var block = Data(count: 1 << 20)
            block.withUnsafeMutableBytes { buffer in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 12) }
            }
            var large = Data(capacity: 50 << 20)
            for copy in 0..<50 {
                var stamped = block
                stamped.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(copy).littleEndian) { Data($0) })
                large.append(stamped)
            }
            let owner = try await bridge.afterBridging(from: a) {
                try await Xclip.own(a, large, target: "application/octet-stream")
            }
            let across = try await Xclip.paste(b, target: "application/octet-stream")
            #expect(across.stdout.count == large.count)
            #expect(across.stdout == large)
            _ = await owner.stop()
            let back = try await bridge.afterBridging(from: b) {
                try await Xclip.own(b, large, target: "application/octet-stream")
            }
            let result = try await CLI.run(["paste", "-t", "application/octet-stream"], display: a, timeout: .seconds(60))
            #expect(result.succeeded)
            #expect(result.stdout == large)
            _ = await back.stop()
            // Lazy and streamed: the bridge never held a copy — its peak grew by well under the 50 MiB it relayed
            // each way (measured: about 18 MiB — the two 4 MiB stream buffers, chunks in flight and the heap's slack).
            let peak = try #require(peakRSSKiB(bridge.peer.pid))
            #expect(peak - baseline < 32 << 10, "the bridge's peak RSS: \(peak) KiB, \(baseline) KiB at start")
            #expect(bridge.count("served CLIPBOARD:application/octet-stream") == 2, "\(bridge.log)")
            _ = await bridge.stop()
        }
    }

    @Test("an owner that dies, or changes while a paste waits: the paste on the other display fails cleanly, never with partial or old data")
    func ownerGoneOrChangedMidPaste() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard", "--timeout", "2"])
            for mode in ["die-mid-incr", "die-on-request"] {
                let hostile = try await bridge.afterBridging(from: a) {
                    try await HostilePeer.owner([mode, "--size", "\(8 << 20)"], display: a)
                }
                let paste = try await CLI.run(["paste", "-t", "UTF8_STRING", "--timeout", "3"], display: b)
                #expect(!paste.succeeded, "\(mode)")
                #expect(paste.stdout.isEmpty, "\(mode): \(paste.stdout.count) bytes came")
                #expect(paste.duration < .seconds(15), "\(mode)")
                _ = await hostile.stop()
            }

            // An owner that dies after 4 MiB of an 8 MiB INCR reply: the bridge had started its own INCR on B, and
            // must not end it with the end marker, which would present 4 MiB as the whole reply.
            let dying = try await bridge.afterBridging(from: a) {
                try await HostilePeer.owner(["die-mid-incr", "--size", "\(8 << 20)", "--chunks", "64"], display: a)
            }
            let cut = try await CLI.run(["paste", "-t", "UTF8_STRING", "--timeout", "3"], display: b)
            #expect(!cut.succeeded, "a paste cut short mid-INCR exited \(cut.termination)")
            #expect(cut.stdout.count < 8 << 20)
            #expect(cut.duration < .seconds(15))
            try await bridge.waitFor("failed CLIPBOARD:UTF8_STRING on \(b)")
            _ = await dying.stop()

            // An owner that stops answering after its TARGETS were read (frozen with SIGSTOP): a paste on B waits
            // on it; meanwhile another app copies on A. The waiting paste must not end with the new content (nor
            // anything else): it fails; the next paste gets the new content.
            let frozen = try await bridge.afterBridging(from: a) {
                try await Xclip.own(a, Data("frozen".utf8), target: "UTF8_STRING")
            }
            frozen.send(signal: SIGSTOP)
            // xclip asks once (clipbridge paste would ask again after the refusal, and rightly get the new content).
            let waiting = try startPeer(["xclip", "-selection", "clipboard", "-o", "-t", "UTF8_STRING"], display: b)
            try await Task.sleep(for: .milliseconds(300))
            let fresh = try await bridge.afterBridging(from: a) {
                try await Xclip.own(a, Data("fresh".utf8), target: "UTF8_STRING")
            }
            let ended = try await waiting.waitForExit(timeout: .seconds(20))
            #expect(!ended.succeeded)
            #expect(ended.stdout.isEmpty, "\(ended.stdoutText)")
            #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("fresh".utf8))
            frozen.send(signal: SIGCONT)
            _ = await fresh.stop()
            _ = await frozen.stop()
            _ = await bridge.stop()
        }
    }

    @Test("a display killed and restarted: the others go on; it gets the current content back; --exit-on-disconnect exits 4")
    func displayKilledAndRestarted() async throws {
        try await withDisplays(2) { servers in
            // The one that is killed and restarted takes a number of its own: killed, its number is free again,
            // and a server another suite starts meanwhile (-displayfd takes the lowest free one) must not get it.
            let third = try await XvfbServer.startAtUncommonNumber()
            let (a, b, c) = (servers[0].display, servers[1].display, third.display)
            let bridge = try await BridgeProcess.start([a, b, c], ["-s", "clipboard"])
            let one = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data("one".utf8)) }
            #expect(try await Xclip.paste(c, target: "UTF8_STRING").stdout == Data("one".utf8))

            await third.kill()
            try await bridge.waitFor("disconnected \(c)")
            let two = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data("two ✓".utf8)) }
            #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("two ✓".utf8))

            let restarted = try await XvfbServer.start(display: third.displayNumber)
            do {
                try await bridge.waitFor("connected \(c)\n", count: 2, timeout: .seconds(15))
                #expect(try await eventually { try await Xclip.paste(c, target: "UTF8_STRING").stdout == Data("two ✓".utf8) })
                let three = try await bridge.afterBridging(from: c) { try await Xclip.own(c, Data("three".utf8)) }
                #expect(try await Xclip.paste(a, target: "UTF8_STRING").stdout == Data("three".utf8))
                #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("three".utf8))
                _ = await three.stop()
            } catch {
                await restarted.stop()
                throw error
            }
            _ = await one.stop()
            _ = await two.stop()
            #expect(bridge.peer.hasExited == false)
            _ = await bridge.stop()

            let strict = try await BridgeProcess.start([a, c], ["--exit-on-disconnect"])
            await restarted.kill()
            let exit = try await strict.peer.waitForExit(timeout: .seconds(10))
            #expect(exit.exitCode == 4, "\(exit.termination): \(exit.stderrText)")
            #expect(exit.stderrText.contains("a display cannot be reached: \(c)"))
        }
    }

    @Test("no ping-pong: a copy changes the other display's owner once; two bridges between the same displays do not fight")
    func noPingPong() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            // --initial: each watcher's first line comes once it is subscribed (not counted as a change below).
            let watchA = try CLI.start(["watch", "--json", "--initial"], display: a)
            let watchB = try CLI.start(["watch", "--json", "--initial"], display: b)
            for watcher in [watchA, watchB] { try await watcher.waitForOutput("\"reason\":\"current\"") }
            let owner = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data("once".utf8)) }
            try await Task.sleep(for: .seconds(1))
            #expect(changes(watchA) == 1, "A: \(String(decoding: watchA.stdoutSoFar, as: UTF8.self))")
            #expect(changes(watchB) == 1, "B: \(String(decoding: watchB.stdoutSoFar, as: UTF8.self))")
            #expect(bridge.count("bridged CLIPBOARD") == 1, "\(bridge.log)")

            // A second bridge: both offer A's next copy on B; each leaves the other's claim alone, so it settles.
            let second = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            // Either bridge may be the one that offers it on B (each drops a change the other's claim overtook).
            let next = try await Xclip.own(a, Data("twice".utf8))
            #expect(
                try await eventually { try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("twice".utf8) },
                "first bridge: \(bridge.log)\nsecond bridge: \(second.log)")
            try await Task.sleep(for: .seconds(1))
            let settled = changes(watchB)
            try await Task.sleep(for: .seconds(1))
            #expect(changes(watchB) == settled, "B's owner kept changing: \(settled) → \(changes(watchB))")
            #expect(settled <= 4, "\(settled)")
            #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("twice".utf8))
            #expect(try await Xclip.paste(a, target: "UTF8_STRING").stdout == Data("twice".utf8))
            _ = await second.stop()
            _ = await next.stop()
            _ = await owner.stop()
            _ = await watchA.stop()
            _ = await watchB.stop()
            _ = await bridge.stop()
        }
    }

    @Test("sensitive content crosses only with --include-sensitive; without it the other display stops offering the old content")
    func sensitiveContent() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            let plain = try await bridge.afterBridging(from: a) { try await Xclip.own(a, Data("public".utf8)) }
            #expect(try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("public".utf8))
            let secret = try CLI.start(["copy", "--foreground", "--sensitive"], display: a, stdin: Data("hunter2".utf8))
            try await bridge.waitFor("not bridged CLIPBOARD from \(a): the content is marked sensitive")
            let refused = try await Xclip.paste(b, target: "UTF8_STRING")
            #expect(!refused.succeeded && refused.stdout.isEmpty, "B still pasted: \(refused.stdoutText)")
            _ = await bridge.stop()

            let including = try await BridgeProcess.start([a, b], ["-s", "clipboard", "--include-sensitive"])
            #expect(try await eventually { try await Xclip.paste(b, target: "UTF8_STRING").stdout == Data("hunter2".utf8) })
            #expect(try await Xclip.targets(b).contains("x-kde-passwordManagerHint"))
            _ = await including.stop()
            _ = await secret.stop()
            _ = await plain.stop()
        }
    }

    @Test("an app that exits with clipbridge daemon on its display: the bridge relays the daemon's copy")
    func keptByTheDaemon() async throws {
        try await withDisplays(2) { servers in
            let (a, b) = (servers[0].display, servers[1].display)
            let daemon = try await DaemonProcess.start(a)
            let bridge = try await BridgeProcess.start([a, b], ["-s", "clipboard"])
            let html = Data("<i>kept across</i>".utf8)
            let owner = try await bridge.afterBridging(from: a) { try await Xclip.own(a, html, target: "text/html") }
            try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
            _ = try await bridge.afterBridging(from: a) {
                _ = await owner.kill()
                try await daemon.waitFor("restored CLIPBOARD")
            }
            #expect(try await Xclip.paste(b, target: "text/html").stdout == html)
            _ = await bridge.stop()
            _ = await daemon.stop()
        }
    }
}

/// The owner changes a `clipbridge watch --json` reported so far.
private func changes(_ watcher: BackgroundPeer) -> Int {
    String(decoding: watcher.stdoutSoFar, as: UTF8.self).split(separator: "\n")
        .filter { !$0.contains("\"update\":true") && !$0.contains("\"reason\":\"current\"") }.count
}
