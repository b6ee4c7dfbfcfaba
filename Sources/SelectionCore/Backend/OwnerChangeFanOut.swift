import Synchronization

/// The owner-change sequences a backend hands out, each for the selections it asked about: every change told to
/// the sequences watching its selection, in the order told; a sequence removed when its consumer stops. A backend
/// whose connection ends finishes them all (with the error), and — when it will not come back — every later one at
/// once.
package final class OwnerChangeFanOut<Change: Sendable>: Sendable {
    private struct Watcher {
        var selections: Set<SelectionName>
        var continuation: AsyncThrowingStream<Change, any Error>.Continuation
    }

    private struct State {
        var watchers: [UInt64: Watcher] = [:]
        var next: UInt64 = 0
        /// The source ended for good: later sequences end at once, with ``endError``.
        var endedForGood = false
        var endError: (any Error)?
    }

    private let state = Mutex(State())

    package init() {}

    /// A new sequence of the changes of `selections`.
    package func changes(of selections: [SelectionName]) -> AsyncThrowingStream<Change, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Change, any Error>.makeStream()
        let (id, ended, error) = state.withLock { state -> (UInt64, Bool, (any Error)?) in
            state.next += 1
            if !state.endedForGood {
                state.watchers[state.next] = Watcher(selections: Set(selections), continuation: continuation)
            }
            return (state.next, state.endedForGood, state.endError)
        }
        if ended { continuation.finish(throwing: error) }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    /// Tells `change` (of `selection`) to every sequence watching it.
    package func tell(_ change: Change, about selection: SelectionName) {
        let watchers = state.withLock { $0.watchers.values.filter { $0.selections.contains(selection) } }
        for watcher in watchers { watcher.continuation.yield(change) }
    }

    /// Ends every sequence, with `error` when given; with `forGood`, every later sequence too.
    package func finishAll(throwing error: (any Error)? = nil, forGood: Bool = false) {
        let watchers = state.withLock { state in
            if forGood { (state.endedForGood, state.endError) = (true, error) }
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.continuation.finish(throwing: error) }
    }

    /// How many sequences are watching.
    package var count: Int { state.withLock { $0.watchers.count } }
}
