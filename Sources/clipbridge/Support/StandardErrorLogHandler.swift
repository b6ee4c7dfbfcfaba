// ClipBridge — the clipbridge command-line tool.
// swift-log lines on standard error, for long-running commands (`clipbridge daemon --log-level`).

import Glibc
import Logging

/// Writes each log message as one line on standard error: `clipbridge: message` at `info`, with the level
/// named otherwise (`clipbridge: warning: save refused …`), and the engine's messages marked by their label
/// (`clipbridge: debug: X11Selection: …`). Metadata follows as `key=value`. One `write(2)` per line, so
/// lines from concurrent tasks never interleave.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The daemon's own messages carry this label; others name theirs.
    static let commandLabel = "clipbridge"

    func log(event: LogEvent) {
        let level = event.level == .info ? "" : "\(event.level.rawValue): "
        let origin = label == Self.commandLabel ? "" : "\(label): "
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let extra = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "clipbridge: \(level)\(origin)\(event.message)\(extra)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// A logger of `label` at `level` writing here.
    static func logger(_ label: String = commandLabel, level: Logger.Level) -> Logger {
        Logger(label: label) { label in StandardErrorLogHandler(label: label, logLevel: level) }
    }
}
