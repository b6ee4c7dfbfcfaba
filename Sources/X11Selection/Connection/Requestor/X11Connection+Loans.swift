import FoundationEssentials

/// How a read waits for the loop: on loan while the loop sleeps, else resumed by the loop once
/// (ThreadingModel.md, "Loans").
extension X11Connection {
    /// Runs `start` on the loop and waits until it completes `wait`.
    ///
    /// A caller off the loop first *borrows* the loop's role while the loop sleeps (`X11EventLoop.lend`):
    /// it starts the work and drives the connection on its own thread for up to
    /// `Configuration.inlineWaitLimit`, like a single-threaded Xlib client, and no thread is woken. If the
    /// loop is awake, or the wait outlasts the limit, the work is (or stays) on the loop and the caller
    /// parks a continuation the loop resumes. `onCancel` runs on the cancelling thread and returns what the
    /// loop must do about it.
    nonisolated(nonsending) func awaitOnLoan<Value: Sendable>(
        _ wait: LoanedWait<Value>, start: @escaping @Sendable (isolated X11Connection) -> Void,
        onCancel: @escaping @Sendable () -> @Sendable (isolated X11Connection) -> Void
    ) async throws -> Value {
        var loan = X11EventLoop.LoanOutcome.unavailable
        let limit = configuration.inlineWaitLimit
        if limit > .zero, !loop.inLoop, !Task.isCancelled {
            loan = loop.lend(until: .now + limit, start: { self.onLoopThread(start) }, isDone: { wait.isComplete })
            // Only a wait completed during the loan may be read here: once the loan ended, the loop may complete
            // the wait at any moment, and only on the loop (`attach`) is that safe to look at.
            if loan == .finished, let outcome = wait.takeOutcome() { return try outcome.get() }
        }
        let started = loan != .unavailable
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                onLoop { connection in
                    if !started { start(connection) }
                    wait.attach(continuation)
                }
            }
        } onCancel: {
            let work = onCancel()
            // Always enqueued: the handler may run on the loop in the middle of other isolated work.
            loop.execute { self.assumeIsolated(work) }
        }
    }
}
