// ClipBridge — the clipbridge command-line tool.
// Signal handling: unblock what we handle, and turn SIGINT/SIGTERM into an async sequence
// (the shape of swift-service-lifecycle's UnixSignalsSequence, built on DispatchSource).

// DispatchSourceSignal predates Sendable; its cancel() is thread-safe, which is all we call from
// the stream's termination handler.
@preconcurrency import Dispatch
import Glibc

/// Process-wide signal set-up for the CLI.
enum Signals {
    /// The signals that ask `copy --foreground`, the detached server and `watch` to stop cleanly.
    static let termination: [Int32] = [SIGINT, SIGTERM]

    /// Unblocks SIGINT, SIGTERM, SIGHUP and SIGPIPE in the calling thread; call it first thing in
    /// `main`, before any thread exists, so every thread inherits the clean mask.
    ///
    /// A process inherits its signal mask across `exec`: started from a test runner or a service
    /// manager that blocks SIGTERM, we would otherwise be unkillable (architecture.md §1.0-9: the
    /// same inheritance made Xvfb ignore SIGTERM).
    static func unblockHandledSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        // One by one, not a loop over an array: this is the first code of every process, and an array
        // built here would pay the runtime's first generic-metadata work on the path of a bare paste.
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Makes the process a server that outlives its terminal and shell: SIGHUP ignored (they go away,
    /// bugaevc/wl-clipboard#116), the job-control stops ignored (a stray SIGTSTP must not freeze every
    /// future paste, bugaevc/wl-clipboard#298), and SIGPIPE ignored (a requestor that goes away mid-write is
    /// an error to handle, not a death). For both ways the copy server starts: forked and re-executed.
    static func ignoreTerminalSignals() {
        ignore(SIGHUP)
        ignore(SIGTSTP)
        ignore(SIGTTIN)
        ignore(SIGTTOU)
        ignore(SIGPIPE)
    }

    /// The dispositions of the signals a terminal or a shell sends to a whole process group to stop a
    /// job: SIGINT (Ctrl-C), SIGQUIT (Ctrl-\\) and SIGTERM (`kill 0`).
    struct GroupInterruptions {
        // Three fields, not an array: this runs on the path of every `copy`, where a new generic
        // metadata instantiation shows in the command's time.
        private var interrupt = sigaction()
        private var quit = sigaction()
        private var terminate = sigaction()

        /// Ignores the three signals, remembering what they were.
        static func ignore() -> GroupInterruptions {
            var interruptions = GroupInterruptions()
            var ignored = sigaction()
            ignored.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignored.sa_mask)
            sigaction(SIGINT, &ignored, &interruptions.interrupt)
            sigaction(SIGQUIT, &ignored, &interruptions.quit)
            sigaction(SIGTERM, &ignored, &interruptions.terminate)
            return interruptions
        }

        /// Puts back what ``ignore()`` found.
        func restore() {
            var interrupt = interrupt, quit = quit, terminate = terminate
            sigaction(SIGINT, &interrupt, nil)
            sigaction(SIGQUIT, &quit, nil)
            sigaction(SIGTERM, &terminate, nil)
        }
    }

    /// Ignores `signal` for the whole process (for example SIGHUP in the detached server, which must
    /// outlive the terminal: bugaevc/wl-clipboard#116).
    static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// An async sequence that yields each SIGINT or SIGTERM delivered to the process.
    ///
    /// The signals' default actions are replaced by "ignore" so that delivery goes only to the
    /// dispatch sources, which observe signals even when they are ignored.
    static func terminationRequests() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let queue = DispatchQueue(label: "clipbridge.signals")
        let sources = termination.map { signal -> DispatchSourceSignal in
            ignore(signal)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler { continuation.yield(signal) }
            source.resume()
            return source
        }
        continuation.onTermination = { _ in
            for source in sources { source.cancel() }
        }
        return stream
    }

    /// A human name for a signal number (for messages).
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
