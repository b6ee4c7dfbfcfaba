// Self-tests of the test support: the Xvfb fixture, the command runners, and the GTK 4 / Qt 5 peers.
// Every other X11 test builds on these, so they check the fixture's own promises (a clean signal mask, a
// real deadline, cleanup) and that each peer really moves bytes through the X server.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

// The toolkit suites are serialized: their tests share one server's CLIPBOARD, which only one owner can hold.

/// The line `xclip -quiet -i` prints on stderr once it has asked for the selection.
private let xclipServing = "Waiting for selection request"

@Suite("Xvfb fixture", .timeLimit(.minutes(1)))
struct XvfbFixtureTests {
    @Test("the server is spawned with nothing blocked, so SIGTERM stops it")
    func cleanSignalMask() async throws {
        try await withXvfb { server in
            let status = try String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)
            let blocked = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
            #expect(blocked.split(separator: "\t").last == "0000000000000000")
            #expect(XvfbServer.current === server)
        }
    }

    @Test("stop() ends the server and it removes its socket; two servers get different displays")
    func stopCleansUp() async throws {
        let server = try await XvfbServer.start()
        let socket = "/tmp/.X11-unix/X\(server.displayNumber)"
        #expect(FileManager.default.fileExists(atPath: socket))
        var before = stat()
        #expect(stat(socket, &before) == 0)
        let second = try await XvfbServer.start()
        #expect(second.displayNumber != server.displayNumber)
        #expect(await server.stop() == .exited(0))
        #expect(!server.isRunning)
        // Gone, or already a new server's: tests running in parallel may start an Xvfb that takes the freed
        // display number at once (-displayfd picks the lowest free one).
        var after = stat()
        #expect(stat(socket, &after) != 0 || after.st_ino != before.st_ino || after.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
        #expect(await second.kill() == .signaled(SIGKILL))
        #expect(!second.isRunning)
    }

    @Test("a command that outlives its deadline is killed and reported")
    func deadline() async throws {
        let started = ContinuousClock.now
        let error = await #expect(throws: CommandError.self) {
            try await runPeer(["sleep", "30"], display: nil, timeout: .milliseconds(300))
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.partialResult?.termination == .signaled(SIGKILL))
        #expect(started.duration(to: .now) < .seconds(5))
    }

    @Test("a missing executable is reported as not found")
    func notFound() async throws {
        let error = await #expect(throws: CommandError.self) {
            try await runPeer(["clipbridge-no-such-command"], display: nil)
        }
        #expect(error?.kind == .notFound)
    }

    @Test("the child gets our stdin bytes, its DISPLAY is the one given, and its exit status comes back")
    func streams() async throws {
        let input = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let result = try await runPeer(
            ["sh", "-c", "cat; printf \"$DISPLAY\" >&2; exit 3"], display: ":4242", stdin: input
        )
        #expect(result.stdout == input)
        #expect(result.stderrText == ":4242")
        #expect(result.termination == .exited(3))
    }

    @Test("a command's own peak memory is measured exactly, whatever this test process holds")
    func peakMemory() async throws {
        // The figure the CLI round-trip tests assert on (measuredRun, through GNU time): a small command must
        // not inherit this process's high-water mark, and a large one must be seen in full.
        let small = try await measuredRun(["/bin/sleep", "0.1"], display: ":0")
        let touch96MiB = "b = bytearray(96 << 20); b[::4096] = b'x' * len(b[::4096])"
        let large = try await measuredRun([ToolkitPeer.python, "-c", touch96MiB], display: ":0")
        #expect(small.status == 0 && large.status == 0)
        #expect(small.peakRSSKiB < 16 * 1024)
        #expect(large.peakRSSKiB > 96 * 1024)
    }

    @Test("built products are looked up next to the running test executable")
    func builtProducts() {
        #expect(FileManager.default.fileExists(atPath: BuiltProduct.directory.path))
        #expect(BuiltProduct.url(named: "clipbridge-no-such-product") == nil)
    }
}

@Suite("xclip as a peer", .xvfb, .timeLimit(.minutes(1)))
struct XclipPeerTests {
    @Test("xclip -quiet -i serves in the foreground; xclip -o reads the bytes and its TARGETS")
    func foregroundOwner() async throws {
        let server = try #require(XvfbServer.current)
        let payload = Data("fixture ✓".utf8)
        let owner = try startPeer(
            ["xclip", "-quiet", "-selection", "clipboard", "-i"], display: server.display, stdin: payload
        )
        try await owner.waitForOutput(xclipServing, in: .stderr)
        let targets = try await runPeer(
            ["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: server.display
        )
        #expect(targets.stdoutText.split(separator: "\n").contains("UTF8_STRING"))
        let pasted = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: server.display)
        #expect(pasted.stdout == payload)
        let stopped = await owner.stop()
        #expect(stopped.termination == .signaled(SIGTERM))
        #expect(owner.hasExited)
    }
}

@Suite(
    "GTK 4 peer", .xvfb, .serialized, .timeLimit(.minutes(1))
)
struct GTKPeerTests {
    @Test("GTK reads what xclip owns: text, formats, and raw bytes large enough for INCR")
    func readsXclip() async throws {
        let server = try #require(XvfbServer.current)
        let gtk = ToolkitPeer(.gtk4, display: server.display)
        let text = try startPeer(
            ["xclip", "-quiet", "-selection", "clipboard", "-i"], display: server.display,
            stdin: Data("héllo GTK".utf8)
        )
        try await text.waitForOutput(xclipServing, in: .stderr)
        #expect(try await gtk.readText() == "héllo GTK")
        #expect(try await gtk.formats().contains("text/plain;charset=utf-8"))
        await text.stop()

        let image = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        let owner = try startPeer(
            ["xclip", "-quiet", "-selection", "clipboard", "-i", "-t", "image/png"], display: server.display,
            stdin: image
        )
        try await owner.waitForOutput(xclipServing, in: .stderr)
        #expect(try await gtk.read(mimeType: "image/png") == image)
        await owner.stop()
    }

    @Test("GTK owns text and HTML; xclip reads each; GTK reports LOST when xclip takes over")
    func owns() async throws {
        let server = try #require(XvfbServer.current)
        let html = Data("<b>bold</b>".utf8)
        let gtk = try await ToolkitPeer(.gtk4, display: server.display)
            .own(text: "plain", representations: [(mimeType: "text/html", data: html)])
        let targets = try await runPeer(
            ["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: server.display
        )
        #expect(Set(targets.stdoutText.split(separator: "\n")).isSuperset(of: ["UTF8_STRING", "text/html"]))
        let text = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: server.display)
        #expect(text.stdoutText == "plain")
        let pastedHTML = try await runPeer(
            ["xclip", "-selection", "clipboard", "-o", "-t", "text/html"], display: server.display
        )
        #expect(pastedHTML.stdout == html)
        _ = try await runPeer(
            ["xclip", "-selection", "clipboard", "-i"], display: server.display, stdin: Data("x".utf8)
        )
        let ended = try await gtk.waitForExit(timeout: .seconds(10))
        #expect(ended.succeeded)
        #expect(ended.stdoutText.contains("LOST"))
    }
}

@Suite(
    "Qt 5 peer", .xvfb, .serialized, .timeLimit(.minutes(1))
)
struct QtPeerTests {
    @Test("xclip reads what Qt owns, including a payload large enough for INCR; Qt stops on SIGTERM")
    func owns() async throws {
        let server = try #require(XvfbServer.current)
        let image = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) })
        let qt = try await ToolkitPeer(.qt5, display: server.display)
            .own(text: "from Qt", representations: [(mimeType: "image/png", data: image)])
        let text = try await runPeer(["xclip", "-selection", "clipboard", "-o"], display: server.display)
        #expect(text.stdoutText == "from Qt")
        let pasted = try await runPeer(
            ["xclip", "-selection", "clipboard", "-o", "-t", "image/png"], display: server.display
        )
        #expect(pasted.stdout == image)
        let stopped = await qt.stop()
        #expect(stopped.succeeded)
        #expect(stopped.stdoutText.contains("STOPPED"))
    }

    @Test("Qt reads the text xclip owns on PRIMARY, and fails clearly on a type that is not offered")
    func readsXclip() async throws {
        let server = try #require(XvfbServer.current)
        let owner = try startPeer(
            ["xclip", "-quiet", "-selection", "primary", "-i"], display: server.display,
            stdin: Data("primary ✓".utf8)
        )
        try await owner.waitForOutput(xclipServing, in: .stderr)
        let qt = ToolkitPeer(.qt5, display: server.display, selection: "primary")
        #expect(try await qt.readText() == "primary ✓")
        #expect(try await qt.formats().contains("text/plain"))
        let missing = await #expect(throws: CommandError.self) { try await qt.read(mimeType: "image/png") }
        #expect(missing?.kind == .failed)
        await owner.stop()
    }
}
