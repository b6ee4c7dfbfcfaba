// ClipBridge — the clipbridge command-line tool.
// `clipbridge paste` with no options, on one thread.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import UniformTypes
import WaylandSelection
import X11Selection

/// The form scripts run most — a bare `clipbridge paste` of text — without starting any thread: a
/// ``BlockingSelectionReader`` reads TARGETS and the chosen target on the main thread, the way xclip
/// does. Process start-up is most of this command's time (issue 5: within 1.5× of `xclip -o`), and
/// the event-loop thread, Swift's cooperative pool and the bridge's type tables would double it.
///
/// It picks the target with the very rule ``PasteRequest`` follows — ``PasteLadder`` asked for nothing in
/// particular, whose first rung is the best text by meaning (UTF-8 first), not the owner's order — and handles
/// the text family: `UTF8_STRING` is streamed unchanged, the others are decoded by the bridge's own
/// `TargetMapping.canonicalText`. Anything else the ladder chooses (a plain-text subtype such as
/// `text/x-python`, a conversion, another type when no text is offered) and COMPOUND_TEXT that only Xlib
/// decodes return, and the full path runs — where the same ladder chooses the same target. The UTType registry
/// is built only when the owner offers no text-family target.
enum QuickPaste {
    /// Pastes the best text of CLIPBOARD to standard output and ends the process with status 0; returns
    /// when the full path must do it.
    ///
    /// The end is `_exit`: everything is written already (write(2), no buffer), the socket closes with the
    /// process and the server frees the reader's window then, so neither XCloseDisplay's round trip nor
    /// the way out of an async `main` is worth its time here.
    /// - Throws: the command's exit status (`ExitCode`) for every failure, with its message printed.
    static func run(timeout: Seconds = PasteRequest().timeout) throws {
        let selection = SelectionName.clipboard
        PasteWatchdog.arm(seconds: timeout.value)
        if case .wayland(let compositor) = DisplayChoice.resolve(nil) {
            return try runOnWayland(compositor, timeout: timeout)
        }
        do {
            let reader = try BlockingSelectionReader(
                display: nil, configuration: Connections.configuration(timeout: timeout))
            defer { reader.close() }
            let offered = try reader.targets(of: selection)
            let textFamily = TargetMapping.textTargets
            // The text family is ranked without the type registry; only an owner offering none of it makes the
            // ladder look further (and the full path then runs).
            if !offered.contains(where: textFamily.contains) { MIMEDatabase.restrict() }
            // The ladder's text rung, which is its answer for a bare paste whenever text is offered; without text
            // (or for another text target) the full path runs and asks the whole ladder.
            guard let chosen = PasteLadder.bestText(in: offered), textFamily.contains(chosen) else { return }
            var last: UInt8?
            if chosen == .utf8String {
                _ = try reader.read(selection, target: chosen) { chunk in
                    if last == nil { PasteWatchdog.disarm() }
                    try chunk.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
                    last = chunk.last ?? last
                }
            } else {
                var bytes = Data()
                let summary = try reader.read(selection, target: chosen) { bytes.append($0) }
                guard let text = TargetMapping.canonicalText(bytes, target: chosen, propertyType: summary.type)
                else { return }
                PasteWatchdog.disarm()
                try text.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
                last = text.last
            }
            try Output.endLineOnTerminal(after: last)
            if reader.lastReadWasIncremental {
                // xsel 1.2 changes the requestor's event mask after the final chunk of an INCR transfer and dies
                // of the BadWindow when the requestor is already gone: exiting the instant the final chunk is
                // read killed it within a few pastes. A C requestor's own exit takes about this long.
                usleep(5_000)
            }
            _exit(ExitStatus.success.rawValue)
        } catch {
            throw CLIFailure(error, display: nil, selection: selection).exit()
        }
    }

    /// The same on a compositor (``BlockingWaylandReader``: no loop thread either), with the rule the full path's
    /// `WaylandClipboard` follows: the text rung of the ladder among the MIME types offered; `UTF8_STRING` streamed
    /// unchanged, `text/plain;charset=utf-8` made canonical as it streams (`UTF8TextStream`), another text type (another
    /// spelling of the UTF-8 one included) read whole and decoded to the same bytes.
    private static func runOnWayland(_ compositor: String?, timeout: Seconds) throws {
        let selection = SelectionName.clipboard
        do {
            let reader = try BlockingWaylandReader(display: compositor, timeout: timeout.duration)
            defer { reader.close() }
            let types = reader.types(of: .clipboard)
            guard !types.isEmpty else { throw SelectionError(.noOwner, "the Wayland clipboard is empty") }
            let offered = TargetMapping.contentTargets(in: types.map(SelectionTarget.init(rawValue:)))
            let textFamily = TargetMapping.textTargets
            if !offered.contains(where: textFamily.contains) { MIMEDatabase.restrict() }
            guard let chosen = PasteLadder.bestText(in: offered), textFamily.contains(chosen) else { return }
            var last: UInt8?
            func write(_ bytes: UnsafeRawBufferPointer) throws {
                guard !bytes.isEmpty else { return }
                if last == nil { PasteWatchdog.disarm() }
                try Output.write(bytes, to: STDOUT_FILENO)
                last = bytes.last
            }
            switch chosen {
            case .utf8String:
                try reader.read(chosen.rawValue, from: .clipboard) { try write($0) }
            case .utf8PlainText:
                var canonical = UTF8TextStream()
                try reader.read(chosen.rawValue, from: .clipboard) { piece in
                    try canonical.feed(Data(piece)).withUnsafeBytes { try write($0) }
                }
                try canonical.finish().withUnsafeBytes { try write($0) }
            default:
                var bytes = Data()
                try reader.read(chosen.rawValue, from: .clipboard) { bytes.append(contentsOf: $0) }
                // A Wayland transfer has no reply type: the bytes are typed by their own MIME type.
                guard let text = TargetMapping.canonicalText(bytes, target: chosen, propertyType: chosen) else { return }
                try text.withUnsafeBytes { try write($0) }
            }
            PasteWatchdog.disarm()
            try Output.endLineOnTerminal(after: last)
            _exit(ExitStatus.success.rawValue)
        } catch {
            throw CLIFailure(error, display: nil, selection: selection).exit()
        }
    }
}
