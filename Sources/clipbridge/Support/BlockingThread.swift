// ClipBridge — the clipbridge command-line tool.
// A plain thread for a call that blocks (waitpid), off Swift's cooperative pool.

import Glibc

/// Runs a blocking closure on a new detached POSIX thread, so that a blocking system call never holds
/// one of the few threads of Swift's cooperative pool (Foundation's `Thread` is not available: the tool
/// builds on FoundationEssentials to start quickly).
enum BlockingThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread. If no thread can be created, runs it on the caller's.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let created = pthread_create(&thread, &attributes, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        if created != 0 {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }
}
