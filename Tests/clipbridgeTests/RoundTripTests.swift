// Byte-exact round trips at the sizes where other tools break (0 B, 4001 B past xsel's INCR threshold,
// 1 MiB + 1 where xclip fails, 64 MiB, 512 MiB), with the binary's peak RSS recorded.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// Writes `size` random bytes to a new file in `scratch` (from /dev/urandom, so it is not text).
private func randomFile(_ scratch: ScratchDirectory, size: Int) async throws -> URL {
    let file = scratch.url.appendingPathComponent("payload-\(size)")
    let made = try await runPeer(["sh", "-c", "head -c \(size) /dev/urandom > '\(file.path)'"], display: nil,
                                 timeout: .seconds(120))
    #expect(made.succeeded)
    return file
}

/// True when the two files have the same bytes (cmp, so 512 MiB never sits in the test's memory).
private func sameBytes(_ a: URL, _ b: URL) async throws -> Bool {
    try await runPeer(["cmp", "-s", a.path, b.path], display: nil, timeout: .seconds(120)).succeeded
}

@Suite("clipbridge round trips", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct RoundTripTests {
    @Test("copy < file, then paste > file and xclip -o > file: byte-exact; paste's memory stays bounded",
          arguments: [0, 4001, (1 << 20) + 1, 64 << 20])
    func roundTrip(size: Int) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let payload = try await randomFile(scratch, size: size)
        let copy = try await measuredRun([CLI.binary, "copy"], display: display, input: payload.path)
        #expect(copy.status == 0)

        // Random bytes are offered as application/octet-stream; zero bytes read as (empty) text.
        let target = size == 0 ? "UTF8_STRING" : "application/octet-stream"
        let pasted = scratch.url.appendingPathComponent("pasted")
        let paste = try await measuredRun([CLI.binary, "paste", "-t", target], display: display, output: pasted.path)
        #expect(paste.status == 0)
        #expect(try await sameBytes(payload, pasted), "clipbridge paste differs at \(size) B")
        let viaDefault = scratch.url.appendingPathComponent("default")
        #expect(try await measuredRun([CLI.binary, "paste"], display: display, output: viaDefault.path).status == 0)
        #expect(try await sameBytes(payload, viaDefault), "plain paste differs at \(size) B")

        let byXclip = scratch.url.appendingPathComponent("xclip")
        let xclip = try await measuredRun(["/usr/bin/xclip", "-selection", "clipboard", "-o", "-t", target],
                                          display: display, output: byXclip.path)
        #expect(xclip.status == 0)
        #expect(try await sameBytes(payload, byXclip), "xclip -o differs at \(size) B")

        let server = try #require(await newestDetachedServer(display: display))
        let serverPeak = peakRSSKiB(server) ?? 0
        print("round trip \(size) B: copy \(copy.duration), paste \(paste.duration) peak RSS \(paste.peakRSSKiB) KiB, "
              + "server peak RSS \(serverPeak) KiB")
        #expect(paste.peakRSSKiB < 64 * 1024, "paste peak RSS \(paste.peakRSSKiB) KiB")
        #expect(serverPeak < 64 * 1024, "server peak RSS \(serverPeak) KiB")
    }

    @Test("text round trips through clipbridge and through xclip's UTF8_STRING, both directions")
    func text() async throws {
        let display = try CLI.server().display
        let text = String(repeating: "päste ✓ 0123456789\n", count: 4001 / 19 + 1)
        #expect(try await CLI.run(["copy"], display: display, input: text).succeeded)
        #expect(try await CLI.run(["paste"], display: display).stdoutText == text)
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == text)
        let owner = try await Xclip.own(display, Data(text.utf8))
        #expect(try await CLI.run(["paste"], display: display).stdoutText == text)
        await owner.stop()
    }

    @Test("an empty copy is offered and pastes as zero bytes")
    func empty() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy"], display: display, stdin: .data(Data())).succeeded)
        let paste = try await CLI.run(["paste"], display: display)
        #expect(paste.succeeded && paste.stdout.isEmpty, "\(paste)")
    }
}

@Suite("clipbridge 512 MiB round trip", .xvfb, .timeLimit(.minutes(5)))
struct LargeRoundTripTests {
    @Test("512 MiB: copy from a pipe (spooled to disk, not memory), paste streams; both stay far below the size")
    func halfGigabyte() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let size = 512 << 20
        let payload = try await randomFile(scratch, size: size)
        // Through a pipe, so the copy has to spool standard input itself.
        let copy = try await measuredRun(["/bin/sh", "-c", "cat '\(payload.path)' | '\(CLI.binary)' copy"],
                                         display: display, timeout: .seconds(120))
        #expect(copy.status == 0)
        let pasted = scratch.url.appendingPathComponent("pasted")
        let paste = try await measuredRun([CLI.binary, "paste"], display: display, output: pasted.path,
                                          timeout: .seconds(180))
        #expect(paste.status == 0)
        #expect(try await sameBytes(payload, pasted))
        let server = try #require(await newestDetachedServer(display: display))
        let serverPeak = peakRSSKiB(server) ?? 0
        print("round trip 512 MiB: copy \(copy.duration) (peak RSS incl. sh/cat \(copy.peakRSSKiB) KiB), "
              + "paste \(paste.duration) peak RSS \(paste.peakRSSKiB) KiB, server peak RSS \(serverPeak) KiB")
        #expect(paste.peakRSSKiB < 64 * 1024)
        #expect(serverPeak < 64 * 1024)
        #expect(copy.peakRSSKiB < 64 * 1024)
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
    }
}
