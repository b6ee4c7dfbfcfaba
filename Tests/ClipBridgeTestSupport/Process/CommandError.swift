// ClipBridge test support: why a command could not be run to completion.

/// Why a peer command or the X server could not be started or did not finish in time.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The executable is not installed (not in `PATH`).
        case notFound
        /// `posix_spawn` or a pipe/file setup failed.
        case spawnFailed
        /// The command did not finish before its deadline; it was killed.
        case timedOut
        /// The command ran but exited unsuccessfully (for runners that expect success, such as `ToolkitPeer`).
        case failed
        /// The command never printed what it was expected to print (a readiness line, a display number).
        case notReady
    }

    /// The kind of failure.
    public var kind: Kind
    /// The command line that failed.
    public var arguments: [String]
    /// What happened, in words (errno text, the deadline, the process's stderr...).
    public var detail: String
    /// Output captured before the failure (for `.timedOut` and `.notReady`), when any.
    public var partialResult: CommandResult?

    /// Creates an error; `partialResult` carries whatever the process wrote before it was killed.
    public init(kind: Kind, arguments: [String], detail: String, partialResult: CommandResult? = nil) {
        self.kind = kind
        self.arguments = arguments
        self.detail = detail
        self.partialResult = partialResult
    }

    /// One line naming the command, the kind and the detail, then the captured stderr if any.
    public var description: String {
        var text = "`\(arguments.joined(separator: " "))`: \(kind): \(detail)"
        if let partialResult, !partialResult.stderr.isEmpty {
            text += "\nstderr: \(partialResult.stderrText)"
        }
        return text
    }
}
