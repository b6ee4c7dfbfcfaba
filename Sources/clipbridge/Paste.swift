// ClipBridge — the clipbridge command-line tool.
// `clipbridge paste`: write a selection's content, the best text by default, streaming.

import ArgumentParser
import ClipBridge
import Foundation
import Glibc
import Synchronization
import UniformTypes
import X11Selection

struct Paste: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the content of a selection to standard output (the best text by default).",
        discussion: """
            Without -t, the best text is written; when the owner offers no text at all, its richest \
            type is. -t takes a MIME type, a UTI, an X target name, or a generic word (text, image, \
            audio, video, url, files), and is conformance-aware: -t public.image picks the richest \
            image offered. With --output, the type may be inferred from the file's extension (never \
            from its old content). Output streams with bounded memory at any size.

            A newline is added after text that does not end with one only when standard output is a \
            terminal; --no-newline turns that off. Pipes and files always get the exact bytes.

            EXAMPLES:
              clipbridge paste
              clipbridge paste --list-types
              clipbridge paste --list-types --json -p
              clipbridge paste -t image -o shot.png
              clipbridge paste -o page.html            # text/html, from the extension
              clipbridge paste -t text/html --timeout 2
            """
    )

    @OptionGroup var displayOptions: DisplayOptions
    @OptionGroup var selectionOptions: SelectionOptions

    @Option(name: [.customShort("t"), .long],
            help: ArgumentHelp("The type to paste: MIME type, UTI, X target, or text/image/….", valueName: "type"))
    var type: TypeName?

    @Flag(name: [.customShort("l"), .long], help: "List the offered types, richest first, with their UTType.")
    var listTypes = false

    @Flag(name: .long, help: "With --list-types: print JSON.")
    var json = false

    @Option(name: [.customShort("o"), .long],
            help: ArgumentHelp("Write to FILE instead of standard output (replaced only after a complete paste).",
                               valueName: "file"),
            completion: .file())
    var output: String?

    @Flag(name: [.customShort("n"), .long], help: "Never add a newline after text.")
    var noNewline = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the owner's answer and for each chunk.",
                                            valueName: "seconds"))
    var timeout: Double = 5

    /// `paste` with every option at its default, built without ArgumentParser's reflection-based parse
    /// (used for a bare `clipbridge paste`; see `ClipBridgeCommand.main`). Each property must be set:
    /// an unparsed ArgumentParser property wrapper cannot be read.
    static func withDefaults() -> Paste {
        var paste = Paste()
        var display = DisplayOptions()
        display.display = nil
        paste.displayOptions = display
        var selection = SelectionOptions()
        selection.selection = .clipboard
        selection.primary = false
        paste.selectionOptions = selection
        paste.type = nil
        paste.listTypes = false
        paste.json = false
        paste.output = nil
        paste.noNewline = false
        paste.timeout = 5
        return paste
    }

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number.") }
        if json && !listTypes { throw ValidationError("--json goes with --list-types.") }
        if listTypes && (output != nil || type != nil) {
            throw ValidationError("--list-types takes no -t or --output.")
        }
    }

    func run() async throws {
        MIMEDatabase.restrict()
        let display = displayOptions.display
        let selection = selectionOptions.name
        do {
            try await Connections.withClipboard(selection, display: display, timeout: timeout) { clipboard in
                try await paste(from: clipboard)
            }
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
    }

    private func paste(from clipboard: Clipboard) async throws {
        let available = try await clipboard.availableTypes()
        if listTypes {
            try TypeListing.print(available, json: json)
            return
        }
        guard let chosen = try await choose(from: available, clipboard: clipboard) else {
            let asked = type?.text ?? "text"
            throw CLIFailure(status: .nothingToPaste,
                             message: "\(selectionOptions.name.rawValue) has no \(asked)",
                             details: CLIFailure.availableLines(available.filter { !$0.isConverted }
                                 .map { ($0.target.rawValue, $0.contentType.identifier) }))
        }
        if let output {
            try await write(chosen, from: clipboard, toFile: output)
        } else {
            try await writeToStandardOutput(chosen, from: clipboard)
        }
    }

    /// The paste ladder (wl-paste's `mime_type_to_request`, made conformance-aware): the exact
    /// target asked for; else the richest offered type conforming to the asked type; else the type of
    /// the output file's extension; else the best text; else, with no -t, the richest type offered.
    private func choose(from available: [ClipboardType], clipboard: Clipboard) async throws -> ClipboardType? {
        if let type {
            if let exact = type.exactTarget {
                return available.first { $0.target == exact && !$0.isConverted }
                    ?? available.first { $0.target == exact }
            }
            return try await best(type.contentType, in: available, clipboard: clipboard)
        }
        if let output, let ext = output.split(separator: "/").last?.split(separator: ".").dropFirst().last,
           let inferred = MIMEDatabase.consulting({ UTType(filenameExtension: String(ext)) }), !inferred.isDynamic,
           let best = try await best(inferred, in: available, clipboard: clipboard) {
            return best
        }
        if let text = try await best(.plainText, in: available, clipboard: clipboard) { return text }
        let skipped: Set<SelectionTarget> = [TargetMapping.passwordManagerHint, TargetMapping.kdeCutSelection]
        return available.first { !$0.isConverted && !skipped.contains($0.target) }
    }

    /// The richest offered type conforming to `request`, from the TARGETS already read; only when none
    /// does, the bridge's `bestType`, which also considers partial conversions (HTML → text) at the cost
    /// of asking for TARGETS again.
    private func best(_ request: UTType, in available: [ClipboardType], clipboard: Clipboard) async throws
        -> ClipboardType?
    {
        let mapped = TargetMapping.targets(for: request)
        if let offered = available.first(where: {
            !$0.isConverted && ($0.contentType.conforms(to: request) || mapped.contains($0.target))
        }) {
            return offered
        }
        return try await clipboard.bestType(for: request)
    }

    private func writeToStandardOutput(_ chosen: ClipboardType, from clipboard: Clipboard) async throws {
        let lastByte = Mutex<UInt8?>(nil)
        _ = try await clipboard.read(chosen) { chunk in
            guard let last = chunk.last else { return }
            try chunk.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
            lastByte.withLock { $0 = last }
        }
        let isText = chosen.contentType.conforms(to: .text)
        if isText, !noNewline, isatty(STDOUT_FILENO) == 1, let last = lastByte.withLock({ $0 }), last != 0x0A {
            try Output.write("\n", to: STDOUT_FILENO)
        }
    }

    /// Streams into a temporary file next to `path`, renamed over it only when the paste completed:
    /// a failed paste never truncates an existing file.
    private func write(_ chosen: ClipboardType, from clipboard: Clipboard, toFile path: String) async throws {
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.clipbridge-paste.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { Descriptors.makeTemporaryFile($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CLIFailure(status: .ioError, message: "cannot write in \(directory.isEmpty ? "." : directory): "
                             + String(cString: strerror(errno)))
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do {
            _ = try await clipboard.read(chosen) { chunk in
                try chunk.withUnsafeBytes { try Output.write($0, to: descriptor) }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        // mkstemp makes 0600 files; a pasted file gets the usual mode under the umask.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        let closed = close(descriptor) == 0
        guard closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIFailure(status: .ioError, message: "cannot write \(path): \(reason)")
        }
    }
}
