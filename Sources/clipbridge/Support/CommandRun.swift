// ClipBridge — the clipbridge command-line tool.
// The run of a long-running command (drag, drop, watch, bridge, daemon): a connection, stopping on SIGINT or
// SIGTERM, failures mapped to the exit status — written once.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import Synchronization
import X11Selection

/// The shape every long-running command's `run()` shares.
enum CommandRun {
    /// Runs `body`, mapping what it throws to the command's exit: an `ExitCode` (a status the command chose,
    /// its message printed) as it is, a connection shut down by a stop request as a clean end when
    /// `stoppedIsSuccess` (the daemon), anything else to its message and status (``CLIFailure``) on `display`.
    static func reportingFailures(
        display: String?, stoppedIsSuccess: Bool = false, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as SelectionError where stoppedIsSuccess && error.code == .shutDown {
            return
        } catch {
            throw CLIFailure(error, display: display).exit()
        }
    }

    /// Runs `body` on a new connection to `display` and shuts the connection down afterwards, whatever
    /// happened. SIGINT or SIGTERM meanwhile runs the ``StopAction`` (at first: shut the connection down, which
    /// ends every wait of the body; a command with something gentler to do replaces it).
    static func withConnection<Result: Sendable>(
        display: String?, configuration: Configuration, _ body: (X11Connection, StopAction) async throws -> Result
    ) async throws -> Result {
        let connection = try await X11Connection.open(display: display, configuration: configuration)
        let stop = StopAction { await connection.shutdown() }
        do {
            let result = try await Signals.stopping(with: { await stop.run() }) { try await body(connection, stop) }
            await connection.shutdown()
            return result
        } catch {
            await connection.shutdown()
            throw error
        }
    }

    /// ``withConnection(display:configuration:_:)`` with the engine configuration of a `--timeout`.
    static func withConnection<Result: Sendable>(
        display: String?, timeout: Seconds, _ body: (X11Connection, StopAction) async throws -> Result
    ) async throws -> Result {
        try await withConnection(display: display, configuration: Connections.configuration(timeout: timeout), body)
    }
}

/// What a termination request does to a running command; the command may replace it once it has something
/// gentler to do than shutting its connection down (`drop` closes its window, and reports what it took).
final class StopAction: Sendable {
    private let state: Mutex<(action: @Sendable () async -> Void, requested: Bool)>

    init(_ action: @escaping @Sendable () async -> Void) {
        state = Mutex((action, false))
    }

    /// From now on, a request runs `action` instead; when one came already, `action` runs now (a request
    /// that came while the command was making what `action` stops is not lost).
    func replace(with action: @escaping @Sendable () async -> Void) async {
        let requested = state.withLock { state in
            state.action = action
            return state.requested
        }
        if requested { await action() }
    }

    /// Runs the action, and remembers that a stop was asked for.
    func run() async {
        let action = state.withLock { state in
            state.requested = true
            return state.action
        }
        await action()
    }
}

extension Signals {
    /// Runs `body`; the first SIGINT or SIGTERM meanwhile runs `stop`, once (it should make the body end). The
    /// handlers are installed before `body` starts, so no request is lost, and removed when it returns.
    static func stopping<Result>(
        with stop: @escaping @Sendable () async -> Void, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let requests = terminationRequests()
        let stopper = Task {
            for await _ in requests {
                await stop()
                return
            }
        }
        defer { stopper.cancel() }
        return try await body()
    }
}
