import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// The sizes the issue names: around xsel's 4000-byte chunk, around xclip's ~1 MiB INCR threshold, above
/// Xvfb's 16 MiB maximum request, and a large transfer.
let roundTripSizes = [0, 1, 4000, 4001, 1 << 20 - 1, 1 << 20, 1 << 20 + 1, 16 << 20 + 1, 64 << 20]

@Suite(.xvfb, .timeLimit(.minutes(5)))
struct RoundTripTests {
    @Test(arguments: roundTripSizes)
    func roundTripBetweenTwoConnections(size: Int) async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection("size\(size)")
        let bytes = payload(size, seed: UInt32(truncatingIfNeeded: size))
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/octet-stream", source: .bytes(bytes)),
        ]))
        let data = try await reader.read(selection, target: "application/octet-stream")
        #expect(data.bytes.count == size)
        #expect(data.bytes == bytes)
        #expect(data.type == "application/octet-stream")
        var events = lease.events.makeAsyncIterator()
        let served = await events.next()
        let readerWindow = await reader.utilityWindow
        #expect(served == .served(target: "application/octet-stream", requestor: readerWindow, byteCount: size))
        await owner.shutdown()
        await reader.shutdown()
    }

    /// INCR forced on small payloads (threshold 1000 bytes, 4 KiB chunks), both ends ours.
    @Test(arguments: [0, 1, 999, 1000, 1001, 4000, 4001, 4096, 4097, 100_000, 1 << 20 + 1])
    func forcedIncrementalRoundTrip(size: Int) async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 1000
            $0.chunkSize = 4096
        }
        let reader = try await openConnection()
        let selection = uniqueSelection("incr\(size)")
        let bytes = payload(size, seed: UInt32(truncatingIfNeeded: size) &+ 7)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-test", source: .provider { bytes }),
        ]))
        let data = try await reader.read(selection, target: "application/x-test")
        #expect(data.bytes == bytes)
        await owner.shutdown()
        await reader.shutdown()
    }

    /// Many requestors at once, each with its own INCR transfer keyed by (window, property): none blocks
    /// another (xclip leaves one of two simultaneous requestors hanging at 1 MiB and above).
    @Test func manyConcurrentRequestorsAreServedInFull() async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 256 * 1024
            $0.chunkSize = 64 * 1024
        }
        let selection = uniqueSelection()
        let bytes = payload(3 << 20, seed: 21)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-shared", source: .bytes(bytes)),
        ]))
        var readers: [X11Connection] = []
        for _ in 0..<6 { readers.append(try await openConnection()) }
        // Two reads per connection as well: same window, different properties.
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for reader in readers {
                for _ in 0..<2 {
                    group.addTask { try await reader.read(selection, target: "application/x-shared").bytes }
                }
            }
            var all: [Data] = []
            for try await data in group { all.append(data) }
            return all
        }
        #expect(results.count == 12)
        #expect(results.allSatisfy { $0 == bytes })
        #expect(await owner.activeTransferCount == 0)
        for reader in readers { await reader.shutdown() }
        await owner.shutdown()
    }

    @Test func aConnectionReadsWhatItOwnsItself() async throws {
        let connection = try await openConnection { $0.incrementalThreshold = 1000 }
        let selection = uniqueSelection()
        let bytes = payload(100_000, seed: 1)
        _ = try await connection.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-self", source: .bytes(bytes)),
        ]))
        #expect(try await connection.read(selection, target: "application/x-self").bytes == bytes)
        #expect(try await connection.targets(of: selection).first == "application/x-self")
        await connection.shutdown()
    }

    @Test func fileSourceIsStreamedAndStreamedReadIsBounded() async throws {
        let owner = try await openConnection { $0.incrementalThreshold = 64 * 1024 }
        let reader = try await openConnection { $0.streamBufferLimit = 512 * 1024 }
        let selection = uniqueSelection()
        let size = 24 << 20
        let bytes = payload(size, seed: 42)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("clipbridge-engine-\(UUID()).bin")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-file", source: .file(url)),
        ]))
        let received = Received()
        let summary = try await reader.read(selection, target: "application/x-file") { chunk in
            await received.append(chunk)
        }
        #expect(summary.byteCount == size)
        #expect(summary.type == "application/x-file")
        #expect(await received.data == bytes)
        #expect(await received.largestChunk <= 128 * 1024)
        await owner.shutdown()
        await reader.shutdown()
    }
}

actor Received {
    var data = Data()
    var largestChunk = 0
    func append(_ chunk: Data) {
        data.append(chunk)
        largestChunk = max(largestChunk, chunk.count)
    }
}
