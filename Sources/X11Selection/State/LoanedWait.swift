/// The end of one wait (a whole read, or a streamed read's next batch) that may be reached either on loan
/// (`X11EventLoop.lend`: the caller's own thread drives the connection) or later on the loop.
///
/// The engine reports the outcome through `complete`; the caller either finds it after its loan
/// (`takeOutcome`) or, when the loan ended first, parks a continuation (`attach`) that `complete` resumes.
///
/// Invariant that makes `@unchecked Sendable` sound — the lock is the loop token: every member is used only by
/// the thread that holds it (the loop thread, or the caller during its loan; `LoopToken.assertHeld` checks),
/// and `takeOutcome` by the caller after its loan ended *and* only when the outcome was already set during it
/// (then the engine never touches the object again: `complete` runs once).
final class LoanedWait<Value: Sendable>: @unchecked Sendable {
    private var outcome: Result<Value, any Error>?
    private var continuation: CheckedContinuation<Value, any Error>?
    private var completed = false

    /// True once `complete` ran.
    var isComplete: Bool { completed }

    /// Reports the outcome: resumes the parked continuation, or keeps the outcome for the caller.
    func complete(_ result: Result<Value, any Error>) {
        LoopToken.assertHeld("LoanedWait.complete")
        guard !completed else { return }
        completed = true
        if let continuation {
            self.continuation = nil
            continuation.resume(with: result)
        } else {
            outcome = result
        }
    }

    /// The outcome reached during the loan, taken once.
    func takeOutcome() -> Result<Value, any Error>? {
        defer { outcome = nil }
        return outcome
    }

    /// Parks the caller until `complete` (on the loop); resumes it at once if the outcome is already known.
    func attach(_ waiter: CheckedContinuation<Value, any Error>) {
        LoopToken.assertHeld("LoanedWait.attach")
        if let outcome = takeOutcome() {
            waiter.resume(with: outcome)
        } else {
            continuation = waiter
        }
    }
}
