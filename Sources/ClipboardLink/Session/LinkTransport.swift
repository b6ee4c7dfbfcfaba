import SelectionCore

/// The byte stream a link runs over: the pipes of an `ssh` (or any command) started for it, or this process's own
/// standard input and output (`clipbridge bridge --stdio`).
package struct LinkTransport: Sendable {
    /// Where the peer's bytes are read.
    package var input: Int32
    /// Where this end's bytes are written.
    package var output: Int32
    /// Ends the transport: stops the command behind it (the link closes both descriptors itself, once nothing uses
    /// them). Called once, from any thread.
    package var close: @Sendable () -> Void
    /// Why the far end went away, once its stream ended — the command's exit status and what it printed last — or
    /// nil when there is nothing to say beyond the stream's end.
    package var ending: @Sendable () async -> LinkEnding?

    package init(
        input: Int32, output: Int32, close: @escaping @Sendable () -> Void,
        ending: @escaping @Sendable () async -> LinkEnding? = { nil }
    ) {
        self.input = input
        self.output = output
        self.close = close
        self.ending = ending
    }
}

/// How the command behind a link ended.
package struct LinkEnding: Sendable, Equatable {
    /// The command as the user would type it.
    package var command: String
    /// Its exit status (128 + the signal's number when a signal ended it).
    package var status: Int32
    /// The last lines it wrote on its standard error.
    package var message: String

    package init(command: String, status: Int32, message: String) {
        self.command = command
        self.status = status
        self.message = message
    }

    /// One sentence for a report: the command, its status, and what it said.
    package var description: String {
        "`\(command)` exited with status \(status)" + (message.isEmpty ? "" : ": \(message)")
    }
}

/// A link that cannot be made, and would not be on another attempt: the far end's command is missing or cannot run,
/// it is not a clipbridge link, or it speaks another version of the protocol. A bridge gives the side up.
package struct LinkUnusable: UnusableSide, ReportedError, CustomStringConvertible, Sendable {
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var reportedMessage: String { reason }
    package var description: String { reason }
}
