import Synchronization

/// The buffer between a claim (the loop thread writes) and the one task iterating its lease's events.
///
/// Why not `AsyncStream`: perf of an owner serving 16-byte pastes showed `AsyncStream`'s generic storage at
/// about a tenth of the owner's CPU per paste: every `yield` and every `next()` looks up generic metadata,
/// and `next()` creates a continuation even when an event is already buffered. This channel is specialised
/// to `SelectionLeaseEvent`; `next()` takes a buffered event under the lock without suspending, and only a
/// consumer that finds the buffer empty waits on a continuation. Same contract as the `AsyncStream` it
/// replaces (`bufferingNewest(SelectionLeaseEvents.bufferLimit)`): buffered until read, the oldest dropped
/// beyond the limit, buffered events still delivered after `finish`, and a consumer whose task is cancelled
/// while waiting gets nil and the sequence ends.
final class LeaseEventChannel: Sendable {
    private struct State {
        /// Unread events from `head` on (a ring would save the compaction; bursts are short).
        var buffer: [SelectionLeaseEvent] = []
        var head = 0
        /// The consumer, when it waits for an event.
        var waiter: UnsafeContinuation<SelectionLeaseEvent?, Never>?
        /// No more events will come (`finish`); buffered ones are still read.
        var finished = false
        /// The consumer was cancelled: the sequence is over, buffered events are dropped.
        var terminated = false

        var isEmpty: Bool { head == buffer.count }

        mutating func take() -> SelectionLeaseEvent {
            let event = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return event
        }
    }

    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// True while a consumer waits in ``next(isolation:)`` on an empty buffer (what a test waits for before it
    /// yields, instead of sleeping).
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }

    /// Hands `event` to the consumer (resumed if it waits), or buffers it.
    func yield(_ event: SelectionLeaseEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<SelectionLeaseEvent?, Never>? in
            guard !state.finished, !state.terminated else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.buffer.count - state.head >= limit {
                // Keep the newest: drop the oldest unread one.
                state.head += 1
            }
            if state.head > 0 && state.head * 2 >= state.buffer.count {
                state.buffer.removeFirst(state.head)
                state.head = 0
            }
            state.buffer.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// No more events; the consumer reads what is buffered, then nil.
    func finish() {
        let waiter = state.withLock { state -> UnsafeContinuation<SelectionLeaseEvent?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    private enum Poll {
        case event(SelectionLeaseEvent)
        case end
        case empty
    }

    private func poll() -> Poll {
        state.withLock { state in
            if state.terminated { return .end }
            if !state.isEmpty { return .event(state.take()) }
            return state.finished ? .end : .empty
        }
    }

    /// The next event, nil once finished and drained (or after the consumer's task was cancelled).
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> SelectionLeaseEvent? {
        switch poll() {
        case .event(let event): return event
        case .end: return nil
        case .empty: break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<SelectionLeaseEvent?, Never>) in
                let immediate = state.withLock { state -> Poll in
                    if state.terminated { return .end }
                    if !state.isEmpty { return .event(state.take()) }
                    if state.finished { return .end }
                    // A second concurrent consumer is a programming error, as with AsyncStream.
                    precondition(state.waiter == nil, "SelectionLeaseEvents: next() awaited concurrently")
                    if Task.isCancelled {
                        state.terminated = true
                        return .end
                    }
                    state.waiter = continuation
                    return .empty
                }
                switch immediate {
                case .event(let event): continuation.resume(returning: event)
                case .end: continuation.resume(returning: nil)
                case .empty: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<SelectionLeaseEvent?, Never>? in
                state.terminated = true
                state.buffer.removeAll()
                state.head = 0
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
