import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
import X11Selection

/// Relayed representations (`SelectionOffer.DataSource.relay`), between two connections of ours: served while
/// produced, whole when small, INCR when not, a refusal or no end marker when the producer fails, and a cap on
/// how many run at once.
@Suite(.xvfb, .timeLimit(.minutes(2)))
struct RelayTests {
    /// A producer that sends `bytes` in `pieces` sends, with `type` and `format`.
    private func producer(_ bytes: Data, type: SelectionTarget = "application/x-relayed", format: Int = 8, pieces: Int = 7)
        -> @Sendable (SelectionRelay) async throws -> Void
    {
        { relay in
            let step = max(1, bytes.count / pieces)
            var offset = 0
            repeat {
                let end = min(bytes.count, offset + step)
                try await relay.send(bytes.subdata(in: offset..<end), type: type, format: format)
                offset = end
            } while offset < bytes.count
        }
    }

    @Test(arguments: [0, 1, 5000, 3 << 20, 9 << 20])
    func aRelayIsServedWithItsTypeWholeOrByINCR(size: Int) async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection("relay\(size)")
        let bytes = payload(size, seed: UInt32(truncatingIfNeeded: size) &+ 3)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-asked", source: .relay(producer(bytes, type: "UTF8_STRING"))),
        ]))
        let data = try await reader.read(selection, target: "application/x-asked")
        #expect(data.bytes == bytes)
        #expect(data.type == "UTF8_STRING")
        var events = lease.events.makeAsyncIterator()
        let readerWindow = await reader.utilityWindow
        #expect(await events.next() == .served(target: "application/x-asked", requestor: readerWindow, byteCount: size))
        // Produced anew for each request (never cached).
        #expect(try await reader.read(selection, target: "application/x-asked").bytes == bytes)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func formatThirtyTwoItemsArriveWhole() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        var items = Data()
        for value in 0..<300_000 as Range<UInt32> { withUnsafeBytes(of: value.littleEndian) { items.append(contentsOf: $0) } }
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-items", source: .relay(producer(items, type: "INTEGER", format: 32, pieces: 13))),
        ]))
        let data = try await reader.read(selection, target: "application/x-items")
        #expect(data.format == 32 && data.type == "INTEGER")
        #expect(data.bytes == items)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func aProducerThatFailsFirstIsARefusal() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-failing", source: .relay { relay in
                try await relay.send(Data("partial".utf8), type: "UTF8_STRING", format: 8)
                throw SelectionError(.ownerGone, "the source went away")
            }),
        ]))
        let started = ContinuousClock.now
        await #expect(throws: SelectionError.self) {
            _ = try await reader.read(selection, target: "application/x-failing")
        }
        #expect(started.duration(to: .now) < .seconds(3))
        await owner.shutdown()
        await reader.shutdown()
    }

    /// Mid-INCR there is no error to send: the requestor must never see the end marker after a part.
    @Test func aProducerThatFailsMidINCRNeverEndsTheTransfer() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection {
            $0.readTimeout = .seconds(2)
            $0.incrementalIdleTimeout = .seconds(1)
        }
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-cut", source: .relay { relay in
                try await relay.send(payload(3 << 20), type: "application/x-cut", format: 8)
                throw SelectionError(.ownerGone, "the source went away")
            }),
        ]))
        let received = Mutex(0)
        await #expect(throws: SelectionError.self) {
            _ = try await reader.read(selection, target: "application/x-cut") { chunk in
                received.withLock { $0 += chunk.count }
            }
        }
        #expect(received.withLock { $0 } < 3 << 20 + 1)
        await owner.shutdown()
        await reader.shutdown()
    }

    /// A requestor asking for many conversions at once gets `maximumRelays` of them served and the rest
    /// refused at once: an owner never buffers for more than that many.
    @Test func relaysRunAtMostTheCapAtOnce() async throws {
        let owner = try await openConnection { $0.maximumRelays = 2 }
        let selection = uniqueSelection()
        let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
        let held: @Sendable (SelectionRelay) async throws -> Void = { relay in
            await withCheckedContinuation { continuation in gate.withLock { $0.append(continuation) } }
            try await relay.send(Data("done".utf8), type: "UTF8_STRING", format: 8)
        }
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-a", source: .relay(held)),
            .init(target: "application/x-b", source: .relay(held)),
            .init(target: "application/x-c", source: .relay(held)),
        ]))
        let readers = [try await openConnection(), try await openConnection(), try await openConnection()]
        let first = Task { try await readers[0].read(selection, target: "application/x-a").bytes }
        let second = Task { try await readers[1].read(selection, target: "application/x-b").bytes }
        #expect(await eventually { gate.withLock { $0.count } == 2 })
        let started = ContinuousClock.now
        await #expect(throws: SelectionError.self) {
            _ = try await readers[2].read(selection, target: "application/x-c")
        }
        #expect(started.duration(to: .now) < .seconds(3))
        for continuation in gate.withLock({ list in defer { list.removeAll() }; return list }) { continuation.resume() }
        #expect(try await first.value == Data("done".utf8))
        #expect(try await second.value == Data("done".utf8))
        await owner.shutdown()
        for reader in readers { await reader.shutdown() }
    }
}

