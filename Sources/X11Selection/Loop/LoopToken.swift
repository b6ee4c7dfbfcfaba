import Glibc

/// The threading rule, checked: **isolated code runs on whichever thread holds the loop token**
/// (ThreadingModel.md). `X11EventLoop` marks the thread that holds a loop's token — the loop thread for a
/// turn, or a caller for its loan — and the objects that the token alone protects (`LoanedWait`,
/// `MultipleWait`, `ReadStream`, the connection's state) assert it with `assertHeld()` in debug builds, so
/// every test run checks the rule where the compiler cannot (`@unchecked Sendable`).
enum LoopToken {
    /// One key per process; the value is non-nil while the thread holds some loop's token.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with the calling thread marked as the token's holder (the caller holds the token).
    static func whileHeld<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, previous) }
        return try body()
    }

    /// Whether the calling thread holds a loop's token.
    static var isHeld: Bool { pthread_getspecific(key) != nil }

    /// Stops a debug build when the calling thread does not hold a loop's token.
    static func assertHeld(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(isHeld, "X11Selection: \(what()) used by a thread that does not hold the loop token", file: file,
               line: line)
    }
}
