// ClipBridge — the clipbridge command-line tool.
// `clipbridge copy` with no display: the text goes to the terminal as OSC 52 (TerminalClipboard decides the form).

import ClipBridgeOptions
import ClipboardLink
import FoundationEssentials
import Glibc
import X11Selection

/// A copy written to the terminal instead of a display: where neither `DISPLAY` nor `WAYLAND_DISPLAY` is set (a
/// shell on a machine reached by ssh, a console) but there is a controlling terminal, or with `--osc52`. The
/// terminal — on the machine the user sits at — sets its own clipboard from it.
enum TerminalCopy {
    /// Whether a copy with no `--display` goes to the terminal: no display named by the environment, and a terminal.
    static func applies(display: String?) -> Bool {
        guard display == nil else { return false }
        for name in ["DISPLAY", "WAYLAND_DISPLAY"] {
            if let value = DisplayChoice.processEnvironment(name), !value.isEmpty { return false }
        }
        let terminal = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return false }
        close(terminal)
        return true
    }

    /// Copies `request`'s text through the terminal.
    /// - Throws: ``CLIFailure``: status 1 for what OSC 52 cannot carry or the terminal does not take (nothing is sent
    ///   then), 6 when the input cannot be read or the terminal written.
    static func copy(_ request: CopyRequest, limit: Int?) throws {
        guard request.files.isEmpty, request.add.isEmpty, !request.clear else {
            throw CLIFailure(status: .usage, message: "OSC 52 carries one text: --files, --add and --clear need a display")
        }
        if let type = request.type, !Detection.isTextFamily(type) {
            throw CLIFailure(status: .usage, message: "OSC 52 carries text only, not \(type.text)")
        }
        if request.sensitive {
            Output.complain("the terminal's clipboard has no sensitive mark: the text is copied without it")
        }
        let environment = DisplayChoice.processEnvironment
        let terminal = TerminalClipboard.terminal(environment: environment, override: limit)
        if case .failure(let refusal) = TerminalClipboard.check(byteCount: 0, for: terminal) {
            // Not asked for: the copy came here for want of a display, and that is what the user must change.
            guard request.osc52 else {
                throw CLIFailure(status: .displayUnavailable,
                                 message: "no display (DISPLAY and WAYLAND_DISPLAY are not set, no --display), and \(refusal.description)")
            }
            throw CLIFailure(status: .nothingToPaste, message: refusal.description)
        }
        // At most what the terminal takes is read (plus a byte, to tell that there is more): never the whole of an
        // endless input.
        let most = TerminalClipboard.mostBytes(within: terminal.limit ?? 0)
        let bytes = try input(of: request, atMost: most + 1)
        if case .failure(let refusal) = TerminalClipboard.check(byteCount: bytes.count, atLeast: bytes.count > most, for: terminal) {
            throw CLIFailure(status: .nothingToPaste, message: refusal.description)
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CLIFailure(status: .nothingToPaste, message: TerminalClipboard.Refusal.notText.description)
        }
        let selection = request.selection.rawValue
        let multiplexer = TerminalClipboard.multiplexer(environment: environment)
        // Inside tmux, its own command sets its buffer and tells the outer terminal (load-buffer -w, tmux 3.2), with
        // tmux's default settings; the passthrough form needs `allow-passthrough on`, so it is the fallback.
        if multiplexer == .tmux, selection == "CLIPBOARD",
            let (status, _) = try? ShellCommand.run("tmux load-buffer -w -", input: bytes, what: "tmux"), status == 0
        {
            return
        }
        try write(TerminalClipboard.sequence(bytes, selection: selection, through: multiplexer))
    }

    /// The copy's text: its TEXT arguments, its --file, or standard input; at most `limit` bytes.
    private static func input(of request: CopyRequest, atMost limit: Int) throws -> [UInt8] {
        if !request.text.isEmpty { return Array(request.text.joined(separator: " ").utf8.prefix(limit)) }
        var descriptor = STDIN_FILENO
        if let file = request.file, file != "-" {
            descriptor = open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIFailure(status: .ioError, message: "cannot read \(file): \(String(cString: strerror(errno)))")
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let count = read(descriptor, &buffer, min(buffer.count, limit - bytes.count))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw CLIFailure(status: .ioError, message: "cannot read the input: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// Writes `sequence` to the controlling terminal, whole.
    private static func write(_ sequence: [UInt8]) throws {
        let terminal = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            throw CLIFailure(status: .ioError, message: "there is no terminal to copy through (no display either: set DISPLAY, or name one with --display)")
        }
        defer { close(terminal) }
        do {
            try sequence.withUnsafeBytes { try Output.write($0, to: terminal) }
        } catch {
            throw CLIFailure(status: .ioError, message: "cannot write to the terminal: \(error)")
        }
    }
}
