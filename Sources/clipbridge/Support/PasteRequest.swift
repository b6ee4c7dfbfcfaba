// ClipBridge — the clipbridge command-line tool.
// What `clipbridge paste` does, given its options as plain values.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import Synchronization
import UniformTypes
import WaylandBridge
import WaylandSelection
import X11Selection

/// One `paste`, separate from its command-line form so that a bare `clipbridge paste` runs it without
/// building the ArgumentParser command at all: `Paste`'s property wrappers (name sets, help texts,
/// generic metadata) cost more start-up time than the paste of a short text itself.
struct PasteRequest: Sendable {
    /// --display; nil means $DISPLAY.
    var display: String? = nil
    /// --selection / -p.
    var selection: SelectionName = .clipboard
    /// -t TYPE.
    var type: TypeName? = nil
    /// --list-types.
    var listTypes = false
    /// --json (with --list-types).
    var json = false
    /// --output FILE.
    var output: String? = nil
    /// --no-newline.
    var noNewline = false
    /// --timeout, in seconds.
    var timeout = Seconds(5)

    func run() async throws {
        PasteWatchdog.arm(seconds: timeout.value)
        if case .wayland(let name) = DisplayChoice.resolve(display) {
            return try await runOnWayland(name)
        }
        if let target = type?.exactTarget, MetaTargetPaste.handles(target) {
            try MetaTargetPaste.run(target, request: self)
            return
        }
        MIMEDatabase.restrict()
        do {
            try await Connections.withClipboard(selection, display: display, timeout: timeout) { clipboard in
                try await paste(from: clipboard)
            }
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
    }

    /// The paste from a compositor's selection, through data-control: the same ladder, output and exit statuses;
    /// `-t TARGETS` lists the MIME types offered, as `wl-paste --list-types` does.
    private func runOnWayland(_ name: String?) async throws {
        MIMEDatabase.restrict()
        do {
            let connection = try await WaylandConnection.open(display: name, timeout: timeout.duration)
            defer { connection.close() }
            let clipboard = try WaylandClipboard(
                selection, connection: connection, configuration: .command, timeout: timeout.duration)
            if type?.exactTarget == .targets {
                let listed = try await clipboard.offeredTypes().map { $0 + "\n" }.joined()
                PasteWatchdog.disarm()
                try Output.write(listed, to: STDOUT_FILENO)
                return
            }
            try await paste(from: clipboard)
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
    }

    private func paste(from clipboard: some PasteSource) async throws {
        let available = try await clipboard.availableTypes()
        if listTypes {
            PasteWatchdog.disarm()
            try TypeListing.print(available, json: json)
            return
        }
        guard let chosen = choose(from: available, clipboard: clipboard) else {
            let asked = type?.text ?? "text"
            throw CLIFailure(status: .nothingToPaste,
                             message: "\(selection.rawValue) has no \(asked)",
                             details: CLIFailure.availableLines(available.filter { !$0.isConverted }
                                 .map { ($0.target.rawValue, $0.contentType.identifier) }))
        }
        if let output {
            try await write(chosen, from: clipboard, toFile: output)
        } else {
            try await writeToStandardOutput(chosen, from: clipboard)
        }
    }

    /// What was asked, as ``PasteLadder`` takes it: the exact target named (a MIME type, an X target name),
    /// the type a word or UTI names, or nothing — with the type of the output file's extension, when it has one.
    var ladderRequest: PasteLadder.Request {
        if let type { return type.exactTarget.map(PasteLadder.Request.target) ?? .type(type.contentType) }
        guard let output, let ext = output.split(separator: "/").last?.split(separator: ".").dropFirst().last,
            let inferred = MIMEDatabase.resolving({ UTType(filenameExtension: String(ext)) }, isKnown: { !$0.isDynamic })
        else { return .unspecified(inferred: nil) }
        return .unspecified(inferred: inferred)
    }

    /// The ladder's choice among what the owner offers (the TARGETS already read; converted types are the
    /// ladder's to make).
    private func choose(from available: [ClipboardType], clipboard: some PasteSource) -> ClipboardType? {
        let offered = available.filter { !$0.isConverted }.map(\.target)
        return PasteLadder.choose(ladderRequest, offered: offered, converters: clipboard.configuration.converters)
    }

    private func writeToStandardOutput(_ chosen: ClipboardType, from clipboard: some PasteSource) async throws {
        let lastByte = Mutex<UInt8?>(nil)
        _ = try await clipboard.read(chosen) { chunk in
            guard let last = chunk.last else { return }
            if lastByte.withLock({ $0 == nil }) { PasteWatchdog.disarm() }
            try chunk.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
            lastByte.withLock { $0 = last }
        }
        if !noNewline, chosen.contentType.conforms(to: .text) {
            try Output.endLineOnTerminal(after: lastByte.withLock { $0 })
        }
    }

    /// Streams into a temporary file next to `path`, renamed over it only when the paste completed:
    /// a failed paste never truncates an existing file.
    private func write(_ chosen: ClipboardType, from clipboard: some PasteSource, toFile path: String) async throws {
        // The directory part of the path as typed ("out.png" → ".", "/out.png" → "/").
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard let (descriptor, temporary) = PrivateFiles.makeFile(in: directory, prefix: ".clipbridge-paste.")
        else {
            throw CLIFailure(status: .ioError, message: "cannot write in \(directory): " + String(cString: strerror(errno)))
        }
        do {
            _ = try await clipboard.read(chosen) { chunk in
                PasteWatchdog.disarm()
                try chunk.withUnsafeBytes { try Output.write($0, to: descriptor) }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        // mkstemp makes 0600 files; a pasted file gets the usual mode under the umask (read, not toggled: the
        // process has other threads).
        fchmod(descriptor, 0o666 & ~FileCreationMask.current)
        let closed = close(descriptor) == 0
        guard closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIFailure(status: .ioError, message: "cannot write \(path): \(reason)")
        }
    }
}
