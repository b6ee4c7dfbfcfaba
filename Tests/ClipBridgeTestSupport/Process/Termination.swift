// ClipBridge test support: how a child process ended.

/// How a child process ended.
public enum Termination: Sendable, Hashable, CustomStringConvertible {
    /// It called `exit` with this status.
    case exited(Int32)
    /// A signal ended it (SIGTERM = 15, SIGKILL = 9, ...).
    case signaled(Int32)
    /// It was reaped elsewhere, so its status is not known.
    case unknown

    /// Decodes a `waitpid` status word (`WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` are C macros Swift cannot import).
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// The exit status, or nil when a signal ended the process.
    public var exitCode: Int32? {
        if case .exited(let code) = self { return code }
        return nil
    }

    /// A readable form: "exit 0", "signal 15".
    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        case .unknown: "unknown (reaped elsewhere)"
        }
    }
}
