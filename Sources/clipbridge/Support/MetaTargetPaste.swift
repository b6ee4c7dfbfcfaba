// ClipBridge — the clipbridge command-line tool.
// `paste -t TARGETS`, `paste -t TIMESTAMP` and ICCCM's other integer targets: the xclip idioms, answered as xclip
// answers them.

import FoundationEssentials
import Glibc
import X11Selection

/// `clipbridge paste -t TARGETS` prints the owner's target names one per line, in the owner's order, as
/// `xclip -o -t TARGETS` does (countless scripts parse that); `-t TIMESTAMP` prints the owner's claim time
/// as a decimal number, and so do the other targets ICCCM §2.6.2 types INTEGER (LENGTH, LIST_LENGTH, PROCESS,
/// TASK; Emacs offers LENGTH) when the owner answers with 32-bit integers — one decimal number per line, as xclip
/// prints any INTEGER reply. These carry no content, so the content ladder of ``PasteRequest`` cannot answer
/// them: they are read here, on the calling thread.
enum MetaTargetPaste {
    /// ICCCM §2.6.2's targets of type INTEGER besides TIMESTAMP (PROCESS and TASK may also be TEXT).
    static let integerTargets: Set<SelectionTarget> = ["LENGTH", "LIST_LENGTH", "PROCESS", "TASK"]

    /// Whether `target` is one this type answers.
    static func handles(_ target: SelectionTarget) -> Bool {
        target == .targets || target == .timestamp || integerTargets.contains(target)
    }

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
                let summary = try reader.read(request.selection, target: target) { bytes.append($0) }
                if let numbers = decimalLines(bytes, type: summary.type, format: summary.format) {
                    text = numbers
                } else if target == .timestamp {
                    throw CLIFailure(status: .transferFailed,
                                     message: "the owner's TIMESTAMP is not a 32-bit integer (\(summary.type), format \(summary.format))")
                } else {
                    // Not integers (PROCESS and TASK may be TEXT): the owner's bytes, as for any target named.
                    PasteWatchdog.disarm()
                    try emit(bytes, request: request)
                    return
                }
            }
            PasteWatchdog.disarm()
            try emit(Data(text.utf8), request: request)
        } catch {
            throw CLIFailure(error, display: request.display, selection: request.selection).exit()
        }
    }

    /// 32-bit INTEGER items as decimal numbers, one per line; nil for any other type or format, or a length that is
    /// not whole items.
    static func decimalLines(_ bytes: Data, type: SelectionTarget, format: Int) -> String? {
        guard type == .integer, format == 32, !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
        return bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: 4).map {
                "\(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self)))\n"
            }.joined()
        }
    }

    private static func emit(_ bytes: Data, request: PasteRequest) throws {
        guard let path = request.output else {
            try bytes.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw CLIFailure(status: .ioError, message: "cannot write \(path): " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { try Output.write($0, to: descriptor) }
    }
}
