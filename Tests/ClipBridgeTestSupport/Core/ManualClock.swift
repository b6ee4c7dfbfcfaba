// ClipBridge test support: a clock that moves only when a test says so, for the orchestration's unit tests.

import Synchronization

/// A `Clock` whose time stands still until ``advance(by:)`` (swift-nio's `EmbeddedEventLoop` idea, for Swift
/// concurrency): a driver's settle times and timeouts run in no time and always in the same order, so its tests
/// need no sleep and no display.
public final class ManualClock: Clock, Sendable {
    /// A point of the clock's time: how far it is from the start.
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>?
        var cancelled = false
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on this clock now.
    public var sleepers: Int { state.withLock { state in state.sleepers.values.count { $0.continuation != nil } } }

    /// When the sleeping tasks wake, as offsets from the clock's start, earliest first.
    public var deadlines: [Duration] {
        state.withLock { state in state.sleepers.values.filter { $0.continuation != nil }.map(\.deadline.offset).sorted() }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.sleepers[state.nextID] = Sleeper(deadline: deadline)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    guard let sleeper = state.sleepers[id] else { return .success(()) }
                    if sleeper.cancelled {
                        state.sleepers[id] = nil
                        return .failure(CancellationError())
                    }
                    if deadline <= state.now {
                        state.sleepers[id] = nil
                        return .success(())
                    }
                    state.sleepers[id]?.continuation = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let sleeper = state.sleepers[id] else { return nil }
                guard let continuation = sleeper.continuation else {
                    state.sleepers[id]?.cancelled = true  // not yet registered: it resumes throwing itself
                    return nil
                }
                state.sleepers[id] = nil
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration` and wakes every sleeper whose deadline it reached, earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let woken = state.sleepers.filter { $0.value.continuation != nil && $0.value.deadline <= now }
                .sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in woken { state.sleepers[id] = nil }
            return woken.compactMap(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}

/// Lets other tasks run until `condition` holds, by yielding (never by sleeping): at most `turns` times.
/// - Returns: whether it held.
public func settled(turns: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<turns {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
