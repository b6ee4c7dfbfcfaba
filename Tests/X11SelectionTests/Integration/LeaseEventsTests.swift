import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// `.served` events are batched (`Claim.servedWindow`); these pin what the batching must keep.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct LeaseEventsTests {
    /// Two connections; the owner claims a fresh selection offering `payloads` (target → bytes, in order).
    /// The owner is shut down by the body or afterwards (a second shutdown is a no-op); the reader afterwards.
    private func withLease(
        _ tag: String, offering payloads: KeyValuePairs<SelectionTarget, String>,
        _ body: (X11Connection, X11Connection, SelectionName, SelectionLease) async throws -> Void
    ) async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection(tag)
        let lease = try await owner.claim(selection, offering: SelectionOffer(payloads.map {
            .init(target: $0.key, source: .bytes(Data($0.value.utf8)))
        }))
        try await body(owner, reader, selection, lease)
        await owner.shutdown()
        await reader.shutdown()
    }

    /// The lease names the window the claim made the owner: the one the server reports (a `Clipboard` takes its
    /// ownership from here rather than asking again).
    @Test func leaseNamesTheVerifiedOwner() async throws {
        try await withLease("leaseowner", offering: ["text/a": "a"]) { owner, reader, selection, lease in
            #expect(lease.owner == (await owner.utilityWindow))
            let seen = try await reader.owner(of: selection)
            #expect(seen == lease.owner)
        }
    }

    /// Every paste is reported, in order, before `.lost`, and the sequence then ends.
    @Test func servedEventsPrecedeLostInOrder() async throws {
        try await withLease("leaseorder", offering: ["text/a": "a", "text/bb": "bb"]) { owner, reader, selection, lease in
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
        }
    }

    /// A consumer waiting on the lease gets a paste's event within the batching window, with no further
    /// activity on the connection to push it out.
    @Test func aWaitingConsumerGetsServedSoon() async throws {
        try await withLease("leasesoon", offering: ["text/a": "a"]) { _, reader, selection, lease in
            let waiter = Task { () -> (SelectionLeaseEvent?, ContinuousClock.Instant) in
                var iterator = lease.events.makeAsyncIterator()
                let event = await iterator.next()
                return (event, .now)
            }
            let readDone = ContinuousClock.now
            _ = try await reader.read(selection, target: "text/a")
            let (event, at) = await waiter.value
            #expect(event == .served(target: "text/a", requestor: await reader.utilityWindow, byteCount: 1))
            // The window is 2 ms at first; allow for a loaded machine (in the parallel test run on two CPUs the
            // waiter's task was resumed up to 0.8 s late: the cooperative pool is shared by every suite), but
            // not for "only at the next paste", which never comes here.
            #expect(readDone.duration(to: at) < .seconds(3))
        }
    }

    /// Shutdown hands over held events before the final `.lost`.
    @Test func shutdownFlushesHeldEvents() async throws {
        try await withLease("leaseshutdown", offering: ["text/a": "a"]) { owner, reader, selection, lease in
            _ = try await reader.read(selection, target: "text/a")
            await owner.shutdown()
            var events: [SelectionLeaseEvent] = []
            for await event in lease.events { events.append(event) }
            #expect(events == [
                .served(target: "text/a", requestor: await reader.utilityWindow, byteCount: 1), .lost(nil),
            ])
        }
    }
}
