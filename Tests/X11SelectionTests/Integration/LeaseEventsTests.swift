import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// `.served` events are batched (`Claim.servedEventDelay`); these pin what the batching must keep.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct LeaseEventsTests {
    /// Every paste is reported, in order, before `.lost`, and the sequence then ends.
    @Test func servedEventsPrecedeLostInOrder() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection("leaseorder")
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/a", source: .bytes(Data("a".utf8))),
            .init(target: "text/bb", source: .bytes(Data("bb".utf8))),
        ]))
        _ = try await reader.read(selection, target: "text/a")
        _ = try await reader.read(selection, target: "text/bb")
        _ = try await reader.read(selection, target: "text/a")
        // Released at once, inside the batching window: the held events must still come first.
        await owner.release(selection)
        var events: [SelectionLeaseEvent] = []
        for await event in lease.events { events.append(event) }
        let readerWindow = await reader.utilityWindow
        #expect(events == [
            .served(target: "text/a", requestor: readerWindow, byteCount: 1),
            .served(target: "text/bb", requestor: readerWindow, byteCount: 2),
            .served(target: "text/a", requestor: readerWindow, byteCount: 1),
            .lost(nil),
        ])
        await owner.shutdown()
        await reader.shutdown()
    }

    /// A consumer waiting on the lease gets a paste's event within the batching window, with no further
    /// activity on the connection to push it out.
    @Test func aWaitingConsumerGetsServedSoon() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection("leasesoon")
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/a", source: .bytes(Data("a".utf8))),
        ]))
        let waiter = Task { () -> (SelectionLeaseEvent?, ContinuousClock.Instant) in
            var iterator = lease.events.makeAsyncIterator()
            let event = await iterator.next()
            return (event, .now)
        }
        let readDone = ContinuousClock.now
        _ = try await reader.read(selection, target: "text/a")
        let (event, at) = await waiter.value
        #expect(event == .served(target: "text/a", requestor: await reader.utilityWindow, byteCount: 1))
        // The window is 2 ms; allow for a loaded machine, but not for "only at the next paste".
        #expect(readDone.duration(to: at) < .milliseconds(500))
        await owner.shutdown()
        await reader.shutdown()
    }

    /// Shutdown hands over held events before the final `.lost`.
    @Test func shutdownFlushesHeldEvents() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection("leaseshutdown")
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/a", source: .bytes(Data("a".utf8))),
        ]))
        _ = try await reader.read(selection, target: "text/a")
        await owner.shutdown()
        var events: [SelectionLeaseEvent] = []
        for await event in lease.events { events.append(event) }
        #expect(events == [
            .served(target: "text/a", requestor: await reader.utilityWindow, byteCount: 1), .lost(nil),
        ])
        await reader.shutdown()
    }
}
