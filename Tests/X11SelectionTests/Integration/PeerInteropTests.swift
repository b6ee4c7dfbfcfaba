import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// xclip and xsel as independent peers, in both directions. They only know PRIMARY, SECONDARY and
/// CLIPBOARD, so these tests share the standard selections and run one at a time on their own server.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(5)))
struct PeerInteropTests {
    @Test(arguments: roundTripSizes)
    func xclipReadsWhatWeOwn(size: Int) async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        let bytes = payload(size, seed: 11)
        _ = try await owner.claim(.clipboard, offering: SelectionOffer([
            .init(target: "application/x-clipbridge-test", source: .bytes(bytes)),
        ]))
        let result = try await PeerCommand(
            ["xclip", "-selection", "clipboard", "-o", "-t", "application/x-clipbridge-test"], display: display,
            timeout: .seconds(60)
        ).run()
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.count == size)
        #expect(result.stdout == bytes)
        await owner.shutdown()
    }

    @Test(arguments: roundTripSizes)
    func weReadWhatXclipOwns(size: Int) async throws {
        let display = try currentDisplay()
        let bytes = payload(size, seed: 13)
        let peer = try startPeer(
            ["xclip", "-quiet", "-selection", "clipboard", "-i", "-t", "application/x-clipbridge-test"],
            display: display, stdin: bytes)
        try await peer.waitUntilOwning("CLIPBOARD", display: display)
        let reader = try await openConnection { $0.readTimeout = .seconds(30) }
        let data = try await reader.read(.clipboard, target: "application/x-clipbridge-test")
        #expect(data.bytes.count == size)
        #expect(data.bytes == bytes)
        await peer.stop()
        await reader.shutdown()
    }

    /// Two xclip requestors and one of ours at the same time, each above 1 MiB.
    @Test func simultaneousXclipRequestorsAreAllServed() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        let bytes = payload(20 << 20, seed: 31)
        _ = try await owner.claim(.clipboard, offering: SelectionOffer([
            .init(target: "application/x-clipbridge-test", source: .bytes(bytes)),
        ]))
        let reader = try await openConnection()
        let command = PeerCommand(["xclip", "-selection", "clipboard", "-o", "-t", "application/x-clipbridge-test"],
                                  display: display, timeout: .seconds(60))
        async let first = command.run()
        async let second = command.run()
        async let ours = reader.read(.clipboard, target: "application/x-clipbridge-test")
        let (a, b, c) = try await (first, second, ours)
        #expect(a.stdout == bytes)
        #expect(b.stdout == bytes)
        #expect(c.bytes == bytes)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func xclipListsExactlyOurTargets() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        _ = try await owner.claim(.clipboard, offering: SelectionOffer([
            .init(target: "text/html", source: .bytes(Data("<i>x</i>".utf8))),
            .init(target: "image/png", source: .bytes(Data([0x89, 0x50]))),
        ]))
        let result = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: display)
        #expect(result.stdoutText.split(separator: "\n") == [
            "text/html", "image/png", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES",
        ])
        // A target we do not offer is refused, not answered with some other payload (xclip's own bug #94).
        let refused = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "text/plain"], display: display)
        #expect(!refused.succeeded)
        #expect(refused.stdout.isEmpty)
        await owner.shutdown()
    }

    /// xsel stores text NUL-terminated, so its payloads are text; sizes cross its 4000-byte INCR chunk.
    @Test(arguments: [1, 3999, 4000, 4001, 100_000, 1 << 20 + 1])
    func xselReadsWhatWeOwn(size: Int) async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        let text = textPayload(size)
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations(text)))
        let result = try await PeerCommand(["xsel", "-b", "-o"], display: display, timeout: .seconds(60)).run()
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.count == size)
        #expect(result.stdout == Data(text.utf8))
        await owner.shutdown()
    }

    @Test(arguments: [1, 3999, 4000, 4001, 100_000])
    func weReadWhatXselOwns(size: Int) async throws {
        let display = try currentDisplay()
        let text = textPayload(size)
        let peer = try startPeer(["xsel", "-b", "-n", "-i"], display: display, stdin: Data(text.utf8))
        let reader = try await openConnection()
        #expect(try await eventually { try await reader.owner(of: .clipboard) != nil })
        let read = try await reader.readText(.clipboard)
        #expect(read.utf8.count == size)
        #expect(read == text)
        await peer.stop()
        await reader.shutdown()
    }
}

/// ASCII text of exactly `count` bytes, with line breaks, varying so offsets matter.
func textPayload(_ count: Int) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ\n".utf8)
    var bytes = [UInt8](repeating: 0, count: count)
    var state: UInt32 = 12345
    for index in 0..<count {
        state = state &* 1_103_515_245 &+ 12345
        bytes[index] = alphabet[Int(state >> 16) % alphabet.count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
