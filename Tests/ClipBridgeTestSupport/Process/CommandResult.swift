// ClipBridge test support: what a finished command produced.

import Foundation

/// What a finished command produced: how it ended, its output, and how long it ran.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// The command line that ran.
    public var arguments: [String]
    /// How it ended.
    public var termination: Termination
    /// Everything it wrote to stdout (empty when stdout went to a file or was discarded).
    public var stdout: Data
    /// Everything it wrote to stderr (empty when discarded).
    public var stderr: Data
    /// Wall time from spawn to reap.
    public var duration: Duration

    /// Creates a result (the runners build these; tests only read them).
    public init(
        arguments: [String], termination: Termination, stdout: Data, stderr: Data, duration: Duration
    ) {
        self.arguments = arguments
        self.termination = termination
        self.stdout = stdout
        self.stderr = stderr
        self.duration = duration
    }

    /// The exit status, or nil when a signal ended the command.
    public var exitCode: Int32? { termination.exitCode }
    /// True when the command exited with status 0.
    public var succeeded: Bool { termination == .exited(0) }
    /// stdout decoded as UTF-8 (invalid sequences repaired), for assertions on text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr decoded as UTF-8 (invalid sequences repaired), for messages.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// The command, how it ended, the output sizes and the first lines of stderr.
    public var description: String {
        let command = arguments.joined(separator: " ")
        var text = "`\(command)`: \(termination), \(stdout.count) B stdout, \(stderr.count) B stderr, \(duration)"
        if !stderr.isEmpty { text += "\nstderr: \(stderrText.prefix(2000))" }
        return text
    }
}
