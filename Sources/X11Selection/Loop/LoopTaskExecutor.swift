/// The event loop as a `TaskExecutor` (SE-0417): a task that prefers it runs its nonisolated code — and
/// resumes from every continuation — on the loop thread.
///
/// Why it exists: a continuation resumes its task on the *generic* executor, whatever actor the task waits
/// in, and the task then hops back to its actor. For a task waiting on the loop that is two thread wake-ups
/// per wait (loop → global pool → loop), even when the loop itself resumes it. `X11Connection.withIsolation`
/// runs its body with this executor as the task's preference, so "generic" means the loop: the loop resumes
/// the task in its own queue and no thread is woken. Not public: `withIsolation` is the supported way in.
///
/// A separate object rather than a second conformance of `X11EventLoop`, because `SerialExecutor` and
/// `TaskExecutor` share `enqueue(_:)` and the loop must know which kind of job it runs.
final class LoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `loop` is immutable; the loop owns this object and outlives it.
    private unowned let loop: X11EventLoop

    init(loop: X11EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        loop.enqueueTaskJob(UnownedJob(job))
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
