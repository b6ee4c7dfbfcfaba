// ClipBridge test support: a peer that keeps running (serving a selection) while the test goes on.

import Foundation
import Glibc
import X11Selection

/// A running peer, e.g. `xclip -quiet -i` owning CLIPBOARD, or a toolkit peer's `--set-text`.
///
/// Always stop it (`stop()` or `kill()`); if the test forgets, it is killed when this object is released.
public final class BackgroundPeer: Sendable {
    private let launched: LaunchedCommand
    /// The command as described.
    public let command: PeerCommand

    init(_ launched: LaunchedCommand, command: PeerCommand) {
        self.launched = launched
        self.command = command
    }

    /// The process id.
    public var pid: Int32 { launched.child.pid }
    /// True once the process has ended (and been reaped).
    public var hasExited: Bool { launched.child.poll() != nil }
    /// What it has written to stdout so far (empty unless stdout is `.capture`).
    public var stdoutSoFar: Data { launched.stdout?.contents() ?? Data() }
    /// What it has written to stderr so far (empty unless stderr is `.capture`).
    public var stderrSoFar: Data { launched.stderr?.contents() ?? Data() }

    /// One of a peer's output streams.
    public enum Stream: Sendable {
        /// Standard output.
        case stdout
        /// Standard error.
        case stderr
    }

    /// Waits until `stream` contains `marker` (a toolkit peer's "READY" on stdout; xclip's "Waiting for
    /// selection requests" on stderr with `-quiet`); throws `.notReady` when the process exits first or
    /// `timeout` passes (the process is left running in the latter case).
    ///
    /// For an `xclip -i` that is about to be read, use `waitUntilOwning(_:display:timeout:)`: its line comes
    /// before its claim reaches the server.
    public func waitForOutput(
        _ marker: String,
        in stream: Stream = .stdout,
        timeout: Duration = .seconds(10)
    ) async throws(CommandError) {
        let deadline = ContinuousClock.now + timeout
        let needle = Data(marker.utf8)
        var pause = Duration.milliseconds(1)
        func printed() -> Bool { (stream == .stdout ? stdoutSoFar : stderrSoFar).range(of: needle) != nil }
        while true {
            if printed() { return }
            if let ended = launched.child.poll() {
                // It may have printed the marker just before exiting.
                if printed() { return }
                throw CommandError(
                    kind: .notReady, arguments: command.arguments,
                    detail: "exited (\(ended)) before printing \(marker)",
                    partialResult: launched.result(termination: ended)
                )
            }
            if ContinuousClock.now >= deadline {
                throw CommandError(
                    kind: .notReady, arguments: command.arguments, detail: "did not print \(marker) within \(timeout)",
                    partialResult: launched.result(termination: .unknown)
                )
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Waits for an `xclip -quiet -i` peer's "Waiting for selection requests" line, then until the X server
    /// reports an owner of `selection` (an atom name: "CLIPBOARD", "PRIMARY"); throws `.notReady` otherwise.
    ///
    /// Why both: xclip 0.13 prints the line right after *queueing* its SetSelectionOwner request, which Xlib
    /// sends only at xclip's next XNextEvent. On a loaded machine a read started on the line alone found
    /// nobody owning the selection (`PeerInteropTests`, once in about fifteen parallel runs of the tests).
    /// The suites that use it start each xclip on a selection nobody else owns, so any owner is xclip.
    public func waitUntilOwning(_ selection: String, display: String, timeout: Duration = .seconds(10)) async throws {
        try await waitForOutput("Waiting for selection requests", in: .stderr, timeout: timeout)
        let connection = try await X11Connection.open(display: display)
        let name = SelectionName(rawValue: selection)
        let deadline = ContinuousClock.now + timeout
        var owner = try await connection.owner(of: name)
        while owner == nil, ContinuousClock.now < deadline, launched.child.poll() == nil {
            try await Task.sleep(for: .milliseconds(2))
            owner = try await connection.owner(of: name)
        }
        await connection.shutdown()
        guard owner != nil else {
            throw CommandError(
                kind: .notReady, arguments: command.arguments,
                detail: "printed its line but the server never reported it owning \(selection)",
                partialResult: nil)
        }
    }

    /// Waits for the process to end on its own; throws `.timedOut` (leaving it running) after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(10)) async throws(CommandError) -> CommandResult {
        guard let termination = await launched.child.waitForExit(until: .now + timeout) else {
            throw CommandError(
                kind: .timedOut, arguments: command.arguments, detail: "still running after \(timeout)",
                partialResult: launched.result(termination: .unknown)
            )
        }
        return launched.result(termination: termination)
    }

    /// Sends SIGTERM, then SIGKILL after `grace`; returns once the process is reaped, with its output.
    @discardableResult
    public func stop(grace: Duration = .seconds(2)) async -> CommandResult {
        launched.result(termination: await launched.child.terminate(grace: grace))
    }

    /// Sends SIGKILL (no chance to clean up, as when an app crashes); returns once the process is reaped.
    @discardableResult
    public func kill() async -> CommandResult {
        launched.result(termination: await launched.child.forceKill())
    }

    /// Sends any signal (SIGSTOP to freeze a peer mid-transfer, SIGCONT to resume it, ...).
    public func send(signal: Int32) {
        launched.child.send(signal)
    }
}
