// ClipBridge — the clipbridge command-line tool.
// `clipbridge paste`: write a selection's content, the best text by default, streaming.

import ArgumentParser
import ClipBridgeOptions
import X11Selection

struct Paste: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the content of a selection to standard output (the best text by default).",
        discussion: """
            Without -t, the best text is written, in UTF-8; when the owner offers no text at all, its \
            richest type is. -t takes a MIME type, a UTI, an X target name, or a generic word (text, \
            image, audio, video, url, files), and is conformance-aware: -t public.image picks the \
            richest image offered. A name the owner offers exactly (STRING, COMPOUND_TEXT, \
            text/plain;charset=ISO-8859-1) gives the owner's bytes unchanged, as xclip does; only a \
            generic name (text, a UTI, a type family) or one the owner does not offer is converted \
            (charset to UTF-8, image format, HTML to text). With --output, the type may be inferred \
            from the file's extension (never from its old content). Output streams with bounded memory \
            at any size. As with xclip, -t TARGETS prints the owner's target names one per line in \
            its order, and -t TIMESTAMP the time it took the selection (any INTEGER reply, \
            such as ICCCM's LENGTH, prints as decimal numbers).

            A newline is added after text that does not end with one only when standard output is a \
            terminal; --no-newline turns that off. Pipes and files always get the exact bytes.

            EXAMPLES:
              clipbridge paste
              clipbridge paste --list-types
              clipbridge paste --list-types --json -p
              clipbridge paste -t image -o shot.png
              clipbridge paste -o page.html            # text/html, from the extension
              clipbridge paste -t text/html --timeout 2
              clipbridge paste -t TARGETS              # as xclip -o -t TARGETS
            """
    )

    @OptionGroup var displayOptions: DisplayOptions
    @OptionGroup var selectionOptions: SelectionOptions

    @Option(name: [.customShort("t"), .long],
            help: ArgumentHelp("The type to paste: MIME type, UTI, X target, or text/image/….", valueName: "type"))
    var type: TypeName?

    @Flag(name: [.customShort("l"), .long], help: ArgumentHelp(
        "List the offered types with their UTType: the owner's targets in the owner's order (its richest first, as it "
        + "ranks them), then the types ClipBridge can convert to, cheapest first."))
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

    @Option(name: .long, help: ArgumentHelp(
        "Seconds to wait for the owner's answer and for each chunk; the paste must start writing within it.",
        valueName: "seconds"))
    var timeout = Seconds(5)

    func validate() throws {
        if json && !listTypes { throw ValidationError("--json goes with --list-types.") }
        if listTypes && (output != nil || type != nil) {
            throw ValidationError("--list-types takes no -t or --output.")
        }
    }

    /// The paste as plain values (what runs it: `PasteRequest`).
    var request: PasteRequest {
        PasteRequest(display: displayOptions.display, selection: selectionOptions.name, type: type,
                     listTypes: listTypes, json: json, output: output, noNewline: noNewline, timeout: timeout)
    }

    func run() async throws {
        try await request.run()
    }
}
