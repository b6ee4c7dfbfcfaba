import Testing
import ClipBridgeTestSupport
@testable import X11Selection

/// The lease's event buffer without X: the `AsyncStream(bufferingNewest:)` contract it replaces.
@Suite struct LeaseEventChannelTests {
    private func served(_ count: Int) -> SelectionLeaseEvent {
        .served(target: "text/plain", requestor: X11Window(rawValue: 7), byteCount: count)
    }

    @Test func bufferedEventsComeOutInOrderThenNilAfterFinish() async {
        let channel = LeaseEventChannel(limit: 16)
        for count in 0..<5 { channel.yield(served(count)) }
        channel.yield(.lost(nil))
        channel.finish()
        channel.yield(served(99))  // after finish: dropped
        var got: [SelectionLeaseEvent] = []
        while let event = await channel.next() { got.append(event) }
        #expect(got == (0..<5).map(served) + [.lost(nil)])
        #expect(await channel.next() == nil)
    }

    @Test func keepsTheNewestBeyondTheLimit() async {
        let channel = LeaseEventChannel(limit: 4)
        for count in 0..<10 { channel.yield(served(count)) }
        channel.finish()
        var got: [SelectionLeaseEvent] = []
        while let event = await channel.next() { got.append(event) }
        #expect(got == (6..<10).map(served))
    }

    @Test func aWaitingConsumerIsResumedByYieldAndByFinish() async {
        let channel = LeaseEventChannel(limit: 4)
        let consumer = Task { () -> [SelectionLeaseEvent] in
            var got: [SelectionLeaseEvent] = []
            while let event = await channel.next() { got.append(event) }
            return got
        }
        // Each event is yielded once the consumer waits on the empty buffer, so each resumes a waiter.
        for count in 0..<3 {
            #expect(await eventually { channel.hasWaitingConsumer })
            channel.yield(served(count))
        }
        #expect(await eventually { channel.hasWaitingConsumer })
        channel.finish()
        #expect(await consumer.value == (0..<3).map(served))
    }

    @Test func cancellingTheWaitingConsumerEndsTheSequence() async {
        let channel = LeaseEventChannel(limit: 4)
        let consumer = Task { await channel.next() }
        #expect(await eventually { channel.hasWaitingConsumer })
        consumer.cancel()
        #expect(await consumer.value == nil)
        channel.yield(served(1))
        #expect(await channel.next() == nil)
    }

    @Test func aConsumerCancelledBeforeItWaitsStillReadsWhatIsBuffered() async {
        let channel = LeaseEventChannel(limit: 4)
        channel.yield(served(1))
        let consumer = Task { () -> (SelectionLeaseEvent?, SelectionLeaseEvent?) in
            withUnsafeCurrentTask { $0?.cancel() }
            // A buffered event is handed over without waiting (as AsyncStream does); the empty buffer then
            // ends the sequence because the task is cancelled.
            return (await channel.next(), await channel.next())
        }
        let (first, second) = await consumer.value
        #expect(first == served(1))
        #expect(second == nil)
    }
}
