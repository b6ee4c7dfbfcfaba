// clipbridge against X clients that break the protocol on purpose (Tests/Peers/hostile_*.py): exact bytes,
// true exit statuses and bounded times, on both requestors — the single-threaded one of a bare `paste` and
// the connection's (any `-t`).

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// A time bound for a command on a 2-CPU machine under the parallel test run (debug build, process start-up
/// included): below the 5 s default timeout that every failure mode used to wait out. (1.5 s was exceeded
/// on a slower machine of the same kind: 1.7 s.)
private let bound = Duration.seconds(3)

@Suite("clipbridge against hostile X clients", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct HostilePeerTests {
    @Test("garbage atom ids in TARGETS are skipped: -t converts the asked target, never a neighbour")
    func garbageTargets() async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["garbage-targets"], display: display)
        let custom = try await CLI.run(["paste", "-t", "application/x-test"], display: display)
        #expect(custom.succeeded && custom.stdoutText == "x-test-bytes", "\(custom)")
        let html = try await CLI.run(["paste", "-t", "text/html"], display: display)
        #expect(html.succeeded && html.stdoutText == "<b>html</b>", "\(html)")
        let text = try await CLI.run(["paste"], display: display)
        #expect(text.succeeded && text.stdoutText == "café", "\(text)")
        let targets = try await CLI.run(["paste", "-t", "TARGETS"], display: display)
        #expect(targets.stdoutText == "text/html\napplication/x-test\nUTF8_STRING\nTARGETS\n", "\(targets)")
        let listed = try await CLI.run(["paste", "--list-types"], display: display)
        #expect(!listed.stdoutText.contains("atom#") && !listed.stdoutText.contains("GARBAGE"), "\(listed)")
        #expect(!html.stdoutText.contains("GARBAGE") && !custom.stdoutText.contains("GARBAGE"))
        await owner.stop()
    }

    @Test("a decoy notify (another selection, another property, another time) is not taken as the answer",
          arguments: ["selection", "property", "time"])
    func decoys(kind: String) async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["decoy", "--decoy-kind", kind], display: display)
        for arguments in [["paste"], ["paste", "-t", "UTF8_STRING"]] {
            let result = try await CLI.run(arguments, display: display)
            #expect(result.succeeded && result.stdoutText == "real-bytes", "\(arguments): \(result)")
            #expect(result.duration < bound, "\(arguments): \(result.duration)")
        }
        await owner.stop()
    }

    /// The decoy that once came out as the answer (exit 0): bytes written into the requestor's own property with a
    /// notify naming another target, the real answer 0.4 s later. Each read must wait for the notify that names
    /// the target it asked — a custom type, TARGETS, a text target other than TEXT — on both readers.
    @Test("a decoy notify naming another target is never the answer: custom types, TARGETS and text targets",
          arguments: [
              // (decoy's target, paste arguments, expected output)
              ("UTF8_STRING", ["paste", "-t", "application/x-test"], "real-bytes"),
              ("text/plain", ["paste", "-t", "application/x-test"], "real-bytes"),
              ("TEXT", ["paste", "-t", "UTF8_STRING"], "real-bytes"),
              ("STRING", ["paste", "-t", "UTF8_STRING"], "real-bytes"),
              ("UTF8_STRING", ["paste", "-t", "text/plain"], "real-bytes"),
              ("STRING", ["paste"], "real-bytes"),
              ("TEXT", ["paste"], "real-bytes"),
              ("UTF8_STRING", ["paste", "-t", "TARGETS"], "TARGETS\nUTF8_STRING\napplication/x-test\ntext/plain\n"),
              ("application/x-test", ["paste", "--list-types"], "application/x-test"),
          ])
    func decoyTarget(decoy: String, arguments: [String], expected: String) async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(
            ["decoy", "--decoy-kind", "target", "--decoy-target", decoy, "--decoy-wait", "0.4",
             "--offer", "application/x-test,text/plain"], display: display)
        let result = try await CLI.run(arguments, display: display)
        #expect(result.succeeded, "\(arguments): \(result)")
        if arguments.contains("--list-types") {
            #expect(result.stdoutText.contains(expected) && !result.stdoutText.contains("CB_DECOY"), "\(result)")
        } else {
            #expect(result.stdoutText == expected, "\(arguments): \(result)")
        }
        #expect(!result.stdoutText.contains("DECOY"), "\(arguments): \(result)")
        #expect(result.duration < bound, "\(arguments): \(result.duration)")
        await owner.stop()
    }

    @Test("a stale notify repeated by the owner is not taken as the answer")
    func staleNotify() async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["stale"], display: display)
        for arguments in [["paste"], ["paste", "-t", "text/plain"], ["paste", "-t", "UTF8_STRING"]] {
            let result = try await CLI.run(arguments, display: display)
            #expect(result.succeeded && result.stdoutText == "fresh-bytes", "\(arguments): \(result)")
        }
        await owner.stop()
    }

    @Test("an owner that dies on the request, or in the middle of an INCR transfer, is 'owner gone' (exit 5) at once",
          arguments: ["die-on-request", "die-mid-incr"])
    func ownerDeath(mode: String) async throws {
        let display = try CLI.server().display
        for arguments in [["paste"], ["paste", "-t", "UTF8_STRING"]] {
            let owner = try await HostilePeer.owner([mode], display: display)
            let result = try await CLI.run(arguments, display: display)
            await owner.stop()
            #expect(result.exitCode == 5, "\(arguments): \(result)")
            #expect(result.stderrText.contains("owner went away"), "\(arguments): \(result.stderrText)")
            #expect(result.duration < bound, "\(arguments): \(result.duration)")
        }
    }

    @Test("100,000 targets in TARGETS: paste, -t and --list-types answer within the bound")
    func hugeTargets() async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["huge-targets", "--count", "100000"], display: display)
        let text = try await CLI.run(["paste"], display: display)
        #expect(text.succeeded && text.stdoutText == "huge-ok", "\(text)")
        let custom = try await CLI.run(["paste", "-t", "application/x-test"], display: display)
        #expect(custom.succeeded && custom.stdoutText == "x-test-bytes", "\(custom)")
        let listed = try await CLI.run(["paste", "--list-types"], display: display)
        #expect(listed.succeeded && listed.stdoutText.contains("application/x-test"), "\(listed)")
        // Linear, not quadratic (which took minutes): 0.1–1 s alone; the bound allows for the suite's parallel
        // load on a 2-CPU machine (4.6 s seen), the figures are the benchmark's (--only scaling).
        for result in [text, custom, listed] {
            #expect(result.duration < .seconds(10), "\(result.arguments): \(result.duration)")
        }
        await owner.stop()
    }

    /// TARGETS of 20,000 atoms the owner interned itself: distinct names nothing in ClipBridge knows, each a
    /// dynamic type of its own. Every pass over them must be linear in the *distinct* types (a pass per pair of
    /// them took 3.9 s at 3,000 — it would take minutes here); a repeated-names list never showed it. The
    /// benchmark's scaling section measures 10k / 100k / 1M in a release build.
    @Test("20,000 distinct unknown targets: paste -t, --list-types and watch --json answer within the bound")
    func distinctTargets() async throws {
        let display = try CLI.server().display
        let count = 20_000
        let owner = try await HostilePeer.owner(["distinct-targets", "--count", String(count)], display: display,
                                                readyTimeout: .seconds(60))
        let custom = try await CLI.run(["paste", "-t", "application/x-test"], display: display)
        #expect(custom.succeeded && custom.stdoutText == "x-test-bytes", "\(custom)")
        let text = try await CLI.run(["paste"], display: display)
        #expect(text.succeeded && text.stdoutText == "huge-ok", "\(text)")
        let listed = try await CLI.run(["paste", "--list-types"], display: display)
        let lines = listed.stdoutText.split(separator: "\n")
        #expect(listed.succeeded && lines.count >= count - 1, "\(lines.count) lines")
        #expect(lines.filter { $0.hasPrefix("application/x-cb-distinct-") }.count == count - 3, "\(lines.prefix(3))")
        let watched = try await CLI.run(["watch", "--json", "--initial", "--once"], display: display)
        #expect(watched.succeeded && watched.stdoutText.contains("application/x-test"), "\(watched.stdoutText.prefix(300))")
        // Linear: a fraction of a second each in a release build (Benchmarks/run.sh --only scaling), about 2 s in
        // a debug one; quadratic took minutes. The bound allows for the suite's parallel load.
        for result in [custom, text, listed, watched] {
            #expect(result.duration < .seconds(10), "\(result.arguments): \(result.duration)")
        }
        await owner.stop()
    }

    @Test("a reply in one huge property (no INCR) is pasted exactly by both paste paths, read in slices: memory stays bounded")
    func bigSingleProperty() async throws {
        let display = try CLI.server().display
        // 24 MiB: python-xlib takes seconds to write the property, all before it answers, and 40 MiB went past the
        // paste's 5 s deadline under the suite's parallel load on a slow 2-CPU machine.
        let size = 24 << 20
        let owner = try await HostilePeer.owner(
            ["big-single", "--size", String(size), "--chunk", String(4 << 20)], display: display)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("big-single-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await measuredRun([CLI.binary, "paste"], display: display, output: output.path)
        #expect(run.status == 0)
        let bytes = try Data(contentsOf: output)
        #expect(bytes.count == size)
        let pattern = Data((0...255).map { UInt8($0) })
        #expect(bytes.prefix(256) == pattern && bytes.suffix(256) == pattern)
        // Read whole, the reply would come on top of the process's own ~28 MiB (debug build): 52 MiB and more;
        // slices of Configuration.propertySliceBytes (4 MiB) keep it near the process's own size (32 MiB seen).
        #expect(run.peakRSSKiB < 44 * 1024, "peak RSS \(run.peakRSSKiB) KiB")
        await owner.stop()

        // The full path (X11Connection's streamed read, any paste with options): 48 MiB, with time to write it.
        // It used to read every slice at once — 69 MiB for 40 MiB; now 45 MiB whatever the size (28 MiB its own).
        let large = 48 << 20
        let second = try await HostilePeer.owner(
            ["big-single", "--size", String(large), "--chunk", String(4 << 20)], display: display)
        let full = try await measuredRun([CLI.binary, "paste", "--timeout", "60"], display: display, output: output.path)
        #expect(full.status == 0)
        let fullBytes = try Data(contentsOf: output)
        #expect(fullBytes.count == large && fullBytes.suffix(256) == pattern)
        #expect(full.peakRSSKiB < 60 * 1024, "peak RSS \(full.peakRSSKiB) KiB")
        await second.stop()
    }

    @Test("MULTIPLE with 1,000,000 pairs is refused at once, and the owner goes on serving others")
    func hugeMultiple() async throws {
        let display = try CLI.server().display
        let copy = try CLI.start(["copy", "--foreground", "served"], display: display)
        #expect(try await eventually { try await CLI.run(["paste"], display: display).stdoutText == "served" })
        for pairs in [10_000, 1_000_000] {
            let started = ContinuousClock.now
            let answer = try await HostilePeer.request(["multiple", "--pairs", String(pairs)], display: display)
            #expect(answer["answered"]?.isTrue == true, "\(pairs): \(answer)")
            #expect(started.duration(to: .now) < bound, "\(pairs)")
            let other = try await CLI.run(["paste"], display: display)
            #expect(other.stdoutText == "served")
        }
        // Small requests are answered, pair by pair.
        let small = try await HostilePeer.request(["multiple", "--pairs", "10000"], display: display)
        #expect(small["refused"]?.isTrue == false && small["failed_pairs"]?.number == 0, "\(small)")
        let stopped = await copy.stop()
        #expect(stopped.termination == .exited(0), "\(stopped)")
    }

    @Test("watch prints each change at once even when its owner never answers TARGETS")
    func watchSilentOwners() async throws {
        let display = try CLI.server().display
        // --initial: its first line comes once it is subscribed.
        let watcher = try CLI.start(["watch", "--json", "--initial"], display: display)
        try await watcher.waitForOutput("\"reason\":\"current\"")
        for round in 1...5 {
            let before = watcher.stdoutSoFar.count
            // The new owner's line: the previous round's owner leaving may be printed after `before` (its client
            // closed as `stop` returned, and the watcher heard of it a moment later), as "owner-client-closed".
            func newOwnerLine() -> String? {
                String(decoding: watcher.stdoutSoFar[before...], as: UTF8.self).split(separator: "\n")
                    .first { $0.contains("\"reason\":\"new-owner\"") }.map(String.init)
            }
            let owner = try await HostilePeer.owner(["silent"], display: display)
            let claimed = ContinuousClock.now
            let printed = try await eventually(timeout: .seconds(5)) { newOwnerLine() != nil }
            let latency = claimed.duration(to: .now)
            #expect(printed, "round \(round): no new-owner line in \(String(decoding: watcher.stdoutSoFar[before...], as: UTF8.self))")
            // 50 ms in the watcher (its types wait is 40 ms); the rest is this loaded machine.
            #expect(latency < .milliseconds(600), "round \(round): \(latency)")
            #expect(newOwnerLine()?.contains("\"types\":null") == true, "\(newOwnerLine() ?? "")")
            await owner.stop()
        }
        await watcher.stop()
    }

    @Test("watch is unaffected by an owner offering 100,000 targets: the change and its types come within the bound")
    func watchHugeOffer() async throws {
        let display = try CLI.server().display
        // --initial: its first line comes once it is subscribed.
        let watcher = try CLI.start(["watch", "--json", "--initial"], display: display)
        try await watcher.waitForOutput("\"reason\":\"current\"")
        let owner = try await HostilePeer.owner(["huge-targets", "--count", "100000"], display: display)
        let claimed = ContinuousClock.now
        let typed = try await eventually(timeout: .seconds(5)) {
            String(decoding: watcher.stdoutSoFar, as: UTF8.self).contains("application/x-test")
        }
        #expect(typed, "\(String(decoding: watcher.stdoutSoFar, as: UTF8.self).prefix(300))")
        #expect(claimed.duration(to: .now) < .seconds(2))
        // And it still stops at once.
        watcher.send(signal: SIGTERM)
        let started = ContinuousClock.now
        let ended = try await watcher.waitForExit(timeout: .seconds(5))
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(started.duration(to: .now) < .seconds(1))
        await owner.stop()
    }

    @Test("--timeout bounds the whole paste: a silent owner ends it within the timeout, on both readers")
    func timeoutBoundsThePaste() async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["silent"], display: display)
        for arguments in [["paste", "--timeout", "1"], ["paste", "-t", "UTF8_STRING", "--timeout", "1"]] {
            let result = try await CLI.run(arguments, display: display)
            #expect(result.exitCode == 3, "\(arguments): \(result)")
            #expect(result.duration < .seconds(2.5), "\(arguments): \(result.duration)")
        }
        await owner.stop()
    }

    @Test("SIGTERM ends copy, paste and watch within a second, even while a hostile peer keeps them busy")
    func signalsAreHonoured() async throws {
        let display = try CLI.server().display
        let owner = try await HostilePeer.owner(["silent"], display: display)
        let paste = try CLI.start(["paste", "--timeout", "30"], display: display)
        let watch = try CLI.start(["watch", "--initial", "--timeout", "30"], display: display)
        try await Task.sleep(for: .milliseconds(500))
        for peer in [paste, watch] {
            let started = ContinuousClock.now
            peer.send(signal: SIGTERM)
            let ended = try await peer.waitForExit(timeout: .seconds(5))
            #expect(started.duration(to: .now) < .seconds(1), "\(ended)")
        }
        await owner.stop()
    }
}
