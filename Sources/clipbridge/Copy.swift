// ClipBridge — the clipbridge command-line tool.
// `clipbridge copy`: own a selection and serve typed content, detached by default.

import ArgumentParser
import ClipBridgeOptions
import X11Selection

/// `--add TYPE=PATH`: one more representation of the copied item.
struct AddedRepresentation: ExpressibleByArgument, Sendable {
    var type: TypeName
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="),
              let type = TypeName.resolve(String(argument[..<equals])) else { return nil }
        self.type = type
        self.path = String(argument[argument.index(after: equals)...])
        if path.isEmpty { return nil }
    }
}

struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy text, standard input or files to a selection, and serve it from the background.",
        discussion: """
            With no TEXT, standard input is copied. The command returns as soon as the selection is \
            owned; a detached server (new session, no terminal, SIGHUP ignored) keeps serving until \
            another client copies, the --loops count is reached, or it receives SIGTERM. Large input \
            goes to a private temporary file, never to memory.

            Types are detected from the file name and the content, and text is never hidden: content \
            that reads as text always also offers the text family (UTF8_STRING, text/plain, STRING, …).

            EXAMPLES:
              clipbridge copy "hello world"
              echo hi | clipbridge copy
              x=$(date | clipbridge copy)              # returns at once
              clipbridge copy --file shot.png          # image/png, detected
              clipbridge copy -t text/html < page.html # text/html plus the text family
              clipbridge copy --add application/json=note.json --add text/plain=note.txt
              clipbridge copy --files a.pdf b.png --cut
              pass show site | clipbridge copy --sensitive --paste-once
              clipbridge copy --clear -p
              ssh devbox 'make 2>&1 | clipbridge copy'   # no display there: through your terminal (OSC 52)

            NO DISPLAY: where neither DISPLAY nor WAYLAND_DISPLAY is set but there is a terminal — a shell on \
            a machine reached by ssh — the text goes to the terminal as OSC 52, which sets the clipboard of \
            the machine you sit at (xterm, kitty, foot, WezTerm, Alacritty, Konsole, Windows Terminal; not \
            GNOME Terminal). Inside tmux, through `tmux load-buffer -w`; inside screen, through its passthrough. \
            Past what the terminal is known to take (100,000 bytes of base64 unless it is known to take more or \
            less: kitty 6,138, xterm 1,000,000), it fails with status 1 and copies nothing. --osc52 goes through \
            the terminal even where a display is set.
            """
    )

    @OptionGroup var displayOptions: DisplayOptions
    @OptionGroup var selectionOptions: SelectionOptions

    @Argument(help: "Text to copy (the arguments joined by spaces). Without TEXT, standard input is copied.")
    var text: [String] = []

    @Option(name: [.customShort("t"), .long],
            help: ArgumentHelp("The type of the content: a MIME type, a UTI or an X target name. Disables detection.",
                               valueName: "type"))
    var type: TypeName?

    @Option(name: .long, help: ArgumentHelp("Copy a file's content ('-' for standard input); its type is "
                                            + "detected from its name and content unless -t is given.",
                                            valueName: "path"),
            completion: .file())
    var file: String?

    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Offer one more representation: TYPE=PATH ('-' for standard input), under the name "
                               + "TYPE as given. Repeatable; offered richest first (see --keep-order).",
                               valueName: "type=path"))
    var add: [AddedRepresentation] = []

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Copy files as a file manager does (text/uri-list, x-special/gnome-copied-files, "
                               + "the paths as text).", valueName: "path"),
            completion: .file())
    var files: [String] = []

    @Flag(name: .long, help: "With --files: mark the files cut (a file manager's paste moves them).")
    var cut = false

    @Flag(name: .long, help: ArgumentHelp("Mark the content sensitive (x-kde-passwordManagerHint = secret): "
                                          + "clipboard managers and history tools do not record it."))
    var sensitive = false

    @Flag(name: .long, help: "Serve one paste, then release the selection (same as --loops 1).")
    var pasteOnce = false

    @Option(name: .long, help: ArgumentHelp("Serve N pastes, then release. Only content transfers count, and a "
                                            + "requestor fetching again within 0.5 s counts once.", valueName: "n"))
    var loops: Int?

    @Flag(name: .long, help: ArgumentHelp("Serve from this process until ownership is lost or SIGINT/SIGTERM "
                                          + "arrives, then release cleanly."))
    var foreground = false

    @Flag(name: .long, help: "Clear the selection (whoever owns it) and exit.")
    var clear = false

    @Flag(name: .long, help: ArgumentHelp("Offer the representations in the order given (the main content, then "
                                          + "each --add) instead of richest first (images, rich text, URLs, plain text)."))
    var keepOrder = false

    @Flag(name: .long, help: "Copy through the terminal (OSC 52) even where a display is set.")
    var osc52 = false

    @Option(name: .long, help: ArgumentHelp(
        "The most base64 bytes the terminal takes in one OSC 52 sequence, where it is not known (default: 100000).",
        valueName: "bytes"))
    var osc52Limit: Int?

    func validate() throws {
        if let osc52Limit, osc52Limit < 4 { throw ValidationError("--osc52-limit must be at least 4.") }
        let sources = (text.isEmpty ? 0 : 1) + (file == nil ? 0 : 1) + (files.isEmpty ? 0 : 1)
        if sources > 1 { throw ValidationError("Give only one of TEXT, --file and --files.") }
        if !files.isEmpty && (!add.isEmpty || type != nil) {
            throw ValidationError("--files cannot be combined with --add or -t.")
        }
        if cut && files.isEmpty { throw ValidationError("--cut needs --files.") }
        if let loops, loops < 1 { throw ValidationError("--loops must be at least 1.") }
        if pasteOnce && loops != nil && loops != 1 { throw ValidationError("--paste-once conflicts with --loops.") }
        if clear && (sources > 0 || !add.isEmpty) { throw ValidationError("--clear takes no content.") }
        let stdinUses = (file == "-" ? 1 : 0) + add.filter { $0.path == "-" }.count
        if stdinUses > 1 { throw ValidationError("Standard input can be used only once.") }
    }

    /// The copy as plain values (what runs it: `CopyRequest`).
    var request: CopyRequest {
        CopyRequest(display: displayOptions.display, selection: selectionOptions.name, text: text,
                    type: type, file: file, add: add, files: files, cut: cut, sensitive: sensitive,
                    pasteOnce: pasteOnce, loops: loops, foreground: foreground, clear: clear, keepOrder: keepOrder,
                    osc52: osc52, osc52Limit: osc52Limit)
    }

    func run() async throws {
        try await request.run()
    }
}
