// ClipBridge — the clipbridge command-line tool.
// Opening the display with the command's deadlines.

import ClipBridge
import ClipBridgeOptions
import Glibc
import Logging
import X11Selection

/// Opens X connections for commands.
enum Connections {
    /// Opens `display` (nil = $DISPLAY) with every wait bounded by `timeout` seconds: the owner's first
    /// answer and each INCR chunk (so a stalled owner fails in about `timeout`, not never).
    static func open(display: String?, timeout: Seconds) async throws -> X11Connection {
        try await X11Connection.open(display: display, configuration: configuration(timeout: timeout))
    }

    /// The engine configuration for a command's `--timeout`: the owner's first answer and each INCR chunk.
    static func configuration(timeout: Seconds) -> Configuration {
        var configuration = Configuration()
        let deadline = timeout.duration
        configuration.readTimeout = deadline
        configuration.incrementalIdleTimeout = deadline
        // The engine's own messages (requests served and refused, reads, XDND messages at trace), on standard
        // error, for a command that misbehaves with some peer: CLIPBRIDGE_ENGINE_LOG=debug|trace|….
        if let level = getenv("CLIPBRIDGE_ENGINE_LOG").flatMap({ Logger.Level(rawValue: String(cString: $0)) }) {
            configuration.logger = StandardErrorLogHandler.logger("X11Selection", level: level)
        }
        return configuration
    }

    /// Runs `body` with a clipboard on a fresh connection, then shuts both down.
    static func withClipboard<Result: Sendable>(
        _ selection: SelectionName, display: String?, timeout: Seconds,
        _ body: (Clipboard) async throws -> Result
    ) async throws -> Result {
        let connection = try await open(display: display, timeout: timeout)
        // The clipboard's reads use the connection's deadlines (ClipboardConfiguration.readTimeout nil).
        let clipboard = Clipboard(selection, connection: connection, configuration: .command)
        do {
            let result = try await body(clipboard)
            await clipboard.shutdown()
            await connection.shutdown()
            return result
        } catch {
            await clipboard.shutdown()
            await connection.shutdown()
            throw error
        }
    }
}
