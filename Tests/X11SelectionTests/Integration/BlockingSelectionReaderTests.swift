import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// The single-threaded requestor of short-lived commands, against our own owner and against xclip.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(3)))
struct BlockingSelectionReaderTests {
    /// Runs `body` with a new reader on a thread of its own making (a detached task): the reader blocks
    /// its thread, and the reader never leaves that task (it is not Sendable).
    func withReader<T: Sendable>(
        _ configure: @escaping @Sendable (inout Configuration) -> Void = { _ in },
        _ body: @escaping @Sendable (BlockingSelectionReader) throws -> T
    ) async throws -> T {
        let display = try currentDisplay()
        return try await Task.detached {
            var configuration = Configuration()
            configure(&configuration)
            let reader = try BlockingSelectionReader(display: display, configuration: configuration)
            defer { reader.close() }
            return try body(reader)
        }.value
    }

    @Test(arguments: [0, 1, 4001, 1_048_577])
    func readsByteExactInOnePieceAndIncrementally(size: Int) async throws {
        // INCR forced above 1000 bytes, so the larger sizes arrive in many chunks.
        let owner = try await openConnection { $0.incrementalThreshold = 1000; $0.chunkSize = 64 * 1024 }
        let selection = uniqueSelection()
        let bytes = payload(size, seed: 21)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-clipbridge-test", source: .bytes(bytes)),
        ]))
        let (summary, received, chunks) = try await withReader { reader in
            var received = Data()
            var chunks = 0
            let summary = try reader.read(selection, target: "application/x-clipbridge-test") { chunk in
                received.append(chunk)
                chunks += 1
            }
            return (summary, received, chunks)
        }
        #expect(summary.byteCount == size)
        #expect(received == bytes)
        #expect(summary.type == "application/x-clipbridge-test")
        if size > 64 * 1024 { #expect(chunks > 1) }  // INCR in 64 KiB chunks, handed over one by one
        await owner.shutdown()
    }

    @Test func targetsAreTheOwnersInOrder() async throws {
        let owner = try await openConnection()
        let other = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer(
            [.init(target: "text/html", source: .bytes(Data("<b>x</b>".utf8)))]
                + SelectionOffer.textRepresentations("x")))
        let listed = try await withReader { try $0.targets(of: selection) }
        #expect(listed == (try await other.targets(of: selection)))
        #expect(listed.first == "text/html")
        #expect(listed.contains(.utf8String))
        await owner.shutdown()
        await other.shutdown()
    }

    @Test func readsWhatXclipOwns() async throws {
        let bytes = Data("héllo from xclip\n".utf8)
        let peer = try startPeer(["xclip", "-quiet", "-selection", "clipboard", "-i"], display: try currentDisplay(),
                                 stdin: bytes)
        try await peer.waitUntilOwning("CLIPBOARD", display: try currentDisplay())
        let (targets, received) = try await withReader { reader in
            var received = Data()
            let targets = try reader.targets(of: .clipboard)
            _ = try reader.read(.clipboard, target: .utf8String) { received.append($0) }
            return (targets, received)
        }
        #expect(targets.contains(.utf8String))
        #expect(received == bytes)
        await peer.stop()
    }

    @Test func failuresSayWhatHappened() async throws {
        let owner = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .seconds(3))
                return Data("late".utf8)
            }),
            .init(target: "application/x-fine", source: .bytes(Data("fine".utf8))),
        ]))
        try await withReader({ $0.readTimeout = .milliseconds(300) }) { reader in
            let unowned = SelectionName(rawValue: "CLIPBRIDGE_TEST_NOBODY_\(UInt32.random(in: 0...UInt32.max))")
            let noOwner = #expect(throws: SelectionError.self) { try reader.read(unowned, target: .utf8String) { _ in } }
            #expect(noOwner?.code == .noOwner)
            let refused = #expect(throws: SelectionError.self) { try reader.read(selection, target: "image/png") { _ in } }
            #expect(refused?.code == .targetUnavailable)
            let started = ContinuousClock.now
            let slow = #expect(throws: SelectionError.self) {
                try reader.read(selection, target: "application/x-slow") { _ in }
            }
            #expect(slow?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(2))
            // A sink that throws abandons that read only; the reader goes on working.
            struct Stop: Error {}
            #expect(throws: Stop.self) { try reader.read(selection, target: "application/x-fine") { _ in throw Stop() } }
            var fine = Data()
            _ = try reader.read(selection, target: "application/x-fine") { fine.append($0) }
            #expect(fine == Data("fine".utf8))
        }
        await owner.shutdown()
    }

    @Test func anUnreachableDisplayIsNamed() {
        let error = #expect(throws: SelectionError.self) {
            _ = try BlockingSelectionReader(display: ":4077", configuration: Configuration())
        }
        #expect(error?.code == .displayUnavailable)
        #expect(error?.message.contains(":4077") == true)
    }

    @Test func closedReaderThrowsShutDown() async throws {
        let code = try await withReader { reader in
            reader.close()
            do {
                _ = try reader.read(.clipboard, target: .utf8String) { _ in }
                return SelectionError.Code?.none
            } catch let error as SelectionError {
                return error.code
            }
        }
        #expect(code == .shutDown)
    }
}
