// ClipBridge — the clipbridge command-line tool.
// `paste -t TARGETS` and `paste -t TIMESTAMP`: the xclip idioms, answered as xclip answers them.

import FoundationEssentials
import Glibc
import X11Selection

/// `clipbridge paste -t TARGETS` prints the owner's target names one per line, in the owner's order, as
/// `xclip -o -t TARGETS` does (countless scripts parse that); `-t TIMESTAMP` prints the owner's claim time
/// as a decimal number. Both are meta targets (ICCCM 2.6.2) that carry no content, so the content ladder of
/// ``PasteRequest`` cannot answer them: they are read here, on the calling thread.
enum MetaTargetPaste {
    /// Whether `target` is one this type answers.
    static func handles(_ target: SelectionTarget) -> Bool { target == .targets || target == .timestamp }

    /// Reads `target` of `selection` and writes it to standard output or `output`.
    /// - Throws: ``CLIFailure`` with the command's exit status.
    static func run(_ target: SelectionTarget, request: PasteRequest) throws {
        do {
            let reader = try BlockingSelectionReader(
                display: request.display, configuration: Connections.configuration(timeout: request.timeout))
            defer { reader.close() }
            let text: String
            if target == .targets {
                // Atoms the server does not know are left out (names for them do not exist).
                text = try reader.targets(of: request.selection).map { $0.rawValue + "\n" }.joined()
            } else {
                var bytes = Data()
                let summary = try reader.read(request.selection, target: .timestamp) { bytes.append($0) }
                guard summary.format == 32, bytes.count >= 4 else {
                    throw CLIFailure(status: .transferFailed,
                                     message: "the owner's TIMESTAMP is not a 32-bit integer (\(summary.type), format \(summary.format))")
                }
                let time = bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
                text = "\(time)\n"
            }
            PasteWatchdog.disarm()
            if let output = request.output {
                try write(text, toFile: output)
            } else {
                try Output.write(text, to: STDOUT_FILENO)
            }
        } catch {
            throw CLIFailure(error, display: request.display, selection: request.selection).exit()
        }
    }

    private static func write(_ text: String, toFile path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw CLIFailure(status: .ioError, message: "cannot write \(path): " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try Output.write(text, to: descriptor)
    }
}
